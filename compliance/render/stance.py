"""The stance summary: only what deployed, verified controls support, then the limits.

A clause enters the summary only when its control is deployed and the
checks VERIFIED its claim (every part of it). Everything else is said for
what it is: a partly verified, unverified or refuted claim by name (a partly
verified one with the parts no check verified), a planned control as not in place, a
layer with no control as a gap. Limits of the deployed controls follow in
their own plain words.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from compliance.model import Model, Status
from compliance.model.layers import Layer
from compliance.render.context import StanceView, Verdict

if TYPE_CHECKING:
    from compliance.check.engine import WaivedClaim

#: How the notes name the field a waived overclaim is in.
FIELD_LABEL = {"claim": "claim", "implementation": "implementation",
               "residual_risk": "residual risk", "stance_clause": "stance clause",
               "scope": "scope", "stance": "statement"}


def waived_where(w: WaivedClaim) -> str:
    """'NET-01, its stance clause' / "the system's scope" / 'the statement'."""
    if w.section == "controls":
        return f"{w.item_id}, its {FIELD_LABEL.get(w.field, w.field)}"
    return "the system's scope" if w.field == "scope" else "the team's statement"


def mark(number: int) -> str:
    return f"[waived overclaim {number}]"

NO_CLAUSE = "No deployed control has a verified claim yet, so this summary states no protection."
NO_SHOWN_CLAUSE = ("No deployed control shown to this audience has a verified claim, so this "
                   "summary states no protection.")


def join_clauses(clauses: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b, and c'."""
    if len(clauses) <= 2:
        return " and ".join(clauses)
    return ", ".join(clauses[:-1]) + ", and " + clauses[-1]


def build_stance(model: Model, verdicts: dict[str, tuple[Verdict, str]],
                 shown: Collection[str] | None = None,
                 waived: Sequence[WaivedClaim] = ()) -> StanceView:
    """``verdicts``: control id -> (verdict, reason) as the check stage gave them.

    ``waived``: the overclaims the check stage found waived, that this audience may read.
    Each is a numbered note; a clause or statement carrying one is marked with its number,
    so no reader takes a waived overclaim for a checked sentence.

    ``shown``: the controls this build's audience may read (all when None). The
    summary, limits and lists speak only of those; gaps come from every control, so
    a withheld control never reads as a gap, and the withheld ones are counted."""
    clauses: list[str] = []
    relied_on: list[str] = []
    partly: list[str] = []
    unverified: list[str] = []
    refuted: list[str] = []
    planned: list[str] = []
    limit_ids: dict[str, None] = {}  # ordered, and linear in the number of controls
    order = {layer: i for i, layer in enumerate(Layer)}
    notes = [f"{i}. In {waived_where(w)}: {w.note}" for i, w in enumerate(waived, start=1)]
    number: dict[tuple[str, str], list[int]] = {}
    for i, w in enumerate(waived, start=1):
        number.setdefault((w.item_id, w.field), []).append(i)

    def marked(text: str, item_id: str, field: str) -> str:
        found = list(dict.fromkeys(number.get((item_id, field), ())))
        return " ".join([text, *(mark(n) for n in found)])

    withheld = 0
    for control in sorted(model.controls, key=lambda c: order[c.layer]):
        if shown is not None and control.id not in shown:
            withheld += control.status is not Status.PLANNED
            continue
        verdict, reason = verdicts[control.id]
        because = f" {reason.strip()}" if reason.strip() else ""
        name = f"{control.id} {control.title}"
        if control.status is Status.PLANNED:
            planned.append(f"{name}: planned, not in place.")
            continue
        limit_ids.update(dict.fromkeys(control.limits))
        if verdict is Verdict.REFUTED:
            refuted.append(f"{name}: refuted by its evidence.{because}")
        elif verdict is Verdict.PARTLY_VERIFIED:
            partly.append(f"{name}: partly verified.{because}")
        elif verdict is Verdict.UNVERIFIED:
            unverified.append(f"{name}: unverified.{because}")
        elif control.status is Status.DEPLOYED and control.stance_clause:
            clauses.append(marked(control.stance_clause.strip().rstrip("."), control.id,
                                  "stance_clause"))
        else:
            relied_on.append(f"{name} ({control.status.value}, verified).")
    limits = {limit.id: limit.text.strip() for limit in model.limits}
    covered = {c.layer for c in model.controls if c.status is not Status.PLANNED}
    gaps = [
        f"{layer.label}: no control in place. {layer.question}"
        for layer in Layer
        if layer not in covered
    ]
    if withheld:
        relied_on.append(f"{withheld} more control(s) in place are not shown to this audience; "
                         "nothing above rests on them.")
    summary = (f"In {model.system.name}, agents {join_clauses(clauses)}." if clauses
               else NO_SHOWN_CLAUSE if withheld else NO_CLAUSE)
    return StanceView(
        summary=summary,
        statement=marked(model.stance.strip(), "stance", "stance") if model.stance else None,
        limits=tuple(limits[lid] for lid in limit_ids if lid in limits),
        relied_on=tuple(relied_on),
        partly_verified=tuple(partly),
        unverified=tuple(unverified),
        refuted=tuple(refuted),
        planned=tuple(planned),
        gaps=tuple(gaps),
        waived_overclaims=tuple(notes),
    )
