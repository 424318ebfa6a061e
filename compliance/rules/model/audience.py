"""A limit marked for a narrower audience than a control that cites it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from compliance.check.context import CheckContext
from compliance.diagnostics import Diagnostic
from compliance.rules.base import Rule


class LimitHiddenFromClaimReader(Rule):
    """A limit marked for a narrower audience than a control that cites it.

    ## What it does
    Flags a limit whose `audience` (public < nda < internal) is narrower than
    the `audience` of a control that cites it, at the limit's `audience` key,
    naming the control.

    ## Why is this bad?
    `compliance build --audience public` shows public controls with their
    claims. If a limit of such a claim were hidden from that reader, the
    claim would read as stronger than it is: hiding the limit is an overclaim,
    not a redaction. The build never drops a limit of a claim it shows, so the
    model must not ask it to.

    ## Example
    ```yaml
    limits:
      - id: model-channel-open
        text: The connection to the model provider stays open.
        audience: nda
    controls:
      - id: NET-01
        audience: public        # shown to public readers, with its limits
        limits: [model-channel-open]
    ```

    ## Use instead
    Mark the limit for the widest audience of the controls that cite it
    (here `public`, the default), or narrow the control itself
    (`audience: nda`) so that readers who may not see the limit do not see
    the claim either.

    ## Sources
    OWASP LLM09 Misinformation: overreliance on statements presented without
    their limitations; the product's rule that limits are first-class and
    rendered with every claim (DESIGN.md).
    """

    code = "AUD001"
    name = "limit-hidden-from-claim-reader"
    family = "audience"

    def check(self, ctx: CheckContext) -> Iterator[Diagnostic]:
        limits = {limit.id: limit for limit in ctx.model.limits}
        citing: dict[str, list[Any]] = {}  # limit id -> the controls citing it, in model order
        for c in ctx.model.controls:
            for limit_id in dict.fromkeys(c.limits):
                citing.setdefault(limit_id, []).append(c)
        for limit_id, limit in limits.items():
            readers = [c for c in citing.get(limit_id, ())
                       if not c.audience.may_read(limit.audience)]
            if not readers:
                continue
            widest = min(readers, key=lambda c: c.audience.rank)
            names = ", ".join(f"{c.id} ({c.audience.value})" for c in readers)
            yield self.diagnostic(
                ctx.pos("limits", limit_id, "audience"),
                f"limit {limit_id} is marked {limit.audience.value}, but {names} cite it: a "
                f"reader shown the claim must be shown its limits; mark the limit "
                f"{widest.audience.value} or narrow the control(s) to {limit.audience.value}")
