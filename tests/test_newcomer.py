"""A newcomer's first hour: the model reference, editor schemas for installed users,
shell completion."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from compliance.cli import cli
from compliance.schema import SCHEMAS, render
from compliance.schema.reference import PAGE
from compliance.schema.reference import render as render_reference


def test_model_reference_is_current() -> None:
    assert PAGE.read_text(encoding="utf-8") == render_reference(), (
        "docs/model-reference.md is stale: run `python -m compliance.schema.reference` "
        "and commit it")


def test_model_reference_lists_every_field_of_every_section() -> None:
    from compliance.model import Control, Evidence, Limit, Settings, Source, System, Waiver

    page = PAGE.read_text(encoding="utf-8")
    for model in (System, Source, Limit, Evidence, Control, Waiver, Settings):
        for name, field in model.model_fields.items():
            required = "yes" if field.is_required() else "no"
            assert f"| `{name}` |" in page, (model.__name__, name)
            row = next(r for r in page.splitlines() if r.startswith(f"| `{name}` |"))
            assert f"| {required} |" in row or model is not System, (model.__name__, name)


def test_schema_write_dir_gives_installed_users_the_editor_schemas(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["schema", "--write", str(tmp_path / ".schema")])
    assert result.exit_code == 0, result.output
    for name, model in SCHEMAS.items():
        assert (tmp_path / ".schema" / name).read_text(encoding="utf-8") == render(model)
    assert "$schema=../.schema/controls.schema.json" in CliRunner().invoke(
        cli, ["schema", "--help"]).output


def test_schema_write_into_a_file_is_one_line_and_exit_2(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    result = CliRunner().invoke(cli, ["schema", "--write", str(blocker / "s")])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: cannot write {blocker / 's'}: ")


def test_init_writes_the_schemas_its_files_point_at(repo: Path, tmp_path: Path) -> None:
    (tmp_path / "repo" / ".claude").mkdir(parents=True)
    (tmp_path / "repo" / ".claude" / "settings.json").write_text(
        '{"sandbox": {"enabled": true}}\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["init", str(tmp_path / "repo"), "--today", "2026-12-01"])
    assert result.exit_code == 0, result.output
    ws = tmp_path / "repo" / "compliance-workspace"
    first = (ws / "controls" / "isolation.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=../.schema/controls.schema.json"
    target = (ws / "controls" / first.split("$schema=", 1)[1]).resolve()
    assert json.loads(target.read_text(encoding="utf-8"))["title"] == "ModelFile"


def test_shell_completion_comes_from_click() -> None:
    exe = Path(sys.executable).parent / "compliance"
    env = {**os.environ, "_COMPLIANCE_COMPLETE": "bash_source"}
    script = subprocess.run([str(exe)], env=env, capture_output=True, text=True, timeout=60)
    assert script.returncode == 0 and "complete -o nosort -F" in script.stdout
    env = {**os.environ, "_COMPLIANCE_COMPLETE": "bash_complete",
           "COMP_WORDS": "compliance ch", "COMP_CWORD": "1"}
    done = subprocess.run([str(exe)], env=env, capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["plain,check"]
