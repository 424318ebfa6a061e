"""compliance/paths.py: nothing outside the workspace is read, whichever command reads it.

Issue 11, row 1: with evidence/ a symbolic link to a folder outside the
workspace (``/etc`` in the report) and an item citing ``path: shadow``, `evidence
pin`, `check`, `build --allow-findings` and the evidence pack all read the file.
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from compliance.cli import cli
from compliance.paths import NotAFile, OutsideFolder, TooLarge, open_inside, read_inside
from tests.workspaces import CONTROL, minimal

SECRET = b"root:$6$not-a-real-hash:19000:0:99999:7:::\n"
SHADOW = """\
evidence:
  - id: shadow
    path: shadow
    collected: 2026-10-01
"""
REFUSED = ("controls/evidence.yaml:3:11: error evidence shadow: path 'shadow' is refused: "
           "the folder evidence/ itself resolves outside the workspace (to {target}); "
           "make evidence/ a real folder inside the workspace [EVD001]")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.exception
    return result.exit_code, result.stdout, result.stderr


def linked_evidence(tmp_path: Path) -> tuple[Path, Path]:
    """A workspace whose evidence/ is a link to a folder outside it holding ``shadow``."""
    outside = tmp_path / "etc"
    outside.mkdir()
    (outside / "shadow").write_bytes(SECRET)
    control = CONTROL.replace("    limits:", "    evidence: [shadow]\n    limits:")
    ws = minimal(tmp_path / "ws", **{"controls/isolation.yaml": control,
                                     "controls/evidence.yaml": SHADOW})
    (ws / "evidence").symlink_to(outside, target_is_directory=True)
    return ws, outside.resolve()


def test_check_refuses_a_linked_evidence_folder_at_the_path(tmp_path: Path) -> None:
    ws, target = linked_evidence(tmp_path)
    code, out, _ = run("check", str(ws))
    assert code == 1
    assert REFUSED.format(target=target) in out.splitlines()
    assert "EVD004" not in out  # never hashed: no "not pinned (current sha256 ...)"


def test_pin_refuses_a_linked_evidence_folder(tmp_path: Path) -> None:
    ws, target = linked_evidence(tmp_path)
    before = (ws / "controls/evidence.yaml").read_bytes()
    code, out, err = run("evidence", "pin", str(ws))
    assert code == 1
    assert ("error: cannot pin shadow: outside evidence/ (the folder evidence/ itself resolves "
            f"outside the workspace (to {target}); make evidence/ a real folder inside the "
            "workspace)") in err
    assert (ws / "controls/evidence.yaml").read_bytes() == before


def test_forced_build_never_packs_a_file_through_a_linked_evidence_folder(
        tmp_path: Path) -> None:
    ws, target = linked_evidence(tmp_path)
    out = tmp_path / "out"
    code, stdout, _ = run("build", str(ws), "--out", str(out), "--allow-findings")
    assert code == 1  # built, with the open error stated
    assert REFUSED.format(target=target) in stdout.splitlines()
    with zipfile.ZipFile(out / "evidence-pack.zip") as pack:
        assert "evidence/shadow" not in pack.namelist()
        for name in pack.namelist():
            assert SECRET not in pack.read(name), name
    assert SECRET.decode() not in (out / "report.html").read_text()
    assert REFUSED.format(target=target).split(": error ", 1)[1].split(" [")[0] in \
        (out / "findings.json").read_text()


def test_a_link_swapped_in_after_resolving_is_caught_when_opening(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The read checks again at the moment it opens: resolving first, then replacing the
    file by a link out before the open, still refuses (the pack writer's case)."""
    base = tmp_path / "evidence"
    base.mkdir()
    (base / "fw.sh").write_text("ok\n")
    (tmp_path / "secret").write_bytes(SECRET)
    real_open = os.open

    def swap_then_open(path: object, flags: int, *args: object) -> int:
        if Path(str(path)).name == "fw.sh" and not (base / "fw.sh").is_symlink():
            (base / "fw.sh").unlink()
            (base / "fw.sh").symlink_to(tmp_path / "secret")
        return real_open(path, flags, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", swap_then_open)
    with pytest.raises(OSError):  # O_NOFOLLOW: the link in place of the file is not followed
        read_inside(base, "fw.sh", workspace=tmp_path)


def test_read_inside_refuses_special_files_and_bounds_the_read(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "zero").symlink_to("/dev/zero")
    (tmp_path / "big").write_bytes(b"x" * 11)
    with pytest.raises(NotAFile, match=r"is not a regular file \(a FIFO\)"):
        read_inside(tmp_path, "fifo")  # does not block on the FIFO
    with pytest.raises(OutsideFolder):
        read_inside(tmp_path, "zero")
    with pytest.raises(NotAFile, match="no file at"):
        open_inside(tmp_path, "missing")
    with pytest.raises(TooLarge):
        read_inside(tmp_path, "big", max_bytes=10)
    assert read_inside(tmp_path, "big", max_bytes=11) == b"x" * 11


def test_a_folder_linked_inside_the_workspace_is_allowed(tmp_path: Path) -> None:
    (tmp_path / "exports").mkdir()
    (tmp_path / "exports/fw.sh").write_bytes(b"data")
    (tmp_path / "evidence").symlink_to(tmp_path / "exports", target_is_directory=True)
    assert read_inside(tmp_path / "evidence", "fw.sh", workspace=tmp_path) == b"data"
    with pytest.raises(OutsideFolder, match="itself resolves outside the workspace"):
        read_inside(tmp_path / "evidence", "fw.sh", workspace=tmp_path / "other")


def test_a_templates_folder_linked_outside_the_workspace_is_refused(tmp_path: Path) -> None:
    from compliance.render.env import template_roots
    from compliance.render.errors import TemplateOutsideFolder

    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws/templates").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    with pytest.raises(TemplateOutsideFolder, match="templates/ resolves outside"):
        template_roots(tmp_path / "ws")


def test_a_folder_given_as_dot_is_named_by_its_path_not_as_slash(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the workspace the current folder, link messages said "resolves outside /"
    (the name of Path('.') is empty); they name the folder's absolute path now."""
    ws = minimal(tmp_path / "ws")
    (tmp_path / "elsewhere.yaml").write_text("x: 1\n", encoding="utf-8")
    (ws / "disclosures").mkdir()
    (ws / "disclosures/acme.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    monkeypatch.chdir(ws)
    code, out, err = run("build", ".", "--out", str(tmp_path / "out"), "--record", "acme",
                         "--replace-record")
    assert (code, out, err) == (
        2, "", f"error: disclosures/acme.yaml: refusing to write a record that resolves "
               f"outside {ws}/ (after following '..' and links)\n")
    with pytest.raises(OutsideFolder, match=f"^resolves outside {ws}/ "):
        read_inside(Path("."), "disclosures/acme.yaml")
    with pytest.raises(NotAFile, match="^no file at missing.txt$"):  # not "/missing.txt"
        open_inside(Path("."), "missing.txt")
    with pytest.raises(OutsideFolder, match="^resolves outside evidence/ "):
        read_inside(Path("evidence"), "../../elsewhere.yaml")
