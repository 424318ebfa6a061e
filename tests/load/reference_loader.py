"""The compose-based loader as it was before the event-driven builder (parity reference).

A frozen copy of ``compliance.load.yamlpos.parse_yaml_stream`` and its ``_Builder``
(commit a0001c1): ``YAML(typ='safe').compose_all`` on the C parser, then a recursive walk
of the node graph. ``tests/load/test_parity.py`` runs it beside the new loader and
asserts identical documents, positions, problems and errors. Test-only code.
"""

from __future__ import annotations

import re
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import CollectionEndEvent, CollectionStartEvent
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from compliance.diagnostics import Diagnostic, Level
from compliance.load.yamlpos import (
    DUP_CODE,
    DUP_NAME,
    LOAD_CODE,
    LOAD_NAME,
    MAX_DEPTH,
    MAX_EXPANDED_NODES,
    NodePos,
    Path_,
    YamlDocument,
    _fail,
    _mark_pos,
    syntax_error,
)

_STD = "tag:yaml.org,2002:"
_STR_TAG = f"{_STD}str"
_SCALAR_TAGS = {f"{_STD}{t}" for t in ("str", "int", "float", "bool", "null", "timestamp")}


def parse_yaml_stream(text: str, display: str) -> list[YamlDocument]:
    """Every document of a YAML stream (model files and YAML evidence files alike).

    Refuses, before composing, nesting deeper than :data:`MAX_DEPTH` (the C
    composer recurses and would crash the interpreter on a hostile file), and,
    before expanding, aliases that would expand past :data:`MAX_EXPANDED_NODES`.
    """
    yaml = YAML(typ="safe")
    try:
        too_deep = _too_deep(text, yaml)
        if too_deep is not None:
            raise _fail(display, too_deep.line + 1, too_deep.column + 1,
                        f"nested deeper than {MAX_DEPTH} levels; refusing to parse")
        nodes = [n for n in yaml.compose_all(text) if n is not None]
    except MarkedYAMLError as exc:  # the wording is shared; parity is about what is refused
        raise syntax_error(display, exc, text) from None
    except YAMLError as exc:
        raise _fail(display, 1, 1, f"YAML syntax error: {exc}") from None
    docs = []
    for root in nodes:
        if _expanded_size(root, {}, 0) > MAX_EXPANDED_NODES:
            raise _fail(display, root.start_mark.line + 1, root.start_mark.column + 1,
                        f"aliases expand to more than {MAX_EXPANDED_NODES:,} nodes "
                        "(an alias bomb?); refusing to expand")
        builder = _Builder(display, yaml)
        data = builder.build(root, (), None)
        docs.append(YamlDocument(display, data, builder.positions, text, builder.errors))
    return docs


#: Leading run of a line that can open block collections: indentation and the
#: indicators ``-``, ``?``, ``:``, with anchors and tags between them.
_BLOCK_LEAD = re.compile(r"^(?:[ \t\-?:]|[&!][^\s]*[ \t])*", re.M)


