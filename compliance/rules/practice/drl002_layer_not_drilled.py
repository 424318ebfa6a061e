"""A layer with no drill recorded within the interval."""

from __future__ import annotations

from collections.abc import Iterator

from compliance.check.context import CheckContext
from compliance.diagnostics import Diagnostic, Level
from compliance.model.enums import Status
from compliance.model.layers import Layer
from compliance.rules.base import Rule
from compliance.rules.practice._interval import not_done_within


class LayerNotDrilled(Rule):
    """A layer with a deployed control and no drill within `drill_interval_days` (180).

    ## What it does
    Once a workspace keeps a `drills/` folder, flags each layer that has a
    deployed or partial control but whose newest drill is older than
    `drill_interval_days` (compliance.yaml, default 180), or that was never
    drilled; at the newest drill's date, or at `system:` when there is none.

    ## Why is this bad?
    "How do we know our layers actually work?" A layer that was never tested
    with a planted instruction is known only from its configuration, and
    configuration drifts.

    ## Example
    The newest drill in drills/ covered isolation, network and git; the
    credentials, pipeline and logs layers were never drilled.

    ## Use instead
    Run `compliance drill-kit --out kit`, plant the hostile README in the
    test repository, run a task, and record per layer what was expected and
    what happened.

    ## Sources
    OWASP LLM01 Prompt Injection, "Conduct adversarial testing and attack
    simulations"; NIST SP 800-115, Technical Guide to Information Security
    Testing and Assessment.
    """

    code = "DRL002"
    name = "layer-not-drilled"
    family = "practice"
    level = Level.WARNING

    def check(self, ctx: CheckContext) -> Iterator[Diagnostic]:
        from compliance.check.practice import practice_of

        result = practice_of(ctx)
        if not result.drills_adopted:
            return
        interval = ctx.model.settings.drill_interval_days
        covered = {c.layer for c in ctx.model.controls if c.status is not Status.PLANNED}
        for layer in Layer:
            if layer not in covered:
                continue
            got = result.drills.get(layer)
            last = None if got is None else (
                ctx.model.drills[got[0]].date, ctx.pos("drills", str(got[0]), "date"))
            yield from not_done_within(
                type(self), ctx, interval, last,
                never=f"the {layer.value} layer was never drilled; record a drill in drills/ "
                      "(`compliance drill-kit`)",
                last_done=f"the {layer.value} layer was last drilled", again="drill it again")
