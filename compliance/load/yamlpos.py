"""YAML -> plain data, keeping a file:line:column for every node.

Builds plain data and positions in one iterative pass over the events of
ruamel.yaml's C parser (:mod:`compliance.load.yamlbuild`; no node graph).
Everything a strict model needs to point back at the YAML is kept in
``YamlDocument.positions``, keyed by the node's path (``("controls", 3, "claim")``).

Refused here, each with a positioned :class:`~compliance.diagnostics.Diagnostic`:
binary or non-UTF-8 files, empty files, YAML syntax errors, duplicate keys,
unsupported tags, more than one document, and alias bombs (the expanded size
is counted while parsing, before anything is expanded, so a "billion
laughs" file is refused in bounded time and memory; aliased values are shared,
not copied).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from compliance.diagnostics import Diagnostic, Level, Position
from compliance.paths import OutsideFolder, TooLarge, read_file

#: Expanded node budget: generous for real models, tiny next to a billion laughs.
MAX_EXPANDED_NODES = 2_000_000
#: Deepest nesting of collections accepted (counted while parsing, no recursion).
MAX_DEPTH = 200
#: Text files bigger than this are refused before they are read further (prose for
#: ``lint``, a questionnaire mapping).
MAX_FILE_BYTES = 32 * 1024 * 1024
#: Model files bigger than this are not models; refuse before parsing. (A model file costs
#: about 1.3 s and 45 MB of memory per MB of YAML to load and check: the example's fourteen
#: controls are 30 KB, a thousand controls 0.7 MB.)
MAX_MODEL_FILE_BYTES = 4 * 1024 * 1024
#: All the YAML files of one workspace together (see :func:`compliance.load.load_workspace`).
MAX_WORKSPACE_BYTES = 8 * 1024 * 1024

LOAD_CODE, LOAD_NAME = "YML001", "unreadable-yaml"
DUP_CODE, DUP_NAME = "YML002", "duplicate-key"
EMPTY_CODE, EMPTY_NAME = "YML003", "empty-file"

Path_ = tuple[str | int, ...]


class NodePos:
    """Where one node sits: its key (for mapping values), its value, its scalar style.

    Stored as plain numbers (0-based marks, as the parser gives them); the
    :class:`Position` objects are made only when someone asks, which keeps
    loading a large model cheap.
    """

    __slots__ = ("_path", "_key", "_marks", "start", "end", "style")

    def __init__(self, path: str, key: tuple[int, int] | None,
                 marks: tuple[int, int, int, int], start: int, end: int,
                 style: str | None) -> None:
        self._path = path
        self._key = key
        self._marks = marks
        self.start = start  # character index of the value in the source text
        self.end = end
        self.style = style

    @property
    def key(self) -> Position | None:
        if self._key is None:
            return None
        return Position(self._path, self._key[0] + 1, self._key[1] + 1)

    @property
    def value(self) -> Position:
        line, col, end_line, end_col = self._marks
        return Position(self._path, line + 1, col + 1, end_line + 1, end_col + 1)


@dataclass
class YamlDocument:
    """One loaded YAML file: plain data, positions, the source text, and problems.

    ``problems`` are findings in a file that still parsed (duplicate keys,
    unsupported tags): the data is usable, the run still fails.
    """

    path: str
    data: Any
    positions: dict[Path_, NodePos] = field(default_factory=dict)
    text: str = ""
    problems: list[Diagnostic] = field(default_factory=list)

    def pos(self, path: Path_, key: bool = False) -> Position:
        """Best position for ``path``: the node itself, else its nearest ancestor."""
        p = tuple(path)
        while p not in self.positions and p:
            p = p[:-1]
        np = self.positions.get(p)
        if np is None:
            return Position(self.path, 1, 1)
        if key and np.key is not None:
            return np.key
        return np.value

    def in_string_value(self, index: int) -> bool:
        """Does character ``index`` of the source text lie inside a string value (a block
        scalar or a quoted string, where ``#`` is content, not a comment)?"""
        return any(np.start <= index < np.end and isinstance(_get(self.data, path), str)
                   for path, np in self.positions.items())

    def locate_in_scalar(self, path: Path_, offset: int) -> Position:
        """Map a character offset inside a string value to its file position.

        Works for plain, quoted and block scalars: the value's characters are
        matched in order against the source text of the node (folded line
        breaks and indentation are skipped), so a finding in the middle of a
        ``|`` or ``>`` block points at the right line and column.
        """
        np = self.positions.get(tuple(path))
        value = _get(self.data, path)
        if np is None or not isinstance(value, str):
            return self.pos(path)
        src = self.text
        i = np.start
        if np.style in ("|", ">"):
            nl = src.find("\n", i)  # skip the block indicator line
            i = nl + 1 if nl != -1 else i
        elif np.style in ("'", '"'):
            i += 1
        offset = max(0, min(offset, len(value)))
        if np.style == '"':  # escapes and folding are walked, not matched
            return _position_of_index(self.path, src, _double_quoted_index(src, i, np.end,
                                                                           offset))
        for ch in value[:offset]:
            j = i
            if ch.isspace():
                while j < np.end and not src[j].isspace():
                    j += 1
                if j < np.end:
                    i = j + 1
                continue
            while j < np.end and src[j] != ch:
                j += 1
            if j >= np.end:
                break  # escapes or folding we cannot follow: stop at the best point so far
            i = j + 1
        while i < np.end and src[i] in " \t\n" and offset < len(value) and \
                not value[offset].isspace():
            i += 1
        return _position_of_index(self.path, src, i)


#: Source length of a double-quoted escape by its letter (others take two: ``\n``).
_ESCAPE_LENGTH = {"x": 4, "u": 6, "U": 10}


def _double_quoted_index(src: str, i: int, end: int, offset: int) -> int:
    """The source index of value character ``offset`` of a double-quoted scalar whose
    first character is at ``i``: an escape (``\\n``, ``\\u00e9``) is one character, an
    escaped line break none, and a line break with the next line's indentation is one
    (a space) or, before empty lines, one per empty line (YAML line folding)."""
    k = 0
    while k < offset and i < end:
        c = src[i]
        if c == "\\":
            if src.startswith("\n", i + 1) or src.startswith("\r\n", i + 1):
                i = src.index("\n", i + 1) + 1  # escaped line break: joins, no character
                while i < end and src[i] in " \t":
                    i += 1
                continue
            i += _ESCAPE_LENGTH.get(src[i + 1:i + 2], 2)
            k += 1
            continue
        if c in " \t" and src[i:end].lstrip(" \t")[:1] in ("\n", "\r"):
            i += 1  # trailing blanks before a line break are dropped
            continue
        if c in "\r\n":
            i = src.find("\n", i) + 1 if c == "\r" else i + 1
            empty = 0
            while True:  # the next line's indentation; each empty line is one newline
                while i < end and src[i] in " \t":
                    i += 1
                if i < end and src[i] in "\r\n":
                    empty += 1
                    i = src.find("\n", i) + 1 if src[i] == "\r" else i + 1
                    continue
                break
            k += max(1, empty)
            continue
        i += 1
        k += 1
    return i


def _get(data: Any, path: Path_) -> Any:
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _position_of_index(path: str, text: str, index: int) -> Position:
    line = text.count("\n", 0, index) + 1
    col = index - (text.rfind("\n", 0, index) + 1) + 1
    return Position(path, line, col)


def _mark_pos(path: str, mark: Any, end: Any = None) -> Position:
    if end is None:
        return Position(path, mark.line + 1, mark.column + 1)
    return Position(path, mark.line + 1, mark.column + 1, end.line + 1, end.column + 1)


class YamlLoadError(Exception):
    """The file cannot be read as YAML at all (exit 2). Carries positioned diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics


def _fail(path: str, line: int, col: int, message: str) -> YamlLoadError:
    return YamlLoadError(
        [Diagnostic(path, line, col, LOAD_CODE, LOAD_NAME, Level.ERROR, message)]
    )


def _wide_unicode(raw: bytes) -> bool:
    """UTF-16 or UTF-32 text (with a byte order mark, or ASCII-looking text without one)."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")):
        return True
    head = raw[:64] if len(raw) % 2 == 0 else raw[:64][:-1]
    if len(head) < 4:
        return False
    even, odd = head[0::2], head[1::2]  # "a\0b\0" (LE) or "\0a\0b" (BE)
    if (not any(odd) and all(even)) or (not any(even) and all(odd)):
        return True
    quads = [head[i::4] for i in range(4)] if len(head) % 4 == 0 else []
    return bool(quads) and (not any(quads[1] + quads[2] + quads[3]) and all(quads[0]) or
                            not any(quads[0] + quads[1] + quads[2]) and all(quads[3]))


