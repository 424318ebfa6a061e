"""The packaged templates ship inside the wheel, so `pip install .` works from any folder."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EXPECTED = [
    "compliance/render/_templates/base.html",
    "compliance/render/_templates/report.html",
    "compliance/render/_templates/control.html",
    "compliance/render/_templates/findings.html",
    "compliance/render/_templates/waivers.html",
    "compliance/render/_templates/report.css",
    "compliance/render/_templates/stance.md.j2",
    "compliance/render/_templates/assets/fonts.css",
    "compliance/render/_templates/assets/fonts/DejaVuSans.ttf",
    "compliance/render/_templates/assets/fonts/DejaVuSans-Bold.ttf",
    "compliance/render/_templates/assets/fonts/DejaVuSansMono.ttf",
    "compliance/render/_templates/assets/fonts/LICENSE",
]


def _can_build_offline() -> bool:
    """setuptools >= 70.1 builds wheels by itself; older ones need the wheel package."""
    if importlib.util.find_spec("setuptools") is None:
        return False
    import setuptools

    major, minor = (int(part) for part in setuptools.__version__.split(".")[:2])
    return (major, minor) >= (70, 1) or importlib.util.find_spec("wheel") is not None


@pytest.mark.slow
def test_wheel_contains_the_templates(tmp_path: Path) -> None:
    source = tmp_path / "src"
    source.mkdir()
    shutil.copy2(REPO / "pyproject.toml", source)
    readme = REPO / "README.md"
    if readme.is_file():
        shutil.copy2(readme, source)
    else:
        (source / "README.md").write_text("placeholder\n")
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(REPO / "compliance", source / "compliance", symlinks=True, ignore=ignore)
    shutil.copytree(REPO / "templates", source / "templates", ignore=ignore)
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path)]
    if _can_build_offline():
        command.append("--no-build-isolation")
    subprocess.run([*command, str(source)], check=True, capture_output=True, text=True)
    (wheel,) = tmp_path.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        fonts = archive.read("compliance/render/_templates/assets/fonts/DejaVuSans.ttf")
    missing = [name for name in EXPECTED if name not in names]
    assert missing == []
    assert fonts == (REPO / "templates" / "assets" / "fonts" / "DejaVuSans.ttf").read_bytes()

    # Installed (a pure wheel unpacks as is) and run from an unrelated folder.
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    probe = "from compliance.render.env import packaged_templates_dir as p; print(p())"
    out = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=elsewhere,
        env={**os.environ, "PYTHONPATH": str(site)},
        check=True,
        capture_output=True,
        text=True,
    )
    assert out.stdout == f"{(site / 'compliance' / 'render' / '_templates').resolve()}\n"
