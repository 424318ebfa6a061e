"""`compliance export`: the checked model in formats other tools read (OSCAL)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import click

from compliance.commands.options import (
    load_and_check_or_exit,
    stop_on_model_errors,
    workspace_argument,
)

COMPONENT = "component-definition.json"
RESULTS = "assessment-results.json"


@click.group("export")
def export() -> None:
    """Export the checked model for other tools.

    \b
    Examples:
      compliance export oscal --out oscal
    """


@export.command("oscal")
@workspace_argument
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help=f"Folder to write {COMPONENT} and {RESULTS} into (created if missing).")
@click.option("--allow-findings", is_flag=True,
              help="Export even when the checks report errors (the assessment results then "
                   "show the refuted and unverified claims as not-satisfied).")
@click.option("--today", type=click.DateTime(["%Y-%m-%d"]), default=None,
              help="Check as of this date (YYYY-MM-DD) instead of today.")
def oscal(workspace: str, out: Path, allow_findings: bool, today: dt.datetime | None) -> None:
    """Write an OSCAL 1.2.1 component definition and assessment results.

    The component definition holds each control as an implemented requirement
    (claim, implementation, residual risk; layer, kind, status and limits as
    props; the limits' text as remarks; evidence as back-matter resources with
    their sha256). The assessment results hold, per control, what the
    configuration checks established (an observation) and a finding that is
    satisfied only when the claim is VERIFIED; waivers in force are risks with
    their expiry as the deadline. UUIDs are derived from ids and dates from
    system.last_reviewed: two exports of the same workspace are identical.
    Both files are written or neither is.

    \b
    Exit codes: 0 written; 1 the checks report errors (nothing written unless
                --allow-findings); 2 unreadable workspace or unwritable --out.
    \b
    Examples:
      compliance export oscal --out oscal
      compliance export oscal path/to/ws --out dist/oscal --allow-findings
    """
    from compliance.atomic import staged_files, writing_to
    from compliance.render.oscal import assessment_results, component_definition, dumps

    checked = load_and_check_or_exit(workspace, today)
    model = checked.workspace.model
    if model is None or (not checked.ok and not allow_findings):
        stop_on_model_errors(checked, "nothing written: fix the errors above"
                             f"{'' if model is None else ' or use --allow-findings'}")
    documents = {
        COMPONENT: dumps(component_definition(model)),
        RESULTS: dumps(assessment_results(model, checked.result.verdicts,
                                          checked.result.waivers_in_force)),
    }
    with writing_to(out):
        out.mkdir(parents=True, exist_ok=True)
    with staged_files([out / name for name in documents]) as staging:
        for name, data in documents.items():
            with writing_to(out / name):
                (staging / name).write_bytes(data)
    for name in documents:
        click.echo(f"wrote {out / name}")
