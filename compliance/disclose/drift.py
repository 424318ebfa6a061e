"""How far the model has drifted from one recorded disclosure.

For every claim the record holds: its changes (:mod:`compliance.disclose.compare`);
limits the recorded claims have now that the record did not; for a build, the
stance summary; for answers, each answer re-drafted from the model now and
compared with what was sent. ``check`` and ``diff`` both use
:func:`record_drift`, so they never disagree about who is owed an update.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compliance.disclose.compare import (
    Change,
    Direction,
    compare_claims,
    new_limits,
    owes_update,
    stance_change,
)
from compliance.disclose.state import HashOf, claim_states, stance_record
from compliance.model import Model
from compliance.model.audience import Audience
from compliance.model.disclosure import AnswerRecord, DisclosureRecord, LimitText, RecordKind


@dataclass(frozen=True)
class RecordDrift:
    """One record against the model now."""

    record: DisclosureRecord
    display: str
    changes: tuple[Change, ...]
    new_limits: tuple[LimitText, ...]
    answers: tuple[Change, ...]

    @property
    def owed_update(self) -> bool:
        return owes_update(self.changes) or owes_update(self.answers) or bool(self.new_limits)

    def as_dict(self) -> dict[str, Any]:
        r = self.record
        return {
            "name": r.name, "kind": r.kind.value, "date": r.date.isoformat(), "sent": r.sent,
            "audience": r.audience, "file": self.display, "owed_update": self.owed_update,
            "changes": [c.as_dict() for c in self.changes],
            "new_limits": [{"id": lim.id, "text": lim.text} for lim in self.new_limits],
            "answers": [c.as_dict() for c in self.answers],
        }


def record_drift(record: DisclosureRecord, display: str, model: Model,
                 verdicts: Mapping[str, Any], hash_of: HashOf,
                 evidence_dir: Path) -> RecordDrift:
    """One record against the model now. A build record is compared with what a build for
    the same audience would show now; an answer record with the claims it rested on."""
    recorded = {state.control for state in record.claims}
    now = claim_states(model, verdicts, hash_of)
    now_recorded = [s for s in now if s.control in recorded]
    if record.kind is RecordKind.BUILD:
        from compliance.render.audience import Visibility

        shown = Visibility(Audience(record.audience or "internal"), model).control_ids
        changes = compare_claims(record.claims, [s for s in now if s.control in shown],
                                 new_controls=True,
                                 withheld={s.control for s in now} - shown)
        if record.stance is not None:
            now_summary = stance_record(model, verdicts, shown).summary
            changes += stance_change(record.stance.summary, now_summary, changes)
    else:
        changes = compare_claims(record.claims, now_recorded, new_controls=False)
    answers = redraft(record, model, verdicts, evidence_dir) if record.answers else []
    return RecordDrift(record, display, tuple(changes),
                       tuple(new_limits(record.claims, now_recorded)), tuple(answers))


def redraft(record: DisclosureRecord, model: Model, verdicts: Mapping[str, Any],
            evidence_dir: Path) -> list[Change]:
    """Draft every recorded question again from the model now; name each answer that differs."""
    from compliance.disclose.make import answer_record
    from compliance.questionnaire.draft import draft_answers
    from compliance.questionnaire.judging import claims_judge
    from compliance.questionnaire.types import Format, MappingEntry, Question, Questionnaire
    from compliance.questionnaire.unmapped import UnmappedPolicy
    from compliance.questionnaire.verdicts import control_verdicts

    questions = []
    for item in record.answers:
        rq = item.question
        entry = MappingEntry(
            layers=tuple(rq.layers), controls=tuple(rq.controls), topics=tuple(rq.topics),
            style=rq.style, suggest_only=rq.suggest_only,
            yes_needs=tuple((n.part, tuple(n.topics)) for n in rq.yes_needs),
        ) if rq.mapped else None
        questions.append(Question(key=rq.key, id=rq.id, text=rq.text, style=rq.style,
                                  mapping=entry, choices=tuple(rq.choices)))
    questionnaire = Questionnaire(Path(record.sent), Format.CSV, questions,
                                  recognised=record.recognised)
    policy = None if record.min_confidence is None else UnmappedPolicy(record.min_confidence)
    drafted = draft_answers(questionnaire, model, control_verdicts(dict(verdicts)),
                            evidence_dir, claims_judge(), policy)
    out: list[Change] = []
    for item, question in zip(record.answers, questions, strict=True):
        change = answer_change(item, answer_record(question, drafted.get(question.key)))
        if change is not None:
            out.append(change)
    return out


def answer_change(sent: AnswerRecord, now: AnswerRecord) -> Change | None:
    """How the answer drafted now differs from the one sent, if it does."""
    q = sent.question
    subject = f"answer {q.id or q.key}"
    was, is_ = sent.left_for_human is None, now.left_for_human is None
    if was and not is_:
        return Change(subject, Direction.WEAKER, "answer withdrawn", sent.choice or "narrative",
                      None, f"{subject} would now be left for a human: {now.left_for_human}")
    if not was and is_:
        return Change(subject, Direction.STRONGER, "answer drafted", None,
                      now.choice or "narrative", f"{subject} would now be drafted")
    if not was:
        return None
    if sent.choice != now.choice:
        direction = (Direction.WEAKER if sent.choice == "Yes"
                     else Direction.STRONGER if now.choice == "Yes" else Direction.CHANGED)
        return Change(subject, direction, "choice", sent.choice, now.choice,
                      f"{subject} would now be {now.choice or 'narrative only'} "
                      f"(was {sent.choice or 'narrative only'})")
    if (sent.narrative, sent.controls, sent.evidence_sha256, sent.limits) != (
            now.narrative, now.controls, now.evidence_sha256, now.limits):
        return Change(subject, Direction.CHANGED, "narrative", sent.narrative, now.narrative,
                      f"{subject} would now be worded differently or rest on other evidence")
    return None
