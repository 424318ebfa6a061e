"""``write_answers``: put drafted answers into a copy of the customer's file, in its own format.

Where each part goes: the Yes/No/NA choice into the answer cell and the
narrative into the notes cell (a narrative-only question leaves the answer
cell, often a drop-down, to a human); without a notes cell the answer cell
gets ``"<choice>. <narrative>"``. Nothing already
in the file is overwritten: such questions come back as left for a human.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from compliance.questionnaire import csv_io, json_io
from compliance.questionnaire.safety import neutralise, refuse_overwrite
from compliance.questionnaire.types import (
    Answer,
    CellRef,
    Format,
    Question,
    Questionnaire,
    QuestionnaireError,
)
from compliance.questionnaire.xlsx_write import write_xlsx


@dataclass(slots=True)
class WriteResult:
    """Keys written, and the answers as they stand after writing: a refused one carries
    ``unanswered_reason`` saying why (pass ``answers`` on to :func:`write_review`)."""

    written: list[str] = field(default_factory=list)
    answers: dict[str, Answer] = field(default_factory=dict)


def cell_values(question: Question, answer: Answer) -> dict[CellRef, str]:
    """The cells one answer fills (empty when there is nowhere to put it)."""
    if question.answer_ref is None:
        return {}
    choice = answer.choice.value if answer.choice else ""
    narrative = neutralise(answer.narrative.strip())
    if question.notes_ref is None and question.answer_dropdown:  # the choice alone fits
        keep = choice and question.style == "choice+narrative"
        return {question.answer_ref: choice} if keep else {}
    if question.notes_ref is not None:
        out = {}
        if choice and question.style == "choice+narrative":
            out[question.answer_ref] = choice
        if narrative:
            out[question.notes_ref] = narrative
        return out
    text = f"{choice}. {narrative}" if choice and narrative else (choice or narrative)
    return {question.answer_ref: text} if text else {}


def write_answers(
    questionnaire: Questionnaire, answers: dict[str, Answer], out_path: Path
) -> WriteResult:
    """Write ``answers`` (keyed by :attr:`Question.key`) into a copy of the file at ``out_path``.

    The output is written atomically and never replaces the input itself."""
    out_path = Path(out_path)
    refuse_overwrite(questionnaire.path, out_path)
    same_suffix(questionnaire.path, out_path)
    result = WriteResult(answers=dict(answers))
    todo: list[tuple[Question, Answer]] = []
    for q in questionnaire.questions:
        answer = answers.get(q.key)
        if answer is None or not answer.answered:
            continue
        reason = _blocked(questionnaire, q) or _narrative_into_dropdown(q, answer)
        if reason:
            result.answers[q.key] = replace(answer, unanswered_reason=reason)
        else:
            todo.append((q, answer))
    if questionnaire.format is Format.JSON:
        json_io.write_json(questionnaire.source, todo, out_path)
        result.written = [q.key for q, _ in todo]
        return result
    cells: dict[CellRef, str] = {}
    owner: dict[CellRef, str] = {}
    for q, answer in todo:
        for ref, value in cell_values(q, answer).items():
            cells[ref] = value
            owner[ref] = q.key
    for ref, text in questionnaire.header_cells.items():  # a column the file did not have
        if any(r.sheet == ref.sheet and r.column == ref.column for r in list(cells)):
            cells[ref] = text
            owner[ref] = ""
    if questionnaire.format is Format.XLSX:
        refused = write_xlsx(questionnaire.path, cells, out_path, owner)
    else:
        refused = _csv(questionnaire, cells, owner, out_path)
    for ref, reason in refused.items():
        key = owner[ref]
        if not key:  # a header cell: the cells below it are refused with their own reason
            continue
        result.answers[key] = replace(result.answers[key], unanswered_reason=f"{ref.a1}: {reason}")
    refused_keys = {owner[r] for r in refused if owner[r]}
    result.written = [q.key for q, _ in todo if q.key not in refused_keys]
    return result


def same_suffix(src: Path, out: Path) -> None:
    """The output keeps the input's extension: a macro-enabled workbook saved as .xlsx (or
    a workbook named .csv) will not open."""
    if src.suffix.lower() != out.suffix.lower():
        raise QuestionnaireError(
            f"{out}: the answered copy must keep the input's extension ({src.suffix or 'none'})"
        )


def _blocked(questionnaire: Questionnaire, q: Question) -> str | None:
    if q.existing:
        return f"the file already holds an answer ({q.existing[:40]!r}); left as it is"
    if questionnaire.format is Format.JSON:
        node = questionnaire.source.document
        for step in q.json_path or ():
            node = node[step]
        answered = json_io.holds_answer(node)
        return "the item already has an answer; left as it is" if answered else None
    if q.answer_ref is None:
        return "no answer column was found for this question (pass --answer-col)"
    return None


def _narrative_into_dropdown(q: Question, answer: Answer) -> str | None:
    """A narrative never goes into a drop-down cell: it takes only its choices."""
    if q.answer_ref is None or not q.answer_dropdown:
        return None
    choice = answer.choice.value if answer.choice and q.style == "choice+narrative" else ""
    if choice and q.choices and choice not in q.choices:
        return f"{choice!r} is not one of the drop-down's choices ({', '.join(q.choices)})"
    if q.notes_ref is not None:
        return None
    if answer.narrative.strip() and not (answer.choice and q.style == "choice+narrative"):
        choices = f" ({', '.join(q.choices)})" if q.choices else ""
        return (
            f"column {q.answer_ref.a1.rstrip('0123456789')} is a drop-down{choices} and no "
            "comments column was found for the narrative (pass --notes-col to say where it goes)"
        )
    return None


def _csv(
    questionnaire: Questionnaire, cells: dict[CellRef, str], owner: dict[CellRef, str], out: Path
) -> dict[CellRef, str]:
    src = questionnaire.source
    if src is None:
        raise QuestionnaireError(f"{questionnaire.path}: CSV source missing")
    refused: dict[CellRef, str] = {}
    for ref in cells:
        spans = src.spans[ref.row - 1]
        if ref.column <= len(spans) and csv_io.field_text(src, *spans[ref.column - 1]).strip():
            refused[ref] = "cell already has a value; not overwritten"
    blocked = {owner[r] for r in refused}
    edits = {(r.row, r.column): v for r, v in cells.items() if owner[r] not in blocked}
    csv_io.write_csv(src, edits, out)
    return refused
