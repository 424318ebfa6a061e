"""The state of each claim now: what a record keeps and what `diff` compares.

One function turns a checked model into :class:`ClaimState` values, so a
record written today and the model read tomorrow are described the same way.
Verdict words are the report's (``verdict_of``); evidence hashes are of the
files' content now (not the pins: a re-pinned file with new content is a
changed claim).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from compliance.model import Control, Evidence, Model
from compliance.model.disclosure import MISSING, ClaimState, EvidenceHash, LimitText, StanceRecord
from compliance.paths import OutsideFolder, open_inside

HashOf = Callable[[Evidence], str]


def file_hasher(evidence_dir: Path) -> HashOf:
    """sha256 of an evidence item's file inside ``evidence_dir`` (``missing`` when none)."""
    memo: dict[str, str] = {}

    def hash_of(ev: Evidence) -> str:
        if ev.path not in memo:
            # Opened through compliance.paths: evidence/ and the file checked inside the
            # workspace (evidence_dir's parent) at the moment they are read.
            try:
                digest = hashlib.sha256()
                with open_inside(evidence_dir, ev.path, workspace=evidence_dir.parent) as handle:
                    for chunk in iter(lambda: handle.read(1 << 20), b""):
                        digest.update(chunk)
            except (OutsideFolder, OSError):
                memo[ev.path] = MISSING
                return MISSING
            memo[ev.path] = digest.hexdigest()
        return memo[ev.path]

    return hash_of


def verdict_words(model: Model, verdicts: Mapping[str, Any]) -> dict[str, tuple[Any, str]]:
    """Control id -> (Verdict, reason) as every output states it."""
    from compliance.render.build_context import verdict_of

    return {c.id: verdict_of(verdicts.get(c.id)) for c in model.controls}


def claim_state(model: Model, control: Control, verdict: str, hash_of: HashOf) -> ClaimState:
    evidence = {ev.id: ev for ev in model.evidence}
    limits = {limit.id: limit for limit in model.limits}
    return ClaimState(
        control=control.id,
        layer=control.layer,
        title=control.title,
        status=control.status,
        verdict=verdict,
        claim=" ".join(control.claim.split()),
        evidence=[
            EvidenceHash(id=eid, path=evidence[eid].path, sha256=hash_of(evidence[eid]))
            for eid in control.evidence
            if eid in evidence
        ],
        limits=[
            LimitText(id=lid, text=" ".join(limits[lid].text.split()))
            for lid in control.limits
            if lid in limits
        ],
    )


def claim_states(
    model: Model,
    verdicts: Mapping[str, Any],
    hash_of: HashOf,
    only: Iterable[str] | None = None,
) -> list[ClaimState]:
    """Every control's claim state in model order (or only the controls in ``only``)."""
    words = verdict_words(model, verdicts)
    wanted = None if only is None else set(only)
    return [
        claim_state(model, c, words[c.id][0].value, hash_of)
        for c in model.controls
        if wanted is None or c.id in wanted
    ]


def stance_record(model: Model, verdicts: Mapping[str, Any],
                  shown: Iterable[str] | None = None) -> StanceRecord:
    """The stance summary and its limits, exactly as the build states them (to an audience
    shown only the controls in ``shown``)."""
    from compliance.render.stance import build_stance

    stance = build_stance(model, verdict_words(model, verdicts),
                          None if shown is None else set(shown))
    return StanceRecord(
        summary=" ".join(stance.summary.split()),
        limits=[" ".join(text.split()) for text in stance.limits],
    )
