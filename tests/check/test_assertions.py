"""A claim's parts: VERIFIED only when checks cover every part, else PARTLY VERIFIED (never
counted as verified), with the uncovered parts named in every output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from compliance.cli import cli
from tests.workspaces import SYSTEM, make_workspace, sha256

DEVCONTAINER = b'{"image": "node:20", "remoteEnv": {"EDITOR": "vim"}}\n'
SETTINGS = b'{"env": {"ANTHROPIC_API_KEY": "sk-ant-x"}}\n'


def _evidence(name: str, path: str, data: bytes) -> str:
    return (f"  - id: {name}\n    path: {path}\n    sha256: {sha256(data)}\n"
            "    collected: 2026-11-01\n")


def _control(assertions: str, *, claim: str = "Sessions hold no long-lived credentials. "
             "The proxy token lives four hours.", evidence: str = "[devcontainer]") -> str:
    return ("controls:\n"
            "  - id: CRED-01\n"
            "    layer: credentials\n"
            "    title: No standing credentials\n"
            "    status: deployed\n"
            f"    claim: {claim}\n"
            "    stance_clause: hold no standing credentials\n"
            "    implementation: The proxy adds the keys.\n"
            f"    evidence: {evidence}\n"
            f"{assertions}\n"
            "    limits: [model-open]\n"
            "    residual_risk: The proxy can be misused.\n"
            "    owner: platform\n")


PARTS = """\
    assertions:
      - text: No API key or token is forwarded into the session.
        verified_by: [CFG013]
      - text: The proxy's token lives at most four hours.
        verified_by: []"""


def _ws(tmp_path: Path, control: str, *extra: tuple[str, str, bytes]) -> Path:
    evidence = [("devcontainer", "devcontainer.json", DEVCONTAINER), *extra]
    files: dict[str, str | bytes] = {
        "controls/system.yaml": SYSTEM,
        "controls/credentials.yaml": control,
        "controls/evidence.yaml": "evidence:\n" + "".join(
            _evidence(n, p, d) for n, p, d in evidence),
        # Only the credentials layer is modelled: the layer-gap warnings are not the subject.
        "compliance.yaml": "disabled_rules: [GAP001]\n",
    }
    files.update({f"evidence/{p}": d for _n, p, d in evidence})
    return make_workspace(tmp_path / "ws", files)


def _check(root: Path, fmt: str = "json") -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["check", str(root), "--format", fmt,
                                      "--today", "2026-11-02"])
    return result.exit_code, result.stdout


def test_one_part_verified_of_two_is_partly_verified_and_names_the_other(
        tmp_path: Path) -> None:
    code, out = _check(_ws(tmp_path, _control(PARTS)))
    verdict = json.loads(out)["verdicts"]["CRED-01"]
    assert code == 0
    assert verdict["status"] == "partly-verified"
    assert [(a["status"], a["checks"]) for a in verdict["assertions"]] == [
        ("verified", ["CFG013"]), ("unverified", [])]
    assert verdict["unverified_parts"] == ["The proxy's token lives at most four hours."]
    assert verdict["summary"] == (
        "1 of 2 parts of the claim verified (1). Not verified: (2) The proxy's token lives at "
        "most four hours (no configuration check covers this part)")
    # What the check read, at which line, what it shows.
    reason = verdict["checks"]["CFG013"]["reasons"][0]
    assert (reason["path"], reason["line"], reason["refutes"]) == (
        "evidence/devcontainer.json", 1, False)
    assert reason["message"] == ("1 remoteEnv/containerEnv entries and 0 mounts: none is named "
                                 "like a secret, holds a credential-shaped value or mounts a "
                                 "credential directory")


#: Part (2) names a check that runs and cannot confirm it (no file of a kind CFG024 reads).
CHECKED_PART = PARTS.replace("verified_by: []", "verified_by: [CFG024]")


def test_partly_verified_is_shown_in_text_sarif_and_github(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _ws(tmp_path, _control(CHECKED_PART))
    monkeypatch.chdir(root)  # github/sarif name files from the current folder
    _code, text = _check(root, "text")
    # The part its check could not confirm is also a warning (CFG024, at `unverified`).
    assert text.splitlines()[-1] == ("0 errors, 1 warning; claims: 0 verified, "
                                     "1 partly verified, 0 unverified, 0 refuted")
    assert text.splitlines()[1].startswith(
        "controls/credentials.yaml:6:12: info claim of CRED-01 is PARTLY VERIFIED: 1 of 2 parts "
        "of the claim verified: (1) No API key")
    _code, sarif = _check(root, "sarif")
    results = json.loads(sarif)["runs"][0]["results"]
    assert [(r["ruleId"], r["level"]) for r in results] == [("CFG024", "warning"),
                                                             ("VRF001", "note")]
    assert "(2) The proxy's token lives at most four hours" in results[1]["message"]["text"]
    _code, github = _check(root, "github")
    assert github.splitlines()[1].startswith(
        "::notice file=controls/credentials.yaml,line=6,col=12,endLine=6,endColumn=86,"
        "title=VRF001 claim-partly-verified::claim of CRED-01 is PARTLY VERIFIED")


def test_open_parts_no_check_covers_are_one_finding_vrf004(tmp_path: Path) -> None:
    """VRF001 and VRF004 both reported CRED-01 when its only open part names no check: one
    claim, two findings saying that part is not verified. VRF004 (at the `unverified`
    level, so `unverified: error` fails on it) is the one; with `unverified: off` there is
    no VRF004 and VRF001's note says it."""
    root = _ws(tmp_path, _control(PARTS))
    code, out = _check(root)
    report = json.loads(out)
    assert code == 0
    assert report["verdicts"]["CRED-01"]["status"] == "partly-verified"
    assert [(f["code"], f["level"], f["message"].split(":", 1)[0]) for f in report["findings"]] \
        == [("VRF004", "warning", "claim of CRED-01 is partly unverified")]
    (root / "compliance.yaml").write_text("disabled_rules: [GAP001]\nunverified: off\n",
                                          encoding="utf-8")
    report = json.loads(_check(root)[1])
    assert [(f["code"], f["level"], f["message"].split(":", 1)[0]) for f in report["findings"]] \
        == [("VRF001", "info", "claim of CRED-01 is PARTLY VERIFIED")]