def read_text(file: Path, display: str, what: str = "YAML file",
              read: Callable[[int], bytes] | None = None,
              limit: int = MAX_FILE_BYTES) -> str:
    """Read a file as strict UTF-8 text, refusing binary, oversized and undecodable files.

    The read goes through :func:`compliance.paths.read_file`, or ``read(max_bytes)`` when
    given (a :func:`compliance.paths.read_inside` of a file that must stay in its folder):
    at most one byte over the limit is read whatever the file's size, and a FIFO or
    device (swapped in after the folder was listed) is refused instead of blocking or
    filling memory."""
    try:
        raw = (read or (lambda most: read_file(file, max_bytes=most)))(limit)
    except TooLarge as exc:
        raise _fail(display, 1, 1, f"{what} is {exc.size} bytes; the limit is {limit} "
                                   f"({limit >> 20} MiB)") from None
    except (OSError, OutsideFolder) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise _fail(display, 1, 1, f"cannot read {what}: {reason}") from None
    if _wide_unicode(raw):
        raise _fail(display, 1, 1, f"UTF-16/UTF-32 text: save the {what} as UTF-8")
    if b"\x00" in raw:
        nul = raw.index(b"\x00")
        line = raw.count(b"\n", 0, nul) + 1
        col = nul - (raw.rfind(b"\n", 0, nul) + 1) + 1
        raise _fail(display, line, col, f"binary file (NUL byte): not a {what}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise _fail(
            display, line, col,
            f"not valid UTF-8 (byte 0x{raw[exc.start]:02x}); save the file as UTF-8",
        ) from None
    return text.removeprefix("\ufeff")


