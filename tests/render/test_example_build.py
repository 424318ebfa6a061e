"""The repository's example workspace builds: five outputs, every layer and control bookmarked."""

from __future__ import annotations

import zipfile
from pathlib import Path

from click.testing import CliRunner

from compliance.cli import cli
from compliance.model.layers import Layer
from compliance.pipeline import load_and_check
from tests.render.pdfutil import outline, reader, text


def test_example_workspace_builds(repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["build", str(repo), "--out", str(out)])
    assert result.exit_code == 0, result.output
    names = ["evidence-pack.zip", "findings.json", "report.html", "report.pdf", "stance.md"]
    assert sorted(p.name for p in out.iterdir()) == names
    model = load_and_check(repo).workspace.model
    assert model is not None
    pdf = (out / "report.pdf").read_bytes()
    marks = outline(pdf)
    flat = [m for m in marks if isinstance(m, str)]
    nested = [m for group in marks if isinstance(group, list) for m in group]
    assert [layer.label for layer in Layer] == [m for m in flat if m in {x.label for x in Layer}]
    assert nested == [
        f"{c.id}: {c.title}" for layer in Layer for c in model.controls if c.layer is layer
    ] + [f"{s.title} ({s.id})" for s in model.scenarios]  # then the tabletop scenarios
    assert list(reader(pdf).attachments) == ["manifest.json"]
    # Compare without whitespace: a line may wrap after a hyphen ("default-" / "deny").
    content = "".join(text(pdf).split())
    for limit in model.limits:
        if any(limit.id in c.limits for c in model.controls):
            assert "".join(limit.text.split()) in content
    with zipfile.ZipFile(out / "evidence-pack.zip") as pack:
        packed = set(pack.namelist())
    assert {f"evidence/{ev.path}" for ev in model.evidence} <= packed
