"""`compliance answer`: fill the customer's questionnaire from the checked model, in place."""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import click

from compliance.commands.options import (
    EXIT_FINDINGS,
    EXIT_OK,
    color_for,
    fail_unreadable,
    force_option,
    record_options,
)


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
@click.option("--min-confidence", type=click.FloatRange(0.0, 1.0), default=None,
              help="For a questionnaire no mapping recognises: how well a question must match "
                   "the model (0-1) to get a drafted narrative. Default 0.55, chosen from "
                   "measurements (docs/questionnaires.md).")
@click.option("--no-draft-unmapped", is_flag=True,
              help="Draft nothing for a questionnaire no mapping recognises; the review only "
                   "suggests controls that may answer each question.")
@click.option("--library", type=click.Path(dir_okay=False, path_type=Path),
              help="Answer library (JSON, see `compliance library add`): reuse approved answers "
                   "while the controls and evidence they rest on are unchanged.")
@record_options
@force_option
def answer(questionnaire: Path, workspace: Path, out: Path, mapping: Path | None,
           sheet: str | None, id_col: str | None, question_col: str | None,
           answer_col: str | None, notes_col: str | None, header_row: int | None,
           today: dt.datetime | None, min_confidence: float | None,
           no_draft_unmapped: bool, library: Path | None, record: str | None,
           replace_record: bool, force: bool) -> None:
    """Answer QUESTIONNAIRE (XLSX/XLSM, CSV or JSON) from the model in --workspace.

    Runs the checks first and refuses (exit 1, findings printed) when the
    model has errors. Answers come only from deployed controls, their claims
    and their limits; whatever no control supports is left blank and listed
    for a human in OUT's review files (OUT.review.csv and OUT.review.json, e.g.
    caiq-answered.xlsx.review.csv). No output may be the questionnaire or the
    mapping. Only the answered cells change; macros are never run. An existing
    OUT or review file that differs from what would be written (a reviewer may
    have edited it) is kept and nothing is written (exit 2), unless --force.

    A questionnaire no mapping recognises gets narrative answers (never a
    Yes/No/NA choice) where a question clearly asks about something a deployed
    control with a VERIFIED claim settles; each opens with the model's scope
    and the review shows what matched and how well.

    \b
    Examples:
      compliance answer CAIQv4.0.3.xlsx --out caiq-answered.xlsx
      compliance answer vendor.xlsx -w ../security-model --out vendor-answered.xlsx
      compliance answer their.csv --answer-col D --notes-col E --out answered.csv
      compliance answer CAIQv4.0.3.xlsx --out caiq-answered.xlsx --record acme-bank
    """
    from compliance.diagnostics import UserError
    from compliance.disclose.records import record_destination
    from compliance.formats import emit
    from compliance.questionnaire import Overrides
    from compliance.questionnaire.run import ModelHasErrors, answer_questionnaire
    from compliance.questionnaire.types import column_index
    from compliance.questionnaire.unmapped import UnmappedPolicy
    from compliance.report import make_report

    for option, value in (("--id-col", id_col), ("--question-col", question_col),
                          ("--answer-col", answer_col), ("--notes-col", notes_col)):
        try:
            if value is not None:
                column_index(value)
        except ValueError:
            fail_unreadable(f"{option}: {value!r} is not a column letter (A, AB) or number")
            return
    overrides = Overrides(sheet=sheet, id_col=id_col, question_col=question_col,
                          answer_col=answer_col, notes_col=notes_col, header_row=header_row,
                          mapping=mapping)
    try:
        policy = None if no_draft_unmapped else (
            UnmappedPolicy() if min_confidence is None else UnmappedPolicy(min_confidence))
        record_destination(workspace, record, replace_record)  # refused before any work
        run = answer_questionnaire(questionnaire, workspace, out, overrides,
                                   today.date() if today else None, policy, library,
                                   replace_changed=force)
    except UserError as exc:  # QuestionnaireError, and CannotWrite for an output
        fail_unreadable(exc.message, exc.diagnostics)
        return
    except ModelHasErrors as exc:
        emit(make_report(exc.checked), "text", sys.stdout, color=color_for(sys.stdout))
        sys.stderr.write(f"error: {exc}\n")
        sys.exit(EXIT_FINDINGS)
    for note in run.questionnaire.notes:
        sys.stderr.write(f"note: {note}\n")
    total, written = len(run.questionnaire.questions), run.written
    sys.stdout.write(
        f"{out}: drafted {written} of {total} answers ({run.with_choice} with a Yes/No/NA "
        f"choice, {written - run.with_choice} narrative only); {total - written} left for a "
        f"human\nreview: {run.review_csv}, {run.review_json}\n"
    )
    if library is not None:
        answers = run.result.answers.values()
        reused = sum(a.library.startswith("reused") for a in answers)
        stale = sum(a.library.startswith("stale") for a in answers)
        sys.stdout.write(f"library: {reused} approved answers reused, {stale} stale (listed "
                         "for re-review in the review file's library column)\n")
    if run.carried is not None:
        sys.stdout.write(run.carried.line() + "\n")
    if record is not None:
        from compliance.disclose.make import answers_record
        from compliance.disclose.records import write_record

        sent = answers_record(run.checked, record, run.questionnaire, run.result.answers,
                              sent=out.name,
                              min_confidence=policy.min_confidence if policy else None)
        recorded = write_record(workspace, sent, replace=replace_record)
        sys.stdout.write(f"recorded what was sent in {recorded}\n")
    sys.exit(EXIT_OK)
