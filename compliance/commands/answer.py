"""`compliance answer`: fill the customer's questionnaire from the checked model, in place."""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import click

from compliance.commands.options import EXIT_FINDINGS, EXIT_OK, color_for, fail_unreadable


@click.command("answer")
@click.argument("questionnaire", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--workspace", "-w", default=".", show_default=True,
              type=click.Path(file_okay=False, path_type=Path),
              help="Workspace whose checked model the answers come from.")
@click.option("--out", "-o", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Where to write the answered copy (same format as the input; never the "
                   "input itself). The review files go next to it.")
@click.option("--mapping", type=click.Path(dir_okay=False, exists=True, path_type=Path),
              help="Your own mapping YAML (see docs/questionnaires.md) instead of the built-ins.")
@click.option("--sheet", help="Only read this sheet (hidden sheets too).")
@click.option("--id-col", help="Column of question ids (letter or number).")
@click.option("--question-col", help="Column of question text.")
@click.option("--answer-col", help="Column that takes the answer (Yes/No/NA or text).")
@click.option("--notes-col", help="Column that takes the narrative.")
@click.option("--header-row", type=click.IntRange(min=1), help="Row holding the column headers.")
@click.option("--today", type=click.DateTime(["%Y-%m-%d"]), default=None,
              help="Check the model as of this date (YYYY-MM-DD) instead of today.")
def answer(questionnaire: Path, workspace: Path, out: Path, mapping: Path | None,
           sheet: str | None, id_col: str | None, question_col: str | None,
           answer_col: str | None, notes_col: str | None, header_row: int | None,
           today: dt.datetime | None) -> None:
    """Answer QUESTIONNAIRE (XLSX/XLSM, CSV or JSON) from the model in --workspace.

    Runs the checks first and refuses (exit 1, findings printed) when the
    model has errors. Answers come only from deployed controls, their claims
    and their limits; whatever no control supports is left blank and listed
    for a human in OUT's review files (.review.csv and .review.json). Only the
    answered cells change; macros are never run.

    \b
    Examples:
      compliance answer CAIQv4.0.3.xlsx --out caiq-answered.xlsx
      compliance answer vendor.xlsx -w ../security-model --out vendor-answered.xlsx
      compliance answer their.csv --answer-col D --notes-col E --out answered.csv
    """
    from compliance.diagnostics import UserError
    from compliance.formats import emit
    from compliance.pipeline import load_and_check
    from compliance.questionnaire import (
        Overrides,
        QuestionnaireError,
        load_questionnaire,
        write_answers,
        write_review,
    )
    from compliance.questionnaire.draft import draft_answers
    from compliance.questionnaire.judging import claims_judge
    from compliance.questionnaire.safety import refuse_overwrite
    from compliance.questionnaire.types import column_index
    from compliance.questionnaire.verdicts import control_verdicts
    from compliance.questionnaire.write import same_suffix
    from compliance.report import make_report

    overrides = Overrides(sheet=sheet, id_col=id_col, question_col=question_col,
                          answer_col=answer_col, notes_col=notes_col, header_row=header_row,
                          mapping=mapping)
    for option, value in (("--id-col", id_col), ("--question-col", question_col),
                          ("--answer-col", answer_col), ("--notes-col", notes_col)):
        try:
            if value is not None:
                column_index(value)
        except ValueError:
            fail_unreadable(f"{option}: {value!r} is not a column letter (A, AB) or number")
            return
    try:
        refuse_overwrite(questionnaire, out)
        same_suffix(questionnaire, out)
        q = load_questionnaire(questionnaire, overrides)
    except QuestionnaireError as exc:
        fail_unreadable(str(exc))
        return
    if not q.questions:
        fail_unreadable(f"{questionnaire}: no questions found; say where they are with --sheet, "
                        "--header-row, --question-col (see docs/questionnaires.md)")
        return
    try:
        checked = load_and_check(workspace, today.date() if today else None)
    except UserError as exc:
        fail_unreadable(exc.message, exc.diagnostics)
        return
    if not checked.ok or checked.workspace.model is None:
        emit(make_report(checked), "text", sys.stdout, color=color_for(sys.stdout))
        sys.stderr.write("error: the model has errors; nothing was answered or written\n")
        sys.exit(EXIT_FINDINGS)
    model = checked.workspace.model
    root = checked.workspace.root
    verdicts = control_verdicts(checked.result.verdicts)
    drafted = draft_answers(q, model, verdicts, root / "evidence", claims_judge())
    try:
        result = write_answers(q, drafted, out)
        csv_path, json_path = write_review(q, result.answers, out)
    except QuestionnaireError as exc:
        fail_unreadable(str(exc))
        return
    for note in q.notes:
        sys.stderr.write(f"note: {note}\n")
    total, written = len(q.questions), len(result.written)
    with_choice = sum(1 for k in result.written if result.answers[k].choice is not None)
    sys.stdout.write(
        f"{out}: drafted {written} of {total} answers ({with_choice} with a Yes/No/NA choice, "
        f"{written - with_choice} narrative only); {total - written} left for a human\n"
        f"review: {csv_path}, {json_path}\n"
    )
    sys.exit(EXIT_OK)
