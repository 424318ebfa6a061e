"""CODEOWNERS: one rule per line, the last matching pattern wins.

Pattern semantics follow GitHub's docs (gitignore-like): a leading ``/``
anchors at the repository root; a pattern without a slash (other than a
trailing one) matches at any depth; ``*`` stays within a path segment, ``**``
crosses them; a pattern naming a directory owns everything under it. A
pattern with no owners removes ownership.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from compliance.adapters.base import EvidenceDoc, Fact

KIND = "codeowners"
_OWNER = re.compile(r"^(@[\w.-]+(/[\w.-]+)?|[^@\s]+@[^@\s]+)$")


def looks_like(text: str, display_path: str) -> bool:
    return PurePosixPath(display_path.replace("\\", "/")).name.endswith("CODEOWNERS")


def parse(text: str, display_path: str) -> EvidenceDoc:
    doc = EvidenceDoc(KIND, display_path, [], {(): (1, 1)}, text=text)
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        pattern, *owners = line.split()
        doc.add("rule", (pattern, tuple(o for o in owners if _OWNER.match(o))), lineno,
                raw.index(pattern) + 1)
        doc.data.append({"pattern": pattern, "owners": owners})
    return doc


def _regex(pattern: str) -> re.Pattern[str]:
    anchored = pattern.startswith("/") or "/" in pattern.rstrip("/")
    body = pattern.strip("/")
    out = ""
    i = 0
    while i < len(body):
        if body.startswith("**/", i):
            out += "(?:.*/)?"
            i += 3
        elif body.startswith("**", i):
            out += ".*"
            i += 2
        elif body[i] == "*":
            out += "[^/]*"
            i += 1
        elif body[i] == "?":
            out += "[^/]"
            i += 1
        else:
            out += re.escape(body[i])
            i += 1
    prefix = "" if anchored else "(?:.*/)?"
    return re.compile(f"^{prefix}{out}(?:/.*)?$")


def owner_of(doc: EvidenceDoc, path: str) -> Fact | None:
    """The rule that owns a repository path (last match wins), or None when unowned."""
    found: Fact | None = None
    for fact in doc.fact_list("rule"):
        pattern, _owners = fact.value
        if _regex(pattern).match(path):
            found = fact
    if found is None or not found.value[1]:
        return None
    return found
