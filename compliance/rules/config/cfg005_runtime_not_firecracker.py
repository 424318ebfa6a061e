"""CFG005: each agent runs in a Firecracker microVM."""

from __future__ import annotations

from typing import ClassVar

from compliance.adapters.base import EvidenceDoc
from compliance.rules.config._runtime import (
    FIRECRACKER_HANDLERS,
    commands,
    judge_pod_runtimes,
)
from compliance.rules.config.base import ConfigRule, of_kind
from compliance.rules.config.verdict import Findings


class RuntimeNotFirecracker(ConfigRule):
    """Flags a claim of Firecracker microVMs when the runtime or launcher says otherwise.

    ## What it does
    Kubernetes: each pod spec's RuntimeClass must have a Firecracker-backed
    handler (`kata-fc`, `kata-firecracker`); `runc`, `runsc` or
    `kata-qemu` refute. Scripts: `firecracker` must be started by the
    `jailer`, not directly.

    ## Why is this bad?
    `kata-qemu` is a VM but not Firecracker; `runsc` is a user-space kernel;
    Firecracker without the jailer runs without its chroot, namespaces and
    dropped privileges.

    ## Example
    `runtimeClassName: kata-fc` whose RuntimeClass has `handler: kata-qemu`.

    ## Use instead
    A RuntimeClass `{handler: kata-fc}`; launch with `jailer --exec-file
    /usr/bin/firecracker --uid … --gid … --chroot-base-dir …`.

    ## Sources
    Firecracker docs: jailer `--netns`, `--uid/--gid`, `--chroot-base-dir`;
    "clears the environment". Kata Containers: `runtimeClassName: kata-fc`.
    """

    code = "CFG005"
    name = "runtime-not-firecracker"
    reads: ClassVar[tuple[str, ...]] = ("kubernetes", "shell", "firecracker-config")
    export_hint = "export the pod spec and its RuntimeClass, or the jailer launch script"

    def judge(self, docs: list[EvidenceDoc], findings: Findings) -> None:
        judge_pod_runtimes(
            docs, findings, lambda handler: handler in FIRECRACKER_HANDLERS,
            " (default runtime)",
            lambda rcn, what, handler: (f"RuntimeClass {rcn} has handler {handler!r}, "
                                        "not Firecracker-backed"),
            "the handler")
        jailed = list(commands(docs, "jailer"))
        for doc, fact in jailed:
            findings.support(doc, fact, "Firecracker is started by the jailer")
        for doc, fact in commands(docs, "firecracker"):
            if not jailed:
                findings.refute(doc, fact, "firecracker is launched directly, without the jailer")
        if of_kind(docs, "firecracker-config") and not jailed:
            findings.gap("a Firecracker VM config alone does not show how the VM is launched; "
                         "export the jailer command line")
