"""Load a workspace: every YAML file -> strict models -> one Model with an index of positions.

A workspace is a folder with ``controls/**/*.yaml`` (the model), optionally
``compliance.yaml`` (settings) and ``waivers.yaml``, and ``evidence/``.
Loading collects every problem in one pass: syntax, duplicate keys, unknown
keys, wrong types, missing fields, duplicate ids across files and references
to undefined ids. Checks run only on a model that loaded cleanly.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, BinaryIO

from pydantic import BaseModel, ValidationError

from compliance.diagnostics import Diagnostic, Level, Position, UserError, sort_unique
from compliance.load.errors import SCHEMA_CODE, diagnostics_from
from compliance.load.practice import check_drill_references, load_practice, practice_files
from compliance.load.yamlpos import (
    LOAD_CODE,
    MAX_WORKSPACE_BYTES,
    YamlDocument,
    YamlLoadError,
    load_yaml,
)
from compliance.model import Model, ModelFile, Settings, WaiversFile
from compliance.paths import OutsideFolder, open_inside, read_inside, resolve_inside

SETTINGS_FILE = "compliance.yaml"
WAIVERS_FILE = "waivers.yaml"
CONTROLS_DIR = "controls"
EVIDENCE_DIR = "evidence"

DUP_ID_CODE, DUP_ID_NAME = "REF001", "duplicate-id"
UNDEF_CODE, UNDEF_NAME = "REF002", "undefined-reference"
SYSTEM_CODE, SYSTEM_NAME = "REF003", "system-not-defined-once"
VALUE_CODE, VALUE_NAME = "YML004", "invalid-value"

#: (section, id-field) for the sections whose items have workspace-wide ids.
ID_SECTIONS = ("sources", "limits", "evidence", "controls", "metrics")


@dataclass
class Located:
    """Where one model item was defined: its document and its path in that document."""

    doc: YamlDocument
    path: tuple[str | int, ...]

    def pos(self, *sub: str | int, key: bool = False) -> Position:
        return self.doc.pos((*self.path, *sub), key=key)

    def locate(self, field_name: str, offset: int) -> Position:
        return self.doc.locate_in_scalar((*self.path, field_name), offset)


@dataclass
class Workspace:
    """A loaded workspace: the model (None when loading failed), its files and positions."""

    root: Path
    model: Model | None
    docs: dict[str, YamlDocument] = field(default_factory=dict)
    index: dict[tuple[str, str], Located] = field(default_factory=dict)
    findings: list[Diagnostic] = field(default_factory=list)
    #: Recorded disclosures (``disclosures/NAME.yaml``) by name: what was sent, to whom.
    disclosures: dict[str, Any] = field(default_factory=dict)

    @property
    def evidence_dir(self) -> Path:
        return self.root / EVIDENCE_DIR

    def evidence_path(self, relative: str) -> Path:
        """The real file of an evidence path; raises ``OutsideFolder`` when it (or
        ``evidence/`` itself) resolves outside ``evidence/`` (the workspace)."""
        return resolve_inside(self.evidence_dir, relative, workspace=self.root)

    def open_evidence(self, relative: str) -> BinaryIO:
        """Open an evidence file, resolved and checked again at this moment
        (``OutsideFolder``, ``NotAFile`` or ``OSError`` when it cannot be read)."""
        return open_inside(self.evidence_dir, relative, workspace=self.root)

    def read_evidence(self, relative: str, max_bytes: int | None = None) -> bytes:
        """The bytes of an evidence file, resolved and checked at this moment (see
        :func:`compliance.paths.read_inside`)."""
        return read_inside(self.evidence_dir, relative, workspace=self.root,
                           max_bytes=max_bytes)

    def where(self, section: str, item_id: str) -> Located | None:
        """Where ``controls``/``limits``/``sources``/``evidence``/``waivers`` item was defined."""
        return self.index.get((section, item_id))

    def display(self, file: Path) -> str:
        try:
            return file.relative_to(self.root).as_posix()
        except ValueError:
            return str(file)


NOT_READ_CODE, NOT_READ_NAME = "YML005", "file-not-read"
MODEL_SUFFIXES = (".yaml", ".yml")


@dataclass
class ModelFiles:
    """What is under controls/: the model files to read, and every entry that is not read,
    each with the reason (an exit-2 ``unreadable`` YML001, or an info YML005)."""

    files: list[Path] = field(default_factory=list)
    unreadable: list[Diagnostic] = field(default_factory=list)
    not_read: list[Diagnostic] = field(default_factory=list)


def model_files(root: Path) -> ModelFiles:
    """Walk controls/ (sorted; links to folders inside the workspace followed, each real
    folder once) and sort every entry into read, unreadable or not read.

    - a ``.yaml``/``.yml`` regular file inside the workspace is read;
    - a link (to a file or a folder) that resolves outside the workspace, a dangling
      link, a FIFO, socket or device, a folder that cannot be listed: YML001 (exit 2),
      whatever the name: the model cannot be known to be complete;
    - any other regular file (README.md, .gitkeep): YML005, info: listed, never read.
    """
    controls = root / CONTROLS_DIR
    real_root = root.resolve()  # resolve_inside then names the folder even for "."
    out = ModelFiles()
    visited = {os.path.realpath(controls)}

    def display(path: Path) -> str:
        return path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)

    def refuse(path: Path, why: str) -> None:
        out.unreadable.append(Diagnostic(display(path), 1, 1, "YML001", "unreadable-yaml",
                                         Level.ERROR, f"cannot read this model entry: {why}"))

    def walk(folder: Path) -> None:
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            refuse(folder, f"the folder cannot be listed ({exc.strerror or exc})")
            return
        for entry in entries:
            path = Path(entry.path)
            try:
                info = os.stat(path)  # follows links
            except OSError:
                target = os.readlink(path) if entry.is_symlink() else "?"
                refuse(path, f"a symbolic link to {target}, which does not exist")
                continue
            what = "folder" if stat.S_ISDIR(info.st_mode) else "file"
            try:  # the one place that decides "inside" (names the folder even for ".")
                real = resolve_inside(real_root, display(path))
            except OutsideFolder as exc:
                link = f"; it is a link to {os.path.realpath(path)}" if entry.is_symlink() \
                    else ""
                out.unreadable.append(Diagnostic(
                    display(path), 1, 1, "YML001", "unreadable-yaml", Level.ERROR,
                    f"refusing to read a model {what} that {exc}{link}"))
                continue
            if stat.S_ISDIR(info.st_mode):
                if str(real) not in visited:
                    visited.add(str(real))
                    walk(path)
                continue
            if not stat.S_ISREG(info.st_mode):
                refuse(path, f"{_special_kind(info.st_mode)}, not a regular file")
                continue
            if path.suffix in MODEL_SUFFIXES:
                out.files.append(path)
            else:
                out.not_read.append(Diagnostic(
                    display(path), 1, 1, NOT_READ_CODE, NOT_READ_NAME, Level.INFO,
                    "not read: only .yaml and .yml files under controls/ are the model"))

    walk(controls)
    out.files.sort(key=lambda p: display(p))
    return out


def _special_kind(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device")):
        if test(mode):
            return name
    return "a special file"


def _validate(doc: YamlDocument, model: type[BaseModel],
              findings: list[Diagnostic]) -> Any:
    data = {} if doc.data is None else doc.data
    if not isinstance(data, dict):
        findings.append(Diagnostic.at(doc.pos(()), "SCH001", "schema-violation", Level.ERROR,
                                      "expected a mapping of sections at the top of the file"))
        return None
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        findings.extend(diagnostics_from(exc, doc, model))
        return None


def load_workspace(root: Path) -> Workspace:
    """Load ``root``. Raises :class:`UserError` (exit 2) when files cannot be read at all."""
    if not root.is_dir():
        raise UserError(f"{root}: not a folder; give the workspace folder that holds controls/")
    if not (root / CONTROLS_DIR).is_dir():
        raise UserError(f"{root}: no {CONTROLS_DIR}/ folder; a workspace keeps its model in "
                        f"{CONTROLS_DIR}/*.yaml (see README.md, 'The model')")
    ws = Workspace(root=root, model=None)
    found = model_files(root)
    unreadable: list[Diagnostic] = list(found.unreadable)
    files = found.files
    if not files and not unreadable:
        raise UserError(f"{root / CONTROLS_DIR}: no .yaml files; nothing to check")
    from compliance.disclose.records import read_records, record_files

    records = record_files(root)
    extra = [p for p in (root / SETTINGS_FILE, root / WAIVERS_FILE) if p.is_file()] + records
    extra += practice_files(root)
    total = 0  # bytes of YAML read so far: the workspace's budget, not only each file's
    for file in [*files, *extra]:
        display = ws.display(file)
        try:
            resolve_inside(root.resolve(), display)  # names the folder even for "."
        except OutsideFolder as exc:
            unreadable.append(Diagnostic(display, 1, 1, "YML001", "unreadable-yaml", Level.ERROR,
                                         f"refusing to read a model file that {exc}"))
            continue
        with contextlib.suppress(OSError):  # (load_yaml names why it cannot be read)
            total += file.stat().st_size  # (each read is bounded again as it is made)
        if total > MAX_WORKSPACE_BYTES:
            unreadable.append(Diagnostic(
                display, 1, 1, "YML001", "unreadable-yaml", Level.ERROR,
                f"not read: with this file the workspace's YAML files come to {total} bytes; "
                f"the limit for all of them together is {MAX_WORKSPACE_BYTES} "
                f"({MAX_WORKSPACE_BYTES >> 20} MiB)"))
            continue
        try:
            doc = load_yaml(file, display)
        except YamlLoadError as exc:
            unreadable.extend(exc.diagnostics)
            continue
        ws.docs[display] = doc
        ws.findings.extend(_value_problems(doc))
    if unreadable:
        raise UserError("cannot read the workspace", sort_unique(unreadable))
    ws.findings.extend(found.not_read)

    parts: list[tuple[YamlDocument, ModelFile]] = []
    for file in files:
        doc = ws.docs[ws.display(file)]
        parsed = _validate(doc, ModelFile, ws.findings)
        if parsed is not None:
            parts.append((doc, parsed))
    settings_doc = ws.docs.get(SETTINGS_FILE)
    settings = (_validate(settings_doc, Settings, ws.findings) if settings_doc else Settings())
    waivers_doc = ws.docs.get(WAIVERS_FILE)
    waivers = (_validate(waivers_doc, WaiversFile, ws.findings) if waivers_doc
               else WaiversFile())
    if waivers_doc and waivers is not None:
        for i, _w in enumerate(waivers.waivers):
            ws.index[("waivers", str(i))] = Located(waivers_doc, ("waivers", i))

    ws.disclosures = read_records(ws, records)
    complete = len(parts) == len(files)
    model = _merge(ws, parts, settings, waivers, complete)
    practice = load_practice(ws.docs, _validate, ws.findings)
    for sid, (doc, path) in practice.scenario_at.items():
        ws.index[("scenarios", sid)] = Located(doc, path)
    for i, (doc, path) in enumerate(practice.exercise_at):
        ws.index[("exercises", str(i))] = Located(doc, path)
    for i, (doc, path) in enumerate(practice.drill_at):
        ws.index[("drills", str(i))] = Located(doc, path)
    if model is not None:
        check_drill_references(practice, {c.id for c in model.controls},
                               {e.id for e in model.evidence}, ws.findings)
        model = model.model_copy(update={"scenarios": practice.scenarios,
                                         "exercises": practice.exercises,
                                         "drills": practice.drills})
    ws.findings = sort_unique(_one_finding_per_value(ws.findings))
    if model is not None and not any(d.level is Level.ERROR for d in ws.findings):
        ws.model = model
    return ws


def _value_problems(doc: YamlDocument) -> list[Diagnostic]:
    """The problems of a file that parsed, as exit-1 findings.

    A value YAML cannot construct (``2026-13-45``, ``!!int x``, an unsupported tag)
    is YML004, not YML001: the file was read, only that value is wrong. An
    impossible date is named as such, with the text as written.
    """
    out = []
    for d in doc.problems:
        if d.code != LOAD_CODE:
            out.append(d)
            continue
        message = d.message
        if message.startswith("invalid timestamp value"):
            raw = _raw_scalar(doc, d.line, d.column)
            message = f"not a valid date: {raw}; use YYYY-MM-DD" if raw else \
                f"not a valid date ({message.split(': ', 1)[-1]}); use YYYY-MM-DD"
        out.append(replace(d, code=VALUE_CODE, name=VALUE_NAME, message=message))
    return out


def _raw_scalar(doc: YamlDocument, line: int, column: int) -> str:
    """The source text of the scalar whose value starts at ``line``:``column``."""
    for np in doc.positions.values():
        pos = np.value
        if (pos.line, pos.column) == (line, column):
            return doc.text[np.start:np.end].strip()
    return ""


def _one_finding_per_value(findings: list[Diagnostic]) -> list[Diagnostic]:
    """One finding for a value the YAML layer refused, not two that contradict each other.

    The loader keeps such a value as null, so the schema then says "got nothing
    (null)" at the same place. Drop that schema finding and prefix the YAML one
    with the field path the schema finding named (``evidence[0].collected: ...``).
    """
    refused = {(d.path, d.line, d.column): d for d in findings if d.code == VALUE_CODE}
    if not refused:
        return findings
    field_of = {}
    for d in findings:
        if d.code == SCHEMA_CODE and (d.path, d.line, d.column) in refused and \
                d.message.endswith("nothing (null)"):
            field_of[(d.path, d.line, d.column)] = d.message.split(": ", 1)[0]
    out = []
    for d in findings:
        key = (d.path, d.line, d.column)
        if key in field_of:
            if d.code == SCHEMA_CODE:
                continue
            if d.code == VALUE_CODE:
                d = replace(d, message=f"{field_of[key]}: {d.message}")
        out.append(d)
    return out


def _merge(ws: Workspace, parts: list[tuple[YamlDocument, ModelFile]],
           settings: Settings | None, waivers: WaiversFile | None,
           complete: bool) -> Model | None:
    """Merge per-file sections; cross-file checks run only when every file validated
    (otherwise a file with one typo would cascade into many "undefined" findings)."""
    merged: dict[str, list[Any]] = {s: [] for s in ID_SECTIONS}
    systems: list[tuple[YamlDocument, Any]] = []
    stance = None
    for doc, part in parts:
        if part.system is not None:
            systems.append((doc, part.system))
        if part.stance is not None:
            stance = part.stance
            ws.index[("stance", "stance")] = Located(doc, ("stance",))
        for section in ID_SECTIONS:
            for i, item in enumerate(getattr(part, section)):
                key = (section, item.id)
                if key in ws.index:
                    first = ws.index[key].pos("id")
                    ws.findings.append(Diagnostic.at(
                        doc.pos((section, i, "id")), DUP_ID_CODE, DUP_ID_NAME, Level.ERROR,
                        f"duplicate {section[:-1] if section != 'evidence' else 'evidence'} "
                        f"id {item.id!r}; first defined at {first}"))
                    continue
                ws.index[key] = Located(doc, (section, i))
                merged[section].append(item)
    if len(systems) != 1 and parts and complete:
        doc = systems[1][0] if len(systems) > 1 else parts[0][0]
        pos = doc.pos(("system",), key=True) if len(systems) > 1 else Position(doc.path, 1, 1)
        msg = ("`system:` is defined in more than one file; keep exactly one"
               if systems else "no file under controls/ defines `system:` (name, scope, "
               "owner, last_reviewed); add it to one file")
        ws.findings.append(Diagnostic.at(pos, SYSTEM_CODE, SYSTEM_NAME, Level.ERROR, msg))
    if systems:
        ws.index[("system", "system")] = Located(systems[0][0], ("system",))
    if complete:
        _check_references(ws, merged, systems)
    if not complete or len(systems) != 1 or settings is None or waivers is None:
        return None
    return Model(system=systems[0][1], stance=stance, sources=merged["sources"],
                 limits=merged["limits"], evidence=merged["evidence"],
                 controls=merged["controls"], metrics=merged["metrics"],
                 waivers=waivers.waivers, settings=settings)


def _check_references(ws: Workspace, merged: dict[str, list[Any]],
                      systems: list[tuple[YamlDocument, Any]]) -> None:
    ids = {s: {item.id for item in merged[s]} for s in ID_SECTIONS}

    def refs(owner: Located, field_name: str, values: Iterable[str], section: str) -> None:
        for j, value in enumerate(values):
            if value not in ids[section]:
                noun = {"sources": "source", "limits": "limit", "evidence": "evidence item"}
                known = sorted(ids[section])

                close = difflib.get_close_matches(value, known, n=1, cutoff=0.6)
                hint = f"; did you mean {close[0]!r}?" if close else (
                    f" (defined: {', '.join(known[:8])}{', ...' if len(known) > 8 else ''})"
                    if known else f" (no {section} are defined)")
                ws.findings.append(Diagnostic.at(
                    owner.pos(field_name, j), UNDEF_CODE, UNDEF_NAME, Level.ERROR,
                    f"{field_name}: {noun[section]} {value!r} is not defined{hint}"))

    for doc, system in systems:
        refs(Located(doc, ("system",)), "sources", system.sources, "sources")
    for limit in merged["limits"]:
        refs(ws.index[("limits", limit.id)], "sources", limit.sources, "sources")
    for control in merged["controls"]:
        loc = ws.index[("controls", control.id)]
        refs(loc, "limits", control.limits, "limits")
        refs(loc, "evidence", control.evidence, "evidence")
    for metric in merged["metrics"]:
        refs(ws.index[("metrics", metric.id)], "evidence", metric.evidence, "evidence")
