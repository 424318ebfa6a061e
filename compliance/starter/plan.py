"""Decide what a starter workspace holds: evidence, one control per aspect found, limits.

Before anything is written, each aspect's natural claim is checked by the
configuration checks of its kind over the files found, exactly as
``compliance check`` will check it:

- VERIFIED or UNVERIFIED: the claim is written as a deployed control;
  UNVERIFIED stays visible in every check until the missing export is added.
- REFUTED: the claim is not true of this configuration. It is written as a
  *planned* control (a target, not a statement about the present), with the
  refuting file lines in its implementation, so no output presents it as true.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

from compliance.adapters import EvidenceDoc
from compliance.rules.config import CONFIG_RULES, KIND_CHECKS, Status, Verdict
from compliance.starter.catalog import ASPECTS, LIMITS, SOURCES, Aspect
from compliance.starter.scan import Found, Scan, scan

MAX_REASONS = 6


@dataclass(frozen=True)
class EvidenceItem:
    id: str
    rel: str
    kind: str
    sha256: str
    data: bytes


@dataclass(frozen=True)
class PlannedControl:
    id: str
    aspect: Aspect
    evidence: tuple[str, ...]
    checks: tuple[str, ...]
    verdicts: dict[str, Verdict]
    status: Status
    limits: tuple[str, ...]

    @property
    def refuted(self) -> bool:
        return self.status is Status.REFUTED


@dataclass
class Plan:
    root: Path
    today: dt.date
    scan: Scan
    evidence: list[EvidenceItem] = field(default_factory=list)
    controls: list[PlannedControl] = field(default_factory=list)

    @property
    def limit_ids(self) -> list[str]:
        return sorted({lim for c in self.controls for lim in c.limits})

    @property
    def source_ids(self) -> list[str]:
        return sorted({s for lim in self.limit_ids for s in LIMITS[lim].sources})


def evidence_kind(doc: EvidenceDoc) -> str:
    """The kind to write: Claude Code settings keep their scope explicit."""
    if doc.kind == "claude-settings" and doc.scope:
        return f"claude-{doc.scope}-settings"
    return doc.kind


def evidence_id(rel: str, taken: set[str]) -> str:
    base = re.sub(r"[^A-Za-z0-9]+", "-", rel).strip("-").lower()[:70] or "file"
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}-{n}", n + 1
    taken.add(candidate)
    return candidate


def fold(verdicts: dict[str, Verdict]) -> Status:
    statuses = [v.status for v in verdicts.values()]
    if Status.REFUTED in statuses:
        return Status.REFUTED
    if statuses and all(s is Status.VERIFIED for s in statuses):
        return Status.VERIFIED
    return Status.UNVERIFIED


def make_plan(root: Path, today: dt.date, exclude: Path | None = None) -> Plan:
    found = scan(root, exclude)
    plan = Plan(root, today, found)
    if found.errors:
        return plan
    taken: set[str] = set()
    ids: dict[str, str] = {}
    for f in found.found:
        data = f.path.read_bytes()
        item = EvidenceItem(evidence_id(f.rel, taken), f.rel, evidence_kind(f.doc),
                            hashlib.sha256(data).hexdigest(), data)
        plan.evidence.append(item)
        ids[f.rel] = item.id
    counters: dict[str, int] = {}
    for aspect in ASPECTS:
        cited = [f for f in found.found if f.doc.kind in aspect.reads]
        control = _control(aspect, cited, ids, counters)
        if control is not None:
            plan.controls.append(control)
    return plan


def _control(aspect: Aspect, cited: list[Found], ids: dict[str, str],
             counters: dict[str, int]) -> PlannedControl | None:
    docs = [f.doc for f in cited]
    if not docs or (aspect.present is not None and not aspect.present(docs)):
        return None
    kinds = {d.kind for d in docs}
    checks = tuple(c for c in KIND_CHECKS[aspect.kind] if set(CONFIG_RULES[c].reads) & kinds)
    if not checks:
        return None
    verdicts = {c: CONFIG_RULES[c]().evaluate(docs) for c in checks}
    counters[aspect.prefix] = counters.get(aspect.prefix, 0) + 1
    cid = f"{aspect.prefix}-{counters[aspect.prefix]:02d}"
    return PlannedControl(cid, aspect, tuple(ids[f.rel] for f in cited), checks, verdicts,
                          fold(verdicts), aspect.limits_for(docs))


def reasons(control: PlannedControl, refuting: bool) -> list[str]:
    """The verdicts' reasons as ``file:line key: message`` (refuting ones, or the others)."""
    out: list[str] = []
    for v in control.verdicts.values():
        for r in v.reasons:
            if r.refutes == refuting and str(r) not in out:
                out.append(f"{r.path}:{r.line} {r.key}: {r.message}")
    return out[:MAX_REASONS]


def gaps(control: PlannedControl) -> list[str]:
    return [f"{code}: {v.message}" for code, v in control.verdicts.items()
            if v.status is Status.UNVERIFIED]


__all__ = ["SOURCES", "EvidenceItem", "Plan", "PlannedControl", "fold", "gaps", "make_plan",
           "reasons"]
