"""Faults injected into file operations, shared by the tests of every atomic writer."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest


def fail_os_replace(monkeypatch: pytest.MonkeyPatch, exc: BaseException,
                    when: Callable[[Path, Path], bool]) -> None:
    """``os.replace(src, dst)`` raises ``exc`` when ``when(src, dst)``; otherwise it works."""
    real_replace = os.replace

    def replace(src: str | Path, dst: str | Path) -> None:
        if when(Path(src), Path(dst)):
            raise exc
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)


def fail_replacing(monkeypatch: pytest.MonkeyPatch, name: str, exc: BaseException) -> None:
    """``os.replace`` raises ``exc`` when its destination is called ``name``."""
    fail_os_replace(monkeypatch, exc, lambda _src, dst: dst.name == name)


def dead_pid() -> int:
    """The pid of a process that has exited (what a run killed with SIGKILL leaves)."""
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-c", ""])
    child.wait()
    return child.pid


def leftover_name(prefix: str, suffix: str = "") -> str:
    """A temporary name as a killed run of the tool leaves it: ``<prefix><pid>-<random>``."""
    return f"{prefix}{dead_pid()}-abcd1234{suffix}"
