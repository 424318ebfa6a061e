"""CLI: exit codes, exact output per format, no traceback, lazy imports."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from compliance import __version__
from compliance.cli import COMMANDS, cli
from tests.workspaces import CONTROL, minimal

runner = CliRunner()

BAD = CONTROL.replace("status: deployed", "status: deploy")


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.exception
    return result.exit_code, result.stdout, result.stderr


def test_version() -> None:
    assert run("--version") == (0, f"compliance, version {__version__}\n", "")


def test_help_lists_every_command() -> None:
    code, out, _ = run("--help")
    assert code == 0
    for name in COMMANDS:
        assert f"  {name} " in out


def test_every_command_has_help_with_examples() -> None:
    for name in COMMANDS:
        code, out, _ = run(name, "--help")
        assert code == 0, name
        assert "Examples:" in out, name


def test_check_clean_workspace_text(tmp_path: Path) -> None:
    ws = minimal(tmp_path)
    code, out, err = run("check", str(ws), "--format", "text")
    assert code == 0
    assert err == ""
    # five layers with no control (GAP001) and the one claim, which no check covers (VRF004)
    assert out.endswith("0 errors, 6 warnings; claims: 0 verified, 1 unverified, 0 refuted\n")
    assert out.splitlines()[0] == (
        "controls/isolation.yaml:6:12: warning claim of ISO-01 is unverified: no configuration "
        "check covers it (it has no `kind` and no `verified_by`); cite evidence a check reads "
        "and name that check in `verified_by` (`compliance rules` lists them), or narrow the "
        "claim to what a check verifies [VRF004]")
    assert out.splitlines()[1] == (
        "controls/system.yaml:1:1: warning layer 'credentials' has no deployed or partial "
        "control: 'What can a leaked or misused token do?' is unanswered and every output "
        "shows it as a gap [GAP001]")


def test_strict_fails_on_warnings(tmp_path: Path) -> None:
    assert run("check", str(minimal(tmp_path)), "--strict")[0] == 1


def test_check_errors_exit_1(tmp_path: Path) -> None:
    ws = minimal(tmp_path, **{"controls/isolation.yaml": BAD})
    code, out, err = run("check", str(ws))
    assert (code, err) == (1, "")
    assert out == (
        "controls/isolation.yaml:5:13: error controls[0].status: 'deploy' is not one of "
        "deployed, partial, planned; did you mean 'deployed'? [SCH001]\n1 error, 0 warnings\n")


def test_check_json_contract(tmp_path: Path) -> None:
    ws = minimal(tmp_path, **{"controls/isolation.yaml": BAD})
    code, out, _ = run("check", str(ws), "--format", "json")
    doc = json.loads(out)
    assert code == 1
    assert doc["findings"] == [{
        "path": "controls/isolation.yaml", "line": 5, "column": 13,
        "end_line": 5, "end_column": 19, "code": "SCH001", "name": "schema-violation",
        "level": "error",
        "message": "controls[0].status: 'deploy' is not one of deployed, partial, planned; "
                   "did you mean 'deployed'?"}]
    assert doc["summary"] == {"error": 1, "warning": 0, "info": 0, "waived": 0}
    assert doc["ok"] is False


def test_check_github_annotations(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ws = minimal(tmp_path, **{"controls/isolation.yaml": BAD})
    monkeypatch.chdir(ws)
    code, out, _ = run("check", "--format", "github")
    assert code == 1
    assert out == (
        "::error file=controls/isolation.yaml,line=5,col=13,endLine=5,endColumn=19,"
        "title=SCH001 schema-violation::controls[0].status: 'deploy' is not one of deployed, "
        "partial, planned; did you mean 'deployed'?\n")


@pytest.mark.parametrize("given", ["ws", "./ws/", "ABS"])
def test_ci_formats_name_files_from_the_current_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, given: str) -> None:
    """As the GitHub action runs it: from the repository root, the workspace a subfolder."""
    ws = minimal(tmp_path / "ws", **{"controls/isolation.yaml": BAD})
    monkeypatch.chdir(tmp_path)
    arg = str(ws) if given == "ABS" else given
    code, out, _ = run("check", arg, "--format", "github")
    assert (code, out.split(",")[0]) == (1, "::error file=ws/controls/isolation.yaml")
    code, out, _ = run("check", arg, "--format", "sarif")
    run_ = json.loads(out)["runs"][0]
    assert [r["locations"][0]["physicalLocation"]["artifactLocation"]
            for r in run_["results"]] == [
        {"uri": "ws/controls/isolation.yaml", "uriBaseId": "%SRCROOT%"}]
    assert set(run_["originalUriBaseIds"]) == {"%SRCROOT%"}
    code, out, _ = run("check", arg, "--format", "json")  # the JSON contract: workspace-relative
    assert [f["path"] for f in json.loads(out)["findings"]] == ["controls/isolation.yaml"]
    code, out, _ = run("check", arg)
    assert out.startswith("controls/isolation.yaml:5:13: error ")


def test_unreadable_ci_formats_name_files_from_the_current_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    minimal(tmp_path / "ws", **{"controls/x.yaml": "a: [1, 2\n"})
    monkeypatch.chdir(tmp_path)
    code, out, _ = run("check", "ws", "--format", "github")
    assert (code, out.split(",")[0]) == (2, "::error file=ws/controls/x.yaml")
    code, out, _ = run("check", "ws", "--format", "sarif")
    assert [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in json.loads(out)["runs"][0]["results"]] == ["ws/controls/x.yaml"]
    code, out, _ = run("check", "nope", "--format", "github")  # named as given, once
    assert (code, out.split(",")[0]) == (2, "::error file=nope")


def test_lint_ci_formats_name_files_from_the_current_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("Our agents are 100% safe.\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for given in ("docs/a.md", "./docs/a.md", str(tmp_path / "docs" / "a.md"), "docs"):
        code, out, _ = run("lint", given, "--format", "github")
        assert (code, out.split(",")[0]) == (1, "::error file=docs/a.md"), given
        code, out, _ = run("lint", given, "--format", "sarif")
        assert {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                for r in json.loads(out)["runs"][0]["results"]} == {"docs/a.md"}, given


def test_unreadable_exit_2_without_traceback(tmp_path: Path) -> None:
    ws = minimal(tmp_path, **{"controls/x.yaml": "a: [1,\n"})
    code, out, err = run("check", str(ws))
    assert (code, out) == (2, "")
    assert err.startswith("controls/x.yaml:2:1: error YAML syntax error:")
    assert "Traceback" not in err


SYNTAX = ("controls/x.yaml", 1, 4, "YAML syntax error: this '[' is never closed (did not find "
          "expected ',' or ']' at the end of the file)")


def test_unreadable_json_is_a_report_on_stdout(tmp_path: Path) -> None:
    ws = minimal(tmp_path, **{"controls/x.yaml": "a: [1, 2\n"})
    code, out, err = run("check", str(ws), "--format", "json")
    assert code == 2 and err.startswith("controls/x.yaml:1:4: error ")
    doc = json.loads(out)
    assert [(f["path"], f["line"], f["column"], f["message"], f["code"], f["level"])
            for f in doc["findings"]] == [(*SYNTAX, "YML001", "error")]
    assert (doc["summary"]["error"], doc["ok"]) == (1, False)


def test_unreadable_sarif_and_github(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ws = minimal(tmp_path, **{"controls/x.yaml": "a: [1, 2\n"})
    monkeypatch.chdir(ws)
    code, out, _err = run("check", str(ws), "--format", "sarif")
    run_ = json.loads(out)["runs"][0]
    assert code == 2 and [r["ruleId"] for r in run_["results"]] == ["YML001"]
    assert run_["results"][0]["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 1, "startColumn": 4}
    assert run_["tool"]["driver"]["rules"][0]["name"] == "unreadable-yaml"
    code, out, _err = run("check", str(ws), "--format", "github")
    assert (code, out) == (2, "::error file=controls/x.yaml,line=1,col=4,title=YML001 "
                              "unreadable-yaml::YAML syntax error: this '[' is never closed "
                              "(did not find expected ',' or ']' at the end of the file)\n")


def test_unreadable_without_position_in_machine_formats(tmp_path: Path) -> None:
    nope = str(tmp_path / "nope")
    code, out, _err = run("check", nope, "--format", "github")
    assert (code, out) == (2, f"::error file={nope},line=1,col=1,title=IO001 unreadable-input::"
                              "not a folder; give the workspace folder that holds controls/\n")


def test_lint_unreadable_in_machine_formats(tmp_path: Path) -> None:
    (tmp_path / "b.md").write_bytes(b"ab\x00c")
    code, out, err = run("lint", str(tmp_path / "b.md"), "--format", "json")
    assert code == 2 and "binary file" in err
    assert [(f["line"], f["column"], f["code"], f["message"])
            for f in json.loads(out)["findings"]] == [
        (1, 3, "IO001", "binary file (NUL byte): not a text file")]


def test_missing_workspace_exit_2(tmp_path: Path) -> None:
    code, out, err = run("check", str(tmp_path / "nope"))
    assert (code, out) == (2, "")
    assert err == f"error: {tmp_path / 'nope'}: not a folder; give the workspace folder that " \
                  "holds controls/\n"


def test_usage_error_exit_2(tmp_path: Path) -> None:
    assert run("check", "--format", "xml")[0] == 2


@pytest.mark.parametrize("args", [["--help"], ["check", "--help"], ["rules"]])
def test_no_weasyprint_import_on_light_paths(args: list[str], tmp_path: Path) -> None:
    code = ("import sys; from compliance.cli import cli\n"
            f"try:\n    cli({args!r})\nexcept SystemExit:\n    pass\n"
            "assert 'weasyprint' not in sys.modules, 'weasyprint imported'\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr


def test_check_does_not_import_weasyprint(tmp_path: Path) -> None:
    ws = minimal(tmp_path / "ws")
    code = ("import sys; from compliance.cli import cli\n"
            f"try:\n    cli(['check', {str(ws)!r}])\nexcept SystemExit:\n    pass\n"
            "assert 'weasyprint' not in sys.modules, 'weasyprint imported'\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def _permission_denied(*args: object, **kwargs: object) -> None:
    raise PermissionError(13, "Permission denied")


def test_evidence_pin_that_cannot_write_is_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    evidence = "evidence:\n  - id: vm\n    path: vm.json\n    collected: 2026-10-01\n"
    ws = minimal(tmp_path / "ws", **{"controls/ev.yaml": evidence, "evidence/vm.json": "{}\n"})
    monkeypatch.setattr(os, "replace", _permission_denied)
    code, out, err = run("evidence", "pin", str(ws))
    assert (code, out) == (2, "")
    assert err == f"error: cannot write {ws / 'controls/ev.yaml'}: Permission denied\n"
    assert (ws / "controls/ev.yaml").read_text() == evidence
    assert sorted(p.name for p in (ws / "controls").iterdir()) == [
        "ev.yaml", "isolation.yaml", "system.yaml"]


def test_schema_write_that_cannot_write_is_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    import tempfile

    from compliance.schema import HERE

    monkeypatch.setattr(tempfile, "mkstemp", _permission_denied)
    code, out, err = run("schema", "--write")
    assert (code, out) == (2, "")
    assert err == f"error: cannot write {HERE / 'controls.schema.json'}: Permission denied\n"


def test_ctrl_c_exits_130_not_the_findings_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from compliance import pipeline

    def interrupt(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(pipeline, "load_and_check", interrupt)
    assert run("check", str(minimal(tmp_path))) == (130, "", "\ninterrupted\n")


def test_ctrl_c_in_a_real_process_exits_130(tmp_path: Path) -> None:
    probe = (
        "import signal, time\n"
        "from compliance import pipeline\n"
        "from compliance.cli import main\n"
        "def interrupted(*a):\n"
        "    signal.raise_signal(signal.SIGINT)  # the handler runs before this returns\n"
        "    time.sleep(30)  # never reached unless the handler is late; then it lands here\n"
        "pipeline.load_and_check = interrupted\n"
        # (Python installs its Ctrl-C handler only when SIGINT is not ignored at start, and
        # a process started in the background of a script inherits SIGINT ignored)
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "main()\n"
    )
    proc = subprocess.run([sys.executable, "-c", probe, "check", str(minimal(tmp_path))],
                          capture_output=True, text=True)
    assert (proc.returncode, proc.stdout, proc.stderr) == (130, "", "\ninterrupted\n")
