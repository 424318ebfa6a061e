"""An improvement decided in a tabletop exercise that is past its due date."""

from __future__ import annotations

from collections.abc import Iterator

from compliance.check.context import CheckContext
from compliance.diagnostics import Diagnostic
from compliance.rules.base import Rule


class ImprovementOverdue(Rule):
    """An exercise improvement past its due date and not marked done.

    ## What it does
    Flags every improvement in `exercises/*.yaml` whose `due` date is before
    today and that has no `done` date, at its `due` key.

    ## Why is this bad?
    An exercise is worth what changes after it. An improvement that slips
    silently means the gap the exercise found is still open while the record
    says it was handled.

    ## Example
    ```yaml
    exercise:
      date: 2026-03-02
      improvements:
        - text: Alert on workflow edits in agent pull requests
          owner: appsec
          due: 2026-04-30
    ```

    ## Use instead
    Do it and record `done: 2026-04-28`, or agree a new `due` date with its
    owner and write it down.

    ## Sources
    NIST SP 800-84, section 7 (after-action report and improvement plan).
    """

    code = "TTX002"
    name = "improvement-overdue"
    family = "practice"

    def check(self, ctx: CheckContext) -> Iterator[Diagnostic]:
        from compliance.check.practice import practice_of

        for item in practice_of(ctx).open_improvements:
            if not item.overdue:
                continue
            imp = item.improvement
            yield self.diagnostic(
                ctx.pos("exercises", str(item.index), "improvements", item.number, "due"),
                f"improvement from the {item.exercise.scenario} exercise of "
                f"{item.exercise.date} was due on {imp.due} and is not done "
                f"(owner {imp.owner}): {' '.join(imp.text.split())}")
