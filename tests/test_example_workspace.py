"""The example workspace at the repository root: it loads, passes, and stays honest.

The check runs as of a fixed date (AS_OF, the day the evidence was last
reviewed and re-collected) so the test does not start failing when the
evidence ages; `compliance check .` without --today reports that ageing.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from compliance.cli import cli
from compliance.load import load_workspace
from compliance.model import Layer, Model, Status

from .conftest import REPO

AS_OF = "2026-11-30"


def _model() -> Model:
    ws = load_workspace(REPO)
    assert ws.findings == []
    assert ws.model is not None
    return ws.model


def _check_json() -> tuple[int, dict]:
    result = CliRunner().invoke(cli, ["check", str(REPO), "--format", "json",
                                      "--today", AS_OF])
    return result.exit_code, json.loads(result.stdout)


#: No findings. Three evidence files are in in-house formats (the credential proxy's,
#: the OpenTelemetry collector's configuration, the bucket policy) and are marked
#: `kind: opaque`: pinned and packed as the honest record of how the claims are
#: implemented, read by no adapter, so the claims resting only on them stay UNVERIFIED.
#: One note (info), no failure: the tools-per-agent metric, UNMEASURED (never zero)
#: because Claude Code MCP configuration cannot tell how many tools a server exposes.
#: Seven more notes: the tabletop paths that are LIMITED, not stopped (TTX001 at the level
#: compliance.yaml gives them, info): a verified control would stop a step of each but for
#: its own stated limit, which the step exploits.
#: Four warnings (VRF004, at the `unverified` level compliance.yaml sets): the claims of
#: GIT-03, LOG-02 and PIPE-03 and three parts of CRED-01's, which no configuration check
#: covers (the files they rest on are in-house formats no check reads). CRED-01 is PARTLY
#: VERIFIED (its verdict and the summary line say so); its VRF004 warning is its one
#: finding, since every part left open is one no check covers (no VRF001 note repeating it).
PARTLY = ("CRED-01",)
# Every built-in scenario: each verified control that would stop a step has a limit that
# applies to it (malicious-mcp-server and poisoned-dependency were STOPPED until the
# limits a need always exploits, NEED_EXPLOITS, were added: reads past the Bash sandbox,
# DNS).
UNCOVERED = [("controls/credentials.yaml", 9, 12, "CRED-01"),
             ("controls/git.yaml", 68, 12, "GIT-03"),
             ("controls/logs.yaml", 36, 12, "LOG-02"),
             ("controls/pipeline.yaml", 67, 12, "PIPE-03")]
LIMITED = ("exfiltration-allowed-destination", "isolation-escape", "leaked-session-token",
           "malicious-mcp-server", "poisoned-dependency", "readme-injection",
           "readme-injection-pr-run")
EXPECTED_FINDINGS: list[tuple[str, int, int, str, str, str]] = [
    ("controls/metrics.yaml", 84, 9, "MET003", "info", "metric MET-TOOLS (most tools (MCP "
     "servers' tools included) any agent is given) is UNMEASURED")]
TABLETOP_NOTES = [("controls/system.yaml", 4, 1, "TTX001", "info", f"tabletop scenario {s!r}")
                  for s in LIMITED]


def test_example_workspace_check_passes_with_exact_summary() -> None:
    code, report = _check_json()
    assert report["summary"] == {"error": 0, "warning": 4, "info": 8, "waived": 0}
    notes = [f for f in report["findings"] if f["code"] != "VRF004"]
    got = [(f["path"], f["line"], f["column"], f["code"], f["level"],
            f["message"].split(":", 1)[0].removeprefix("evidence ")) for f in notes]
    assert got[:1] == EXPECTED_FINDINGS
    assert [(*g[:5], g[5].split(" (", 1)[0]) for g in got[1:]] == TABLETOP_NOTES
    assert all(" is not stopped: " in f["message"] for f in notes[1:])
    assert [(f["path"], f["line"], f["column"], f["level"], f["message"].split()[2])
            for f in report["findings"] if f["code"] == "VRF004"] == [
        (*where, "warning", cid) for *where, cid in UNCOVERED]
    assert report["ok"] is True
    assert code == 0


def test_example_workspace_verdicts_in_the_json_output() -> None:
    _code, report = _check_json()
    got = {cid: v["status"] for cid, v in report["verdicts"].items()}
    assert got == EXPECTED_VERDICTS


def test_example_workspace_text_output_ends_with_a_clean_summary() -> None:
    result = CliRunner().invoke(cli, ["check", str(REPO), "--today", AS_OF])
    lines = result.stdout.splitlines()
    assert result.exit_code == 0
    assert lines[-1] == ("0 errors, 4 warnings; claims: 10 verified, 1 partly verified, "
                         "3 unverified, 0 refuted")
    assert lines[0].split(": ", 1)[1].startswith("warning claim of CRED-01 is partly "
                                                 "unverified: no configuration check covers")
    assert not any("[VRF001]" in line for line in lines)  # VRF004 is its one finding
    findings = 1 + len(UNCOVERED) + len(LIMITED)  # VRF004s, MET003, TTX001s
    assert [line.split(":")[0] for line in lines[findings:-1]] == [
        f"metric {m.id}" for m in _model().metrics]  # after the findings


def test_model_is_split_into_files_with_schema_line() -> None:
    files = sorted(p.name for p in (REPO / "controls").glob("*.yaml"))
    assert files == ["credentials.yaml", "evidence.yaml", "git.yaml", "isolation.yaml",
                     "limits.yaml", "logs.yaml", "metrics.yaml", "network.yaml", "pipeline.yaml",
                     "sources.yaml", "system.yaml"]
    for name in files:
        first = (REPO / "controls" / name).read_text(encoding="utf-8").splitlines()[0]
        assert first == ("# yaml-language-server: "
                         "$schema=../compliance/schema/controls.schema.json"), name


def test_every_layer_has_a_deployed_control() -> None:
    model = _model()
    deployed = {c.layer for c in model.controls if c.status is Status.DEPLOYED}
    assert deployed == set(Layer)


def test_every_deployed_control_has_limits_with_sources_and_a_stance_clause() -> None:
    model = _model()
    limits = {lim.id: lim for lim in model.limits}
    sources = {s.id for s in model.sources}
    for c in model.controls:
        if c.status is Status.PLANNED:
            continue
        assert c.limits, c.id
        for lid in c.limits:
            assert limits[lid].sources, (c.id, lid)
            assert set(limits[lid].sources) <= sources, (c.id, lid)
        if c.status is Status.DEPLOYED:
            assert c.stance_clause, c.id


def test_controls_cite_evidence_and_honest_unverified_controls_are_present() -> None:
    model = _model()
    assert all(c.evidence for c in model.controls)
    unverifiable = sorted(c.id for c in model.controls if c.verified_by == [])
    assert unverifiable == ["GIT-03", "LOG-02", "PIPE-03"]
    assert model.control("LOG-02").status is Status.PARTIAL  # type: ignore[union-attr]


def test_every_evidence_file_is_pinned_and_the_pin_matches() -> None:
    model = _model()
    on_disk = sorted(p.relative_to(REPO / "evidence").as_posix()
                     for p in (REPO / "evidence").rglob("*") if p.is_file())
    assert sorted(ev.path for ev in model.evidence) == on_disk
    for ev in model.evidence:
        data = (REPO / "evidence" / ev.path).read_bytes()
        assert ev.sha256 == hashlib.sha256(data).hexdigest(), ev.path


def test_evidence_is_within_its_max_age_as_of_the_review_date() -> None:
    model = _model()
    as_of = dt.date.fromisoformat(AS_OF)
    for ev in model.evidence:
        assert ev.collected <= as_of, ev.id
        assert (as_of - ev.collected).days <= ev.max_age_days, ev.id


def test_firewall_script_has_none_of_the_upstream_holes() -> None:
    script = (REPO / "evidence" / "devcontainer" / "init-firewall.sh").read_text("utf-8")
    rules = [line.strip() for line in script.splitlines() if line.strip().startswith("iptables")]
    assert "iptables -A OUTPUT -p udp --dport 53 -j ACCEPT" not in rules
    assert not [r for r in rules if "--dport 22" in r]
    dns = [r for r in rules if "--dport 53" in r]
    assert dns == ['iptables -A OUTPUT -p udp -d "$RESOLVER_IP" --dport 53 -j ACCEPT',
                   'iptables -A OUTPUT -p tcp -d "$RESOLVER_IP" --dport 53 -j ACCEPT']
    assert "api.github.com/meta" not in script
    assert rules[-1] == "iptables -A OUTPUT -j REJECT --reject-with icmp-admin-prohibited"


#: Control -> verdict of its configuration checks over its own cited evidence.
#: A claim is VERIFIED only when a check verifies every part; CRED-01's other parts rest
#: on the credential proxy's configuration, which no check reads.
EXPECTED_VERDICTS = {
    "ISO-01": "verified", "ISO-02": "verified", "NET-01": "verified", "NET-02": "verified",
    "CRED-01": "partly-verified", "CRED-02": "verified", "GIT-01": "verified",
    "GIT-02": "verified", "GIT-03": "unverified", "PIPE-01": "verified",
    "PIPE-02": "verified", "PIPE-03": "unverified", "LOG-01": "verified",
    "LOG-02": "unverified",
}


def test_config_checks_verify_each_claim_from_its_cited_evidence() -> None:
    from compliance.adapters import EvidenceDoc, UnrecognisedEvidence, parse_evidence
    from compliance.rules.config import evaluate

    model = _model()
    evidence = {ev.id: ev for ev in model.evidence}
    got = {}
    for c in model.controls:
        docs: list[EvidenceDoc] = []
        for eid in c.evidence:
            ev = evidence[eid]
            try:
                docs.append(parse_evidence(REPO / "evidence" / ev.path, f"evidence/{ev.path}",
                                           ev.kind))
            except UnrecognisedEvidence:
                continue  # e.g. the in-house proxy config: no adapter, no verdict from it
        # Every check a control lists verifies (nothing in the example is refuted); a part is
        # verified when it lists at least one check, so the claim is verified when all are.
        parts = [a.verified_by for a in c.assertions] if c.assertions else [c.verified_by or []]
        verdicts = {code: evaluate(code, docs).status.value for codes in parts for code in codes}
        assert all(v == "verified" for v in verdicts.values()), (c.id, verdicts)
        checked = [bool(codes) for codes in parts]
        got[c.id] = ("verified" if all(checked) else "partly-verified" if any(checked)
                     else "unverified")
    assert got == EXPECTED_VERDICTS


def _copy_workspace(dest: Path) -> Path:
    for folder in ("controls", "evidence"):
        shutil.copytree(REPO / folder, dest / folder)
    return dest


def _errors(root: Path) -> tuple[int, list[tuple[str, int, str]]]:
    result = CliRunner().invoke(cli, ["check", str(root), "--format", "json", "--today", AS_OF])
    report = json.loads(result.stdout)
    return result.exit_code, sorted((f["path"], f["line"], f["code"])
                                    for f in report["findings"] if f["level"] == "error")


def test_contradicting_an_evidence_file_refutes_the_claim_and_makes_it_stale(
        tmp_path: Path) -> None:
    root = _copy_workspace(tmp_path)
    settings = root / "evidence" / "claude" / "managed-settings.json"
    text = settings.read_text(encoding="utf-8")
    assert text.count('"failIfUnavailable": true') == 1
    settings.write_text(text.replace('"failIfUnavailable": true', '"failIfUnavailable": false'),
                        encoding="utf-8")
    code, errors = _errors(root)
    assert code == 1
    # ISO-02's claim is refuted (CFG001) at its claim; every claim resting on the file is stale.
    assert errors == [
        ("controls/credentials.yaml", 9, "EVD003"),
        ("controls/credentials.yaml", 52, "EVD003"),
        ("controls/isolation.yaml", 37, "CFG001"),
        ("controls/isolation.yaml", 37, "EVD003"),
        ("controls/logs.yaml", 9, "EVD003"),
        ("controls/network.yaml", 48, "EVD003"),
    ]


def test_an_ssh_hole_in_the_firewall_refutes_the_allowlist_claim(tmp_path: Path) -> None:
    root = _copy_workspace(tmp_path)
    script = root / "evidence" / "devcontainer" / "init-firewall.sh"
    text = script.read_text(encoding="utf-8")
    hole = "iptables -A OUTPUT -p tcp --dport 22 -j ACCEPT\n"
    script.write_text(text.replace("# Package registries:", hole + "# Package registries:"),
                      encoding="utf-8")
    code, errors = _errors(root)
    assert code == 1
    assert errors == [
        ("controls/network.yaml", 9, "CFG008"),  # NET-01's second part: no SSH
        ("controls/network.yaml", 9, "EVD003"),
        ("controls/network.yaml", 48, "CFG008"),
        ("controls/network.yaml", 48, "EVD003"),
    ]


_REGISTRY_RULE = ("iptables -A OUTPUT -p tcp --dport 443 -m set --match-set agent-allow dst "
                  "-j ACCEPT\n")


@pytest.mark.parametrize(("old", "new", "line"), [
    (_REGISTRY_RULE, "iptables -A OUTPUT -p tcp -j ACCEPT\n", 61),
    (_REGISTRY_RULE, "iptables -A OUTPUT -p tcp --dport 443 -j ACCEPT\n", 61),
    (_REGISTRY_RULE, "iptables -A OUTPUT -p tcp --dport 443 -d 0.0.0.0/0 -j ACCEPT\n", 61),
    ('echo "Firewall configured', 'iptables -I OUTPUT -j ACCEPT\necho "Firewall configured', 80),
    (_REGISTRY_RULE, _REGISTRY_RULE.replace(" dst ", " src "), 61),
], ids=["all-tcp", "https-no-ipset", "https-0.0.0.0/0", "insert-accept-all", "set-as-source"])
def test_an_accept_to_any_host_refutes_default_deny_and_the_allowlist(
        tmp_path: Path, old: str, new: str, line: int) -> None:
    """The new-user trial's edits: each accepted all TCP, all HTTPS or everything and was
    reported VERIFIED; each is refuted at the rule's own line."""
    root = _copy_workspace(tmp_path)
    script = root / "evidence" / "devcontainer" / "init-firewall.sh"
    text = script.read_text(encoding="utf-8")
    assert text.count(old) == 1
    script.write_text(text.replace(old, new), encoding="utf-8")
    assert script.read_text(encoding="utf-8").splitlines()[line - 1] == new.split("\n")[0]
    result = CliRunner().invoke(cli, ["check", str(root), "--format", "json",
                                      "--today", AS_OF])
    assert result.exit_code == 1
    verdicts = json.loads(result.stdout)["verdicts"]
    for control, code in (("NET-01", "CFG007"), ("NET-01", "CFG008"), ("NET-02", "CFG008")):
        check = next(a for a in verdicts[control]["assertions"] if code in a["checks"])
        assert check["status"] == "refuted"
        assert f"evidence/devcontainer/init-firewall.sh:{line} iptables" in check["message"]


