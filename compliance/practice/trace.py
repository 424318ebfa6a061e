"""The tabletop trace: a scenario walked step by step through this workspace's controls.

For each step: which controls act on what it needs (by layer and kind), each
control's verdict, whether the step is stopped, only made harder, or passes,
which of the workspace's limits the step goes through, and what the logs
layer would show. A step is *stopped* only by a deployed control whose claim
the checks VERIFIED; an unverified, refuted, stale or partial control that
would stop it only makes it harder. So does a verified control whose own
stated limit covers what the step exploits (a microVM whose limit says a
hypervisor escape reaches other sessions, on a step that exploits that): the
step is then *limited* by it, not stopped. The path needs every step, so it is
stopped when any step is; a control that is the only one stopping the path is
a single point of failure.

Computed in the check stage from the verdicts; renderers only show it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from compliance.model import Control, Layer, Model, Status
from compliance.model.practice import NEED_EXPLOITS, NEED_TEXT, Need, Scenario, Step
from compliance.practice.effects import STOPS, Effect, effects_table

STOPPED, HARDER, PASSES = "stopped", "made harder", "passes"
#: A verified control would stop the step but for its own limit, which the step exploits.
LIMITED = "limited"
VERIFIED = "VERIFIED"


@dataclass(frozen=True)
class Act:
    """One control acting on one step."""

    control: str
    title: str
    layer: Layer
    kind: str
    status: str
    verdict: str  # VERIFIED | UNVERIFIED | REFUTED | STALE | PLANNED (+ others a check adds)
    effect: Effect
    needs: tuple[Need, ...]
    limits: tuple[str, ...]
    #: The control's own limits whose topics the step exploits: it does not stop the step.
    limited_by: tuple[str, ...] = ()

    @property
    def verified_stop(self) -> bool:
        """A deployed, verified control whose kind stops what the step needs."""
        return self.effect == STOPS and self.verdict == VERIFIED and self.status == "deployed"

    @property
    def counts(self) -> bool:
        """Does this act stop the step? Only a deployed, verified control's stop counts, and
        only when none of its own limits covers what the step exploits."""
        return self.verified_stop and not self.limited_by

    @property
    def limits_it(self) -> bool:
        """A verified stop that the step gets past through the control's own limit."""
        return self.verified_stop and bool(self.limited_by)

    def at_step(self, step_id: str) -> str:
        """What it does on one step, in a sentence that names the step."""
        if self.limits_it:
            return (f"at step {step_id}, {self.control} would stop it but for its limit "
                    f"{', '.join(self.limited_by)}, so it only makes it harder")
        return f"{self.control} {self.describe} at step {step_id}"

    @property
    def describe(self) -> str:
        if self.counts:
            return "stops"
        if self.limits_it:
            return (f"would stop it, but {its_limits(self.limited_by)} to what this step "
                    "exploits: only makes it harder")
        if self.effect == STOPS:
            return f"would stop, but is {self.status} and {self.verdict}: only makes it harder" \
                if self.status != "deployed" else \
                f"would stop, but is {self.verdict}: only makes it harder"
        return "makes it harder"


@dataclass(frozen=True)
class LogView:
    """What one log control would show about a step."""

    control: str
    verdict: str
    status: str
    shows: str
    limits: tuple[str, ...]
    claim: str
    records: bool  # a recording control (acts on go-unlogged), not only one that keeps logs


@dataclass(frozen=True)
class Bystander:
    """A control that does not act on a step although one of its limits is on the path."""

    control: str
    layer: Layer
    kind: str
    verdict: str
    limits: tuple[str, ...]


@dataclass(frozen=True)
class StepTrace:
    step: Step
    acts: tuple[Act, ...]
    limits: tuple[tuple[str, str], ...]  # (limit id, text) this step goes through
    logs: tuple[LogView, ...]
    bystanders: tuple[Bystander, ...] = ()

    @property
    def outcome(self) -> str:
        if any(a.counts for a in self.acts):
            return STOPPED
        if any(a.limits_it for a in self.acts):
            return LIMITED
        return HARDER if self.acts else PASSES

    @property
    def stoppers(self) -> tuple[str, ...]:
        return tuple(a.control for a in self.acts if a.counts)

    @property
    def limiters(self) -> tuple[Act, ...]:
        """The verified controls that would stop this step but for their own limit."""
        return tuple(a for a in self.acts if a.limits_it)

    def by_layer(self, layer: Layer) -> tuple[Act, ...]:
        return tuple(a for a in self.acts if a.layer is layer)

    @property
    def needs_text(self) -> tuple[str, ...]:
        return tuple(f"{n.value}: {NEED_TEXT[n]}" for n in self.step.needs)


