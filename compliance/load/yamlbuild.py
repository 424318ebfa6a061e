"""Plain data + positions straight from the C parser's event stream (no node graph).

One iterative pass over ``yaml.parse`` events with an explicit stack: nesting
depth is counted as it goes (no recursion anywhere, so a 100k-deep file cannot
crash the interpreter), and the expanded size of aliases is accounted before
anything is copied. It builds exactly what walking ruamel's composed node graph
built before (see ``tests/load/reference_loader.py`` and ``test_parity.py``):

* an alias reuses the anchored Python object (shared, not copied) and records
  the anchor's positions under the alias path, its problems again per use;
* merge keys take a mapping or a list of mappings, explicit keys win, merged
  keys come after the explicit ones; a source that merges others brings their
  keys too (after its own), as YAML's merge key defines;
* keys are the raw scalar text; duplicate keys keep the first definition.

Anything that must be referred to again (an anchored node, a merge source, a
key) is kept as a ``_Sum`` (:mod:`compliance.load.yamlnodes`); everything else
goes straight into the document's logs.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError
from ruamel.yaml.events import (
    AliasEvent,
    DocumentEndEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from ruamel.yaml.nodes import ScalarNode

from compliance.bounds import MAX_NUMBER_DIGITS, digit_count, too_long_message
from compliance.diagnostics import Diagnostic, Level, Position
from compliance.load.yamlnodes import (
    _BAD,
    _DICT,
    _DUP,
    _DUP_ANCHOR,
    _IN_PROGRESS,
    _KEYSLOT,
    _LIST,
    _MAP,
    _MERGE,
    _MERGING,
    _NORMAL,
    _SCALAR,
    _SCALAR_TAGS,
    _SEQ,
    _STD,
    _STR,
    Bomb,
    ComposerProblem,
    DocumentLogs,
    TooDeep,
    _Frame,
    _Ref,
    _Sum,
)
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
)


class EventBuilder(DocumentLogs):
    """Builds every document of one stream; raises Bomb/ComposerProblem/TooDeep or parser errors."""

    def __init__(self, display: str, yaml: YAML, loader: Any, text: str) -> None:
        self.display = display
        self.text = text
        self.stack: list[_Frame] = []
        #: append-only logs of the current document; what is not part of its data
        #: (keys, duplicate values, merge sources) is listed in ``dropped`` as ranges
        self.plist: list[tuple[Path_, NodePos]] = []
        self.probs: list[Diagnostic] = []
        self.dropped: list[tuple[int, int, int, int]] = []
        self.refs = False  # any _Ref in the logs
        self.root: list[Any] = []
        self.resolve = loader.resolve
        self.constructor = yaml.constructor
        table = loader.versioned_resolver
        #: first characters a plain scalar may start with and still not be a string
        self.special = None if None in table else frozenset(k for k in table if k)
        self.cache: dict[tuple[str, str], Any] = {}
        self.plain: dict[str, Any] = {}  # untagged plain text -> its value (when valid)
        self.docs: list[YamlDocument] = []
        self.depth = 0  # open collections (also read by the caller after an exception)
        self.anchors: dict[str, _Sum] = {}
        #: "invalid value" problems: ruamel's constructor reports a node once, then
        #: returns None for it silently (an alias of it, a merge of it: no new problem)
        self.failed: list[Diagnostic] = []

    # -- scalars -----------------------------------------------------------------------

    def _tag(self, ev: Any) -> str:
        tag = ev.tag
        if tag is None or tag == "!":
            if ev.style and tag is None:
                return _STR
            value = ev.value
            if tag is None and value and (self.special is not None and
                                          value[0] not in self.special):
                return _STR
            return str(self.resolve(ScalarNode, value, ev.implicit))
        return str(tag)

    def _value(self, ev: Any, tag: str) -> tuple[Any, Diagnostic | None]:
        if tag == _STR:
            return ev.value, None
        if tag not in _SCALAR_TAGS:
            return None, self._diag(ev.start_mark.line, ev.start_mark.column,
                                    f"unsupported YAML tag {tag!r}; use plain values")
        key = (tag, ev.value)
        try:
            return self.cache[key], None
        except KeyError:
            pass
        if tag in (_STD + "int", _STD + "float") and len(ev.value) > MAX_NUMBER_DIGITS \
                and digit_count(ev.value) > MAX_NUMBER_DIGITS:
            diag = self._diag(ev.start_mark.line, ev.start_mark.column,
                              too_long_message(digit_count(ev.value)))
            self.failed.append(diag)
            return None, diag
        node = ScalarNode(tag, ev.value, ev.start_mark, ev.end_mark, style=ev.style)
        try:
            value = self.constructor.construct_object(node, deep=True)
        # LookupError: `!!bool maybe`, `!!int ''` (ruamel's constructor indexes blindly)
        except (YAMLError, ValueError, LookupError, TypeError, ArithmeticError) as exc:
            diag = self._diag(ev.start_mark.line, ev.start_mark.column,
                              f"invalid {tag.removeprefix(_STD)} value: {exc}")
            self.failed.append(diag)
            return None, diag
        self.cache[key] = value
        return value, None

    def _scalar_value(self, ev: Any) -> Any:
        """A kept scalar's value; its problem (if any) goes to the document's problems."""
        value, diag = self._value(ev, self._tag(ev))
        if diag is not None:
            self.probs.append(diag)
        elif ev.tag is None and not ev.style:
            self.plain[ev.value] = value
        return value

    def _diag(self, line: int, col: int, message: str, code: str = LOAD_CODE,
              name: str = LOAD_NAME) -> Diagnostic:
        return Diagnostic.at(Position(self.display, line + 1, col + 1), code, name,
                             Level.ERROR, message)

    # -- the pass ----------------------------------------------------------------------

    def run(self, get_event: Any) -> list[YamlDocument]:  # noqa: C901 - one hot loop
        display = self.display
        special = self.special
        pcache = self.plain
        stack = self.stack
        plist, probs = self.plist, self.probs
        count = 0
        doc_base = 0
        root_mark = (0, 0)
        while True:
            ev = get_event()
            cls = type(ev)
            if cls is ScalarEvent:
                count += 1
                top = stack[-1] if stack else None
                if ev.anchor is None and top is not None and not top.detached \
                        and not top.need:
                    sm = ev.start_mark
                    value = ev.value
                    if top.kind == _DICT:
                        if top.expect_key:
                            if ev.tag is None and (ev.style or value[:1] != "<"):
                                mark = (sm.line, sm.column)
                                first = top.first
                                if value in first:
                                    self._key_scalar(top, value, mark, _STR)
                                else:  # the usual key: new, plain text
                                    first[value] = mark
                                    top.kstr, top.kmark = value, mark
                                    top.kmode, top.expect_key = _NORMAL, False
                                continue
                        elif top.kmode == _NORMAL:
                            em = ev.end_mark
                            tag = ev.tag
                            if tag is None and (ev.style or (
                                    value and special is not None and value[0] not in special)):
                                pass  # quoted, block, or plain text no resolver matches
                            elif tag is None and value in pcache:
                                value = pcache[value]
                            else:
                                value = self._scalar_value(ev)
                            kstr = top.kstr
                            assert kstr is not None
                            top.value[kstr] = value
                            plist.append(((*top.path, kstr), NodePos(
                                display, top.kmark, (sm.line, sm.column, em.line, em.column),
                                sm.index, em.index, ev.style)))
                            top.expect_key = True
                            continue
                    else:
                        em = ev.end_mark
                        tag = ev.tag
                        if tag is None and (ev.style or (
                                value and special is not None and value[0] not in special)):
                            pass
                        elif tag is None and value in pcache:
                            value = pcache[value]
                        else:
                            value = self._scalar_value(ev)
                        plist.append(((*top.path, len(top.value)), NodePos(
                            display, None, (sm.line, sm.column, em.line, em.column),
                            sm.index, em.index, ev.style)))
                        top.value.append(value)
                        continue
                if top is None:
                    root_mark = (ev.start_mark.line, ev.start_mark.column)
                self._scalar(ev, top)
            elif cls is MappingStartEvent or cls is SequenceStartEvent:
                sm = ev.start_mark
                if self.depth >= MAX_DEPTH:
                    raise TooDeep(sm.line, sm.column)
                top = stack[-1] if stack else None
                if top is None:
                    root_mark = (sm.line, sm.column)
                f = _Frame()
                f.kind = _DICT if cls is MappingStartEvent else _LIST
                f.value = {} if f.kind == _DICT else []
                self._slot(f, top)
                anchor = ev.anchor
                if anchor is not None:
                    if anchor in self.anchors:
                        raise ComposerProblem(_DUP_ANCHOR, sm.line, sm.column)
                    self.anchors[anchor] = _IN_PROGRESS
                f.anchor = anchor
                f.need = anchor is not None or (top is not None and (
                    (top.kind == _LIST and top.need) or
                    (top.kind == _DICT and not top.expect_key and top.kmode == _MERGING)))
                if top is not None and (top.reprs is not None or (
                        top.kind == _DICT and top.expect_key)):
                    f.reprs = []
                f.want = f.need or f.droot or f.reprs is not None or (
                    top is not None and top.need)
                if f.need:
                    if f.kind == _DICT:
                        f.entries = []
                    else:
                        f.items = []
                f.sm = sm
                tag = ev.tag
                default = _MAP if f.kind == _DICT else _SEQ
                f.tag = default if tag is None or tag == "!" else str(tag)
                f.pbase, f.qbase, f.cbase = len(plist), len(probs), count
                f.dbase = len(self.dropped)
                count += 1
                if f.tag != default:
                    what = "a mapping" if f.kind == _DICT else "a list"
                    probs.append(self._diag(sm.line, sm.column,
                                            f"unsupported YAML tag {f.tag!r} on {what}"))
                stack.append(f)
                self.depth += 1
            elif cls is MappingEndEvent or cls is SequenceEndEvent:
                f = stack.pop()
                self.depth -= 1
                self._close(f, ev.end_mark, count)
            elif cls is AliasEvent:
                s = self.anchors.get(ev.anchor)
                if s is None:
                    sm = ev.start_mark
                    raise ComposerProblem("found undefined alias", sm.line, sm.column)
                if s is _IN_PROGRESS:
                    raise Bomb(root_mark)
                count += s.size
                if count - doc_base > MAX_EXPANDED_NODES:
                    raise Bomb(root_mark)
                top = stack[-1] if stack else None
                if top is None:
                    root_mark = s.sm
                elif top.reprs is not None:
                    top.reprs.append(s.node_repr())
                self._place(s, top, False)
            elif cls is DocumentStartEvent:
                self.anchors = {}
                plist, probs = self.plist, self.probs = [], []
                self.dropped = []
                self.refs = False
                self.root = []
                doc_base = count
            elif cls is DocumentEndEvent:
                self.docs.append(self._document())
            elif cls is StreamEndEvent:
                return self.docs
            if count - doc_base > MAX_EXPANDED_NODES:
                raise Bomb(root_mark)

    def _slot(self, f: _Frame, top: _Frame | None) -> None:
        """Where a new node sits: its path, its key mark, whether its data is kept."""
        if top is None:
            f.path, f.key, f.detached, f.droot = (), None, False, False
        elif top.kind == _LIST:
            f.path, f.key, f.detached, f.droot = (*top.path, len(top.value)), None, \
                top.detached, False
        elif top.expect_key:  # a key is never built: only its kind, tag and text count
            f.path, f.key, f.detached, f.droot = (*top.path, _KEYSLOT), None, True, True
        elif top.kmode == _NORMAL:
            assert top.kstr is not None
            f.path, f.key, f.detached, f.droot = (*top.path, top.kstr), top.kmark, \
                top.detached, False
        else:  # the value of a duplicate, non-scalar or merge key: not built in place
            f.path, f.key, f.detached, f.droot = (*top.path, top.kstr or _KEYSLOT), \
                top.kmark, True, True

    def _scalar(self, ev: Any, top: _Frame | None) -> None:
        """A scalar anywhere but the hot paths: keys that may merge, anchors, kept nodes."""
        sm, em = ev.start_mark, ev.end_mark
        tag = self._tag(ev)
        anchor = ev.anchor
        if anchor is not None and anchor in self.anchors:
            raise ComposerProblem(_DUP_ANCHOR,
                                  sm.line, sm.column)
        if top is not None and top.reprs is not None:
            top.reprs.append(f"ScalarNode(tag={tag!r}, value={ev.value!r})")
        is_key = top is not None and top.kind == _DICT and top.expect_key
        if is_key and anchor is None:
            assert top is not None
            self._key_scalar(top, ev.value, (sm.line, sm.column), tag)
            return
        value, diag = self._value(ev, tag)
        s = _Sum(value, _SCALAR, tag, ev.value, (sm.line, sm.column),
                 (sm.line, sm.column, em.line, em.column), sm.index, em.index, ev.style,
                 [] if diag is None else [diag], 1)
        if anchor is not None:
            self.anchors[anchor] = s
        self._place(s, top, False)

    def _key_scalar(self, top: _Frame, raw: str, mark: tuple[int, int], tag: str) -> None:
        top.expect_key = False
        top.kmark = mark
        if tag == _MERGE:
            top.kstr, top.kmode = raw, _MERGING
        elif raw in top.first:
            prev = top.first[raw]
            self.probs.append(self._diag(
                mark[0], mark[1], f"duplicate key {raw!r} (first defined at line "
                f"{prev[0] + 1}, column {prev[1] + 1})", DUP_CODE, DUP_NAME))
            top.kstr, top.kmode = raw, _DUP
        else:
            top.first[raw] = mark
            top.kstr, top.kmode = raw, _NORMAL

    def _close(self, f: _Frame, em: Any, count: int) -> None:
        plist, probs = self.plist, self.probs
        sm = f.sm
        value = f.value
        if f.merged:  # explicit keys win; merged ones follow, in source order
            for k, km, vs in _merge_entries(f.merged):
                if k not in value:
                    self._attach(vs, (*f.path, k), km)
                    value[k] = vs.value
        marks = (sm.line, sm.column, em.line, em.column)
        s: _Sum | None = None
        if f.want or f.anchor is not None:
            s = _Sum(value, f.kind, f.tag, None, (sm.line, sm.column), marks, sm.index,
                     em.index, None, [], count - f.cbase)
            s.span = (len(f.path), f.pbase, len(plist), f.qbase, len(probs), f.dbase,
                      len(self.dropped))
            s.entries, s.items, s.merged = f.entries, f.items, f.merged
            reprs = f.reprs
            if reprs is not None and None not in reprs:
                if f.kind == _LIST:
                    s.text = "[" + ", ".join(reprs) + "]"  # type: ignore[arg-type]
                else:
                    pairs = zip(reprs[0::2], reprs[1::2], strict=True)
                    s.text = "[" + ", ".join(f"({k}, {v})" for k, v in pairs) + "]"
            if f.anchor is not None:
                self.anchors[f.anchor] = s
        if f.droot:  # kept in the logs (a _Sum may point there), left out of the document
            self.dropped.append((f.pbase, len(plist), f.qbase, len(probs)))
        else:
            plist.append((f.path, NodePos(self.display, f.key, marks, sm.index, em.index,
                                          None)))
        top = self.stack[-1] if self.stack else None
        if top is None:
            self.root.append(value)
            return
        if top.reprs is not None:
            assert s is not None
            top.reprs.append(s.node_repr())
        if s is None:  # plain kept collection: straight into its parent
            if top.kind == _LIST:
                top.value.append(value)
            else:
                assert top.kstr is not None
                top.value[top.kstr] = value
                top.expect_key = True
            return
        self._place(s, top, True)

    def _place(self, s: _Sum, top: _Frame | None, inplace: bool) -> None:
        """Put a complete node into its parent (inplace: its positions are recorded)."""
        if top is None:
            if not inplace:
                self._attach(s, (), None)
            self.root.append(s.value)
            return
        if top.kind == _LIST:
            if not inplace:
                self._attach(s, (*top.path, len(top.value)), None)
            top.value.append(s.value)
            if top.items is not None:
                top.items.append(s)
            return
        if top.expect_key:
            top.expect_key = False
            top.kmark = s.sm
            text = s.raw if s.kind == _SCALAR else s.text
            if s.tag == _MERGE:
                top.kstr, top.kmode = text, _MERGING
            elif s.kind != _SCALAR:
                self.probs.append(self._diag(s.sm[0], s.sm[1],
                                             "mapping keys must be plain strings"))
                top.kstr, top.kmode = text, _BAD
            else:
                assert s.raw is not None
                self._key_scalar(top, s.raw, s.sm, _STR)
            return
        mode = top.kmode
        if mode == _NORMAL:
            assert top.kstr is not None
            if not inplace:
                self._attach(s, (*top.path, top.kstr), top.kmark)
            top.value[top.kstr] = s.value
        elif mode == _MERGING:
            sources = s.items if s.kind == _LIST else [s]
            for src in sources or ():
                if src.kind == _DICT:
                    top.merged.append(src)
                else:
                    self.probs.append(self._diag(
                        src.sm[0], src.sm[1],
                        "a merge key (<<) takes a mapping or a list of mappings"))
        if top.entries is not None and mode != _MERGING:  # merge sources: in top.merged
            assert top.kmark is not None
            top.entries.append((top.kstr, top.kmark, s))
        top.expect_key = True

    def _attach(self, s: _Sum, path: Path_, key: tuple[int, int] | None) -> None:
        """Record a node kept elsewhere (an alias, a merged value) at ``path``."""
        if s.span is None:  # a scalar: nothing under it
            self.plist.append((path, NodePos(self.display, key, s.marks, s.start, s.end,
                                             s.style)))
            self.probs.extend(s.own)
            return
        ref = _Ref(path, key, s)  # expanded when the document is done (within budget)
        self.plist.append(ref)  # type: ignore[arg-type]
        self.probs.append(ref)  # type: ignore[arg-type]
        self.refs = True

    def drain(self, get_event: Any, composer: bool) -> None:
        """The rest of the stream, only checked: depth, syntax, and (composer) aliases."""
        names = set(self.anchors)
        while True:
            ev = get_event()
            cls = type(ev)
            if cls is MappingStartEvent or cls is SequenceStartEvent:
                if self.depth >= MAX_DEPTH:
                    raise TooDeep(ev.start_mark.line, ev.start_mark.column)
                self.depth += 1
            elif cls is MappingEndEvent or cls is SequenceEndEvent:
                self.depth -= 1
                continue
            elif cls is AliasEvent:
                if composer and ev.anchor not in names:
                    raise ComposerProblem("found undefined alias", ev.start_mark.line,
                                          ev.start_mark.column)
                continue
            elif cls is DocumentStartEvent:
                names = set()
                continue
            elif cls is StreamEndEvent:
                return
            elif cls is not ScalarEvent:
                continue
            anchor = ev.anchor
            if composer and anchor is not None:
                if anchor in names:
                    raise ComposerProblem(_DUP_ANCHOR, ev.start_mark.line, ev.start_mark.column)
                names.add(anchor)


def _merge_entries(sources: list[_Sum]) -> Iterator[tuple[str, tuple[int, int], _Sum]]:
    """The keyed entries merge ``sources`` bring, in order: each source's own entries,
    then those of the sources it merges itself (iterative: chains can be long)."""
    stack = [iter(sources)]
    while stack:
        src = next(stack[-1], None)
        if src is None:
            stack.pop()
            continue
        assert src.entries is not None
        for k, km, vs in src.entries:
            if k is not None:
                yield k, km, vs
        if src.merged:
            stack.append(iter(src.merged))