def test_every_part_verified_is_verified(tmp_path: Path) -> None:
    parts = PARTS.replace("verified_by: []", "verified_by: [CFG013]")
    verdict = json.loads(_check(_ws(tmp_path, _control(parts)))[1])["verdicts"]["CRED-01"]
    assert verdict["status"] == "verified"
    assert verdict["summary"] == "all 2 parts of the claim are verified (CFG013)"


def test_a_refuted_part_refutes_the_claim(tmp_path: Path) -> None:
    control = _control(PARTS, evidence="[devcontainer, settings]")
    root = _ws(tmp_path, control, ("settings", ".claude/settings.json", SETTINGS))
    code, out = _check(root)
    verdict = json.loads(out)["verdicts"]["CRED-01"]
    assert code == 1
    assert verdict["status"] == "refuted"
    assert verdict["assertions"][0]["status"] == "refuted"


def test_no_part_verified_is_unverified(tmp_path: Path) -> None:
    parts = PARTS.replace("verified_by: [CFG013]", "verified_by: []")
    verdict = json.loads(_check(_ws(tmp_path, _control(parts)))[1])["verdicts"]["CRED-01"]
    assert verdict["status"] == "unverified"
    assert verdict["message"].startswith("no part of the claim is verified: (1) No API key")


def test_without_assertions_the_claim_is_one_assertion_and_a_note_says_so(
        tmp_path: Path) -> None:
    code, out = _check(_ws(tmp_path, _control("    verified_by: [CFG013]")))
    report = json.loads(out)
    verdict = report["verdicts"]["CRED-01"]
    assert code == 0
    assert (verdict["status"], verdict["parts_listed"]) == ("verified", False)
    assert verdict["summary"] == ("verified as one assertion by CFG013 (the control lists no "
                                  "separate parts)")
    assert [(f["code"], f["level"], f["line"]) for f in report["findings"]] == [
        ("VRF002", "info", 6)]
    assert report["findings"][0]["message"].startswith(
        "the claim of CRED-01 has 2 sentences but is checked as one assertion by CFG013")


def test_a_one_sentence_claim_without_assertions_gets_no_note(tmp_path: Path) -> None:
    control = _control("    verified_by: [CFG013]", claim="Sessions hold no long-lived keys.")
    report = json.loads(_check(_ws(tmp_path, control))[1])
    assert report["findings"] == []
    assert report["verdicts"]["CRED-01"]["status"] == "verified"


def test_an_unknown_check_code_is_an_error_at_its_position(tmp_path: Path) -> None:
    parts = PARTS.replace("verified_by: []", "verified_by: [CFG13]")
    code, out = _check(_ws(tmp_path, _control(parts)))
    found = [(f["code"], f["line"], f["column"], f["message"])
             for f in json.loads(out)["findings"] if f["level"] == "error"]
    assert code == 1
    assert found == [("VRF003", 14, 23, "CRED-01: 'CFG13' in verified_by is not a "
                                        "configuration check; `compliance rules` lists them "
                                        "(CFG001 ...)")]


def test_checks_on_the_control_and_on_its_assertions_is_an_error(tmp_path: Path) -> None:
    control = _control("    verified_by: [CFG013]\n" + PARTS)
    code, out = _check(_ws(tmp_path, control))
    findings = json.loads(out)["findings"]
    assert code == 1
    assert [(f["code"], f["path"], f["message"]) for f in findings] == [
        ("SCH001", "controls/credentials.yaml", "controls[0]: give `verified_by` on each "
         "assertion, not on the control, when `assertions` are listed")]


def test_partly_verified_never_enters_the_stance_and_is_listed_as_such(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["build", str(_ws(tmp_path, _control(PARTS))),
                                      "--out", str(out), "--today", "2026-11-02"])
    assert result.exit_code == 0, result.output
    stance = (out / "stance.md").read_text("utf-8")
    assert "hold no standing credentials" not in stance
    assert "No deployed control has a verified claim yet" in stance
    assert "## Partly verified\n\n- CRED-01 No standing credentials: partly verified. 1 of 2" \
        in stance
    html = (out / "report.html").read_text("utf-8")
    assert '<span class="verdict partly-verified">PARTLY VERIFIED</span>' in html
    assert "(2) The proxy&#39;s token lives at most four hours." in html
    import io
    import zipfile

    with zipfile.ZipFile(io.BytesIO((out / "evidence-pack.zip").read_bytes())) as pack:
        manifest = json.loads(pack.read("manifest.json"))
    assert manifest["verdicts"] == {"CRED-01": "partly-verified"}
