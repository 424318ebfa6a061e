"""The event-driven loader builds exactly what the compose-based one built.

Every case runs both ``compliance.load.yamlpos.parse_yaml_stream`` (new) and
``tests.load.reference_loader.parse_yaml_stream`` (the old compose + walk, kept
frozen) and compares data (types, values and key order), every position (key
mark, value marks, start/end index, style), every problem, and the refusal
(message and position) for inputs either refuses.

The corpus: hand-written edge cases, a seeded generator (block and flow
collections, every scalar type and style, tags, anchors, aliases, merge keys,
duplicate and complex keys, comments, unicode, several documents, and some
broken syntax), the example workspace's YAML and ../shared/data's YAML.
"""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import pytest

from compliance.load.yamlpos import YamlLoadError, parse_yaml_stream
from tests.load import reference_loader

GENERATED = 4000


def _canon(value: Any) -> Any:
    """Data with types, values and key order made comparable (NaN equals NaN)."""
    if isinstance(value, dict):
        return ("dict", [(k, _canon(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [_canon(v) for v in value])
    if isinstance(value, float) and math.isnan(value):
        return ("nan",)
    return (type(value).__name__, value)


def _snapshot(load: Any, text: str) -> Any:
    try:
        docs = load(text, "f.yaml")
    except YamlLoadError as exc:
        return ("refused", exc.diagnostics)
    out = []
    for doc in docs:
        positions = {
            path: (np.key, np.value, np.start, np.end, np.style)
            for path, np in doc.positions.items()
        }
        out.append((_canon(doc.data), positions, doc.problems, doc.text == text, doc.path))
    return ("loaded", out)


def assert_same(text: str) -> str:
    """Compare both loaders on ``text``; returns loaded, refused or old-crashed."""
    try:
        old = _snapshot(reference_loader.parse_yaml_stream, text)
    except (LookupError, RecursionError):  # old bugs (a traceback); the new loader must not crash
        _snapshot(parse_yaml_stream, text)
        return "old-crashed"
    new = _snapshot(parse_yaml_stream, text)
    if old != new:  # narrow the report to what differs
        if old[0] != new[0]:
            pytest.fail(f"{old[0]} vs {new[0]}:\nold {old[1]}\nnew {new[1]}\n---\n{text}")
        if old[0] == "refused":
            assert new[1] == old[1], text
        assert len(new[1]) == len(old[1]), text
        for (od, op, oq, ot, _), (nd, np_, nq, nt, _) in zip(old[1], new[1], strict=True):
            assert nd == od, text
            assert nq == oq, text
            assert set(np_) == set(op), (set(np_) ^ set(op), text)
            for path in op:
                assert np_[path] == op[path], (path, text)
            assert nt and ot
        pytest.fail(f"documents differ:\n{text}")
    return old[0]


# -- hand-written edge cases ------------------------------------------------------------

CASES = [
    "",
    "# only a comment\n",
    "---\n",
    "---\n...\n---\n",
    "--- a\n--- b\n...\n",
    "a\n",
    "a: 1\nb: [1, 2, {c: d}]\n",
    "a: &x {b: 1}\nc: *x\nd: *x\n",
    "a: &x [1, {b: 2}]\nc: [*x, *x]\n",
    "a: &x 1\nb: *x\n",
    "&r {a: 1}\n",
    "base: &b {x: 1, y: 2}\nc: {<<: *b, y: 3}\n",
    "b1: &b1 {x: 1}\nb2: &b2 {x: 2, z: 3}\nc: {<<: [*b1, *b2], w: 0}\n",
    "b: &b {x: 1}\nm: &m {<<: *b, y: 2}\nleaf: {<<: *m, z: 3}\n",  # chained merge
    "c: {<<: {x: 1, x: 2}, x: 0, y: 5}\n",
    "c:\n  <<: {a: 1}\n  <<: {b: 2}\n",
    "c: {<<: 1}\n",
    "c: {<<: [1, {a: 2}, [3]]}\n",
    "s: &s 1\nc: {<<: *s}\n",
    "l: &l [{a: 1}, 2]\nc: {<<: *l}\n",
    "d: &d {a: 1, a: 2}\ne: *d\nf: *d\n",  # problems repeat per alias
    "t: &t !!int x\nu: *t\nv: [*t]\n",
    "a: 1\na: 2\nb: {c: 1, c: [x]}\n",
    "a: 1\na: &x {q: 1}\nb: *x\n",  # anchor inside a duplicate value
    "? [k]\n: v\nz: 1\n",
    "? {k: 1}\n: v\n",
    "? &k [1]\n: v\nz: *k\n",
    "&k a: 1\n*k : 2\n",
    "&k 7: 1\nv: *k\n",
    "&k <<: {a: 1}\nv: *k\n",
    "m: &m {a: 1}\n? *m\n: 2\n",
    "a: <<\nb: =\nc: !!merge x\n",
    "!!merge a: {b: 1}\n",
    "? !!merge [x]\n: {b: 1}\n",
    "a: !!str 1\nb: !!int '2'\nc: !!float 3\nd: !!bool true\ne: !!null ''\n"
    "f: !!timestamp 2020-01-02\ng: !!binary aGk=\nh: !foo x\ni: ! 12\nj: !!int x\n"
    "k: !!float y\nm: !!timestamp nope\n",
    "a: !!map [1]\nb: !!seq {c: 1}\nc: !foo {d: 1}\nd: !bar [1]\ne: ! [1]\n",
    "a: 0x1F\nb: 0o17\nc: 017\nd: 1_000\ne: +12\nf: -0\ng: 1.5e3\nh: .inf\ni: -.Inf\n"
    "j: .NaN\nk: 1e3\nl: 2001-12-14t21:59:43.10-05:00\nm: 2001-12-14 21:59:43.10 -5\n"
    "n: 2002-12-14\no: yes\np: No\nq: TRUE\nr: Null\ns: ~\nt:\nu: 12:30\nv: 1.2.3\n",
    "%YAML 1.1\n---\na: 017\nb: 1:30\nc: yes\n",
    "a: 'single ''q'''\nb: \"double \\u00e9 \\n \\t x\"\nc: |\n  lit\n   more\nd: >-\n"
    "  folded\n  text\n\ne: |+\n  keep\n\nf: plain\n  continued\n",
    "caf\u00e9: na\u00efve \u2013 \u201cquotes\u201d \U0001F600\n"
    "\u00fc: [\u00e4, {\u00f6: \u00df}]\n",
    "a: 1 # comment\n# between\nb: [1, # in flow\n  2]\n",
    "- a\n- - b\n  - c\n- {d: e}\n- ? f\n  : g\n",
    "--- &a 1\n--- *a\n",  # anchors do not cross documents
    "a: *nope\n",
    "a: &x 1\nb: &x 2\n",
    "a: &x [*x]\n",
    "a: &x {b: *x}\n",
    "a: [1\n",
    "a: b: c\n",
    "- a\nb: c\n",
    "a: 'unterminated\n",
    "\t- tab\n",
    "a: *nope\nb: [\n",  # alias error first, then syntax: the composer error wins here
    "a: *nope\nb: [\n" + "[" * 250,  # ...but not when the file might be too deep
    "a: *nope\n" + "[" * 250 + "]" * 250 + "\n",
    "[" * 250 + "]" * 250 + "\n",
    "[" * 200 + "]" * 200 + "\n",
    "[" * 201 + "]" * 201 + "\n",
    "".join(f"{'  ' * i}k{i}:\n" for i in range(199)) + "  " * 199 + "v: 1\n",
    "".join(f"{'  ' * i}k{i}:\n" for i in range(205)) + "  " * 205 + "v: 1\n",
    "--- 1\n--- " + "[" * 230 + "]" * 230 + "\n",
    "a: &a [1]\nb: &b [*a, *a]\n" + "c: [*b, *b, *b]\n",
    "a: &x {b: 1}\nb: *x\n--- [1\n",
]

_LAUGHS = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 10) + "]\n"
    for i in range(8)
)
CASES += [
    _LAUGHS,
    _LAUGHS + "z: [\n",  # a syntax error later wins over the bomb
    _LAUGHS + "z: *undefined\n",  # so does an alias error
    _LAUGHS + "--- " + "[" * 250 + "]" * 250 + "\n",  # and depth
    "--- ok\n--- " + _LAUGHS + "--- also\n",
    "--- " + _LAUGHS + "--- *nope\n",
    "a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n" + "".join(  # big but under the budget
        f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 10) + "]\n"
        for i in range(4)
    ),
    "a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n" + "".join(  # anchors nested around an alias
        f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 10) + "]\n"
        for i in range(2)
    ) + "z: " + "".join(f"&n{i} [" for i in range(60)) + "*c" + "]" * 60 + "\nw: *n30\n",
    "b: &b {x: &x [1, {y: 2, y: 3}], z: !!int q}\nm: &m {<<: *b, w: *x}\n"
    "n: {<<: [*m, *b], x: 0}\no: [*m, *m]\n",
]


