"""Write a build's outputs all or nothing.

Outputs are written into a staging folder next to the destination (same
filesystem, so renames are atomic). Only when every output is complete
are they moved into place: a build that fails or is killed before that
leaves the previous outputs untouched, plus at worst a stale hidden
``.NAME.staging-PID-*`` or ``.NAME.previous-PID-*`` folder that the next build
removes (only folders named so, owned by this user, whose process is gone).

A fresh destination is created by one rename of the whole staging folder.
An existing destination keeps any unrelated files (``--out .`` must never
wipe a workspace): each output replaces its namesake by one ``os.replace``.
Before the first replacement every destination is checked (a folder where
an output goes stops the build, naming it); the previous outputs are kept
aside (hard links, else copies) until the last replacement succeeded, and
put back if any replacement fails or is interrupted
(:func:`compliance.atomic.replace_all`, shared with ``compliance answer``).

Every failure to write is raised as :class:`compliance.atomic.CannotWrite`.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

from compliance.atomic import (
    CannotWrite,
    clean_leftovers,
    file_mode,
    folder_mode,
    fsync_file,
    owned_temp_folder,
    replace_all,
    writing_to,
)


def _staging_prefix(dest: Path) -> str:
    return f".{dest.name}.staging-"


@contextlib.contextmanager
def staged_outputs(dest: Path, *, replace_changed: bool = True) -> Iterator[Path]:
    """Yield an empty staging folder; on normal exit move its files into ``dest``.

    An ``OSError`` while staging or moving is raised as ``CannotWrite``. With
    ``replace_changed=False`` an output that exists in ``dest`` with other bytes is
    refused and nothing moves (:func:`compliance.atomic.replace_all`).
    """
    dest = Path(os.path.abspath(dest))
    parent = dest.parent
    with writing_to(dest):
        if dest.exists() and not dest.is_dir():
            raise CannotWrite(dest, "it is a file, not a folder")
        parent.mkdir(parents=True, exist_ok=True)
        clean_leftovers(parent, _staging_prefix(dest))  # left by killed runs
        clean_leftovers(parent, f".{dest.name}.previous-")
        staging = owned_temp_folder(parent, _staging_prefix(dest))
    try:
        with writing_to(dest):
            yield staging
            _commit(staging, dest, replace_changed)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _commit(staging: Path, dest: Path, replace_changed: bool) -> None:
    files = sorted(p for p in staging.rglob("*") if p.is_file())
    for path in files:
        fsync_file(path)
    if not dest.exists():
        staging.chmod(folder_mode())
        os.rename(staging, dest)
        return
    moves = [(path, dest / path.relative_to(staging)) for path in files]
    for _new, target in moves:
        _check_replaceable(dest, target)
    replace_all(moves, dest, dest, replace_changed=replace_changed)


def _check_replaceable(dest: Path, target: Path) -> None:
    """Refuse, before anything moves, a destination that ``os.replace`` cannot replace."""
    folder = target.parent
    while folder != dest:
        if folder.exists() and not folder.is_dir():
            raise CannotWrite(folder, "it is a file, not a folder")
        folder = folder.parent
    if target.is_dir() and not target.is_symlink():
        raise CannotWrite(target, "it is a folder")


def write_bytes(folder: Path, name: str, data: bytes) -> Path:
    """Write one output file with the mode the umask gives (0644 under 022)."""
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    path.chmod(file_mode())
    return path
