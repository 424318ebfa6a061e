"""Configuration checks inside `compliance check`: findings at the claim, verdicts per control."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from compliance.cli import cli

REPO = Path(__file__).resolve().parents[3]

SYSTEM = """\
system:
  name: Test agents
  scope: Coding agents used by the test team.
  owner: sec@example.test
  last_reviewed: 2026-11-01
sources:
  - id: docs
    title: Claude Code sandboxing
limits:
  - id: not-complete
    text: Sandboxing reduces risk but is not a complete isolation boundary.
    topics: [depends-on-host-configuration]
    sources: [docs]
"""

CONTROL = """\
evidence:
  - id: settings
    path: claude/managed-settings.json
    collected: 2026-11-01
    sha256: {sha}
controls:
  - id: ISO-02
    layer: isolation
    kind: os-sandbox
    title: Bash sandbox
    status: deployed
    claim: The agent's shell commands always run in an OS sandbox.
    implementation: Managed settings enable the sandbox.
    evidence: [settings]
    limits: [not-complete]
    residual_risk: A kernel bug could let a command out.
    owner: platform
"""

ENFORCED = ('{\n  "sandbox": {\n    "enabled": true,\n    "failIfUnavailable": true,\n'
            '    "allowUnsandboxedCommands": false\n  }\n}\n')


def _workspace(root: Path, settings: str, config: str | None = None) -> Path:
    (root / "controls").mkdir(parents=True)
    (root / "controls" / "system.yaml").write_text(SYSTEM, encoding="utf-8")
    sha = hashlib.sha256(settings.encode("utf-8")).hexdigest()
    (root / "controls" / "isolation.yaml").write_text(CONTROL.format(sha=sha), encoding="utf-8")
    (root / "evidence" / "claude").mkdir(parents=True)
    (root / "evidence" / "claude" / "managed-settings.json").write_text(settings, "utf-8")
    if config is not None:
        (root / "compliance.yaml").write_text(config, encoding="utf-8")
    return root


def _check(root: Path) -> tuple[int, dict]:
    result = CliRunner().invoke(cli, ["check", str(root), "--format", "json",
                                      "--today", "2026-11-30"])
    return result.exit_code, json.loads(result.stdout)


def _config(report: dict) -> list[tuple]:
    return [(f["path"], f["line"], f["column"], f["code"], f["level"], f["message"])
            for f in report["findings"] if f["code"].startswith("CFG")]


def test_enforced_sandbox_is_verified_without_findings(tmp_path: Path) -> None:
    code, report = _check(_workspace(tmp_path, ENFORCED))
    assert code == 0
    assert [f for f in report["findings"] if f["level"] == "error"] == []
    assert _config(report) == []
    assert report["verdicts"]["ISO-02"]["status"] == "verified"
    assert sorted(report["verdicts"]["ISO-02"]["checks"]) == ["CFG001", "CFG002"]


def test_refuted_claim_is_an_error_at_the_claim_naming_file_and_line(tmp_path: Path) -> None:
    settings = ENFORCED.replace('"failIfUnavailable": true', '"failIfUnavailable": false')
    code, report = _check(_workspace(tmp_path, settings))
    assert code == 1
    assert _config(report) == [
        ("controls/isolation.yaml", 12, 12, "CFG001", "error",
         "claim of ISO-02 is refuted by evidence/claude/managed-settings.json:4 "
         "sandbox.failIfUnavailable: sandbox.failIfUnavailable is false (managed scope); "
         "when the sandbox cannot start, commands run unsandboxed with a warning")]
    assert report["verdicts"]["ISO-02"]["status"] == "refuted"


def _uncited(root: Path, config: str | None) -> tuple[int, dict]:
    """A sandbox control citing no evidence: both its checks are UNVERIFIED."""
    ws = _workspace(root, ENFORCED, config)
    path = ws / "controls" / "isolation.yaml"
    path.write_text(path.read_text("utf-8").replace("evidence: [settings]", "evidence: []"),
                    encoding="utf-8")
    return _check(ws)


def test_unverified_level_comes_from_the_workspace(tmp_path: Path) -> None:
    levels = {}
    for config in (None, "unverified: error\n", "unverified: off\n"):
        code, report = _uncited(tmp_path / str(len(levels)), config)
        levels[config] = (code, [f[3:5] for f in _config(report)])
        assert report["verdicts"]["ISO-02"]["status"] == "unverified"
        assert all(f[5].startswith("claim of ISO-02 is unverified: no evidence of a kind this "
                                   "check reads (claude-settings); export the Claude Code")
                   for f in _config(report))
    assert levels == {
        None: (0, [("CFG001", "warning"), ("CFG002", "warning")]),
        "unverified: error\n": (1, [("CFG001", "error"), ("CFG002", "error")]),
        "unverified: off\n": (0, []),
    }


def test_malformed_evidence_is_reported_at_its_own_line(tmp_path: Path) -> None:
    code, report = _check(_workspace(tmp_path, '{\n  "sandbox": {"enabled": tru}\n}\n'))
    assert code == 1
    assert [f for f in _config(report) if f[3] == "CFG100"] == [
        ("evidence/claude/managed-settings.json", 2, 26, "CFG100", "error",
         "evidence settings: invalid JSON: unexpected character 't'")]


def test_a_claim_on_invalid_evidence_says_it_was_given_but_could_not_be_read(
        tmp_path: Path) -> None:
    """Not "no evidence ... export it": the file was given; why it could not be read, where."""
    code, report = _check(_workspace(tmp_path, '{\n  "sandbox": {"enabled": tru}\n}\n'))
    claims = [f[3:] for f in _config(report) if f[3] != "CFG100"]
    given = ("evidence/claude/managed-settings.json was given but could not be read "
             "(evidence/claude/managed-settings.json:2:26: invalid JSON: unexpected "
             "character 't'); fix or re-export it so this check can read it")
    assert claims == [
        ("CFG001", "warning", f"claim of ISO-02 is unverified: {given}"),
        ("CFG002", "warning", f"claim of ISO-02 is unverified: {given}")]
    assert "no evidence of a kind" not in json.dumps(report["verdicts"])
    assert report["verdicts"]["ISO-02"]["status"] == "unverified"


def test_a_claim_on_too_large_evidence_names_the_bound(tmp_path: Path) -> None:
    big = ENFORCED + " " * (5 * 1024 * 1024)
    code, report = _check(_workspace(tmp_path, big))
    size = len(big.encode())
    given = (f"evidence/claude/managed-settings.json was given but could not be read "
             f"(evidence file is {size} bytes, over the 5242880-byte limit; refusing to "
             "parse); fix or re-export it so this check can read it")
    assert [f[3:] for f in _config(report) if f[3] != "CFG100"] == [
        ("CFG001", "warning", f"claim of ISO-02 is unverified: {given}"),
        ("CFG002", "warning", f"claim of ISO-02 is unverified: {given}")]


def test_editing_the_example_firewall_to_allow_all_refutes_net01(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    for name in ("controls", "evidence"):
        shutil.copytree(REPO / name, root / name)
    for name in ("compliance.yaml", "waivers.yaml"):
        if (REPO / name).exists():
            shutil.copy(REPO / name, root / name)
    script = root / "evidence" / "devcontainer" / "init-firewall.sh"
    lines = script.read_text(encoding="utf-8").splitlines()
    last = max(i for i, line in enumerate(lines) if line.startswith("iptables -A OUTPUT -j REJ"))
    lines.insert(last, "iptables -A OUTPUT -j ACCEPT")
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, report = _check(root)
    assert code == 1
    found = [f for f in _config(report) if f[3] == "CFG007"]
    assert [(f[0], f[4]) for f in found] == [("controls/network.yaml", "error")]
    assert found[0][5] == (
        f"claim of NET-01 is refuted by evidence/devcontainer/init-firewall.sh:{last + 1} "
        "iptables: an unconditional IPv4 OUTPUT ACCEPT rule allows all egress")
    assert report["verdicts"]["NET-01"]["status"] == "refuted"


def test_unrecognised_evidence_is_info_and_an_unknown_kind_an_error(tmp_path: Path) -> None:
    ws = _workspace(tmp_path, "not: [json\n")
    path = ws / "controls" / "isolation.yaml"
    text = path.read_text("utf-8")
    path.write_text(text.replace("path: claude/managed-settings.json",
                                 "path: claude/notes.txt"), encoding="utf-8")
    (ws / "evidence" / "claude" / "notes.txt").write_text("hello\n", encoding="utf-8")
    _code, report = _check(ws)
    assert [f for f in _config(report) if f[3] == "CFG100"] == [
        ("controls/isolation.yaml", 3, 11, "CFG100", "info",
         "evidence settings: no adapter recognises this file, so no configuration check reads "
         "it (set `kind:` if one applies; `compliance rules CFG100`)")]
    path.write_text(text.replace("path: claude/managed-settings.json",
                                 "path: claude/notes.txt\n    kind: jenkins"), encoding="utf-8")
    code, report = _check(ws)
    assert code == 1
    found = [f for f in _config(report) if f[3] == "CFG100"]
    assert [(f[0], f[1], f[4]) for f in found] == [("controls/isolation.yaml", 4, "error")]
    assert found[0][5].startswith("evidence settings: evidence/claude/notes.txt: unknown "
                                  "evidence kind 'jenkins'; known kinds: claude-settings, ")


def test_planned_controls_are_not_checked(tmp_path: Path) -> None:
    settings = ENFORCED.replace('"failIfUnavailable": true', '"failIfUnavailable": false')
    ws = _workspace(tmp_path, settings)
    path = ws / "controls" / "isolation.yaml"
    path.write_text(path.read_text("utf-8").replace("status: deployed", "status: planned"),
                    encoding="utf-8")
    _code, report = _check(ws)
    assert _config(report) == []
    assert report["verdicts"]["ISO-02"] == {
        "status": "unverified", "message": "planned control: not checked", "checks": {}}


def test_opaque_evidence_is_pinned_but_read_by_no_adapter(tmp_path: Path) -> None:
    from compliance.pipeline import load_and_check
    from tests.workspaces import CONTROL, SYSTEM, make_workspace, sha256

    blob = b"proxy: {inject: [github, model-api]}\n"
    ws = make_workspace(tmp_path, {
        "controls/system.yaml": SYSTEM + (
            "evidence:\n  - id: gw\n    path: gw.yaml\n    kind: opaque\n"
            f"    sha256: {sha256(blob)}\n    collected: 2026-11-20\n"),
        "controls/isolation.yaml": CONTROL.replace(
            "    limits:", "    evidence: [gw]\n    verified_by: [CFG013]\n    limits:"),
        "evidence/gw.yaml": blob,
    })
    checked = load_and_check(ws, dt.date(2026, 11, 30))
    codes = [d.code for d in checked.result.findings if d.code != "GAP001"]
    assert codes == ["CFG013"]  # unverified (warning), not CFG100 unreadable
    assert checked.result.verdicts["ISO-01"]["status"] == "unverified"


def _uncovered(root: Path, config: str | None, checks: str) -> tuple[int, dict]:
    """The sandbox control with ``checks`` in place of its kind's: no check covers (a part
    of) its claim."""
    ws = _workspace(root, ENFORCED, config)
    path = ws / "controls" / "isolation.yaml"
    path.write_text(path.read_text("utf-8").replace("    evidence: [settings]\n",
                                                    f"    evidence: [settings]\n{checks}"),
                    encoding="utf-8")
    return _check(ws)


def _vrf004(report: dict) -> list[tuple]:
    return [(f["line"], f["column"], f["level"], f["message"])
            for f in report["findings"] if f["code"] == "VRF004"]


def test_a_claim_no_check_covers_is_reported_at_the_unverified_level(tmp_path: Path) -> None:
    """`unverified: error` fails on a deployed claim that no check covers, not only on one a
    check could not confirm; `off` leaves it to the verdicts."""
    why = ("claim of ISO-02 is unverified: no configuration check covers it (its "
           "`verified_by` is empty); cite evidence a check reads and name that check in "
           "`verified_by` (`compliance rules` lists them), or narrow the claim to what a "
           "check verifies")
    got = {}
    for config in (None, "unverified: error\n", "unverified: off\n"):
        code, report = _uncovered(tmp_path / str(len(got)), config, "    verified_by: []\n")
        assert report["verdicts"]["ISO-02"]["status"] == "unverified"
        got[config] = (code, _vrf004(report))
    assert got == {None: (0, [(12, 12, "warning", why)]),
                   "unverified: error\n": (1, [(12, 12, "error", why)]),
                   "unverified: off\n": (0, [])}


def test_a_kind_that_selects_no_check_is_named_as_the_reason(tmp_path: Path) -> None:
    ws = _workspace(tmp_path, ENFORCED, "unverified: error\n")
    path = ws / "controls" / "isolation.yaml"
    path.write_text(path.read_text("utf-8").replace("kind: os-sandbox", "kind: microvm-isolation"),
                    encoding="utf-8")
    code, report = _check(ws)
    assert code == 1
    assert [f[3].split(";")[0] for f in _vrf004(report)] == [
        "claim of ISO-02 is unverified: no configuration check covers it (its kind "
        "microvm-isolation selects none and it names none in `verified_by`)"]


def test_parts_no_check_covers_are_named_at_the_unverified_level(tmp_path: Path) -> None:
    parts = ("    assertions:\n"
             "      - text: Bash commands run in the OS sandbox.\n"
             "        verified_by: [CFG001]\n"
             "      - text: The sandbox's kernel has no known escape.\n"
             "        verified_by: []\n")
    code, report = _uncovered(tmp_path / "x", "unverified: error\n", parts)
    assert report["verdicts"]["ISO-02"]["status"] == "partly-verified"
    assert code == 1
    assert _vrf004(report) == [(
        12, 12, "error",
        "claim of ISO-02 is partly unverified: no configuration check covers part (2) The "
        "sandbox's kernel has no known escape (its `verified_by` is empty); cite evidence a "
        "check reads and name that check in `verified_by` (`compliance rules` lists them), "
        "or narrow the claim to what a check verifies")]
    covered = parts.replace("verified_by: []", "verified_by: [CFG002]")
    assert _vrf004(_uncovered(tmp_path / "y", "unverified: error\n", covered)[1]) == []
