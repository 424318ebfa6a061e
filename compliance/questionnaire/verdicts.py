"""Per-control verdicts for the drafter: verified, refuted or unverified.

The check stage's ``CheckResult.verdicts`` (control id -> verdict) is used
when it has entries. When it is empty (this build's check stage does not
fill it yet), the same configuration checks are run here: each control's
``verified_by`` codes (or those its ``kind`` implies) over the evidence files
it cites. A control is verified only when every one of its checks says
VERIFIED; any REFUTED makes it refuted; everything else is unverified.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

VERIFIED, REFUTED, UNVERIFIED = "verified", "refuted", "unverified"


def status_of(verdict: Any) -> str:
    """'verified' / 'refuted' / 'unverified' from a Verdict, its Status, a dict or a string."""
    if isinstance(verdict, dict):
        verdict = verdict.get("status", UNVERIFIED)
    verdict = getattr(verdict, "status", verdict)
    return str(getattr(verdict, "value", verdict)).casefold()


def control_verdicts(model: Any, root: Path, given: dict[str, Any]) -> dict[str, str]:
    if given:
        return {cid: status_of(v) for cid, v in given.items()}
    from compliance.adapters import parse_evidence
    from compliance.paths import resolve_inside
    from compliance.rules.config import CONFIG_RULES, checks_for_kind, evaluate

    evidence = {ev.id: ev for ev in model.evidence}
    out: dict[str, str] = {}
    for control in model.controls:
        codes = control.verified_by
        if codes is None:
            codes = checks_for_kind(control.kind) if control.kind else []
        codes = [c for c in codes if c in CONFIG_RULES]
        docs = []
        for eid in control.evidence:
            ev = evidence.get(eid)
            if ev is None:
                continue
            try:
                path = resolve_inside(root / "evidence", ev.path)
                docs.append(parse_evidence(path, f"evidence/{ev.path}", ev.kind))
            except Exception:  # unreadable evidence verifies nothing; the checks report it
                continue
        statuses = [status_of(evaluate(code, docs)) for code in codes]
        if REFUTED in statuses:
            out[control.id] = REFUTED
        elif statuses and all(s == VERIFIED for s in statuses):
            out[control.id] = VERIFIED
        else:
            out[control.id] = UNVERIFIED
    return out
