"""`compliance build`: gate on findings, five outputs, all or nothing, reproducible."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from compliance.cli import cli
from tests.render.pdfutil import outline, reader
from tests.workspaces import CONTROL, SYSTEM, make_workspace, sha256

OUTPUTS = ["evidence-pack.zip", "findings.json", "report.html", "report.pdf", "stance.md"]
WROTE = "wrote stance.md, report.html, report.pdf, evidence-pack.zip, findings.json to {}\n"
VM_JSON = b'{"runtime": "firecracker"}\n'
EVIDENCE = f"""\
evidence:
  - id: vm-config
    path: vm.json
    sha256: {sha256(VM_JSON)}
    collected: 2026-10-01
"""


def workspace(root: Path, *, evidence_present: bool) -> Path:
    files: dict[str, str | bytes] = {
        "controls/system.yaml": SYSTEM + EVIDENCE,
        "controls/isolation.yaml": CONTROL.replace(
            "    limits:", "    evidence: [vm-config]\n    limits:"
        ),
    }
    if evidence_present:
        files["evidence/vm.json"] = VM_JSON
    return make_workspace(root, files)


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["build", *args, "--today", "2026-11-02"])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, result.stdout


def test_clean_workspace_writes_five_outputs(tmp_path: Path) -> None:
    ws = workspace(tmp_path / "ws", evidence_present=True)
    out = tmp_path / "out"
    code, stdout = run(str(ws), "--out", str(out))
    assert code == 0
    assert stdout.endswith(WROTE.format(out))
    assert sorted(p.name for p in out.iterdir()) == OUTPUTS
    with zipfile.ZipFile(out / "evidence-pack.zip") as pack:
        manifest = json.loads(pack.read("manifest.json"))
        assert [f["path"] for f in manifest["files"]] == [
            "evidence/vm.json",
            "findings.json",
            "model.json",
            "report.pdf",
            "stance.md",
        ]
        pdf_entry = next(f for f in manifest["files"] if f["path"] == "report.pdf")
        assert pdf_entry["sha256"] == sha256((out / "report.pdf").read_bytes())
        assert pack.read("evidence/vm.json") == VM_JSON
    pdf = (out / "report.pdf").read_bytes()
    attached = json.loads(reader(pdf).attachments["manifest.json"][0])
    assert [f["path"] for f in attached["files"]] == [
        "evidence/vm.json",
        "findings.json",
        "model.json",
        "stance.md",
    ]
    assert outline(pdf)[:3] == ["Stance", "Controls by layer", "Isolation"]
    stance = (out / "stance.md").read_text()
    assert "## Gaps\n\n- Network egress: no control in place." in stance
    findings = json.loads((out / "findings.json").read_text())
    assert findings["summary"]["error"] == 0


def test_errors_write_nothing_and_exit_1(tmp_path: Path) -> None:
    ws = workspace(tmp_path / "ws", evidence_present=False)
    out = tmp_path / "out"
    code, stdout = run(str(ws), "--out", str(out))
    assert code == 1
    assert "error evidence vm-config: no file at evidence/vm.json [EVD002]" in stdout
    assert stdout.endswith("nothing written: fix the errors above or use --allow-findings\n")
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ws"]


def test_allow_findings_states_them_on_every_first_page(tmp_path: Path) -> None:
    ws = workspace(tmp_path / "ws", evidence_present=False)
    out = tmp_path / "out"
    code, stdout = run(str(ws), "--out", str(out), "--allow-findings")
    assert code == 1
    assert stdout.endswith(WROTE.format(out))
    first = " ".join(reader((out / "report.pdf").read_bytes()).pages[0].extract_text().split())
    assert "Open findings: this build was forced" in first
    assert "EVD002" in first
    html = (out / "report.html").read_text()
    assert html.index("Open findings: this build was forced") < html.index('id="stance"')
    stance = (out / "stance.md").read_text()
    assert stance.index("## Open findings: this build was forced") < stance.index("## Stance")
    assert "EVD002" in stance


def test_failed_render_keeps_previous_outputs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from compliance.render import pdf
    from compliance.render.errors import RefusedReference

    ws = workspace(tmp_path / "ws", evidence_present=True)
    out = tmp_path / "out"
    assert run(str(ws), "--out", str(out))[0] == 0
    before = {name: (out / name).read_bytes() for name in OUTPUTS}

    def refuse(*args: object, **kwargs: object) -> bytes:
        raise RefusedReference("http://127.0.0.1:9/x.css", "scheme 'http' is not allowed")

    monkeypatch.setattr(pdf, "render_pdf", refuse)
    result = CliRunner().invoke(cli, ["build", str(ws), "--out", str(out), "--today", "2026-11-02"])
    assert result.exit_code == 2
    assert result.stderr == (
        "error: refused to fetch 'http://127.0.0.1:9/x.css': scheme 'http' is not allowed\n"
    )
    assert {name: (out / name).read_bytes() for name in OUTPUTS} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "ws"]


def test_two_builds_are_byte_identical(tmp_path: Path) -> None:
    ws = workspace(tmp_path / "ws", evidence_present=True)
    run(str(ws), "--out", str(tmp_path / "a"))
    run(str(ws), "--out", str(tmp_path / "b"))
    for name in OUTPUTS:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    with zipfile.ZipFile(io.BytesIO((tmp_path / "a" / "evidence-pack.zip").read_bytes())) as z:
        assert {i.date_time for i in z.infolist()} == {(2026, 11, 1, 0, 0, 0)}


def test_no_progress_output_when_stderr_is_not_a_terminal(tmp_path: Path) -> None:
    ws = workspace(tmp_path / "ws", evidence_present=True)
    result = CliRunner().invoke(
        cli, ["build", str(ws), "--out", str(tmp_path / "o"), "--today", "2026-11-02"]
    )
    assert result.exit_code == 0
    assert result.stderr == ""


def test_help_does_not_import_weasyprint() -> None:
    probe = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from compliance.cli import cli\n"
        "r = CliRunner().invoke(cli, ['build', '--help'])\n"
        "assert r.exit_code == 0, r.output\n"
        "print('weasyprint' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout == "False\n"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_line_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    from compliance.commands import build as command

    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    progress = command._Progress()
    progress("PDF")
    progress.done()
    assert terminal.getvalue() == "\r\x1b[2Kbuilding: PDF...\r\x1b[2K"
