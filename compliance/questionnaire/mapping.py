"""Mapping files: how a known questionnaire is laid out and which layers answer which question.

A mapping is YAML (format in docs/questionnaires.md; the CAIQ v4.0.3 one
ships in ``mappings/``). ``recognise`` says how to tell the questionnaire
apart, ``layout`` which columns hold what, and ``questions`` maps a question
id (exact or regex) or a text regex to the layers, controls and topics that
may answer it. Questions no entry matches are left for a human.
"""

from __future__ import annotations

import re
from functools import cache, cached_property
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from compliance.diagnostics import Diagnostic, Position
from compliance.load.yamlpos import (
    EMPTY_CODE,
    YamlDocument,
    YamlLoadError,
    parse_yaml,
    read_text,
)
from compliance.questionnaire.types import MappingEntry, QuestionnaireError, column_index

LAYERS = ("isolation", "network", "credentials", "git", "pipeline", "logs")
Style = Literal["choice+narrative", "narrative"]
EMPTY_MAPPING = "empty file: a mapping needs at least `name:` (see docs/questionnaires.md)"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class BadRegex(ValueError):
    """A rule's regex does not compile; ``pos`` is the offset of the problem in it."""

    def __init__(self, exc: re.error) -> None:
        super().__init__(f"not a valid regular expression: {exc}")
        self.pos = exc.pos or 0


class Recognise(_Strict):
    sheet: str | None = Field(None, description="Sheet name the workbook must have.")
    header: dict[str, str] = Field(
        default_factory=dict, description="Header cells (column letter -> text) that must match."
    )
    json_fields: dict[str, str] = Field(
        default_factory=dict, alias="json", description="Top-level JSON fields that must match."
    )


class Layout(_Strict):
    sheet: str | None = None
    header_row: int | None = Field(None, ge=1)
    first_row: int | None = Field(None, ge=1)
    last_row: int | None = Field(None, ge=1)
    id_col: str | None = None
    question_col: str
    answer_col: str | None = Field(None, description="Takes the Yes/No/NA choice (or narrative).")
    notes_col: str | None = Field(None, description="Takes the narrative, control ids and limits.")
    section_col: str | None = Field(None, description="Section title; blank cells inherit it.")
    add_headers: dict[str, str] = Field(
        default_factory=dict,
        description="Column letter -> header text written into the header row when answers "
        "go into that column and its header cell is blank (a file without answer columns).",
    )

    @field_validator("id_col", "question_col", "answer_col", "notes_col", "section_col")
    @classmethod
    def _column(cls, value: str | None) -> str | None:
        if value is not None:
            column_index(value)
        return value

    @field_validator("add_headers")
    @classmethod
    def _header_columns(cls, value: dict[str, str]) -> dict[str, str]:
        for col in value:
            column_index(col)
        return value


class YesPart(_Strict):
    """One part of a question that a drafted Yes must cover."""

    part: str = Field(description="What this part of the question asks, as the review says it.")
    topics: list[str] = Field(min_length=1, description="A verified claim that mentions one "
                              "of them speaks to this part (matched like `topics`).")


