"""The README is tested: Quick start shape, a section per command, its examples run."""

from __future__ import annotations

import os
import re
import shlex
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from compliance.cli import COMMANDS, cli
from tests.workspaces import copy_example

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def code_blocks(text: str) -> list[str]:
    return re.findall(r"```(?:sh|bash|console)?\n(.*?)```", text, flags=re.S)


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


DOCS = [Path(__file__).resolve().parent.parent / "README.md",
        *sorted((Path(__file__).resolve().parent.parent / "docs").glob("*.md"))]
#: Documented commands that need a file only the reader has; the features are tested
#: elsewhere (tests/questionnaire, tests/judge) with files the tests make.
NEEDS_READERS_FILE = {
    "compliance answer vendor.csv --answer-col D --notes-col E --out answered.csv":
        "the reader's own CSV questionnaire",
    'compliance lint answers.xlsx --column "Vendor comment"': "the reader's answered workbook",
    "compliance library add caiq-answered.xlsx --library answers.json":
        "the reader's reviewed answered workbook",
    "compliance library add caiq-answered.xlsx.review.json --library answers.json":
        "the review file of the reader's answered workbook",
    "compliance answer next.xlsx --out next-answered.xlsx --library answers.json":
        "the reader's next questionnaire and answer library",
}
#: Documented commands that exit 1 on the example, and the only findings that may make them:
#: `--strict` fails on warnings, and the example's claims that no check covers are warnings
#: (VRF004 at its `unverified: warning`), as they would be in any workspace.
EXIT_FINDINGS_ON_EXAMPLE = {"compliance check --strict": {"VRF004"}}
PLACEHOLDERS = {"[WORKSPACE]": None, "[REPO]": None, "DIR": "out-dir", "NAME": "doc-test"}


def documented_commands() -> list[tuple[str, str]]:
    """(file, command) for every `compliance ...` line in the README's and docs' code blocks.

    Synopsis lines (an optional group such as `[--strict]`, or a placeholder other
    than WORKSPACE, REPO, DIR and NAME) describe a command rather than give one.
    """
    out = []
    for doc in DOCS:
        for block in code_blocks(doc.read_text(encoding="utf-8")):
            for line in block.splitlines():
                cmd = re.split(r"\s+#\s", line, maxsplit=1)[0].strip()
                words = cmd.split()
                if len(words) < 2 or words[0] != "compliance":
                    continue
                if any(w.startswith("[-") or (w.isupper() and w.isalpha() and len(w) > 1
                                              and w not in PLACEHOLDERS) for w in words):
                    continue
                out.append((doc.name, cmd))
    return out


def _argv(command: str) -> tuple[list[str], str | None]:
    """The command's arguments with placeholders filled, and a stdout redirect if any."""
    words = shlex.split(command)[1:]
    redirect = None
    if ">" in words:
        redirect = words[words.index(">") + 1]
        words = words[:words.index(">")]
    argv = [PLACEHOLDERS.get(w, w) for w in words]
    return [w for w in argv if w is not None], redirect


def _copy_of_the_example(repo: Path, dest: Path, shared: Path) -> Path:
    copy_example(repo, dest)
    (dest / "docs").mkdir()
    (dest / "docs" / "security.md").write_text(
        "# Security\n\nThe sandbox narrows what an injected agent can reach.\n", "utf-8")
    (dest / "docs" / "security.html").write_text(
        "<h1>Security</h1>\n<p>The sandbox narrows what an injected agent can reach.</p>\n",
        "utf-8")
    caiq = shared / "questionnaires" / "caiq-v4.0.3" / "CAIQv4.0.3.xlsx"
    if caiq.is_file():
        shutil.copy(caiq, dest / "CAIQv4.0.3.xlsx")
    return dest


@pytest.mark.parametrize(("doc", "command"), documented_commands())
def test_documented_commands_run_on_a_copy_of_the_example(
        doc: str, command: str, repo: Path, tmp_path: Path) -> None:
    from tests.conftest import SHARED_DATA

    if command in NEEDS_READERS_FILE:
        pytest.skip(f"{doc}: needs {NEEDS_READERS_FILE[command]}")
    ws = _copy_of_the_example(repo, tmp_path / "ws", SHARED_DATA)
    argv, redirect = _argv(command)
    if any(a.endswith(".xlsx") and not (ws / a).exists() for a in argv if "answered" not in a):
        pytest.skip(f"{doc}: {command} needs ../shared/data (the CAIQ workbook)")
    cwd = os.getcwd()
    os.chdir(ws)
    try:
        result = CliRunner().invoke(cli, argv)
        if redirect:
            Path(redirect).write_text(result.stdout, encoding="utf-8")
    finally:
        os.chdir(cwd)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{doc}: {command} raised {result.exception!r}")
    if command in EXIT_FINDINGS_ON_EXAMPLE:
        codes = set(re.findall(r"^\S+: warning .* \[(\w+)\]$", result.stdout, flags=re.M))
        assert (result.exit_code, codes) == (1, EXIT_FINDINGS_ON_EXAMPLE[command]), (
            f"{doc}: {command}\n{result.output}")
        return
    assert result.exit_code == 0, f"{doc}: {command}\n{result.output}"


def test_documented_commands_were_found() -> None:
    commands = {cmd for _doc, cmd in documented_commands()}
    assert len(commands) >= 25
    assert set(NEEDS_READERS_FILE) <= commands
    assert {"compliance check --strict", "compliance init [REPO] --dry-run",
            "compliance export oscal --out oscal", "compliance schema --write .schema"} <= commands


def test_evidence_help_names_ids_of_the_example(repo: Path) -> None:
    from compliance.load import load_workspace

    result = CliRunner().invoke(cli, ["evidence", "--help"])
    model = load_workspace(repo).model
    assert model is not None
    ids = re.findall(r"--id (\S+)", result.output)
    assert ids and set(ids) <= {e.id for e in model.evidence}


def test_readme_lists_every_system_field() -> None:
    from compliance.model import System

    section = README.split("## The model", 1)[1]
    for name in System.model_fields:
        assert f"`{name}`" in section, name


def test_readme_names_every_schema_schema_write_writes() -> None:
    """README said `schema --write` writes "all three" when it wrote seven."""
    from compliance.schema import SCHEMAS

    line = next(x for x in README.splitlines() if x.startswith("compliance schema --write"))
    names = [n.removesuffix(".schema.json") for n in SCHEMAS]
    assert all(re.search(rf"\b{n}\b", line) for n in names), line
