"""Atomic writes: a file or a folder appears complete or not at all.

Write into a temporary sibling, flush to disk, then ``os.replace`` it into
place; a failed or killed run leaves the previous file untouched.

Every writer reports a failure to write the same way: :func:`writing_to`
turns the ``OSError`` (permission denied, read-only or full disk, a folder
where a file should go) into :class:`CannotWrite`, which names the
destination and which the command line prints as one line with exit 2.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
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
