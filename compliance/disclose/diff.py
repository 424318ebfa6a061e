"""`compliance diff`: what changed in the stance since a record or a git revision, and who
is owed an update.

Three baselines:

- none: every recorded disclosure against the model now;
- ``--since NAME`` (a record in disclosures/): that record against the model now;
- ``--since REV`` (a git revision): the whole model at REV against the model now,
  and every recorded disclosure, each marked when this change weakens a claim it
  relies on (what CI says on a pull request).

A record name wins over a revision of the same spelling.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from compliance.diagnostics import UserError
from compliance.disclose.compare import (
    Change,
    Direction,
    compare_claims,
    new_limits,
    stance_change,
)
from compliance.disclose.drift import RecordDrift, record_drift
from compliance.disclose.state import claim_states, file_hasher, stance_record
from compliance.model import Model
from compliance.model.disclosure import LimitText
from compliance.pipeline import Checked, load_and_check


class ModelDoesNotLoad(Exception):
    """The workspace now does not load: nothing to compare (its findings say why)."""

    def __init__(self, checked: Checked) -> None:
        super().__init__("the model does not load, so there is nothing to compare")
        self.checked = checked


@dataclass(frozen=True)
class Since:
    kind: str  # "records", "record" or "git"
    ref: str | None = None
    commit: str | None = None

    def describe(self) -> str:
        if self.kind == "git":
            return f"git revision {self.ref} ({(self.commit or '')[:12]})"
        if self.kind == "record":
            return f"recorded disclosure {self.ref}"
        return "each recorded disclosure"


@dataclass(frozen=True)
class DiffReport:
    since: Since
    changes: tuple[Change, ...] = ()
    new_limits: tuple[LimitText, ...] = ()
    disclosures: tuple[RecordDrift, ...] = ()
    #: Record name -> controls this change (--since REV) weakened that the record relies on.
    weakened_by_change: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def owed_update(self) -> list[str]:
        return [d.record.name for d in self.disclosures if d.owed_update]

    def counts(self) -> dict[str, int]:
        changes = list(self.changes)
        if self.since.kind != "git":
            changes = [c for d in self.disclosures for c in (*d.changes, *d.answers)]
        return {direction.value: sum(c.direction is direction for c in changes)
                for direction in Direction}

    def as_dict(self) -> dict[str, Any]:
        return {
            "tool": "compliance",
            "since": {"kind": self.since.kind, "ref": self.since.ref,
                      "commit": self.since.commit},
            "changes": [c.as_dict() for c in self.changes],
            "new_limits": [{"id": lim.id, "text": lim.text} for lim in self.new_limits],
            "disclosures": [
                {**d.as_dict(),
                 "weakened_by_this_change": list(self.weakened_by_change.get(d.record.name, ()))}
                for d in self.disclosures
            ],
            "owed_update": self.owed_update,
            "summary": self.counts(),
        }


def _drifts(checked: Checked, names: list[str]) -> list[RecordDrift]:
    ws = checked.workspace
    model = ws.model
    assert model is not None
    hash_of = file_hasher(ws.evidence_dir)
    return [record_drift(ws.disclosures[n].record, ws.disclosures[n].display, model,
                         checked.result.verdicts, hash_of, ws.evidence_dir) for n in names]


def _stance(old: Checked, new: Checked, changes: list[Change]) -> list[Change]:
    before = stance_record(_model(old), old.result.verdicts).summary
    after = stance_record(_model(new), new.result.verdicts).summary
    return stance_change(before, after, changes)


def _model(checked: Checked) -> Model:
    if checked.workspace.model is None:
        raise ModelDoesNotLoad(checked)
    return checked.workspace.model


def make_diff(root: Path, since: str | None, today: dt.date | None = None) -> DiffReport:
    """Compare the workspace at ``root`` now with ``since`` (see the module docstring).

    Raises :class:`ModelDoesNotLoad` when the workspace now does not load, and
    ``UserError`` for an unreadable workspace or a baseline that cannot be read."""
    today = today or dt.date.today()
    now = load_and_check(root, today)
    _model(now)
    records = sorted(now.workspace.disclosures)
    if since is None:
        return DiffReport(Since("records"), disclosures=tuple(_drifts(now, records)))
    if since in now.workspace.disclosures:
        [drift] = _drifts(now, [since])
        return DiffReport(Since("record", since), changes=drift.changes,
                          new_limits=drift.new_limits, disclosures=(drift,))
    from compliance.disclose.gitrev import workspace_at

    with workspace_at(root, since) as (old_root, revision):
        old = load_and_check(old_root, today)
        if old.workspace.model is None:
            errors = [d for d in old.result.findings if d.level.value == "error"]
            first = f": {errors[0].path}:{errors[0].line}: {errors[0].message}" if errors else ""
            raise UserError(f"--since {since!r}: the workspace at {revision.short} does not "
                            f"load ({len(errors)} errors), so there is nothing to compare "
                            f"with{first}")
        before = claim_states(_model(old), old.result.verdicts, file_hasher(old_root / "evidence"))
    after = claim_states(_model(now), now.result.verdicts,
                         file_hasher(now.workspace.evidence_dir))
    changes = compare_claims(before, after, new_controls=True)
    changes += _stance(old, now, changes)
    weakened = {c.subject for c in changes if c.direction is Direction.WEAKER}
    drifts = _drifts(now, records)
    affected = {}
    for drift in drifts:
        hit = tuple(s.control for s in drift.record.claims if s.control in weakened)
        if hit:
            affected[drift.record.name] = hit
    return DiffReport(Since("git", since, revision.commit), changes=tuple(changes),
                      new_limits=tuple(new_limits(before, after)), disclosures=tuple(drifts),
                      weakened_by_change=affected)
