"""Isolation runtimes: Firecracker VM config, Kubernetes objects, Docker daemon.json.

- ``firecracker-config``: the ``--config-file`` JSON (``boot-source``, ``machine-config``,
  ``network-interfaces``, ``mmds-config``, ``vsock``).
- ``kubernetes``: a multi-document YAML stream. ``doc.data`` is the list of documents and
  positions are keyed by document index first. Facts: ``pod-spec`` for every pod spec
  found (Pod, workload templates, agent-sandbox ``SandboxTemplate``/``Sandbox``
  ``podTemplate``), value ``{"kind", "name", "runtimeClassName", "path"}`` at the
  ``runtimeClassName`` line (or the spec's line when absent); ``runtime-class`` for
  each RuntimeClass, value ``{"name", "handler"}`` at the ``handler`` line.
- ``docker-daemon``: ``/etc/docker/daemon.json``; facts ``runtime`` (name, path,
  runtimeArgs) and ``default-runtime``.
"""

from __future__ import annotations

from typing import Any

from compliance.adapters.base import EvidenceDoc, KeyPath, as_dict, as_list
from compliance.adapters.yamlpos import parse_yaml_documents

FIRECRACKER_KIND = "firecracker-config"
KUBERNETES_KIND = "kubernetes"
DOCKER_KIND = "docker-daemon"
_FC_KEYS = frozenset({"boot-source", "machine-config", "network-interfaces", "drives"})


def looks_like_firecracker(data: Any) -> bool:
    return isinstance(data, dict) and len(_FC_KEYS & set(data)) >= 2


def looks_like_docker(data: Any) -> bool:
    return isinstance(data, dict) and ("runtimes" in data or "default-runtime" in data)


def looks_like_kubernetes(docs: list[Any]) -> bool:
    return any(isinstance(d, dict) and "apiVersion" in d and "kind" in d for d in docs)


def build_firecracker(data: Any, positions: dict[KeyPath, tuple[int, int]],
                      display_path: str) -> EvidenceDoc:
    doc = EvidenceDoc(FIRECRACKER_KIND, display_path, data, positions)
    for fact in doc.items("network-interfaces"):
        doc.add("network-interface", fact.value, fact.line, fact.column, fact.key)
    return doc


def build_docker(data: Any, positions: dict[KeyPath, tuple[int, int]],
                 display_path: str) -> EvidenceDoc:
    doc = EvidenceDoc(DOCKER_KIND, display_path, data, positions)
    for name, fact in doc.entries("runtimes"):
        body = as_dict(fact.value)
        doc.add("runtime", {"name": str(name), "path": str(body.get("path", "")),
                            "runtimeArgs": [str(a) for a in as_list(body.get("runtimeArgs"))]},
                fact.line, fact.column, fact.key)
    default = doc.at("default-runtime")
    if default is not None:
        doc.add("default-runtime", default.value, default.line, default.column, default.key)
    return doc


def parse_kubernetes(text: str, display_path: str) -> EvidenceDoc:
    docs = parse_yaml_documents(text, display_path)
    data = [d for d, _ in docs]
    positions: dict[KeyPath, tuple[int, int]] = {(): (1, 1)}
    for i, (_, pos) in enumerate(docs):
        positions.update({(i, *k): v for k, v in pos.items()})
    doc = EvidenceDoc(KUBERNETES_KIND, display_path, data, positions, text=text)
    for prefix, obj in _objects(data):
        kind = str(obj.get("kind", ""))
        name = str(as_dict(obj.get("metadata")).get("name", ""))
        if kind == "RuntimeClass":
            doc.add_at("runtime-class", {"name": name, "handler": obj.get("handler")},
                       *prefix, "handler")
            continue
        for path in _pod_specs(obj, prefix):
            spec = doc.get(*path)
            key = (*path, "runtimeClassName") if "runtimeClassName" in spec else path
            rcn = spec.get("runtimeClassName")
            doc.add_at("pod-spec", {"kind": kind, "name": name, "path": path,
                                    "runtimeClassName": None if rcn is None else str(rcn)},
                       *key)
    return doc


def _objects(data: list[Any]) -> list[tuple[KeyPath, dict[str, Any]]]:
    """Every Kubernetes object with its key path; ``kind: List`` items are unpacked."""
    out: list[tuple[KeyPath, dict[str, Any]]] = []
    for i, obj in enumerate(data):
        if not isinstance(obj, dict):
            continue
        if str(obj.get("kind", "")).endswith("List") and isinstance(obj.get("items"), list):
            out += [((i, "items", j), item) for j, item in enumerate(obj["items"])
                    if isinstance(item, dict)]
        else:
            out.append(((i,), obj))
    return out


def _pod_specs(node: Any, path: KeyPath) -> list[KeyPath]:
    """Paths of every mapping that is a pod spec (has a ``containers`` list)."""
    found: list[KeyPath] = []
    if isinstance(node, dict):
        if isinstance(node.get("containers"), list):
            found.append(path)
        for key, value in node.items():
            if key != "containers":
                found += _pod_specs(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += _pod_specs(value, (*path, i))
    return found
