"""What every adapter produces: an :class:`EvidenceDoc` of positioned facts.

An adapter turns one evidence file into plain data (``doc.data``) plus the
1-based line and column of every key and list item (``doc.positions``, keyed
by the path of keys and indexes from the root), and derived facts that are
not a single key (``doc.facts``, e.g. the ACCEPT rules of a firewall script).
Rules only ever read an :class:`EvidenceDoc`; they never open files.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from compliance.diagnostics import Diagnostic, Level, Position
from compliance.paths import OutsideFolder, TooLarge, read_file

DEFAULT_MAX_BYTES = 5 * 1024 * 1024

KeyPath = tuple[str | int, ...]


def as_dict(value: Any) -> dict[Any, Any]:
    """The value if it is a mapping, else an empty one (evidence may have any shape)."""
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> list[Any]:
    """The value if it is a list, else an empty one."""
    return value if isinstance(value, list) else []


def as_int(value: Any, default: int = 0) -> int:
    """An integer from an int or a numeric string; ``default`` for anything else."""
    if isinstance(value, bool):
        return default
    if isinstance(value, int):
        return value
    try:
        return int(str(value).strip())
    except ValueError:
        return default


def key_text(keys: KeyPath) -> str:
    """A key path as people write it: ``sandbox.network.allowedDomains[2]``."""
    out = ""
    for k in keys:
        out += f"[{k}]" if isinstance(k, int) else (f".{k}" if out else str(k))
    return out or "(file)"


@dataclass(frozen=True, slots=True)
class Fact:
    """One normalised fact and where it came from (1-based line and column)."""

    key: str
    value: Any
    line: int
    column: int = 1


@dataclass
class EvidenceDoc:
    """One parsed evidence file.

    ``kind`` names the adapter; ``path`` is the display path used in messages;
    ``scope`` is set for layered formats (Claude Code settings:
    managed/cli/local/project/user).
    """

    kind: str
    path: str
    data: Any
    positions: dict[KeyPath, tuple[int, int]] = field(default_factory=dict)
    facts: dict[str, list[Fact]] = field(default_factory=dict)
    scope: str | None = None
    text: str = ""

    def loc(self, *keys: str | int) -> tuple[int, int]:
        """Line and column of a key path; the nearest known ancestor when absent."""
        path: KeyPath = tuple(keys)
        while path:
            if path in self.positions:
                return self.positions[path]
            path = path[:-1]
        return self.positions.get((), (1, 1))

    def line(self, *keys: str | int) -> int:
        return self.loc(*keys)[0]

    def has(self, *keys: str | int) -> bool:
        return self._lookup(keys)[0]

    def get(self, *keys: str | int, default: Any = None) -> Any:
        found, value = self._lookup(keys)
        return value if found else default

    def at(self, *keys: str | int) -> Fact | None:
        """The value at a key path as a :class:`Fact`, or None when the key is absent."""
        found, value = self._lookup(keys)
        if not found:
            return None
        line, column = self.loc(*keys)
        return Fact(key_text(tuple(keys)), value, line, column)

    def fact_list(self, name: str) -> list[Fact]:
        return self.facts.get(name, [])

    def add(self, name: str, value: Any, line: int, column: int = 1,
            key: KeyPath | str | None = None) -> None:
        """Record a derived fact; ``key`` is the file's own key path it rests on."""
        text = key if isinstance(key, str) else key_text(key) if key else name
        self.facts.setdefault(name, []).append(Fact(text, value, line, column))

    def add_at(self, name: str, value: Any, *keys: str | int) -> None:
        """Record a derived fact at the position of a key path in the file."""
        line, column = self.loc(*keys)
        self.add(name, value, line, column, tuple(keys))

    def items(self, *keys: str | int) -> Iterator[Fact]:
        """Each item of the list (or mapping value) at a key path, as positioned facts."""
        value = self.get(*keys)
        if isinstance(value, list):
            for i, item in enumerate(value):
                line, column = self.loc(*keys, i)
                yield Fact(key_text((*keys, i)), item, line, column)
        elif isinstance(value, dict):
            for k, item in value.items():
                line, column = self.loc(*keys, k)
                yield Fact(key_text((*keys, k)), item, line, column)

    def entries(self, *keys: str | int) -> Iterator[tuple[str | int, Fact]]:
        """Like :meth:`items`, with each item's own key or index."""
        value = self.get(*keys)
        names: list[str | int] = (list(range(len(value))) if isinstance(value, list)
                                  else list(value) if isinstance(value, dict) else [])
        yield from zip(names, self.items(*keys), strict=True)

    def _lookup(self, keys: tuple[str | int, ...]) -> tuple[bool, Any]:
        value = self.data
        for k in keys:
            in_dict = isinstance(value, dict) and isinstance(k, str) and k in value
            in_list = (isinstance(value, list) and isinstance(k, int)
                       and -len(value) <= k < len(value))
            if not (in_dict or in_list):
                return False, None
            value = value[k]  # type: ignore[index]
        return True, value


