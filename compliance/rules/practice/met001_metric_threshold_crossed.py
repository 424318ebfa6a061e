"""A layer metric whose newest export crosses its threshold."""

from __future__ import annotations

from collections.abc import Iterator

from compliance.check.context import CheckContext
from compliance.diagnostics import Diagnostic
from compliance.rules.base import Rule


class MetricThresholdCrossed(Rule):
    """A metric whose value in its newest export is above its `max` or below its `min`.

    ## What it does
    Computes every metric of the model (`metrics:`) from the exports it cites
    and flags each one whose newest export crosses its threshold, at the
    `max` or `min` key that was crossed. The message gives the value, how it
    was counted and the export it came from.

    ## Why is this bad?
    The model says what each layer does; the metrics show whether it holds in
    practice. A rising share of agent pull requests that touch workflow files,
    a rejection rate of zero (review that approves everything), hours to
    revoke a leaked credential, months-old cached environments or agents with
    dozens of tools each say a layer is weaker than the report claims.

    ## Example
    ```yaml
    metrics:
      - id: MET-PR-REJECT
        kind: agent-pr-rejection-rate
        evidence: [prs-2026-11]
        min: 2          # 0 of 40 agent pull requests pushed back: rubber-stamping?
    ```

    ## Use instead
    Look at what changed (the report charts the trend across exports), fix the
    practice, or, if the threshold was wrong, change it and say why in
    `rationale:`.

    ## Sources
    OWASP LLM06 Excessive Agency (excessive functionality, permissions and
    autonomy); CIS Controls v8, control 8 (audit log management) and 6 (access
    control management: revoke access promptly).
    """

    code = "MET001"
    name = "metric-threshold-crossed"
    family = "practice"

    def check(self, ctx: CheckContext) -> Iterator[Diagnostic]:
        from compliance.check.practice import practice_of
        from compliance.practice.metrics import CROSSED

        for r in practice_of(ctx).metrics:
            if r.status != CROSSED or r.value is None:
                continue
            m, last = r.metric, r.points[-1]
            key = "max" if m.max is not None and r.value > m.max else "min"
            yield self.diagnostic(
                ctx.pos("metrics", m.id, key),
                f"metric {m.id} ({r.title}) is {r.shown} in {last.export} "
                f"(collected {last.collected}; {last.note}), beyond its threshold of "
                f"{r.threshold}")
