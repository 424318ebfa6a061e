"""action.yml: every `run:` step executed locally, in order, as the runner would.

The runner's expression syntax is evaluated for the forms the action uses
(`inputs.*`, `steps.<id>.outputs.*`, `always()`, `==`, `&&`); `uses:` steps
(setup-python, the SARIF upload) cannot run outside GitHub and are listed,
not run. The tool is taken from this test's environment (`install: none`),
so nothing is downloaded.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from tests.workspaces import copy_example

REPO = Path(__file__).resolve().parent.parent
ACTION = YAML(typ="safe").load((REPO / "action.yml").read_text(encoding="utf-8"))
EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
REF = re.compile(r"\b(inputs|steps)\.([A-Za-z0-9_-]+)(?:\.outputs\.([A-Za-z0-9_-]+))?")


def _value(ref: re.Match[str], inputs: dict[str, str], outputs: dict[str, dict[str, str]]
           ) -> str:
    if ref.group(1) == "inputs":
        return inputs[ref.group(2)]
    return outputs.get(ref.group(2), {}).get(ref.group(3) or "", "")


def evaluate(expr: str, inputs: dict[str, str], outputs: dict[str, dict[str, str]]) -> Any:
    """The runner's expressions, for the forms this action uses."""
    py = REF.sub(lambda m: repr(_value(m, inputs, outputs)), expr)
    py = py.replace("always()", "True").replace("&&", " and ").replace("||", " or ")
    assert re.fullmatch(r"[\w\s'\"=!.()-]*", py), f"unsupported expression: {expr}"
    return eval(py, {"__builtins__": {}}, {})  # noqa: S307 - only the forms checked above


def substitute(text: str, inputs: dict[str, str], outputs: dict[str, dict[str, str]]) -> str:
    return EXPR.sub(lambda m: str(evaluate(m.group(1), inputs, outputs)), text)


