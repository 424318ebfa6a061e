"""compliance/bounds.py: a huge number is a positioned error in every reader, never a traceback.

Issue 11, row 3: a 5,000-digit integer in a JSON settings file, a TOML config
or a JSON file given to `lint` raised Python's bare ``ValueError`` (its 4,300-digit
limit for converting integers).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from compliance.adapters import EvidenceError, parse_text
from compliance.bounds import MAX_NUMBER_DIGITS, NumberTooLong, load_json
from compliance.cli import cli
from tests.questionnaire.model_ws import EVIDENCE, MODEL
from tests.workspaces import CONTROL, make_workspace, minimal, sha256

HUGE = "1" * 5000
MESSAGE = ("a number with {n} digits; numbers are limited to 100 digits (no setting or "
           "configuration value needs more), so this is refused instead of being converted")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("digits", [MAX_NUMBER_DIGITS + 1, 4301, 5000])
@pytest.mark.parametrize(("name", "kind", "text", "where"), [
    ("managed-settings.json", "claude-settings", '{\n  "cleanupPeriodDays": {n}\n}\n', "2:24"),
    ("config.toml", "codex-config", 'model = "o3"\nhistory_max = {n}\n', "2:15"),
    ("config.toml", "codex-config", 'model = "o3"\nhistory_max = 0x{n}\n', "2:15"),
])
def test_evidence_readers_refuse_a_huge_number_at_its_position(
        name: str, kind: str, text: str, where: str, digits: int) -> None:
    with pytest.raises(EvidenceError) as info:
        parse_text(text.replace("{n}", "1" * digits), name, kind)
    d = info.value.diagnostic
    fmt = "JSON" if name.endswith(".json") else "TOML"
    assert f"{d.path}:{d.line}:{d.column}: {d.message}" == \
        f"{name}:{where}: invalid {fmt}: {MESSAGE.format(n=digits)}"


def test_a_number_at_the_limit_and_long_digit_strings_are_fine() -> None:
    ok = "9" * MAX_NUMBER_DIGITS
    assert load_json(f'{{"n": {ok}, "s": "{HUGE}"}}')["n"] == int(ok)
    doc = parse_text(f'model = "{HUGE}"\n# {HUGE}\nn = {ok}\n', "config.toml", "codex-config")
    assert doc.data["n"] == int(ok)
    with pytest.raises(NumberTooLong):
        load_json(f"[1.{HUGE}]")


def test_check_reports_a_huge_number_in_an_evidence_file_at_its_line(tmp_path: Path) -> None:
    settings = f'{{\n  "cleanupPeriodDays": {HUGE}\n}}\n'.encode()
    evidence = ("evidence:\n  - id: cc\n    path: managed-settings.json\n"
                f"    sha256: {sha256(settings)}\n    collected: 2026-10-01\n")
    control = CONTROL.replace("    limits:",
                              "    evidence: [cc]\n    verified_by: [CFG001]\n    limits:")
    ws = minimal(tmp_path, **{"controls/isolation.yaml": control,
                              "controls/evidence.yaml": evidence,
                              "evidence/managed-settings.json": settings})
    code, out, _ = run("check", str(ws))
    assert code == 1, out
    assert (f"evidence/managed-settings.json:2:24: error evidence cc: invalid JSON: "
            f"{MESSAGE.format(n=5000)}"
            " [CFG100]") in out.splitlines()


@pytest.mark.parametrize("where", ["compliance.yaml", "controls/evidence.yaml"])
def test_model_and_settings_files_refuse_a_huge_number(tmp_path: Path, where: str) -> None:
    files = {"compliance.yaml": f"waiver_horizon_days: {HUGE}\n",
             "controls/evidence.yaml": "evidence:\n  - id: e\n    path: x\n"
                                       f"    collected: 2026-10-01\n    max_age_days: {HUGE}\n"}
    ws = minimal(tmp_path, **{where: files[where]})
    code, out, _ = run("check", str(ws))
    assert code == 1
    assert MESSAGE.format(n=5000) in out
    assert "4300" not in out and "sys.set_int_max_str_digits" not in out


def test_lint_refuses_a_huge_number_in_json_at_its_position(tmp_path: Path) -> None:
    (tmp_path / "claims.json").write_text(f'{{\n  "note": "fine",\n  "n": {HUGE}\n}}\n')
    (tmp_path / "ok.md").write_text("The sandbox is safe by default.\n")
    code, out, err = run("lint", str(tmp_path))
    assert code == 2
    assert f"claims.json:3:8: {MESSAGE.format(n=5000)}" in err
    assert "ok.md:1:" in out  # the other file is still linted


def test_answer_refuses_a_huge_number_in_a_json_questionnaire(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws", {"controls/model.yaml": MODEL,
                                          "evidence/fw.sh": EVIDENCE})
    questions = {"questions": [{"id": "Q1", "question": "Is egress denied?", "answer": ""}]}
    text = json.dumps(questions, indent=2).replace('"Q1"', HUGE, 1)
    src = tmp_path / "q.json"
    src.write_text(text)
    code, _, err = run("answer", str(src), "-w", str(ws), "--out", str(tmp_path / "a.json"))
    assert code == 2
    assert err == f"error: {src}:4:13: {MESSAGE.format(n=5000)}\n"
    assert not (tmp_path / "a.json").exists()


def test_a_model_file_too_big_to_be_a_model_is_refused_before_parsing(tmp_path: Path) -> None:
    """A 14 MB controls file of 200,000 limits took 20 s and 914 MB of memory to check."""
    from compliance.load.yamlpos import MAX_MODEL_FILE_BYTES as MOST

    ws = minimal(tmp_path, **{"controls/huge.yaml": "#\n" * (MOST // 2 + 1)})
    code, out, err = run("check", str(ws))
    assert code == 2
    assert (f"controls/huge.yaml:1:1: error YAML file is {MOST + 2} bytes; the limit "
            f"is {MOST} (4 MiB) [YML001]") in err.splitlines()


def test_lint_reads_prose_files_far_larger_than_a_model_file(tmp_path: Path) -> None:
    """The model file bound (4 MiB) is not prose's: lint refused a 10 MB document when the
    two shared one constant."""
    from compliance.load.yamlpos import MAX_FILE_BYTES, MAX_MODEL_FILE_BYTES

    doc = tmp_path / "big.md"
    doc.write_text("The runner starts from a clean image.\n" * (MAX_MODEL_FILE_BYTES // 38 + 1),
                   encoding="utf-8")
    assert MAX_MODEL_FILE_BYTES < doc.stat().st_size < MAX_FILE_BYTES
    code, out, err = run("lint", str(doc))
    assert code == 0, err
    assert out.splitlines()[-1].endswith("; no rule matched")


def test_the_workspace_yaml_together_has_a_budget(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Each file under the per-file bound, many of them together over the workspace's."""
    import compliance.load.workspace as workspace

    monkeypatch.setattr(workspace, "MAX_WORKSPACE_BYTES", 3000)
    ws = minimal(tmp_path, **{f"controls/pad{n}.yaml": "#\n" * 600 for n in range(3)})
    code, out, err = run("check", str(ws))
    assert code == 2, out
    refused = [line for line in err.splitlines() if "not read:" in line]
    assert refused and all(line.endswith("the limit for all of them together is 3000 (0 MiB) "
                                          "[YML001]") for line in refused), err
    assert "Traceback" not in err
