"""CFG013: no long-lived secrets are in the agent's environment."""

from __future__ import annotations

from typing import ClassVar

from compliance.adapters.base import EvidenceDoc, as_list
from compliance.adapters.claude_merge import merge_claude_settings
from compliance.rules.config._pod_secrets import judge_pod
from compliance.rules.config._secrets import (
    CREDENTIAL_PATHS,
    EPHEMERAL,
    is_secret_name,
    token_in,
)
from compliance.rules.config.base import ConfigRule, of_kind
from compliance.rules.config.verdict import Findings

STATIC_KEY_INPUTS = ("anthropic_api_key", "claude_code_oauth_token", "openai_api_key")
AGENT_ACTIONS = ("anthropics/claude-code-action", "openai/codex-action")


class SecretsInAgentEnv(ConfigRule):
    """Flags a no-long-lived-secrets claim when a secret reaches the agent's environment.

    ## What it does
    devcontainer `remoteEnv`/`containerEnv` entries named like secrets
    (`*_API_KEY`, `*_TOKEN`, ...) and mounts of `.ssh`, `.aws`, gh config,
    `.kube`…; Claude Code `env` secrets; `copilot-setup-steps` secrets
    and writes to `$GITHUB_ENV`; static `anthropic_api_key` inputs to agent
    actions. An env value shaped like a credential (`ghp_`, `github_pat_`,
    `AKIA…`, `xoxb-`, `sk-…`, `glpat-`, a private key) refutes whatever its name.
    Kubernetes pod specs: container `env` named like a secret, holding such a
    literal or read from a Secret (`secretKeyRef`); `envFrom` a Secret; a
    mounted `secret` volume, `projected` volume with a Secret or a
    `serviceAccountToken`, Secrets Store CSI volume or credential-folder
    `hostPath`; `automountServiceAccountToken: true`. Not verified (a gap, not a
    refutation): `automountServiceAccountToken` unset, because Kubernetes mounts
    the token unless the pod or its ServiceAccount (read when the file holds it)
    sets false; `envFrom` a ConfigMap the file does not hold (a ConfigMap is
    not a Secret, but the names and values it sets are then unknown; one in
    the file is read key by key).

    ## Why is this bad?
    Environment variables are readable by any command the agent runs; a mounted
    credential directory is a file the agent can read and send.

    ## Example
    `"remoteEnv": {"GH_TOKEN": "${localEnv:GH_TOKEN}"}`;
    `anthropic_api_key: ${{ secrets.ANTHROPIC_API_KEY }}`.

    ## Use instead
    Short-lived credentials (OIDC federation, GITHUB_TOKEN), injected by a proxy
    outside the agent's reach.

    ## Sources
    Claude Code cloud: environment variables are "visible to anyone using the
    environment"; Copilot: "Agent env vars and secrets come from the copilot
    environment".
    """

    code = "CFG013"
    name = "secrets-in-agent-env"
    reads: ClassVar[tuple[str, ...]] = ("devcontainer", "claude-settings", "copilot-setup-steps",
                                        "gha-workflow", "kubernetes")
    export_hint = "export devcontainer.json, Claude Code settings or the agent workflow"

    def judge(self, docs: list[EvidenceDoc], findings: Findings) -> None:
        for doc in of_kind(docs, "devcontainer"):
            for fact in doc.fact_list("env"):
                name, value = fact.value
                if is_secret_name(name) or "TOKEN}" in str(value) or "KEY}" in str(value):
                    findings.refute(doc, fact, f"{name} is forwarded into the container")
                elif token_in(value):
                    findings.refute(doc, fact, f"{name} holds a credential-shaped literal "
                                               f"({token_in(value)})")
            for fact in doc.fact_list("mount"):
                m = CREDENTIAL_PATHS.search(fact.value + " ")
                if m:
                    findings.refute(doc, fact, f"credential directory {m.group(1)} is mounted")
            n_env, n_mounts = len(doc.fact_list("env")), len(doc.fact_list("mount"))
            findings.support(doc, None, f"{n_env} remoteEnv/containerEnv entries and {n_mounts} "
                                        "mounts: none is named like a secret, holds a "
                                        "credential-shaped value or mounts a credential "
                                        "directory")
        claude = of_kind(docs, "claude-settings")
        if claude:
            for name, src in merge_claude_settings(claude).mapping("env").items():
                if is_secret_name(name):
                    findings.refute(src.doc, src.fact, f"env {name} is set for every session")
                elif token_in(src.value):
                    findings.refute(src.doc, src.fact, f"env {name} holds a credential-shaped "
                                                       f"literal ({token_in(src.value)})")
            names = sorted(merge_claude_settings(claude).mapping("env"))
            findings.support(claude[0], None, "Claude Code settings set " + (
                f"env {', '.join(names)}; none is named like a secret or holds a "
                "credential-shaped value" if names
                else "no env variable"))
        for doc in of_kind(docs, "copilot-setup-steps"):
            self._copilot(doc, findings)
        for doc in of_kind(docs, "gha-workflow"):
            for fact in doc.fact_list("action-input"):
                _job, _step, uses, name, value = fact.value
                if uses.startswith(AGENT_ACTIONS) and name in STATIC_KEY_INPUTS:
                    findings.refute(doc, fact, f"static {name} ({value}) is given to the agent")
                elif uses.startswith(AGENT_ACTIONS):
                    findings.support(doc, fact, f"agent action input {name} is not a static key")
        for doc in of_kind(docs, "kubernetes"):
            self._kubernetes(doc, findings)

    def _copilot(self, doc: EvidenceDoc, findings: Findings) -> None:
        for fact in doc.fact_list("secret"):
            if fact.value[1] not in EPHEMERAL:
                findings.refute(doc, fact, f"secret {fact.value[1]} is used in setup steps")
        for i, step in enumerate(as_list(doc.get("jobs", "copilot-setup-steps", "steps"))):
            run = str(step.get("run") or "") if isinstance(step, dict) else ""
            if "GITHUB_ENV" in run and "secrets." in run:
                at = doc.at("jobs", "copilot-setup-steps", "steps", i, "run")
                findings.refute(doc, at, "a secret is appended to $GITHUB_ENV (the agent's env)")
        findings.support(doc, None, "no secret in copilot-setup-steps")

    @staticmethod
    def _kubernetes(doc: EvidenceDoc, findings: Findings) -> None:
        for pod in doc.fact_list("pod-spec"):
            judge_pod(doc, pod, findings)
