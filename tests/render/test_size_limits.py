"""`build` on a model too large to render: a clear refusal above a documented limit.

Issue 11, row 6: a 60,000-control model checked in 9.6 s / 500 MB, but `build`
ran past 240 s and 6.75 GB. The time and memory go to WeasyPrint laying the
whole report out (measured: 500 planned controls, 580 KB of HTML, 450 MB and
over 2 minutes; linear, so 60,000 controls need tens of GB), so the build stops
before rendering above MAX_REPORT_CONTROLS controls or MAX_REPORT_HTML_BYTES of
report HTML (docs/report.md, "Size limits").
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from compliance.cli import cli
from compliance.render import build as build_module
from compliance.render.build import MAX_REPORT_CONTROLS
from tests.workspaces import CONTROL, minimal


def planned(n: int) -> str:
    one = CONTROL.replace("controls:\n", "").replace("status: deployed", "status: planned")
    return "controls:\n" + "".join(one.replace("ISO-01", f"ISO-{i:05d}") for i in range(n))


def build(ws: Path, out: Path) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["build", str(ws), "--out", str(out)])
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.exception
    return result.exit_code, result.stderr


def test_a_model_over_the_control_limit_is_refused_before_rendering(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def never(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("rendered a model over the limit")

    monkeypatch.setattr(build_module, "build_context", never)
    ws = minimal(tmp_path / "ws", **{"controls/isolation.yaml": planned(MAX_REPORT_CONTROLS + 1)})
    out = tmp_path / "out"
    code, err = build(ws, out)
    assert code == 2
    assert err == (
        "error: the model has 1,001 controls; a build renders at most 1,000 (the PDF is laid "
        "out in memory and would take several GB and hours); one workspace describes one "
        "system: split a larger estate into several workspaces (each builds its own report), "
        "or shorten the longest texts. `compliance check` has no such limit\n")
    assert not out.exists()
    assert CliRunner().invoke(cli, ["check", str(ws)]).exit_code == 0


def test_a_report_over_the_html_limit_is_refused_before_the_pdf(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def never(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("rendered a PDF over the limit")

    monkeypatch.setattr(build_module, "MAX_REPORT_HTML_BYTES", 10_000)
    monkeypatch.setattr("compliance.render.pdf.render_pdf", never)
    ws = minimal(tmp_path / "ws", **{"controls/isolation.yaml": planned(40)})
    out = tmp_path / "out"
    code, err = build(ws, out)
    assert code == 2
    assert err.startswith("error: the report is ") and "bytes of HTML; a build renders at " \
        "most 10,000 (about 1 GB of memory and minutes for the PDF)" in err
    assert not out.exists()
