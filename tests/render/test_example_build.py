"""The repository's example workspace builds: five outputs, every layer and control bookmarked."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from compliance.cli import cli
from compliance.model.layers import Layer
from compliance.pipeline import load_and_check
from tests.render.pdfutil import lowest_line, outline, reader, text


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


@pytest.fixture(scope="module")
def example_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("example") / "out"
    repo = Path(__file__).resolve().parents[2]
    result = CliRunner().invoke(cli, ["build", str(repo), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_first_page_is_the_audit_summary_with_hashes_an_auditor_can_recompute(
        example_build: Path) -> None:
    pdf = (example_build / "report.pdf").read_bytes()
    first = " ".join(reader(pdf).pages[0].extract_text().split())
    with zipfile.ZipFile(example_build / "evidence-pack.zip") as pack:
        model_sha = hashlib.sha256(pack.read("model.json")).hexdigest()
    attached = reader(pdf).attachments["manifest.json"][0]
    manifest = json.loads(attached)
    for words in ("Audit summary", "VERIFIED 10", "PARTLY VERIFIED 1", "UNVERIFIED 3",
                  "0 rest on evidence changed since it was pinned (stale), 0 on evidence "
                  "older than its max_age_days, 0 are planned",
                  "REFUTED 0", "Open findings 0 error(s), 4 warning(s), 8 note(s)",
                  "Waivers in force 0", f"Model sha256 {model_sha}",
                  f"Checked as of {dt.date.today().isoformat()}: evidence ages and drill",
                  f"sha256 {hashlib.sha256(attached).hexdigest()}",
                  f"the size and sha256 of the {len(manifest['files'])} files",
                  "Build date 2026-11-27, the model's last review (system.last_reviewed)",
                  "Sign-off Reviewer Role Date Signature"):
        assert words in first, words
    assert manifest["verdicts"]["CRED-01"] == "partly-verified"
    assert "Stance" not in first  # the summary has the first page to itself


def test_no_page_is_left_mostly_blank_and_no_label_is_stranded(example_build: Path) -> None:
    """A forced break after a table once left a page 90% blank, and a label ("Residual
    risk", "Claim") ended a page with its text on the next."""
    pages = reader((example_build / "report.pdf").read_bytes()).pages
    labels = {"Status", "Owner", "Claim", "Verdict", "Implementation", "Residual risk",
              "Limits", "Evidence", "Findings", "Waivers", "What was checked", "Sign-off"}
    for number, page in enumerate(pages, start=1):
        low = lowest_line(page)
        assert low is not None, number
        y, line = low
        assert line not in labels, (number, line)
        if 1 < number < len(pages):
            assert y < 250, (number, y, line)  # text reaches the last quarter of the page


def test_html_body_keeps_off_the_window_edge(example_build: Path) -> None:
    html = (example_build / "report.html").read_text("utf-8")
    assert "@media screen { body { max-width: 190mm; margin: 0 auto; padding: 16px 24px" in html
