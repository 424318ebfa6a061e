"""A trace as words: the one view the terminal text, the worksheets and the report show.

Every sentence is made here from the :class:`~compliance.practice.trace.Trace`;
templates and the text printer only lay it out.
"""

from __future__ import annotations

from dataclasses import dataclass

from compliance.model import Layer
from compliance.practice.trace import LIMITED, STOPPED, Act, StepTrace, Trace

#: A layer none of whose controls acts on a step. ("No control of this layer acts on this
#: step" after a row about the sandbox read, to the claims judge, as "no egress".)
NO_ACT = "none: the controls of this layer do not act on this step"


@dataclass(frozen=True)
class LayerCell:
    layer: str  # title, e.g. "Network egress"
    acts: tuple[str, ...]  # "NET-01 (egress-default-deny, VERIFIED): stops"


@dataclass(frozen=True)
class StepView:
    id: str
    number: int
    action: str
    needs: tuple[str, ...]
    outcome: str  # stopped | limited | made harder | passes
    layers: tuple[LayerCell, ...]
    limits: tuple[str, ...]  # "limit-id: text"


@dataclass(frozen=True)
class Question:
    question: str
    model_says: str


@dataclass(frozen=True)
class TraceView:
    id: str
    title: str
    summary: str
    outcome: str  # stopped | limited | passes
    verdict: str  # one sentence
    stoppers: tuple[str, ...]
    single_points_of_failure: tuple[str, ...]
    steps: tuple[StepView, ...]
    questions: tuple[Question, ...]
    #: Verified controls that would stop a step but for their own limit, which it exploits.
    limiters: tuple[str, ...] = ()

    @property
    def anchor(self) -> str:
        return f"tabletop-{self.id}"


def _act(a: Act) -> str:
    return f"{a.control} {a.title} ({a.kind}, {a.verdict}): {a.describe}"


def _cell(s: StepTrace, layer: Layer) -> LayerCell:
    lines = [_act(a) for a in s.by_layer(layer)]
    lines += [f"{b.control} ({b.kind}, {b.verdict}): does not act; its limit "
              f"{', '.join(b.limits)} is on the path" for b in s.bystanders if b.layer is layer]
    if layer is Layer.LOGS:
        recorders = [v for v in s.logs if v.records]
        if recorders:
            lines.append(f"look for: {recorders[0].shows} (session record: "
                         + ", ".join(f"{v.control}, {v.status}, {v.verdict}" for v in recorders)
                         + "; it holds only what its claim says)")
        else:
            lines.append("no log control records sessions: nothing in this model would show "
                         "this step afterwards")
    return LayerCell(layer.label, tuple(lines) or (NO_ACT,))


def _step(number: int, s: StepTrace) -> StepView:
    layers = tuple(_cell(s, layer) for layer in Layer)
    return StepView(s.step.id, number, " ".join(s.step.action.split()), s.needs_text,
                    s.outcome, layers, tuple(f"{lid}: {text}" for lid, text in s.limits))


def _verdict(t: Trace) -> str:
    if t.limited:
        others = [c for c in t.hardeners if c not in t.limiters]
        return (f"The path is not stopped: {t.own_limits}, so it only makes it harder"
                + (f"; {', '.join(others)} only make it harder too." if others else "."))
    if not t.stopped:
        harder = ", ".join(t.hardeners)
        return ("The path passes: no deployed, verified control stops any step"
                + (f"; {harder} only make it harder." if harder else "; no control acts on it."))
    stopped = [s.step.id for s in t.steps if s.outcome == STOPPED]
    text = (f"The path is stopped at {', '.join(stopped)} by {', '.join(t.stoppers)} "
            f"(deployed and VERIFIED).")
    if t.limiters:
        text += f" Not counted as stops: {t.own_limits}."
    if t.single_points_of_failure:
        text += (f" Single point of failure: {t.single_points_of_failure[0]}; without it "
                 f"the path passes.")
    return text


def _layers_said(t: Trace, *layers: Layer) -> str:
    return "; ".join(f"{layer.label}: {t.layer_summary(layer)}" for layer in layers)


def _questions(t: Trace) -> tuple[Question, ...]:
    said: list[str] = []
    for v in t.steps[0].logs if t.steps else ():
        limits = f" Its limits: {', '.join(v.limits)}." if v.limits else ""
        if v.records:
            seen = "; ".join(f"step {s.step.id}: {s.logs[i].shows}"
                             for s in t.steps for i, w in enumerate(s.logs)
                             if w.control == v.control)
            said.append(f"{v.control} ({v.status}, {v.verdict}) claims: {v.claim} For this "
                        f"path, look in it for {seen}.{limits}")
        else:
            said.append(f"{v.control} ({v.status}, {v.verdict}) records nothing itself; it "
                        f"claims: {v.claim}{limits}")
    logs = " ".join(said) or "No log control is in place: nothing would show."
    if t.single_points_of_failure:
        missing = f"Without {t.single_points_of_failure[0]} the path passes."
    elif t.stopped:
        missing = (f"No single control: {', '.join(t.stoppers)} each stop it; removing one "
                   f"leaves the others.")
    elif t.limited:
        missing = (f"None is needed: no control stops the path; {', '.join(t.limiters)} "
                   "would, but for a limit of its own that the path exploits.")
    else:
        missing = "None is needed: the path already passes."
    qs = [
        Question("What did the sandbox do?", _layers_said(t, Layer.ISOLATION, Layer.NETWORK)),
        Question("What did the credentials layer do?", _layers_said(t, Layer.CREDENTIALS)),
        Question("What did review do?", _layers_said(t, Layer.GIT)),
        Question("What did the gate do?", _layers_said(t, Layer.PIPELINE)),
        Question("What would the logs show afterwards?", logs),
        Question("Which missing control would have let it through?", missing),
    ]
    qs += [Question(" ".join(q.split()), "For discussion.") for q in t.scenario.questions]
    return tuple(qs)


