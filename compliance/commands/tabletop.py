"""`compliance tabletop [SCENARIO]`: trace attacker scenarios through the checked model."""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import click

from compliance.commands.options import (
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_UNREADABLE,
    fail_unreadable,
    force_option,
    load_and_check_or_exit,
    stop_on_model_errors,
)


@click.command("tabletop")
@click.argument("scenario", required=False)
@click.option("-w", "--workspace", default=".", show_default=True,
              type=click.Path(file_okay=False), help="The workspace folder.")
@click.option("--worksheet", "worksheet", type=click.Choice(["md", "html"]), default=None,
              help="Write a worksheet with the discussion questions instead of printing "
                   "the trace (needs --out).")
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="File to write the worksheet to (an existing one with other content, "
                   "e.g. the exercise's notes, is kept unless --force).")
@click.option("--today", type=click.DateTime(["%Y-%m-%d"]), default=None,
              help="Check as of this date (YYYY-MM-DD) instead of today.")
@force_option
def tabletop(scenario: str | None, workspace: str, worksheet: str | None, out: str | None,
             today: dt.datetime | None, force: bool) -> None:
    """Trace SCENARIO (default: every scenario) through the controls of the workspace.

    For each attacker step: which controls act on it by layer and kind, each
    control's verdict, whether the step is stopped, only made harder, or
    passes, the limits it goes through and what the logs would show; then the
    single points of failure. Scenarios are built in (`compliance tabletop`
    lists them) or written in scenarios/*.yaml. Exit 1 when a traced path
    passes (no deployed, verified control stops it) or the model has errors.

    \b
    Examples:
      compliance tabletop                              # every scenario, one line each
      compliance tabletop readme-injection             # the trace, step by step
      compliance tabletop readme-injection --worksheet md --out worksheet.md
    """
    from compliance.practice.worksheet import (
        format_summary_text,
        format_trace_text,
        practice_view,
        trace_view,
    )

    if worksheet and not out:
        raise click.UsageError("--worksheet needs --out FILE")
    checked = load_and_check_or_exit(workspace, today)
    model = checked.workspace.model
    practice = checked.result.practice
    if model is None or practice is None:
        stop_on_model_errors(checked, "no trace: the model has errors; fix them first")
    traces = practice.traces
    if scenario is not None:
        chosen = practice.trace(scenario)
        if chosen is None:
            known = ", ".join(t.scenario.id for t in traces)
            sys.stderr.write(f"error: no scenario {scenario!r}; known: {known}\n")
            sys.exit(EXIT_UNREADABLE)
        traces = (chosen,)
    views = [trace_view(t) for t in traces]
    if worksheet and out:
        from compliance.atomic import write_text_atomic
        from compliance.render.env import make_env
        from compliance.render.errors import RenderError
        from compliance.render.tabletop import render_worksheet, worksheet_context

        ctx = worksheet_context(model.system.name, model.system.last_reviewed.isoformat(),
                                tuple(views), practice_view(practice))
        try:
            text = render_worksheet(make_env(checked.workspace.root), ctx, worksheet)
        except RenderError as exc:
            fail_unreadable(str(exc))
            return
        write_text_atomic(Path(out), text, replace_changed=force)
        sys.stdout.write(f"wrote {out}\n")
    elif scenario is None:
        sys.stdout.write(format_summary_text(views))
    else:
        sys.stdout.write(format_trace_text(views[0]))
    # A LIMITED path (a verified control would stop it but for its own stated limit) is
    # not stopped, and says so everywhere; like TTX001 it fails only when the workspace
    # makes it an error (tabletop_limited). A path nothing would stop always fails.
    limited_fails = model.settings.tabletop_limited == "error"
    sys.exit(EXIT_OK if all(t.stopped or (t.limited and not limited_fails) for t in traces)
             else EXIT_FINDINGS)
