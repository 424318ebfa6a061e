"""CFG004: agents run in gVisor."""

from __future__ import annotations

from typing import ClassVar

from compliance.adapters.base import EvidenceDoc
from compliance.rules.config._runtime import commands, flag_value, judge_pod_runtimes
from compliance.rules.config.base import ConfigRule, of_kind
from compliance.rules.config.verdict import Findings


class RuntimeNotGvisor(ConfigRule):
    """Flags a claim that agents run in gVisor when the workload does not select runsc.

    ## What it does
    For each Kubernetes pod spec (Pod, workload template, agent-sandbox
    `SandboxTemplate`), requires a `runtimeClassName` whose RuntimeClass
    `handler` is `runsc`. For each `docker run` in a script, requires
    `--runtime=runsc` or a daemon.json `default-runtime` of runsc.

    ## Why is this bad?
    Without a runtime class the pod runs under the node's default runtime
    (usually runc, a shared kernel). A RuntimeClass *named* "gvisor" proves
    nothing until its handler is shown, so that case stays UNVERIFIED.

    ## Example
    A pod spec with no `runtimeClassName`; or `docker run image` with no
    `--runtime`.

    ## Use instead
    `runtimeClassName: gvisor` plus the exported RuntimeClass `{handler: runsc}`;
    `docker run --runtime=runsc`.

    ## Sources
    gVisor docs: the runtime is registered in `/etc/docker/daemon.json`
    `runtimes.runsc` and selected with `docker --runtime=runsc`, or in Kubernetes
    with a `RuntimeClass{handler: runsc}` plus the pod's `runtimeClassName`.
    """

    code = "CFG004"
    name = "runtime-not-gvisor"
    reads: ClassVar[tuple[str, ...]] = ("kubernetes", "docker-daemon", "shell")
    export_hint = "export the pod spec and its RuntimeClass, or daemon.json and the run command"

    def judge(self, docs: list[EvidenceDoc], findings: Findings) -> None:
        judge_pod_runtimes(
            docs, findings, lambda handler: handler == "runsc",
            ": it runs under the node's default runtime, not gVisor",
            lambda rcn, what, handler: (f"RuntimeClass {rcn} (used by {what}) has handler "
                                        f"{handler!r}, not runsc"),
            "handler runsc")
        default = None
        for doc in of_kind(docs, "docker-daemon"):
            for fact in doc.fact_list("default-runtime"):
                if fact.value == "runsc":
                    default = (doc, fact)
        runs = [(d, f) for d, f in commands(docs, "docker", "podman") if f.value[1][:1] == ["run"]]
        for doc, fact in runs:
            runtime = flag_value(fact.value[1], "--runtime")
            if runtime == "runsc":
                findings.support(doc, fact, "docker run --runtime=runsc")
            elif runtime is None and default is not None:
                findings.support(default[0], default[1], "daemon default-runtime is runsc")
            else:
                findings.refute(doc, fact, f"docker run without --runtime=runsc "
                                           f"(runtime: {runtime or 'daemon default'})")
        if not runs and default is not None:
            findings.support(default[0], default[1], "daemon default-runtime is runsc")
        if not runs and default is None and of_kind(docs, "docker-daemon"):
            findings.gap("daemon.json does not make runsc the default runtime and no run command "
                         "shows --runtime=runsc")
