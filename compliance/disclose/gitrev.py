"""The workspace as it was at a git revision, in a temporary folder.

``git archive`` of the workspace's own folder at that commit, read as a tar
stream and unpacked with the ``data`` filter (no absolute paths, no links out
of the folder, no device files), with caps on size and entry count. git runs
as a subprocess without a shell, the revision is never read as an option,
and every failure is one plain sentence: not a repository, no git, not a
revision, no workspace at that revision.
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from compliance.diagnostics import UserError

#: Bounds on what one revision may unpack to.
MAX_BYTES = 256 * 1024 * 1024
MAX_ENTRIES = 50_000
TIMEOUT_SECONDS = 120


@dataclass(frozen=True)
class Revision:
    """A resolved revision: what the user typed and the commit it names."""

    given: str
    commit: str
    #: The repository's top folder (git archive runs there: run in a sub-folder, it would
    #: archive only that sub-folder of the tree it is given).
    top: Path

    @property
    def short(self) -> str:
        return self.commit[:12]


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    git = shutil.which("git")
    if git is None:
        raise UserError("--since a git revision needs git, which is not installed here; "
                        "or give the name of a record in disclosures/")
    try:
        return subprocess.run([git, "-C", str(root), *args], capture_output=True,
                              timeout=TIMEOUT_SECONDS, check=False)
    except subprocess.TimeoutExpired:
        raise UserError(f"git {args[0]} did not finish within {TIMEOUT_SECONDS} s") from None


def _line(result: subprocess.CompletedProcess[bytes]) -> str:
    return result.stdout.decode("utf-8", "replace").strip()


def resolve(root: Path, rev: str) -> tuple[Revision, str]:
    """The commit ``rev`` names and the workspace's folder inside the repository."""
    if not rev.strip() or rev.startswith("-") or any(ch in rev for ch in "\x00\n\r"):
        raise UserError(f"--since {rev!r}: not a record name and not a git revision")
    top = _git(root, "rev-parse", "--show-toplevel")
    if top.returncode != 0:
        raise UserError(f"--since {rev!r}: there is no record disclosures/{rev}.yaml, and "
                        f"{root} is not inside a git repository, so it cannot be a revision")
    prefix = _line(_git(root, "rev-parse", "--show-prefix"))
    found = _git(root, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    if found.returncode != 0:
        raise UserError(f"--since {rev!r}: there is no record disclosures/{rev}.yaml, and "
                        f"git knows no revision {rev!r} in {_line(top)}")
    revision = Revision(rev, _line(found), Path(_line(top)))
    if _git(root, "cat-file", "-e", f"{revision.commit}:{prefix}controls").returncode != 0:
        where = prefix.rstrip("/") or "the repository's top folder"
        raise UserError(f"--since {rev!r}: at {revision.short} there is no workspace in "
                        f"{where} (no controls/ folder)")
    return revision, prefix


@contextlib.contextmanager
def workspace_at(root: Path, rev: str) -> Iterator[tuple[Path, Revision]]:
    """Yield a temporary copy of the workspace at ``rev`` (removed afterwards)."""
    revision, prefix = resolve(root, rev)
    git = shutil.which("git")
    assert git is not None  # resolve() checked
    with tempfile.TemporaryDirectory(prefix="compliance-since-") as tmp:
        dest = Path(tmp) / "workspace"
        dest.mkdir()
        command = [git, "-C", str(revision.top), "archive", "--format=tar",
                   f"{revision.commit}:{prefix}"]
        with subprocess.Popen(command, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE) as proc:
            assert proc.stdout is not None
            try:
                _unpack(proc.stdout, dest, rev)
            finally:
                proc.stdout.close()
                try:
                    proc.wait(timeout=TIMEOUT_SECONDS)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
            if proc.returncode != 0:
                error = proc.stderr.read().decode("utf-8", "replace").strip() if proc.stderr \
                    else ""
                raise UserError(f"--since {rev!r}: git archive failed: {error or 'no reason'}")
        yield dest, revision


def _unpack(stream: object, dest: Path, rev: str) -> None:
    total = entries = 0
    try:
        with tarfile.open(fileobj=stream, mode="r|") as archive:  # type: ignore[call-overload]
            for member in archive:
                entries += 1
                total += max(member.size, 0)
                if entries > MAX_ENTRIES or total > MAX_BYTES:
                    raise UserError(f"--since {rev!r}: the workspace at that revision is larger "
                                    f"than {MAX_ENTRIES} files or {MAX_BYTES >> 20} MiB")
                try:
                    archive.extract(member, dest, filter="data")
                except tarfile.FilterError as exc:
                    raise UserError(f"--since {rev!r}: refusing {member.name!r} from that "
                                    f"revision: {exc}") from None
    except tarfile.TarError as exc:
        raise UserError(f"--since {rev!r}: git archive gave an unreadable tar ({exc})") from None
