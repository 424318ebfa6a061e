"""`compliance evidence status|pin`: exit codes and what they say about broken evidence."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from compliance.cli import cli
from tests.check.test_model_rules import EVIDENCE, FW, evidence_ws
from tests.workspaces import sha256


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, result.stdout, result.stderr


def test_status_ok_exits_0(tmp_path: Path) -> None:
    code, out, err = run("evidence", "status", str(evidence_ws(tmp_path)))
    assert (code, err) == (0, "")
    assert out.split() == ["fw", "evidence/fw.sh", "ok;", "collected", "2026-11-20"]


def test_status_stale_or_missing_exits_1(tmp_path: Path) -> None:
    ws = evidence_ws(tmp_path)
    (ws / "evidence/fw.sh").write_bytes(b"changed\n")
    code, out, err = run("evidence", "status", str(ws))
    assert code == 1 and " STALE (changed since pinned);" in out
    assert err == "1 of 1 evidence item(s) not ok; see `compliance check` for the findings\n"
    (ws / "evidence/fw.sh").unlink()
    code, out, _err = run("evidence", "status", str(ws))
    assert code == 1 and " missing (no file at evidence/fw.sh);" in out


def test_pin_with_a_missing_file_does_not_claim_all_current(tmp_path: Path) -> None:
    ws = evidence_ws(tmp_path)
    (ws / "evidence/fw.sh").unlink()
    code, out, err = run("evidence", "pin", str(ws))
    assert (code, out) == (1, "")
    assert err == "error: cannot pin fw: missing (no file at evidence/fw.sh)\n"
    assert (ws / "controls/evidence.yaml").read_text() == EVIDENCE


def test_pin_current_and_unknown_id(tmp_path: Path) -> None:
    ws = evidence_ws(tmp_path)
    assert run("evidence", "pin", str(ws)) == (0, "all evidence pins are current\n", "")
    assert run("evidence", "pin", str(ws), "--id", "nope")[0] == 2
    (ws / "evidence/fw.sh").write_bytes(FW + b"#\n")
    code, out, _err = run("evidence", "pin", str(ws))
    new = sha256(FW + b"#\n")
    assert (code, out) == (0, f"pinned fw: evidence/fw.sh {sha256(FW)[:12]}... -> "
                              f"{new[:12]}...\n")
