"""Paths that cannot escape their folder: the one place that decides "inside".

Every reader of a workspace file goes through here, at the moment it reads:
:func:`resolve_inside` decides whether a path stays inside its folder (and,
given ``workspace=``, whether that folder itself stays inside the workspace:
an ``evidence/`` that is a symbolic link to ``/etc`` is refused), and
:func:`read_inside` / :func:`open_inside` resolve again when they open the
file, open it without following a link in its last component, refuse what is
not a regular file (a FIFO, a device), and check that the file opened is the
file that was resolved, so a link swapped in between is caught too.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import BinaryIO


class OutsideFolder(ValueError):
    """A relative path that leaves its folder (absolute, ``..``, or a symlink out)."""


class NotAFile(OSError):
    """A path inside its folder that names no regular file (missing, a FIFO, a device...)."""


class TooLarge(OSError):
    """A file over the size its reader accepts."""

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(f"it is {size} bytes, over the {limit}-byte limit; refusing to read it")
        self.size = size
        self.limit = limit


def _inside(real: Path, real_base: Path) -> bool:
    return real == real_base or real_base in real.parents


def folder_name(base: Path, real_base: Path | None = None) -> str:
    """How messages name the folder ``base``: ``evidence/`` by its name, but a folder given
    as ``.``, ``..`` or ``/`` (no name of its own) by its absolute path, never as ``/``."""
    if base.name not in ("", ".", ".."):
        return f"{base.name}/"
    return f"{real_base or base.resolve()}/"


def _under(base: Path, relative: str) -> str:
    """``relative`` as messages show it under ``base`` (``evidence/fw.sh``; ``fw.sh`` when
    ``base`` has no name of its own: never ``/fw.sh``, which reads as an absolute path)."""
    return f"{base.name}/{relative}" if base.name not in ("", ".", "..") else relative


def resolve_inside(base: Path, relative: str, *, workspace: Path | None = None) -> Path:
    """Resolve ``relative`` under ``base``; refuse anything that ends up outside it.

    Absolute paths, drive letters, backslashes and ``..`` that climb out are
    refused before touching the disk; then symbolic links are resolved and the
    real path must still be under the real ``base``. With ``workspace``, the
    real ``base`` must itself be inside the real workspace (``base`` may be a
    link, but only to a folder of the same workspace).
    """
    if not relative or relative.strip() != relative:
        raise OutsideFolder("empty path or surrounding spaces")
    if "\\" in relative or "\x00" in relative:
        raise OutsideFolder("use forward slashes; backslashes and NUL are not allowed")
    pure = PurePosixPath(relative)
    if pure.is_absolute() or (len(relative) > 1 and relative[1] == ":"):
        raise OutsideFolder("absolute paths are not allowed; give a path relative to the folder")
    real_base = base.resolve()
    if workspace is not None and not _inside(real_base, workspace.resolve()):
        raise OutsideFolder(
            f"the folder {folder_name(base, real_base)} itself resolves outside the workspace "
            f"(to {real_base}); make {folder_name(base, real_base)} a real folder inside the "
            "workspace")
    target = (real_base / pure).resolve()
    if not _inside(target, real_base):
        raise OutsideFolder(f"resolves outside {folder_name(base, real_base)} (after following "
                            "'..' and links)")
    return target


def open_inside(base: Path, relative: str, *, workspace: Path | None = None) -> BinaryIO:
    """Open ``relative`` under ``base`` for reading, checked at the moment it is opened.

    Raises :class:`OutsideFolder` (see :func:`resolve_inside`), :class:`NotAFile`
    (missing, or not a regular file: a FIFO, a device, a folder) or ``OSError``.
    """
    target = resolve_inside(base, relative, workspace=workspace)

    def still_inside() -> Path:  # resolved again once open: a link swapped in is caught
        return resolve_inside(base, relative, workspace=workspace)

    return _open_regular(target, _under(base, relative), still_inside)


def read_inside(base: Path, relative: str, *, workspace: Path | None = None,
                max_bytes: int | None = None) -> bytes:
    """The bytes of ``relative`` under ``base`` (see :func:`open_inside`), at most ``max_bytes``.

    A file over ``max_bytes`` raises :class:`TooLarge` after reading at most one
    byte more than the limit, whatever size the file claims.
    """
    return _read(open_inside(base, relative, workspace=workspace), max_bytes)


def read_file(path: Path, max_bytes: int | None = None) -> bytes:
    """The bytes of a file its caller already decided may be read (e.g. one of the model
    files the loader listed): a regular file (never a FIFO or a device, even one swapped
    in since), read at most ``max_bytes`` (:class:`TooLarge` beyond)."""
    target = Path(os.path.realpath(path))
    return _read(_open_regular(target, str(path), lambda: Path(os.path.realpath(path))),
                 max_bytes)


def _read(handle: BinaryIO, max_bytes: int | None) -> bytes:
    with handle:
        if max_bytes is None:
            return handle.read()
        data = handle.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise TooLarge(max(len(data), os.fstat(handle.fileno()).st_size), max_bytes)
    return data


def _open_regular(target: Path, shown: str, again: Callable[[], Path]) -> BinaryIO:
    """Open the resolved ``target``: no link followed in its last component, no blocking
    on a FIFO, a regular file only, and the same file ``again()`` resolves to now."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(target, flags)
    except FileNotFoundError:
        raise NotAFile(f"no file at {shown}") from None
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):
            raise NotAFile(f"{shown} is not a regular file ({_kind(opened.st_mode)}); "
                           "refusing to read it")
        now_at = again()
        now = os.stat(now_at)
        if now_at != target or (now.st_dev, now.st_ino) != (opened.st_dev, opened.st_ino):
            raise OutsideFolder(f"{shown} changed while it was being opened")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISDIR, "a folder")):
        if test(mode):
            return name
    return "not a regular file"
