"""Layer drills: records, DRL001/DRL002, a failed drill outranking a passing check, the kit."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

from click.testing import CliRunner

from compliance.cli import cli
from compliance.pipeline import load_and_check
from tests.workspaces import minimal

TODAY = dt.date(2026, 12, 1)


def example(repo: Path, dest: Path) -> Path:
    for name in ("controls", "evidence", "exercises", "drills"):
        shutil.copytree(repo / name, dest / name)
    shutil.copy(repo / "compliance.yaml", dest / "compliance.yaml")
    return dest


def drl(ws: Path, today: dt.date = TODAY) -> list[str]:
    """The drill, reference, schema and tabletop findings (not the example's notes that its
    LIMITED paths are not stopped: TTX001 at info, see compliance.yaml)."""
    return [f"{d.path}:{d.line}:{d.column}: {d.code} {d.message}"
            for d in load_and_check(ws, today).result.findings
            if d.code.startswith(("DRL", "REF", "TTX", "SCH")) and d.level.value != "info"]


def test_the_example_drill_passes_every_layer(repo: Path) -> None:
    assert drl(repo) == []


def test_a_failed_drill_outranks_a_passing_check(repo: Path, tmp_path: Path) -> None:
    ws = example(repo, tmp_path / "ws")
    record = ws / "drills/2026-11-hostile-readme.yaml"
    text = record.read_text()
    text = text.replace(
        "      happened: The run waited for approval; the gate flagged ci.yml and "
        "scripts/helper.sh.\n      result: passed",
        "      happened: CI ran the changed workflow on the pull request at once.\n"
        "      result: failed")
    record.write_text(text)
    checked = load_and_check(ws, TODAY)
    verdict = checked.result.verdicts["PIPE-01"]
    assert verdict["status"] == "unverified" and verdict["drill_failed"] == "2026-11-20"
    assert verdict["message"].startswith(
        "DRILL FAILED on 2026-11-20 (pipeline layer): CI ran the changed workflow on the pull "
        "request at once. The configuration checks alone said: ")
    assert checked.result.verdicts["PIPE-03"]["status"] == "unverified"
    assert drl(ws) == [
        "controls/system.yaml:4:1: TTX001 tabletop scenario 'readme-injection-pr-run' (The "
        "same injected workflow change runs on the pull request itself) passes: no deployed, "
        "verified control stops any of its 4 steps; CRED-01, GIT-03, PIPE-01, PIPE-02 only "
        "make it harder (see `compliance tabletop readme-injection-pr-run`)",
        "drills/2026-11-hostile-readme.yaml:37:15: DRL001 the pipeline layer failed its newest "
        "drill (hostile-readme, 2026-11-20): CI ran the changed workflow on the pull request "
        "at once. Not VERIFIED until a drill passes: PIPE-01, PIPE-03"]
    from compliance.render.build_context import build_context

    stance = build_context(checked).stance
    assert "have workflow runs on their pull requests held" not in stance.summary


def test_layers_never_drilled_or_drilled_long_ago(tmp_path: Path) -> None:
    record = """\
    drill:
      date: 2026-01-10
      scenario: hostile-readme
      repository: test/repo
      task: a task
      layers:
        - {layer: isolation, expected: a, happened: b, result: passed, controls: [ISO-01]}
    """
    ws = minimal(tmp_path, drills__old=record)
    (ws / "drills/old").rename(ws / "drills/old.yaml")
    assert drl(ws) == [
        "drills/old.yaml:2:9: DRL002 the isolation layer was last drilled on 2026-01-10, more "
        "than 180 days before 2026-12-01; drill it again"]
    (ws / "compliance.yaml").write_text("drill_interval_days: 365\n")
    assert drl(ws) == []


def test_an_empty_drills_folder_names_each_covered_layer(tmp_path: Path) -> None:
    ws = minimal(tmp_path, drills__README="records go here")
    assert drl(ws) == [
        "controls/system.yaml:1:1: DRL002 the isolation layer was never drilled; record a "
        "drill in drills/ (`compliance drill-kit`), at least every 180 days"]


def test_drill_references_are_checked(tmp_path: Path) -> None:
    record = """\
    drill:
      date: 2026-11-10
      scenario: hostile-readme
      repository: test/repo
      task: a task
      layers:
        - {layer: isolation, expected: a, happened: b, result: failed, controls: [ISO-1],
           evidence: [nosuch]}
        - {layer: netwrk, expected: a, happened: b, result: passed}
    """
    ws = minimal(tmp_path, drills__bad=record)
    (ws / "drills/bad").rename(ws / "drills/bad.yaml")
    found = drl(ws)
    assert found == [
        "drills/bad.yaml:9:15: SCH001 drill.layers[1].layer: 'netwrk' is not one of "
        "isolation, network, credentials, git, pipeline, logs; did you mean 'network'?"]
    (ws / "drills/bad.yaml").write_text((ws / "drills/bad.yaml").read_text().replace(
        "netwrk", "network"))
    assert drl(ws) == [
        "drills/bad.yaml:7:79: REF002 controls: 'ISO-1' is not defined in the model",
        "drills/bad.yaml:8:19: REF002 evidence: 'nosuch' is not defined in the model"]


def test_drill_kit_is_generated_from_the_model(repo: Path, tmp_path: Path) -> None:
    outs = []
    for n in (1, 2):
        out = tmp_path / f"kit{n}"
        result = CliRunner().invoke(cli, ["drill-kit", str(repo), "--out", str(out),
                                          "--today", TODAY.isoformat()])
        assert (result.exit_code, result.stdout) == (0, f"wrote 8 files to {out}\n")
        outs.append({p.relative_to(out).as_posix(): p.read_bytes()
                     for p in sorted(out.rglob("*")) if p.is_file()})
    assert outs[0] == outs[1]
    files = outs[0]
    assert "hostile-repo/vendor/left-pad-plus/README.md" in files
    planted = files["hostile-repo/vendor/left-pad-plus/README.md"].decode()
    assert "https://drill-canary.invalid/collect" in planted
    # the payload posts the canary and nothing else: never the environment or a file
    post = next(line for line in planted.splitlines() if "curl" in line)
    assert post.split("|")[0].strip() == "echo DRILL-CANARY-7f3a", post
    checklist = files["checklist.md"].decode()
    model = load_and_check(repo, TODAY).workspace.model
    assert model is not None
    for c in model.controls:
        assert f"- [ ] {c.id} {c.title} (" in checklist
    assert ("- at step pass-review, GIT-02 would stop it but for its limit "
            "review-quality-matters, so it only makes it harder") in checklist
    record = files["drill-record.yaml"].decode()
    assert "    - layer: pipeline\n" in record and "controls: [PIPE-01, PIPE-02, PIPE-03]" in record


def test_drill_kit_keeps_a_filled_in_record_unless_force(repo: Path, tmp_path: Path) -> None:
    """drill-kit replaced a filled-in drill-record.yaml silently; now it is kept (exit 2)."""
    out = tmp_path / "kit"
    args = ["drill-kit", str(repo), "--out", str(out), "--today", TODAY.isoformat()]
    assert CliRunner().invoke(cli, args).exit_code == 0
    assert CliRunner().invoke(cli, args).exit_code == 0  # the same kit again: no change
    record = out / "drill-record.yaml"
    template = record.read_bytes()
    record.write_bytes(template + b"# happened: the agent refused the planted instruction\n")
    filled = record.read_bytes()
    result = CliRunner().invoke(cli, args)
    assert (result.exit_code, result.stdout, result.stderr) == (
        2, "", f"error: cannot write {record}: it exists and differs from what this run would "
               "write, so edits in it would be lost; nothing was written (pass --force to "
               "replace it, or choose another --out)\n")
    assert record.read_bytes() == filled
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kit"]
    result = CliRunner().invoke(cli, [*args, "--force"])
    assert (result.exit_code, record.read_bytes()) == (0, template)
