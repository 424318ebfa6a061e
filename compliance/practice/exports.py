"""Readers of the exports the metrics are computed from; bad input is an error at its line.

- pull requests: the JSON array `gh pr list --state all --json
  number,files,reviews,author,state` prints (`author.login`, `author.is_bot`,
  `state` OPEN/CLOSED/MERGED, `files[].path`, `reviews[].state` APPROVED /
  CHANGES_REQUESTED / COMMENTED / DISMISSED / PENDING); other keys are ignored;
- proxy logs: squid's native access log (`time elapsed client code/status bytes
  method URL ...`; the client address stands for the session), or JSON lines
  `{"session": ..., "action": "allowed"|"blocked", ...}`;
- revocation records: YAML or JSON `revocations: [{credential, suspected, revoked}]`
  with ISO 8601 date-times;
- image manifests: YAML or JSON `environments: [{name, built}]` with ISO dates.

Every reader is bounded by the evidence size limit (compliance.adapters.base).
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compliance.adapters.base import EvidenceError, evidence_error, read_text
from compliance.adapters.jsonpos import parse_json

MAX_LINES = 2_000_000


@dataclass(frozen=True)
class PullRequest:
    number: int
    state: str
    author: str
    is_bot: bool
    files: tuple[str, ...]
    reviews: tuple[str, ...]


class _Shape:
    """Positions of a parsed JSON document, for errors about its shape."""

    def __init__(self, display: str, positions: dict[Any, tuple[int, int]]) -> None:
        self.display = display
        self.positions = positions

    def fail(self, keys: tuple[Any, ...], message: str) -> EvidenceError:
        while keys and keys not in self.positions:
            keys = keys[:-1]
        line, column = self.positions.get(keys, (1, 1))
        return evidence_error(self.display, line, column, message)


def read_pull_requests(file: Path, display: str) -> list[PullRequest]:
    data, positions = parse_json(read_text(file, display), display)
    shape = _Shape(display, positions)
    if not isinstance(data, list):
        raise shape.fail((), "expected the JSON array `gh pr list --json "
                             "number,files,reviews,author,state` prints")
    out = []
    for i, pr in enumerate(data):
        if not isinstance(pr, dict):
            raise shape.fail((i,), "expected a pull request object")
        for key in ("number", "state", "author", "files", "reviews"):
            if key not in pr:
                raise shape.fail((i,), f"pull request has no {key!r}; export with "
                                       "--json number,files,reviews,author,state")
        author = pr["author"] if isinstance(pr["author"], dict) else {}
        if not isinstance(pr["number"], int) or not isinstance(author.get("login"), str):
            raise shape.fail((i, "number"), "expected a number and author.login")
        if pr["state"] not in ("OPEN", "CLOSED", "MERGED"):
            raise shape.fail((i, "state"), f"state {pr['state']!r} is not OPEN, CLOSED or MERGED")
        files, reviews = pr["files"], pr["reviews"]
        if not isinstance(files, list) or not all(
                isinstance(f, dict) and isinstance(f.get("path"), str) for f in files):
            raise shape.fail((i, "files"), "expected files: [{\"path\": ...}, ...]")
        if not isinstance(reviews, list) or not all(
                isinstance(r, dict) and isinstance(r.get("state"), str) for r in reviews):
            raise shape.fail((i, "reviews"), "expected reviews: [{\"state\": ...}, ...]")
        out.append(PullRequest(pr["number"], pr["state"], author["login"],
                               bool(author.get("is_bot")), tuple(f["path"] for f in files),
                               tuple(r["state"] for r in reviews)))
    return out


@dataclass(frozen=True)
class ProxyLog:
    sessions: int
    blocked: int
    requests: int


def _squid_blocked(code: str) -> bool:
    result, _, status = code.partition("/")
    return "DENIED" in result or status in ("403", "407")


def read_proxy_log(file: Path, display: str) -> ProxyLog:
    text = read_text(file, display)
    sessions: set[str] = set()
    blocked = requests = 0
    for n, line in enumerate(text.splitlines()[:MAX_LINES], start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line.lstrip().startswith("{"):
            try:
                entry = json.loads(line)
            except json.JSONDecodeError as exc:
                raise evidence_error(display, n, exc.colno, f"invalid JSON line: {exc.msg}") \
                    from None
            action = entry.get("action") if isinstance(entry, dict) else None
            session = entry.get("session") if isinstance(entry, dict) else None
            if action not in ("allowed", "blocked") or not isinstance(session, str):
                raise evidence_error(display, n, 1, 'expected {"session": "...", "action": '
                                                    '"allowed" or "blocked", ...}')
            sessions.add(session)
            blocked += action == "blocked"
        else:
            fields = line.split()
            if len(fields) < 7 or "/" not in fields[3]:
                raise evidence_error(display, n, 1, "not a squid access log line (time elapsed "
                                                    "client code/status bytes method URL ...)")
            sessions.add(fields[2])
            blocked += _squid_blocked(fields[3])
        requests += 1
    return ProxyLog(len(sessions), blocked, requests)


def _records(file: Path, display: str, key: str) -> tuple[list[Any], _Shape]:
    text = read_text(file, display)
    if file.suffix == ".json":
        data, positions = parse_json(text, display)
        shape = _Shape(display, positions)
    else:
        from compliance.load.yamlpos import YamlLoadError, parse_yaml

        try:
            doc = parse_yaml(text, display)
        except YamlLoadError as exc:
            d = exc.diagnostics[0]
            raise evidence_error(display, d.line, d.column, d.message) from None
        data = doc.data
        shape = _Shape(display, {p: (np.value.line, np.value.column)
                                 for p, np in doc.positions.items()})
    if not isinstance(data, dict) or not isinstance(data.get(key), list):
        raise shape.fail((), f"expected a mapping with a list `{key}:`")
    return data[key], shape


def _when(value: Any, shape: _Shape, keys: tuple[Any, ...], what: str) -> dt.datetime:
    if isinstance(value, dt.datetime):
        parsed = value
    elif isinstance(value, dt.date):
        parsed = dt.datetime(value.year, value.month, value.day)
    elif isinstance(value, str):
        try:
            parsed = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            raise shape.fail(keys, f"{what}: {value!r} is not an ISO 8601 date-time") from None
    else:
        raise shape.fail(keys, f"{what}: expected an ISO 8601 date-time")
    return parsed.replace(tzinfo=None) - (parsed.utcoffset() or dt.timedelta())


def read_revocation_hours(file: Path, display: str) -> list[float]:
    """Hours from suspicion to revocation, one per record (a record not yet revoked raises)."""
    items, shape = _records(file, display, "revocations")
    out = []
    for i, item in enumerate(items):
        if not isinstance(item, dict) or "suspected" not in item or "revoked" not in item:
            raise shape.fail(("revocations", i), "expected credential, suspected and revoked")
        start = _when(item["suspected"], shape, ("revocations", i, "suspected"), "suspected")
        end = _when(item["revoked"], shape, ("revocations", i, "revoked"), "revoked")
        if end < start:
            raise shape.fail(("revocations", i, "revoked"), "revoked before it was suspected")
        out.append(round((end - start).total_seconds() / 3600, 2))
    return out


def read_environment_built(file: Path, display: str) -> list[dt.date]:
    items, shape = _records(file, display, "environments")
    out = []
    for i, item in enumerate(items):
        if not isinstance(item, dict) or "built" not in item:
            raise shape.fail(("environments", i), "expected name and built")
        out.append(_when(item["built"], shape, ("environments", i, "built"), "built").date())
    return out
