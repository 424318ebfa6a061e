"""Re-pin evidence: rewrite only the sha256 values in the YAML, keeping everything else.

Edits are made on the source text at the positions the loader kept, so
comments, ordering, quoting and layout survive byte for byte.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from compliance.atomic import write_text_atomic
from compliance.load.workspace import Workspace
from compliance.paths import OutsideFolder, resolve_inside


@dataclass(frozen=True)
class PinChange:
    evidence_id: str
    path: str
    old: str | None
    new: str


def current_hashes(ws: Workspace, ids: set[str] | None = None) -> dict[str, str]:
    """sha256 of every (selected) evidence file that exists inside evidence/."""
    assert ws.model is not None
    out = {}
    for ev in ws.model.evidence:
        if ids and ev.id not in ids:
            continue
        try:
            file = resolve_inside(ws.evidence_dir, ev.path)
        except OutsideFolder:
            continue
        if file.is_file():
            out[ev.id] = hashlib.sha256(file.read_bytes()).hexdigest()
    return out


def pin(ws: Workspace, ids: set[str] | None = None, dry_run: bool = False) -> list[PinChange]:
    """Write current hashes into the model files; return what changed."""
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
        eol = doc.text.find("\n", path_pos.end)
        eol = len(doc.text) if eol == -1 else eol
        indent = " " * (key.column - 1)
        edits.setdefault(doc.path, []).append((eol, eol, f"\n{indent}sha256: {new}"))
    if not dry_run:
        for display, file_edits in edits.items():
            text = ws.docs[display].text
            for start, end, value in sorted(file_edits, reverse=True):
                text = text[:start] + value + text[end:]
            write_text_atomic(ws.root / display, text)
    return changes
