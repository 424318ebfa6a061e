"""`compliance verify`: check an evidence pack against its manifest, its PDF and its signature."""

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
def verify(pack: Path, allowed_signers: Path | None) -> None:
    """Check that PACK (evidence-pack.zip) is the pack that was built.

    Every file against manifest.json (present, size, sha256, nothing unlisted),
    the manifest attached inside report.pdf against manifest.json, and with
    --allowed-signers the signature manifest.json.sig. Prints each thing that
    does not match. Exit 0 when all match, 1 when something does not, 2 when
    the pack cannot be read at all. Without --allowed-signers a signature is
    reported as not checked, never as good.

    \b
    Examples:
      compliance verify out/evidence-pack.zip
      compliance verify evidence-pack.zip --allowed-signers allowed_signers
    """
    from compliance.diagnostics import UserError
    from compliance.packcheck import verify_pack

    try:
        result = verify_pack(pack, allowed_signers)
    except UserError as exc:
        fail_unreadable(exc.message, exc.diagnostics)
        return
    out = sys.stdout
    for d in result.manifest_errors:
        out.write(f"{d.path}:{d.line}:{d.column}: error {d.message} [{d.code}]\n")
    for problem in result.problems:
        out.write(f"{pack}: {problem.subject}: {problem.message}\n")
    if result.manifest_errors:
        out.write(f"{pack}: a manifest does not have the form of a pack manifest; nothing "
                  "else was checked\n")
        sys.exit(EXIT_FINDINGS)
    out.write(f"signature: {result.signature}\n")
    if result.ok:
        signed = ("; the signature is good" if result.signature_ok
                  else "; who signed it was not checked")
        out.write(f"{pack}: verified: {result.checked} files match manifest.json, and "
                  f"report.pdf's attached manifest matches it{signed}\n")
        sys.exit(EXIT_OK)
    out.write(f"{pack}: NOT verified: {len(result.problems)} problem(s) above\n")
    sys.exit(EXIT_FINDINGS)
