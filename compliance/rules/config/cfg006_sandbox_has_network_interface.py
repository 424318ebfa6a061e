"""CFG006: the sandbox has no network interface."""

from __future__ import annotations

from typing import ClassVar

from compliance.adapters.base import EvidenceDoc
from compliance.rules.config._runtime import commands, flag_value
from compliance.rules.config.base import ConfigRule, of_kind
from compliance.rules.config.verdict import Findings


class SandboxHasNetworkInterface(ConfigRule):
    """Flags a claim of no network interface when the VM or runsc is given one.

    ## What it does
    Firecracker config: `network-interfaces` must be empty and
    `mmds-config` unset. gVisor: every `runsc` invocation and every
    runsc runtime in daemon.json must pass `--network=none`.

    ## Why is this bad?
    Each Firecracker `network-interfaces` entry is a TAP device on the host;
    MMDS is a metadata channel to the host. runsc's default `--network` is
    `sandbox` (its own netstack, with a NIC); `host` "decreases the isolation
    to the host".

    ## Example
    `"network-interfaces": [{"iface_id": "eth0", "host_dev_name": "tap0"}]`.

    ## Use instead
    `"network-interfaces": []` and no `mmds-config`; `runsc --network=none`.

    ## Sources
    Firecracker `--config-file` docs: `network-interfaces: []` means no NIC;
    `vsock` and `mmds-config` are further host channels. gVisor: `none`
    will "completely isolate… still contain a loopback".
    """

    code = "CFG006"
    name = "sandbox-has-network-interface"
    reads: ClassVar[tuple[str, ...]] = ("firecracker-config", "docker-daemon", "shell")
    export_hint = "export the Firecracker --config-file JSON or the runsc arguments"

    def judge(self, docs: list[EvidenceDoc], findings: Findings) -> None:
        for doc in of_kind(docs, "firecracker-config"):
            nics = doc.fact_list("network-interface")
            for fact in nics:
                dev = fact.value.get("host_dev_name", "?") if isinstance(fact.value, dict) else "?"
                findings.refute(doc, fact, f"network interface on host device {dev}")
            mmds = doc.at("mmds-config")
            if mmds is not None and mmds.value:
                findings.refute(doc, mmds, "mmds-config gives the guest a metadata channel")
            nic_key = doc.at("network-interfaces")
            if not nics and nic_key is not None:
                findings.support(doc, nic_key, "network-interfaces is empty")
            elif not nics:
                findings.support(doc, None, "no network-interfaces key (no NIC)")
        for doc in of_kind(docs, "docker-daemon"):
            for fact in doc.fact_list("runtime"):
                if "runsc" not in (fact.value["name"] + str(fact.value["path"])):
                    continue
                net = flag_value(fact.value["runtimeArgs"], "--network")
                if net == "none":
                    findings.support(doc, fact, f"runtime {fact.value['name']} --network=none")
                else:
                    findings.refute(doc, fact, f"runtime {fact.value['name']} runs with "
                                               f"--network={net or 'sandbox (default)'}")
        for doc, fact in commands(docs, "runsc"):
            net = flag_value(fact.value[1], "--network")
            if net == "none":
                findings.support(doc, fact, "runsc --network=none")
            else:
                findings.refute(doc, fact, f"runsc --network={net or 'sandbox (default)'}")
