"""`compliance tabletop` on the example workspace and on copies of it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from compliance.cli import cli
from compliance.model import Layer
from compliance.pipeline import load_and_check
from compliance.practice.worksheet import trace_view

TODAY = "2026-12-01"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def copy_example(repo: Path, dest: Path) -> Path:
    for name in ("controls", "evidence", "exercises", "compliance.yaml"):
        src = repo / name
        if src.is_dir():
            shutil.copytree(src, dest / name)
        else:
            shutil.copy(src, dest / name)
    return dest


def remove_control(ws: Path, file: str, control_id: str) -> None:
    """Delete one control's item from a controls file (items start at '  - id:')."""
    path = ws / "controls" / file
    text = path.read_text(encoding="utf-8")
    head, _, rest = text.partition("controls:\n")
    items = rest.split("\n  - id: ")
    kept = [it for it in items if not it.lstrip("- id:").startswith(control_id + "\n")]
    assert len(kept) == len(items) - 1, f"{control_id} not found in {file}"
    path.write_text(head + "controls:\n" + "\n  - id: ".join(kept), encoding="utf-8")


def test_readme_injection_is_traced_through_all_six_layers(repo: Path) -> None:
    import datetime as dt

    checked = load_and_check(repo, dt.date(2026, 12, 1))
    trace = checked.result.practice.trace("readme-injection")
    assert trace is not None
    view = trace_view(trace)
    assert [s.id for s in view.steps] == [
        "read-readme", "edit-workflow", "open-pull-request", "pass-review", "run-on-main"]
    for step in view.steps:
        assert [c.layer for c in step.layers] == [layer.label for layer in Layer]
    # GIT-02 would stop pass-review, but the step exploits its own limit (review is only as
    # good as the reviewer): the step is limited by it, not stopped, and so is the path.
    assert [s.outcome for s in view.steps] == [
        "passes", "passes", "made harder", "limited", "made harder"]
    assert trace.stoppers == ()
    assert trace.limiters == ("GIT-02",)
    assert trace.outcome == "limited"
    assert trace.single_points_of_failure == ()
    assert set(trace.hardeners) == {"CRED-01", "GIT-03", "GIT-01", "GIT-02", "PIPE-03",
                                    "PIPE-02"}
    review = next(s for s in view.steps if s.id == "pass-review")
    git = next(c for c in review.layers if c.layer == Layer.GIT.label)
    assert git.acts == (
        "GIT-01 Reviewed pull requests only on main, admins included (branch-protection, "
        "VERIFIED): makes it harder",
        "GIT-02 Application security owns workflows and agent configuration (human-review, "
        "VERIFIED): would stop it, but its limit review-quality-matters applies to what this "
        "step exploits: only makes it harder")
    assert [lim.split(":")[0] for lim in review.limits] == [
        "review-quality-matters", "gate-runs-pr-version"]
    logs = next(c for c in review.layers if c.layer == Layer.LOGS.label)
    assert logs.acts[0].startswith("look for: the review and merge events of the pull request "
                                   "(session record: LOG-01, deployed, VERIFIED")
    isolation = next(c for c in view.steps[0].layers if c.layer == Layer.ISOLATION.label)
    assert isolation.acts[0] == ("ISO-01 (microvm-isolation, VERIFIED): does not act; its limit "
                                 "isolation-does-not-stop-injection is on the path")


def test_tabletop_command_prints_the_trace_and_exits_0(repo: Path) -> None:
    """Exit 0: the example's paths are LIMITED (tabletop_limited: info), none passes."""
    code, out, err = run("tabletop", "readme-injection", "-w", str(repo), "--today", TODAY)
    assert (code, err) == (0, "")
    assert out.startswith("tabletop: readme-injection: Injected instruction in a dependency's "
                          "README edits a workflow\n")
    assert "step 4 pass-review: LIMITED\n" in out
    assert "STOPPED" not in out
    assert ("outcome: LIMITED. The path is not stopped: at step pass-review, GIT-02 would stop "
            "it, but its limit review-quality-matters applies to what that step exploits, so it "
            "only makes it harder; CRED-01, GIT-03, GIT-01, PIPE-03, PIPE-02 only make it harder "
            "too.\n") in out
    assert "  - Which missing control would have let it through?\n" \
           "    the model says: None is needed: no control stops the path; GIT-02 would, but " \
           "for a limit of its own that the path exploits.\n" in out