@pytest.mark.parametrize("text", CASES, ids=range(len(CASES)))
def test_edge_case(text: str) -> None:
    assert_same(text)


def test_old_loader_crashed_new_one_reports() -> None:
    """`!!bool maybe` raised KeyError out of the old loader (a traceback); now a problem."""
    text = "a: !!bool maybe\nb: !!bool yes\n"
    with pytest.raises(KeyError):
        reference_loader.parse_yaml_stream(text, "f.yaml")
    (doc,) = parse_yaml_stream(text, "f.yaml")
    assert doc.data == {"a": None, "b": True}
    assert [(d.line, d.column, d.message) for d in doc.problems] == [
        (1, 4, "invalid bool value: 'maybe'")]


def test_alias_chains_nest_without_recursion() -> None:
    """Aliases nesting 1,200 levels deep (150 written per level) load; the old walk recursed."""
    text = "".join(f"k{j}: &c{j} " + "[" * 150 + (f"*c{j - 1}" if j else "1") + "]" * 150 + "\n"
                   for j in range(8))
    with pytest.raises(RecursionError):
        reference_loader.parse_yaml_stream(text, "f.yaml")
    (doc,) = parse_yaml_stream(text, "f.yaml")
    inner = doc.data["k7"]
    for _ in range(1199):
        inner = inner[0]
    assert inner == [1]
    assert (doc.pos(("k7",) + (0,) * 1200).line, doc.pos(("k7",) + (0,) * 150).line) == (1, 7)


