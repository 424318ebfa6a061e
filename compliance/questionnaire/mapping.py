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
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from compliance.questionnaire.types import MappingEntry, QuestionnaireError, column_index

LAYERS = ("isolation", "network", "credentials", "git", "pipeline", "logs")
Style = Literal["choice+narrative", "narrative"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


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

    @field_validator("id_col", "question_col", "answer_col", "notes_col", "section_col")
    @classmethod
    def _column(cls, value: str | None) -> str | None:
        if value is not None:
            column_index(value)
        return value


class Rule(_Strict):
    id: str | None = None
    id_regex: str | None = None
    text_regex: str | None = None
    layers: list[str] = Field(default_factory=list)
    controls: list[str] = Field(default_factory=list)
    topics: list[str] = Field(default_factory=list)
    style: Style | None = None
    note: str | None = None

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
            re.compile(value)
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
            suggest_only=self.fallback,
        )


def load_mapping(path: Path) -> Mapping:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise QuestionnaireError(f"{path}: cannot read mapping ({exc})") from exc
    return parse_mapping(text, str(path))


def parse_mapping(text: str, where: str) -> Mapping:
    try:
        data = YAML(typ="safe", pure=True).load(text)
    except YAMLError as exc:
        raise QuestionnaireError(f"{where}: mapping is not valid YAML ({exc})") from exc
    try:
        return Mapping.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"])
        raise QuestionnaireError(f"{where}: mapping invalid at {loc}: {first['msg']}") from exc


@cache
def builtin_mappings() -> tuple[Mapping, ...]:
    """Mappings shipped with the package (``compliance/questionnaire/mappings/*.yaml``)."""
    folder = resources.files("compliance.questionnaire") / "mappings"
    out = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".yaml"):
            out.append(parse_mapping(entry.read_text(encoding="utf-8"), f"builtin:{entry.name}"))
    return tuple(out)
