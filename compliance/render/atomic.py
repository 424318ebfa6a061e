"""Write a build's outputs all or nothing.

Outputs are written into a staging folder next to the destination (same
filesystem, so renames are atomic). Only when every output is complete
are they moved into place: a build that fails or is killed before that
leaves the previous outputs untouched, plus at worst a stale hidden
``.NAME.staging-*`` folder that the next build removes.

A fresh destination is created by one rename of the whole staging folder.
An existing destination keeps any unrelated files (``--out .`` must never
wipe a workspace): each output replaces its namesake by one ``os.replace``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path


def _staging_prefix(dest: Path) -> str:
    return f".{dest.name}.staging-"


@contextlib.contextmanager
def staged_outputs(dest: Path) -> Iterator[Path]:
    """Yield an empty staging folder; on normal exit move its files into ``dest``."""
    dest = Path(os.path.abspath(dest))
    parent = dest.parent
    parent.mkdir(parents=True, exist_ok=True)
    for stale in parent.glob(_staging_prefix(dest) + "*"):
        shutil.rmtree(stale, ignore_errors=True)
    staging = Path(tempfile.mkdtemp(prefix=_staging_prefix(dest), dir=parent))
    try:
        yield staging
        _commit(staging, dest)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _commit(staging: Path, dest: Path) -> None:
    for path in staging.rglob("*"):
        if path.is_file():
            _fsync(path)
    if not dest.exists():
        staging.chmod(0o755)
        os.rename(staging, dest)
        return
    for path in sorted(staging.rglob("*")):
        target = dest / path.relative_to(staging)
        if path.is_dir():
            target.mkdir(exist_ok=True)
        else:
            os.replace(path, target)


def _fsync(path: Path) -> None:
    with open(path, "rb") as handle:
        os.fsync(handle.fileno())


def write_bytes(folder: Path, name: str, data: bytes) -> Path:
    """Write one output file with fixed permissions (0644)."""
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    path.chmod(0o644)
    return path
