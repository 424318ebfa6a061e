"""compliance/atomic.py: leftovers of killed runs are cleaned; the umask is respected.

Issue 11, row 8: SIGKILL a few ms after the staging folder appears left
``.out.previous-*`` folders that no later run removed (6 after 12 kills).
Row 9: under ``umask 077`` the build wrote 0644 files in a 0755 folder.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from compliance.atomic import KEPT_MARKER, clean_leftovers, write_bytes_atomic
from compliance.cli import cli
from compliance.render.atomic import staged_outputs, write_bytes
from tests.faults import leftover_name
from tests.workspaces import minimal

REPO = Path(__file__).resolve().parent.parent

#: A build that kills itself with SIGKILL at the wrong moment: just after it moved
#: the first output into place and kept the previous one aside in .out.previous-*.
KILLED_BUILD = """\
import os, signal, sys
real = os.replace
def replace(src, dst):
    real(src, dst)
    os.kill(os.getpid(), signal.SIGKILL)
os.replace = replace
from compliance.cli import cli
cli(["build", sys.argv[1], "--out", sys.argv[2]])
"""


def names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_a_build_killed_while_moving_leaves_nothing_after_the_next_build(
        tmp_path: Path) -> None:
    ws = minimal(tmp_path / "ws")
    out = tmp_path / "out"
    first = CliRunner().invoke(cli, ["build", str(ws), "--out", str(out)])
    assert first.exit_code == 0, first.output
    for _ in range(2):
        killed = subprocess.run([sys.executable, "-c", KILLED_BUILD, str(ws), str(out)],
                                cwd=REPO, capture_output=True, check=False)
        assert killed.returncode == -signal.SIGKILL, killed.stderr
    left = [n for n in names(tmp_path) if n.startswith(".out.")]
    assert any(n.startswith(".out.previous-") for n in left), left  # the reported state
    again = CliRunner().invoke(cli, ["build", str(ws), "--out", str(out)])
    assert again.exit_code == 0, again.output
    assert names(tmp_path) == ["out", "ws"]


def test_only_names_the_tool_gives_of_dead_runs_are_removed(tmp_path: Path) -> None:
    dead_staging = tmp_path / leftover_name(".out.staging-")
    dead_previous = tmp_path / leftover_name(".out.previous-")
    dead_tmp = tmp_path / leftover_name(".out.", ".tmp")
    live = tmp_path / f".out.staging-{os.getppid()}-abcd1234"  # a run still in progress
    kept = tmp_path / leftover_name(".out.previous-").replace("abcd1234", "kept1234")
    mine = tmp_path / ".out.staging-notes"  # not a name the tool gives
    for folder in (dead_staging, dead_previous, live, kept, mine):
        folder.mkdir()
        (folder / "report.pdf").write_bytes(b"%PDF")
    (kept / KEPT_MARKER).write_text("kept")
    dead_tmp.write_bytes(b"half")
    removed = clean_leftovers(tmp_path, ".out.staging-") + clean_leftovers(
        tmp_path, ".out.previous-") + clean_leftovers(tmp_path, ".out.", ".tmp")
    assert sorted(p.name for p in removed) == sorted(
        p.name for p in (dead_staging, dead_previous, dead_tmp))
    assert names(tmp_path) == sorted(p.name for p in (live, kept, mine))


@pytest.fixture
def umask_077() -> Iterator[None]:
    old = os.umask(0o077)
    try:
        yield
    finally:
        os.umask(old)


def test_build_outputs_follow_the_umask(tmp_path: Path, umask_077: None) -> None:
    ws = minimal(tmp_path / "ws")
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["build", str(ws), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.stat().st_mode & 0o777 == 0o700
    modes = {p.name: p.stat().st_mode & 0o777 for p in out.iterdir()}
    assert modes == dict.fromkeys(names(out), 0o600)
    (out / "stance.md").unlink()  # an output new in an existing folder: the same
    result = CliRunner().invoke(cli, ["build", str(ws), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "stance.md").stat().st_mode & 0o777 == 0o600


def test_every_writer_uses_the_umask(tmp_path: Path, umask_077: None) -> None:
    write_bytes_atomic(tmp_path / "one.txt", b"x")
    with staged_outputs(tmp_path / "fresh") as staging:
        write_bytes(staging, "a.txt", b"a")
    assert (tmp_path / "one.txt").stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "fresh").stat().st_mode & 0o777 == 0o700
    assert (tmp_path / "fresh/a.txt").stat().st_mode & 0o777 == 0o600
    os.umask(0o022)
    write_bytes_atomic(tmp_path / "two.txt", b"x")
    assert (tmp_path / "two.txt").stat().st_mode & 0o777 == 0o644
