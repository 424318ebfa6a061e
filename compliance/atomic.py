"""Atomic writes: a file or a folder appears complete or not at all.

Write into a temporary sibling, flush to disk, then ``os.replace`` it into
place; a failed or killed run leaves the previous file untouched.

Every writer reports a failure to write the same way: :func:`writing_to`
turns the ``OSError`` (permission denied, read-only or full disk, a folder
where a file should go) into :class:`CannotWrite`, which names the
destination and which the command line prints as one line with exit 2.

Several files that belong together (an answered questionnaire and its two
review files; a build's outputs) are written with :func:`staged_files` or
moved with :func:`replace_all`: every destination is checked before any is
touched, and if one move fails the files already moved are put back.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

from compliance.diagnostics import UserError


class CannotWrite(UserError):
    """An output could not be written: ``cannot write PATH: REASON`` (exit 2)."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"cannot write {path}: {reason}")
        self.path = path
        self.reason = reason


def os_reason(exc: OSError) -> str:
    """The operating system's words for ``exc`` ("Permission denied"), without the errno."""
    return exc.strerror or str(exc) or type(exc).__name__


@contextlib.contextmanager
def writing_to(path: Path) -> Iterator[None]:
    """Report any ``OSError`` raised inside the block as :class:`CannotWrite` naming ``path``."""
    try:
        yield
    except CannotWrite:
        raise
    except OSError as exc:
        raise CannotWrite(path, os_reason(exc)) from exc


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically (same folder temp file, fsync, rename)."""
    with writing_to(path):
        if path.is_dir():
            raise CannotWrite(path, "it is a folder")
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            if path.exists():
                os.chmod(tmp, path.stat().st_mode & 0o777)
            else:
                os.chmod(tmp, 0o644)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            raise


def write_text_atomic(path: Path, text: str) -> None:
    write_bytes_atomic(path, text.encode("utf-8"))


def check_destination(path: Path) -> None:
    """Refuse, before anything is written, a file destination that cannot be replaced:
    a folder in its place, or a parent folder that is missing or a file."""
    parent = path.parent
    with writing_to(path):
        if not parent.exists():
            raise CannotWrite(path, f"the folder {parent} does not exist")
        if not parent.is_dir():
            raise CannotWrite(path, f"{parent} is not a folder")
        if path.is_dir() and not path.is_symlink():
            raise CannotWrite(path, "it is a folder")


def fsync_file(path: Path) -> None:
    with open(path, "rb") as handle:
        os.fsync(handle.fileno())


@contextlib.contextmanager
def staged_files(targets: Sequence[Path]) -> Iterator[Path]:
    """Write several files of one folder all or nothing.

    Every target is checked first (:func:`check_destination`). The block gets a
    staging folder beside them (hidden, ``.<first>.staging-*``) and writes each
    target under its own name there; on normal exit all of them are moved into
    place by :func:`replace_all`. Any failure, in the block or while moving, leaves
    every target as it was. A ``CannotWrite`` naming a staged file is reported
    naming its target.
    """
    if not targets:
        raise ValueError("staged_files needs at least one target")
    first = targets[0]
    folder = first.parent
    if any(target.parent != folder for target in targets):
        raise ValueError("staged files must share one folder")
    for target in targets:
        check_destination(target)
    prefix = f".{first.name}.staging-"
    with writing_to(first):
        for stale in folder.glob(prefix + "*"):  # left by a killed run
            shutil.rmtree(stale, ignore_errors=True)
        staging = Path(tempfile.mkdtemp(prefix=prefix, dir=folder))
    try:
        try:
            yield staging
            moves = []
            for target in targets:
                staged = staging / target.name
                with writing_to(target):
                    if not staged.is_file():
                        raise CannotWrite(target, "it was not written")
                    fsync_file(staged)
                moves.append((staged, target))
            for target in targets:  # again: the block may have taken a while
                check_destination(target)
            with writing_to(first):
                replace_all(moves, folder, first)
        except CannotWrite as exc:
            if exc.path.parent != staging:
                raise
            raise CannotWrite(folder / exc.path.name, exc.reason) from exc
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def replace_all(moves: Sequence[tuple[Path, Path]], root: Path, keep_beside: Path) -> None:
    """Move every new file onto its target (under ``root``), all or nothing.

    Missing folders under ``root`` are created. Each replaced target is kept aside
    first (in ``.<keep_beside>.previous-*`` beside ``keep_beside``; a hard link, else a
    copy) until the last move succeeded. If any move fails or is interrupted, the
    moves already made are undone, newest first: replaced targets are put back, new
    ones removed. What cannot be put back is named in the ``CannotWrite`` and its
    previous version left in the ``.previous-*`` folder.
    """
    previous = Path(
        tempfile.mkdtemp(prefix=f".{keep_beside.name}.previous-", dir=keep_beside.parent)
    )
    replaced: list[tuple[Path, Path | None]] = []  # (target, its previous copy or None)
    created: list[Path] = []
    try:
        for new, target in moves:
            for folder in reversed(target.relative_to(root).parents[:-1]):
                if not (root / folder).exists():
                    (root / folder).mkdir()
                    created.append(root / folder)
            with writing_to(target):
                kept = None
                if target.exists() or target.is_symlink():
                    kept = previous / str(len(replaced))
                    _keep(target, kept)
                os.replace(new, target)
            replaced.append((target, kept))
    except BaseException as exc:
        unrestored = _restore(replaced, created)
        if unrestored:
            failed = exc if isinstance(exc, CannotWrite) else CannotWrite(root, repr(exc))
            names = ", ".join(str(path.relative_to(root)) for path in unrestored)
            raise CannotWrite(
                failed.path,
                f"{failed.reason}; could not put back the previous {names}: "
                f"the previous outputs are kept in {previous}",
            ) from exc
        shutil.rmtree(previous, ignore_errors=True)
        raise
    shutil.rmtree(previous, ignore_errors=True)


def _keep(target: Path, copy: Path) -> None:
    """Keep ``target`` (a file or a link, not followed) at ``copy``: a hard link, else a copy."""
    try:
        os.link(target, copy, follow_symlinks=False)
    except OSError:
        shutil.copy2(target, copy, follow_symlinks=False)


def _restore(replaced: list[tuple[Path, Path | None]], created: list[Path]) -> list[Path]:
    """Undo the replacements, newest first; return the targets that could not be restored."""
    failed = []
    for target, kept in reversed(replaced):
        try:
            if kept is None:
                target.unlink()
            else:
                os.replace(kept, target)
        except OSError:
            failed.append(target)
    for folder in reversed(created):
        with contextlib.suppress(OSError):
            folder.rmdir()
    return failed
