"""Outputs move into place only when all of them are written."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from compliance.atomic import CannotWrite
from compliance.render.atomic import staged_outputs, write_bytes
from tests.faults import fail_os_replace, fail_replacing, leftover_name


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
    stale = tmp_path / leftover_name(".out.staging-")
    stale.mkdir()
    (stale / "half.pdf").write_bytes(b"%PDF")
    with staged_outputs(tmp_path / "out") as staging:
        write_bytes(staging, "a.txt", b"a")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def _previous_outputs(out: Path) -> dict[str, bytes]:
    out.mkdir()
    (out / "a.txt").write_bytes(b"old a")
    (out / "b.txt").write_bytes(b"old b")
    return {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}


def _contents(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}


def test_a_folder_where_an_output_goes_stops_before_any_replacement(tmp_path: Path) -> None:
    out = tmp_path / "out"
    before = _previous_outputs(out)
    (out / "c.pdf").mkdir()
    with pytest.raises(CannotWrite) as caught, staged_outputs(out) as staging:
        for name in ("a.txt", "b.txt", "c.pdf"):
            write_bytes(staging, name, b"new")
    assert caught.value.message == f"cannot write {out / 'c.pdf'}: it is a folder"
    assert _contents(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_a_file_where_an_output_folder_goes_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "out"
    before = _previous_outputs(out)
    with pytest.raises(CannotWrite) as caught, staged_outputs(out) as staging:
        write_bytes(staging, "a.txt", b"new")
        write_bytes(staging, "b.txt/inner.txt", b"new")
    assert caught.value.message == f"cannot write {out / 'b.txt'}: it is a file, not a folder"
    assert _contents(out) == before


def test_a_failed_replacement_puts_every_previous_output_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    before = _previous_outputs(out)
    fail_replacing(monkeypatch, "b.txt", PermissionError(1, "Operation not permitted"))
    with pytest.raises(CannotWrite) as caught, staged_outputs(out) as staging:
        for name in ("a.txt", "a2.txt", "b.txt", "sub/c.txt"):  # sorted: a, a2, b, sub/c
            write_bytes(staging, name, b"new")
    assert caught.value.message == f"cannot write {out / 'b.txt'}: Operation not permitted"
    assert _contents(out) == before  # a.txt restored, a2.txt (new) removed
    assert sorted(p.name for p in out.iterdir()) == ["a.txt", "b.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_an_interrupt_while_moving_puts_the_previous_outputs_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    before = _previous_outputs(out)
    fail_replacing(monkeypatch, "b.txt", KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt), staged_outputs(out) as staging:
        write_bytes(staging, "a.txt", b"new")
        write_bytes(staging, "b.txt", b"new")
    assert _contents(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_previous_outputs_that_cannot_be_put_back_are_kept_and_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    _previous_outputs(out)
    fail_os_replace(monkeypatch, PermissionError(13, "Permission denied"),
                    lambda src, dst: dst.name == "b.txt" or ".previous-" in str(src))
    with pytest.raises(CannotWrite) as caught, staged_outputs(out) as staging:
        write_bytes(staging, "a.txt", b"new")
        write_bytes(staging, "b.txt", b"new")
    [previous] = [p for p in tmp_path.iterdir() if p.name.startswith(".out.previous-")]
    assert caught.value.message == (
        f"cannot write {out / 'b.txt'}: Permission denied; could not put back the previous "
        f"a.txt: the previous outputs are kept in {previous}"
    )
    assert b"old a" in [p.read_bytes() for p in previous.iterdir()]
    assert (out / "b.txt").read_bytes() == b"old b"


def test_an_unwritable_parent_is_a_cannot_write_naming_the_destination(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: object, **kwargs: object) -> str:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkdtemp", refuse)
    with pytest.raises(CannotWrite) as caught, staged_outputs(tmp_path / "out"):
        pytest.fail("the block must not run")
    assert caught.value.message == f"cannot write {tmp_path / 'out'}: Permission denied"
    assert list(tmp_path.iterdir()) == []


def test_a_file_as_the_destination_is_a_cannot_write(tmp_path: Path) -> None:
    (tmp_path / "out").write_text("mine")
    with pytest.raises(CannotWrite) as caught, staged_outputs(tmp_path / "out"):
        pytest.fail("the block must not run")
    assert caught.value.message == f"cannot write {tmp_path / 'out'}: it is a file, not a folder"
    assert (tmp_path / "out").read_text() == "mine"
