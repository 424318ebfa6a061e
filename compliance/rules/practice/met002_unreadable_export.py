"""An export a metric cites that cannot be read as its format."""

from __future__ import annotations

from collections.abc import Iterator

from compliance.check.context import CheckContext
from compliance.diagnostics import Diagnostic, Level
from compliance.rules.base import Rule


class UnreadableExport(Rule):
    """A metric's export that is not in the format its kind reads.

    ## What it does
    Flags every export (an evidence file a metric cites) that cannot be read
    as the format the metric's kind reads, at the line and column of the
    export where reading stopped. The metric then has no value from that
    export (UNMEASURED), never zero.

    ## Why is this bad?
    A metric computed from a file it cannot read would show a number nobody
    measured. The export is probably the wrong command's output, truncated,
    or from a tool version with another format.

    ## Example
    An `agent-pr-rejection-rate` metric citing the output of
    `gh pr list --json number,title`: it has no `reviews`.

    ## Use instead
    Re-export with the command docs/metrics.md gives for the metric's kind
    (`gh pr list --state all --json number,files,reviews,author,state`), pin
    it with `compliance evidence pin`, and cite it.

    ## Sources
    GitHub CLI manual, `gh pr list` (`--json` fields); Squid wiki,
    SquidFaq/SquidLogs (native access.log format).
    """

    code = "MET002"
    name = "unreadable-export"
    family = "practice"

    def check(self, ctx: CheckContext) -> Iterator[Diagnostic]:
        from compliance.check.practice import practice_of

        for r in practice_of(ctx).metrics:
            for exc in r.errors:
                d = exc.diagnostic
                yield Diagnostic(d.path, d.line, d.column, self.code, self.name, Level.ERROR,
                                 f"metric {r.metric.id}: {d.message}")
