"""VRF002: a claim of several sentences checked as one assertion."""

from __future__ import annotations

from collections.abc import Iterator

from compliance.check.context import CheckContext
from compliance.diagnostics import Diagnostic, Level
from compliance.rules.base import Rule


class ClaimCheckedAsOne(Rule):
    """A claim of several sentences, with checks, that lists no `assertions:`.

    ## What it does
    Flags a deployed or partial control whose claim has more than one sentence
    and whose checks verify it as a whole, because it lists no `assertions:`.
    Its verdict then says "verified as one assertion": the checks are taken to
    cover every sentence, which the tool cannot know.

    ## Why is this bad?
    Each sentence of a claim is a statement a customer may rely on. When a
    check reads one of them (no secret in the environment) and the others rest
    on files no check reads (a proxy's configuration), VERIFIED overstates what
    was checked.

    ## Example
    ```yaml
    claim: >
      Sessions hold no long-lived credentials. The proxy accepts the session
      token only from the session's address.
    verified_by: [CFG013]
    ```

    ## Use instead
    ```yaml
    assertions:
      - text: No long-lived credential is forwarded into the session.
        verified_by: [CFG013]
      - text: The proxy accepts the session token only from the session's address.
        verified_by: []
    ```

    ## Sources
    DESIGN.md: "VERIFIED says exactly which checks ran and what they
    established".
    """

    code = "VRF002"
    name = "claim-checked-as-one"
    family = "verdicts"
    level = Level.INFO

    def check(self, ctx: CheckContext) -> Iterator[Diagnostic]:
        from compliance.judge.segment import sentences
        from compliance.model import Status
        from compliance.rules.config.controls import checks_of

        for c in ctx.model.controls:
            if c.status is Status.PLANNED or c.assertions or not checks_of(c):
                continue
            count = len(sentences(c.claim))
            if count > 1:
                yield self.diagnostic(
                    ctx.pos("controls", c.id, "claim"),
                    f"the claim of {c.id} has {count} sentences but is checked as one "
                    f"assertion by {', '.join(checks_of(c))}; list its parts under "
                    "`assertions:`, each with the checks that verify it, so one check "
                    "cannot stamp the whole claim VERIFIED")
