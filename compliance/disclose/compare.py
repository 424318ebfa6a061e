"""Compare claim states: what got weaker, what got stronger, what merely changed.

Weaker, for a reader who was told the earlier state: a control removed, its
status lowered (deployed > partial > planned), its verdict lowered (VERIFIED >
PARTLY VERIFIED > UNVERIFIED > REFUTED), an evidence file it rested on dropped
or now holding different content, a limit added. Stronger: the reverse, and a
new control. Changed: the claim or a limit reworded, a layer moved, a verdict
word this version does not rank. A reader is owed an update by anything that
is not stronger.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from compliance.model.disclosure import ClaimState, LimitText

STATUS_RANK = {"planned": 0, "partial": 1, "deployed": 2}
VERDICT_RANK = {"REFUTED": 0, "UNVERIFIED": 1, "PARTLY VERIFIED": 2, "VERIFIED": 3}


class Direction(enum.StrEnum):
    WEAKER = "weaker"
    STRONGER = "stronger"
    CHANGED = "changed"


@dataclass(frozen=True, slots=True)
class Change:
    """One difference in one claim (or answer), with the words before and after."""

    subject: str  # control id, or "answer KEY"
    direction: Direction
    what: str
    before: str | None
    after: str | None
    message: str

    def as_dict(self) -> dict[str, str | None]:
        return {"subject": self.subject, "direction": self.direction.value, "what": self.what,
                "before": self.before, "after": self.after, "message": self.message}


def _word(verdict: str) -> str:
    return " ".join(verdict.replace("_", " ").upper().split())


def _ranked(what: str, before: str, after: str, ranks: dict[str, int]) -> Direction:
    b, a = ranks.get(before), ranks.get(after)
    if b is None or a is None:
        return Direction.CHANGED
    return Direction.WEAKER if a < b else Direction.STRONGER


def claim_changes(before: ClaimState, after: ClaimState) -> list[Change]:
    """Every difference between one control's recorded state and its state now."""
    cid = before.control
    out: list[Change] = []

    def add(direction: Direction, what: str, b: str | None, a: str | None, message: str) -> None:
        out.append(Change(cid, direction, what, b, a, message))

    if before.status != after.status:
        direction = _ranked("status", before.status.value, after.status.value, STATUS_RANK)
        add(direction, "status", before.status.value, after.status.value,
            f"{cid} status {before.status.value} -> {after.status.value}")
    bv, av = _word(before.verdict), _word(after.verdict)
    if bv != av:
        add(_ranked("verdict", bv, av, VERDICT_RANK), "verdict", bv, av,
            f"{cid} verdict {bv} -> {av}")
    if before.claim != after.claim:
        add(Direction.CHANGED, "claim", before.claim, after.claim, f"{cid} claim reworded")
    if before.layer != after.layer:
        add(Direction.CHANGED, "layer", before.layer.value, after.layer.value,
            f"{cid} moved from layer {before.layer.value} to {after.layer.value}")
    now_evidence = {ev.id: ev for ev in after.evidence}
    for ev in before.evidence:
        current = now_evidence.get(ev.id)
        if current is None:
            add(Direction.WEAKER, "evidence removed", ev.id, None,
                f"{cid} no longer rests on evidence {ev.id} (evidence/{ev.path})")
        elif current.sha256 != ev.sha256:
            add(Direction.WEAKER, "evidence content", ev.sha256, current.sha256,
                f"{cid} evidence {ev.id} (evidence/{current.path}) now has different content "
                f"(sha256 {ev.sha256[:12]} -> {current.sha256[:12]})")
    was_cited = {ev.id for ev in before.evidence}
    for ev in after.evidence:
        if ev.id not in was_cited:
            add(Direction.STRONGER, "evidence added", None, ev.id,
                f"{cid} now also rests on evidence {ev.id} (evidence/{ev.path})")
    then_limits = {limit.id: limit for limit in before.limits}
    now_limits = {limit.id: limit for limit in after.limits}
    for lid, limit in now_limits.items():
        if lid not in then_limits:
            add(Direction.WEAKER, "limit added", None, limit.text,
                f"{cid} has a new limit {lid}: {limit.text}")
        elif then_limits[lid].text != limit.text:
            add(Direction.CHANGED, "limit reworded", then_limits[lid].text, limit.text,
                f"{cid} limit {lid} reworded: {limit.text}")
    for lid, limit in then_limits.items():
        if lid not in now_limits:
            add(Direction.STRONGER, "limit removed", limit.text, None,
                f"{cid} no longer states limit {lid}")
    return out


def compare_claims(before: Sequence[ClaimState], after: Sequence[ClaimState], *,
                   new_controls: bool, withheld: Collection[str] = ()) -> list[Change]:
    """Differences for every control in ``before``; controls only in ``after`` count as
    new (stronger) when ``new_controls`` (a whole-model comparison). ``withheld``: controls
    still in the model that the reader is no longer shown (audience narrowed)."""
    now = {state.control: state for state in after}
    then = {state.control for state in before}
    out: list[Change] = []
    for state in before:
        current = now.get(state.control)
        if current is None:
            gone = ("is no longer shown to this audience" if state.control in withheld
                    else "is no longer in the model")
            out.append(Change(state.control, Direction.WEAKER, "control removed",
                              state.title, None, f"{state.control} ({state.title}) {gone}"))
        else:
            out.extend(claim_changes(state, current))
    if new_controls:
        for state in after:
            if state.control not in then:
                out.append(Change(state.control, Direction.STRONGER, "new control", None,
                                  state.title, f"{state.control} ({state.title}) is new, "
                                  f"{state.status.value}, {_word(state.verdict)}"))
    return out


def new_limits(before: Iterable[ClaimState], after: Iterable[ClaimState]) -> list[LimitText]:
    """Limits cited now that no claim in ``before`` cited, in order, once each."""
    known = {limit.id for state in before for limit in state.limits}
    out: dict[str, LimitText] = {}
    for state in after:
        for limit in state.limits:
            if limit.id not in known and limit.id not in out:
                out[limit.id] = limit
    return list(out.values())


def stance_change(before: str, after: str, changes: Iterable[Change]) -> list[Change]:
    """The stance summary's change, if it reads differently; it follows from the claim
    changes, so it is weaker when any of them is, stronger when all of them are."""
    if before == after:
        return []
    directions = {c.direction for c in changes}
    direction = (Direction.WEAKER if Direction.WEAKER in directions
                 else Direction.STRONGER if directions == {Direction.STRONGER}
                 else Direction.CHANGED)
    return [Change("stance", direction, "stance summary", before, after,
                   "the stance summary now reads differently")]


def owes_update(changes: Iterable[Change]) -> bool:
    """A reader told the earlier state is owed an update unless every change is stronger."""
    return any(change.direction is not Direction.STRONGER for change in changes)
