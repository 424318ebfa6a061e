"""The layer metrics on the example's bundled exports, and on edited copies of them."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from compliance.cli import cli
from compliance.pipeline import load_and_check

TODAY = dt.date(2026, 12, 1)


def example(repo: Path, dest: Path) -> Path:
    for name in ("controls", "evidence", "exercises"):
        shutil.copytree(repo / name, dest / name)
    shutil.copy(repo / "compliance.yaml", dest / "compliance.yaml")
    return dest


def repin(ws: Path) -> None:
    result = CliRunner().invoke(cli, ["evidence", "pin", str(ws)])
    assert result.exit_code == 0, result.output


def met(ws: Path) -> list[str]:
    checked = load_and_check(ws, TODAY)
    return [f"{d.path}:{d.line}:{d.column}: {d.code} {d.message}"
            for d in checked.result.findings if d.code.startswith("MET")]


def statuses(ws: Path) -> dict[str, tuple[str, float | None]]:
    practice = load_and_check(ws, TODAY).result.practice
    return {r.metric.id: (r.status, r.value) for r in practice.metrics}


def test_the_example_exports_stay_within_thresholds(repo: Path) -> None:
    assert statuses(repo) == {
        "MET-PR-SENSITIVE": ("within", 10.0),
        "MET-PR-PUSHBACK": ("within", 20.0),
        "MET-BLOCKED": ("within", 1.0),
        "MET-REVOKE": ("within", 1.5),
        "MET-ENV-AGE": ("within", 7),
        "MET-TOOLS": ("UNMEASURED", None),
    }
    assert met(repo) == [
        "controls/metrics.yaml:84:9: MET003 metric MET-TOOLS (most tools (MCP servers' tools "
        "included) any agent is given) is UNMEASURED: claude-code: a server exposes every tool "
        "it has, so the number of tools cannot be read from configuration"]


def test_check_prints_each_metric(repo: Path) -> None:
    result = CliRunner().invoke(cli, ["check", str(repo), "--today", TODAY.isoformat()])
    assert result.exit_code == 0
    assert ("metric MET-PR-PUSHBACK: 20% (at least 5%; within) in "
            "evidence/metrics/prs-2026-11.json") in result.stdout.splitlines()


def test_edited_exports_cross_every_threshold(repo: Path, tmp_path: Path) -> None:
    ws = example(repo, tmp_path / "ws")
    ev = ws / "evidence/metrics"
    prs = json.loads((ev / "prs-2026-11.json").read_text())
    for pr in prs:  # every agent PR touches CI and sails through review
        pr["files"].append({"path": ".github/workflows/ci.yml", "additions": 1, "deletions": 0})
        pr["state"] = "MERGED"
        pr["reviews"] = [{**r, "state": "APPROVED"} for r in pr["reviews"]] or [
            {"author": {"login": "bob"}, "state": "APPROVED"}]
    (ev / "prs-2026-11.json").write_text(json.dumps(prs, indent=2))
    squid = (ev / "squid-access-2026-11.log").read_text()
    denied = "1795690100.000      0 10.42.6.40 TCP_DENIED/403 3921 CONNECT evil.example:443 - " \
             "HIER_NONE/- text/html\n"
    (ev / "squid-access-2026-11.log").write_text(squid + denied * 20)
    rev = (ev / "revocations.yaml").read_text()
    (ev / "revocations.yaml").write_text(rev.replace("revoked: 2026-11-19T10:32:00Z",
                                                     "revoked: 2026-11-20T10:32:00Z"))
    imgs = (ev / "session-images.json").read_text()
    (ev / "session-images.json").write_text(imgs.replace('"built": "2026-11-20"',
                                                         '"built": "2026-09-01"'))
    (ev.parent / "claude/managed-mcp.json").write_text(json.dumps({"mcpServers": {
        f"s{i}": {"type": "local", "command": "x", "tools": [f"t{j}" for j in range(6)]}
        for i in range(4)}}))
    repin(ws)
    assert statuses(ws) == {
        "MET-PR-SENSITIVE": ("crossed", 100.0),
        "MET-PR-PUSHBACK": ("crossed", 0.0),
        "MET-BLOCKED": ("crossed", 23 / 3),
        "MET-REVOKE": ("crossed", 25.5),
        "MET-ENV-AGE": ("crossed", 87),
        "MET-TOOLS": ("crossed", 24),
    }
    found = met(ws)
    assert [f.split(": ", 1)[0] for f in found] == [
        "controls/metrics.yaml:55:10", "controls/metrics.yaml:64:10",
        "controls/metrics.yaml:70:10", "controls/metrics.yaml:76:10",
        "controls/metrics.yaml:81:10", "controls/metrics.yaml:87:10"]
    assert found[1] == (
        "controls/metrics.yaml:64:10: MET001 metric MET-PR-PUSHBACK (share of decided agent "
        "pull requests that were closed unmerged or got a change request (zero over a long "
        "period suggests rubber-stamping)) is 0% in evidence/metrics/prs-2026-11.json "
        "(collected 2026-11-27; 0 of 10 decided pull requests by acme-agent-bot closed unmerged "
        "or given a change request), beyond its threshold of at least 5%")
    result = CliRunner().invoke(cli, ["check", str(ws), "--today", TODAY.isoformat()])
    assert result.exit_code == 1


def test_no_data_is_unmeasured_never_zero(repo: Path, tmp_path: Path) -> None:
    ws = example(repo, tmp_path / "ws")
    (ws / "evidence/metrics/revocations.yaml").write_text("revocations: []\n")
    (ws / "evidence/metrics/prs-2026-11.json").write_text("[]\n")
    repin(ws)
    got = statuses(ws)
    assert got["MET-REVOKE"] == ("UNMEASURED", None)
    assert got["MET-PR-PUSHBACK"] == ("UNMEASURED", None)
    assert ("controls/metrics.yaml:73:9: MET003 metric MET-REVOKE (longest time from suspicion "
            "to revocation of a credential) is UNMEASURED: no revocation recorded") in met(ws)


def test_an_unreadable_export_is_an_error_at_its_line(repo: Path, tmp_path: Path) -> None:
    ws = example(repo, tmp_path / "ws")
    log = ws / "evidence/metrics/squid-access-2026-11.log"
    log.write_text(log.read_text() + "not a log line\n")
    prs = ws / "evidence/metrics/prs-2026-10.json"
    prs.write_text(prs.read_text().replace('"state": "MERGED"', '"state": "DONE"', 1))
    repin(ws)
    found = [f for f in met(ws) if " MET002 " in f]
    assert found == [
        "evidence/metrics/prs-2026-10.json:39:5: MET002 metric MET-PR-PUSHBACK: state 'DONE' "
        "is not OPEN, CLOSED or MERGED",
        "evidence/metrics/prs-2026-10.json:39:5: MET002 metric MET-PR-SENSITIVE: state "
        "'DONE' is not OPEN, CLOSED or MERGED",
        "evidence/metrics/squid-access-2026-11.log:8:1: MET002 metric MET-BLOCKED: not a "
        "squid access log line (time elapsed client code/status bytes method URL ...)"]


def test_report_shows_metrics_with_a_trend_chart(repo: Path) -> None:
    from compliance.render.build_context import build_context
    from compliance.render.documents import render_report_html
    from compliance.render.env import make_env

    checked = load_and_check(repo, TODAY)
    html = render_report_html(make_env(repo), build_context(checked))
    again = render_report_html(make_env(repo), build_context(load_and_check(repo, TODAY)))
    assert html == again
    section = html.split('<section class="metrics" id="metrics">', 1)[1].split("</section>")[0]
    assert section.count("<svg ") == 3  # the metrics with two exports; one export: no trend
    assert '<td class="metric-status unmeasured">UNMEASURED</td>' in section
    assert "<td>10%</td>" in section and "<td>at most 25%</td>" in section


def test_the_pack_findings_carry_the_metrics(repo: Path) -> None:
    from compliance.formats import format_json
    from compliance.report import make_report

    doc = json.loads(format_json(make_report(load_and_check(repo, TODAY))))
    assert [m["id"] for m in doc["metrics"]] == [
        "MET-PR-SENSITIVE", "MET-PR-PUSHBACK", "MET-BLOCKED", "MET-REVOKE", "MET-ENV-AGE",
        "MET-TOOLS"]
    assert doc["metrics"][-1]["value"] is None and "_metric_lines" not in doc
