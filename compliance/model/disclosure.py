"""A recorded disclosure: what was sent to a customer or auditor, as `disclosures/NAME.yaml`.

Written by ``compliance answer --record NAME`` and ``compliance build --record
NAME``; read back (positions kept, strict like every model file) by the loader,
compared with the model by ``compliance diff`` and by the check
``disclosure-out-of-date``. Nothing in it comes from the clock: ``date`` is the
model's ``system.last_reviewed`` when the record was made.
"""

from __future__ import annotations

import datetime as dt
import enum
from typing import Literal

from pydantic import Field

from compliance.model.audience import Audience
from compliance.model.base import Identifier, Line, Strict, Text
from compliance.model.layers import Layer
from compliance.model.sections import Status

RECORD_FORMAT = "compliance-disclosure/1"
#: What an evidence hash is when the file was missing or outside evidence/.
MISSING = "missing"


class RecordKind(enum.StrEnum):
    """Which command sent it: a questionnaire answered, or a build (report and pack)."""

    ANSWER = "answer"
    BUILD = "build"


class EvidenceHash(Strict):
    """One evidence file a claim rested on, and the sha256 of its content then."""

    id: Identifier = Field(description="Evidence id in the model.")
    path: Line = Field(description="Path under evidence/.")
    sha256: Line = Field(description="sha256 of the file's content when recorded, or "
                         "'missing' when there was no file to hash.")


class LimitText(Strict):
    """A limit as the reader was told it."""

    id: Identifier = Field(description="Limit id in the model.")
    text: Text = Field(description="The limit's text when recorded.")


class ClaimState(Strict):
    """One control's claim as it stood: status, verdict, evidence and limits."""

    control: Identifier = Field(description="Control id.", examples=["NET-01"])
    layer: Layer = Field(description="The control's layer.")
    title: Line = Field(description="The control's title.")
    status: Status = Field(description="deployed, partial or planned.")
    verdict: Line = Field(description="What the checks established, as the report says it "
                          "(VERIFIED, REFUTED, UNVERIFIED, ...).")
    claim: Text = Field(description="The claim's text.")
    evidence: list[EvidenceHash] = Field(default_factory=list,
                                         description="Evidence the claim rested on.")
    limits: list[LimitText] = Field(default_factory=list,
                                    description="Limits stated with the claim.")


class StanceRecord(Strict):
    """The stance summary as sent, and its limits."""

    summary: Text = Field(description="The defensible summary sentence.")
    limits: list[Text] = Field(default_factory=list, description="The limits it listed.")


class YesNeedRecord(Strict):
    """One part of a question a drafted Yes must cover (the mapping's ``yes_needs``)."""

    part: Line = Field(description="What this part of the question asks.")
    topics: list[Line] = Field(description="A verified claim mentioning one speaks to it.")


class QuestionRecord(Strict):
    """What a re-draft needs to know about one question: its text and mapping."""

    key: Line = Field(description="The question's unique key in the questionnaire.")
    id: Line | None = Field(default=None, description="The question's id, if it has one.")
    text: Text = Field(description="The question as the customer asked it.")
    style: Line = Field(description="choice+narrative or narrative.")
    choices: list[Line] = Field(default_factory=list,
                                description="The answer cell's allowed values, if any.")
    layers: list[Line] = Field(default_factory=list, description="Mapped layers.")
    controls: list[Line] = Field(default_factory=list, description="Mapped control ids.")
    topics: list[Line] = Field(default_factory=list, description="Mapped topics.")
    mapped: bool = Field(description="Whether a mapping entry covered the question.")
    suggest_only: bool = Field(default=False,
                               description="The fallback mapping: controls suggested only.")
    yes_needs: list[YesNeedRecord] = Field(
        default_factory=list,
        description="The parts a drafted Yes must cover (the mapping's yes_needs).")


class AnswerRecord(Strict):
    """One drafted answer as sent (or the reason it was left for a human)."""

    question: QuestionRecord
    choice: Line | None = Field(default=None, description="Yes, No or NA, if one was drafted.")
    narrative: str = Field(default="", max_length=20_000, description="The drafted narrative.")
    controls: list[Identifier] = Field(default_factory=list,
                                       description="Controls the answer rests on.")
    evidence_sha256: list[Line] = Field(default_factory=list,
                                        description="sha256 of the evidence it rests on.")
    limits: list[Text] = Field(default_factory=list, description="Limits the answer stated.")
    left_for_human: Text | None = Field(default=None,
                                        description="Why no answer was drafted, if none was.")


class DisclosureRecord(Strict):
    """disclosures/NAME.yaml: what was sent, to be compared with the model later."""

    format: Literal["compliance-disclosure/1"] = Field(
        description="The record format and its version.", examples=[RECORD_FORMAT])
    name: Identifier = Field(description="The record's name; the file is disclosures/NAME.yaml.",
                             examples=["acme-bank-2026-q4"])
    kind: RecordKind = Field(description="answer (a questionnaire) or build (report, pack).")
    date: dt.date = Field(description="The model's last_reviewed date when it was recorded.")
    generator: Line = Field(description="The tool and version that recorded it.")
    system: Line = Field(description="The system the model covers.")
    audience: Audience | None = Field(
        default=None, description="The audience a build was made for (public, nda, internal); "
        "none for answers.")
    sent: Line = Field(description="What was sent: the answered file's name, or the pack.")
    stance: StanceRecord | None = Field(
        default=None, description="The stance summary a build stated (answers state none).")
    claims: list[ClaimState] = Field(
        default_factory=list,
        description="Every claim the outputs stated (for a build: every control shown; for "
        "answers: the controls the drafted answers rest on).")
    answers: list[AnswerRecord] = Field(default_factory=list,
                                        description="Every question, answered or not.")
    recognised: bool = Field(
        default=True, description="Answers: whether a mapping recognised the questionnaire "
        "(otherwise each question was matched to the model).")
    min_confidence: float | None = Field(
        default=None, ge=0, le=1,
        description="Answers to a questionnaire no mapping recognised: the match score a "
        "question needed to be drafted; none when such questions were not drafted.")
