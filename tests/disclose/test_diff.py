"""`compliance diff`: claims weaker or stronger since a record or a git revision; who is owed."""

from __future__ import annotations

import datetime as dt
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from compliance.disclose.make import build_record
from compliance.disclose.records import write_record
from compliance.pipeline import load_and_check
from tests.disclose.example import (
    AS_OF,
    QUESTIONS,
    answer,
    copy_example,
    invoke,
    set_status,
    turn_off_workflow_approval,
)

TODAY = dt.date.fromisoformat(AS_OF)
GIT = shutil.which("git")
needs_git = pytest.mark.skipif(GIT is None, reason="git is not installed: --since REV untested")
EVIDENCE_LINE = ("PIPE-01 evidence fork-pr-approval (evidence/github/fork-pr-contributor-"
                 "approval.json) now has different content (sha256 271cb6b8ce6b -> ")


def diff(root: Path, *args: str) -> tuple[int, str, str]:
    return invoke("diff", str(root), "--today", AS_OF, *args)


def git(root: Path, *args: str) -> None:
    assert GIT is not None
    subprocess.run([GIT, "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@example.test",
                    *args], check=True, capture_output=True)


def test_nothing_changed_means_nobody_is_owed(ws: Path) -> None:
    code, stdout, stderr = diff(ws)
    assert (code, stderr) == (0, "")
    assert stdout == (
        "since each recorded disclosure:\n"
        "disclosure acme-bank (build, sent evidence-pack.zip, recorded 2026-11-27): up to date\n"
        "0 weaker, 0 stronger, 0 changed; 0 of 1 recorded disclosure(s) owed an update\n")


def test_since_a_record_names_the_claim_the_record_and_what_changed(ws: Path) -> None:
    turn_off_workflow_approval(ws)
    code, stdout, stderr = diff(ws, "--since", "acme-bank")
    assert (code, stderr) == (1, "")
    lines = stdout.splitlines()
    assert lines[0] == "since recorded disclosure acme-bank:"
    assert lines[1] == ("disclosure acme-bank (build, sent evidence-pack.zip, recorded "
                        "2026-11-27): OWED AN UPDATE")
    assert lines[2] == "  weaker    PIPE-01 verdict VERIFIED -> REFUTED"
    assert lines[3].startswith("  weaker    " + EVIDENCE_LINE)
    assert lines[4] == "  weaker    the stance summary now reads differently"
    assert lines[-1] == ("3 weaker, 0 stronger, 0 changed; 1 of 1 recorded disclosure(s) owed "
                         "an update: acme-bank")


def test_json_and_markdown_say_the_same(ws: Path) -> None:
    set_status(ws, "PIPE-01", "partial")
    code, stdout, _ = diff(ws, "--format", "json")
    assert code == 1
    report = json.loads(stdout)
    assert report["owed_update"] == ["acme-bank"]
    [record] = report["disclosures"]
    assert (record["name"], record["kind"], record["owed_update"]) == ("acme-bank", "build", True)
    assert record["changes"][0] == {
        "subject": "PIPE-01", "direction": "weaker", "what": "status", "before": "deployed",
        "after": "partial", "message": "PIPE-01 status deployed -> partial"}
    assert report["summary"] == {"weaker": 2, "stronger": 0, "changed": 0}
    code, stdout, _ = diff(ws, "--format", "markdown")
    assert code == 1
    assert ("#### acme-bank (build, sent evidence-pack.zip, recorded 2026-11-27): OWED AN "
            "UPDATE\n") in stdout
    assert "| weaker | PIPE-01 | status | PIPE-01 status deployed -\\> partial |" in stdout


def test_stronger_changes_are_named_and_owe_nothing(tmp_path: Path) -> None:
    root = copy_example(tmp_path / "ws")
    set_status(root, "PIPE-01", "partial")
    write_record(root, build_record(load_and_check(root, TODAY), "before"), replace=False)
    shutil.rmtree(root / "controls")
    shutil.copytree(Path(__file__).resolve().parents[2] / "controls", root / "controls")
    code, stdout, _ = diff(root, "--since", "before")
    assert code == 0
    assert "  stronger  PIPE-01 status partial -> deployed\n" in stdout
    assert ": up to date\n" in stdout


def test_answers_that_would_now_be_drafted_differently(ws: Path, tmp_path: Path) -> None:

    code, _, _ = answer(ws, tmp_path, "--record", "cust-a")
    assert code == 0
    set_status(ws, "NET-01", "planned")
    set_status(ws, "NET-02", "planned")
    code, stdout, _ = diff(ws, "--since", "cust-a", "--format", "json")
    assert code == 1
    [record] = json.loads(stdout)["disclosures"]
    [answer_change] = record["answers"]
    assert answer_change["subject"] == "answer Q1"
    assert (answer_change["direction"], answer_change["what"]) == ("weaker", "answer withdrawn")
    assert answer_change["message"].startswith("answer Q1 would now be left for a human: ")


