"""The report's layer drill section: each drilled layer's date, result and state, from what
`check` computed (the renderer decides nothing again)."""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path

from compliance.model import Layer
from compliance.model.audience import Audience
from compliance.pipeline import load_and_check
from compliance.practice.drills_view import DrillsView, drills_view
from compliance.render.audience import Visibility
from compliance.render.build_context import build_context
from compliance.render.documents import render_report_html
from compliance.render.env import make_env
from tests.practice.test_drills import TODAY, example

NEWER = """\
drill:
  date: 2026-11-28
  scenario: hostile-readme
  repository: acme/drill-target
  task: Add pad_id to src/ids.py.
  layers:
    - layer: git
      expected: Application security rejects the workflow change.
      happened: "@acme/appsec rejected the pull request."
      result: passed
      controls: [GIT-01, GIT-02]
    - layer: pipeline
      expected: The changed workflow waits for approval.
      happened: CI ran   the changed workflow
        on the pull request at once.
      result: failed
      controls: [PIPE-01]
"""


def two_drills(repo: Path, tmp_path: Path) -> Path:
    """The example's drill of 2026-11-20 (every layer passed) and a newer one of
    2026-11-28 (git passed, pipeline failed), with a 5-day interval: on 2026-12-01 the
    layers drilled only on 2026-11-20 are stale."""
    ws = example(repo, tmp_path / "ws")
    (ws / "drills/2026-11-28-hostile-readme.yaml").write_text(NEWER, encoding="utf-8")
    with (ws / "compliance.yaml").open("a", encoding="utf-8") as handle:
        handle.write("drill_interval_days: 5\n")
    return ws


def rows(view: DrillsView) -> list[tuple[str, str, str, str, tuple[str, ...]]]:
    return [(r.date, r.layer, r.result, r.state, r.marks) for r in view.rows]


STALE = "STALE: the newest drill of this layer, more than 5 days old; drill it again"


def test_each_drilled_layer_with_its_date_result_and_state(repo: Path, tmp_path: Path) -> None:
    checked = load_and_check(two_drills(repo, tmp_path), TODAY)
    practice = checked.result.practice
    assert practice is not None
    assert practice.stale_drills == {Layer.ISOLATION, Layer.NETWORK, Layer.CREDENTIALS,
                                     Layer.LOGS}
    view = build_context(checked).drills
    superseded = "superseded by the drill of 2026-11-28"
    assert rows(view) == [
        ("2026-11-28", "Git write and review", "passed", "newest drill of this layer", ()),
        ("2026-11-28", "Pipeline gating", "FAILED", "newest drill of this layer", ("failed",)),
        ("2026-11-20", "Isolation", "passed", STALE, ("stale",)),
        ("2026-11-20", "Network egress", "passed", STALE, ("stale",)),
        ("2026-11-20", "Credentials", "passed", STALE, ("stale",)),
        ("2026-11-20", "Git write and review", "passed", superseded, ("superseded",)),
        ("2026-11-20", "Pipeline gating", "passed", superseded, ("superseded",)),
        ("2026-11-20", "Logs", "passed", STALE, ("stale",)),
    ]
    failed = view.rows[1]
    assert (failed.scenario, failed.controls) == ("hostile-readme", "PIPE-01")
    assert failed.happened == "CI ran the changed workflow on the pull request at once."
    assert view.not_drilled == ()
    assert view.status == ("2 drill(s) recorded, the newest on 2026-11-28; each layer is "
                           "drilled at least every 5 days.")


def test_staleness_is_what_check_computed_not_recomputed(repo: Path, tmp_path: Path) -> None:
    checked = load_and_check(two_drills(repo, tmp_path), TODAY)
    model, practice = checked.workspace.model, checked.result.practice
    assert model is not None and practice is not None
    fresh = drills_view(model, dataclasses.replace(practice, stale_drills=frozenset()))
    assert not any("stale" in r.marks for r in fresh.rows)
    git = drills_view(model, dataclasses.replace(practice, stale_drills=frozenset({Layer.GIT})))
    assert [r.layer for r in git.rows if "stale" in r.marks] == ["Git write and review"]
    assert drills_view(model, None).status == (
        "The practice checks did not run: no drill is shown.")


def test_a_workspace_without_drills_says_so(repo: Path, tmp_path: Path) -> None:
    ws = example(repo, tmp_path / "ws")
    for record in (ws / "drills").iterdir():
        record.unlink()
    view = build_context(load_and_check(ws, TODAY)).drills
    assert view.rows == ()
    assert view.status == "No layer drill is recorded (drills/*.yaml)."
    assert view.not_drilled == tuple(layer.label for layer in Layer)


def test_the_report_shows_the_section_to_the_team_only(repo: Path, tmp_path: Path) -> None:
    env = make_env(None)
    checked = load_and_check(two_drills(repo, tmp_path), TODAY)
    html = render_report_html(env, build_context(checked))
    section = html[html.index('<section class="drills" id="drills">'):]
    section = section[:section.index("</section>")]
    assert '<tr class="failed">' in section
    assert section.count('<tr class="stale">') == 4
    assert section.count("<tr>") == 2  # the header row, and git: passed, newest, no mark
    assert section.count('<tr class="superseded">') == 2
    assert '<td class="drill-result failed">FAILED</td>' in section
    model = checked.workspace.model
    assert model is not None
    public = build_context(checked, visibility=Visibility(Audience.PUBLIC, model))
    assert public.drills == DrillsView()
    html = render_report_html(env, public)
    assert 'id="drills"' not in html
    assert ("Layer metrics, tabletop traces, exercises and layer drills are not shown to "
            "public readers.") in html


def test_the_example_report_lists_its_drill(repo: Path) -> None:
    view = build_context(load_and_check(repo, dt.date(2026, 12, 1))).drills
    assert [(r.date, r.result, r.state) for r in view.rows] == [
        ("2026-11-20", "passed", "newest drill of this layer")] * 6