def load_yaml(file: Path, display: str) -> YamlDocument:
    """Load one model YAML file into plain data with positions, or raise
    :class:`YamlLoadError` (over :data:`MAX_MODEL_FILE_BYTES`: refused unparsed)."""
    text = read_text(file, display, limit=MAX_MODEL_FILE_BYTES)
    return parse_yaml(text, display)


def parse_yaml(text: str, display: str) -> YamlDocument:
    """One model file: exactly one YAML document (an empty file is reported, not raised)."""
    docs = parse_yaml_stream(text, display)
    if not docs:
        empty = Diagnostic(display, 1, 1, EMPTY_CODE, EMPTY_NAME, Level.ERROR,
                           "empty file: expected a YAML mapping (e.g. `controls:`); "
                           "delete the file or add content")
        return YamlDocument(display, None, {}, text, [empty])
    if len(docs) > 1:
        line = docs[1].positions[()].value.line
        raise _fail(display, line, 1,
                    "more than one YAML document in a file; split it into separate files")
    return docs[0]


def parse_yaml_stream(text: str, display: str) -> list[YamlDocument]:
    """Every document of a YAML stream (model files and YAML evidence files alike).

    One pass over the C parser's events (:mod:`compliance.load.yamlbuild`): nesting
    deeper than :data:`MAX_DEPTH` is refused at the first too-deep collection, and
    aliases that would expand past :data:`MAX_EXPANDED_NODES` are refused before
    anything is expanded. When several things are wrong, the one reported is the
    one the compose-based loader reported (depth and syntax, then the composer's
    alias errors, then alias bombs).
    """
    from compliance.load.yamlbuild import Bomb, ComposerProblem, EventBuilder, TooDeep

    yaml = YAML(typ="safe")
    loader, _ = yaml.get_constructor_parser(text)
    builder = EventBuilder(display, yaml, loader, text)
    get_event = loader.get_event
    try:
        try:
            try:
                return builder.run(get_event)
            except Bomb as exc:
                try:
                    builder.drain(get_event, composer=True)
                except ComposerProblem as refused:
                    _composer_failure(text, display, builder, get_event, refused)
                line, col = exc.args[0]
                raise _fail(display, line + 1, col + 1,
                            f"aliases expand to more than {MAX_EXPANDED_NODES:,} nodes "
                            "(an alias bomb?); refusing to expand") from None
            except ComposerProblem as refused:
                _composer_failure(text, display, builder, get_event, refused)
        except TooDeep as exc:
            raise _fail(display, exc.line + 1, exc.column + 1,
                        f"nested deeper than {MAX_DEPTH} levels; refusing to parse") from None
    except MarkedYAMLError as exc:
        raise syntax_error(display, exc, text) from None
    except YAMLError as exc:
        raise _fail(display, 1, 1, f"YAML syntax error: {exc}") from None
    finally:
        loader.dispose()