class Rule(_Strict):
    id: str | None = None
    id_regex: str | None = None
    text_regex: str | None = None
    layers: list[str] = Field(default_factory=list)
    controls: list[str] = Field(default_factory=list)
    topics: list[str] = Field(default_factory=list)
    style: Style | None = None
    note: str | None = None
    yes_needs: list[YesPart] = Field(
        default_factory=list,
        description="Every part of the question a drafted Yes must cover: without a verified "
        "claim speaking to each, the choice is left for a human (the narrative is kept).")

    @field_validator("layers")
    @classmethod
    def _layers(cls, value: list[str]) -> list[str]:
        unknown = [v for v in value if v not in LAYERS]
        if unknown:
            raise ValueError(f"unknown layer {unknown[0]!r}; layers are {', '.join(LAYERS)}")
        return value

    @field_validator("id_regex", "text_regex")
    @classmethod
    def _regex(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                re.compile(value)
            except re.error as exc:
                raise BadRegex(exc) from None
        return value

    @model_validator(mode="after")
    def _one_selector(self) -> Rule:
        if sum(x is not None for x in (self.id, self.id_regex, self.text_regex)) != 1:
            raise ValueError("each question rule needs exactly one of id, id_regex, text_regex")
        if not self.layers and not self.controls:
            raise ValueError("each question rule needs layers or controls")
        return self


class Mapping(_Strict):
    name: str
    fallback: bool = Field(
        False,
        description="Used only when no other mapping recognises the file; its matches are "
        "suggestions listed in the review, never drafted answers.",
    )
    recognise: Recognise = Field(default_factory=lambda: Recognise.model_validate({}))
    layout: Layout | None = None
    choices: list[str] = Field(
        default_factory=list,
        description="The answer column's choices (e.g. Yes, No, NA); empty for free text.",
    )
    default_style: Style = "choice+narrative"
    questions: list[Rule] = Field(default_factory=list)

    @cached_property
    def _by_id(self) -> dict[str, Rule]:
        return {r.id: r for r in self.questions if r.id is not None}

    def match(self, qid: str | None, text: str) -> MappingEntry | None:
        """The first rule matching this question (exact id first, then regexes in file order)."""
        rule = self._by_id.get(qid) if qid else None
        if rule is None:
            for r in self.questions:
                if (r.id_regex and qid and re.fullmatch(r.id_regex, qid)) or (
                    r.text_regex and re.search(r.text_regex, text, re.IGNORECASE)
                ):
                    rule = r
                    break
        if rule is None:
            return None
        return MappingEntry(
            layers=tuple(rule.layers),
            controls=tuple(rule.controls),
            topics=tuple(rule.topics),
            style=rule.style or self.default_style,
            id=rule.id,
            id_regex=rule.id_regex,
            text_regex=rule.text_regex,
            note=rule.note,
            yes_needs=tuple((p.part, tuple(p.topics)) for p in rule.yes_needs),
            suggest_only=self.fallback,
        )


def load_mapping(path: Path) -> Mapping:
    """Read a mapping file; every error is a :class:`QuestionnaireError` at file:line:col."""
    try:
        text = read_text(Path(path), str(path), "mapping")
    except YamlLoadError as exc:
        raise _unreadable(exc.diagnostics) from None
    return parse_mapping(text, str(path))


def parse_mapping(text: str, where: str) -> Mapping:
    """Parse mapping YAML read from ``where`` (a file name, or ``builtin:<name>``)."""
    try:
        doc = parse_yaml(text, where)
    except YamlLoadError as exc:
        raise _unreadable(exc.diagnostics) from None
    if doc.problems:  # duplicate keys, unsupported tags, an empty file
        raise _unreadable(doc.problems)
    try:
        return Mapping.model_validate(doc.data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where_in = ".".join(str(p) for p in first["loc"]) or "the top level"
        message = f"mapping invalid at {where_in}: {first['msg']}"
        raise _error(_place(doc, first), message) from None


def _place(doc: YamlDocument, error: Any) -> Position:
    """Where a validation error points: an unknown key's name, a bad regex's character,
    else the value (or its nearest parent)."""
    loc = tuple(error["loc"])
    cause = (error.get("ctx") or {}).get("error")
    if isinstance(cause, BadRegex):
        return doc.locate_in_scalar(loc, cause.pos)
    return doc.pos(loc, key=error["type"] == "extra_forbidden")


def _unreadable(diagnostics: list[Diagnostic]) -> QuestionnaireError:
    d = diagnostics[0]
    message = EMPTY_MAPPING if d.code == EMPTY_CODE else d.message
    return _error(Position(d.path, d.line, d.column), f"mapping: {message}")


def _error(pos: Position, message: str) -> QuestionnaireError:
    return QuestionnaireError(f"{pos}: {message}")


@cache
def builtin_mappings() -> tuple[Mapping, ...]:
    """Mappings shipped with the package (``compliance/questionnaire/mappings/*.yaml``)."""
    folder = resources.files("compliance.questionnaire") / "mappings"
    out = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".yaml"):
            out.append(parse_mapping(entry.read_text(encoding="utf-8"), f"builtin:{entry.name}"))
    return tuple(out)
