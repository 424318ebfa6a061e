"""Effective Claude Code settings across scopes, as the settings reference documents.

Precedence: managed > CLI > local project > project > user. Scalar keys come
from the highest scope that sets them; arrays merge across scopes; for
permissions, deny beats ask beats allow. Some keys are honoured only in some
scopes (``strictAllowlist``: user or managed, "A repository can't turn it on
or off"; ``allowManagedDomainsOnly`` and the ``allowManaged*Only`` keys:
managed only); a key set in the wrong scope is ignored and recorded in
:attr:`Effective.ignored` so a rule can say why it did not count.
A file whose scope is unknown is treated as project scope (the scope a
repository controls), never as managed.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from compliance.adapters.base import EvidenceDoc, Fact

PRECEDENCE = ("managed", "cli", "local", "project", "user")

ALLOWED_SCOPES: dict[str, frozenset[str]] = {
    "sandbox.network.strictAllowlist": frozenset({"user", "managed"}),
    "sandbox.network.allowManagedDomainsOnly": frozenset({"managed"}),
    "allowManagedPermissionRulesOnly": frozenset({"managed"}),
    "allowManagedHooksOnly": frozenset({"managed"}),
    "strictKnownMarketplaces": frozenset({"managed"}),
}

PERMISSION_ARRAYS = ("permissions.allow", "permissions.ask", "permissions.deny")


@dataclass(frozen=True, slots=True)
class Sourced:
    """A setting's value with the file, scope and line it came from."""

    doc: EvidenceDoc
    key: str
    fact: Fact

    @property
    def value(self) -> Any:
        return self.fact.value

    @property
    def scope(self) -> str:
        return scope_of(self.doc)


@dataclass
class Effective:
    """Merged view over every Claude settings file given."""

    docs: list[EvidenceDoc]
    ignored: list[tuple[Sourced, str]] = field(default_factory=list)

    def _candidates(self, key: str) -> Iterable[Sourced]:
        parts = key.split(".")
        for doc in sorted(self.docs, key=lambda d: PRECEDENCE.index(scope_of(d))):
            fact = doc.at(*parts)
            if fact is None:
                continue
            src = Sourced(doc, key, Fact(key, fact.value, fact.line, fact.column))
            reason = self._why_ignored(src)
            if reason:
                if (src, reason) not in self.ignored:
                    self.ignored.append((src, reason))
                continue
            yield src

    def _why_ignored(self, src: Sourced) -> str | None:
        scope = src.scope
        allowed = ALLOWED_SCOPES.get(src.key)
        if allowed is not None and scope not in allowed:
            where = " or ".join(sorted(allowed))
            return f"{src.key} is honoured only in {where} settings, not {scope} scope"
        if scope != "managed" and src.key in PERMISSION_ARRAYS and self._managed_true(
            "allowManagedPermissionRulesOnly"
        ):
            return "managed allowManagedPermissionRulesOnly drops permission rules of other scopes"
        if (scope != "managed" and src.key == "sandbox.network.allowedDomains"
                and self._managed_true("sandbox.network.allowManagedDomainsOnly")):
            return "managed allowManagedDomainsOnly drops allowedDomains of other scopes"
        return None

    def _managed_true(self, key: str) -> bool:
        return any(
            scope_of(d) == "managed" and d.get(*key.split(".")) is True for d in self.docs
        )

    def value(self, key: str) -> Sourced | None:
        """The effective scalar: the highest-precedence scope that may set it."""
        return next(iter(self._candidates(key)), None)

    def values(self, key: str) -> list[Sourced]:
        """Every honoured setting of a key, highest precedence first."""
        return list(self._candidates(key))

    def array(self, key: str) -> list[Sourced]:
        """Merged array items from every scope, each with its own line."""
        out: list[Sourced] = []
        for src in self._candidates(key):
            if not isinstance(src.value, list):
                continue
            for i, item in enumerate(src.value):
                line, column = src.doc.loc(*key.split("."), i)
                out.append(Sourced(src.doc, key, Fact(f"{key}[{i}]", item, line, column)))
        return out

    def mapping(self, key: str) -> dict[str, Sourced]:
        """Merged mapping (e.g. ``env``): each entry from the highest scope setting it."""
        out: dict[str, Sourced] = {}
        for src in self._candidates(key):
            if not isinstance(src.value, dict):
                continue
            for name, item in src.value.items():
                if name not in out:
                    line, column = src.doc.loc(*key.split("."), name)
                    out[name] = Sourced(src.doc, f"{key}.{name}",
                                        Fact(f"{key}.{name}", item, line, column))
        return out

    def decide(self, rule: str) -> tuple[str, Sourced] | None:
        """The permission decision for a tool use like ``Bash(ssh host)``: deny > ask > allow."""
        for verdict in ("deny", "ask", "allow"):
            for src in self.array(f"permissions.{verdict}"):
                if isinstance(src.value, str) and _rule_matches(src.value, rule):
                    return verdict, src
        return None

    def top(self) -> EvidenceDoc:
        """The highest-precedence file (where to point at a key that is absent everywhere)."""
        return sorted(self.docs, key=lambda d: PRECEDENCE.index(scope_of(d)))[0]


def scope_of(doc: EvidenceDoc) -> str:
    return doc.scope if doc.scope in PRECEDENCE else "project"


def _rule_matches(pattern: str, rule: str) -> bool:
    """``Bash`` matches every Bash use; ``Bash(npm run *)`` matches by glob."""
    if "(" not in pattern:
        return rule == pattern or rule.startswith(pattern + "(")
    return fnmatch.fnmatchcase(rule, pattern.replace(":*", "*"))


def merge_claude_settings(docs: list[EvidenceDoc]) -> Effective:
    """The effective settings over the given Claude settings files (other kinds are skipped)."""
    return Effective([d for d in docs if d.kind == "claude-settings"])
