"""No tabletop exercise recorded within the workspace's interval."""

from __future__ import annotations

from collections.abc import Iterator

from compliance.check.context import CheckContext
from compliance.diagnostics import Diagnostic, Level
from compliance.rules.base import Rule
from compliance.rules.practice._interval import not_done_within


class NoRecentExercise(Rule):
    """No tabletop exercise recorded within `exercise_interval_days` (default 180).

    ## What it does
    Looks at the dates of the records in `exercises/*.yaml` and flags the
    workspace when the newest is older than `exercise_interval_days` (set in
    compliance.yaml), or when there is none. The finding points at the newest
    exercise's `date`, or at `system:` when nothing was ever recorded. It
    applies once a workspace has taken up the practice: it has an
    `exercises/` or `scenarios/` folder, or sets `tabletop_scenarios`.

    ## Why is this bad?
    Controls drift, people change and new paths appear. A model that was last
    walked through by the people who run it long ago describes a system they
    no longer know.

    ## Example
    The newest record is `exercises/2025-09-readme.yaml` with
    `date: 2025-09-10`, and today is 2026-12-01.

    ## Use instead
    Run `compliance tabletop SCENARIO --worksheet md --out worksheet.md`,
    hold the exercise, and record it in `exercises/` with its participants,
    findings and at least two improvements.

    ## Sources
    NIST SP 800-84 (exercises on a regular schedule); PCI DSS v4.0
    requirement 12.10.2 (the incident response plan is tested at least once
    every 12 months).
    """

    code = "TTX003"
    name = "no-recent-exercise"
    family = "practice"
    level = Level.WARNING

    def check(self, ctx: CheckContext) -> Iterator[Diagnostic]:
        from compliance.check.practice import practice_of

        result = practice_of(ctx)
        if not result.adopted:
            return
        last = None
        if result.last_exercise is not None:
            newest = max(range(len(ctx.model.exercises)),
                         key=lambda i: ctx.model.exercises[i].date)
            last = (result.last_exercise, ctx.pos("exercises", str(newest), "date"))
        yield from not_done_within(
            type(self), ctx, result.exercise_interval_days, last,
            never="no tabletop exercise is recorded in exercises/; run one "
                  "(`compliance tabletop`) and record it",
            last_done="the last tabletop exercise was", again="run and record another")
