"""The README is tested: Quick start shape, a section per command, its examples run."""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from compliance.cli import COMMANDS, cli

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def code_blocks(text: str) -> list[str]:
    return re.findall(r"```(?:sh|bash)?\n(.*?)```", text, flags=re.S)


def test_quick_start_is_two_commands() -> None:
    section = README.split("## Quick start", 1)[1]
    lines = [ln for ln in code_blocks(section)[0].splitlines() if ln.strip()]
    assert len(lines) == 2
    assert "compliance build" in lines[0] and "pytest" in lines[1]


def test_ci_runs_the_readme_test_command() -> None:
    section = README.split("## Quick start", 1)[1]
    test_command = code_blocks(section)[0].splitlines()[1]
    ci = (Path(__file__).resolve().parent.parent / ".ci/run").read_text()
    assert test_command in ci


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_has_a_readme_section(name: str) -> None:
    assert f"### compliance {name}\n" in README


def runnable_examples() -> list[str]:
    out = []
    for block in code_blocks(README.split("## Commands", 1)[1].split("### Exit codes")[0]):
        for line in block.splitlines():
            cmd = line.split("#", 1)[0].strip()
            words = cmd.split()
            if len(words) < 2 or words[0] != "compliance" or ">" in cmd:
                continue
            if any((w.isupper() and w.isalpha()) or "[" in w for w in words):
                continue  # placeholders such as [WORKSPACE] or DIR
            if words[1] in ("check", "rules", "schema") or words[1:3] == ["evidence", "status"]:
                out.append(cmd)
    return out


@pytest.mark.parametrize("command", runnable_examples())
def test_readme_examples_run_on_the_example_workspace(command: str, repo: Path) -> None:
    cwd = os.getcwd()
    os.chdir(repo)
    try:
        result = CliRunner().invoke(cli, shlex.split(command)[1:])
    finally:
        os.chdir(cwd)
    assert result.exit_code == 0, result.output
    assert result.stdout or "github" in command  # clean annotations print nothing


def test_examples_were_found() -> None:
    assert len(runnable_examples()) >= 7
