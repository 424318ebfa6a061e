"""`compliance answer`: exit codes, messages, what is written, and the example workspace."""

from __future__ import annotations

import json
import os
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from compliance.cli import cli
from compliance.load import load_workspace
from tests.questionnaire.model_ws import EVIDENCE, MODEL
from tests.questionnaire.workbooks import parts, rich_workbook
from tests.workspaces import make_workspace

runner = CliRunner()
pytestmark = pytest.mark.filterwarnings("ignore:Data Validation extension is not supported")

RICH_MAPPING = """\
name: Rich test questionnaire
choices: ["Yes", "No", "NA"]
questions:
  - {id: "1.1", layers: [isolation]}
  - {id: "1.2", layers: [network], topics: [egress, outbound]}
  - {id: "1.3", layers: [credentials]}
"""


RICH_LAYOUT = (
    "layout: sheet 'Security': header row 3, ids A, questions B, answers C (drop-down: Yes, "
    "No, NA), narrative D, title 'Security questionnaire v2'; 7 questions in rows 5-12, "
    "2 sections (override with --sheet, "
    "--header-row, --id-col, --question-col, --answer-col, --notes-col)"
)


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(cli, ["answer", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return make_workspace(
        tmp_path / "ws", {"controls/model.yaml": MODEL, "evidence/fw.sh": EVIDENCE}
    )


def test_answers_with_a_user_mapping(ws: Path, tmp_path: Path) -> None:
    book = rich_workbook(tmp_path / "in.xlsx")
    mapping = tmp_path / "rich.yaml"
    mapping.write_text(RICH_MAPPING, encoding="utf-8")
    out = tmp_path / "out.xlsx"
    code, stdout, stderr = run(
        str(book), "-w", str(ws), "--mapping", str(mapping), "--out", str(out)
    )
    assert (code, stderr) == (0, f"note: {RICH_LAYOUT}\n")
    assert stdout == (
        f"{out}: drafted 2 of 7 answers (0 with a Yes/No/NA choice, 2 narrative only); "
        "5 left for a human\n"
        f"review: {tmp_path / 'out.xlsx.review.csv'}, {tmp_path / 'out.xlsx.review.json'}\n"
        "kept: 2 drop-downs (1 x14), 2 formulas, protection on 1 sheet, 1 hidden sheet and "
        "every style; only answered cells changed\n"
    )
    ws_out = openpyxl.load_workbook(out)["Security"]
    assert [ws_out.cell(r, 3).value for r in (5, 6, 7)] == [None, None, None]
    assert ws_out["D5"].value == (
        "Scope: Test agents.\n"
        "Partially: Agent sessions run in single-use virtual machines (ISO-01; no configuration "
        "evidence verifies this claim yet).\n"
        "Limits:\n- Isolation depends on a well-configured host."
    )
    review = json.loads((tmp_path / "out.xlsx.review.json").read_text(encoding="utf-8"))
    assert [(i["key"], i["status"], i["reason"]) for i in review["items"]] == [
        ("1.1", "narrative only", None),
        ("1.2", "narrative only", None),
        ("1.3", "left for a human", "no control in the model answers it (looked for: credentials)"),
        ("1.4", "left for a human", "no mapping entry covers this question"),
        ("2.1", "left for a human", "no mapping entry covers this question"),
        ("2.2", "left for a human", "no mapping entry covers this question"),
        ("2.3", "left for a human", "no mapping entry covers this question"),
    ]
    assert review["items"][1]["control_ids"] == ["NET-01"]
    assert len(review["items"][1]["evidence_sha256"][0]) == 64
    csv_lines = (tmp_path / "out.xlsx.review.csv").read_text(encoding="utf-8").splitlines()
    assert csv_lines[0] == (
        "key,id,sheet,row,section,question,status,choice,narrative,control_ids,"
        "evidence_sha256,limits,layers,reason,match_score,matched_words,library"
    )
    assert len(csv_lines) > 8  # header + 7 questions (narratives span lines)


def test_no_draft_unmapped_gives_suggestions_not_answers(ws: Path, tmp_path: Path) -> None:
    book = rich_workbook(tmp_path / "in.xlsx")
    out = tmp_path / "out.xlsx"
    code, stdout, _ = run(str(book), "-w", str(ws), "--out", str(out), "--no-draft-unmapped")
    assert code == 0
    assert stdout.startswith(f"{out}: drafted 0 of 7 answers (0 with a Yes/No/NA choice, ")
    review = json.loads((tmp_path / "out.xlsx.review.json").read_text(encoding="utf-8"))
    reasons = {i["key"]: i["reason"] for i in review["items"]}
    assert reasons["1.1"] == (
        "no mapping recognises this questionnaire; controls that may answer it: ISO-01 "
        "(write a mapping to draft it; see docs/questionnaires.md)"
    )
    assert reasons["2.3"] == "no mapping entry covers this question"
    assert parts(out) == parts(book)


def test_unmapped_drafting_needs_verified_controls(ws: Path, tmp_path: Path) -> None:
    # Nothing in this model is VERIFIED (no configuration file backs a claim): nothing drafted.
    book = rich_workbook(tmp_path / "in.xlsx")
    out = tmp_path / "out.xlsx"
    code, stdout, _ = run(str(book), "-w", str(ws), "--out", str(out))
    assert code == 0
    assert stdout.startswith(f"{out}: drafted 0 of 7 answers (0 with a Yes/No/NA choice, ")
    review = json.loads((tmp_path / "out.xlsx.review.json").read_text(encoding="utf-8"))
    reasons = {i["key"]: i["reason"] for i in review["items"]}
    assert reasons["1.1"] == (
        "no deployed control with a VERIFIED claim covers isolation of agent sessions "
        "(ISO-01: unverified)"
    )
    assert reasons["1.4"] == (
        "no deployed control with a VERIFIED claim covers logging of agent sessions "
        "(LOG-01: partial)"
    )
    assert parts(out) == parts(book)


def test_model_errors_refuse_and_write_nothing(tmp_path: Path) -> None:
    broken = make_workspace(
        tmp_path / "ws",
        {
            "controls/model.yaml": MODEL.replace("status: deployed", "status: deploy", 1),
            "evidence/fw.sh": EVIDENCE,
        },
    )
    book = rich_workbook(tmp_path / "in.xlsx")
    out = tmp_path / "out.xlsx"
    code, stdout, stderr = run(str(book), "-w", str(broken), "--out", str(out))
    assert code == 1
    assert "[SCH001]" in stdout
    assert stderr == "error: the model has errors; nothing was answered or written\n"
    assert not out.exists()
    assert not (tmp_path / "out.xlsx.review.csv").exists()


def test_unreadable_questionnaire_exits_2_naming_the_file(ws: Path, tmp_path: Path) -> None:
    bad = tmp_path / "latin.csv"
    bad.write_bytes("ID,Question\nQ1,Caf\xe9?\n".encode("latin-1"))
    code, stdout, stderr = run(str(bad), "-w", str(ws), "--out", str(tmp_path / "o.csv"))
    assert (code, stdout) == (2, "")
    assert stderr == (
        f"error: {bad}:2:7: not valid UTF-8 (byte 0xe9); save it as 'CSV UTF-8' and retry\n"
    )


def test_no_questions_found_exits_2(ws: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty.csv"
    empty.write_text("a,b\n1,2\n", encoding="utf-8")
    code, _, stderr = run(str(empty), "-w", str(ws), "--out", str(tmp_path / "o.csv"))
    assert code == 2
    assert stderr == (
        f"error: {empty}: no questions found; say where they are with --sheet, --header-row, "
        "--question-col (see docs/questionnaires.md)\n"
    )
    assert not (tmp_path / "o.csv").exists()


def test_out_keeps_the_input_extension(ws: Path, tmp_path: Path) -> None:
    book = rich_workbook(tmp_path / "in.xlsm")
    code, _, stderr = run(str(book), "-w", str(ws), "--out", str(tmp_path / "out.xlsx"))
    assert code == 2
    assert stderr == (
        f"error: {tmp_path / 'out.xlsx'}: the answered copy must keep the input's extension "
        "(.xlsm)\n"
    )


def test_bad_column_option_exits_2(ws: Path, tmp_path: Path) -> None:
    book = rich_workbook(tmp_path / "in.xlsx")
    code, _, stderr = run(
        str(book), "-w", str(ws), "--answer-col", "C3", "--out", str(tmp_path / "o.xlsx")
    )
    assert (code, stderr) == (
        2,
        "error: --answer-col: 'C3' is not a column letter (A, AB) or number\n",
    )


def test_out_must_not_be_the_input(ws: Path, tmp_path: Path) -> None:
    book = rich_workbook(tmp_path / "in.xlsx")
    before = book.read_bytes()
    code, _, stderr = run(str(book), "-w", str(ws), "--out", str(book))
    assert code == 2
    assert stderr == (
        f"error: {book}: refusing to overwrite the input questionnaire; choose another --out\n"
    )
    assert book.read_bytes() == before


def test_example_workspace_answers_caiq_in_place(
    repo: Path, shared_data: Path, tmp_path: Path
) -> None:
    src = shared_data / "questionnaires/caiq-v4.0.3/CAIQv4.0.3.xlsx"
    out = tmp_path / "caiq.xlsx"
    code, stdout, stderr = run(str(src), "-w", str(repo), "--out", str(out))
    assert (code, stderr) == (0, "")
    assert stdout.startswith(f"{out}: drafted ")
    before, after = parts(src), parts(out)
    assert [n for n in before if before[n] != after[n]] == ["xl/worksheets/sheet2.xml"]
    review = json.loads((tmp_path / "caiq.xlsx.review.json").read_text(encoding="utf-8"))
    assert review["questions"] == 261
    model = load_workspace(repo).model
    assert model is not None
    deployed = {c.id for c in model.controls if c.status.value == "deployed"}
    for item in review["items"]:
        if item["status"] == "left for a human":
            assert item["reason"], item["key"]
            continue
        assert item["layers"] and item["control_ids"], item["key"]
        if item["choice"] == "Yes":  # a Yes rests on at least one deployed control
            assert deployed & set(item["control_ids"]), item["key"]
    wb = openpyxl.load_workbook(out)
    ws = wb["CAIQv4.0.3"]
    assert ws.protection.sheet is True
    rows = {ws.cell(r, 1).value: r for r in range(3, 264)}
    for item in review["items"]:
        r = rows[item["key"]]
        assert ws.cell(r, 3).value == item["choice"]
        if item["status"] != "left for a human":
            assert ws.cell(r, 5).value == item["narrative"]
        else:
            assert ws.cell(r, 5).value is None


QUESTIONS_CSV = "ID,Question,Answer\r\nQ1,Is outbound network traffic filtered?,\r\n"
QUESTIONS_JSON = json.dumps({"questions": [{"id": "Q1", "question": "Is egress filtered?"}]})


def test_review_files_are_named_after_the_whole_output_name(ws: Path, tmp_path: Path) -> None:
    """caiq.csv and caiq.json answered into one folder keep a review each."""
    (tmp_path / "in").mkdir()
    (tmp_path / "in/caiq.csv").write_text(QUESTIONS_CSV, encoding="utf-8")
    (tmp_path / "in/caiq.json").write_text(QUESTIONS_JSON, encoding="utf-8")
    for name in ("caiq.csv", "caiq.json"):
        code, stdout, stderr = run(
            str(tmp_path / "in" / name), "-w", str(ws), "--out", str(tmp_path / name)
        )
        layout = (
            "note: layout: the file: header row 1, ids A, questions B, answers C; 1 question in "
            "row 2 (override with --sheet, --header-row, --id-col, --question-col, "
            "--answer-col, --notes-col)\n"
        )
        assert (code, stderr) == (0, layout if name.endswith(".csv") else "")
        assert stdout.endswith(
            f"review: {tmp_path / name}.review.csv, {tmp_path / name}.review.json\n"
        )
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == [
        "caiq.csv", "caiq.csv.review.csv", "caiq.csv.review.json",
        "caiq.json", "caiq.json.review.csv", "caiq.json.review.json",
    ]  # fmt: skip
    review = json.loads((tmp_path / "caiq.json.review.json").read_text(encoding="utf-8"))
    assert (review["questionnaire"], review["questions"], len(review["items"])) == (
        str(tmp_path / "in/caiq.json"), 1, 1
    )


def test_no_output_may_be_an_input(ws: Path, tmp_path: Path) -> None:
    """Neither the answered copy nor a review file may replace the questionnaire or the
    mapping, through a symlink or a hard link too; nothing is written."""
    review_in = tmp_path / "x.csv.review.csv"  # answering a review file into x.csv
    review_in.write_text(QUESTIONS_CSV, encoding="utf-8")
    real = tmp_path / "real.csv"
    real.write_text(QUESTIONS_CSV, encoding="utf-8")
    (tmp_path / "link.csv").symlink_to(real)
    os.link(real, tmp_path / "hard.csv")
    mapping = tmp_path / "m.csv.review.json"
    mapping.write_text("name: m\nquestions:\n  - {id: Q1, layers: [network]}\n", "utf-8")
    cases = [
        ((str(review_in), "--out", str(tmp_path / "x.csv")),
         f"{review_in}: refusing to overwrite the input questionnaire (it would be the review "
         f"file of --out {tmp_path / 'x.csv'}); choose another --out"),
        ((str(real), "--out", str(tmp_path / "link.csv")),
         f"{tmp_path / 'link.csv'}: refusing to overwrite the input questionnaire {real}; "
         "choose another --out"),
        ((str(real), "--out", str(tmp_path / "hard.csv")),
         f"{tmp_path / 'hard.csv'}: refusing to overwrite the input questionnaire {real}; "
         "choose another --out"),
        ((str(real), "--mapping", str(mapping), "--out", str(tmp_path / "m.csv")),
         f"{mapping}: refusing to overwrite the input mapping (it would be the review file of "
         f"--out {tmp_path / 'm.csv'}); choose another --out"),
    ]  # fmt: skip
    before = {p: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    for args, message in cases:
        code, stdout, stderr = run(*args, "-w", str(ws))
        assert (code, stdout, stderr) == (2, "", f"error: {message}\n")
    assert {p: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()} == before


def test_deeply_nested_json_is_a_positioned_error(ws: Path, tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text('{"questions": \n  ' + "[" * 100_000, encoding="utf-8")
    code, stdout, stderr = run(str(deep), "-w", str(ws), "--out", str(tmp_path / "o.json"))
    assert (code, stdout) == (2, "")
    assert stderr == f"error: {deep}:2:102: nested deeper than 100 levels; refused\n"


def test_bad_regex_in_a_mapping_is_a_positioned_error(ws: Path, tmp_path: Path) -> None:
    src = tmp_path / "q.csv"
    src.write_text(QUESTIONS_CSV, encoding="utf-8")
    mapping = tmp_path / "m.yaml"
    mapping.write_text('name: x\nquestions:\n  - {text_regex: "(", layers: [network]}\n', "utf-8")
    code, stdout, stderr = run(
        str(src), "-w", str(ws), "--mapping", str(mapping), "--out", str(tmp_path / "o.csv")
    )
    assert (code, stdout) == (2, "")
    assert stderr == (
        f"error: {mapping}:3:19: mapping invalid at questions.0.text_regex: Value error, not a "
        "valid regular expression: missing ), unterminated subpattern at position 0\n"
    )


def test_unwritable_output_is_one_line_exit_2(
    ws: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = tmp_path / "q.csv"
    src.write_text(QUESTIONS_CSV, encoding="utf-8")

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("tempfile.mkstemp", refuse)
    out = tmp_path / "o.csv"
    code, stdout, stderr = run(str(src), "-w", str(ws), "--out", str(out))
    assert (code, stdout, stderr) == (2, "", f"error: cannot write {out}: Permission denied\n")


EDITED_BY_REVIEWER = "reviewed by a human"


@pytest.mark.parametrize("edited", ["out.xlsx", "out.xlsx.review.csv", "out.xlsx.review.json"])
def test_an_edited_output_is_kept_unless_force(ws: Path, tmp_path: Path, edited: str) -> None:
    """A new-user trial lost a reviewer's edits: `answer` replaced the answered file and
    its review files silently. Now an output that differs from what would be written is
    kept (one line naming it, exit 2); the same output again is no change; --force
    replaces it."""
    book = rich_workbook(tmp_path / "in.xlsx")
    mapping = tmp_path / "rich.yaml"
    mapping.write_text(RICH_MAPPING, encoding="utf-8")
    args = (str(book), "-w", str(ws), "--mapping", str(mapping),
            "--out", str(tmp_path / "out.xlsx"))
    names = ("out.xlsx", "out.xlsx.review.csv", "out.xlsx.review.json")
    assert run(*args)[0] == 0
    first = {name: (tmp_path / name).read_bytes() for name in names}
    assert run(*args)[0] == 0  # unchanged outputs: running again is harmless
    assert {name: (tmp_path / name).read_bytes() for name in names} == first
    target = tmp_path / edited
    if edited.endswith(".xlsx"):
        work = openpyxl.load_workbook(target)
        work["Security"]["D12"] = EDITED_BY_REVIEWER
        work.save(target)
    else:
        target.write_bytes(target.read_bytes() + EDITED_BY_REVIEWER.encode())
    kept = target.read_bytes()
    code, stdout, stderr = run(*args)
    assert (code, stdout, stderr) == (
        2, "", f"error: cannot write {target}: it exists and differs from what this run would "
               "write, so edits in it would be lost; nothing was written (pass --force to "
               "replace it, or choose another --out)\n")
    assert target.read_bytes() == kept
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["in.xlsx", "rich.yaml", "ws", *names])  # no staging or temporary file left
    assert run(*args, "--force")[0] == 0
    assert {name: (tmp_path / name).read_bytes() for name in names} == first