_PULL = "          imagePullPolicy: IfNotPresent\n"
_HOME_VOLUME = "        - name: home\n          emptyDir:\n            sizeLimit: 2Gi\n"


@pytest.mark.parametrize(("edits", "refuting"), [
    ([(_PULL, _PULL + "          envFrom:\n            - secretRef:\n"
                      "                name: prod-aws-keys\n"),
      ("automountServiceAccountToken: false", "automountServiceAccountToken: true")],
     [38, 54]),
    ([("              mountPath: /home/agent\n", "              mountPath: /home/agent\n"
       "            - name: aws\n              mountPath: /home/agent/.aws\n"),
      (_HOME_VOLUME, _HOME_VOLUME + "        - name: aws\n          secret:\n"
                                    "            secretName: prod-aws-credentials\n")],
     [74]),
    ([(_PULL, _PULL + "          env:\n            - name: GH\n"
                      "              value: ghp_abcdefghijklmnopqrstuvwxyz0123456789\n")],
     [55]),
    ([("      automountServiceAccountToken: false\n", "")], []),
], ids=["envFrom-secret-and-token", "secret-volume-at-aws", "token-literal", "token-unset"])
def test_a_secret_handed_to_the_pod_is_not_verified(
        tmp_path: Path, edits: list[tuple[str, str]], refuting: list[int]) -> None:
    """The new-user trial's edits to the session Job: each was VERIFIED ("no container env
    variable ... is named like a secret"); each is refuted at its line, and an unset
    automountServiceAccountToken (Kubernetes' default is true) is not verified."""
    root = _copy_workspace(tmp_path)
    job = root / "evidence" / "isolation" / "agent-session.yaml"
    text = job.read_text(encoding="utf-8")
    for old, new in edits:
        assert text.count(old) == 1
        text = text.replace(old, new)
    job.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", str(root), "--format", "json",
                                      "--today", AS_OF])
    verdict = json.loads(result.stdout)["verdicts"]["CRED-01"]
    part = verdict["assertions"][0]
    got = [r["line"] for r in verdict["checks"]["CFG013"]["reasons"] if r["refutes"]
           and r["path"] == "evidence/isolation/agent-session.yaml"]
    assert part["status"] == ("refuted" if refuting else "unverified"), part["message"]
    assert got == refuting
    if not refuting:
        assert "does not set automountServiceAccountToken" in part["message"]