def test_summary_lists_every_builtin_scenario(repo: Path) -> None:
    code, out, _ = run("tabletop", "-w", str(repo), "--today", TODAY)
    assert code == 0
    ids = [line.split(":")[0] for line in out.splitlines()[:-1]]
    assert sorted(ids) == sorted([
        "readme-injection", "readme-injection-pr-run", "leaked-session-token",
        "malicious-mcp-server", "exfiltration-allowed-destination", "poisoned-dependency",
        "isolation-escape"])
    assert ("readme-injection: LIMITED by GIT-02: its own limit applies to what the path "
            "exploits (") in out
    assert ("isolation-escape: LIMITED by ISO-01: its own limit applies to what the path "
            "exploits (") in out
    # a need against a control has one outcome in every scenario: reading a credential is
    # limited by CRED-02's readable-by-agent-commands, reaching a host by NET-01's DNS channel
    assert ("poisoned-dependency: LIMITED by CRED-02, NET-01, NET-02, ISO-02: each one's own "
            "limit applies to what the path exploits (") in out
    assert ("malicious-mcp-server: LIMITED by CRED-02, NET-01, NET-02: each one's own limit "
            "applies to what the path exploits (") in out
    assert "STOPPED" not in out


def test_the_limits_a_need_always_exploits_hold_in_every_scenario(repo: Path) -> None:
    """malicious-mcp-server was STOPPED by CRED-02 and NET-01 while leaked-session-token,
    with the same needs, was LIMITED by the same controls' limits."""
    from compliance.model.practice import NEED_EXPLOITS, Need
    from compliance.pipeline import load_and_check
    from compliance.practice.trace import trace_all

    checked = load_and_check(repo)
    assert checked.workspace.model is not None
    outcomes: dict[tuple[str, str], set[str]] = {}
    for t in trace_all(checked.workspace.model, checked.result.verdicts):
        for step in t.steps:
            for act in step.acts:
                for need in act.needs:
                    if need in NEED_EXPLOITS:
                        outcomes.setdefault((need.value, act.control), set()).add(
                            "stops" if act.counts else "limited" if act.limits_it else "harder")
    assert outcomes[(Need.EGRESS_TO_HOST.value, "NET-01")] == {"limited"}
    assert outcomes[(Need.READ_SECRET.value, "CRED-02")] == {"limited"}
    assert all(len(seen) == 1 for seen in outcomes.values()), outcomes


def test_a_step_no_limit_covers_is_stopped(repo: Path, tmp_path: Path) -> None:
    ws = copy_example(repo, tmp_path / "ws")
    (ws / "scenarios").mkdir()
    (ws / "scenarios" / "merge.yaml").write_text(
        "scenarios:\n  - id: unreviewed-merge\n    title: A change is merged without review\n"
        "    summary: The agent's change reaches the default branch unreviewed.\n"
        "    steps:\n      - id: merge\n        action: The agent merges its own pull request.\n"
        "        needs: [merge-without-review]\n        trail: the merge event\n",
        encoding="utf-8")
    code, out, _ = run("tabletop", "-w", str(ws), "--today", TODAY)
    assert code == 0
    assert "unreviewed-merge: STOPPED by GIT-01, GIT-02 (A change is merged without review)" \
        in out.splitlines()


