"""`compliance verify`: are the files of this evidence pack consistent, and who signed it?

Four checks, each naming exactly what does not match:

1. every file of the zip against ``manifest.json`` (present, size, sha256; nothing
   unlisted);
2. every evidence file against the sha256 pin that the pack's ``model.json`` gives it
   (and every pinned file is in the pack);
3. the manifest attached inside ``report.pdf`` against ``manifest.json`` (the same
   system, date, generator and audience; the same files with the same hashes,
   except the PDF itself, which cannot hold its own hash);
4. ``manifest.json.sig`` against an allowed-signers file, with ssh-keygen.

It also says what the pack records of the check it was built after: the open findings
in its ``findings.json`` (whose sha256 the manifest holds). A pack built with
``--allow-findings`` is consistent all the same, and the verdict says with how many open
errors it was built.

Only a good signature shows that the pack is the one that was built: without it,
anyone who can edit the zip can make its files consistent again, so the verdict
says "consistent", never "verified".

The pack is read with bounds (size, entries, compression ratio) and never
extracted; the manifests are read by the model loader, so a malformed one is a
positioned error. A pack that cannot be read at all is a ``UserError`` (exit 2).
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from compliance.diagnostics import Diagnostic, UserError
from compliance.model.pack import PackManifest
from compliance.render.pack import MANIFEST_NAME, SIGNATURE_NAME, pack_path

PDF_NAME = "report.pdf"
MODEL_NAME = "model.json"
FINDINGS_NAME = "findings.json"
MAX_PACK_BYTES = 2 << 30
MAX_ENTRIES = 100_000
MAX_TOTAL_BYTES = 4 << 30
MAX_RATIO = 200
MAX_READ_BYTES = 512 << 20


@dataclass(frozen=True)
class Problem:
    """One thing that does not match: the file (or part) and what is wrong with it."""

    subject: str
    message: str


@dataclass
class PackCheck:
    pack: Path
    checked: int = 0
    #: Evidence files compared with the sha256 pin model.json gives them.
    pins_checked: int = 0
    problems: list[Problem] = field(default_factory=list)
    #: Positioned errors in a manifest that was read but breaks the schema.
    manifest_errors: list[Diagnostic] = field(default_factory=list)
    #: The errors are report.pdf's attached manifest's (manifest.json itself was good, so
    #: the files, the pins and the signature were checked; only that comparison was not).
    attached_malformed: bool = False
    signature: str = ""
    signature_ok: bool | None = None
    #: Whether the pack holds manifest.json.sig; None when the signature was not looked at
    #: (the pack's manifest.json could not be read as a manifest).
    signed: bool | None = None
    #: The open findings findings.json records (its ``summary``: error, warning, info,
    #: waived); None when it could not be read (a problem names why).
    built_with: dict[str, int] | None = None

    @property
    def ok(self) -> bool:
        return not self.problems and not self.manifest_errors and self.signature_ok is not False

    @property
    def signature_status(self) -> str:
        """One word for the signature: ``good``, ``bad`` (signed, and it does not verify
        against --allowed-signers), ``not-checked`` (signed, no --allowed-signers),
        ``missing`` (not signed, and --allowed-signers asks for a signature),
        ``unsigned`` (not signed, none asked for) or ``not-examined``."""
        if self.signed is None:
            return "not-examined"
        if self.signed:
            return {True: "good", False: "bad", None: "not-checked"}[self.signature_ok]
        return "missing" if self.signature_ok is False else "unsigned"

    def verdict(self) -> str:
        """The last line `compliance verify` prints, after the pack's path."""
        if self.manifest_errors and not self.attached_malformed:
            return ("manifest.json does not have the form of a pack manifest; nothing else "
                    "was checked")
        if self.attached_malformed:
            found = f"{len(self.problems)} problem(s) above; " if self.problems else ""
            ran = (f"{self.checked} files match manifest.json and {self.pins_checked} "
                   "evidence files match their sha256 pins in model.json" if not self.problems
                   else f"{self.checked} files were compared with manifest.json and "
                        f"{self.pins_checked} evidence files with their sha256 pins")
            return (f"NOT verified: {found}report.pdf's attached manifest.json does not have "
                    "the form of a pack manifest, so it was not compared with "
                    f"manifest.json; {ran}")
        if not self.ok:
            return f"NOT verified: {len(self.problems)} problem(s) above"
        what = (f"{self.checked} files match manifest.json, {self.pins_checked} evidence "
                f"files match their sha256 pins in model.json, and report.pdf's attached "
                "manifest matches manifest.json")
        if self.signature_ok:
            return f"verified{self._open_errors()}: {what}; the signature is good"
        why = ("the pack is signed, but who signed it was not checked (give "
               "--allowed-signers FILE)" if self.signed else "the pack is not signed")
        return (f"consistent, not shown to be the pack that was built{self._open_errors()}: "
                f"{what}; {why}, so anyone who can edit the zip could have made it consistent")

    def _open_errors(self) -> str:
        """', and built with N open error findings (...)' when findings.json records any."""
        errors = (self.built_with or {}).get("error", 0)
        if not errors:
            return ""
        one = errors == 1
        return (f", and built with {errors} open error finding{'' if one else 's'} (build "
                f"--allow-findings; {FINDINGS_NAME} in the pack lists "
                f"{'it' if one else 'them'})")

    def as_dict(self) -> dict[str, Any]:
        """The keys `compliance verify --format json` adds to the JSON report (see
        docs/report.md); the manifest's positioned errors are its ``findings``."""
        return {
            "pack": str(self.pack),
            "ok": self.ok,
            "verdict": self.verdict(),
            "files_checked": self.checked,
            "pins_checked": self.pins_checked,
            "problems": [{"subject": p.subject, "message": p.message} for p in self.problems],
            "signature": {"status": self.signature_status, "message": self.signature},
            "built_with": self.built_with,
        }


