"""YAML evidence as plain data plus the line and column of every key and item.

A thin view over the model loader's :func:`compliance.load.yamlpos.parse_yaml_stream`,
so evidence and model files share one parser and one set of guards (nesting
depth, alias bombs, YAML 1.2 core schema: ``on:`` stays the string "on", as
GitHub reads it). Loader errors become evidence errors at the file's own line.
"""

from __future__ import annotations

from typing import Any

from compliance.adapters.base import KeyPath, evidence_error
from compliance.load.yamlpos import YamlDocument, YamlLoadError, parse_yaml_stream

Positions = dict[KeyPath, tuple[int, int]]


def _positions(doc: YamlDocument) -> Positions:
    """Key position for mapping entries, item position for list items."""
    out: Positions = {}
    for path, node in doc.positions.items():
        pos = node.key or node.value
        out[path] = (pos.line, pos.column)
    return out


def parse_yaml_documents(text: str, path: str) -> list[tuple[Any, Positions]]:
    """Every document in a YAML stream, each as (data, positions)."""
    try:
        docs = parse_yaml_stream(text, path)
    except YamlLoadError as exc:
        d = exc.diagnostics[0]
        message = d.message.replace("YAML syntax error: ", "invalid YAML: ")
        if not message.startswith("invalid YAML"):
            message = f"refusing YAML: {message.split(';')[0]}"
        raise evidence_error(path, d.line, d.column, message) from None
    for doc in docs:
        if doc.problems:  # duplicate keys, unsupported tags: the file is not what it says
            d = doc.problems[0]
            raise evidence_error(path, d.line, d.column, f"invalid YAML: {d.message}")
    return [(doc.data, _positions(doc)) for doc in docs]


def parse_yaml(text: str, path: str) -> tuple[Any, Positions]:
    """A single-document YAML file (an empty file is an empty mapping)."""
    docs = parse_yaml_documents(text, path)
    if not docs:
        return {}, {(): (1, 1)}
    return docs[0]
