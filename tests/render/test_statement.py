"""A hand-written stance in the model is rendered (after the generated one), never dropped."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from compliance.cli import cli
from tests.workspaces import minimal

STATEMENT = ("We run agents in disposable VMs; the model connection stays open and "
             "review quality matters.")


def test_statement_appears_in_stance_and_report(tmp_path: Path) -> None:
    ws = minimal(tmp_path / "ws", **{"controls/stance.yaml": f"stance: {STATEMENT}\n"})
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["build", str(ws), "--out", str(out),
                                      "--today", "2026-11-02"])
    assert result.exit_code == 0, result.output
    stance = (out / "stance.md").read_text()
    assert f"## Our statement\n\n{STATEMENT}\n" in stance
    assert stance.index("## Stance") < stance.index("## Our statement") < stance.index(
        "## Limits")
    assert f'<p class="statement">{STATEMENT}</p>' in (out / "report.html").read_text()
