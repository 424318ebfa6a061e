"""The practice stage of `check`: tabletop traces and the state of recorded exercises.

Computed once per run from the model and the final verdicts, shared by the
practice rules (TTX*) and handed to the outputs in ``CheckResult.practice``.
Renderers show it; nothing downstream recomputes it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from compliance.check.context import CheckContext
from compliance.diagnostics import Position
from compliance.load.practice import DRILLS_DIR, EXERCISES_DIR, SCENARIOS_DIR
from compliance.model import Layer
from compliance.model.practice import DrillLayer, DrillResult, Exercise, Improvement
from compliance.practice.metrics import MetricResult, compute
from compliance.practice.trace import Trace, trace_all


@dataclass(frozen=True)
class OpenImprovement:
    exercise: Exercise
    index: int  # the exercise's index in the model
    number: int  # the improvement's index in the exercise
    improvement: Improvement
    overdue: bool


@dataclass(frozen=True)
class PracticeResult:
    traces: tuple[Trace, ...]  # every scenario, as `compliance tabletop` shows them
    checked: tuple[str, ...]  # ids of the scenarios `check` holds to TTX001
    adopted: bool  # the workspace keeps exercises/ or scenarios/, or sets tabletop_scenarios
    exercises: tuple[Exercise, ...]  # newest first
    open_improvements: tuple[OpenImprovement, ...]
    last_exercise: dt.date | None
    exercise_interval_days: int
    metrics: tuple[MetricResult, ...] = ()
    #: layer -> (index of the drill in the model, the layer's result) for the latest drill
    drills: dict[Layer, tuple[int, DrillLayer]] = field(default_factory=dict)
    drills_adopted: bool = False
    drill_interval_days: int = 180
    #: layers whose newest drill is more than ``drill_interval_days`` old (DRL002 flags them)
    stale_drills: frozenset[Layer] = frozenset()

    def trace(self, scenario_id: str) -> Trace | None:
        return next((t for t in self.traces if t.scenario.id == scenario_id), None)


def practice_of(ctx: CheckContext) -> PracticeResult:
    """The practice results of this run (computed once)."""
    return ctx.memo(("practice",), lambda: _compute(ctx))


def _compute(ctx: CheckContext) -> PracticeResult:
    from compliance.check.engine import final_verdicts

    model = ctx.model
    traces = trace_all(model, final_verdicts(ctx))
    open_ = tuple(
        OpenImprovement(ex, i, j, imp, imp.due < ctx.today)
        for i, ex in enumerate(model.exercises)
        for j, imp in enumerate(ex.improvements) if imp.done is None)
    exercises = tuple(sorted(model.exercises, key=lambda e: (e.date, e.scenario), reverse=True))
    chosen = model.settings.tabletop_scenarios
    if chosen is None:
        wanted = {sid for (section, sid) in ctx.workspace.index if section == "scenarios"}
        wanted |= {e.scenario for e in model.exercises}
    else:
        wanted = {t.scenario.id for t in traces} if "all" in chosen else set(chosen)
    checked = tuple(t.scenario.id for t in traces if t.scenario.id in wanted)
    adopted = chosen is not None or any(
        (ctx.root / folder).is_dir() for folder in (SCENARIOS_DIR, EXERCISES_DIR))
    metrics = tuple(compute(ctx, m) for m in model.metrics)
    drills = latest_drills(ctx)
    interval = model.settings.drill_interval_days
    stale = frozenset(layer for layer, (i, _) in drills.items()
                      if overdue(model.drills[i].date, interval, ctx.today))
    return PracticeResult(traces, checked, adopted, exercises, open_,
                          exercises[0].date if exercises else None,
                          model.settings.exercise_interval_days, metrics, drills,
                          (ctx.root / DRILLS_DIR).is_dir(), interval, stale)


def overdue(last: dt.date, interval_days: int, today: dt.date) -> bool:
    """True when ``last`` (a drill's or an exercise's date) is more than ``interval_days``
    before ``today``: the practice is due again."""
    return last + dt.timedelta(days=interval_days) < today


def latest_drills(ctx: CheckContext) -> dict[Layer, tuple[int, DrillLayer]]:
    """Per layer, its result in the newest drill that covered it."""
    out: dict[Layer, tuple[int, DrillLayer]] = {}
    order = sorted(range(len(ctx.model.drills)), key=lambda i: ctx.model.drills[i].date)
    for i in order:
        for layer in ctx.model.drills[i].layers:
            out[layer.layer] = (i, layer)
    return out


def drills_not_verified(ctx: CheckContext, verdicts: dict[str, Any]) -> dict[str, Any]:
    """A failed drill outranks a passing configuration check: a control named in a layer
    whose newest drill failed is not VERIFIED (``"drill_failed": date``) in any output."""
    for i, layer in latest_drills(ctx).values():
        if layer.result is not DrillResult.FAILED:
            continue
        date = ctx.model.drills[i].date
        for cid in layer.controls:
            v = verdicts.get(cid)
            if v is not None and v["status"] == "verified":
                happened = " ".join(layer.happened.split())
                verdicts[cid] = {**v, "status": "unverified", "drill_failed": date.isoformat(),
                                 "message": f"DRILL FAILED on {date} ({layer.layer.value} "
                                            f"layer): {happened} The configuration checks "
                                            f"alone said: {v['message']}"}
    return verdicts


def scenario_pos(ctx: CheckContext, scenario_id: str) -> Position:
    """Where a finding about a scenario points: its id in scenarios/*.yaml, or for a
    built-in scenario the workspace's ``system:`` key (the model the trace ran over)."""
    if ctx.workspace.where("scenarios", scenario_id) is not None:
        return ctx.pos("scenarios", scenario_id, "id")
    return ctx.pos("system", "system", key=True)
