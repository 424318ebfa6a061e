"""`compliance verify`: check an evidence pack against its manifest, its model's pins, its PDF
and its signature."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from compliance.commands.options import EXIT_FINDINGS, EXIT_OK, fail_unreadable


@click.command("verify")
@click.argument("pack", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--allowed-signers", type=click.Path(dir_okay=False, path_type=Path),
              default=None, metavar="FILE",
              help="OpenSSH allowed-signers file: check manifest.json.sig against it "
                   "(ssh-keygen -Y verify, namespace compliance-pack).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True,
              help="text: one line per mismatch, then the verdict; json: the same as one "
                   "object (docs/report.md), also when the pack cannot be read.")
def verify(pack: Path, allowed_signers: Path | None, fmt: str) -> None:
    """Check that the files of PACK (evidence-pack.zip) are consistent, and who signed it.

    Every file against manifest.json (present, size, sha256, nothing unlisted),
    every evidence file against the sha256 pin model.json gives it, the
    manifest attached inside report.pdf against manifest.json, and with
    --allowed-signers the signature manifest.json.sig. Prints each thing that
    does not match. Exit 0 when all match, 1 when something does not, 2 when
    the pack cannot be read at all. A pack built with --allow-findings over
    open errors is named as such, with the count its findings.json records.

    Only a good signature shows that PACK is the pack that was built: anyone
    who can edit an unsigned zip can make its files consistent again. So an
    unsigned pack, or a signed one without --allowed-signers, is reported as
    "consistent", never as verified (exit 0; --allowed-signers makes a
    missing signature exit 1).

    \b
    Examples:
      compliance verify out/evidence-pack.zip
      compliance verify evidence-pack.zip --allowed-signers allowed_signers
      compliance verify evidence-pack.zip --format json
    """
    from compliance.diagnostics import UserError
    from compliance.packcheck import verify_pack

    try:
        result = verify_pack(pack, allowed_signers)
    except UserError as exc:
        fail_unreadable(exc.message, exc.diagnostics)
    out = sys.stdout
    if fmt == "json":
        from compliance.formats import Report, emit

        emit(Report(result.manifest_errors, extra=result.as_dict()), "json", out)
        sys.exit(EXIT_OK if result.ok else EXIT_FINDINGS)
    for d in result.manifest_errors:
        out.write(f"{d.path}:{d.line}:{d.column}: error {d.message} [{d.code}]\n")
    for problem in result.problems:
        out.write(f"{pack}: {problem.subject}: {problem.message}\n")
    if result.signed is not None:  # examined: manifest.json could be read
        out.write(f"signature: {result.signature}\n")
    out.write(f"{pack}: {result.verdict()}\n")
    sys.exit(EXIT_OK if result.ok else EXIT_FINDINGS)
