"""Model rules (limits, gaps, evidence, waivers, suppressions) with exact findings."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from compliance.evidence_pin import pin
from compliance.load import load_workspace
from compliance.pipeline import load_and_check
from tests.workspaces import CONTROL, SYSTEM, minimal, sha256

TODAY = dt.date(2026, 11, 30)
FW = b"iptables -P OUTPUT DROP\n"
EVIDENCE = f"""\
evidence:
  - id: fw  # the firewall script
    path: fw.sh
    sha256: {sha256(FW)}
    collected: 2026-11-20
"""


def found(root: Path, codes: tuple[str, ...] = ()) -> list[str]:
    result = load_and_check(root, TODAY).result
    return [f"{d.path}:{d.line}:{d.column}: {d.code} {d.message}" + (
        " [waived]" if d.waived_by else "")
        # Not the subject here: the layers the minimal workspace leaves out (GAP001) and its
        # one claim, which no configuration check covers (VRF004).
        for d in result.findings if d.code not in ("GAP001", "VRF004")
        and (not codes or d.code in codes)]


def test_control_without_limits(tmp_path: Path) -> None:
    minimal(tmp_path, **{"controls/isolation.yaml": CONTROL.replace("[model-open]", "[]")})
    assert found(tmp_path) == [
        "controls/isolation.yaml:8:5: LIM001 control ISO-01 is deployed but states no limit; "
        "add the known limits it has (limits: [...]) so no output presents it as absolute"]


def test_kind_limit_missing_and_settings_override(tmp_path: Path) -> None:
    text = CONTROL.replace("    title:", "    kind: microvm-isolation\n    title:")
    minimal(tmp_path, **{"controls/isolation.yaml": text})
    assert found(tmp_path) == [
        "controls/isolation.yaml:4:11: LIM002 control ISO-01 is of kind 'microvm-isolation', "
        "which always has the limit 'depends-on-host-configuration'; cite a limit with "
        "`topics: [depends-on-host-configuration]`"]
    (tmp_path / "compliance.yaml").write_text(
        "required_limits:\n  microvm-isolation: [model-channel-open]\n")
    assert found(tmp_path) == []


def test_stance_without_limits(tmp_path: Path) -> None:
    minimal(tmp_path, **{"controls/stance.yaml": "stance: Agents run in isolated VMs.\n"})
    assert found(tmp_path) == [
        "controls/stance.yaml:1:9: LIM003 the stance names no limit; add what the controls do "
        "not do (e.g. 'the model connection stays open')"]


def test_layer_gaps_are_warnings_per_layer(tmp_path: Path) -> None:
    result = load_and_check(minimal(tmp_path), TODAY).result
    gaps = [d.message.split("'")[1] for d in result.findings if d.code == "GAP001"]
    assert sorted(gaps) == ["credentials", "git", "logs", "network", "pipeline"]


def evidence_ws(tmp_path: Path, evidence: str = EVIDENCE) -> Path:
    control = CONTROL.replace("limits: [model-open]", "limits: [model-open]\n    evidence: [fw]")
    return minimal(tmp_path, **{"controls/isolation.yaml": control,
                                "controls/evidence.yaml": evidence, "evidence/fw.sh": FW})


def test_evidence_clean(tmp_path: Path) -> None:
    assert found(evidence_ws(tmp_path)) == []


def test_evidence_outside_folder_and_symlink(tmp_path: Path) -> None:
    (tmp_path / "secret").write_text("s3cret")
    ws = evidence_ws(tmp_path / "ws", EVIDENCE.replace("path: fw.sh", "path: ../secret"))
    assert found(ws) == [
        "controls/evidence.yaml:3:11: EVD001 evidence fw: path '../secret' is refused: "
        "resolves outside evidence/ (after following '..' and links)"]
    (ws / "evidence/link.sh").symlink_to(tmp_path / "secret")
    (ws / "controls/evidence.yaml").write_text(EVIDENCE.replace("path: fw.sh",
                                                                "path: link.sh"))
    assert found(ws, ("EVD001",)) == [
        "controls/evidence.yaml:3:11: EVD001 evidence fw: path 'link.sh' is refused: "
        "resolves outside evidence/ (after following '..' and links)"]


def test_evidence_missing(tmp_path: Path) -> None:
    ws = evidence_ws(tmp_path, EVIDENCE.replace("path: fw.sh", "path: gone.sh"))
    assert found(ws) == ["controls/evidence.yaml:3:11: EVD002 evidence fw: no file at "
                         "evidence/gone.sh"]


def test_stale_claim_then_repin_keeps_comments(tmp_path: Path) -> None:
    ws = evidence_ws(tmp_path)
    (ws / "evidence/fw.sh").write_bytes(b"iptables -P OUTPUT ACCEPT\n")
    new = sha256(b"iptables -P OUTPUT ACCEPT\n")
    assert found(ws) == [
        f"controls/isolation.yaml:6:12: EVD003 STALE: the claim of ISO-01 rests on "
        f"evidence/fw.sh, which changed (pinned {sha256(FW)[:12]}..., now {new[:12]}...); "
        "review it and run `compliance evidence pin`"]
    changes = pin(load_workspace(ws))
    assert [(c.evidence_id, c.old, c.new) for c in changes] == [("fw", sha256(FW), new)]
    assert (ws / "controls/evidence.yaml").read_text() == EVIDENCE.replace(sha256(FW), new)
    assert found(ws) == []


def test_pin_inserts_missing_sha_with_indent(tmp_path: Path) -> None:
    unpinned = EVIDENCE.replace(f"    sha256: {sha256(FW)}\n", "")
    ws = evidence_ws(tmp_path, unpinned)
    assert found(ws) == [
        f"controls/evidence.yaml:3:11: EVD004 evidence fw is not pinned (current sha256 "
        f"{sha256(FW)}); review it, then run `compliance evidence pin`"]
    pin(load_workspace(ws))
    assert (ws / "controls/evidence.yaml").read_text() == EVIDENCE


def test_evidence_too_old(tmp_path: Path) -> None:
    ws = evidence_ws(tmp_path, EVIDENCE.replace("2026-11-20", "2026-01-02"))
    assert found(ws) == [
        "controls/evidence.yaml:5:16: EVD005 evidence fw was collected 332 days ago "
        "(2026-01-02); its max_age_days is 90: re-export and re-pin it"]


WAIVED = CONTROL.replace("[model-open]", "[]")


def test_evidence_from_the_future(tmp_path: Path) -> None:
    ws = evidence_ws(tmp_path, EVIDENCE.replace("2026-11-20", "2027-06-01"))
    assert found(ws) == [
        "controls/evidence.yaml:5:16: EVD006 evidence fw was collected on 2027-06-01, 183 days "
        "after today (2026-11-30); write the date the file was exported"]
    (ws / "controls/evidence.yaml").write_text(EVIDENCE.replace("2026-11-20", "2026-12-01"))
    assert found(ws) == []  # one day of grace for time zones


@pytest.mark.parametrize(("control", "status", "file", "evidence_id"), [
    ("NET-02", "verified", "evidence/devcontainer/init-firewall.sh", "firewall-script"),
    ("CRED-01", "partly-verified", "evidence/proxy/agent-gateway.yaml", "agent-gateway-config"),
])
def test_stale_evidence_makes_a_verified_claim_unverified(
        tmp_path: Path, repo: Path, control: str, status: str, file: str,
        evidence_id: str) -> None:
    for part in ("controls", "evidence"):
        shutil.copytree(repo / part, tmp_path / part)
    shutil.copy(repo / "compliance.yaml", tmp_path / "compliance.yaml")
    before = load_and_check(tmp_path, TODAY).result.verdicts[control]
    assert before["status"] == status and "stale" not in before
    with (tmp_path / file).open("a") as fh:
        fh.write("# changed after review\n")
    after = load_and_check(tmp_path, TODAY).result.verdicts[control]
    assert (after["status"], after["stale"]) == ("unverified", [evidence_id])
    assert after["message"].startswith(f"STALE: evidence {evidence_id} changed since it was "
                                       "pinned")
    assert after["checks"] == before["checks"]  # the checks still read the file as before


def test_pin_keeps_bom_and_line_breaks(tmp_path: Path) -> None:
    for name, newline in (("crlf", "\r\n"), ("cr", "\r"), ("lf", "\n")):
        unpinned = EVIDENCE.replace(f"    sha256: {sha256(FW)}\n", "")
        stale = EVIDENCE.replace(sha256(FW), "a" * 64)
        for case, before in (("unpinned", unpinned), ("stale", stale)):
            ws = evidence_ws(tmp_path / name / case)
            raw = b"\xef\xbb\xbf" + before.replace("\n", newline).encode()
            (ws / "controls/evidence.yaml").write_bytes(raw)
            assert [c.evidence_id for c in pin(load_workspace(ws))] == ["fw"]
            assert (ws / "controls/evidence.yaml").read_bytes() == \
                b"\xef\xbb\xbf" + EVIDENCE.replace("\n", newline).encode()


def test_waiver_in_force_marks_finding(tmp_path: Path) -> None:
    ws = minimal(tmp_path, **{"controls/isolation.yaml": WAIVED, "waivers.yaml": """\
        waivers:
          - rule: control-without-limits
            target: ISO-01
            reason: Limits are being written up this sprint.
            owner: sec-lead
            expires: 2027-01-15
        """})
    assert found(ws) == [
        "controls/isolation.yaml:8:5: LIM001 control ISO-01 is deployed but states no limit; "
        "add the known limits it has (limits: [...]) so no output presents it as absolute "
        "[waived]"]
    assert load_and_check(ws, TODAY).ok


def test_expired_and_far_waivers_do_not_waive(tmp_path: Path) -> None:
    ws = minimal(tmp_path, **{"controls/isolation.yaml": WAIVED, "waivers.yaml": """\
        waivers:
          - {rule: LIM001, target: ISO-01, reason: r, owner: o, expires: 2026-11-01}
          - {rule: LIM001, target: ISO-01, reason: r, owner: o, expires: 2028-01-01}
          - {rule: LIM01, target: ISO-01, reason: r, owner: o, expires: 2026-12-01}
        """})
    got = found(ws)
    assert got == [
        "controls/isolation.yaml:8:5: LIM001 control ISO-01 is deployed but states no limit; "
        "add the known limits it has (limits: [...]) so no output presents it as absolute",
        "waivers.yaml:2:66: WVR001 waiver for LIM001 on ISO-01 expired on 2026-11-01; fix the "
        "finding or re-review the waiver",
        "waivers.yaml:3:66: WVR002 waiver for LIM001 on ISO-01 runs until 2028-01-01, beyond "
        "the 180-day horizon (2027-05-29); choose an earlier date",
        "waivers.yaml:4:12: WVR003 waiver names unknown rule 'LIM01'; see `compliance rules` "
        "for codes and names"]


def test_unused_waiver_and_unknown_target(tmp_path: Path) -> None:
    ws = minimal(tmp_path, **{"controls/isolation.yaml": WAIVED, "waivers.yaml": """\
        waivers:
          - {rule: LIM001, target: ISO-01, reason: r, owner: o, expires: 2027-01-15}
          - {rule: LIM001, target: nosuch, reason: r, owner: o, expires: 2027-01-15}
          - {rule: LIM003, target: ISO-01, reason: r, owner: o, expires: 2027-01-15}
          - {rule: LIM001, target: controls/isolation.yaml, reason: r, owner: o,
             expires: 2027-01-15}
          - {rule: LIM001, target: ISO-01, reason: r, owner: o, expires: 2026-11-01}
        """})
    assert found(ws) == [
        "controls/isolation.yaml:8:5: LIM001 control ISO-01 is deployed but states no limit; "
        "add the known limits it has (limits: [...]) so no output presents it as absolute "
        "[waived]",
        "waivers.yaml:3:28: WVR004 waiver for LIM001 names target 'nosuch', which is no "
        "control, limit, evidence item, source or model file; use an id or a path such as "
        "controls/network.yaml",
        "waivers.yaml:4:28: WVR004 waiver for LIM003 on ISO-01 waives nothing: no LIM003 "
        "finding is there; delete the waiver (or fix its rule)",
        "waivers.yaml:7:66: WVR001 waiver for LIM001 on ISO-01 expired on 2026-11-01; fix the "
        "finding or re-review the waiver"]
    result = load_and_check(ws, TODAY)
    assert [d.level.value for d in result.result.findings if d.code == "WVR004"] == [
        "warning", "warning"]


def test_malformed_waivers_file_is_positioned(tmp_path: Path) -> None:
    ws = minimal(tmp_path, **{"waivers.yaml": "waivers:\n  - rule: LIM001\n    target: X\n"})
    assert [f"{d.path}:{d.line}:{d.column}: {d.code}" for d in load_workspace(ws).findings] == [
        "waivers.yaml:2:5: SCH003", "waivers.yaml:2:5: SCH003", "waivers.yaml:2:5: SCH003"]


def test_suppression_inside_a_block_scalar_is_text_not_a_comment(tmp_path: Path) -> None:
    """In a `>` block '#' is content: the comment suppresses nothing and is reported."""
    claim = ("    claim: >\n      Agent sessions run in VMs, which cannot be escaped.  "
             "# compliance: allow CLM006 -- sales wording\n")
    text = CONTROL.replace("    claim: Agent sessions run in single-use virtual machines.\n",
                           claim)
    ws = minimal(tmp_path, **{"controls/isolation.yaml": text})
    got = found(ws, ("SUP002", "CLM006"))
    assert [f.split(": ", 1)[1][:6] for f in got] == ["CLM006", "SUP002"]
    assert not any(f.endswith("[waived]") for f in got)
    # the same comment after a plain scalar is a comment, and it suppresses
    plain = CONTROL.replace(
        "    claim: Agent sessions run in single-use virtual machines.\n",
        "    claim: Agent sessions run in VMs, which cannot be escaped.  "
        "# compliance: allow CLM006 -- sales wording\n")
    (ws / "controls/isolation.yaml").write_text(plain)
    got = found(ws, ("SUP002", "CLM006"))
    assert len(got) == 1 and got[0].endswith("[waived]"), got


def test_inline_suppression_needs_reason(tmp_path: Path) -> None:
    text = WAIVED.replace("limits: []", "limits: []  # compliance: allow LIM001")
    ws = minimal(tmp_path, **{"controls/isolation.yaml": text})
    assert [f for f in found(ws) if "SUP001" in f] == [  # at the comment, not column 1
        "controls/isolation.yaml:8:17: SUP001 suppression of LIM001 has no reason; write "
        "`# compliance: allow CODE -- why this is acceptable`"]
    text = WAIVED.replace("limits: []", "limits: []  # compliance: allow LIM001 -- pilot only")
    (ws / "controls/isolation.yaml").write_text(text)
    assert found(ws) == [
        "controls/isolation.yaml:8:5: LIM001 control ISO-01 is deployed but states no limit; "
        "add the known limits it has (limits: [...]) so no output presents it as absolute "
        "[waived]"]


def test_system_sources_resolve(tmp_path: Path) -> None:
    assert "sources: [owasp-llm01]" in SYSTEM