@dataclass(frozen=True)
class Trace:
    scenario: Scenario
    steps: tuple[StepTrace, ...]

    @property
    def stopped(self) -> bool:
        return any(s.outcome == STOPPED for s in self.steps)

    @property
    def limited(self) -> bool:
        """Not stopped, but a verified control would stop a step were it not for its own
        limit, which the step exploits."""
        return not self.stopped and any(s.outcome == LIMITED for s in self.steps)

    @property
    def outcome(self) -> str:
        return STOPPED if self.stopped else LIMITED if self.limited else PASSES

    @property
    def own_limits(self) -> str:
        """'at step escape, ISO-01 would stop it, but its limit microvm-depends-on-host
        applies to what that step exploits', for every verified control a step gets past
        that way."""
        return "; ".join(f"at step {s.step.id}, {a.control} would stop it, but "
                         f"{its_limits(a.limited_by)} to what that step exploits"
                         for s in self.steps for a in s.limiters)

    @property
    def limiters(self) -> tuple[str, ...]:
        """Every control that would stop a step but for its own limit, in step order."""
        seen: list[str] = []
        for s in self.steps:
            seen.extend(a.control for a in s.limiters if a.control not in seen)
        return tuple(seen)

    @property
    def stoppers(self) -> tuple[str, ...]:
        """Every control whose verified stop holds the path, in step order."""
        seen: list[str] = []
        for s in self.steps:
            seen.extend(c for c in s.stoppers if c not in seen)
        return tuple(seen)

    @property
    def single_points_of_failure(self) -> tuple[str, ...]:
        """Controls that, if missing, would let the path through: the only stopper."""
        return self.stoppers if len(self.stoppers) == 1 else ()

    @property
    def hardeners(self) -> tuple[str, ...]:
        seen: list[str] = []
        for s in self.steps:
            seen.extend(a.control for a in s.acts if not a.counts and a.control not in seen)
        return tuple(seen)

    def layer_summary(self, layer: Layer) -> str:
        """One line: what this layer did along the whole path."""
        parts = []
        for s in self.steps:
            for a in s.by_layer(layer):
                parts.append(a.at_step(s.step.id))
        return "; ".join(parts) or "no control of this layer acts on any step"


def its_limits(ids: tuple[str, ...]) -> str:
    """'its limit X applies', or 'its limits X and Y apply'."""
    if len(ids) == 1:
        return f"its limit {ids[0]} applies"
    return f"its limits {', '.join(ids[:-1])} and {ids[-1]} apply"


def verdict_word(raw: dict[str, Any] | None, control: Control) -> str:
    """The control's verdict as the trace shows it (STALE for claims on changed files)."""
    if control.status is Status.PLANNED:
        return "PLANNED"
    if raw is None:
        return "UNVERIFIED"
    if raw.get("stale"):
        return "STALE"
    if raw.get("drill_failed"):
        return "DRILL FAILED"
    return str(raw.get("status", "unverified")).upper().replace("-", " ")  # PARTLY VERIFIED


def trace(model: Model, verdicts: dict[str, Any], scenario: Scenario) -> Trace:
    """Walk ``scenario`` through the controls of ``model`` with the check's verdicts."""
    table = effects_table(model)
    limits = model.limits
    topics = {lim.id: set(lim.topics) for lim in limits}
    # what does not depend on the step, once per trace (a scenario has many steps, a
    # model many controls): a planned control acts on nothing yet
    active = [(c, verdict_word(verdicts.get(c.id), c), table.get(c.kind or "", {}))
              for c in model.controls if c.status is not Status.PLANNED]
    logs = [(c, word, tuple(c.limits), " ".join(c.claim.split()), Need.GO_UNLOGGED in row)
            for c, word, row in active if c.layer is Layer.LOGS]
    cited = [(c, word, set(c.limits)) for c, word, _row in active]
    steps = []
    for step in scenario.steps:
        acts = []
        exploits = set(step.exploits).union(*(NEED_EXPLOITS.get(n, ()) for n in step.needs))
        for control, word, row in active:
            hits = [(n, row[n]) for n in step.needs if n in row]
            if not hits:
                continue
            effect: Effect = STOPS if any(e == STOPS for _n, e in hits) else hits[0][1]
            own = tuple(lid for lid in control.limits if topics.get(lid, set()) & exploits)
            acts.append(Act(control.id, control.title, control.layer, control.kind or "",
                            control.status.value, word, effect, tuple(n for n, _e in hits),
                            tuple(control.limits), own))
        through = tuple((lim.id, " ".join(lim.text.split())) for lim in limits
                        if exploits & set(lim.topics))
        shows = " ".join((step.trail or "the actions of this step").split())
        log_views = tuple(LogView(c.id, word, c.status.value, shows, lims, claim, unlogged)
                          for c, word, lims, claim, unlogged in logs)
        acting = {a.control for a in acts}
        on_path = {lid for lid, _text in through}
        bystanders = tuple(
            Bystander(c.id, c.layer, c.kind or "", word,
                      tuple(lid for lid in c.limits if lid in on_path))
            for c, word, lims in cited if c.id not in acting and on_path & lims)
        steps.append(StepTrace(step, tuple(acts), through, log_views, bystanders))
    return Trace(scenario, tuple(steps))


def trace_all(model: Model, verdicts: dict[str, Any]) -> tuple[Trace, ...]:
    return tuple(trace(model, verdicts, s) for s in model.scenarios)