class _Pack:
    """The zip, read within bounds; entry bytes read on demand."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            size = path.stat().st_size
        except OSError as exc:
            raise UserError(f"{path}: cannot read the pack ({exc.strerror or exc})") from None
        if not path.is_file():
            raise UserError(f"{path}: not a file")
        if size > MAX_PACK_BYTES:
            raise UserError(f"{path}: {size} bytes; a pack larger than {MAX_PACK_BYTES >> 30} "
                            "GiB is not read")
        try:
            self.zip = zipfile.ZipFile(path)
        except (zipfile.BadZipFile, OSError) as exc:
            raise UserError(f"{path}: not a zip file, so not an evidence pack ({exc})") from None
        infos = self.zip.infolist()
        if len(infos) > MAX_ENTRIES:
            raise UserError(f"{path}: {len(infos)} entries; more than {MAX_ENTRIES} are not read")
        total = sum(i.file_size for i in infos)
        if total > MAX_TOTAL_BYTES:
            raise UserError(f"{path}: its files would take {total} bytes unpacked; more than "
                            f"{MAX_TOTAL_BYTES >> 30} GiB is not read")
        for info in infos:
            if info.file_size > (1 << 20) and info.file_size > MAX_RATIO * max(
                    info.compress_size, 1):
                raise UserError(f"{path}: {info.filename} expands {info.file_size} bytes from "
                                f"{info.compress_size}: refusing a zip bomb")
        self.names = [i.filename for i in infos if not i.is_dir()]

    def read(self, name: str) -> bytes:
        """An entry's bytes; a corrupt entry (its CRC or size does not match) raises ValueError."""
        info = self.zip.getinfo(name)
        if info.file_size > MAX_READ_BYTES:
            raise ValueError(f"larger than {MAX_READ_BYTES >> 20} MiB")
        try:
            return self.zip.read(info)
        except (zipfile.BadZipFile, OSError, EOFError, RuntimeError, NotImplementedError,
                ValueError) as exc:
            raise ValueError(f"its zip entry is corrupt ({exc})") from None

    def digest(self, name: str) -> tuple[int, str]:
        data = self.read(name)
        return len(data), hashlib.sha256(data).hexdigest()


def read_manifest(data: bytes, display: str) -> tuple[PackManifest | None, list[Diagnostic]]:
    """A manifest's bytes -> the strict model, or positioned errors (JSON read as YAML with
    positions by the model loader). Raises UserError when it is not JSON/YAML at all."""
    from compliance.load.errors import diagnostics_from
    from compliance.load.yamlpos import YamlLoadError, parse_yaml

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise UserError(f"{display}: not UTF-8 text") from None
    try:
        doc = parse_yaml(text, display)
    except YamlLoadError as exc:
        raise UserError(f"{display}: cannot be read", exc.diagnostics) from None
    if doc.problems:
        return None, list(doc.problems)
    if not isinstance(doc.data, dict):
        raise UserError(f"{display}: not a JSON object, so not a pack manifest")
    try:
        return PackManifest.model_validate(doc.data), []
    except ValidationError as exc:
        return None, diagnostics_from(exc, doc, PackManifest)


def _short(digest: str) -> str:
    return digest[:16]


