"""`compliance diff`: what got weaker or stronger since a record or a git revision, and who
is owed an update."""

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
    workspace_argument,
)


@click.command("diff")
@workspace_argument
@click.option("--since", "since", metavar="NAME|REV", default=None,
              help="A record in disclosures/ (NAME), else a git revision (main, HEAD~3, a "
                   "tag). Without it, every recorded disclosure is compared with the model.")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json"]),
              default="text", show_default=True,
              help="text for a terminal, markdown for a pull request comment, json for tools.")
@click.option("--today", type=click.DateTime(["%Y-%m-%d"]), default=None,
              help="Check as of this date (YYYY-MM-DD) instead of today.")
def diff(workspace: str, since: str | None, fmt: str, today: dt.datetime | None) -> None:
    """Say what changed in WORKSPACE's claims since a record or a git revision.

    Names every claim that got weaker (a control removed, its status or verdict
    lowered, an evidence file re-pinned with different content, a limit added)
    or stronger, new limits, answers that would now be drafted differently, and
    for each recorded disclosure whether whoever received it is owed an update.
    Exit 1 when one is, 0 when none is, 2 when something cannot be read (not a
    git repository, an unknown revision, a broken record).

    \b
    Examples:
      compliance diff                          # every recorded disclosure
      compliance diff --since acme-bank        # one record
      compliance diff --since main --format markdown   # in CI on a pull request
    """
    from compliance.diagnostics import UserError
    from compliance.disclose.diff import ModelDoesNotLoad, make_diff
    from compliance.disclose.diff_format import FORMATS

    try:
        report = make_diff(Path(workspace), since, today.date() if today else None)
    except UserError as exc:
        fail_unreadable(exc.message, exc.diagnostics)
        return
    except ModelDoesNotLoad as exc:
        from compliance.formats import emit
        from compliance.report import make_report

        emit(make_report(exc.checked), "text", sys.stdout, color=color_for(sys.stdout))
        sys.stderr.write(f"error: {exc}\n")
        sys.exit(EXIT_FINDINGS)
    sys.stdout.write(FORMATS[fmt](report))
    sys.exit(EXIT_FINDINGS if report.owed_update else EXIT_OK)
