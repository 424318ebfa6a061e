"""Helpers shared by the isolation-runtime checks (gVisor, Firecracker, no NIC)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from compliance.adapters.base import EvidenceDoc, Fact
from compliance.rules.config.base import of_kind
from compliance.rules.config.verdict import Findings

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


def judge_pod_runtimes(docs: list[EvidenceDoc], findings: Findings,
                       accepts: Callable[[str], bool], no_class: str,
                       wrong_handler: Callable[[str, str, str], str], missing_class: str) -> None:
    """Each pod spec's runtimeClassName, followed to its RuntimeClass's handler.

    ``accepts(handler)`` says whether the handler gives the claimed runtime; the
    messages are the check's own: ``no_class`` after "<kind> <name> has no
    runtimeClassName", ``wrong_handler(rc_name, what, handler)`` for a refusing
    handler, ``missing_class`` after "...is set but its RuntimeClass is not in the
    evidence; export it to show".
    """
    classes = runtime_classes(docs)
    for doc, fact in pod_specs(docs):
        rcn = fact.value["runtimeClassName"]
        what = f"{fact.value['kind']} {fact.value['name']}".strip()
        if not rcn:
            findings.refute(doc, fact, f"{what} has no runtimeClassName{no_class}")
        elif rcn in classes:
            rc_doc, rc = classes[rcn]
            handler = str(rc.value["handler"])
            if accepts(handler):
                findings.support(rc_doc, rc, f"RuntimeClass {rcn} has handler {handler}")
            else:
                findings.refute(rc_doc, rc, wrong_handler(rcn, what, handler))
        else:
            findings.gap(f"{doc.path}:{fact.line}: runtimeClassName {rcn!r} is set but its "
                         f"RuntimeClass is not in the evidence; export it to show {missing_class}")


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
