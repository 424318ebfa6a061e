"""`compliance answer` writes its three outputs all or nothing.

The answered copy, ``<out>.review.csv`` and ``<out>.review.json`` appear
together or not at all; a failure leaves no new file and every previous
output byte for byte as it was.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from compliance.atomic import CannotWrite, staged_files
from tests.faults import fail_replacing, leftover_name
from tests.questionnaire.model_ws import EVIDENCE, MODEL
from tests.questionnaire.test_answer_command import QUESTIONS_CSV, run
from tests.questionnaire.workbooks import rich_workbook
from tests.workspaces import make_workspace

pytestmark = pytest.mark.filterwarnings("ignore:Data Validation extension is not supported")

OUTPUTS = ("b.csv", "b.csv.review.csv", "b.csv.review.json")


def _tree(root: Path) -> dict[str, bytes | None]:
    """Every path under ``root`` (hidden ones too): a file's bytes, None for a folder."""
    return {
        str(p.relative_to(root)): None if p.is_dir() else p.read_bytes()
        for p in sorted(root.rglob("*"))
    }


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return make_workspace(
        tmp_path / "ws", {"controls/model.yaml": MODEL, "evidence/fw.sh": EVIDENCE}
    )


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """A folder holding the questionnaire ``q.csv``, where the outputs go."""
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "q.csv").write_text(QUESTIONS_CSV, encoding="utf-8")
    return folder


def _answer(ws: Path, work: Path, out: str = "b.csv", src: str = "q.csv",
            *options: str) -> tuple[int, str]:
    code, stdout, stderr = run(str(work / src), "-w", str(ws), "--out", str(work / out),
                               *options)
    return code, stdout + stderr


def _previous(work: Path) -> None:
    for name in OUTPUTS:
        (work / name).write_bytes(f"previous {name}\n".encode())


def test_all_three_outputs_appear_and_no_staging_is_left(ws: Path, work: Path) -> None:
    assert _answer(ws, work)[0] == 0
    assert sorted(p.name for p in work.iterdir()) == sorted(["q.csv", *OUTPUTS])


def test_previous_outputs_are_replaced_with_force(ws: Path, work: Path) -> None:
    _previous(work)
    before = _tree(work)
    assert _answer(ws, work)[0] == 2  # they differ: kept (test_answer_command.py)
    assert _tree(work) == before
    assert _answer(ws, work, "b.csv", "q.csv", "--force")[0] == 0
    assert sorted(p.name for p in work.iterdir()) == sorted(["q.csv", *OUTPUTS])
    for name in OUTPUTS:
        assert not (work / name).read_bytes().startswith(b"previous")


@pytest.mark.parametrize("in_the_way", OUTPUTS)
@pytest.mark.parametrize("with_previous", [False, True], ids=["fresh", "previous"])
def test_a_folder_in_the_way_of_any_output_changes_nothing(
    ws: Path, work: Path, in_the_way: str, with_previous: bool
) -> None:
    from compliance.questionnaire import Overrides
    from compliance.questionnaire.run import answer_questionnaire

    if with_previous:
        _previous(work)
        (work / in_the_way).unlink()
    (work / in_the_way).mkdir()
    before = _tree(work)
    with pytest.raises(CannotWrite) as caught:
        answer_questionnaire(work / "q.csv", ws, work / "b.csv", Overrides())
    assert caught.value.message == f"cannot write {work / in_the_way}: it is a folder"
    assert _tree(work) == before
    if in_the_way != "b.csv":  # a folder as --out itself is click's usage error, exit 2 too
        assert _answer(ws, work) == (
            2,
            f"error: cannot write {work / in_the_way}: it is a folder\n",
        )
    else:
        assert _answer(ws, work)[0] == 2
    assert _tree(work) == before


def test_a_folder_in_the_way_of_a_workbook_review_leaves_no_workbook(
    ws: Path, tmp_path: Path
) -> None:
    """The reported case: ``mkdir b.xlsx.review.json`` left b.xlsx and its review CSV."""
    work = tmp_path / "work"
    work.mkdir()
    rich_workbook(work / "q.xlsx")
    (work / "b.xlsx.review.json").mkdir()
    before = _tree(work)
    code, output = _answer(ws, work, "b.xlsx", "q.xlsx")
    assert (code, output) == (
        2,
        f"error: cannot write {work / 'b.xlsx.review.json'}: it is a folder\n",
    )
    assert _tree(work) == before


