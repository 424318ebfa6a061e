"""The answer library: approved answers reused while their controls and evidence are unchanged."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from compliance.cli import cli
from compliance.questionnaire.library import similarity
from tests.conftest import REPO

TODAY = "2026-11-30"
FIRST = (
    "ID,Question,Response,Comments\n"
    "1,Where is your company headquartered?,,\n"
    "2,Do you maintain audit logs of AI agent activity?,,\n"
    "3,Are AI coding agents run in a sandbox?,,\n"
)
SECOND = (
    "#,Question,Answer,Notes\n"
    "A,Are AI coding agents run in a sandbox?,,\n"
    "B,Do you keep audit logs of AI agent activity?,,\n"
    "C,Are audit logs retained for 90 days?,,\n"
)
HUMAN = (
    "Each agent session runs in a single-use Firecracker microVM (ISO-01) with an enforced "
    "Bash sandbox (ISO-02). The microVM boundary depends on a well-configured host."
)

#: How the tool says an unreviewed draft can still go in.
HOW = ("edit the answer in the answered file and add that, or pass --approve KEY for each "
       "draft a reviewer approves as it stands (--approve-unedited for all of them)")
#: The line for draft 2 of FIRST left as the tool wrote it in a1.csv.
SKIPPED_2 = ("skipped 1 unreviewed draft (2): its text is the tool's draft (not edited in "
             f"a1.csv) and no reviewer approved it; {HOW}\n")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    for name in ("controls", "evidence"):
        shutil.copytree(REPO / name, root / name)
    shutil.copy(REPO / "compliance.yaml", root / "compliance.yaml")
    return root


def items(path: Path) -> dict[str, dict]:  # type: ignore[type-arg]
    review = json.loads(Path(f"{path}.review.json").read_text(encoding="utf-8"))
    return {i["key"]: i for i in review["items"]}


def answer_first(ws: Path, tmp_path: Path) -> Path:
    """Answer FIRST into a1.csv (with a1.csv.review.json next to it)."""
    (tmp_path / "q1.csv").write_text(FIRST, encoding="utf-8")
    out = tmp_path / "a1.csv"
    code, _, _ = run(
        "answer", str(tmp_path / "q1.csv"), "-w", str(ws), "--out", str(out), "--today", TODAY
    )
    assert code == 0
    return out


def approved_library(ws: Path, tmp_path: Path) -> Path:
    """Answer FIRST, let a human rewrite one narrative and approve the other draft as it
    stands, add the result to a library."""
    out = answer_first(ws, tmp_path)
    rows = list(csv.reader(out.open(encoding="utf-8", newline="")))
    assert rows[3][3].startswith("Scope: ")  # the draft, which the human replaces
    rows[3][3] = HUMAN
    with out.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(rows)
    lib = tmp_path / "answers.json"
    code, stdout, stderr = run(
        "library", "add", str(out), "--library", str(lib), "-w", str(ws), "--today", TODAY,
        "--approve-unedited",
    )
    assert (code, stderr) == (0, "")
    assert stdout == (
        f"{lib}: added 2 answers from a1.csv (1 edited by a reviewer, 1 approved as drafted "
        "with --approve-unedited); 2 in the library\n"
    )
    return lib


def answer_second(ws: Path, tmp_path: Path, lib: Path) -> tuple[int, str, Path]:
    """Answer SECOND with the library ``lib``: exit code, stdout and the answered file."""
    (tmp_path / "q2.csv").write_text(SECOND, encoding="utf-8")
    out = tmp_path / "a2.csv"
    code, stdout, _ = run("answer", str(tmp_path / "q2.csv"), "-w", str(ws), "--out", str(out),
                          "--today", TODAY, "--library", str(lib))
    return code, stdout, out


def test_approved_answers_are_reused_for_the_same_and_similar_questions(
    ws: Path, tmp_path: Path
) -> None:
    lib = approved_library(ws, tmp_path)
    data = json.loads(lib.read_text(encoding="utf-8"))
    sandbox = next(a for a in data["answers"] if "sandbox" in a["question"])
    assert (sandbox["narrative"], sandbox["control_ids"]) == (HUMAN, ["ISO-01", "ISO-02"])
    assert len(sandbox["evidence_sha256"]) == 2 and set(sandbox["controls"]) == {"ISO-01", "ISO-02"}
    code, stdout, out = answer_second(ws, tmp_path, lib)
    assert code == 0
    assert "library: 2 approved answers reused, 0 stale" in stdout
    got = items(out)
    assert (got["A"]["narrative"], got["A"]["library"]) == (
        HUMAN,
        "reused from a1.csv (similarity 1.00)",
    )
    assert got["B"]["library"] == "reused from a1.csv (similarity 0.80)"
    assert got["C"]["library"] == ""  # "retained for 90 days" is another question
    rows = list(csv.reader(out.open(encoding="utf-8", newline="")))
    assert rows[1][3] == HUMAN


def test_an_answer_whose_control_changed_is_listed_for_re_review(ws: Path, tmp_path: Path) -> None:
    lib = approved_library(ws, tmp_path)
    iso = ws / "controls" / "isolation.yaml"
    before = iso.read_text(encoding="utf-8")
    after = before.replace("Agent sessions run in Firecracker microVMs.",
                           "Agent sessions run in Firecracker microVMs on dedicated nodes.")
    assert after != before, "the example's ISO-01 claim changed: update this edit"
    iso.write_text(after, encoding="utf-8")
    code, stdout, out = answer_second(ws, tmp_path, lib)
    assert code == 0
    assert "library: 1 approved answers reused, 1 stale" in stdout
    got = items(out)
    assert got["A"]["library"] == (
        "stale library answer from a1.csv: ISO-01 changed (status, claim or limits); re-review it"
    )
    assert got["A"]["narrative"] != HUMAN  # never silently reused: drafted afresh
    assert got["A"]["narrative"].startswith("Scope: ")
    review = json.loads(Path(f"{out}.review.json").read_text(encoding="utf-8"))
    assert (review["library_reused"], review["library_stale"]) == (1, 1)


def test_an_answer_whose_evidence_changed_is_stale(ws: Path, tmp_path: Path) -> None:
    lib = approved_library(ws, tmp_path)
    data = json.loads(lib.read_text(encoding="utf-8"))
    for a in data["answers"]:
        a["evidence_sha256"] = ["0" * 64]  # as if pinned to files that have since changed
    lib.write_text(json.dumps(data), encoding="utf-8")
    code, _, out = answer_second(ws, tmp_path, lib)
    assert code == 0
    assert items(out)["A"]["library"] == (
        "stale library answer from a1.csv: the evidence it rests on changed (sha256); re-review it"
    )


def test_library_add_from_a_review_file(ws: Path, tmp_path: Path) -> None:
    out = answer_first(ws, tmp_path)
    lib = tmp_path / "answers.json"
    review = Path(f"{out}.review.json")
    args = ("library", "add", str(review), "--library", str(lib), "-w", str(ws), "--today", TODAY)
    code, stdout, stderr = run(*args)
    # A review file holds drafts only: none is a reviewer's final text, so nothing is added,
    # nothing is written, and one line says why (exit 1: read, but nothing to add).
    assert (code, stdout) == (1, "")
    assert stderr == (
        f"error: nothing added to {lib} from a1.csv.review.json: 2 unreviewed drafts (2, 3), "
        f"the tool's text (a review file holds no reviewer's edits) that no reviewer approved; "
        f"{HOW}\n"
    )
    assert not lib.exists()
    code, stdout, _ = run(*args, "--approve-unedited")
    assert stdout == (
        f"{lib}: added 2 answers from a1.csv.review.json (0 edited by a reviewer, 2 approved "
        "as drafted with --approve-unedited); 2 in the library\n"
    )
    before = lib.read_bytes()
    run(*args, "--approve-unedited")
    assert lib.read_bytes() == before  # same question replaces, output is stable
    stamp = lib.stat().st_mtime_ns
    code, stdout, stderr = run(*args)  # nothing to add: the library is left untouched
    assert (code, stdout) == (1, "")
    assert stderr.startswith(f"error: nothing added to {lib} from a1.csv.review.json: ")
    assert (lib.read_bytes(), lib.stat().st_mtime_ns) == (before, stamp)


def test_a_draft_nobody_edited_or_approved_is_not_added(ws: Path, tmp_path: Path) -> None:
    """Only a reviewer's final text enters the library: the draft the reviewer rewrote goes
    in, the one left as the tool wrote it is skipped and named."""
    out = answer_first(ws, tmp_path)
    rows = list(csv.reader(out.open(encoding="utf-8", newline="")))
    rows[3][3] = HUMAN
    rows[2][3] = " \n".join(rows[2][3].split("\n"))  # white space is no edit
    with out.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(rows)
    lib = tmp_path / "answers.json"
    code, stdout, stderr = run(
        "library", "add", str(out), "--library", str(lib), "-w", str(ws), "--today", TODAY
    )
    assert (code, stderr) == (0, "")
    assert stdout == (
        f"{lib}: added 1 answer from a1.csv (1 edited by a reviewer, 0 approved as drafted "
        "with --approve-unedited); 1 in the library\n"
        + SKIPPED_2
    )
    answers = json.loads(lib.read_text(encoding="utf-8"))["answers"]
    assert [(a["question"], a["narrative"]) for a in answers] == [
        ("Are AI coding agents run in a sandbox?", HUMAN)
    ]


def test_an_answered_json_file_gives_the_reviewers_text(ws: Path, tmp_path: Path) -> None:
    items = [{"id": "L", "question": "Do you maintain audit logs of AI agent activity?"},
             {"id": "S", "question": "Are AI coding agents run in a sandbox?"}]
    (tmp_path / "q.json").write_text(json.dumps({"questions": items}), encoding="utf-8")
    out = tmp_path / "a.json"
    run("answer", str(tmp_path / "q.json"), "-w", str(ws), "--out", str(out), "--today", TODAY)
    doc = json.loads(out.read_text(encoding="utf-8"))
    doc["questions"][1]["answer"]["narrative"] = HUMAN
    out.write_text(json.dumps(doc), encoding="utf-8")
    lib = tmp_path / "answers.json"
    code, stdout, _ = run(
        "library", "add", str(out), "--library", str(lib), "-w", str(ws), "--today", TODAY
    )
    assert code == 0
    assert stdout.startswith(f"{lib}: added 1 answer from a.json (1 edited by a reviewer, ")
    assert "skipped 1 unreviewed draft (L)" in stdout
    answers = json.loads(lib.read_text(encoding="utf-8"))["answers"]
    assert [a["narrative"] for a in answers] == [HUMAN]


def test_library_errors_exit_2(ws: Path, tmp_path: Path) -> None:
    bare = tmp_path / "bare.csv"
    bare.write_text(FIRST, encoding="utf-8")
    code, _, stderr = run(
        "library", "add", str(bare), "--library", str(tmp_path / "l.json"), "-w", str(ws)
    )
    assert code == 2
    assert stderr == (
        f"error: {bare}: no review file bare.csv.review.json next to it; the library needs the "
        "controls and evidence each answer rests on\n"
    )
    bad = tmp_path / "bad.json"
    bad.write_text('{"answers": []}', encoding="utf-8")
    code, _, stderr = run(
        "answer",
        str(bare),
        "-w",
        str(ws),
        "--out",
        str(tmp_path / "o.csv"),
        "--today",
        TODAY,
        "--library",
        str(bad),
    )
    assert code == 2
    assert stderr == (
        f'error: {bad}: not an answer library (no "format": "compliance answer library")\n'
    )
    assert not (tmp_path / "o.csv").exists()


@pytest.mark.parametrize(
    ("a", "b", "score"),
    [
        ("Are AI coding agents run in a sandbox?", "are ai coding agents run in a sandbox?", 1.0),
        (
            "Do you keep audit logs of AI agent activity?",
            "Do you maintain audit logs of AI agent activity?",
            0.8,
        ),
        ("Are audit logs retained for 1 year?", "Are audit logs retained for 90 days?", 0.75),
    ],
)
def test_similarity(a: str, b: str, score: float) -> None:
    assert similarity(a, b) == score


def test_approve_key_adds_that_one_unedited_draft(ws: Path, tmp_path: Path) -> None:
    """`--approve KEY` is a reviewer's say-so for one draft: that draft goes in, the others
    stay unreviewed drafts; it repeats."""
    out = answer_first(ws, tmp_path)
    lib = tmp_path / "answers.json"
    args = ("library", "add", str(out), "--library", str(lib), "-w", str(ws), "--today", TODAY)
    code, stdout, stderr = run(*args, "--approve", "3")
    assert (code, stderr) == (0, "")
    assert stdout == (
        f"{lib}: added 1 answer from a1.csv (0 edited by a reviewer, 1 approved as drafted "
        "with --approve); 1 in the library\n"
        + SKIPPED_2
    )
    answers = json.loads(lib.read_text(encoding="utf-8"))["answers"]
    assert [(a["question"], a["source"]) for a in answers] == [
        ("Are AI coding agents run in a sandbox?", "a1.csv")]
    assert answers[0]["narrative"] == items(out)["3"]["narrative"]  # the draft, as it stood
    code, stdout, _ = run(*args, "--approve", "2", "--approve", "3")
    assert code == 0
    assert stdout.startswith(f"{lib}: added 2 answers from a1.csv (0 edited by a reviewer, 2 "
                             "approved as drafted with --approve); 2 in the library\n")
    # Key 1 was left for a human: there is no draft to approve, which a note says.
    code, stdout, stderr = run("library", "add", f"{out}.review.json", "--library", str(lib),
                               "-w", str(ws), "--today", TODAY, "--approve", "1",
                               "--approve", "2")
    assert code == 0
    assert stderr == ("note: --approve 1: not an unreviewed draft (a reviewer edited it, or it "
                      "holds no answer to add); nothing to approve\n")
    assert stdout.startswith(f"{lib}: added 1 answer from a1.csv.review.json (0 edited by a "
                             "reviewer, 1 approved as drafted with --approve); 2 in the library")


def test_approve_an_unknown_key_is_an_error_and_writes_nothing(ws: Path, tmp_path: Path) -> None:
    out = answer_first(ws, tmp_path)
    lib = tmp_path / "answers.json"
    args = ("library", "add", str(out), "--library", str(lib), "-w", str(ws), "--today", TODAY)
    for extra in (("--approve", "9"), ("--approve", "3", "--approve", "9"),
                  ("--approve", "9", "--approve-unedited")):
        code, stdout, stderr = run(*args, *extra)
        assert (code, stdout) == (1, ""), extra
        assert stderr == (
            "error: --approve 9: a1.csv.review.json has no question with that key (its keys "
            "are the review file's `key` values, as the 'skipped' line names them); nothing "
            "was added\n"
        ), extra
        assert not lib.exists()
    code, _, _ = run(*args, "--approve", "3")
    before = lib.read_bytes()
    code, _, stderr = run(*args, "--approve", "2", "--approve", "x", "--approve", "y")
    assert code == 1
    assert stderr.startswith("error: --approve x, y: a1.csv.review.json has no question with "
                             "those keys")
    assert lib.read_bytes() == before