def _files(pack: _Pack, manifest: PackManifest, result: PackCheck) -> dict[str, str]:
    """Check every file against manifest.json; return the sha256 of each file that matches."""
    listed: dict[str, Any] = {}
    matched: dict[str, str] = {}
    for entry in manifest.files:
        if entry.path in listed:
            result.problems.append(Problem(entry.path, "listed twice in manifest.json"))
        listed[entry.path] = entry
    present = set(pack.names)
    duplicated = {name for name, n in Counter(pack.names).items() if n > 1}
    for name in sorted(duplicated):
        result.problems.append(Problem(name, "appears more than once in the zip"))
    present -= duplicated
    for path, entry in listed.items():
        if path in duplicated:
            continue  # named above; which copy is meant cannot be told
        if path not in present:
            result.problems.append(Problem(path, "listed in manifest.json, not in the pack"))
            continue
        try:
            size, digest = pack.digest(path)
        except ValueError as exc:
            result.problems.append(Problem(path, str(exc)))
            continue
        result.checked += 1
        if digest != entry.sha256:
            result.problems.append(Problem(
                path, f"sha256 is {_short(digest)}... in the pack, {_short(entry.sha256)}... "
                f"in manifest.json: the file was changed after the pack was built"))
        elif size != entry.bytes:
            result.problems.append(Problem(path, f"{size} bytes in the pack, {entry.bytes} in "
                                           "manifest.json"))
        else:
            matched[path] = digest
    for name in sorted(present - set(listed) - {MANIFEST_NAME, SIGNATURE_NAME}):
        result.problems.append(Problem(name, "in the pack, not listed in manifest.json"))
    return matched


def _model_pins(data: bytes) -> dict[str, tuple[str, str]] | str:
    """model.json's evidence pins: pack path (:func:`compliance.render.pack.pack_path`, as
    the build named the file) -> (evidence id, sha256), or why they cannot be read.
    Evidence without a pin is left out (there is nothing to compare it with); a path that
    names nothing under evidence/ is keyed by its spelling, which no member has."""
    try:
        model = json.loads(data.decode("utf-8"))
        evidence = model["evidence"]
        pins: dict[str, tuple[str, str]] = {}
        for item in evidence:
            path, digest = item["path"], item.get("sha256")
            if not isinstance(path, str) or not isinstance(digest, str | None):
                raise TypeError("an evidence path or sha256 is not a string")
            if digest is not None:
                pins[pack_path(path) or f"evidence/{path}"] = (str(item["id"]), digest)
    except (UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError,
            AttributeError) as exc:
        return f"its evidence list cannot be read ({type(exc).__name__}: {exc})"
    return pins


def _pins(pack: _Pack, matched: dict[str, str], result: PackCheck) -> None:
    """Every evidence file against the sha256 pin model.json gives it. Files already named
    by a problem are not named again, and model.json is read only when it matched the
    manifest."""
    named = {p.subject for p in result.problems}
    if MODEL_NAME in named:
        return
    if MODEL_NAME not in matched:
        result.problems.append(Problem(MODEL_NAME, "not in the pack, so no evidence file was "
                                       "compared with its sha256 pin"))
        return
    pins = _model_pins(pack.read(MODEL_NAME))
    if isinstance(pins, str):
        result.problems.append(Problem(MODEL_NAME, f"{pins}, so no evidence file was compared "
                                       "with its sha256 pin"))
        return
    for path, (evidence_id, pinned) in sorted(pins.items()):
        if path in named:
            continue
        actual = matched.get(path)
        if actual is None:
            result.problems.append(Problem(path, f"model.json pins it (evidence {evidence_id}, "
                                           f"sha256 {_short(pinned)}...), not in the pack"))
            continue
        result.pins_checked += 1
        if actual != pinned:
            result.problems.append(Problem(
                path, f"sha256 is {actual} in the pack and in manifest.json, but model.json "
                f"pins evidence {evidence_id} at {pinned}: the file was changed after it was "
                "pinned, either after the pack was built or in a build with --allow-findings"))


def _built_with(pack: _Pack, matched: dict[str, str], result: PackCheck) -> None:
    """The open findings the pack was built with, from its findings.json (read only when it
    matched the manifest; a file already named by a problem is not named again)."""
    if FINDINGS_NAME in {p.subject for p in result.problems}:
        return
    if FINDINGS_NAME not in matched:
        result.problems.append(Problem(FINDINGS_NAME, "not in the pack, so what findings were "
                                       "open when it was built cannot be told"))
        return
    try:
        summary = json.loads(pack.read(FINDINGS_NAME).decode("utf-8"))["summary"]
        counts = {k: summary[k] for k in ("error", "warning", "info", "waived")}
        if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0
                   for n in counts.values()):
            raise TypeError("a count is not a whole number")
    except (ValueError, KeyError, TypeError) as exc:  # (not UTF-8 or JSON: ValueError)
        result.problems.append(Problem(FINDINGS_NAME, f"its summary cannot be read "
                                       f"({type(exc).__name__}: {exc}), so what findings were "
                                       "open when the pack was built cannot be told"))
        return
    result.built_with = counts