def trace_view(t: Trace) -> TraceView:
    steps = tuple(_step(i, s) for i, s in enumerate(t.steps, start=1))
    return TraceView(t.scenario.id, t.scenario.title, " ".join(t.scenario.summary.split()),
                     t.outcome, _verdict(t), t.stoppers, t.single_points_of_failure, steps,
                     _questions(t), t.limiters)


def format_trace_text(view: TraceView) -> str:
    """The trace for a terminal: plain lines, no colour, no layout tricks."""
    out = [f"tabletop: {view.id}: {view.title}", "", view.summary, ""]
    for s in view.steps:
        out.append(f"step {s.number} {s.id}: {s.outcome.upper()}")
        out.append(f"  {s.action}")
        out.extend(f"  needs {n}" for n in s.needs)
        for cell in s.layers:
            out.append(f"  {cell.layer}:")
            out.extend(f"    {a}" for a in cell.acts)
        out.extend(f"  limit on the path: {lim}" for lim in s.limits)
        out.append("")
    out.append(f"outcome: {view.outcome.upper()}. {view.verdict}")
    out.append("")
    out.append("discussion questions:")
    for q in view.questions:
        out.append(f"  - {q.question}")
        out.append(f"    the model says: {q.model_says}")
    return "\n".join(out) + "\n"


def format_summary_text(views: list[TraceView]) -> str:
    """One line per scenario: its outcome and single points of failure."""
    lines = []
    for v in views:
        spof = (f"; single point of failure: {', '.join(v.single_points_of_failure)}"
                if v.single_points_of_failure else "")
        own = ("its own limit applies" if len(v.limiters) == 1
               else "each one's own limit applies")
        who = (f" by {', '.join(v.stoppers)}" if v.stoppers else
               f" by {', '.join(v.limiters)}: {own} to what the path exploits"
               if v.outcome == LIMITED else "")
        lines.append(f"{v.id}: {v.outcome.upper()}{who}{spof} ({v.title})")
    lines.append("run `compliance tabletop SCENARIO` for the trace of one scenario")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class ExerciseView:
    date: str
    scenario: str
    participants: str
    findings: tuple[str, ...]
    improvements: tuple[str, ...]


@dataclass(frozen=True)
class PracticeView:
    """Past exercises (newest first) and the improvements still open."""

    exercises: tuple[ExerciseView, ...] = ()
    open_improvements: tuple[str, ...] = ()
    interval_days: int = 180
    status: str = ""


def _improvement(text: str, owner: str, due: str, state: str) -> str:
    return f"{' '.join(text.split())} (owner {owner}, due {due}, {state})"


def practice_view(result: object) -> PracticeView:
    """``result``: a :class:`compliance.check.practice.PracticeResult` (None: nothing ran)."""
    from compliance.check.practice import PracticeResult

    if not isinstance(result, PracticeResult):
        return PracticeView(status="The practice checks did not run.")
    exercises = tuple(
        ExerciseView(e.date.isoformat(), e.scenario, ", ".join(e.participants),
                     tuple(" ".join(f.split()) for f in e.findings),
                     tuple(_improvement(i.text, i.owner, i.due.isoformat(),
                                        f"done {i.done}" if i.done else "open")
                           for i in e.improvements))
        for e in result.exercises)
    open_ = tuple(
        _improvement(o.improvement.text, o.improvement.owner, o.improvement.due.isoformat(),
                     "OVERDUE" if o.overdue else "open")
        + f" from the {o.exercise.scenario} exercise of {o.exercise.date}"
        for o in result.open_improvements)
    status = (f"Last exercise: {result.last_exercise}; one is due at least every "
              f"{result.exercise_interval_days} days." if result.last_exercise else
              "No tabletop exercise is recorded.")
    return PracticeView(exercises, open_, result.exercise_interval_days, status)


@dataclass(frozen=True)
class MetricView:
    id: str
    title: str
    layer: str
    value: str
    threshold: str
    status: str  # within | crossed | UNMEASURED
    evidence: tuple[str, ...]  # "2026-11-27 evidence/...: 10% (1 of 10 ...)"
    chart: str  # inline SVG when at least two exports have a value, else ""
    rationale: str


def metric_views(results: object) -> tuple[MetricView, ...]:
    from compliance.model.metrics import METRIC_INFO
    from compliance.practice.chart import trend_svg
    from compliance.practice.metrics import MetricResult, with_unit

    out = []
    for r in results if isinstance(results, tuple) else ():
        assert isinstance(r, MetricResult)
        m = r.metric
        rows = tuple(f"{p.collected} {p.export}: "
                     f"{'UNMEASURED' if p.value is None else with_unit(p.value, r.unit)} "
                     f"({p.note})" for p in r.points)
        measured = [(p.collected.isoformat(), p.value) for p in r.points if p.value is not None]
        limit = m.max if m.max is not None else m.min
        chart = trend_svg(measured, limit, f"{m.id}: {r.title}") if len(measured) >= 2 else ""
        out.append(MetricView(m.id, r.title, METRIC_INFO[m.kind][0].label, r.shown, r.threshold,
                              r.status, rows, chart, " ".join((m.rationale or "").split())))
    return tuple(out)
