"""The report's drill section as words: one row per drilled layer, newest drill first.

Made from the model's drill records and what `check` computed about them
(:class:`~compliance.check.practice.PracticeResult`: the newest drill of each layer, and
which of those are older than ``drill_interval_days``). Nothing here decides anything
again: a failed result is the record's own word, staleness is check's.
"""

from __future__ import annotations

from dataclasses import dataclass

from compliance.model import Layer


@dataclass(frozen=True)
class DrillRowView:
    date: str
    scenario: str
    layer: str  # title, e.g. "Network egress"
    result: str  # "passed" | "FAILED"
    controls: str  # "ISO-01, ISO-02", or "no control named"
    happened: str
    #: "newest drill of this layer" | "STALE: ..." | "superseded by the drill of DATE"
    state: str
    #: CSS classes for the row: "failed", "stale", "superseded"
    marks: tuple[str, ...]


@dataclass(frozen=True)
class DrillsView:
    rows: tuple[DrillRowView, ...] = ()
    interval_days: int = 180
    #: Layer titles no drill record covers.
    not_drilled: tuple[str, ...] = ()
    status: str = "No layer drill is recorded (drills/*.yaml)."


def drills_view(model: object, result: object) -> DrillsView:
    """``model``: the checked :class:`~compliance.model.Model`; ``result``: its
    :class:`~compliance.check.practice.PracticeResult` (None: the practice stage did not
    run, and the section says so)."""
    from compliance.check.practice import PracticeResult
    from compliance.model.practice import DrillResult

    if not isinstance(result, PracticeResult):
        return DrillsView(status="The practice checks did not run: no drill is shown.")
    drills = getattr(model, "drills", [])
    interval = result.drill_interval_days
    newest = {layer: i for layer, (i, _) in result.drills.items()}
    newest_entry = {id(entry) for _, entry in result.drills.values()}
    rows = []
    for i in sorted(range(len(drills)), key=lambda k: (drills[k].date, k), reverse=True):
        drill = drills[i]
        for layer in drill.layers:
            failed = layer.result is DrillResult.FAILED
            marks = ["failed"] if failed else []
            latest = newest.get(layer.layer)
            if id(layer) not in newest_entry and latest is not None:
                state = f"superseded by the drill of {drills[latest].date}"
                marks.append("superseded")
            elif layer.layer in result.stale_drills:
                state = (f"STALE: the newest drill of this layer, more than {interval} days "
                         "old; drill it again")
                marks.append("stale")
            else:
                state = "newest drill of this layer"
            rows.append(DrillRowView(
                drill.date.isoformat(), drill.scenario, layer.layer.label,
                "FAILED" if failed else "passed",
                ", ".join(layer.controls) or "no control named",
                " ".join(layer.happened.split()), state, tuple(marks)))
    not_drilled = tuple(layer.label for layer in Layer if layer not in newest)
    if not rows:
        return DrillsView((), interval, not_drilled)
    dates = sorted({d.date for d in drills})
    status = (f"{len(drills)} drill(s) recorded, the newest on {dates[-1]}; each layer is "
              f"drilled at least every {interval} days.")
    return DrillsView(tuple(rows), interval, not_drilled, status)