def run_action(tmp_path: Path, **given: str) -> tuple[int, list[str], dict[str, Any]]:
    """Run the action's steps; return the job's exit code, the steps run and the state."""
    inputs = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
    inputs.update({"install": "none", **given})
    outputs: dict[str, dict[str, str]] = {}
    ran: list[str] = []
    env = {**os.environ, "GITHUB_ACTION_PATH": str(REPO), "GITHUB_WORKSPACE": str(tmp_path),
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    failed = 0
    for step in ACTION["runs"]["steps"]:
        condition = step.get("if")
        success_only = condition is None or "always()" not in condition
        if failed and success_only:
            continue
        if condition is not None and not evaluate(condition, inputs, outputs):
            continue
        if "uses" in step:
            ran.append(f"uses {step['uses'].split('@')[0]}")
            continue
        out_file = tmp_path / f".output-{len(ran)}"
        out_file.write_text("", encoding="utf-8")
        step_env = {k: substitute(str(v), inputs, outputs) for k, v in step.get("env", {}).items()}
        proc = subprocess.run(
            ["bash", "-e", "-c", substitute(step["run"], inputs, outputs)], cwd=tmp_path,
            env={**env, **step_env, "GITHUB_OUTPUT": str(out_file)},
            capture_output=True, text=True, timeout=300)
        ran.append(step["name"])
        if "id" in step:
            outputs[step["id"]] = dict(line.split("=", 1) for line in
                                       out_file.read_text(encoding="utf-8").splitlines() if line)
        outputs.setdefault("_log", {})[step["name"]] = proc.stdout + proc.stderr
        if proc.returncode != 0:
            failed = proc.returncode
    return failed, ran, {"inputs": inputs, "outputs": outputs}


def example(tmp_path: Path) -> Path:
    return copy_example(REPO, tmp_path / "ws")


def test_composite_with_declared_inputs() -> None:
    assert ACTION["runs"]["using"] == "composite"
    assert {"workspace", "strict", "format", "sarif-file", "upload-sarif", "install"} <= set(
        ACTION["inputs"])
    assert all(step.get("shell") == "bash" for step in ACTION["runs"]["steps"] if "run" in step)


def test_a_clean_workspace_passes_and_writes_sarif(tmp_path: Path) -> None:
    example(tmp_path)
    code, ran, state = run_action(tmp_path, workspace="ws", **{"setup-python": "false"})
    assert code == 0, state["outputs"]["_log"]
    assert ran == ["Install agent-sandbox-compliance", "Run compliance check",
                   "uses github/codeql-action/upload-sarif", "Fail the job on findings"]
    assert state["outputs"]["check"] == {"exit-code": "0"}
    sarif = json.loads((tmp_path / "compliance.sarif").read_text(encoding="utf-8"))
    assert sarif["version"] == "2.1.0"
    assert sarif["runs"][0]["tool"]["driver"]["name"] == "compliance"


def test_findings_upload_sarif_then_fail_the_job(tmp_path: Path) -> None:
    ws = example(tmp_path)
    (ws / "controls" / "stance.yaml").write_text(
        "stance: Our agents are 100% safe and cannot leak anything.\n", encoding="utf-8")
    code, ran, state = run_action(tmp_path, workspace="ws")
    assert code == 1
    assert ran == ["uses actions/setup-python", "Install agent-sandbox-compliance",
                   "Run compliance check", "uses github/codeql-action/upload-sarif",
                   "Fail the job on findings"]
    assert state["outputs"]["check"] == {"exit-code": "1"}
    log = state["outputs"]["_log"]
    # the job runs at the repository root: annotations and alerts name ws/..., not controls/...
    assert "::error file=ws/controls/stance.yaml,line=1" in log["Run compliance check"]
    assert "file=controls/" not in log["Run compliance check"]
    assert "::error::compliance check exited 1" in log["Fail the job on findings"]
    results = json.loads((tmp_path / "compliance.sarif").read_text())["runs"][0]["results"]
    assert any(r["ruleId"].startswith("CLM") for r in results)
    assert {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in results if r["ruleId"].startswith("CLM")} == {"ws/controls/stance.yaml"}


def test_strict_fails_on_warnings_and_no_upload_when_turned_off(tmp_path: Path) -> None:
    ws = example(tmp_path)  # a waiver that waives nothing is a warning (WVR004)
    (ws / "waivers.yaml").write_text(
        "waivers:\n  - rule: LIM001\n    target: ISO-01\n    reason: Not needed.\n"
        "    owner: sec@acme.example\n    expires: 2027-01-15\n", encoding="utf-8")
    code, ran, state = run_action(tmp_path, workspace="ws", strict="true", format="text",
                                  **{"upload-sarif": "false", "sarif-file": "out.sarif"})
    assert code == 1
    assert "uses github/codeql-action/upload-sarif" not in ran
    assert state["outputs"]["check"] == {"exit-code": "1"}
    assert (tmp_path / "out.sarif").is_file()


def test_an_unreadable_workspace_exits_2(tmp_path: Path) -> None:
    code, _ran, state = run_action(tmp_path, workspace="missing")
    assert code == 2
    assert state["outputs"]["check"] == {"exit-code": "2"}


@pytest.mark.parametrize("name", ["README.md"])
def test_the_documented_workflow_uses_the_action_inputs(name: str) -> None:
    text = (REPO / name).read_text(encoding="utf-8")
    block = text.split("## In CI", 1)[1].split("```yaml", 1)[1].split("```", 1)[0]
    workflow = YAML(typ="safe").load(block)
    steps = workflow["jobs"]["compliance"]["steps"]
    used = next(s for s in steps if "agent-sandbox-compliance" in str(s.get("uses", "")))
    assert set(used.get("with", {})) <= set(ACTION["inputs"])
    assert workflow["jobs"]["compliance"]["permissions"]["security-events"] == "write"
