"""VRF004: a claim, or a part of one, that no configuration check covers."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from compliance.check.context import CheckContext
from compliance.diagnostics import Diagnostic, Level
from compliance.rules.base import Rule

#: What the finding asks for, whatever the reason no check covers the claim.
_FIX = ("cite evidence a check reads and name that check in `verified_by` (`compliance "
        "rules` lists them), or narrow the claim to what a check verifies")


class ClaimWithoutCheck(Rule):
    """A deployed or partial control whose claim, or a part of it, no configuration check covers.

    ## What it does
    Reports, at the claim, each control that is not `planned` whose claim no
    configuration check covers (`verified_by: []`, a kind that selects no
    check, only codes that are no check), or some of whose `assertions:` name
    no check. Its level is the workspace's `unverified` setting
    (`compliance.yaml`: `warning` by default, `error` to fail `check`, `off` to
    show it only in the verdicts), the same level as a claim a check ran on
    and could not confirm. For a PARTLY VERIFIED claim whose open parts all
    name no check this is its one finding (`VRF001` does not repeat it).

    ## Why is this bad?
    Such a claim is UNVERIFIED (or, when other parts are verified, PARTLY
    VERIFIED) however true it is: nothing read a file that shows it. A team
    that sets `unverified: error` to require every deployed claim to be backed
    by a check must hear about the claims no check even looks at, not only
    about those a check could not confirm.

    ## Example
    ```yaml
    - id: GIT-03
      status: deployed
      claim: The proxy lets the agent push only to its own branches.
      evidence: [agent-gateway-config]   # an in-house format no check reads
      verified_by: []
    ```

    ## Use instead
    Export a file a check reads and name the check (`verified_by: [CFG018]`),
    or keep the claim and accept the finding at the level `unverified` gives
    it; a waiver (`rule: VRF004`, `target: GIT-03`) records who accepted it.

    ## Sources
    DESIGN.md: "A claim that no file can verify is 'unverified', never
    'passed'".
    """

    code = "VRF004"
    name = "claim-without-check"
    family = "verdicts"
    level = Level.WARNING

    def check(self, ctx: CheckContext) -> Iterator[Diagnostic]:
        from compliance.model import Status
        from compliance.rules.config.claim_verdict import parts_of
        from compliance.rules.config.controls import checks_of, unverified_level

        level = unverified_level(ctx)
        if level is None:
            return
        for c in ctx.model.controls:
            if c.status is Status.PLANNED:
                continue
            parts, _ = parts_of(c, checks_of(c))
            bare = [(n, p) for n, p in enumerate(parts, start=1) if not p.checks]
            if not bare:
                continue
            why = _why(c, [n for n, _ in bare])
            if len(bare) == len(parts):
                message = (f"claim of {c.id} is unverified: no configuration check covers it "
                           f"({why}); {_FIX}")
            else:
                named = "; ".join(f"({n}) {p.text.rstrip('. ')}" for n, p in bare)
                message = (f"claim of {c.id} is partly unverified: no configuration check "
                           f"covers part{'s' if len(bare) > 1 else ''} {named} "
                           f"({why}); {_FIX}")
            yield self.diagnostic(ctx.pos("controls", c.id, "claim"), message, level=level)


def _why(control: Any, open_parts: list[int]) -> str:
    """Why no check covers the claim (or its open parts, numbered from 1), in the words of
    the YAML."""
    if control.assertions:
        codes = [control.assertions[n - 1].verified_by for n in open_parts]
        whose = "its" if len(codes) == 1 else "their"
        return (f"{whose} `verified_by` is empty" if not any(codes)
                else f"{whose} `verified_by` names no check")
    if control.verified_by == []:
        return "its `verified_by` is empty"
    if control.verified_by is not None:
        return "no code in its `verified_by` is a check"
    if control.kind:
        return f"its kind {control.kind} selects none and it names none in `verified_by`"
    return "it has no `kind` and no `verified_by`"
