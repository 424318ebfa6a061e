"""The data every questionnaire stage shares: questions, cell references, answers.

A :class:`Questionnaire` is what a reader produced from the customer's file;
a :class:`Question` knows where it came from (sheet and row, or JSON path) and
where its answer goes (:class:`CellRef`). An :class:`Answer` is what the
drafter composed for one question, keyed by :attr:`Question.key`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from compliance.diagnostics import UserError


class Format(enum.StrEnum):
    XLSX = "xlsx"
    CSV = "csv"
    JSON = "json"


class Choice(enum.StrEnum):
    YES = "Yes"
    NO = "No"
    NA = "NA"


@dataclass(frozen=True, slots=True)
class CellRef:
    """One cell: sheet name, 1-based row and column (column 1 is A)."""

    sheet: str
    row: int
    column: int

    @property
    def a1(self) -> str:
        return f"{column_letter(self.column)}{self.row}"

    def __str__(self) -> str:
        return f"{self.sheet}!{self.a1}" if self.sheet else self.a1


@dataclass(frozen=True, slots=True)
class MappingEntry:
    """One rule of a mapping file: which questions it matches and what answers them."""

    layers: tuple[str, ...] = ()
    controls: tuple[str, ...] = ()
    topics: tuple[str, ...] = ()
    style: str = "choice+narrative"
    id: str | None = None
    id_regex: str | None = None
    text_regex: str | None = None
    note: str | None = None
    #: The parts of the question a drafted Yes must cover, each (what it asks, topics): a
    #: Yes needs a verified claim mentioning one of each part's topics.
    yes_needs: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: From the built-in fallback mapping: controls are suggested in the review, never drafted.
    suggest_only: bool = False


@dataclass(slots=True)
class Question:
    """One question of the customer's file and where its answer goes.

    ``key`` is unique within the questionnaire (the question id when the file
    has unique ids, else ``sheet!row``); answers are keyed by it.
    ``answer_ref``/``notes_ref`` are cells for XLSX/CSV (CSV uses sheet "");
    for JSON, ``json_path`` locates the item object instead.
    ``existing`` holds what the answer cell already contains (never overwritten).
    """

    key: str
    id: str | None
    text: str
    section: str | None = None
    sheet: str | None = None
    row: int | None = None
    answer_ref: CellRef | None = None
    notes_ref: CellRef | None = None
    json_path: tuple[int | str, ...] | None = None
    style: str = "choice+narrative"
    mapping: MappingEntry | None = None
    existing: str | None = None
    #: What the notes cell already holds (``library add`` reads human-final text from it).
    existing_notes: str | None = None
    choices: tuple[str, ...] = ()
    #: The answer cell is a drop-down (a list data validation): it takes only its choices.
    answer_dropdown: bool = False
    #: The title rows above the sheet's header row (the workbook's own title), nearest first.
    titles: tuple[str, ...] = ()
    #: Why the question's text cannot be read (a formula the workbook saved no value for):
    #: the question is listed and left for a human with this reason, never drafted.
    unreadable: str | None = None

    @property
    def headings(self) -> tuple[str, ...]:
        """What the question stands under, nearest first: its section, then its sheet's name.
        A question that says only "it" is about what these (or :attr:`titles`) name."""
        return tuple(t for t in (self.section, self.sheet) if t)


@dataclass(slots=True)
class Questionnaire:
    """A questionnaire read from ``path``: its questions in file order and how it was read."""

    path: Path
    format: Format
    questions: list[Question]
    kind: str = "generic"
    mapping_name: str | None = None
    notes: list[str] = field(default_factory=list)
    #: A mapping (built-in or --mapping) recognised the file; False for the fallback.
    recognised: bool = False
    #: Blank header cells to fill (the mapping's ``add_headers``) when answers go below them.
    header_cells: dict[CellRef, str] = field(default_factory=dict)
    # Reader state the writer needs (CSV dialect, JSON document); not for callers.
    source: Any = None

    def by_key(self) -> dict[str, Question]:
        return {q.key: q for q in self.questions}


@dataclass(frozen=True, slots=True)
class Answer:
    """What the drafter says for one question.

    ``unanswered_reason`` set means "left for a human", with that reason.
    """

    choice: Choice | None = None
    narrative: str = ""
    control_ids: tuple[str, ...] = ()
    evidence_sha256: tuple[str, ...] = ()
    limits: tuple[str, ...] = ()
    unanswered_reason: str | None = None
    #: A narrative whose Yes/No/NA choice is left for a human: why (the review shows it).
    choice_left: str | None = None
    #: Unmapped questionnaires: how well the question matched the model (0..1), and the
    #: question's words that matched.
    match_score: float | None = None
    matched: tuple[str, ...] = ()
    layers: tuple[str, ...] = ()
    #: --library: "reused from ..." or "stale: ... (re-review)".
    library: str = ""

    @property
    def answered(self) -> bool:
        return self.unanswered_reason is None and (self.choice is not None or bool(self.narrative))


@dataclass(frozen=True, slots=True)
class Overrides:
    """Command-line overrides of detection. Columns are letters ("C") or 1-based numbers."""

    sheet: str | None = None
    id_col: str | None = None
    question_col: str | None = None
    answer_col: str | None = None
    notes_col: str | None = None
    header_row: int | None = None
    mapping: Path | None = None


class QuestionnaireError(UserError):
    """The questionnaire, its mapping or an output cannot be read or written (exit 2); the
    message names the file (file:line:col where there is a place to point at).

    A :class:`~compliance.diagnostics.UserError`, so any command's edge handles it."""


def column_letter(column: int) -> str:
    letters = ""
    while column > 0:
        column, rem = divmod(column - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def column_index(col: str | int) -> int:
    """ "C" -> 3, "AA" -> 27, "3" -> 3."""
    if isinstance(col, int):
        return col
    text = col.strip().upper()
    if text.isdigit():
        return int(text)
    if not text or not text.isalpha() or len(text) > 3:
        raise ValueError(f"not a column: {col!r}")
    n = 0
    for ch in text:
        n = n * 26 + (ord(ch) - 64)
    return n
