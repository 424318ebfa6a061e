"""YAML documents as plain data plus the line and column of every key and item.

Uses ruamel.yaml's safe composer (the C loader when available): nodes carry
start marks, which we keep; we build plain values ourselves (YAML 1.2 core
schema, so ``on:`` stays the string "on", as GitHub reads it).
"""

from __future__ import annotations

import io
import re
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from compliance.adapters.base import KeyPath, evidence_error

#: Limits that keep a hostile file (deep nesting, an alias "billion laughs") from
#: exhausting memory: nodes built per document, including alias re-expansions, and depth.
MAX_NODES = 200_000
MAX_DEPTH = 200

_INT = re.compile(r"[-+]?(?:0|[1-9][0-9_]*)$")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9][0-9_]*(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$")


def _scalar(node: ScalarNode) -> Any:
    tag, value = str(node.tag or ""), node.value
    if tag.endswith(":null"):
        return None
    if tag.endswith(":bool"):
        return value.lower() in ("true", "yes", "on")
    if tag.endswith(":int") and _INT.match(value):
        return int(value.replace("_", ""))
    if tag.endswith(":int"):
        try:
            return int(value.replace("_", ""), 0)
        except ValueError:
            return value
    if tag.endswith(":float") and _FLOAT.match(value):
        return float(value.replace("_", ""))
    return value


class _TooBig(Exception):
    def __init__(self, node: Node, why: str) -> None:
        self.node, self.why = node, why


def _build(node: Node, path: KeyPath, positions: dict[KeyPath, tuple[int, int]],
           budget: list[int] | None = None) -> Any:
    budget = budget if budget is not None else [MAX_NODES]
    budget[0] -= 1
    if budget[0] < 0:
        raise _TooBig(node, f"more than {MAX_NODES} nodes (alias expansion?)")
    if len(path) > MAX_DEPTH:
        raise _TooBig(node, f"nested deeper than {MAX_DEPTH} levels")
    if isinstance(node, MappingNode):
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = _scalar(key_node) if isinstance(key_node, ScalarNode) else str(key_node.value)
            if key == "<<" and isinstance(value_node, MappingNode):
                merged = _build(value_node, path, positions, budget)
                for k, v in merged.items():
                    out.setdefault(k, v)
                continue
            if not isinstance(key, str):
                key = str(key)
            mark = key_node.start_mark
            positions[(*path, key)] = (mark.line + 1, mark.column + 1)
            out[key] = _build(value_node, (*path, key), positions, budget)
        return out
    if isinstance(node, SequenceNode):
        items = []
        for i, item in enumerate(node.value):
            mark = item.start_mark
            positions[(*path, i)] = (mark.line + 1, mark.column + 1)
            items.append(_build(item, (*path, i), positions, budget))
        return items
    if isinstance(node, ScalarNode):
        return _scalar(node)
    return None


def parse_yaml_documents(
    text: str, path: str
) -> list[tuple[Any, dict[KeyPath, tuple[int, int]]]]:
    """Every document in a YAML stream, each as (data, positions)."""
    yaml = YAML(typ="safe")
    docs: list[tuple[Any, dict[KeyPath, tuple[int, int]]]] = []
    try:
        for node in yaml.compose_all(io.StringIO(text)):
            if node is None:
                continue
            positions: dict[KeyPath, tuple[int, int]] = {
                (): (node.start_mark.line + 1, node.start_mark.column + 1)
            }
            docs.append((_build(node, (), positions), positions))
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = exc.problem or exc.context or "syntax error"
        raise evidence_error(path, line, column, f"invalid YAML: {problem}") from None
    except YAMLError as exc:
        raise evidence_error(path, 1, 1, f"invalid YAML: {exc}") from None
    except _TooBig as exc:
        mark = exc.node.start_mark
        raise evidence_error(path, mark.line + 1, mark.column + 1,
                             f"refusing YAML: {exc.why}") from None
    except RecursionError:
        raise evidence_error(path, 1, 1, "refusing YAML: nested too deeply") from None
    return docs


def parse_yaml(text: str, path: str) -> tuple[Any, dict[KeyPath, tuple[int, int]]]:
    """A single-document YAML file (an empty file is an empty mapping)."""
    docs = parse_yaml_documents(text, path)
    if not docs:
        return {}, {(): (1, 1)}
    return docs[0]
