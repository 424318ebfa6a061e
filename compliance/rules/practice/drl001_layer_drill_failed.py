"""A layer whose newest drill failed."""

from __future__ import annotations

from collections.abc import Iterator

from compliance.check.context import CheckContext
from compliance.diagnostics import Diagnostic
from compliance.rules.base import Rule


class LayerDrillFailed(Rule):
    """A layer whose newest recorded drill (`drills/*.yaml`) failed.

    ## What it does
    For each layer, takes its result in the newest drill that covered it and
    flags a `failed` result at that result in the drill record. The controls
    the result names are not VERIFIED in any output (stance, report, answers,
    tabletop) until a later drill of the layer passes: a failed drill
    outranks a passing configuration check.

    ## Why is this bad?
    A configuration check reads what a file says; a drill shows what the
    layer did when a hostile instruction was planted. When they disagree, the
    drill is the better evidence, and a claim the drill contradicted must not
    be told to a customer as verified.

    ## Example
    ```yaml
    drill:
      date: 2026-11-20
      layers:
        - layer: pipeline
          expected: The changed workflow waits for a maintainer's approval.
          happened: CI ran the changed workflow on the pull request at once.
          result: failed
          controls: [PIPE-01]
    ```

    ## Use instead
    Fix the layer, run the drill again (`compliance drill-kit` writes the
    kit) and record the passing run in a new file under drills/.

    ## Sources
    OWASP LLM01 Prompt Injection, "Conduct adversarial testing and attack
    simulations"; NIST SP 800-84 (exercises test capabilities, not plans).
    """

    code = "DRL001"
    name = "layer-drill-failed"
    family = "practice"

    def check(self, ctx: CheckContext) -> Iterator[Diagnostic]:
        from compliance.check.practice import practice_of
        from compliance.model.practice import DrillResult

        for layer, (i, result) in sorted(practice_of(ctx).drills.items()):
            if result.result is not DrillResult.FAILED:
                continue
            drill = ctx.model.drills[i]
            n = drill.layers.index(result)
            names = ", ".join(result.controls) or "no control named"
            yield self.diagnostic(
                ctx.pos("drills", str(i), "layers", n, "result"),
                f"the {layer.value} layer failed its newest drill ({drill.scenario}, "
                f"{drill.date}): {' '.join(result.happened.split())} Not VERIFIED until a "
                f"drill passes: {names}")
