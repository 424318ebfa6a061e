"""`compliance check`: load the workspace, run every rule, print findings, exit 0/1/2."""

from __future__ import annotations

import datetime as dt
import sys

import click

from compliance.commands.options import (
    EXIT_FINDINGS,
    EXIT_OK,
    color_for,
    load_and_check_or_exit,
    output_options,
    workspace_argument,
)


@click.command("check")
@workspace_argument
@output_options
@click.option("--today", type=click.DateTime(["%Y-%m-%d"]), default=None,
              help="Check as of this date (YYYY-MM-DD) instead of today: waiver expiry "
                   "and evidence age use it.")
def check(workspace: str, fmt: str, strict: bool, today: dt.datetime | None) -> None:
    """Check the model in WORKSPACE (default: current folder) and print findings.

    \b
    Examples:
      compliance check                      # the workspace in this folder
      compliance check path/to/ws --format sarif > results.sarif
      compliance check --format github      # annotations in GitHub Actions
    """
    from compliance.formats import emit
    from compliance.report import make_report

    checked = load_and_check_or_exit(workspace, today, strict)
    out = sys.stdout
    emit(make_report(checked), fmt, out, color=color_for(out))
    sys.exit(EXIT_OK if checked.ok else EXIT_FINDINGS)
