"""Find the questions in a sheet: by a known layout, or by header and id-like cells.

Detection never guesses where an answer goes: without an Answer/Response
header (or ``--answer-col``) the questions are still listed, each left for a
human with the reason, and nothing is written.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from compliance.questionnaire.formulas import no_value_reason
from compliance.questionnaire.grid import Grid
from compliance.questionnaire.mapping import Layout
from compliance.questionnaire.types import (
    CellRef,
    Overrides,
    Question,
    column_index,
    column_letter,
)

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
#: A header naming the questionnaire each row comes from, in a list compiled from several.
_SOURCES = {"questionnaire", "source", "source questionnaire", "questionnaire name",
            "questionnaire title", "framework"}  # fmt: skip
#: A header naming the column of section titles ("Category", "Control domain", "Domain title").
_SECTION = re.compile(r"(^|\s)(section|domain|category|control family|topic|area)( title| name)?$")
#: Headers about the answer but not for it: guidance, examples, instructions, scoring.
_NOT_COLUMNS = ("guidance", "example", "instruction", "help", "score", "weight", "date")
HEADER_SCAN_ROWS = 40


def _norm(text: str) -> str:
    return " ".join(text.split()).lower()


def header_role(text: str) -> str | None:
    """Which column a header cell names: id, source, section, notes, answer, question (or
    None)."""
    t = _norm(text)
    if not t or len(t) > 60:
        return None
    if t in _ID_HEADERS or re.search(r"(^|\s)(id|#|no\.?|num\.?|number|ref\.?)$", t):
        return "id"
    if t in _SOURCES:  # before "question": "Questionnaire" names where a row comes from
        return "source"
    if any(k in t for k in _NOT_COLUMNS):
        return None
    if _SECTION.search(t.replace("_", " ")):
        return "section"
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
    #: the questionnaire each row comes from (a list compiled from several)
    source: int | None = None


#: A header cell up to this many rows above the header row still names its column
#: (a "Vendor answer" banner over the answer columns, two rows above "Question").
HEADER_BAND = 2


def _roles(grid: Grid, row: int) -> dict[str, int]:
    roles: dict[str, int] = {}
    for col, text in sorted(grid.cells.get(row, {}).items()):
        role = header_role(text)
        if role and role not in roles:
            roles[role] = col
    return roles


def find_header(grid: Grid) -> Columns | None:
    """The header row: the row (within the first 40) whose cells, with those up to
    :data:`HEADER_BAND` rows above it for columns it leaves unnamed, name a question column
    and an answer or notes column (or sit above a drop-down answer column). The most roles
    win; then the row that names most of them itself."""
    best: tuple[int, int, int, dict[str, int]] | None = None
    for row in grid.rows():
        if row > HEADER_SCAN_ROWS:
            break
        if any(_looks_like_data(t) for t in grid.cells[row].values()):
            continue  # a question or an id: this is a question row, not a header
        own = _roles(grid, row)
        roles = dict(own)
        taken = set(own.values())
        for above in range(row - 1, max(0, row - 1 - HEADER_BAND), -1):
            for role, col in _roles(grid, above).items():
                if role not in roles and col not in taken:
                    roles[role] = col
                    taken.add(col)
        if "question" not in roles:
            continue
        if "answer" in roles or "notes" in roles or _dropdown_column(grid, row, roles) is not None:
            key = (len(roles), len(own), -row)
            if best is None or key > best[:3]:
                best = (*key, roles)
    if best is None:
        return None
    row, roles = -best[2], best[3]
    return Columns(
        row,
        roles.get("id"),
        roles["question"],
        roles.get("answer"),
        roles.get("notes"),
        roles.get("section"),
        roles.get("source"),
    )


def _looks_like_data(text: str) -> bool:
    t = " ".join(text.split())
    return bool(ID_LIKE.match(t)) or (is_question_text(t) and (t.endswith("?") or len(t) > 60))


def _dropdown_column(grid: Grid, header_row: int, roles: dict[str, int]) -> int | None:
    """The column whose drop-downs cover most rows below ``header_row`` that have question
    text (at least two), other than the id and question columns; leftmost on a tie."""
    qcol = roles.get("question")
    if qcol is None or not grid.dropdowns:
        return None
    rows = [r for r in grid.rows() if r > header_row and grid.get(r, qcol).strip()]
    counts: dict[int, int] = {}
    for d in grid.dropdowns:
        for _r1, c1, _r2, c2 in d.ranges:
            for col in range(c1, min(c2, c1 + 50) + 1):
                if col not in (qcol, roles.get("id")):
                    counts[col] = max(counts.get(col, 0), sum(1 for r in rows if d.covers(r, col)))
    if not counts:
        return None
    col, n = max(counts.items(), key=lambda kv: (kv[1], -kv[0]))
    return col if n >= 2 else None


def _header_text(grid: Grid, header_row: int, col: int) -> str:
    for row in range(header_row, max(0, header_row - 1 - HEADER_BAND), -1):
        if grid.get(row, col).strip():
            return grid.get(row, col).strip()
    return ""


def _notes_beside(grid: Grid, cols: Columns) -> int | None:
    """The comments column a person sees right of a drop-down answer column: it has a header
    that names no other role and is not guidance/examples/scoring, takes no drop-down, and
    is blank on every question row."""
    if cols.answer is None or cols.header_row is None or cols.question is None:
        return None
    col = cols.answer + 1
    if col in (cols.id, cols.question):
        return None
    text = _header_text(grid, cols.header_row, col)
    role = header_role(text)
    if not text or role not in (None, "notes") or any(k in _norm(text) for k in _NOT_COLUMNS):
        return None
    rows = [r for r in grid.rows() if r > cols.header_row and grid.get(r, cols.question).strip()]
    if any(grid.get(r, col).strip() or grid.dropdown_at(r, col) for r in rows):
        return None
    return col


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
    if layout is None and cols.question is not None:
        if cols.answer is None and overrides.answer_col is None:
            roles = {"question": cols.question, **({"id": cols.id} if cols.id else {})}
            cols.answer = _dropdown_column(grid, start, roles)
        answer_is_dropdown = cols.answer is not None and any(
            grid.dropdown_at(r, cols.answer) for r in grid.rows() if r > start
        )
        if cols.notes is None and overrides.notes_col is None and answer_is_dropdown:
            cols.notes = _notes_beside(grid, cols)
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
    source: str | None = None
    uncomputed = {r for r, c in grid.uncached if c == cols.question}
    rows = sorted(
        r for r in uncomputed.union(grid.rows())
        if r >= start and (last_row is None or r <= last_row)
    )
    # Where questions carry ids, a row without one that does not ask is a heading
    # ("Section: Change management" between Q044 and Q045), however long.
    ided = cols.id is not None and sum(
        bool(ID_LIKE.match(grid.get(r, cols.id).strip())) for r in rows) >= 3
    for row in rows:
        if cols.section is not None and grid.get(row, cols.section).strip():
            section = " ".join(grid.get(row, cols.section).split())
        if cols.source is not None and grid.get(row, cols.source).strip():
            source = " ".join(grid.get(row, cols.source).split())
        qid = grid.get(row, cols.id).strip() if cols.id else ""
        text = grid.get(row, cols.question).strip()
        id_ok = bool(qid) and bool(ID_LIKE.match(qid))
        heading = ided and not qid and not _ASKS.search(" ".join(text.split()))
        formula = grid.uncached.get((row, cols.question))
        if formula is not None and not text:  # a question whose text was never computed
            out.append(_question(grid, cols, row, qid or None, "", section))
            out[-1].unreadable = no_value_reason(grid.name, row, cols.question, formula)
        elif text and (id_ok or (is_question_text(text) and not heading)):
            out.append(_question(grid, cols, row, qid or None, text, section))
            if source:  # its questionnaire's name is its title
                out[-1].titles = (source,)
        elif cols.section is None:
            title = _title(grid, row, cols)
            if title:
                section = title
    return out


#: How many rows above the header row may hold the sheet's title.
TITLE_ROWS = 5


def title_rows(grid: Grid, cols: Columns) -> tuple[str, ...]:
    """The titles above the header row (up to :data:`TITLE_ROWS` rows), nearest first: rows
    of one or two short cells, such as "Vendor assessment: AI coding assistants"."""
    if not cols.header_row:
        return ()
    out = []
    for row in range(cols.header_row - 1, max(0, cols.header_row - 1 - TITLE_ROWS), -1):
        texts = [" ".join(t.split()) for _, t in sorted(grid.cells.get(row, {}).items())]
        texts = [t for t in texts if t and not _banner(t)]
        if 1 <= len(texts) <= 2 and all(len(t) <= 120 for t in texts):
            out.append(" ".join(texts))
    return tuple(out)


def _banner(text: str) -> bool:
    """A cell above the header that names a column ("Vendor Response", "Question"), not a
    title ("Supplier questionnaire: AI platforms" says "question" too)."""
    role = header_role(text)
    return role is not None and (role != "question" or len(text.split()) <= 2)


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
    dropdown = None
    if answer is not None:
        existing = grid.get(row, answer.column).strip() or None
        if (row, answer.column) in grid.formulas:
            existing = existing or "(formula)"
        dropdown = grid.dropdown_at(row, answer.column)
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
        existing_notes=(grid.get(row, notes.column).strip() or None) if notes else None,
        choices=dropdown.choices if dropdown else (),
        answer_dropdown=dropdown is not None,
    )


def describe_layout(grid: Grid, cols: Columns, found: list[Question]) -> str:
    """One line saying what detection found, so the user can confirm or override it."""
    where = f"sheet {grid.name!r}" if grid.name else "the file"
    parts = [f"header row {cols.header_row}" if cols.header_row else "no header row"]
    if cols.id:
        parts.append(f"ids {column_letter(cols.id)}")
    if cols.question:
        parts.append(f"questions {column_letter(cols.question)}")
    if cols.answer:
        rows = [r for r in grid.rows() if r > (cols.header_row or 0)]
        drop = next((d for r in rows if (d := grid.dropdown_at(r, cols.answer))), None)
        kind = ""
        if drop is not None:
            kind = f" (drop-down: {', '.join(drop.choices)})" if drop.choices else " (drop-down)"
        parts.append(f"answers {column_letter(cols.answer)}{kind}")
    else:
        parts.append("no answer column")
    if cols.notes:
        parts.append(f"narrative {column_letter(cols.notes)}")
    if cols.section:
        parts.append(f"sections {column_letter(cols.section)}")
    if cols.source:
        parts.append(f"questionnaire names {column_letter(cols.source)}")
    titles = title_rows(grid, cols)
    if titles:
        parts.append(f"title {titles[-1]!r}")
    sections = len({q.section for q in found if q.section})
    first, last = (found[0].row, found[-1].row) if found else (0, 0)
    span = f"row {first}" if first == last else f"rows {first}-{last}"
    return (
        f"layout: {where}: {', '.join(parts)}; {_count(len(found), 'question')} in {span}"
        + (f", {_count(sections, 'section')}" if sections else "")
        + " (override with --sheet, --header-row, --id-col, --question-col, --answer-col, "
        "--notes-col)"
    )


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


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
