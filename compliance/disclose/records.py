"""Recorded disclosures on disk: `disclosures/NAME.yaml`, written once, read with positions.

A record is written atomically, in a fixed layout (keys in model order, every
string double-quoted with JSON escapes, which YAML reads the same way), so
the same disclosure always gives the same bytes and a reviewer reads its diff
in a pull request. An existing record is never replaced unless asked
(``--replace-record``). Records are read back by the workspace loader like
every model file (:func:`read_records` validates them): syntax, unknown keys and
wrong types are positioned errors.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from compliance.atomic import write_text_atomic
from compliance.diagnostics import Diagnostic, Level, UserError
from compliance.load.yamlpos import YamlDocument
from compliance.model.base import ID_PATTERN
from compliance.model.disclosure import DisclosureRecord
from compliance.paths import OutsideFolder, resolve_inside

if TYPE_CHECKING:  # pragma: no cover
    from compliance.load.workspace import Workspace

RECORDS_DIR = "disclosures"
HEADER = (
    "# What was sent, recorded by `compliance {kind} --record {name}`. Commit this file;\n"
    "# `compliance diff --since {name}` and `compliance check` compare the model with it.\n"
)
_NAME = re.compile(ID_PATTERN)
#: Characters JSON leaves literal that YAML would read as line breaks or a BOM.
_YAML_UNSAFE = re.compile("[\u0085\u2028\u2029\ufeff\x7f-\x9f]")


@dataclass(frozen=True)
class LoadedRecord:
    """A record read from disk, with where it came from."""

    record: DisclosureRecord
    doc: YamlDocument
    display: str


def record_path(root: Path, name: str) -> Path:
    """``root/disclosures/NAME.yaml``; a name that is not an identifier is a usage error."""
    if not _NAME.match(name) or len(name) > 80:
        raise UserError(
            f"--record {name!r}: a record name is letters, digits, '.', '-' and '_' "
            "(at most 80), starting with a letter or digit, such as acme-bank-2026-q4"
        )
    try:
        return resolve_inside(Path(root), f"{RECORDS_DIR}/{name}.yaml")
    except OutsideFolder as exc:
        raise UserError(
            f"{RECORDS_DIR}/{name}.yaml: refusing to write a record that {exc}") from None


def refuse_existing(path: Path, name: str, replace: bool) -> None:
    """Refuse, before anything is written, to overwrite a record unless ``replace``."""
    if replace:
        return
    if path.exists() or path.is_symlink():
        raise UserError(
            f"{RECORDS_DIR}/{name}.yaml already records what was sent under that name; "
            "choose another name, or pass --replace-record to replace it"
        )


def record_destination(root: Path, name: str | None, replace: bool) -> Path | None:
    """Where ``--record NAME`` will write (None without one), refused before any work."""
    if name is None:
        return None
    path = record_path(root, name)
    refuse_existing(path, name, replace)
    return path


def _quote(text: str) -> str:
    quoted = json.dumps(text, ensure_ascii=False)
    return _YAML_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", quoted)


def _scalar(key: str | None, value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if key == "date":  # a plain YAML date, as people write it
        return str(value)
    return _quote(str(value))


def _lines(value: Any, pad: str, key: str | None = None) -> list[str]:
    out: list[str] = []
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(v, dict | list) and v:
                out.append(f"{pad}{k}:")
                out.extend(_lines(v, pad + "  ", k))
            else:
                shown = "[]" if v == [] else "{}" if v == {} else _scalar(k, v)
                out.append(f"{pad}{k}: {shown}")
        return out
    for item in value:
        if isinstance(item, dict) and item:
            inner = _lines(item, pad + "  ", key)
            out.append(f"{pad}- {inner[0].lstrip()}")
            out.extend(inner[1:])
        elif isinstance(item, list) and item:
            out.append(f"{pad}-")
            out.extend(_lines(item, pad + "  ", key))
        else:
            out.append(f"{pad}- {_scalar(key, item)}")
    return out


def dump_record(record: DisclosureRecord) -> str:
    """The record's file text: same record, same bytes."""
    data = record.model_dump(mode="json")
    body = "\n".join(_lines(data, "")) + "\n"
    return HEADER.format(kind=record.kind.value, name=record.name) + body


def write_record(root: Path, record: DisclosureRecord, *, replace: bool) -> Path:
    """Write ``disclosures/NAME.yaml`` atomically; refuse an existing one unless ``replace``."""
    path = record_path(root, record.name)
    refuse_existing(path, record.name, replace)
    write_text_atomic(path, dump_record(record))
    return Path(root) / RECORDS_DIR / path.name


def record_files(root: Path) -> list[Path]:
    folder = Path(root) / RECORDS_DIR
    if not folder.is_dir():
        return []
    files = [p for p in folder.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file()]
    return sorted(files, key=lambda p: p.name)


def read_records(ws: Workspace, files: list[Path]) -> dict[str, LoadedRecord]:
    """The records among the workspace's loaded files, by name; problems go to ws.findings.

    The loader read each file like every model file (a syntax error or binary
    content stops the run, exit 2); here each is validated strictly (unknown keys,
    wrong types, a name that is not the file's: positioned findings, exit 1).
    """
    from compliance.load.errors import SCHEMA_CODE, SCHEMA_NAME, diagnostics_from

    records: dict[str, LoadedRecord] = {}
    for file in files:
        shown = ws.display(file)
        doc = ws.docs[shown]
        if not isinstance(doc.data, dict):
            ws.findings.append(Diagnostic.at(
                doc.pos(()), SCHEMA_CODE, SCHEMA_NAME, Level.ERROR,
                "a disclosure record is a mapping of fields (format, name, kind, date, ...)"))
            continue
        try:
            record = DisclosureRecord.model_validate(doc.data)
        except ValidationError as exc:
            ws.findings.extend(diagnostics_from(exc, doc, DisclosureRecord))
            continue
        if record.name != file.stem:
            ws.findings.append(Diagnostic.at(
                doc.pos(("name",)), SCHEMA_CODE, SCHEMA_NAME, Level.ERROR,
                f"name: {record.name!r} is not this file's name ({file.stem!r}); a record "
                f"lives in {RECORDS_DIR}/NAME.yaml"))
            continue
        records[record.name] = LoadedRecord(record, doc, shown)
    return records
