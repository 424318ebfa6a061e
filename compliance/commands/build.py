"""`compliance build`: check, then write the stance, report HTML/PDF, evidence pack, findings."""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import click

from compliance.commands.options import (
    EXIT_FINDINGS,
    EXIT_OK,
    color_for,
    fail_unreadable,
    record_options,
    workspace_argument,
)


class _Progress:
    """One overwritten status line on stderr, only when stderr is a terminal."""

    def __init__(self) -> None:
        self.enabled = color_for(sys.stderr)

    def __call__(self, message: str) -> None:
        if self.enabled:
            sys.stderr.write(f"\r\x1b[2Kbuilding: {message}...")
            sys.stderr.flush()

    def done(self) -> None:
        if self.enabled:
            sys.stderr.write("\r\x1b[2K")
            sys.stderr.flush()


@click.command("build")
@workspace_argument
@click.option(
    "--out",
    "out",
    type=click.Path(file_okay=False),
    default="out",
    show_default=True,
    help="Folder to write the outputs into, relative to the current folder (the default "
    "is ./out here, not inside WORKSPACE); not controls/, evidence/ or templates/ of the "
    "workspace, nor a folder inside them.",
)
@click.option(
    "--allow-findings",
    is_flag=True,
    help="Build even when the checks report errors; every output then states "
    "the open findings on its first page.",
)
@click.option("--strict", is_flag=True, help="Treat warnings as errors, like check --strict.")
@click.option(
    "--today",
    type=click.DateTime(["%Y-%m-%d"]),
    default=None,
    help="Check as of this date (YYYY-MM-DD) instead of today.",
)
@click.option(
    "--audience",
    type=click.Choice(["public", "nda", "internal"]),
    default="internal",
    show_default=True,
    help="Who the outputs are for: each shows only the controls and fields marked for that "
    "audience (audience: and field_audience: in the model and compliance.yaml); the stance "
    "and the limits of every claim shown always stay. The manifest and the report's first "
    "page say which.",
)
@click.option(
    "--sign",
    "sign_key",
    metavar="KEY",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Sign the pack's manifest.json with this SSH key (ssh-keygen -Y sign, namespace "
    "compliance-pack); the signature goes into the pack as manifest.json.sig.",
)
@record_options
def build(
    workspace: str, out: str, allow_findings: bool, strict: bool, today: dt.datetime | None,
    audience: str, sign_key: Path | None, record: str | None, replace_record: bool,
) -> None:
    """Check WORKSPACE, then write what customers and auditors receive into --out.

    \b
    Outputs (all or nothing; a failed build leaves the previous ones):
      stance.md          the defensible summary, then its limits and gaps
      report.html        the audit report, one standalone file
      report.pdf         the same report as tagged PDF/A-3u, manifest attached
      evidence-pack.zip  model, findings, evidence files, report and manifest.json
      findings.json      the check results
    With errors nothing is written and the exit code is 1; with --allow-findings
    everything is written and the exit code is still 1.
    An output folder that cannot be written, or a folder in the way of an
    output, stops the build (exit 2) with the previous outputs as they were.
    Two builds of the same workspace on the same day give identical bytes.

    \b
    Examples:
      compliance build --out out
      compliance build path/to/ws --out dist/audit --allow-findings
      compliance build --out out --record acme-bank-2026-q4
      compliance build --out for-acme --audience public
      compliance build --out out --sign ~/.ssh/id_ed25519
    """
    from compliance.diagnostics import UserError
    from compliance.disclose.records import record_destination
    from compliance.formats import emit
    from compliance.model.audience import Audience
    from compliance.pipeline import load_and_check
    from compliance.render.output_folder import refuse_input_folders
    from compliance.report import make_report

    reader = Audience(audience)
    progress = _Progress()
    progress("checking")
    try:
        refuse_input_folders(Path(workspace), Path(out))
        record_destination(Path(workspace), record, replace_record)
        checked = load_and_check(Path(workspace), today.date() if today else None, strict)
    except UserError as exc:
        progress.done()
        fail_unreadable(exc.message, exc.diagnostics)
        return
    if not checked.ok and (not allow_findings or checked.workspace.model is None):
        progress.done()
        emit(make_report(checked), "text", sys.stdout, color=color_for(sys.stdout))
        sys.stdout.write("nothing written: fix the errors above or use --allow-findings\n")
        sys.exit(EXIT_FINDINGS)

    from compliance.render.build import OUTPUTS
    from compliance.render.build import build as render_build

    try:
        render_build(checked, Path(out), forced=not checked.ok, progress=progress,
                     audience=reader, sign_key=sign_key)
    except UserError as exc:
        progress.done()
        fail_unreadable(exc.message, exc.diagnostics)
        return
    progress.done()
    if checked.result.findings:
        emit(make_report(checked), "text", sys.stdout, color=color_for(sys.stdout))
    sys.stdout.write(f"wrote {', '.join(OUTPUTS)} to {out}\n")
    if record is not None:
        from compliance.disclose.make import build_record
        from compliance.disclose.records import write_record
        from compliance.render.audience import Visibility

        assert checked.workspace.model is not None
        shown = Visibility(reader, checked.workspace.model).control_ids
        sent = build_record(checked, record, audience=reader, controls=shown)
        written = write_record(Path(workspace), sent, replace=replace_record)
        sys.stdout.write(f"recorded what was sent in {written}\n")
    sys.exit(EXIT_FINDINGS if not checked.ok else EXIT_OK)