def _embedded(pack: _Pack, manifest: PackManifest, result: PackCheck) -> None:
    subject = f"{PDF_NAME} (its attached manifest.json)"
    if PDF_NAME not in pack.names:
        if not any(f.path == PDF_NAME for f in manifest.files):
            result.problems.append(Problem(PDF_NAME, "no report.pdf in the pack"))
        return
    try:
        pdf = pack.read(PDF_NAME)
    except ValueError:
        return  # named by the file check
    attached = _attachment(pdf)
    if isinstance(attached, str):
        result.problems.append(Problem(subject, attached))
        return
    inner, errors = read_manifest(attached, f"{pack.path.name}!{PDF_NAME}!{MANIFEST_NAME}")
    if inner is None:
        result.manifest_errors.extend(errors)
        result.attached_malformed = True
        return
    for key in ("format", "system", "reviewed", "generator", "audience"):
        a, b = getattr(inner, key), getattr(manifest, key)
        if a != b:
            result.problems.append(Problem(subject, f"{key} is {a!s} in the PDF, {b!s} in "
                                           "manifest.json"))
    outer = {f.path: f for f in manifest.files if f.path != PDF_NAME}
    embedded = {f.path: f for f in inner.files}
    for path in sorted(outer.keys() | embedded.keys()):
        if path not in embedded:
            result.problems.append(Problem(subject, f"does not list {path}"))
        elif path not in outer:
            result.problems.append(Problem(subject, f"lists {path}, manifest.json does not"))
        elif (embedded[path].sha256, embedded[path].bytes) != (outer[path].sha256,
                                                               outer[path].bytes):
            result.problems.append(Problem(
                subject, f"{path} has sha256 {_short(embedded[path].sha256)}... in the PDF, "
                f"{_short(outer[path].sha256)}... in manifest.json"))


def _attachment(pdf: bytes) -> bytes | str:
    """The PDF's attached manifest.json, or why there is none."""
    import logging

    import pypdf

    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        found = pypdf.PdfReader(io.BytesIO(pdf)).attachments.get(MANIFEST_NAME)
    except Exception as exc:  # noqa: BLE001 - pypdf raises many kinds on a broken PDF
        return f"cannot be read as a PDF ({type(exc).__name__}: {exc})"
    if not found:
        return "has no attached manifest.json"
    if len(found) > 1:
        return "has more than one attached manifest.json"
    return bytes(found[0])


def _signature(pack: _Pack, manifest_data: bytes, allowed: Path | None,
               result: PackCheck) -> None:
    from compliance.sshsig import verify

    result.signed = SIGNATURE_NAME in pack.names
    if not result.signed:
        result.signature = "not signed (no manifest.json.sig)"
        if allowed is not None:
            result.signature_ok = False
            result.problems.append(Problem(SIGNATURE_NAME, "the pack is not signed, and "
                                           "--allowed-signers asks for a signature"))
        return
    if allowed is None:
        result.signature = ("signed, NOT CHECKED: give --allowed-signers FILE to check who "
                            "signed it")
        return
    try:
        signature = pack.read(SIGNATURE_NAME)
    except ValueError as exc:
        result.signature_ok = False
        result.problems.append(Problem(SIGNATURE_NAME, str(exc)))
        return
    check = verify(manifest_data, signature, allowed)
    result.signature = check.message
    result.signature_ok = check.ok
    if not check.ok:
        result.problems.append(Problem(SIGNATURE_NAME, check.message))


def verify_pack(path: Path, allowed_signers: Path | None = None) -> PackCheck:
    """Check ``path`` (an evidence-pack.zip). Raises UserError when it cannot be read."""
    if allowed_signers is not None and not allowed_signers.is_file():
        raise UserError(f"--allowed-signers {allowed_signers}: no such file")
    pack = _Pack(path)
    result = PackCheck(path)
    with pack.zip:
        if MANIFEST_NAME not in pack.names:
            raise UserError(f"{path}: no manifest.json, so nothing says what the pack holds")
        try:
            manifest_data = pack.read(MANIFEST_NAME)
        except ValueError as exc:
            raise UserError(f"{path}: manifest.json: {exc}") from None
        manifest, errors = read_manifest(manifest_data, f"{path.name}!{MANIFEST_NAME}")
        if manifest is None:
            result.manifest_errors = errors
            return result
        matched = _files(pack, manifest, result)
        _pins(pack, matched, result)
        _built_with(pack, matched, result)
        _embedded(pack, manifest, result)
        _signature(pack, manifest_data, allowed_signers, result)
    return result
