"""VRF001: a claim some of whose parts no check verified."""

from __future__ import annotations

from collections.abc import Iterator

from compliance.check.context import CheckContext
from compliance.diagnostics import Diagnostic, Level
from compliance.rules.base import Rule


class ClaimPartlyVerified(Rule):
    """A claim whose checks verified some of its assertions but not all.

    ## What it does
    Reports, at the claim, each control whose verdict is PARTLY VERIFIED: the
    parts (its `assertions:`) that checks verified and the parts no check
    verified, each with the reason (no check reads the evidence it rests on, or
    what the check could not confirm). A claim whose open parts all name no
    check is left to `VRF004 claim-without-check`, which reports those parts at
    the `unverified` level: one claim, one finding. With `unverified: off`
    (no VRF004), this note still reports it.

    ## Why is this bad?
    A claim is only as verified as its least-checked part. Stamping a
    three-part claim VERIFIED because one check covers one part is the overclaim
    an auditor challenges first. A PARTLY VERIFIED claim never enters the stance
    summary and is never drafted as a full questionnaire answer; this finding
    says which part is still unchecked so someone can export the evidence that
    would settle it, or narrow the claim.

    ## Example
    ```yaml
    claim: No key is in the session; the session token lives four hours.
    assertions:
      - text: No API key or token is forwarded into the session.
        verified_by: [CFG013]
      - text: The session token expires after four hours.
        verified_by: []          # the proxy's config is read by no check
    ```

    ## Use instead
    Give a check the evidence it needs for the open part, or move that part
    out of the claim (into `implementation:`) until something can verify it.

    ## Sources
    DESIGN.md: "a claim with parts no check covers is partly verified, never
    verified".
    """

    code = "VRF001"
    name = "claim-partly-verified"
    family = "verdicts"
    level = Level.INFO

    def check(self, ctx: CheckContext) -> Iterator[Diagnostic]:
        from compliance.rules.config.controls import control_verdicts, unverified_level

        vrf004 = unverified_level(ctx) is not None
        for cid, verdict in control_verdicts(ctx).items():
            if verdict["status"] != "partly-verified":
                continue
            if vrf004 and all(not a["checks"] for a in verdict["assertions"]
                              if a["status"] != "verified"):
                continue  # every open part names no check: VRF004 says so, at its level
            yield self.diagnostic(ctx.pos("controls", cid, "claim"),
                                  f"claim of {cid} is PARTLY VERIFIED: {verdict['message']}")