#: Parser contexts that name an opener: an unclosed one is reported where it opened.
_OPENERS = {"while parsing a flow sequence": "'['", "while parsing a flow mapping": "'{'",
            "while scanning a quoted scalar": "quote"}


def syntax_error(display: str, exc: MarkedYAMLError, text: str = "") -> YamlLoadError:
    """A positioned YAML syntax error.

    An unclosed ``[``, ``{`` or quote is reported at the opener (ruamel's context
    mark), naming where the parser gave up; anything else at the problem mark.
    """
    opener = _OPENERS.get(exc.context or "")
    if opener and exc.context_mark is not None and exc.problem_mark is not None:
        mark, at = exc.context_mark, exc.problem_mark
        at_end = "end of stream" in (exc.problem or "") or (
            text and getattr(at, "index", -1) >= len(text.rstrip()))
        gave_up = "the end of the file" if at_end else f"line {at.line + 1}, column {at.column + 1}"
        return _fail(display, mark.line + 1, mark.column + 1,
                     f"YAML syntax error: this {opener} is never closed "
                     f"({exc.problem or 'no closing'} at {gave_up})")
    mark = exc.problem_mark or exc.context_mark
    problem = " ".join(p for p in (exc.problem, exc.context) if p) or "invalid YAML"
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    return _fail(display, line, col, f"YAML syntax error: {problem}")


def _composer_failure(text: str, display: str, builder: Any, get_event: Any,
                      problem: Any) -> NoReturn:
    """Raise an alias error, unless depth or syntax would have been reported first.

    The compose-based loader checked depth and syntax over the whole stream
    before composing whenever :func:`_depth_bound` allowed a too-deep file, so
    then a later syntax or depth error wins over this one.
    """
    if _depth_bound(text) > MAX_DEPTH:
        builder.drain(get_event, composer=False)
    raise _fail(display, problem.line + 1, problem.column + 1, f"YAML syntax error: {problem}")


#: Leading run of a line that can open block collections: indentation and the
#: indicators ``-``, ``?``, ``:``, with anchors and tags between them.
_BLOCK_LEAD = re.compile(r"^(?:[ \t\-?:]|[&!][^\s]*[ \t])*", re.M)


def _depth_bound(text: str) -> int:
    """A cheap upper bound of the nesting depth: flow openers plus the longest block lead."""
    bound = text.count("[") + text.count("{")
    if bound <= MAX_DEPTH:
        bound += max((len(m) for m in _BLOCK_LEAD.findall(text)), default=0)
    return bound
