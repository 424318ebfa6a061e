"""`compliance build`: gate on findings, five outputs, all or nothing, reproducible."""

from __future__ import annotations

import datetime as dt
import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from compliance.cli import cli
from compliance.pipeline import load_and_check
from compliance.render.build import evidence_files
from compliance.render.pack import build_pack
from tests.faults import fail_os_replace
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


@pytest.mark.parametrize("spelling", ["sub//vm.json", "./sub/vm.json", "sub/./vm.json",
                                      "sub/../sub/vm.json", "x/../sub/vm.json"])
def test_evidence_is_packed_where_it_is_however_the_model_spells_its_path(
    tmp_path: Path, spelling: str
) -> None:
    """Found by tests/fuzz: ``path: sub//vm.json`` became the zip name
    ``evidence/sub//vm.json`` and the build stopped with a ValueError traceback."""
    ws = make_workspace(tmp_path, {
        "controls/system.yaml": SYSTEM + EVIDENCE.replace("path: vm.json", f"path: {spelling}"),
        "controls/isolation.yaml": CONTROL.replace(
            "    limits:", "    evidence: [vm-config]\n    limits:"),
        "evidence/sub/vm.json": VM_JSON,
    })
    files = evidence_files(load_and_check(ws, today=dt.date(2026, 11, 2)))
    assert files == {"evidence/sub/vm.json": VM_JSON}
    build_pack(files, system="s", reviewed=dt.date(2026, 11, 1), generator="g")


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
    assert outline(pdf)[:4] == ["Audit summary", "Stance", "Controls by layer", "Isolation"]
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


def invoke_build(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["build", *args, "--today", "2026-11-02"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def test_a_folder_named_like_an_output_stops_the_build_before_any_replacement(
    tmp_path: Path,
) -> None:
    ws = workspace(tmp_path / "ws", evidence_present=True)
    out = tmp_path / "mix"
    out.mkdir()
    (out / "report.pdf").mkdir()
    for name in ("stance.md", "findings.json", "report.html", "evidence-pack.zip"):
        (out / name).write_text("OLD\n")
    code, stdout, stderr = invoke_build(str(ws), "--out", str(out))
    assert (code, stdout) == (2, "")
    assert stderr == f"error: cannot write {out / 'report.pdf'}: it is a folder\n"
    assert {p.name: p.read_text() for p in out.iterdir() if p.is_file()} == dict.fromkeys(
        ["evidence-pack.zip", "findings.json", "report.html", "stance.md"], "OLD\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mix", "ws"]


def test_an_output_folder_that_cannot_be_created_is_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tempfile

    def refuse(*args: object, **kwargs: object) -> str:
        raise PermissionError(13, "Permission denied")

    ws = workspace(tmp_path / "ws", evidence_present=True)
    monkeypatch.setattr(tempfile, "mkdtemp", refuse)
    code, stdout, stderr = invoke_build(str(ws), "--out", str(tmp_path / "out"))
    assert (code, stdout) == (2, "")
    assert stderr == f"error: cannot write {tmp_path / 'out'}: Permission denied\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ws"]


def test_outputs_that_cannot_be_replaced_leave_the_previous_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = workspace(tmp_path / "ws", evidence_present=True)
    out = tmp_path / "out"
    out.mkdir()
    for name in OUTPUTS:
        (out / name).write_text("OLD\n")
    fail_os_replace(monkeypatch, PermissionError(13, "Permission denied"),
                    lambda _src, dst: dst == out / "stance.md")
    code, stdout, stderr = invoke_build(str(ws), "--out", str(out))
    assert (code, stdout) == (2, "")
    assert stderr == f"error: cannot write {out / 'stance.md'}: Permission denied\n"
    assert {name: (out / name).read_text() for name in OUTPUTS} == dict.fromkeys(OUTPUTS, "OLD\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "ws"]


@pytest.mark.parametrize(
    ("out", "message"),
    [
        ("evidence", "is the workspace's evidence/"),
        ("evidence/sub", "is inside the workspace's evidence/"),
        ("controls", "is the workspace's controls/"),
        ("templates", "is the workspace's templates/"),
        ("evidence-link", "is the workspace's evidence/"),
        ("evidence-link/sub", "is inside the workspace's evidence/"),
    ],
)
def test_an_output_folder_in_the_inputs_is_refused(
    out: str, message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = workspace(tmp_path / "ws", evidence_present=True)
    (ws / "evidence" / "stance.md").write_text("pinned evidence\n")
    (ws / "evidence-link").symlink_to("evidence")
    before = sorted(p.relative_to(ws) for p in ws.rglob("*"))
    monkeypatch.chdir(ws)
    code, stdout, stderr = invoke_build(".", "--out", out)
    assert (code, stdout) == (2, "")
    assert stderr == (
        f"error: output folder {out} {message} folder, which the build reads; choose one "
        "outside controls/, evidence/ and templates/ (such as out/)\n"
    )
    assert sorted(p.relative_to(ws) for p in ws.rglob("*")) == before
    assert (ws / "evidence" / "stance.md").read_text() == "pinned evidence\n"


def test_the_workspace_root_is_an_allowed_output_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = workspace(tmp_path / "ws", evidence_present=True)
    monkeypatch.chdir(ws)
    code, stdout, stderr = invoke_build(".", "--out", ".")
    assert (code, stderr) == (0, "")
    assert stdout.endswith(WROTE.format("."))
    assert sorted(p.name for p in ws.iterdir()) == sorted(["controls", "evidence", *OUTPUTS])


def test_ctrl_c_exits_130_with_nothing_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from compliance.render import pdf

    def interrupt(*args: object, **kwargs: object) -> bytes:
        raise KeyboardInterrupt

    ws = workspace(tmp_path / "ws", evidence_present=True)
    monkeypatch.setattr(pdf, "render_pdf", interrupt)
    code, stdout, stderr = invoke_build(str(ws), "--out", str(tmp_path / "out"))
    assert (code, stdout, stderr) == (130, "", "\ninterrupted\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ws"]
