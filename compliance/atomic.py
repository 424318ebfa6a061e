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

An output a person may have edited (an answered questionnaire, a drill record, a
worksheet) is written with ``replace_changed=False``: an existing file whose bytes
differ from the new ones is refused (:class:`WouldReplaceChanged`, exit 2) before
anything moves, unless the user passes ``--force``; an identical one is no change, so
running again is harmless.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import stat
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

from compliance.diagnostics import UserError


class CannotWrite(UserError):
    """An output could not be written: ``cannot write PATH: REASON`` (exit 2)."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"cannot write {path}: {reason}")
        self.path = path
        self.reason = reason


class WouldReplaceChanged(CannotWrite):
    """An output exists with other bytes than this run would write: a person may have
    edited it, so it is kept (``cannot write PATH: it exists and differs ...``, exit 2)."""

    def __init__(self, path: Path, others: int = 0) -> None:
        more = f" (and {others} other output{'s' if others > 1 else ''})" if others else ""
        super().__init__(
            path, f"it exists and differs from what this run would write{more}, so edits in "
                  "it would be lost; nothing was written (pass --force to replace it, or "
                  "choose another --out)")


def same_bytes(new: Path, existing: Path) -> bool:
    """Whether ``existing`` is a regular file (a link to one counts) holding exactly the
    bytes of ``new``. Anything else there (a FIFO, a folder, a dangling link) differs."""
    import filecmp

    try:
        return (os.path.isfile(existing)
                and os.path.getsize(existing) == os.path.getsize(new)
                and filecmp.cmp(new, existing, shallow=False))
    except OSError:
        return False


def refuse_changed(moves: Sequence[tuple[Path, Path]]) -> None:
    """Raise :class:`WouldReplaceChanged` naming the first target of ``moves`` (new file,
    target) that exists and differs from its new file; before anything is moved."""
    changed = [target for new, target in moves
               if (target.exists() or target.is_symlink()) and not same_bytes(new, target)]
    if changed:
        raise WouldReplaceChanged(changed[0], len(changed) - 1)


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


_UMASK_LOCK = threading.Lock()


def current_umask() -> int:
    """The process umask (read by setting and restoring it, under a lock)."""
    with _UMASK_LOCK:
        mask = os.umask(0o022)
        os.umask(mask)
    return mask


def file_mode() -> int:
    """The mode of a new output file: 0666 less the umask, as ``open()`` would give it
    (0644 under the usual 022, 0600 under 077). Every writer uses it."""
    return 0o666 & ~current_umask()


def folder_mode() -> int:
    """The mode of a new output folder: 0777 less the umask (0755 under 022)."""
    return 0o777 & ~current_umask()


#: Marker in a ``.previous-*`` folder that holds outputs a failed run could not put
#: back: such a folder is the user's data, never cleaned as a leftover.
KEPT_MARKER = "KEPT-BY-COMPLIANCE.txt"
_RANDOM = r"[a-z0-9_]{8}"


def owned_temp_folder(parent: Path, prefix: str) -> Path:
    """A new temporary folder ``<prefix><pid>-<random>`` in ``parent``: the name says
    which process owns it, so a later run can tell a killed run's leftover from a
    folder a run still in progress is using (:func:`clean_leftovers`)."""
    import tempfile  # here: every command imports this module, few write (tempfile: ~10 ms)

    return Path(tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-", dir=parent))


def owned_temp_file(parent: Path, prefix: str, suffix: str = ".tmp") -> tuple[int, str]:
    """Like :func:`owned_temp_folder` for a file: ``(fd, path)`` of ``<prefix><pid>-<random>
    <suffix>``."""
    import tempfile

    return tempfile.mkstemp(prefix=f"{prefix}{os.getpid()}-", suffix=suffix, dir=parent)


def clean_leftovers(parent: Path, prefix: str, suffix: str = "") -> list[Path]:
    """Remove what killed runs left in ``parent``: entries named exactly as
    :func:`owned_temp_folder` / :func:`owned_temp_file` name them with this prefix,
    owned by this user, whose process is gone. Anything else (another name, a live
    run's folder, a folder holding :data:`KEPT_MARKER`, a link) is left alone.
    Returns what was removed."""
    pattern = re.compile(re.escape(prefix) + r"(\d+)-" + _RANDOM + re.escape(suffix))
    removed: list[Path] = []
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return removed
    for entry in entries:
        m = pattern.fullmatch(entry.name)
        if m is None or _alive(int(m.group(1))):
            continue
        path = Path(entry.path)
        with contextlib.suppress(OSError):
            info = os.lstat(path)
            if info.st_uid != os.getuid():
                continue
            if stat.S_ISDIR(info.st_mode):
                if (path / KEPT_MARKER).exists():
                    continue
                shutil.rmtree(path)
            elif stat.S_ISREG(info.st_mode):
                path.unlink()
            else:
                continue
            removed.append(path)
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True  # another user's process, or not a pid we can ask about: leave it
    return True


def write_bytes_atomic(path: Path, data: bytes, *, replace_changed: bool = True) -> None:
    """Replace ``path`` with ``data`` atomically (same folder temp file, fsync, rename).

    With ``replace_changed=False`` an existing ``path`` with other bytes is refused
    (:class:`WouldReplaceChanged`) and left as it is."""
    with writing_to(path):
        if path.is_dir():
            raise CannotWrite(path, "it is a folder")
        path.parent.mkdir(parents=True, exist_ok=True)
        clean_leftovers(path.parent, f".{path.name}.", ".tmp")
        fd, tmp = owned_temp_file(path.parent, f".{path.name}.")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            if not replace_changed:
                refuse_changed([(Path(tmp), path)])
            if path.exists():
                os.chmod(tmp, path.stat().st_mode & 0o777)
            else:
                os.chmod(tmp, file_mode())
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            raise


def write_text_atomic(path: Path, text: str, *, replace_changed: bool = True) -> None:
    write_bytes_atomic(path, text.encode("utf-8"), replace_changed=replace_changed)


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
def staged_files(targets: Sequence[Path], *, replace_changed: bool = True) -> Iterator[Path]:
    """Write several files of one folder all or nothing.

    Every target is checked first (:func:`check_destination`). The block gets a
    staging folder beside them (hidden, ``.<first>.staging-*``) and writes each
    target under its own name there; on normal exit all of them are moved into
    place by :func:`replace_all`. Any failure, in the block or while moving, leaves
    every target as it was. A ``CannotWrite`` naming a staged file is reported
    naming its target. ``replace_changed=False``: see :func:`replace_all`.
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
        clean_leftovers(folder, prefix)  # left by a killed run
        clean_leftovers(folder, f".{first.name}.previous-")
        staging = owned_temp_folder(folder, prefix)
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
                replace_all(moves, folder, first, replace_changed=replace_changed)
        except CannotWrite as exc:
            if exc.path.parent != staging:
                raise
            raise CannotWrite(folder / exc.path.name, exc.reason) from exc
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def replace_all(moves: Sequence[tuple[Path, Path]], root: Path, keep_beside: Path, *,
                replace_changed: bool = True) -> None:
    """Move every new file onto its target (under ``root``), all or nothing.

    With ``replace_changed=False`` nothing moves when a target exists with other bytes
    than its new file (:class:`WouldReplaceChanged`): it may hold a person's edits.

    Missing folders under ``root`` are created. Each replaced target is kept aside
    first (in ``.<keep_beside>.previous-*`` beside ``keep_beside``; a hard link, else a
    copy) until the last move succeeded. If any move fails or is interrupted, the
    moves already made are undone, newest first: replaced targets are put back, new
    ones removed. What cannot be put back is named in the ``CannotWrite`` and its
    previous version left in the ``.previous-*`` folder.
    """
    if not replace_changed:
        refuse_changed(moves)
    previous = owned_temp_folder(keep_beside.parent, f".{keep_beside.name}.previous-")
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
            with contextlib.suppress(OSError):  # the user's data now: never cleaned up
                (previous / KEPT_MARKER).write_text(
                    "compliance could not put these previous outputs back; they are kept "
                    "here for you and no later run removes this folder.\n", encoding="utf-8")
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
