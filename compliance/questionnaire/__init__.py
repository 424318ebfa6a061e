"""Questionnaires: read the customer's own file, find its questions, write answers in place.

Public interface (what the drafter and ``compliance answer`` call)::

    from compliance.questionnaire import (
        Answer, Choice, Overrides, Questionnaire, QuestionnaireError,
        load_questionnaire, write_answers, write_review,
    )

    q = load_questionnaire(path, Overrides(answer_col="C"))  # XLSX/XLSM, CSV or JSON
    for question in q.questions:
        question.key        # unique key; answers are keyed by it
        question.id, question.text, question.section, question.sheet, question.row
        question.answer_ref, question.notes_ref   # CellRef (sheet, row, column) or None
        question.mapping    # MappingEntry (layers, controls, topics, style) or None
        question.style      # "choice+narrative" or "narrative"
        question.existing   # what the answer cell already holds (never overwritten)
    answers = {question.key: Answer(choice=Choice.YES, narrative="...", control_ids=("NET-01",),
                                    evidence_sha256=("ab12...",), limits=("...",))}
    result = write_answers(q, answers, out_path)        # -> WriteResult(written, answers)
    write_review(q, result.answers, out_path)           # -> (<out>.review.csv, <out>.review.json)

Before anything (openpyxl included) opens a workbook: ``check_workbook(path, display)``
(size, legacy/encrypted container, zip bomb, a DTD in any encoding); it raises
``QuestionnaireError``, which is a :class:`compliance.diagnostics.UserError`.

The whole command in one call: ``run.answer_questionnaire(path, workspace, out,
overrides, today) -> AnswerRun`` (raises ``QuestionnaireError``, the loader's
``UserError`` or ``run.ModelHasErrors``). Its drafting stage, by hand::

    from compliance.questionnaire.draft import draft_answers
    from compliance.questionnaire.judging import claims_judge
    from compliance.questionnaire.verdicts import control_verdicts

    checked = load_and_check(root)                      # refuse when not checked.ok
    answers = draft_answers(q, checked.workspace.model,
                            control_verdicts(checked.result.verdicts),
                            checked.workspace.root / "evidence", claims_judge())

``Answer(unanswered_reason="...")`` leaves a question for a human with that
reason. Every error a user can cause is a :class:`QuestionnaireError` whose
message names the file, with line and column where there is one (exit 2 at
the command line); an output that cannot be written is ``cannot write <path>:
<reason>``.

Modules: ``types`` (data), ``load`` (dispatch), ``xlsx_read``/``csv_io``/
``json_io`` (formats), ``detect`` (question rows), ``mapping`` (YAML mappings;
built-ins in ``mappings/``), ``xlsx_write`` (in-place XML writer), ``write``,
``review``, ``safety`` (zip bombs, DTDs, formula injection, atomic output),
``draft`` (answers from the checked model), ``judging`` (the claims judge on
question + answer), ``verdicts`` (per-control verdicts from the check stage).
"""

from __future__ import annotations

from compliance.questionnaire.load import load_questionnaire
from compliance.questionnaire.review import write_review
from compliance.questionnaire.safety import check_workbook
from compliance.questionnaire.types import (
    Answer,
    CellRef,
    Choice,
    Format,
    MappingEntry,
    Overrides,
    Question,
    Questionnaire,
    QuestionnaireError,
)
from compliance.questionnaire.write import WriteResult, write_answers

__all__ = [
    "Answer",
    "CellRef",
    "Choice",
    "Format",
    "MappingEntry",
    "Overrides",
    "Question",
    "Questionnaire",
    "QuestionnaireError",
    "WriteResult",
    "check_workbook",
    "load_questionnaire",
    "write_answers",
    "write_review",
]