def test_without_the_workflow_gate_the_path_passes_and_check_fails(
        repo: Path, tmp_path: Path) -> None:
    ws = copy_example(repo, tmp_path / "ws")
    remove_control(ws, "git.yaml", "GIT-02")
    code, out, _ = run("tabletop", "readme-injection", "-w", str(ws), "--today", TODAY)
    assert code == 1
    assert "step 4 pass-review: MADE HARDER\n" in out
    assert ("outcome: PASSES. The path passes: no deployed, verified control stops any step; "
            "CRED-01, GIT-03, GIT-01, PIPE-03, PIPE-02 only make it harder.\n") in out
    code, out, _ = run("check", str(ws), "--today", TODAY)
    assert code == 1
    ttx = [line for line in out.splitlines() if "[TTX001]" in line and " error " in line]
    assert ttx == [
        "controls/system.yaml:4:1: error tabletop scenario 'readme-injection' (Injected "
        "instruction in a dependency's README edits a workflow) passes: no deployed, verified "
        "control stops any of its 5 steps; CRED-01, GIT-03, GIT-01, PIPE-03, PIPE-02 only make "
        "it harder (see `compliance tabletop readme-injection`) [TTX001]"]


def test_an_unverified_stop_does_not_count(repo: Path, tmp_path: Path) -> None:
    ws = copy_example(repo, tmp_path / "ws")
    git = ws / "controls/git.yaml"
    git.write_text(git.read_text().replace("verified_by: [CFG017]", "verified_by: []"))
    code, out, _ = run("tabletop", "readme-injection", "-w", str(ws), "--today", TODAY)
    assert code == 1
    assert ("GIT-02 Application security owns workflows and agent configuration (human-review, "
            "UNVERIFIED): would stop, but is UNVERIFIED: only makes it harder") in out


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_worksheet_is_written_reproducibly(repo: Path, tmp_path: Path, fmt: str) -> None:
    outs = []
    for n in (1, 2):
        out = tmp_path / f"w{n}.{fmt}"
        code, stdout, _ = run("tabletop", "readme-injection", "-w", str(repo), "--worksheet",
                              fmt, "--out", str(out), "--today", TODAY)
        assert (code, stdout) == (0, f"wrote {out}\n")
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    text = outs[0].decode()
    for question in ("What did the sandbox do?", "What did the gate do?", "What did review do?",
                     "What would the logs show afterwards?",
                     "Which missing control would have let it through?"):
        assert question in text
    assert "GIT-02 would, but for a limit of its own that the path exploits." in text


def test_unknown_scenario_is_a_usage_error(repo: Path) -> None:
    code, out, err = run("tabletop", "nosuch", "-w", str(repo), "--today", TODAY)
    assert code == 2 and out == ""
    assert err.startswith("error: no scenario 'nosuch'; known: ")


def test_worksheet_needs_out(repo: Path) -> None:
    code, _, err = run("tabletop", "readme-injection", "-w", str(repo), "--worksheet", "md")
    assert code == 2 and "--worksheet needs --out FILE" in err


def test_report_has_the_tabletop_section_of_the_example(repo: Path) -> None:
    import datetime as dt

    from compliance.render.build_context import build_context
    from compliance.render.documents import render_report_html
    from compliance.render.env import make_env

    checked = load_and_check(repo, dt.date(2026, 12, 1))
    html = render_report_html(make_env(repo), build_context(checked))
    section = html.split('<section class="tabletop" id="tabletop">', 1)[1].split("</section>")[0]
    assert '<article class="scenario" id="tabletop-readme-injection">' in section
    assert ("The path is not stopped: at step pass-review, GIT-02 would stop it, but its "
            "limit review-quality-matters applies to what that step exploits") in section
    assert "not counted (a limit of its own applies): GIT-02" in section
    assert "<td>2026-11-24</td><td>readme-injection</td>" in section
    assert "Discussion questions" not in section  # only the worksheet asks them


