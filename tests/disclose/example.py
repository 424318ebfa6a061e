"""A copy of the repository's example workspace, and small edits that weaken a claim."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from compliance.cli import cli

REPO = Path(__file__).resolve().parents[2]
#: The example's evidence was exported on 2026-11-27; check it as of the next day.
AS_OF = "2026-11-28"
FORK_APPROVAL = "evidence/github/fork-pr-contributor-approval.json"


def copy_example(dest: Path) -> Path:
    for folder in ("controls", "evidence"):
        shutil.copytree(REPO / folder, dest / folder)
    shutil.copy(REPO / "compliance.yaml", dest / "compliance.yaml")
    return dest


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def turn_off_workflow_approval(root: Path) -> None:
    """Only first-time contributors need approval now: PIPE-01's claim is refuted. Re-pinned,
    so the file is not merely stale: the change was reviewed and accepted."""
    (root / FORK_APPROVAL).write_text(
        json.dumps({"approval_policy": "first_time_contributors_new_to_github"}, indent=2) + "\n",
        encoding="utf-8")
    code, _out, _err = invoke("evidence", "pin", str(root), "--id", "fork-pr-approval")
    assert code == 0


def set_status(root: Path, control: str, status: str) -> None:
    """Change one control's status in the example's YAML (it must be deployed now)."""
    for file in sorted((root / "controls").glob("*.yaml")):
        text = file.read_text(encoding="utf-8")
        marker = f"  - id: {control}\n"
        if marker in text:
            head, tail = text.split(marker, 1)
            assert "    status: deployed\n" in tail
            tail = tail.replace("    status: deployed\n", f"    status: {status}\n", 1)
            file.write_text(head + marker + tail, encoding="utf-8")
            return
    raise AssertionError(f"{control} not in the example")


MAPPING = """\
name: Three questions
choices: ["Yes", "No", "NA"]
questions:
  - {id: "Q1", layers: [network], topics: [egress, outbound]}
  - {id: "Q2", layers: [pipeline], controls: [PIPE-01]}
  - {id: "Q3", layers: [logs]}
"""
QUESTIONS = (
    "ID,Question,Answer,Notes\r\n"
    "Q1,Is outbound network traffic from agent sessions filtered?,,\r\n"
    "Q2,Do workflow runs from outside contributors wait for approval?,,\r\n"
    "Q3,Is there anything else?,,\r\n"
)


def answer(root: Path, tmp: Path, *extra: str) -> tuple[int, str, str]:
    """Answer three questions (Q1 network, Q2 PIPE-01, Q3 logs) from ``root`` into tmp."""
    (tmp / "q.csv").write_text(QUESTIONS, encoding="utf-8")
    (tmp / "map.yaml").write_text(MAPPING, encoding="utf-8")
    return invoke("answer", str(tmp / "q.csv"), "-w", str(root), "--mapping",
                  str(tmp / "map.yaml"), "--answer-col", "C", "--notes-col", "D",
                  "--out", str(tmp / "answered.csv"), "--today", AS_OF, *extra)
