"""The answer pipeline top to bottom: read -> load and check -> draft -> judge -> write.

``compliance answer`` is a thin shell around :func:`answer_questionnaire`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compliance.atomic import check_destination, staged_files
from compliance.questionnaire.controls import waived_claims
from compliance.questionnaire.draft import draft_answers
from compliance.questionnaire.fidelity import Carried, kept
from compliance.questionnaire.judging import claims_judge
from compliance.questionnaire.library import read_library
from compliance.questionnaire.load import load_questionnaire
from compliance.questionnaire.review import review_paths, write_review
from compliance.questionnaire.safety import refuse_overwrite
from compliance.questionnaire.types import Format, Overrides, Questionnaire, QuestionnaireError
from compliance.questionnaire.unmapped import UnmappedPolicy
from compliance.questionnaire.verdicts import control_verdicts
from compliance.questionnaire.write import WriteResult, same_suffix, write_answers


class ModelHasErrors(Exception):
    """The workspace's model failed its checks: nothing is answered or written."""

    def __init__(self, checked: Any) -> None:
        super().__init__("the model has errors; nothing was answered or written")
        self.checked = checked


@dataclass
class AnswerRun:
    questionnaire: Questionnaire
    result: WriteResult
    review_csv: Path
    review_json: Path
    #: The checked model the answers were drafted from (``answer --record`` records it).
    checked: Any = None
    #: XLSX: what the answered copy kept, counted in it (equal to the source's counts).
    carried: Carried | None = None

    @property
    def written(self) -> int:
        return len(self.result.written)

    @property
    def with_choice(self) -> int:
        return sum(1 for k in self.result.written if self.result.answers[k].choice is not None)


def answer_questionnaire(
    path: Path,
    workspace: Path,
    out: Path,
    overrides: Overrides,
    today: dt.date | None = None,
    unmapped: UnmappedPolicy | None = None,
    library: Path | None = None,
    *,
    replace_changed: bool = False,
) -> AnswerRun:
    """Answer ``path`` from the checked model in ``workspace`` into ``out`` (+ review files).

    No output (the answered copy or either review file) may be an input (the
    questionnaire or the mapping). The three outputs appear together or not at all:
    every destination is checked before anything is read, all three are written into
    a staging folder beside ``out`` and then moved into place, and a failed move puts
    back what it replaced (:func:`compliance.atomic.staged_files`). An output that exists
    with other bytes (a reviewer's edits) is refused unless ``replace_changed``. Raises
    :class:`QuestionnaireError` (unreadable input, bad --out),
    :class:`~compliance.atomic.CannotWrite` (an output cannot be written), the loader's
    ``UserError`` (unreadable workspace) or :class:`ModelHasErrors`."""
    from compliance.pipeline import load_and_check

    role = f"it would be the review file of --out {out}"
    outputs = ((out, ""), *((review, role) for review in review_paths(out)))
    inputs = ((path, "questionnaire"), (overrides.mapping, "mapping"), (library, "library"))
    for source, what in inputs:
        for target, target_role in outputs:  # before anything is read or written
            if source is not None:
                refuse_overwrite(source, target, what, target_role)
    same_suffix(path, out)
    for target, _role in outputs:  # a folder in the way, a missing folder: before any work
        check_destination(target)
    q = load_questionnaire(path, overrides)  # stage 1: the customer's file
    if not q.questions:
        raise QuestionnaireError(
            f"{path}: no questions found; say where they are with --sheet, --header-row, "
            "--question-col (see docs/questionnaires.md)"
        )
    checked = load_and_check(workspace, today)  # stage 2: the model, checked
    if not checked.ok or checked.workspace.model is None:
        raise ModelHasErrors(checked)
    ws = checked.workspace
    verdicts = control_verdicts(checked.result.verdicts)
    approved = None
    if library is not None:
        if not library.is_file():
            raise QuestionnaireError(f"{library}: no such answer library")
        approved = read_library(library)
    drafted = draft_answers(  # stage 3, judged
        q, ws.model, verdicts, ws.root / "evidence", claims_judge(), unmapped, approved,
        waived_claims(checked.result),
    )
    carried = None
    targets = [target for target, _role in outputs]
    with staged_files(targets, replace_changed=replace_changed) as staging:  # all or nothing
        result = write_answers(q, drafted, staging / out.name)  # stage 4: the answered copy
        if q.format is Format.XLSX:  # counted again in the copy: refused if anything was lost
            carried = kept(path, staging / out.name, out)
        write_review(q, result.answers, staging / out.name)  # stage 5: the review list
    csv_path, json_path = review_paths(out)
    return AnswerRun(q, result, csv_path, json_path, checked, carried)