def _too_deep(text: str, yaml: YAML) -> Any:
    """The mark where nesting first exceeds MAX_DEPTH, else None.

    A cheap bound first (every flow opener, plus the longest run of block
    indentation and indicators): when it is within the limit, no collection can
    be deeper. Otherwise the parser's event stream, which is iterative, counts
    the real depth.
    """
    bound = text.count("[") + text.count("{")
    if bound <= MAX_DEPTH:
        bound += max((len(m) for m in _BLOCK_LEAD.findall(text)), default=0)
        if bound <= MAX_DEPTH:
            return None
    depth = 0
    for event in yaml.parse(text):
        if isinstance(event, CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                return event.start_mark
        elif isinstance(event, CollectionEndEvent):
            depth -= 1
    return None


def _expanded_size(node: Node, memo: dict[int, int], depth: int) -> int:
    key = id(node)
    if key in memo:
        return memo[key]
    if depth > MAX_DEPTH:
        return MAX_EXPANDED_NODES + 1  # deeper than the pre-check allows: aliases nest
    memo[key] = MAX_EXPANDED_NODES + 1  # recursion guard for self-referencing aliases
    total = 1
    if isinstance(node, MappingNode):
        for k, v in node.value:
            total += _expanded_size(k, memo, depth + 1) + _expanded_size(v, memo, depth + 1)
            if total > MAX_EXPANDED_NODES:
                break
    elif isinstance(node, SequenceNode):
        for v in node.value:
            total += _expanded_size(v, memo, depth + 1)
            if total > MAX_EXPANDED_NODES:
                break
    memo[key] = total
    return total


class _Builder:
    def __init__(self, display: str, yaml: YAML) -> None:
        self.display = display
        self.construct = yaml.constructor.construct_object
        self.positions: dict[Path_, NodePos] = {}
        self.errors: list[Diagnostic] = []

    def _record(self, node: Node, path: Path_, key_node: Node | None) -> None:
        sm, em = node.start_mark, node.end_mark
        key = None if key_node is None else (key_node.start_mark.line,
                                              key_node.start_mark.column)
        style = node.style if isinstance(node, ScalarNode) else None
        self.positions[path] = NodePos(self.display, key, (sm.line, sm.column, em.line,
                                                           em.column), sm.index, em.index, style)

    def _error(self, node: Node, message: str, code: str = LOAD_CODE,
               name: str = LOAD_NAME) -> None:
        pos = _mark_pos(self.display, node.start_mark)
        self.errors.append(Diagnostic.at(pos, code, name, Level.ERROR, message))

    def build(self, node: Node, path: Path_, key_node: Node | None) -> Any:
        self._record(node, path, key_node)
        tag = node.tag if isinstance(node.tag, str) else str(node.tag)
        if isinstance(node, ScalarNode):
            if tag == _STR_TAG:  # most values: no constructor needed
                return node.value
            if tag not in _SCALAR_TAGS:
                self._error(node, f"unsupported YAML tag {tag!r}; use plain values")
                return None
            try:
                return self.construct(node, deep=True)
            except (YAMLError, ValueError) as exc:
                self._error(node, f"invalid {tag.removeprefix(_STD)} value: {exc}")
                return None
        if isinstance(node, SequenceNode):
            if tag != f"{_STD}seq":
                self._error(node, f"unsupported YAML tag {tag!r} on a list")
            return [self.build(child, (*path, i), None) for i, child in enumerate(node.value)]
        if isinstance(node, MappingNode):
            if tag != f"{_STD}map":
                self._error(node, f"unsupported YAML tag {tag!r} on a mapping")
            return self._mapping(node, path)
        self._error(node, "unsupported YAML node")
        return None

    def _mapping(self, node: MappingNode, path: Path_) -> dict[str, Any]:
        out: dict[str, Any] = {}
        first: dict[str, Node] = {}
        merged: list[MappingNode] = []
        for key_node, value_node in node.value:
            ktag = key_node.tag if isinstance(key_node.tag, str) else str(key_node.tag)
            if ktag == f"{_STD}merge":
                sources = value_node.value if isinstance(value_node, SequenceNode) else [value_node]
                for src in sources:
                    if isinstance(src, MappingNode):
                        merged.append(src)
                    else:
                        self._error(src, "a merge key (<<) takes a mapping or a list of mappings")
                continue
            if not isinstance(key_node, ScalarNode):
                self._error(key_node, "mapping keys must be plain strings")
                continue
            key = str(key_node.value)
            if key in first:
                prev = first[key].start_mark
                self._error(key_node,
                            f"duplicate key {key!r} (first defined at line {prev.line + 1}, "
                            f"column {prev.column + 1})", DUP_CODE, DUP_NAME)
                continue
            first[key] = key_node
            out[key] = self.build(value_node, (*path, key), key_node)
        for key_node, value_node in _merged_pairs(merged):  # explicit keys win, as YAML
            key = str(key_node.value)                        # merge keys define
            if key not in out:
                out[key] = self.build(value_node, (*path, key), key_node)
        return out


def _merged_pairs(sources: list[MappingNode]) -> list[tuple[Node, Node]]:
    """Each source's own (key, value) pairs, then those of the sources it merges."""
    out: list[tuple[Node, Node]] = []
    for src in sources:
        nested: list[MappingNode] = []
        for key_node, value_node in src.value:
            ktag = key_node.tag if isinstance(key_node.tag, str) else str(key_node.tag)
            if ktag == f"{_STD}merge":
                subs = value_node.value if isinstance(value_node, SequenceNode) else [value_node]
                nested.extend(x for x in subs if isinstance(x, MappingNode))
            else:
                out.append((key_node, value_node))
        out.extend(_merged_pairs(nested))
    return out