@needs_git
def test_since_a_git_revision_names_what_this_change_weakens(tmp_path: Path,
                                                            pristine: Path) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(pristine, repo / "security")  # a workspace in a sub-folder of the repo
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "model and the record sent to acme-bank")
    ws = repo / "security"
    turn_off_workflow_approval(ws)
    code, stdout, stderr = diff(ws, "--since", "HEAD")
    assert (code, stderr) == (1, "")
    lines = stdout.splitlines()
    assert lines[0].startswith("since git revision HEAD (")
    assert lines[1] == "  weaker    PIPE-01 verdict VERIFIED -> REFUTED"
    assert lines[2].startswith("  weaker    " + EVIDENCE_LINE)
    assert ("disclosure acme-bank (build, sent evidence-pack.zip, recorded 2026-11-27): OWED AN "
            "UPDATE; this change weakens PIPE-01") in lines
    code, stdout, _ = diff(ws, "--since", "HEAD", "--format", "json")
    report = json.loads(stdout)
    assert report["since"]["kind"] == "git" and len(report["since"]["commit"]) == 40
    assert report["disclosures"][0]["weakened_by_this_change"] == ["PIPE-01"]
    git(repo, "commit", "-qam", "approval off")
    assert diff(ws, "--since", "HEAD")[1].splitlines()[1] == "  no claim changed"


def test_not_a_git_repository_is_a_clear_error(ws: Path) -> None:
    code, stdout, stderr = diff(ws, "--since", "main")
    assert (code, stdout) == (2, "")
    if GIT is None:
        assert "needs git, which is not installed" in stderr
    else:
        assert stderr == (f"error: --since 'main': there is no record disclosures/main.yaml, and "
                          f"{ws} is not inside a git repository, so it cannot be a revision\n")


@needs_git
@pytest.mark.parametrize("rev", ["no-such-branch", "--output=/tmp/x", "HEAD~99"])
def test_a_bad_revision_is_a_clear_error(tmp_path: Path, pristine: Path, rev: str) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(pristine, ws)
    git(ws, "init", "-q")
    git(ws, "add", "-A")
    git(ws, "commit", "-qm", "x")
    code, stdout, stderr = diff(ws, "--since", rev)
    assert (code, stdout) == (2, "")
    assert stderr.startswith(f"error: --since {rev!r}: ")
    assert "Traceback" not in stderr and not (tmp_path / "x").exists()


@needs_git
def test_a_link_out_of_the_workspace_at_that_revision_is_refused(tmp_path: Path,
                                                                pristine: Path) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(pristine, ws)
    (ws / "evidence/escape").symlink_to("../../../../../etc/passwd")
    git(ws, "init", "-q")
    git(ws, "add", "-A")
    git(ws, "commit", "-qm", "x")
    code, _, stderr = diff(ws, "--since", "HEAD")
    assert code == 2
    assert stderr.startswith("error: --since 'HEAD': refusing 'evidence/escape' from that "
                             "revision: ")


@needs_git
def test_no_workspace_at_that_revision(tmp_path: Path, pristine: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "README").write_text("x\n", encoding="utf-8")
    git(ws, "init", "-q")
    git(ws, "add", "-A")
    git(ws, "commit", "-qm", "before the model")
    for part in ("controls", "evidence", "disclosures"):
        shutil.copytree(pristine / part, ws / part)
    code, _, stderr = diff(ws, "--since", "HEAD")
    assert code == 2
    assert "there is no workspace in the repository's top folder (no controls/ folder)" in stderr


def test_no_records_yet(tmp_path: Path) -> None:
    root = copy_example(tmp_path / "ws")
    code, stdout, _ = diff(root)
    assert code == 0
    assert "no recorded disclosures (record one with --record NAME)\n" in stdout


@pytest.mark.parametrize("flags", [(), ("--no-draft-unmapped",), ("--min-confidence", "0.3")])
def test_a_redraft_of_an_unchanged_model_gives_the_answers_that_were_sent(
        ws: Path, tmp_path: Path, flags: tuple[str, ...]) -> None:
    """Whatever way the questions were drafted (a mapping, matching an unrecognised file to
    the model, or nothing drafted for it) is recorded and used again."""
    (tmp_path / "q.csv").write_text(QUESTIONS, encoding="utf-8")
    code, stdout, _ = invoke("answer", str(tmp_path / "q.csv"), "-w", str(ws),
                             "--answer-col", "C", "--notes-col", "D", "--out",
                             str(tmp_path / "a.csv"), "--today", AS_OF, "--record", "plain",
                             *flags)
    assert code == 0
    from compliance.load import load_workspace

    record = load_workspace(ws).disclosures["plain"].record
    assert record.recognised is False
    assert record.min_confidence == (None if flags == ("--no-draft-unmapped",) else
                                     0.3 if flags else 0.55)
    code, stdout, _ = diff(ws, "--since", "plain")
    assert code == 0, stdout
    assert stdout.splitlines()[1].endswith("recorded 2026-11-27): up to date")
    assert len(stdout.splitlines()) == 3  # nothing would be drafted differently
