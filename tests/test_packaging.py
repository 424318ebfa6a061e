"""Every data file the package reads at run time ships in the wheel.

An editable install reads files from the checkout, so a data file missing from
``[tool.setuptools.package-data]`` passes every other test and breaks only a plain
``pip install .`` (the README's first command): this test fails instead.
"""

from __future__ import annotations

import tomllib
from pathlib import Path, PurePosixPath

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "compliance"


def _declared() -> list[tuple[PurePosixPath, str]]:
    data = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    out = []
    for package, globs in data["tool"]["setuptools"]["package-data"].items():
        base = PurePosixPath(*package.split("."))
        out.extend((base, g) for g in globs)
    return out


def _shipped(rel: PurePosixPath, declared: list[tuple[PurePosixPath, str]]) -> bool:
    for base, pattern in declared:
        try:
            inner = rel.relative_to(base)
        except ValueError:
            continue
        if inner.match(pattern) or any(
                inner.match(pattern.replace("**/", "*/" * depth))
                for depth in range(len(inner.parts))):
            return True
    return False


def test_every_data_file_of_the_package_is_declared_as_package_data() -> None:
    declared = _declared()
    missing = []
    for path in sorted(PACKAGE.rglob("*")):
        if path.is_dir() or path.suffix in (".py", ".pyc") or "__pycache__" in path.parts:
            continue
        if "_templates" in path.relative_to(PACKAGE).parts:
            continue  # the symlink to templates/, declared as _templates/**/*
        rel = PurePosixPath(path.relative_to(REPO).as_posix())
        if not _shipped(rel, declared):
            missing.append(str(rel))
    assert missing == [], f"add to [tool.setuptools.package-data] in pyproject.toml: {missing}"
