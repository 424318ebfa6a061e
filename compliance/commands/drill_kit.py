"""`compliance drill-kit`: write a hostile-README test repository and a checklist from the model."""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import click

from compliance.commands.options import (
    EXIT_OK,
    force_option,
    load_and_check_or_exit,
    stop_on_model_errors,
)


@click.command("drill-kit")
@click.argument("workspace", required=False, default=".", type=click.Path(file_okay=False))
@click.option("--out", required=True, type=click.Path(file_okay=False),
              help="Folder to write the kit into (created if missing; other files in it are "
                   "left alone).")
@click.option("--today", type=click.DateTime(["%Y-%m-%d"]), default=None,
              help="Check as of this date (YYYY-MM-DD) instead of today.")
@force_option
def drill_kit(workspace: str, out: str, today: dt.datetime | None, force: bool) -> None:
    """Write a layer-drill kit for WORKSPACE into --out.

    \b
    The kit (all or nothing, same bytes for the same model):
      hostile-repo/       a test repository with an injected instruction in a
                          vendored package's README (harmless: a canary
                          string and a host under .invalid that never resolves)
      checklist.md        per layer: its controls and verdicts, what the
                          README-injection trace expects, what to record
      drill-record.yaml   a drills/*.yaml record to fill in
    A kit file that exists with other content (a filled-in record, notes in the
    checklist) is kept and nothing is written (exit 2), unless --force.
    \b
    Examples:
      compliance drill-kit --out drill-kit
    """
    from compliance.practice.kit import checklist, record_template, repository_files
    from compliance.practice.trace import verdict_word
    from compliance.render.atomic import staged_outputs, write_bytes

    checked = load_and_check_or_exit(workspace, today)
    model, practice = checked.workspace.model, checked.result.practice
    if model is None or practice is None:
        stop_on_model_errors(checked, "no kit: the model has errors; fix them first")
    verdicts = {c.id: verdict_word(checked.result.verdicts.get(c.id), c) for c in model.controls}
    files = {**repository_files(),
             "checklist.md": checklist(model, verdicts, practice.trace("readme-injection")),
             "drill-record.yaml": record_template(model)}
    with staged_outputs(Path(out), replace_changed=force) as staging:
        for name, text in sorted(files.items()):
            write_bytes(staging, name, text.encode())
    sys.stdout.write(f"wrote {len(files)} files to {out}\n")
    sys.exit(EXIT_OK)
