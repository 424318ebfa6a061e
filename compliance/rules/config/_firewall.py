"""A firewall script's filter-table OUTPUT chain as iptables walks it. Shared by CFG007, CFG008.

Order: ``-A`` appends, ``-I CHAIN [N]`` inserts at position N (the top by default), so an
``-I`` written last can stand before the final REJECT. A rule that jumps to a chain the
script fills is replaced by that chain's rules, with the jump's own matches added.
The walk stops at the first rule with no match whose target is ACCEPT, DROP, REJECT or
RETURN (nothing after it is reached). Not modelled: ``-D``, ``-R`` and ``-F`` after rules were
added (a deleted rule is still counted; a deleted catch-all would be missed), and the
contents of ipsets (``--match-set S dst`` counts as limited to S's hosts).

An ACCEPT (or, under an ACCEPT policy, a RETURN) that is reached opens egress to any host
unless it is limited to: the loopback interface (``-o lo``), replies
(``--state``/``--ctstate`` of ESTABLISHED and RELATED only), destinations (``-d`` other
than ``0.0.0.0/0``, ``::/0`` or a prefix shorter than /8) or an ipset of destinations
(``--match-set S dst``). A negated match (``! -d X``) limits nothing. A ``-d $VAR`` the
script computes at run time counts as limited: the check cannot read it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from compliance.adapters.base import EvidenceDoc, Fact

#: Keys of a rule fact that are not matches.
_META = frozenset({"chain", "target", "table", "insert"})
_TERMINAL = frozenset({"ACCEPT", "DROP", "REJECT", "RETURN", "LOG", "NFLOG", "MARK",
                       "CONNMARK", "TCPMSS", "NOTRACK", "CT", "AUDIT", "TRACE"})
_REPLIES = frozenset({"ESTABLISHED", "RELATED"})
_MAX_DEPTH = 8

#: IPv4 (iptables and its -legacy/-nft names) and IPv6 (ip6tables): separate tables.
FAMILIES: tuple[tuple[str, Callable[[str], bool]], ...] = (
    ("IPv4", lambda key: key != "ip6tables"), ("IPv6", lambda key: key == "ip6tables"))


@dataclass(frozen=True, slots=True)
class Opening:
    """What a reached ACCEPT lets out to any host: its protocol and ports (None: every port)."""

    fact: Fact
    proto: str  # "all", "tcp", "udp", ...
    ports: str | None
    why: str  # why no destination limits it, as the message says it

    def to_any_host(self) -> str:
        """``accepts all TCP to any host (no -d …)``, and where ``-I`` put it."""
        where = ""
        if "insert" in self.fact.value:
            where = f"; -I puts it at position {self.fact.value['insert']} of OUTPUT"
        return f"accepts {self} to any host ({self.why}{where})"

    def covers(self, port: int) -> bool:
        return self.ports is None or covers(self.ports, port)

    def __str__(self) -> str:
        proto = "all traffic" if self.proto == "all" else f"all {self.proto.upper()}"
        if self.ports is None:
            return proto
        return f"{'any protocol' if self.proto == 'all' else self.proto.upper()} port " \
               f"{self.ports}"


def covers(ports: str, port: int) -> bool:
    """Does a ``--dport``/``--dports`` value (``443``, ``80,443``, ``1024:65535``,
    ``!22``) match ``port``?"""
    if ports.startswith("!"):
        return not covers(ports[1:], port)
    for part in ports.split(","):
        low, sep, high = part.partition(":")
        try:
            lo = int(low) if low else 0
            hi = (int(high) if high else 65535) if sep else lo
        except ValueError:
            return True  # a service name or a variable: assume it may be the port
        if lo <= port <= hi:
            return True
    return False


def output_policy(doc: EvidenceDoc, ours: Callable[[str], bool]) -> Fact | None:
    """The last ``-P OUTPUT`` of the filter table for this family (the one that stays)."""
    policy = None
    for fact in doc.fact_list("policy"):
        if fact.value["chain"] == "OUTPUT" and fact.value["table"] == "filter" \
                and ours(fact.key):
            policy = fact
    return policy


def _ordered(doc: EvidenceDoc, ours: Callable[[str], bool]) -> dict[str, list[Fact]]:
    chains: dict[str, list[Fact]] = {}
    for fact in doc.fact_list("rule"):
        if fact.value["table"] != "filter" or not ours(fact.key):
            continue
        rules = chains.setdefault(str(fact.value["chain"]), [])
        if "insert" in fact.value:
            rules.insert(max(int(fact.value["insert"]), 1) - 1, fact)
        else:
            rules.append(fact)
    return chains


def _walk(chains: dict[str, list[Fact]], name: str, outer: dict[str, object],
          depth: int) -> list[Fact]:
    out: list[Fact] = []
    for fact in chains.get(name, []):
        if outer:  # inside a jumped-to chain: the jump's matches hold too
            fact = Fact(fact.key, {**outer, **fact.value}, fact.line, fact.column)
        value = fact.value
        target = str(value["target"])
        if target not in _TERMINAL and target in chains and depth < _MAX_DEPTH:
            out += _walk(chains, target, matches(value), depth + 1)
            continue
        out.append(fact)
        if not matches(value) and target in ("ACCEPT", "DROP", "REJECT", "RETURN"):
            break
    return out


def matches(rule: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in rule.items() if k not in _META}


@dataclass(frozen=True, slots=True)
class Walked:
    """One family's OUTPUT chain of a script, walked once: the rules packets reach, in the
    order iptables tries them (the last is the catch-all, a rule with no match: ACCEPT,
    DROP, REJECT or RETURN, when there is one), and the chain's policy. A check asks all
    its questions of one walk (:func:`walk`)."""

    rules: tuple[Fact, ...]
    policy: Fact | None

    def openings(self) -> list[Opening]:
        """Every reached rule that lets packets out to any host (module doc)."""
        denies = self.policy is not None and self.policy.value["target"] in ("DROP", "REJECT")
        accepting = {"ACCEPT"} if denies else {"ACCEPT", "RETURN"}
        found = []
        for fact in self.rules:
            if fact.value["target"] in accepting:
                opened = opening(fact)
                if opened is not None:
                    found.append(opened)
        return found


def walk(doc: EvidenceDoc, ours: Callable[[str], bool]) -> Walked:
    """The OUTPUT chain of ``doc`` for one family (``ours``: see FAMILIES), walked once."""
    return Walked(tuple(_walk(_ordered(doc, ours), "OUTPUT", {}, 0)), output_policy(doc, ours))


def _plain(rule: dict[str, object], key: str) -> str | None:
    value = rule.get(key)
    return None if value is None or str(value).startswith("!") else str(value)


def _any_destination(dst: str) -> bool:
    address, _, prefix = dst.partition("/")
    if dst in ("0/0", "anywhere", "0.0.0.0/0.0.0.0") or address in ("0", "0.0.0.0", "::"):
        return True
    return prefix.isdigit() and int(prefix) < 8


def opening(fact: Fact) -> Opening | None:
    """What an accepting rule opens to any host, or None when it is limited (module doc)."""
    rule = fact.value
    if _plain(rule, "out") == "lo":
        return None
    state = _plain(rule, "state")
    if state is not None and set(state.upper().split(",")) <= _REPLIES:
        return None
    dst = _plain(rule, "dst")
    if dst is not None and not _any_destination(dst):
        return None
    if _plain(rule, "set") is not None and str(rule.get("set_dir", "")).startswith("dst"):
        return None
    if dst is not None:
        why = f"-d {dst} is every host"
    elif "dst" in rule or "set" in rule:
        why = "a negated destination (!) limits nothing"
    else:
        why = "no -d and no --match-set of an allowlist"
    proto = _plain(rule, "proto") or "all"
    proto = "all" if proto in ("0", "ALL") else proto.lower()
    ports = rule.get("dport")
    return Opening(fact, proto, None if ports is None else str(ports), why)