def test_the_claims_judge_finds_no_overclaim_in_the_example_prose() -> None:
    from compliance.rules.claims import judge_text

    model = _model()
    texts = [("system", "scope", model.system.scope)]
    for c in model.controls:
        for name in ("claim", "stance_clause", "implementation", "residual_risk"):
            value = getattr(c, name)
            if value:
                texts.append((c.id, name, value))
    texts += [(lim.id, "text", lim.text) for lim in model.limits]
    assert len(texts) == 1 + 14 * 3 + 13 + 15  # scope, 3 fields x 14, 13 clauses, 15 limits
    found = [(item, name, value[o.start:o.end], o.code)
             for item, name, value in texts for o in judge_text(value)]
    assert found == []


def test_aged_evidence_verifies_no_claim_so_no_tabletop_path_is_stopped() -> None:
    result = CliRunner().invoke(cli, ["check", str(REPO), "--format", "json",
                                      "--today", "2027-06-01"])
    report = json.loads(result.stdout)
    # 22 aged evidence files (EVD005, a warning in the example); the last tabletop exercise
    # (2026-11-24) and the last drill (2026-11-20) are older than their 180-day intervals
    # (TTX003, DRL002 per layer); the four claims (or parts) no check covers (VRF004). No
    # claim rests on evidence within its max_age_days, so none is VERIFIED (nor CRED-01
    # PARTLY VERIFIED), and no verified control stops any of the seven tabletop paths
    # (TTX001, errors): check exits 1 until the evidence is re-exported and re-pinned.
    assert result.exit_code == 1
    assert report["summary"] == {"error": 7, "warning": 33, "info": 1, "waived": 0}
    assert {v["status"] for v in report["verdicts"].values()} == {"unverified"}
    assert report["verdicts"]["ISO-02"]["too_old"] == ["claude-managed-settings"]
    assert sorted(f["code"] for f in report["findings"] if f["level"] == "error") == \
        ["TTX001"] * 7
    assert sorted(f["code"] for f in report["findings"]
                  if f["code"][:3] in ("TTX", "DRL") and f["level"] == "warning") \
        == ["DRL002"] * 6 + ["TTX003"]
    warned = sorted(f["message"].split()[1] for f in report["findings"]
                    if f["level"] == "warning" and f["code"] == "EVD005")
    assert warned == sorted(ev.id for ev in _model().evidence)
