"""A tabletop scenario whose path no deployed, verified control stops."""

from __future__ import annotations

from collections.abc import Iterator

from compliance.check.context import CheckContext
from compliance.diagnostics import Diagnostic
from compliance.rules.base import Rule


class UnstoppedAttackPath(Rule):
    """A tabletop scenario that passes: no deployed, verified control stops any of its steps.

    ## What it does
    Traces the scenarios the workspace has taken up through the controls of
    the model, as `compliance tabletop` does, and flags each scenario in which
    no step is stopped by a deployed control whose claim the checks VERIFIED.
    Taken up are: every scenario in `scenarios/*.yaml`, every scenario an
    exercise record (`exercises/*.yaml`) names, or exactly the list
    `tabletop_scenarios` in compliance.yaml (`[all]` for every built-in and
    workspace scenario). Controls that only make a step harder (an allowlist, a
    required review, an unverified or stale control) do not stop it, and nor
    does a verified control whose own limit covers what the step exploits (a
    microVM whose limit says a hypervisor escape reaches other sessions, on a
    step that exploits it): the path is then *limited* by that control. A
    limited path is a warning (`tabletop_limited` in compliance.yaml: the team
    has stated the limit the path goes through); a path that nothing would stop
    is an error.

    ## Why is this bad?
    The layers are meant to work together: an attacker needs every step of a
    path, so one verified stop is enough, and none means the path is open. A
    report that lists many controls but no stop on a known path overstates
    what the layers do together.

    ## Example
    The README-injection scenario (an injected dependency README makes the
    agent edit a workflow and open a pull request) in a model whose only
    control on workflow changes is a sensitive-change gate that flags them
    (`kind: change-gate`): the gate makes the step harder, nothing stops it.

    ## Use instead
    Add (and verify) a control that stops one of the steps, for example
    code-owner review of `.github/workflows/` by a security team
    (`kind: human-review`, verified by CFG017), or waive this finding for the
    scenario with a reason, an owner and an expiry if the risk is accepted.
    `compliance tabletop SCENARIO` shows the trace step by step.

    ## Sources
    OWASP LLM06 Excessive Agency (least privilege, human approval and logging
    as separate layers); NIST SP 800-84, Guide to Test, Training, and
    Exercise Programs for IT Plans and Capabilities (tabletop exercises).
    """

    code = "TTX001"
    name = "unstopped-attack-path"
    family = "practice"

    def check(self, ctx: CheckContext) -> Iterator[Diagnostic]:
        from compliance.check.practice import practice_of, scenario_pos
        from compliance.diagnostics import Level

        result = practice_of(ctx)
        for t in result.traces:
            if t.stopped or t.scenario.id not in result.checked:
                continue
            harder = ", ".join(t.hardeners)
            if t.limited:
                yield self.diagnostic(
                    scenario_pos(ctx, t.scenario.id),
                    f"tabletop scenario {t.scenario.id!r} ({t.scenario.title}) is not "
                    f"stopped: {t.own_limits}; no other deployed, verified control stops any "
                    f"of its {len(t.steps)} steps (see `compliance tabletop {t.scenario.id}`)",
                    level=Level(ctx.model.settings.tabletop_limited))
                continue
            yield self.diagnostic(
                scenario_pos(ctx, t.scenario.id),
                f"tabletop scenario {t.scenario.id!r} ({t.scenario.title}) passes: no "
                f"deployed, verified control stops any of its {len(t.steps)} steps"
                + (f"; {harder} only make it harder" if harder else "; no control acts on it")
                + f" (see `compliance tabletop {t.scenario.id}`)")
