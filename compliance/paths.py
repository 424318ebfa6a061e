"""Paths that cannot escape their folder: the one place that decides "inside"."""

from __future__ import annotations

from pathlib import Path, PurePosixPath


class OutsideFolder(ValueError):
    """A relative path that leaves its folder (absolute, ``..``, or a symlink out)."""


def resolve_inside(base: Path, relative: str) -> Path:
    """Resolve ``relative`` under ``base``; refuse anything that ends up outside it.

    Absolute paths, drive letters, backslashes and ``..`` that climb out are
    refused before touching the disk; then symbolic links are resolved and the
    real path must still be under the real ``base``.
    """
    if not relative or relative.strip() != relative:
        raise OutsideFolder("empty path or surrounding spaces")
    if "\\" in relative or "\x00" in relative:
        raise OutsideFolder("use forward slashes; backslashes and NUL are not allowed")
    pure = PurePosixPath(relative)
    if pure.is_absolute() or (len(relative) > 1 and relative[1] == ":"):
        raise OutsideFolder("absolute paths are not allowed; give a path relative to the folder")
    real_base = base.resolve()
    target = (real_base / pure).resolve()
    if target != real_base and real_base not in target.parents:
        raise OutsideFolder(f"resolves outside {base.name}/ (after following '..' and links)")
    return target