class EvidenceError(Exception):
    """An evidence file that cannot be read: malformed, binary or too large.

    ``positioned``: the diagnostic's line and column are where the file goes wrong (a
    syntax error, a NUL byte); False when the whole file is refused (too large,
    unreadable), whose diagnostic then sits at 1:1."""

    def __init__(self, diagnostic: Diagnostic, positioned: bool = True) -> None:
        super().__init__(str(diagnostic.position) + ": " + diagnostic.message)
        self.diagnostic = diagnostic
        self.positioned = positioned

    def why(self) -> str:
        """Why the file could not be read, with its file:line:col when that is known."""
        d = self.diagnostic
        return f"{d.position}: {d.message}" if self.positioned else d.message


class UnrecognisedEvidence(Exception):
    """No adapter recognises the file; we never guess its format."""


def evidence_error(path: str, line: int, column: int, message: str,
                   positioned: bool = True) -> EvidenceError:
    """An :class:`EvidenceError` positioned in the evidence file itself (``positioned``
    False: about the whole file, not a place in it)."""
    diag = Diagnostic.at(
        Position(path, max(line, 1), max(column, 1)),
        "CFG100",
        "unreadable-evidence",
        Level.ERROR,
        message,
    )
    return EvidenceError(diag, positioned)


def read_text(path: Path, display_path: str, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """Read an evidence file as UTF-8 text, refusing binary, oversized and special files."""
    return decode_text(
        load_bytes(lambda limit: read_file(path, max_bytes=limit),
                   display_path, max_bytes),
        display_path)


def load_bytes(read: Callable[[int], bytes], display_path: str,
               max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
    """``read(max_bytes)`` (a :func:`compliance.paths.read_inside`), its errors as a
    positioned :class:`EvidenceError`: over the limit, outside, not a file, unreadable."""
    try:
        return read(max_bytes)
    except TooLarge as exc:
        raise evidence_error(
            display_path, 1, 1,
            f"evidence file is {exc.size} bytes, over the {max_bytes}-byte limit; "
            "refusing to parse", positioned=False,
        ) from None
    except OutsideFolder as exc:
        raise evidence_error(display_path, 1, 1, f"refusing to read evidence: {exc}",
                             positioned=False) from None
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise evidence_error(display_path, 1, 1, f"cannot read evidence file: {reason}",
                             positioned=False) from None


def decode_text(raw: bytes, display_path: str) -> str:
    """Evidence bytes as UTF-8 text (BOM dropped); binary or non-UTF-8 is an EvidenceError."""
    nul = raw.find(b"\x00")
    if nul >= 0:
        line = raw.count(b"\n", 0, nul) + 1
        column = nul - (raw.rfind(b"\n", 0, nul) + 1) + 1
        raise evidence_error(display_path, line, column, "binary file (NUL byte); not evidence")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise evidence_error(display_path, line, column, "file is not UTF-8 text") from None
    return text.removeprefix("\ufeff")
