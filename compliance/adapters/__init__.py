"""Evidence adapters: one evidence file in, an :class:`EvidenceDoc` of positioned facts out.

``parse_evidence(path, display_path, kind=None)`` picks the adapter named by
``kind`` or, when None, recognises the file by its name and then its contents.
A file no adapter recognises raises :class:`UnrecognisedEvidence` (we never
guess); malformed, binary or oversized files raise :class:`EvidenceError`
carrying a Diagnostic at the evidence file's own line and column.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path, PurePosixPath

from compliance.adapters import (
    claude_settings,
    codeowners,
    codex,
    devcontainer,
    github_api,
    isolation,
    mcp,
    shell,
    workflows,
)
from compliance.adapters.base import (
    DEFAULT_MAX_BYTES,
    EvidenceDoc,
    EvidenceError,
    Fact,
    UnrecognisedEvidence,
    decode_text,
    load_bytes,
    read_text,
)
from compliance.adapters.claude_merge import Effective, merge_claude_settings
from compliance.adapters.jsonpos import parse_json
from compliance.adapters.yamlpos import parse_yaml_documents

__all__ = [
    "DEFAULT_MAX_BYTES", "KINDS", "Effective", "EvidenceDoc", "EvidenceError", "Fact",
    "UnrecognisedEvidence", "decode_text", "load_bytes", "merge_claude_settings",
    "kind_by_name", "parse_evidence", "parse_read", "parse_text",
]

KINDS: tuple[str, ...] = (
    claude_settings.KIND, *claude_settings.SCOPED_KINDS,
    codex.CONFIG_KIND, codex.REQUIREMENTS_KIND,
    workflows.COPILOT_KIND, workflows.WORKFLOW_KIND,
    devcontainer.KIND, shell.KIND, codeowners.KIND,
    *github_api.KINDS,
    isolation.FIRECRACKER_KIND, isolation.KUBERNETES_KIND, isolation.DOCKER_KIND,
    mcp.KIND,
)


def parse_evidence(path: Path, display_path: str, kind: str | None = None,
                   max_bytes: int = DEFAULT_MAX_BYTES) -> EvidenceDoc:
    """Parse one evidence file; ``kind`` names an adapter, None recognises it."""
    _known_kind(display_path, kind)
    text = read_text(path, display_path, max_bytes)
    return parse_text(text, display_path, kind)


def parse_read(read: Callable[[int], bytes], display_path: str, kind: str | None = None,
               max_bytes: int = DEFAULT_MAX_BYTES) -> EvidenceDoc:
    """Like :func:`parse_evidence`, reading the bytes with ``read(max_bytes)`` (for
    instance ``Workspace.read_evidence``, which checks the path at that moment)."""
    _known_kind(display_path, kind)
    raw = load_bytes(read, display_path, max_bytes)
    return parse_text(decode_text(raw, display_path), display_path, kind)


def _known_kind(display_path: str, kind: str | None) -> None:
    if kind is not None and kind not in KINDS:
        raise UnrecognisedEvidence(
            f"{display_path}: unknown evidence kind {kind!r}; known kinds: {', '.join(KINDS)}"
        )


def parse_text(text: str, display_path: str, kind: str | None = None) -> EvidenceDoc:
    """Like :func:`parse_evidence` over text already read (for tests and stdin)."""
    doc = _explicit(text, display_path, kind) if kind else _detect(text, display_path)
    if doc is None:
        raise UnrecognisedEvidence(
            f"{display_path}: no adapter recognises this file; name its kind explicitly, "
            f"one of: {', '.join(KINDS)}"
        )
    return doc


def _explicit(text: str, path: str, kind: str) -> EvidenceDoc:
    if kind == claude_settings.KIND or kind in claude_settings.SCOPED_KINDS:
        return claude_settings.parse(text, path, claude_settings.SCOPED_KINDS.get(kind))
    simple = {
        codex.CONFIG_KIND: codex.parse_config,
        codex.REQUIREMENTS_KIND: codex.parse_requirements,
        devcontainer.KIND: devcontainer.parse,
        shell.KIND: shell.parse,
        codeowners.KIND: codeowners.parse,
        isolation.KUBERNETES_KIND: isolation.parse_kubernetes,
        mcp.KIND: mcp.parse,
    }
    if kind in simple:
        return simple[kind](text, path)
    if kind in (workflows.WORKFLOW_KIND, workflows.COPILOT_KIND):
        return workflows.parse(text, path, kind)
    data, positions = parse_json(text, path)
    if kind == isolation.FIRECRACKER_KIND:
        return isolation.build_firecracker(data, positions, path)
    if kind == isolation.DOCKER_KIND:
        return isolation.build_docker(data, positions, path)
    return github_api.build(kind, data, positions, path)


def kind_by_name(path: str) -> str | None:
    """The adapter a file's name alone selects (the first step of recognising it), or None
    when its contents decide: which checks a file that could not be read was meant for."""
    name = PurePosixPath(path.replace("\\", "/")).name
    if codeowners.looks_like("", path):
        return codeowners.KIND
    if name.endswith((".sh", ".bash")):
        return shell.KIND
    if name in ("devcontainer.json", ".devcontainer.json") or name.endswith(".jsonc"):
        return devcontainer.KIND
    if mcp.named_like(path):
        return mcp.KIND
    if name == "requirements.toml":
        return codex.REQUIREMENTS_KIND
    if name.startswith("copilot-setup-steps."):
        return workflows.COPILOT_KIND
    return None


def _detect(text: str, path: str) -> EvidenceDoc | None:
    name = PurePosixPath(path.replace("\\", "/")).name
    suffix = PurePosixPath(name).suffix.lower()
    if codeowners.looks_like(text, path):
        return codeowners.parse(text, path)
    if shell.looks_like(text, path):
        return shell.parse(text, path)
    if suffix == ".toml":
        return _detect_toml(text, path, name)
    if suffix in (".yml", ".yaml"):
        return _detect_yaml(text, path, name)
    if suffix in (".json", ".jsonc"):
        return _detect_json(text, path, name)
    return None


def _detect_toml(text: str, path: str, name: str) -> EvidenceDoc | None:
    if name == "requirements.toml":
        return codex.parse_requirements(text, path)
    doc = codex.parse_config(text, path)
    if codex.looks_like_requirements(doc.data):
        return codex.parse_requirements(text, path)
    if name == "config.toml" or codex.looks_like_config(doc.data):
        return doc
    return None


def _detect_yaml(text: str, path: str, name: str) -> EvidenceDoc | None:
    if name.startswith("copilot-setup-steps."):
        return workflows.parse(text, path, workflows.COPILOT_KIND)
    docs = [d for d, _ in parse_yaml_documents(text, path)]
    if isolation.looks_like_kubernetes(docs):
        return isolation.parse_kubernetes(text, path)
    if len(docs) == 1 and workflows.looks_like(docs[0]):
        kind = workflows.COPILOT_KIND if workflows.is_copilot(docs[0]) else workflows.WORKFLOW_KIND
        return workflows.parse(text, path, kind)
    return None


def _detect_json(text: str, path: str, name: str) -> EvidenceDoc | None:
    if name in ("devcontainer.json", ".devcontainer.json") or name.endswith(".jsonc"):
        return devcontainer.parse(text, path)
    if mcp.named_like(path):
        return mcp.parse(text, path)
    try:
        data, positions = parse_json(text, path)
    except EvidenceError as strict_error:
        # JSONC (comments, trailing commas) is only valid for dev containers.
        try:
            data, _ = parse_json(text, path, jsonc=True)
        except EvidenceError:
            raise strict_error from None
        if devcontainer.looks_like(data):
            return devcontainer.parse(text, path)
        raise
    if name == "daemon.json" or isolation.looks_like_docker(data):
        return isolation.build_docker(data, positions, path)
    api = github_api.detect(data)
    if api is not None:
        return github_api.build(api, data, positions, path)
    if isolation.looks_like_firecracker(data):
        return isolation.build_firecracker(data, positions, path)
    if devcontainer.looks_like(data):
        return devcontainer.parse(text, path)
    if mcp.looks_like(data) and not claude_settings.named_like(path):
        return mcp.parse(text, path)
    if claude_settings.looks_like(data) or claude_settings.named_like(path):
        return claude_settings.build(data, positions, path, None)
    return None
