"""The evidence pack zip: deterministic bytes, fixed metadata, a manifest that hashes every file."""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import json
import zipfile

import pytest

from compliance.render.pack import MANIFEST_NAME, build_pack, build_zip, pack_path

FILES = {
    "model.json": b'{"system": "x"}\n',
    "evidence/b.txt": b"bee\n",
    "evidence/a.json": b"{}\n",
    "report.pdf": b"%PDF-1.7 fake\n",
}
REVIEWED = dt.date(2026, 11, 2)


def pack() -> bytes:
    return build_pack(FILES, system="Sys", reviewed=REVIEWED, generator="compliance 0.1.0")


def test_pack_is_byte_identical_whatever_the_insertion_order() -> None:
    reordered = dict(reversed(list(FILES.items())))
    other = build_pack(reordered, system="Sys", reviewed=REVIEWED, generator="compliance 0.1.0")
    assert pack() == other


def test_entries_sorted_with_fixed_metadata() -> None:
    with zipfile.ZipFile(io.BytesIO(pack())) as archive:
        infos = archive.infolist()
        assert [i.filename for i in infos] == [
            "evidence/a.json",
            "evidence/b.txt",
            "manifest.json",
            "model.json",
            "report.pdf",
        ]
        for info in infos:
            assert info.date_time == (2026, 11, 2, 0, 0, 0)
            assert info.external_attr >> 16 == 0o100644
            assert info.create_system == 3
            assert info.extra == b""
            assert info.compress_type == zipfile.ZIP_DEFLATED


def test_manifest_hashes_every_file() -> None:
    with zipfile.ZipFile(io.BytesIO(pack())) as archive:
        manifest = json.loads(archive.read(MANIFEST_NAME))
        assert manifest == {
            "format": "compliance-evidence-pack/1",
            "system": "Sys",
            "reviewed": "2026-11-02",
            "generator": "compliance 0.1.0",
            "audience": "internal",
            "files": [
                {"path": path, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
                for path, data in sorted(FILES.items())
            ],
        }
        for entry in manifest["files"]:
            assert hashlib.sha256(archive.read(entry["path"])).hexdigest() == entry["sha256"]


def test_dates_before_1980_are_clamped() -> None:
    data = build_zip({"a": b"a"}, date=dt.date(1970, 1, 1))
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert archive.infolist()[0].date_time == (1980, 1, 1, 0, 0, 0)


@pytest.mark.parametrize("path", ["/abs", "../up", "a/../b", "a\\b", "a//b", "./a"])
def test_unsafe_paths_are_refused(path: str) -> None:
    with pytest.raises(ValueError, match="not a safe relative zip path"):
        build_zip({path: b""}, date=REVIEWED)


def test_manifest_name_is_reserved() -> None:
    for name in (MANIFEST_NAME, "manifest.json.sig"):
        with pytest.raises(ValueError, match="manifest.json and manifest.json.sig are written "
                                             "by the pack itself"):
            build_pack({name: b""}, system="s", reviewed=REVIEWED, generator="g")


def test_pack_path_is_the_models_spelling_made_plain() -> None:
    """The one name the build packs an evidence file under and verify looks it up by."""
    assert [pack_path(p) for p in ("fw.sh", "./a//b.json", "a/./b", "x/../a/b")] == [
        "evidence/fw.sh", "evidence/a/b.json", "evidence/a/b", "evidence/a/b"]
    assert [pack_path(p) for p in (".", "a/..", "../x", "a/../../x", "/etc/x")] == [
        None, None, None, None, None]