def test_worksheet_with_notes_is_kept_unless_force(repo: Path, tmp_path: Path) -> None:
    """The worksheet is where an exercise's notes go; writing it again must not lose them."""
    out = tmp_path / "w.md"
    args = ("tabletop", "readme-injection", "-w", str(repo), "--worksheet", "md",
            "--out", str(out), "--today", TODAY)
    assert run(*args)[0] == 0
    assert run(*args)[:2] == (0, f"wrote {out}\n")  # the same worksheet again: no change
    blank = out.read_bytes()
    out.write_bytes(blank + b"\nNotes: the gate held.\n")
    code, stdout, stderr = run(*args)
    assert (code, stdout, stderr) == (
        2, "", f"error: cannot write {out}: it exists and differs from what this run would "
               "write, so edits in it would be lost; nothing was written (pass --force to "
               "replace it, or choose another --out)\n")
    assert out.read_bytes().endswith(b"Notes: the gate held.\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.md"]
    assert run(*args, "--force")[0] == 0 and out.read_bytes() == blank


def test_a_stop_the_step_gets_past_through_the_controls_own_limit_is_limited(
        repo: Path, tmp_path: Path) -> None:
    """isolation-escape exploits depends-on-host-configuration; ISO-01's own limit
    (microvm-depends-on-host) says a hypervisor escape reaches other sessions. ISO-01 is not
    reported as stopping the escape, and check says so (at the workspace's level)."""
    code, out, _ = run("tabletop", "isolation-escape", "-w", str(repo), "--today", TODAY)
    assert code == 0
    assert "step 2 escape: LIMITED\n" in out
    assert ("ISO-01 Firecracker microVMs for agent sessions (microvm-isolation, VERIFIED): would "
            "stop it, but its limit microvm-depends-on-host applies to what this step exploits: "
            "only makes it harder") in out
    assert "STOPPED" not in out and ": stops" not in out
    ws = copy_example(repo, tmp_path / "ws")
    settings = ws / "compliance.yaml"
    settings.write_text(settings.read_text().replace("tabletop_limited: info",
                                                     "tabletop_limited: error"))
    code, out, _ = run("tabletop", "isolation-escape", "-w", str(ws), "--today", TODAY)
    assert code == 1
    code, out, _ = run("check", str(ws), "--today", TODAY)
    assert code == 1
    assert ("controls/system.yaml:4:1: error tabletop scenario 'isolation-escape' (Code in the "
            "session escapes its runtime) is not stopped: at step escape, ISO-01 would stop it, "
            "but its limit microvm-depends-on-host applies to what that step exploits; no other "
            "deployed, verified control stops any of its 3 steps (see `compliance tabletop "
            "isolation-escape`) [TTX001]") in out.splitlines()


@pytest.mark.parametrize("scenario", ["readme-injection", "isolation-escape",
                                      "leaked-session-token", "poisoned-dependency",
                                      "malicious-mcp-server", "exfiltration-allowed-destination",
                                      "readme-injection-pr-run"])
def test_the_worksheet_passes_the_claims_judge(repo: Path, tmp_path: Path, scenario: str) -> None:
    """The worksheet's own words are claims about the sandbox too: `compliance lint` finds no
    overclaim in the rendered worksheet of the example (it used to say the escape was
    'STOPPED' by ISO-01, and read 'Network egress | no control ...' as 'no egress')."""
    out = tmp_path / "worksheet.md"
    code, _, _ = run("tabletop", scenario, "-w", str(repo), "--worksheet", "md", "--out",
                     str(out), "--today", TODAY)
    assert code == 0
    code, stdout, _ = run("lint", str(out))
    # No claim rule matches. The learned second opinion (CLM010, a warning that asks a
    # person) reads two attacker needs ("the step leaves no record that reconstructs it")
    # as claims at the time of writing; it may warn, no more than on two lines.
    warned = [ln for ln in stdout.splitlines() if ": warning " in ln]
    assert code == 0 and (" 0 errors" in stdout or stdout.endswith("no rule matched\n")), stdout
    assert all(ln.endswith("[CLM010]") for ln in warned) and len(warned) <= 2, stdout
