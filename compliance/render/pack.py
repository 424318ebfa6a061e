"""The evidence pack: a byte-reproducible zip with a sha256 manifest.

Entries are sorted, stamped with the input date (never the clock), stored
with fixed permissions (0644), no extra fields and a fixed compression
level, so two builds of the same workspace give the same bytes and an
auditor can re-hash every file against ``manifest.json``.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import json
import posixpath
import zipfile
from collections.abc import Callable, Mapping
from typing import Any

MANIFEST_NAME = "manifest.json"
#: The manifest's OpenSSH signature (``build --sign``), see :mod:`compliance.sshsig`.
SIGNATURE_NAME = "manifest.json.sig"
MANIFEST_FORMAT = "compliance-evidence-pack/1"
_ZIP_EPOCH = dt.date(1980, 1, 1)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def pack_path(evidence_path: str) -> str | None:
    """Where the pack holds the evidence file the model names ``evidence_path`` (its
    ``path:`` under evidence/): ``evidence/`` and the path as the model spells it, made
    plain (``./a//b`` is ``evidence/a/b``), so the report, the pack and ``compliance
    verify`` (which has only model.json) find it under one name, whatever links lead
    to the file. None when the spelling names nothing under evidence/ (``.``, or a
    ``..`` that climbs out of it)."""
    plain = posixpath.normpath(evidence_path)
    if plain in (".", "..") or plain.startswith(("../", "/")):
        return None
    return f"evidence/{plain}"


def manifest(
    files: Mapping[str, bytes], *, system: str, reviewed: dt.date, generator: str,
    verdicts: Mapping[str, str] | None = None,
    audience: str = "internal",
) -> dict[str, Any]:
    """The manifest: the audience the pack was built for, every file's path, size and
    sha256, sorted by path, and each control's verdict (``verified``, ``partly-verified``,
    ``unverified``, ``refuted``)."""
    out: dict[str, Any] = {
        "format": MANIFEST_FORMAT,
        "system": system,
        "reviewed": reviewed.isoformat(),
        "generator": generator,
        "audience": audience,
        "files": [
            {"path": path, "bytes": len(data), "sha256": sha256(data)}
            for path, data in sorted(files.items())
        ],
    }
    if verdicts is not None:
        out["verdicts"] = dict(sorted(verdicts.items()))
    return out


def manifest_bytes(data: Mapping[str, Any]) -> bytes:
    """Canonical JSON: sorted keys, two-space indent, trailing newline."""
    return (json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()


def build_zip(files: Mapping[str, bytes], *, date: dt.date) -> bytes:
    """A deterministic zip of ``files`` (POSIX paths -> bytes), entries sorted."""
    stamp = max(date, _ZIP_EPOCH)
    date_time = (stamp.year, stamp.month, stamp.day, 0, 0, 0)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path in sorted(files):
            _check_path(path)
            info = zipfile.ZipInfo(path, date_time=date_time)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3  # Unix, so external_attr holds a mode
            info.external_attr = (0o100644 & 0xFFFF) << 16
            info.extra = b""
            archive.writestr(info, files[path], compresslevel=9)
    return buffer.getvalue()


def build_pack(
    files: Mapping[str, bytes],
    *,
    system: str,
    reviewed: dt.date,
    generator: str,
    verdicts: Mapping[str, str] | None = None,
    audience: str = "internal",
    sign: Callable[[bytes], bytes] | None = None,
) -> bytes:
    """The evidence pack: ``files`` plus ``manifest.json`` hashing each of them, and with
    ``sign`` the manifest's signature as ``manifest.json.sig`` (not listed in it)."""
    if MANIFEST_NAME in files or SIGNATURE_NAME in files:
        raise ValueError(f"{MANIFEST_NAME} and {SIGNATURE_NAME} are written by the pack itself")
    data = manifest(files, system=system, reviewed=reviewed, generator=generator,
                    verdicts=verdicts, audience=audience)
    listed = manifest_bytes(data)
    extra = {SIGNATURE_NAME: sign(listed)} if sign is not None else {}
    return build_zip({**files, MANIFEST_NAME: listed, **extra}, date=reviewed)


def _check_path(path: str) -> None:
    parts = path.split("/")
    if path.startswith("/") or "\\" in path or any(p in ("", ".", "..") for p in parts):
        raise ValueError(f"not a safe relative zip path: {path!r}")