# -- seeded generator -------------------------------------------------------------------

_PLAIN = ["word", "two words", "1", "-12", "+3", "0", "0x1F", "0o17", "017", "1_000", "3.14",
          "-2.5e-3", "1e3", ".5", "-.inf", ".NaN", ".inf", "true", "False", "TRUE", "yes",
          "no", "null", "Null", "~", "2024-05-06", "2024-05-06T07:08:09Z",
          "2001-12-14 21:59:43.10 -5", "2024-13-45", "12:30", "<<", "<x", "=", "1.2.3",
          "0b101", "naïve – “q”", "\u00e9t\u00e9", "x#y", "a-b", "-", "n/a", "t", "f",
          "tru", "nulls", ".", "0.", "-0", "+.5", "1__0", "0x", "💡 idea"]
_TAGS = ["!!str", "!!int", "!!float", "!!bool", "!!null", "!!timestamp", "!!binary", "!foo",
         "!", "!!merge", "!!map", "!!seq"]
_KEYS = ["a", "b", "c", "id", "name", "<<", "1", "true", "~", "x y", "é"]


class _Gen:
    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)
        self.anchors: list[str] = []
        self.scalar_anchors: list[str] = []  # aliases used as keys point at scalars
        self.n = 0

    def anchor(self, scalar: bool = False) -> str:
        if self.r.random() < 0.12:
            self.n += 1
            name = f"a{self.n}" if self.r.random() < 0.97 else "a1"
            self.anchors.append(name)
            if scalar:
                self.scalar_anchors.append(name)
            return f"&{name} "
        return ""

    def open_anchor(self) -> tuple[str, str | None]:
        """An anchor for a collection: usable after it closes (now and then inside: a loop)."""
        if self.r.random() < 0.12:
            self.n += 1
            name = f"a{self.n}" if self.r.random() < 0.97 else "a1"
            if self.r.random() < 0.03:
                self.anchors.append(name)
                return f"&{name} ", None
            return f"&{name} ", name
        return "", None

    def close_anchor(self, name: str | None) -> None:
        if name is not None:
            self.anchors.append(name)

    def tag(self) -> str:
        return f"{self.r.choice(_TAGS)} " if self.r.random() < 0.06 else ""

    def alias(self) -> str | None:
        if self.anchors and self.r.random() < 0.12:
            return "*" + self.r.choice(self.anchors)
        if self.r.random() < 0.003:
            return "*missing"
        return None

    def scalar(self, flow: bool) -> str:
        r = self.r.random()
        word = self.r.choice(_PLAIN)
        if r < 0.6:
            if flow and any(c in word for c in ",[]{}#"):
                word = "w"
            return word
        if r < 0.8:
            return "'" + word.replace("'", "''") + "'"
        return '"' + word.replace("\\", "\\\\").replace('"', '\\"') + ' \\u00e9\\t"'

    def key(self, flow: bool) -> str:
        if self.scalar_anchors and self.r.random() < 0.1:
            return "*" + self.r.choice(self.scalar_anchors) + " "
        r = self.r.random()
        if r < 0.04:
            return self.anchor(scalar=True) + self.r.choice(_KEYS)
        if r < 0.08:
            return "'" + self.r.choice(_KEYS) + "'"
        if r < 0.1:
            return self.tag() + self.r.choice(_KEYS)
        return self.r.choice(_KEYS)

    def flow(self, depth: int) -> str:
        alias = self.alias()
        if alias is not None:
            return alias
        r = self.r.random()
        if depth > 3 or r < 0.5:
            return self.anchor(scalar=True) + self.tag() + self.scalar(True)
        anchor, name = self.open_anchor()
        props = anchor + self.tag()
        if r < 0.75:
            items = [self.flow(depth + 1) for _ in range(self.r.randint(0, 4))]
            self.close_anchor(name)
            return props + "[" + ", ".join(items) + "]"
        pairs = [f"{self.key(True)}: {self.flow(depth + 1)}"
                 for _ in range(self.r.randint(0, 4))]
        self.close_anchor(name)
        return props + "{" + ", ".join(pairs) + "}"

    def block(self, depth: int, indent: int) -> str:
        """A value after `key:` or `- `: either inline text or a newline and a block."""
        alias = self.alias()
        if alias is not None:
            return " " + alias + "\n"
        r = self.r.random()
        pad = " " * indent
        if depth > 4 or r < 0.45:
            return " " + (self.anchor(scalar=True) + self.tag() + self.scalar(False)).rstrip() + \
                (" # note\n" if self.r.random() < 0.05 else "\n")
        anchor, name = self.open_anchor()
        props = (" " + anchor + self.tag()).rstrip()
        if r < 0.52:
            self.close_anchor(name)
            style = self.r.choice(["|", ">", "|-", ">+", "|2"])
            lines = [self.r.choice(["line one", "  indented", "", "third – line"])
                     for _ in range(self.r.randint(1, 3))]
            body = "".join(f"{pad}  {ln}\n" if ln else "\n" for ln in lines)
            return f"{props} {style}\n" + body
        if r < 0.62:
            flow = self.flow(depth)
            self.close_anchor(name)
            return props + " " + flow + "\n"
        if r < 0.8:
            out = props + "\n"
            for _ in range(self.r.randint(1, 4)):
                out += f"{pad}-" + self.block(depth + 1, indent + 2)
            self.close_anchor(name)
            return out
        out = props + "\n"
        for _ in range(self.r.randint(1, 5)):
            if self.r.random() < 0.04:
                out += f"{pad}? [{self.scalar(True)}]\n{pad}:" + self.block(depth + 1, indent + 2)
            elif self.r.random() < 0.08:
                out += f"{pad}<<: " + self.r.choice(
                    [self.alias() or "{m: 1}", "[" + ", ".join(
                        self.alias() or "{n: 2}" for _ in range(2)) + "]", "{q: 3, a: 4}",
                     "7"]) + "\n"
            else:
                out += f"{pad}{self.key(False)}:" + self.block(depth + 1, indent + 2)
        self.close_anchor(name)
        return out

    def document(self) -> str:
        self.anchors, self.scalar_anchors = [], []
        r = self.r.random()
        if r < 0.1:
            return self.flow(0) + "\n"
        if r < 0.2:
            body = self.block(0, 0)
            return body.lstrip("\n") if body.startswith(("\n", " \n")) else body
        out = ""
        for _ in range(self.r.randint(1, 6)):
            out += f"{self.key(False)}:" + self.block(1, 2)
        return out

    def stream(self) -> str:
        docs = [self.document() for _ in range(1 if self.r.random() < 0.8 else 3)]
        text = docs[0] if len(docs) == 1 else "".join(f"---\n{d}" for d in docs)
        if self.r.random() < 0.03:  # break something
            cut = self.r.randrange(len(text) + 1)
            text = text[:cut] + self.r.choice(["[", "]", "}", ": :", "\t", "'", "&", "*"]) + \
                text[cut:]
        return text


def test_generated_corpus() -> None:
    outcomes: dict[str, int] = {}
    for seed in range(GENERATED):
        text = _Gen(seed).stream()
        outcome = assert_same(text)
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    # the corpus exercises both sides: most load, some are refused
    assert outcomes.get("loaded", 0) > GENERATED // 2
    assert outcomes.get("refused", 0) > 20


# -- real files -------------------------------------------------------------------------


def _yaml_files(root: Path) -> list[Path]:
    return sorted(p for ext in ("*.yaml", "*.yml") for p in root.rglob(ext))


def test_example_workspace(repo: Path) -> None:
    files = _yaml_files(repo / "controls") + _yaml_files(repo / "evidence")
    assert len(files) >= 10
    for file in files:
        assert_same(file.read_text(encoding="utf-8"))


def test_shared_data(shared_data: Path) -> None:
    files = _yaml_files(shared_data)
    assert files
    for file in files:
        try:
            text = file.read_text(encoding="utf-8").removeprefix("\ufeff")
        except UnicodeDecodeError:
            continue
        assert_same(text)
