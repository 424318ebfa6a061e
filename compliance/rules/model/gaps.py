"""A layer with no control is a gap, shown in every output, never silently omitted."""

from __future__ import annotations

from collections.abc import Iterator

from compliance.check.context import CheckContext
from compliance.diagnostics import Diagnostic, Level
from compliance.model.enums import Status
from compliance.model.layers import Layer
from compliance.rules.base import Rule


class LayerWithoutControl(Rule):
    """A layer of the six with no deployed or partial control.

    ## What it does
    Flags each of isolation, network, credentials, git, pipeline and logs that
    has no control with status `deployed` or `partial`.

    ## Why is this bad?
    A questionnaire answer or audit report that skips a layer hides a gap. The
    six layers are the six questions a reviewer asks; each needs an answer,
    even if the answer is "nothing yet".

    ## Example
    A model with controls for isolation, network and git only.

    ## Use instead
    Add the controls you have for the other layers, or a `planned` control that
    says what is missing; the gap is then named in every output.

    ## Sources
    OWASP LLM06 Excessive Agency lists least privilege, human approval and
    logging as separate preventions: none substitutes for another.
    """

    code = "GAP001"
    name = "layer-without-control"
    family = "layers"
    level = Level.WARNING

    def check(self, ctx: CheckContext) -> Iterator[Diagnostic]:
        covered = {c.layer for c in ctx.model.controls if c.status is not Status.PLANNED}
        for layer in Layer:
            if layer not in covered:
                yield self.diagnostic(
                    ctx.pos("system", "system", key=True),
                    f"layer {layer.value!r} has no deployed or partial control: "
                    f"'{layer.question}' is unanswered and every output shows it as a gap")