def test_a_missing_output_folder_is_one_line_and_creates_nothing(
    ws: Path, work: Path
) -> None:
    before = _tree(work)
    code, output = _answer(ws, work, "missing/b.csv")
    assert (code, output) == (
        2,
        f"error: cannot write {work / 'missing/b.csv'}: "
        f"the folder {work / 'missing'} does not exist\n",
    )
    assert _tree(work) == before


@pytest.mark.parametrize("with_previous", [False, True], ids=["fresh", "previous"])
def test_a_failed_move_of_the_second_output_puts_everything_back(
    ws: Path, work: Path, monkeypatch: pytest.MonkeyPatch, with_previous: bool
) -> None:
    if with_previous:
        _previous(work)
    before = _tree(work)
    fail_replacing(monkeypatch, OUTPUTS[1], PermissionError(13, "Permission denied"))
    assert _answer(ws, work) == (
        2,
        f"error: cannot write {work / OUTPUTS[1]}: Permission denied\n",
    )
    assert _tree(work) == before  # b.csv moved first: removed, or its previous put back


def test_an_interrupt_while_moving_puts_everything_back(
    ws: Path, work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from compliance.questionnaire import Overrides
    from compliance.questionnaire.run import answer_questionnaire

    _previous(work)
    before = _tree(work)
    fail_replacing(monkeypatch, OUTPUTS[2], KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        answer_questionnaire(work / "q.csv", ws, work / "b.csv", Overrides())
    assert _tree(work) == before


def test_a_failure_while_writing_the_reviews_leaves_no_answered_copy(
    ws: Path, work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _previous(work)
    before = _tree(work)

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise CannotWrite(Path("anything"), "No space left on device")

    monkeypatch.setattr("compliance.questionnaire.run.write_review", refuse)
    assert _answer(ws, work) == (2, "error: cannot write anything: No space left on device\n")
    assert _tree(work) == before


def test_a_staged_writer_error_names_the_destination_not_the_staging(
    ws: Path, work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _tree(work)
    real_open = os.fdopen
    calls = []

    def full_on_the_review(fd: int, *args: object, **kwargs: object) -> object:
        if "w" in str(args[0] if args else kwargs.get("mode", "r")):  # writes, not reads
            calls.append(fd)
        if len(calls) == 2 and fd == calls[-1]:  # the answered copy, then the review CSV
            os.close(fd)
            raise OSError(28, "No space left on device")
        return real_open(fd, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr("compliance.questionnaire.safety.os.fdopen", full_on_the_review)
    assert _answer(ws, work) == (
        2,
        f"error: cannot write {work / OUTPUTS[1]}: No space left on device\n",
    )
    assert _tree(work) == before


def test_staged_files_rechecks_the_destinations_before_moving(tmp_path: Path) -> None:
    targets = [tmp_path / "a.txt", tmp_path / "b.txt"]
    (tmp_path / "a.txt").write_text("old a")
    with pytest.raises(CannotWrite) as caught, staged_files(targets) as staging:
        for target in targets:
            (staging / target.name).write_text("new")
        (tmp_path / "b.txt").mkdir()  # appeared while the outputs were being written
    assert caught.value.message == f"cannot write {tmp_path / 'b.txt'}: it is a folder"
    assert _tree(tmp_path) == {"a.txt": b"old a", "b.txt": None}


def test_staged_files_refuses_an_output_that_was_not_written(tmp_path: Path) -> None:
    targets = [tmp_path / "a.txt", tmp_path / "b.txt"]
    with pytest.raises(CannotWrite) as caught, staged_files(targets) as staging:
        (staging / "a.txt").write_text("new")
    assert caught.value.message == f"cannot write {tmp_path / 'b.txt'}: it was not written"
    assert _tree(tmp_path) == {}


def test_staged_files_removes_staging_left_by_a_killed_run(tmp_path: Path) -> None:
    stale = tmp_path / leftover_name(".a.txt.staging-")
    stale.mkdir()
    (stale / "a.txt").write_text("half")
    with staged_files([tmp_path / "a.txt"]) as staging:
        (staging / "a.txt").write_text("new")
    assert _tree(tmp_path) == {"a.txt": b"new"}
