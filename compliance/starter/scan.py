"""Find the agent configuration a repository (or a folder of exports) holds.

The walk is bounded (depth, file count, file size through the adapters' cap),
stays inside the folder (links resolved with :func:`compliance.paths.resolve_inside`)
and skips version control, dependencies and build output. A file is kept when an
adapter recognises it; a file whose name says it is agent configuration but that
cannot be read is an error at its own line and column, never skipped silently.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from compliance.adapters import EvidenceDoc, EvidenceError, UnrecognisedEvidence, parse_evidence
from compliance.diagnostics import Diagnostic
from compliance.paths import OutsideFolder, resolve_inside

MAX_DEPTH = 6
MAX_FILES = 20_000
#: Hidden folders that hold agent configuration; other hidden folders are skipped.
CONFIG_DIRS = frozenset({".claude", ".codex", ".github", ".devcontainer", ".vscode"})
SKIP_DIRS = frozenset({"node_modules", "__pycache__", "venv", "dist", "build", "target",
                       "vendor", "site-packages"})
#: Names that can only be agent configuration: unreadable means an error, not a skip.
NAMED = frozenset({"managed-settings.json", "managed-mcp.json", ".mcp.json", "mcp.json",
                   "mcp-config.json", "devcontainer.json", ".devcontainer.json",
                   "copilot-setup-steps.yml", "copilot-setup-steps.yaml", "CODEOWNERS",
                   "requirements.toml"})


@dataclass(frozen=True)
class Found:
    """One recognised file: its path relative to the scanned folder and its parsed facts."""

    rel: str
    path: Path
    doc: EvidenceDoc


@dataclass
class Scan:
    found: list[Found]
    errors: list[Diagnostic]
    skipped: list[str]


def _named(rel: str) -> bool:
    p = PurePosixPath(rel)
    parts = set(p.parts[:-1])
    return (p.name in NAMED or (p.name in ("settings.json", "settings.local.json")
                                and ".claude" in parts)
            or (p.suffix == ".toml" and ".codex" in parts)
            or ({".github", "workflows"} <= parts and p.suffix in (".yml", ".yaml")))


def _candidate(rel: str) -> bool:
    p = PurePosixPath(rel)
    parts = set(p.parts[:-1])
    if _named(rel):
        return True
    if ".devcontainer" in parts and p.suffix in (".sh", ".bash"):
        return True
    # A folder of exports: JSON and TOML files an adapter recognises by content.
    return p.suffix in (".json", ".toml") and not p.name.startswith(("package", "tsconfig"))


def candidates(root: Path) -> tuple[list[str], list[str]]:
    """Relative paths worth reading, sorted; and a note for each folder the walk cut short."""
    out: list[str] = []
    notes: list[str] = []
    seen = 0
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        rel_dir = Path(dirpath).relative_to(root)
        depth = len(rel_dir.parts)
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not (
            d.startswith(".") and d not in CONFIG_DIRS))
        if depth >= MAX_DEPTH:
            if dirnames:
                notes.append(f"{rel_dir.as_posix()}/: deeper than {MAX_DEPTH} levels, not read")
            dirnames[:] = []
        for name in sorted(filenames):
            seen += 1
            if seen > MAX_FILES:
                notes.append(f"stopped after {MAX_FILES} files; point init at a smaller folder")
                return sorted(out), notes
            rel = (rel_dir / name).as_posix()
            if _candidate(rel):
                out.append(rel)
    return sorted(out), notes


def scan(root: Path, exclude: Path | None = None) -> Scan:
    """Every recognised agent-configuration file under ``root``."""
    rels, skipped = candidates(root)
    found: list[Found] = []
    errors: list[Diagnostic] = []
    excluded = exclude.resolve() if exclude is not None else None
    for rel in rels:
        try:
            path = resolve_inside(root, rel)
        except OutsideFolder as exc:
            skipped.append(f"{rel}: {exc}, not read")
            continue
        if excluded is not None and (path == excluded or excluded in path.parents):
            continue
        if not path.is_file():
            continue
        try:
            doc = parse_evidence(path, rel)
        except EvidenceError as exc:
            if _named(rel):
                errors.append(exc.diagnostic)
            continue
        except UnrecognisedEvidence:
            continue
        found.append(Found(rel, path, doc))
    return Scan(found, errors, skipped)
