"""A declared metric that no export gives a value for."""

from __future__ import annotations

from collections.abc import Iterator

from compliance.check.context import CheckContext
from compliance.diagnostics import Diagnostic, Level
from compliance.rules.base import Rule


class MetricUnmeasured(Rule):
    """A metric with no value: no export cited, or none holds data for it.

    ## What it does
    Reports (level info) every metric whose newest export gives no value, at
    the metric's id, saying why: no export is cited, the export is missing
    or unreadable, or it holds nothing to count (no agent pull request, no
    request in the log, a tool count configuration cannot tell).

    ## Why is this bad?
    An unmeasured metric is not a good one. Showing it as zero would tell a
    customer that nothing was blocked, nothing was rejected or no credential
    needed revoking, when nobody looked.

    ## Example
    ```yaml
    metrics:
      - id: MET-REVOKE
        kind: revocation-hours
        max: 4
        evidence: []
    ```

    ## Use instead
    Export the data (docs/metrics.md names the format per kind), add it under
    evidence/ and cite it in the metric's `evidence:`.

    ## Sources
    NIST SP 800-55 Rev. 2 (measures need a data source; absent data is not
    a measurement).
    """

    code = "MET003"
    name = "metric-unmeasured"
    family = "practice"
    level = Level.INFO

    def check(self, ctx: CheckContext) -> Iterator[Diagnostic]:
        from compliance.check.practice import practice_of

        for r in practice_of(ctx).metrics:
            if r.value is not None:
                continue
            why = r.points[-1].note if r.points else "no export is cited (evidence: [])"
            yield self.diagnostic(ctx.pos("metrics", r.metric.id, "id"),
                                  f"metric {r.metric.id} ({r.title}) is UNMEASURED: {why}")
