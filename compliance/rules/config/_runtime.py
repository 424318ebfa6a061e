"""Helpers shared by the isolation-runtime checks (gVisor, Firecracker, no NIC)."""

from __future__ import annotations

from collections.abc import Iterator

from compliance.adapters.base import EvidenceDoc, Fact
from compliance.rules.config.base import of_kind

FIRECRACKER_HANDLERS = ("kata-fc", "kata-firecracker", "firecracker")


def runtime_classes(docs: list[EvidenceDoc]) -> dict[str, tuple[EvidenceDoc, Fact]]:
    """RuntimeClass name -> (file, fact at its ``handler`` line)."""
    out: dict[str, tuple[EvidenceDoc, Fact]] = {}
    for doc in of_kind(docs, "kubernetes"):
        for fact in doc.fact_list("runtime-class"):
            out[fact.value["name"]] = (doc, fact)
    return out


def pod_specs(docs: list[EvidenceDoc]) -> Iterator[tuple[EvidenceDoc, Fact]]:
    for doc in of_kind(docs, "kubernetes"):
        for fact in doc.fact_list("pod-spec"):
            yield doc, fact


def flag_value(args: list[str], flag: str) -> str | None:
    """The value of ``--flag=v`` or ``--flag v`` in an argument list."""
    for i, arg in enumerate(map(str, args)):
        if arg.startswith(flag + "="):
            return arg.split("=", 1)[1]
        if arg == flag and i + 1 < len(args):
            return str(args[i + 1])
    return None


def commands(docs: list[EvidenceDoc], *progs: str) -> Iterator[tuple[EvidenceDoc, Fact]]:
    for doc in of_kind(docs, "shell"):
        for fact in doc.fact_list("command"):
            if fact.value[0] in progs:
                yield doc, fact
