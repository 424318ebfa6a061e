"""Check stage: run every enabled rule over a loaded model, then apply waivers."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from compliance.check.context import CheckContext
from compliance.check.suppress import INLINE, apply
from compliance.diagnostics import Diagnostic, Position, sort_unique
from compliance.load.workspace import Workspace
from compliance.model import Waiver
from compliance.rules.registry import ALL_RULES, rule_names


@dataclass(frozen=True)
class ProseField:
    """One prose value of the model and how to map offsets in it to the YAML."""

    section: str
    item_id: str
    field: str
    text: str
    ws: Workspace
    prefix: int = 0  # characters prepended to the field's value to judge it in context

    def locate(self, offset: int) -> Position:
        located = self.ws.where(self.section, self.item_id)
        assert located is not None
        return located.locate(self.field, max(0, offset - self.prefix))


def prose_fields(ctx: CheckContext) -> Iterator[ProseField]:
    """Every prose field the claims judge reads: what a customer could be told."""
    m, ws = ctx.model, ctx.workspace
    yield ProseField("system", "system", "scope", m.system.scope, ws)
    if m.stance:
        yield ProseField("stance", "stance", "stance", m.stance, ws)
    for c in m.controls:
        for name in ("claim", "implementation", "residual_risk"):
            yield ProseField("controls", c.id, name, getattr(c, name), ws)
        if c.stance_clause:  # judged as the stance will say it: "Agents <clause>."
            subject = "Agents "
            yield ProseField("controls", c.id, "stance_clause",
                             f"{subject}{c.stance_clause.strip()}", ws, len(subject))


def _prose_findings(ctx: CheckContext) -> Iterator[tuple[ProseField, Diagnostic]]:
    """The claims judge over every prose field, positioned inside the YAML scalars."""
    from compliance.rules.claims import check_prose

    for prose in prose_fields(ctx):
        for d in check_prose(prose.text, prose.locate):
            yield prose, d


@dataclass(frozen=True)
class WaivedClaim:
    """A sentence of the model the claims judge flagged as an overclaim and a reasoned
    suppression or a waiver in force lets stand. Every output that shows the sentence
    shows this with it: a waiver accepts a finding, it does not make the sentence true."""

    section: str  # "controls", "system" or "stance"
    item_id: str  # the control id, "system" or "stance"
    field: str  # claim, implementation, residual_risk, stance_clause, scope, stance
    code: str
    name: str
    location: str  # file:line:col of the flagged words
    message: str  # the judge's finding: the words, why they overreach, honest wording
    waived_by: str  # who waived it, until when and why, as the model holds it

    @property
    def note(self) -> str:
        """One sentence for a reader of the output that shows the flagged text."""
        return (f"The claims judge flagged this as an overclaim ({self.code} {self.name}, "
                f"at {self.location}) and it was waived: "
                f"{waiver_words(self.waived_by).rstrip('.')}. "
                f"The finding: {self.message}")


def waiver_words(waived_by: str) -> str:
    """How a waiver is said to a reader: an inline suppression records only a reason, so
    say that it names no owner or expiry."""
    if waived_by.startswith(INLINE):
        return (f"by an inline suppression ({waived_by}), which records no owner and no "
                "expiry")
    return waived_by


@dataclass
class CheckResult:
    """What the check stage hands to output and render: findings, verdicts, waivers."""

    findings: list[Diagnostic]
    verdicts: dict[str, Any] = field(default_factory=dict)  # control id -> verdict
    waivers_in_force: list[Waiver] = field(default_factory=list)
    #: Tabletop traces, exercise status (compliance.check.practice); None before checks ran.
    practice: Any = None
    #: The claims judge's findings on model prose that a suppression or waiver lets stand.
    waived_claims: list[WaivedClaim] = field(default_factory=list)
    #: The date the checks measured ages and intervals against (``--today``, else the clock).
    as_of: dt.date | None = None


def run_checks(ws: Workspace, today: dt.date) -> CheckResult:
    """Run the rules over ``ws.model`` (which must have loaded cleanly)."""
    model = ws.model
    assert model is not None, "run_checks needs a model that loaded without errors"
    names = rule_names()
    ctx = CheckContext(workspace=ws, model=model, today=today, rule_names=names)
    disabled = {names.get(r, r) for r in model.settings.disabled_rules}
    findings: list[Diagnostic] = list(ws.findings)
    for code, rule in ALL_RULES.items():
        if code not in disabled:
            findings.extend(rule().check(ctx))
    judged = list(_prose_findings(ctx))
    findings.extend(d for _field, d in judged)
    prose = {d.sort_key(): field for field, d in judged}  # which prose field each is in
    findings = [d for d in findings if d.code not in disabled]
    horizon = model.settings.waiver_horizon_days
    findings = sort_unique(apply(findings, ws, model.waivers, names, today, horizon))
    limit = today + dt.timedelta(days=horizon)
    in_force = [w for w in model.waivers if today <= w.expires <= limit]
    from compliance.check.practice import practice_of

    waived = [WaivedClaim(f.section, f.item_id, f.field, d.code, d.name, str(d.position),
                          d.message, d.waived_by)
              for d in findings if d.waived_by is not None
              and (f := prose.get(d.sort_key())) is not None]
    return CheckResult(findings, final_verdicts(ctx), in_force, practice_of(ctx), waived,
                       as_of=today)


def final_verdicts(ctx: CheckContext) -> dict[str, Any]:
    """Control id -> verdict, as every output states it (computed once per run). Rules
    that need verdicts (the tabletop trace) read them here."""
    from compliance.check.practice import drills_not_verified
    from compliance.rules.config.controls import control_verdicts

    # Stale evidence is already applied there (a stale claim is never VERIFIED), and the
    # result is memoised: the rules that report on verdicts share it. A failed drill
    # outranks a passing check.
    return ctx.memo(("final-verdicts",),
                    lambda: drills_not_verified(ctx, dict(control_verdicts(ctx))))
