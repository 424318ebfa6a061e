"""Re-pin evidence: rewrite only the sha256 values in the YAML, keeping everything else.

Edits are made on the source text at the positions the loader kept, so
comments, ordering, quoting and layout survive byte for byte.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from compliance.atomic import write_text_atomic
from compliance.load.workspace import Workspace
from compliance.paths import NotAFile, OutsideFolder

BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class PinChange:
    evidence_id: str
    path: str
    old: str | None
    new: str


#: Evidence states; all but OK and (for ``pin``) NOT_PINNED/STALE mean a rule is broken.
OK, NOT_PINNED, STALE = "ok", "not pinned", "STALE (changed since pinned)"
MISSING, OUTSIDE, UNREADABLE = "missing", "outside evidence/", "unreadable"


@dataclass(frozen=True)
class EvidenceState:
    """One evidence item as it is on disk now: its state and current sha256 (if readable)."""

    evidence_id: str
    path: str
    pinned: str | None
    current: str | None
    state: str
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.state == OK


def evidence_states(ws: Workspace, ids: set[str] | None = None) -> list[EvidenceState]:
    """The state of every (selected) evidence item, hashing each file once."""
    assert ws.model is not None
    out = []
    for ev in ws.model.evidence:
        if ids and ev.id not in ids:
            continue
        state, detail, now = OK, "", None
        try:
            ws.evidence_path(ev.path)
            now = _sha256(ws, ev.path)
        except OutsideFolder as exc:
            state, detail = OUTSIDE, str(exc)
        except NotAFile as exc:
            missing = not ws.evidence_path(ev.path).exists()
            state, detail = (MISSING, f"no file at evidence/{ev.path}") if missing else \
                (UNREADABLE, str(exc))
        except OSError as exc:
            state, detail = UNREADABLE, f"cannot read: {exc.strerror or exc}"
        if now is not None:
            state = NOT_PINNED if ev.sha256 is None else OK if now == ev.sha256 else STALE
        out.append(EvidenceState(ev.id, ev.path, ev.sha256, now, state, detail))
    return out


def _sha256(ws: Workspace, relative: str) -> str:
    """sha256 of an evidence file, opened through the workspace (checked at this moment)."""
    h = hashlib.sha256()
    with ws.open_evidence(relative) as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def current_hashes(ws: Workspace, ids: set[str] | None = None) -> dict[str, str]:
    """sha256 of every (selected) evidence file that exists inside evidence/ and reads."""
    return {s.evidence_id: s.current for s in evidence_states(ws, ids) if s.current}


def _line_end(text: str, index: int) -> tuple[int, str]:
    """Where the line holding ``index`` ends, and that line break as the file writes it."""
    for i in range(index, len(text)):
        if text[i] == "\n":
            return i, "\n"
        if text[i] == "\r":
            return i, "\r\n" if text[i + 1:i + 2] == "\n" else "\r"
    newline = "\r\n" if "\r\n" in text else "\r" if "\r" in text else "\n"
    return len(text), newline


def pin(ws: Workspace, ids: set[str] | None = None, dry_run: bool = False) -> list[PinChange]:
    """Write current hashes into the model files; return what changed.

    Only the sha256 values change (or a ``sha256:`` line is added after ``path:``,
    with the file's own line break); every other byte, a UTF-8 BOM included, is kept.
    """
    assert ws.model is not None
    hashes = current_hashes(ws, ids)
    edits: dict[str, list[tuple[int, int, str]]] = {}
    changes = []
    for ev in ws.model.evidence:
        new = hashes.get(ev.id)
        if new is None or new == ev.sha256:
            continue
        located = ws.where("evidence", ev.id)
        assert located is not None
        doc = located.doc
        changes.append(PinChange(ev.id, ev.path, ev.sha256, new))
        sha_pos = doc.positions.get((*located.path, "sha256"))
        if sha_pos is not None:
            edits.setdefault(doc.path, []).append((sha_pos.start, sha_pos.end, new))
            continue
        path_pos = doc.positions[(*located.path, "path")]
        if doc.text[doc.positions[located.path].start] == "{":  # flow mapping: stay inline
            edits.setdefault(doc.path, []).append((path_pos.end, path_pos.end,
                                                   f", sha256: {new}"))
            continue
        key = path_pos.key
        assert key is not None
        eol, newline = _line_end(doc.text, path_pos.end)
        indent = " " * (key.column - 1)
        edits.setdefault(doc.path, []).append((eol, eol, f"{newline}{indent}sha256: {new}"))
    if not dry_run:
        for display, file_edits in edits.items():
            text = ws.docs[display].text
            for start, end, value in sorted(file_edits, reverse=True):
                text = text[:start] + value + text[end:]
            file = ws.root / display
            if file.read_bytes().startswith(BOM):  # the loader dropped it from the text
                text = "\ufeff" + text
            write_text_atomic(file, text)
    return changes
