"""CFG007: egress is default-deny inside the dev container."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import PurePosixPath
from typing import ClassVar

from compliance.adapters.base import EvidenceDoc
from compliance.rules.config._firewall import FAMILIES, matches, walk
from compliance.rules.config.base import ConfigRule, of_kind
from compliance.rules.config.verdict import Findings

_FIREWALL_WORDS = ("firewall", "iptables", "nft ", "ufw ")


class EgressNotDefaultDeny(ConfigRule):
    """Flags a default-deny egress claim the dev container and its firewall script do not support.

    ## What it does
    devcontainer.json: a lifecycle command (`postStartCommand` etc.) must run
    the firewall, and `runArgs` must not contain `--network=host` or
    `--privileged`. Firewall script: the OUTPUT chain's policy must be DROP
    (and not set back to ACCEPT later) or its first unconditional rule a
    catch-all REJECT/DROP. The chain is read in the order iptables walks it
    (`-I` inserts at the top, or at the position given; a jump to a chain the
    script fills reads that chain; nothing after a catch-all is reached).
    A reached ACCEPT refutes when it lets out every port of a protocol, or
    HTTP/HTTPS (port 80 or 443), to any host: no `-d`, `-d 0.0.0.0/0` or
    `::/0` (or a prefix shorter than /8), or a negated `! -d`, and no
    `--match-set S dst`. Limited ACCEPTs stay allowed: `-o lo`, replies
    (`--state`/`--ctstate` ESTABLISHED,RELATED only), `-d` hosts. A
    `-d "$VAR"` the script computes at run time counts as limited (the check
    cannot read it); other ports to any host (DNS, SSH) are CFG008's.

    ## Why is this bad?
    With host networking the container's iptables rules do not govern the
    host's interfaces; a privileged container can undo them; a script that is
    never run, or ends with an ACCEPT policy, denies nothing.

    ## Example
    `"runArgs": ["--network=host"]`; a script with `iptables -P OUTPUT ACCEPT`;
    `iptables -A OUTPUT -p tcp -j ACCEPT` or `-p tcp --dport 443 -j ACCEPT`
    before the final REJECT; `iptables -I OUTPUT -j ACCEPT` anywhere.

    ## Use instead
    `"postStartCommand": "sudo /usr/local/bin/init-firewall.sh"` with
    `iptables -P OUTPUT DROP` and a final `iptables -A OUTPUT -j REJECT`.

    ## Sources
    anthropics/claude-code `.devcontainer/`: "DROP policies plus a final REJECT";
    the docs' caveat that dev containers "do not prevent a malicious project from
    exfiltrating anything accessible inside the container".
    """

    code = "CFG007"
    name = "egress-not-default-deny"
    reads: ClassVar[tuple[str, ...]] = ("devcontainer", "shell")
    export_hint = "export devcontainer.json and the firewall script it runs"

    def judge(self, docs: list[EvidenceDoc], findings: Findings) -> None:
        scripts = [d for d in of_kind(docs, "shell")
                   if d.fact_list("policy") or d.fact_list("rule")]
        names = {PurePosixPath(d.path).name for d in scripts}
        for doc in of_kind(docs, "devcontainer"):
            for name in ("network-host", "privileged"):
                for fact in doc.fact_list(name):
                    findings.refute(doc, fact, f"runArgs {fact.value}: the container's firewall "
                                               "does not bound the host network")
            runs = [f for f in doc.fact_list("lifecycle-command")
                    if any(w in f.value[1] for w in _FIREWALL_WORDS)
                    or any(PurePosixPath(w).name in names for w in f.value[1].split())]
            if runs:
                findings.support(doc, runs[0], f"{runs[0].value[0]} runs the firewall")
            else:
                findings.refute(doc, None, "no lifecycle command (postStartCommand, "
                                           "postCreateCommand, ...) runs a firewall")
        if of_kind(docs, "shell") and not scripts:
            findings.refute(of_kind(docs, "shell")[0], None, "the script sets no iptables rules")
        for doc in scripts:
            self._script(doc, findings)
        if not of_kind(docs, "devcontainer"):
            findings.gap("no devcontainer.json given: nothing shows the firewall script runs")
        if not scripts and not findings.refuted:
            findings.gap("no firewall script given: export the script the container runs")

    def _script(self, doc: EvidenceDoc, findings: Findings) -> None:
        """IPv4 (iptables) always; IPv6 (ip6tables) when the script sets any IPv6 rule.

        The two are separate tables: a DROP policy in one says nothing about the other."""
        v6 = [f for f in doc.fact_list("policy") + doc.fact_list("rule") if f.key == "ip6tables"]
        for family, ours in FAMILIES if v6 else FAMILIES[:1]:
            self._family(doc, findings, family, ours)

    def _family(self, doc: EvidenceDoc, findings: Findings, family: str,
                ours: Callable[[str], bool]) -> None:
        walked = walk(doc, ours)
        policy = walked.policy
        wide = [o for o in walked.openings() if o.ports is None or o.covers(443)
                or o.covers(80)]
        for opened in wide:
            if not matches(opened.fact.value):
                findings.refute(doc, opened.fact, f"an unconditional {family} OUTPUT "
                                f"{opened.fact.value['target']} rule allows all egress")
            else:
                findings.refute(doc, opened.fact, f"{family} OUTPUT {opened.to_any_host()}: "
                                "that egress is not denied by default")
        if wide:
            return
        chain = walked.rules
        last = chain[-1] if chain and not matches(chain[-1].value) else None
        catch_all = last is not None and last.value["target"] in ("REJECT", "DROP")
        if policy is not None and policy.value["target"] in ("DROP", "REJECT"):
            findings.support(doc, policy, f"{policy.key} -P OUTPUT {policy.value['target']}: "
                                          f"{family} traffic that no OUTPUT rule accepts is "
                                          "dropped")
        elif catch_all and last is not None:
            target = last.value["target"]
            findings.support(doc, last, f"{family} OUTPUT ends in a catch-all {target}")
        elif policy is not None:
            findings.refute(doc, policy, f"{family} OUTPUT policy is {policy.value['target']} "
                                         "and no final catch-all REJECT/DROP")
        else:
            findings.refute(doc, None, f"no {family} OUTPUT DROP policy and no final catch-all "
                                       "REJECT/DROP")
