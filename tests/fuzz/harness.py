"""What every fuzz target asserts, and the sandbox each example runs in.

A fuzz target asserts only what must hold for *any* input:

- the exit code is 0, 1 or 2 (clean, findings, unreadable input);
- no traceback: the command raised nothing but ``SystemExit``, and neither stream
  holds the word ``Traceback``;
- time is bounded: at most :data:`CPU_SECONDS` of CPU per command (measured in
  process, ``RLIMIT_CPU`` in a subprocess), and memory is bounded
  (:func:`run_limited`: a subprocess under ``RLIMIT_AS``);
- nothing is written outside the output: the workspace, the working folder and the
  temporary folder (``TMPDIR``/``tempfile.tempdir`` point into the sandbox) are
  snapshotted before and compared after.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import resource
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from compliance.cli import cli
from tests.conftest import REPO, SHARED_DATA

EXIT_CODES = {0, 1, 2}
#: CPU seconds one command may use on one example. A normal example needs well under
#: one (a build with its PDF about four); only an unbounded reader reaches this.
CPU_SECONDS = 20
runner = CliRunner()

#: The example workspace of this repository: the seed of the model and evidence fuzzers.
EXAMPLE_PARTS = ("controls", "evidence", "compliance.yaml")

Snapshot = dict[str, tuple[str, ...]]


def snapshot(root: Path) -> Snapshot:
    """Every entry under ``root``: kind plus content hash / link target / mode."""
    found: Snapshot = {}
    for folder, dirs, files in os.walk(root):
        for name in [*dirs, *files]:
            path = Path(folder, name)
            rel = path.relative_to(root).as_posix()
            info = path.lstat()
            if stat.S_ISLNK(info.st_mode):
                found[rel] = ("link", os.readlink(path))
            elif stat.S_ISDIR(info.st_mode):
                found[rel] = ("dir", oct(info.st_mode))
            elif stat.S_ISREG(info.st_mode):
                digest = hashlib.sha256(path.read_bytes()).hexdigest()
                found[rel] = ("file", oct(info.st_mode), digest)
            else:
                found[rel] = ("other", oct(info.st_mode))
    return found


def changes(before: Snapshot, after: Snapshot) -> list[str]:
    """What differs between two snapshots, one line per path."""
    out = []
    for rel in sorted(set(before) | set(after)):
        if before.get(rel) != after.get(rel):
            what = ("created" if rel not in before else "deleted" if rel not in after
                    else "changed")
            out.append(f"{what}: {rel}")
    return out


@dataclass
class Box:
    """One example's sandbox: ``ws`` (the workspace), ``out`` (the only place a command
    may write), ``cwd`` (the working folder) and ``tmp`` (the temporary folder)."""

    root: Path
    ws: Path
    out: Path
    cwd: Path
    tmp: Path

    def write(self, rel: str, content: str | bytes) -> Path:
        """Write ``content`` at ``rel`` under the workspace (parents created)."""
        path = self.ws / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_bytes(content.encode("utf-8", "surrogatepass"))
        return path

    def outside_out(self) -> Snapshot:
        """A snapshot of everything the command may not change (all but ``out/``)."""
        return {k: v for k, v in snapshot(self.root).items()
                if k != "out" and not k.startswith("out/")}

    def run(self, *args: str) -> Result:
        """Run the CLI in-process; assert exit code, no traceback, nothing written outside."""
        before = self.outside_out()
        start = time.process_time()
        result = runner.invoke(cli, list(args), catch_exceptions=True)
        used = time.process_time() - start
        assert_clean(result, args)
        assert used <= CPU_SECONDS, (
            f"compliance {' '.join(args)} used {used:.1f} s of CPU (limit {CPU_SECONDS} s)")
        written = changes(before, self.outside_out())
        assert not written, f"compliance {' '.join(args)} wrote outside the output: {written}"
        return result


def assert_clean(result: Result, args: Sequence[str]) -> None:
    """Exit 0/1/2 and no traceback, with the traceback in the message when there was one."""
    command = "compliance " + " ".join(args)
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        tb = "".join(traceback.format_exception(exc))
        # an AssertionError, not pytest.fail: hypothesis then prints the failing input
        raise AssertionError(f"{command} raised {type(exc).__name__}:\n{tb}")
    assert result.exit_code in EXIT_CODES, (command, result.exit_code, result.output[-2000:])
    for stream, text in (("stdout", result.stdout), ("stderr", result.stderr)):
        assert "Traceback" not in text, f"{command}: traceback on {stream}:\n{text[-4000:]}"


@contextlib.contextmanager
def sandbox(example: bool = False) -> Iterator[Box]:
    """A fresh sandbox; with ``example`` its workspace is a copy of the example workspace.

    ``tempfile.tempdir`` and ``TMPDIR`` point into the sandbox and the working folder is
    the sandbox's ``cwd/`` for the duration, so a stray temporary or relative write is
    seen by the snapshot."""
    with tempfile.TemporaryDirectory(prefix="compliance-fuzz-") as base:
        root = Path(base)
        box = Box(root, root / "ws", root / "out", root / "cwd", root / "tmp")
        for folder in (box.ws, box.out, box.cwd, box.tmp):
            folder.mkdir()
        if example:
            for part in EXAMPLE_PARTS:
                src = REPO / part
                if src.is_dir():
                    shutil.copytree(src, box.ws / part)
                else:
                    shutil.copy2(src, box.ws / part)
        saved_tempdir, saved_env, saved_cwd = tempfile.tempdir, os.environ.get("TMPDIR"), \
            os.getcwd()
        tempfile.tempdir = str(box.tmp)
        os.environ["TMPDIR"] = str(box.tmp)
        os.chdir(box.cwd)
        try:
            yield box
        finally:
            os.chdir(saved_cwd)
            tempfile.tempdir = saved_tempdir
            if saved_env is None:
                os.environ.pop("TMPDIR", None)
            else:
                os.environ["TMPDIR"] = saved_env


#: Address-space limit for :func:`run_limited`: the interpreter with the whole tool
#: imported (WeasyPrint, openpyxl, pydantic) needs about 300 MB of address space.
MEMORY_LIMIT = 1024 * 1024 * 1024
#: Wall-clock safety net for a subprocess that blocks instead of computing; the CPU
#: limit is the real bound (a busy machine may stretch 20 s of CPU over minutes).
SUBPROCESS_TIMEOUT = 600


def limited(args: Sequence[str], cwd: Path, tmp: Path,
            memory: int = MEMORY_LIMIT) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` in a subprocess with its address space limited to ``memory`` and
    its CPU time to :data:`CPU_SECONDS` (killed by SIGXCPU beyond it)."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS + 5))

    env = {**os.environ, "TMPDIR": str(tmp), "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=SUBPROCESS_TIMEOUT, preexec_fn=limit)


def run_limited(box: Box, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m compliance ARGS`` under :func:`limited`; assert exit 0/1/2, no
    traceback, nothing written outside ``box.out``."""
    before = box.outside_out()
    proc = limited(["-m", "compliance", *args], box.cwd, box.tmp)
    command = "compliance " + " ".join(args)
    assert "Traceback" not in proc.stderr, f"{command}:\n{proc.stderr[-4000:]}"
    assert proc.returncode in EXIT_CODES, (command, proc.returncode, proc.stderr[-2000:])
    written = changes(before, box.outside_out())
    assert not written, f"{command} wrote outside the output: {written}"
    return proc


def shared_seeds(folder: str, *suffixes: str) -> list[tuple[str, str]]:
    """(name, text) of the real files in ../shared/data/agent-configs/FOLDER, or a
    visible skip of the test when that data is absent."""
    where = SHARED_DATA / "agent-configs" / folder
    if not where.is_dir():
        pytest.skip(f"third-party data not present at {where} (needs ../shared/data)")
    seeds = _read_seeds(where, suffixes)
    if not seeds:
        pytest.skip(f"no {'/'.join(suffixes) or 'seed'} files in {where}")
    return list(seeds)


@functools.cache
def _read_seeds(where: Path, suffixes: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """The seed files of one folder, read once per run (every example of a target uses them)."""
    return tuple((p.name, p.read_text(encoding="utf-8")) for p in sorted(where.iterdir())
                 if p.is_file() and (not suffixes or p.name.endswith(suffixes)))
