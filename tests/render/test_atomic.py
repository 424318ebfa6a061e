"""Outputs move into place only when all of them are written."""

from __future__ import annotations

from pathlib import Path

import pytest

from compliance.render.atomic import staged_outputs, write_bytes


def test_fresh_destination_appears_whole(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with staged_outputs(out) as staging:
        write_bytes(staging, "a.txt", b"a")
        write_bytes(staging, "sub/b.txt", b"b")
        assert not out.exists()
    assert (out / "a.txt").read_bytes() == b"a"
    assert (out / "sub" / "b.txt").read_bytes() == b"b"
    assert (out / "a.txt").stat().st_mode & 0o777 == 0o644
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_failed_build_leaves_previous_outputs_intact(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "a.txt").write_bytes(b"old")
    with pytest.raises(RuntimeError), staged_outputs(out) as staging:
        write_bytes(staging, "a.txt", b"new")
        raise RuntimeError("render failed")
    assert (out / "a.txt").read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_existing_destination_keeps_unrelated_files(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "a.txt").write_bytes(b"old")
    (out / "notes.md").write_bytes(b"mine")
    with staged_outputs(out) as staging:
        write_bytes(staging, "a.txt", b"new")
    assert (out / "a.txt").read_bytes() == b"new"
    assert (out / "notes.md").read_bytes() == b"mine"


def test_stale_staging_from_a_killed_build_is_removed(tmp_path: Path) -> None:
    stale = tmp_path / ".out.staging-dead"
    stale.mkdir()
    (stale / "half.pdf").write_bytes(b"%PDF")
    with staged_outputs(tmp_path / "out") as staging:
        write_bytes(staging, "a.txt", b"a")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
