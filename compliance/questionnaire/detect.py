"""Find the questions in a sheet: by a known layout, or by header and id-like cells.

Detection never guesses where an answer goes: without an Answer/Response
header (or ``--answer-col``) the questions are still listed, each left for a
human with the reason, and nothing is written.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from compliance.questionnaire.grid import Grid
from compliance.questionnaire.mapping import Layout
from compliance.questionnaire.types import CellRef, Overrides, Question, column_index

ID_LIKE = re.compile(r"^(?:[A-Z][A-Za-z&]{0,7}[-_. ]?)?\d{1,4}(?:[.\-_]\d{1,4}){0,4}[a-z]?\.?$")
_ASKS = re.compile(
    r"\?\s*$|^(describe|explain|provide|list|specify|please|indicate|state|detail|how|what|"
    r"which|who|when|where|why|do|does|is|are|can|has|have|will)\b",
    re.IGNORECASE,
)
_ID_HEADERS = {"id", "#", "no", "no.", "nr", "number", "ref", "ref.", "reference", "item", "q#"}
_NOTES = (
    "comment",
    "additional info",
    "note",
    "explanation",
    "remark",
    "justification",
    "clarification",
    "implementation description",
    "details",
    "evidence",
)
_ANSWERS = ("answer", "response", "yes/no", "yes / no", "y/n", "compliant", "compliance")
_QUESTIONS = ("question", "requirement", "control", "query", "criteria", "item", "description")
#: Headers about the answer but not for it: guidance, examples, instructions, scoring.
_NOT_COLUMNS = ("guidance", "example", "instruction", "help", "score", "weight", "date")
HEADER_SCAN_ROWS = 40


def _norm(text: str) -> str:
    return " ".join(text.split()).lower()


def header_role(text: str) -> str | None:
    """Which column a header cell names: id, notes, answer, question (or None)."""
    t = _norm(text)
    if not t or len(t) > 60:
        return None
    if t in _ID_HEADERS or re.search(r"(^|\s)(id|#|no\.?|num\.?|number|ref\.?)$", t):
        return "id"
    if any(k in t for k in _NOT_COLUMNS):
        return None
    if any(k in t for k in _NOTES):
        return "notes"
    if any(k in t for k in _ANSWERS):
        return "answer"
    if any(k in t for k in _QUESTIONS):
        return "question"
    return None


@dataclass(slots=True)
class Columns:
    header_row: int | None
    id: int | None
    question: int | None
    answer: int | None
    notes: int | None
    section: int | None = None


def find_header(grid: Grid) -> Columns | None:
    best: tuple[int, int, dict[str, int]] | None = None
    for row in grid.rows():
        if row > HEADER_SCAN_ROWS:
            break
        roles: dict[str, int] = {}
        for col, text in sorted(grid.cells[row].items()):
            role = header_role(text)
            if role and role not in roles:
                roles[role] = col
        if "question" in roles and ("answer" in roles or "notes" in roles):
            score = len(roles)
            if best is None or score > best[0]:
                best = (score, row, roles)
    if best is None:
        return None
    _, row, roles = best
    return Columns(row, roles.get("id"), roles["question"], roles.get("answer"), roles.get("notes"))


def _most(grid: Grid, predicate: object, start: int) -> int | None:
    counts: dict[int, int] = {}
    for row in grid.rows():
        if row <= start:
            continue
        for col, text in grid.cells[row].items():
            if predicate(text):  # type: ignore[operator]
                counts[col] = counts.get(col, 0) + 1
    if not counts:
        return None
    col, n = max(counts.items(), key=lambda kv: (kv[1], -kv[0]))
    return col if n >= 2 else None


def is_question_text(text: str) -> bool:
    t = " ".join(text.split())
    return len(t) >= 10 and any(c.isalpha() for c in t) and (bool(_ASKS.search(t)) or len(t) >= 40)


def _col(value: str | None) -> int | None:
    return column_index(value) if value else None


def resolve_columns(grid: Grid, overrides: Overrides, layout: Layout | None) -> Columns:
    """Columns from a mapping layout, then the header row, then headerless heuristics;
    command-line overrides win over all of them."""
    if layout is not None:
        cols = Columns(
            layout.header_row,
            _col(layout.id_col),
            _col(layout.question_col),
            _col(layout.answer_col),
            _col(layout.notes_col),
            _col(layout.section_col),
        )
    elif overrides.header_row is not None:
        cols = Columns(overrides.header_row, None, None, None, None)
        for col, text in sorted(grid.cells.get(overrides.header_row, {}).items()):
            role = header_role(text)
            if role and getattr(cols, role) is None:
                setattr(cols, role, col)
    else:
        found = find_header(grid)
        cols = found or Columns(None, None, None, None, None)
    start = cols.header_row or 0
    if cols.id is None and overrides.id_col is None and cols.header_row is None:
        cols.id = _most(grid, lambda t: bool(ID_LIKE.match(t.strip())), start)
    if cols.question is None and overrides.question_col is None:
        cols.question = _most(grid, is_question_text, start)
    for name in ("id", "question", "answer", "notes"):
        value = getattr(overrides, f"{name}_col")
        if value is not None:
            setattr(cols, name, column_index(value))
    return cols


def questions_in(
    grid: Grid, cols: Columns, first_row: int | None = None, last_row: int | None = None
) -> list[Question]:
    """Question rows of one sheet; rows with a title but no question set the section."""
    if cols.question is None:
        return []
    start = first_row or (cols.header_row or 0) + 1
    out: list[Question] = []
    section: str | None = None
    for row in grid.rows():
        if row < start or (last_row is not None and row > last_row):
            continue
        if cols.section is not None and grid.get(row, cols.section).strip():
            section = " ".join(grid.get(row, cols.section).split())
        qid = grid.get(row, cols.id).strip() if cols.id else ""
        text = grid.get(row, cols.question).strip()
        id_ok = bool(qid) and bool(ID_LIKE.match(qid))
        if text and (id_ok or is_question_text(text)):
            out.append(_question(grid, cols, row, qid or None, text, section))
        elif cols.section is None:
            title = _title(grid, row, cols)
            if title:
                section = title
    return out


def _title(grid: Grid, row: int, cols: Columns) -> str | None:
    """A section header row: short text, nothing in the answer column, not a question."""
    if cols.answer is not None and grid.get(row, cols.answer).strip():
        return None
    texts = [t.strip() for _, t in sorted(grid.cells.get(row, {}).items()) if t.strip()]
    if not texts or len(texts) > 2:
        return None
    title = " ".join(texts[-1].split()) if len(texts) == 2 else " ".join(texts[0].split())
    return title if len(title) <= 120 else None


def _question(
    grid: Grid, cols: Columns, row: int, qid: str | None, text: str, section: str | None
) -> Question:
    answer = CellRef(grid.name, row, cols.answer) if cols.answer else None
    notes = CellRef(grid.name, row, cols.notes) if cols.notes else None
    existing = None
    if answer is not None:
        existing = grid.get(row, answer.column).strip() or None
        if (row, answer.column) in grid.formulas:
            existing = existing or "(formula)"
    return Question(
        key="",
        id=qid,
        text=" ".join(text.split()),
        section=section,
        sheet=grid.name,
        row=row,
        answer_ref=answer,
        notes_ref=notes,
        existing=existing,
    )


def assign_keys(questions: list[Question]) -> None:
    """Key by question id where it is unique in the file, else by position (sheet!row,
    ``row N`` for CSV, the JSON path for JSON)."""
    counts = Counter(q.id for q in questions if q.id)
    for q in questions:
        if q.id and counts[q.id] == 1:
            q.key = q.id
        elif q.json_path is not None:
            q.key = "/".join(str(p) for p in q.json_path)
        elif q.sheet:
            q.key = f"{q.sheet}!{q.row}"
        else:
            q.key = f"row {q.row}"
