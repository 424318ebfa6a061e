"""What `compliance init` can say about each thing it finds: claims, checks, limits, sources.

An :class:`Aspect` is one control a starter workspace may hold: the claim a team
would naturally make about that configuration (checked by the configuration
checks of its kind before anything is written), which evidence kinds it rests
on, and the limits every control of that kind has. The texts are the project's
own words; sources cite the vendors' pages.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from compliance.adapters import EvidenceDoc
from compliance.rules.config._firewall import FAMILIES, walk

CLAUDE = ("claude-settings",)
CODEX = ("codex-config", "codex-requirements")
WORKFLOWS = ("gha-workflow", "copilot-setup-steps")
PROTECTION = ("branch-protection", "rulesets", "rules-branch")


def _has_mcp(docs: list[EvidenceDoc]) -> bool:
    return any(d.fact_list("mcp") for d in docs)


def _has_allowlist(docs: list[EvidenceDoc]) -> bool:
    return any((d.kind == "claude-settings" and d.has("sandbox", "network", "allowedDomains"))
               or (d.kind == "shell" and d.fact_list("domain")) for d in docs)


def _has_firewall(docs: list[EvidenceDoc]) -> bool:
    return any(d.kind == "devcontainer" or (d.kind == "shell" and d.fact_list("policy"))
               for d in docs)


def _ssh_to_any_host(docs: list[EvidenceDoc]) -> bool:
    """Does a firewall script's OUTPUT chain accept port 22 to any host (as CFG008 reads it)?"""
    return any(o.covers(22) for d in docs if d.kind == "shell" for _family, ours in FAMILIES
               for o in walk(d, ours).openings())


def _has_agent_action(docs: list[EvidenceDoc]) -> bool:
    return any(str(f.value[2]).startswith("anthropics/claude-code-action")
               for d in docs if d.kind == "gha-workflow" for f in d.fact_list("action-input"))


def _has_telemetry(docs: list[EvidenceDoc]) -> bool:
    return any(d.kind == "claude-settings" and d.has("env") for d in docs) or any(
        d.kind == "codex-config" for d in docs)


@dataclass(frozen=True)
class Aspect:
    kind: str
    layer: str
    prefix: str
    title: str
    claim: str
    stance_clause: str
    reads: tuple[str, ...]
    limits: tuple[str, ...]
    present: Callable[[list[EvidenceDoc]], bool] | None = None
    #: Limits the control has only when its files show them: (limit id, shown by the files).
    shown_limits: tuple[tuple[str, Callable[[list[EvidenceDoc]], bool]], ...] = ()

    def limits_for(self, docs: list[EvidenceDoc]) -> tuple[str, ...]:
        """The limits of this control over ``docs``: those its kind always has, then those
        the files show."""
        return self.limits + tuple(lid for lid, shown in self.shown_limits if shown(docs))


ASPECTS: tuple[Aspect, ...] = (
    Aspect("os-sandbox", "isolation", "ISO", "Claude Code Bash sandbox",
           "Claude Code runs the agent's Bash commands in its OS sandbox, and a command "
           "cannot fall back to running outside it.",
           "run shell commands in an OS sandbox", CLAUDE, ("bash-sandbox-scope",)),
    Aspect("no-bypass-mode", "isolation", "ISO", "No bypass-permissions mode",
           "Agents cannot be started in bypass-permissions mode, which skips every "
           "permission prompt.",
           "cannot skip their permission prompts",
           (*CLAUDE, *CODEX, "devcontainer", "shell"), ("scope-can-override",),
           lambda docs: any(d.kind in (*CLAUDE, *CODEX) for d in docs)),
    Aspect("workspace-only-writes", "isolation", "ISO", "Writes limited to the repository",
           "The agent can write files only inside the repository.",
           "write only inside the repository", (*CLAUDE, "codex-config"),
           ("reads-not-limited",)),
    Aspect("egress-default-deny", "network", "NET", "Default-deny egress in the dev container",
           "Outbound traffic from the dev container is denied by default.",
           "have default-deny network access", ("devcontainer", "shell"),
           ("model-channel-open", "firewall-still-allows"), _has_firewall,
           (("firewall-allows-ssh", _ssh_to_any_host),)),
    Aspect("egress-allowlist", "network", "NET", "Egress allowlist",
           "The agent can reach only package registries and the model API directly.",
           "reach only package registries and the model API directly",
           ("shell", *CLAUDE), ("allowlist-bypass", "allowed-destinations-receive-data"),
           _has_allowlist),
    Aspect("codex-no-network", "network", "NET", "Codex without network",
           "Codex runs the agent's commands without network access.",
           "run commands without network access", ("codex-config",), ("model-channel-open",)),
    Aspect("copilot-firewall", "network", "NET", "Copilot coding agent firewall",
           "The Copilot coding agent's network access is limited by its firewall.",
           "reach the network only through the Copilot firewall",
           ("copilot-setup-steps", "mcp-config"), ("allowlist-bypass",),
           lambda docs: any(d.kind == "copilot-setup-steps" for d in docs)),
    Aspect("mcp-servers", "network", "NET", "MCP servers",
           "The agent's MCP servers run inside its sandbox, are given no long-lived "
           "secrets, and reach neither the network nor the home folder.",
           "use MCP servers that stay inside the sandbox",
           ("mcp-config", *CLAUDE, "codex-config"), ("mcp-outside-sandbox",), _has_mcp),
    Aspect("secrets-not-in-env", "credentials", "CRED", "No long-lived secrets in the environment",
           "No long-lived secrets are in the agent's environment.",
           "hold no long-lived secrets in their environment",
           ("devcontainer", *CLAUDE, "copilot-setup-steps", "gha-workflow", "codex-config"),
           ("readable-by-agent-commands",),
           lambda docs: any(d.kind in ("devcontainer", "copilot-setup-steps", "codex-config",
                                       "claude-settings") for d in docs)),
    Aspect("credential-files-unreadable", "credentials", "CRED", "Credential files hidden",
           "The agent's Bash commands cannot read ~/.ssh, ~/.aws or .env files.",
           "are denied read access to credential files", CLAUDE,
           ("readable-by-agent-commands",)),
    Aspect("branch-protection", "git", "GIT", "Reviewed pull requests on the default branch",
           "Changes reach the default branch only through a pull request approved by a "
           "person.", "may only propose changes through reviewed pull requests", PROTECTION,
           ("review-quality-matters",)),
    Aspect("codeowners-review", "git", "GIT", "Code owners review agent and pipeline files",
           "Code owners must approve changes to workflows, agent configuration and the dev "
           "container before they reach the default branch.",
           "need code-owner approval to change their own configuration",
           ("codeowners", *PROTECTION), ("review-quality-matters",),
           lambda docs: any(d.kind == "codeowners" for d in docs)),
    Aspect("ci-approval", "pipeline", "PIPE", "Approval before workflows run",
           "Workflows on pull requests from outside contributors and the agent wait for a "
           "maintainer's approval before they run.",
           "trigger workflows only after a maintainer approves them",
           ("fork-pr-approval", "actions-permissions", *WORKFLOWS), ("approval-scope",)),
    Aspect("privileged-workflows", "pipeline", "PIPE", "Privileged workflows run no PR code",
           "Workflows with write tokens or secrets, as exported, check out only the default "
           "branch, not pull request code.",
           "cannot get their code run by a privileged workflow", ("gha-workflow",),
           ("token-scope-not-behaviour",)),
    # (what CFG021 verifies: permissions declared and none write-all; not least privilege,
    # so neither the title nor the stance says so)
    Aspect("least-privilege-tokens", "pipeline", "PIPE",
           "Workflow token permissions declared per workflow",
           "Each workflow declares its token's permissions instead of taking the repository "
           "default, and none grants write-all.",
           "have CI run with token permissions each workflow declares",
           ("gha-workflow", "copilot-setup-steps", "actions-permissions"),
           ("token-scope-not-behaviour",),
           lambda docs: any(d.kind in WORKFLOWS for d in docs)),
    Aspect("trusted-triggers", "pipeline", "PIPE", "Only trusted users trigger the agent",
           "Only users with write access to the repository can trigger the agent workflow.",
           "are triggered in CI only by users with write access", ("gha-workflow",),
           ("injection-through-content",), _has_agent_action),
    Aspect("session-logs", "logs", "LOGS", "Central session logs",
           "Agent sessions send their prompts and tool calls to a central log collector.",
           "have their sessions logged centrally", (*CLAUDE, "codex-config"),
           ("logs-after-the-fact",), _has_telemetry),
)


@dataclass(frozen=True)
class LimitText:
    id: str
    text: str
    topics: tuple[str, ...]
    sources: tuple[str, ...]


LIMITS: dict[str, LimitText] = {lim.id: lim for lim in (
    LimitText("bash-sandbox-scope",
              "Claude Code's OS sandbox covers Bash commands and their child processes only. "
              "The Read, Edit and WebFetch tools, MCP servers and hooks run outside it, and "
              "its strength depends on the kernel features of the machine it runs on.",
              ("depends-on-host-configuration", "sandbox-scope"),
              ("claude-sandboxing", "claude-settings-examples")),
    LimitText("scope-can-override",
              "A setting made outside managed settings can be changed by whoever controls "
              "that scope (the repository, the user, a command-line flag); only managed "
              "settings or an admin requirements file bind every session.",
              ("scope-can-override",), ("claude-settings-reference",)),
    LimitText("reads-not-limited",
              "Limiting writes does not limit reads: the agent can read files outside the "
              "repository that its user can read, and send what it reads to the model.",
              ("reads-not-limited",), ("claude-settings-reference",)),
    LimitText("model-channel-open",
              "The connection to the model provider stays open. Anything the agent can read "
              "in its session can be sent to the model API, whatever the egress rules say.",
              ("model-channel-open",), ("claude-cloud-environments", "owasp-llm01")),
    LimitText("firewall-still-allows",
              "Default-deny egress does not stop exfiltration: what the firewall still "
              "accepts (DNS queries, whose names carry data to whatever resolver or host "
              "the firewall lets them reach; the hosts it allows; the model API) can carry "
              "anything readable inside the container.",
              ("dns-channel", "allowed-destinations-receive-data"), ("claude-devcontainer",)),
    LimitText("firewall-allows-ssh",
              "The firewall accepts SSH (TCP port 22) to any host: git over SSH, scp or a "
              "tunnel to a server anyone can run carries anything readable inside the "
              "container, whatever the firewall denies on other ports.",
              ("ssh-channel",), ("claude-devcontainer",)),
    LimitText("allowlist-bypass",
              "An allowlist can be bypassed: allowed names resolve to shared front ends that "
              "serve other sites, and hostname-based filtering does not inspect TLS, so "
              "domain fronting through an allowed host is possible.",
              ("allowlist-bypass",), ("claude-sandboxing-network", "copilot-firewall")),
    LimitText("allowed-destinations-receive-data",
              "Allowed destinations still receive data: package registries see the names "
              "requested, which can encode data, and the model API receives whatever the "
              "agent sends it.", ("allowed-destinations-receive-data",),
              ("copilot-firewall", "claude-cloud-environments")),
    LimitText("mcp-outside-sandbox",
              "MCP servers are separate processes or remote services. They run outside "
              "Claude Code's Bash sandbox and the Copilot firewall with the rights of the "
              "user who starts the agent, and the agent calls their tools on its own.",
              ("mcp-outside-sandbox",), ("claude-settings-examples", "copilot-mcp")),
    LimitText("readable-by-agent-commands",
              "Whatever is in the session's environment variables or readable files is "
              "readable by any command the agent runs. Read deny rules do not bind "
              "subprocesses; only the sandbox's denyRead paths are hidden from Bash.",
              ("readable-by-agent-commands",), ("claude-devcontainer",
                                                "claude-settings-reference")),
    LimitText("review-quality-matters",
              "Required review is only as good as the reviewer: an approving review of a "
              "large or subtle agent change can miss a harmful edit.",
              ("review-quality-matters",), ("owasp-llm01-human-approval",)),
    LimitText("approval-scope",
              "Approval before workflow runs applies to pull requests from outside "
              "contributors; pull_request_target and workflow_run workflows run regardless "
              "of the approval setting.", ("approval-scope",), ("github-pull-request-target",)),
    LimitText("token-scope-not-behaviour",
              "Token permissions limit what a workflow can change through the GitHub API; "
              "they do not stop it from running the code under review or sending what it "
              "can read to a destination it can reach.", ("token-scope",),
              ("github-token-permissions", "owasp-llm06")),
    LimitText("injection-through-content",
              "Users who may trigger the agent are not the only authors of what it reads: "
              "issue text, comments and files in the repository can carry instructions, and "
              "no fool-proof prevention of prompt injection is known.",
              ("prompt-injection",), ("owasp-llm01",)),
    LimitText("logs-after-the-fact",
              "Session logs are sent by the agent's own client. A session that crashes, loses "
              "its path to the collector or is subverted can stop sending, and logs show what "
              "happened after the fact rather than preventing it.",
              ("logs-after-the-fact",), ("owasp-llm06",)),
)}


@dataclass(frozen=True)
class SourceText:
    id: str
    title: str
    url: str
    quote: str


SOURCES: dict[str, SourceText] = {s.id: s for s in (
    SourceText("owasp-llm01", "OWASP Top 10 for LLM Applications 2025, LLM01 Prompt Injection",
               "https://genai.owasp.org/llmrisk/llm01-prompt-injection/",
               "it is unclear if there are fool-proof methods of prevention for prompt "
               "injection"),
    SourceText("owasp-llm01-human-approval",
               "OWASP Top 10 for LLM Applications 2025, LLM01 Prompt Injection, mitigation 5",
               "https://genai.owasp.org/llmrisk/llm01-prompt-injection/",
               "Require human approval for high-risk actions"),
    SourceText("owasp-llm06", "OWASP Top 10 for LLM Applications 2025, LLM06 Excessive Agency",
               "https://genai.owasp.org/llmrisk/llm062025-excessive-agency/",
               "will not prevent Excessive Agency, but can limit the level of damage caused"),
    SourceText("claude-sandboxing", "Claude Code docs, Sandboxing",
               "https://code.claude.com/docs/en/sandboxing",
               "Sandboxing reduces risk but is not a complete isolation boundary"),
    SourceText("claude-sandboxing-network", "Claude Code docs, Sandboxing (network filtering)",
               "https://code.claude.com/docs/en/sandboxing",
               "the client-supplied hostname without inspecting TLS"),
    SourceText("claude-settings-examples", "anthropics/claude-code, examples/settings/README.md",
               "https://github.com/anthropics/claude-code/blob/main/examples/settings/README.md",
               ""),
    SourceText("claude-settings-reference", "Claude Code docs, Claude Code settings reference",
               "https://code.claude.com/docs/en/settings-reference",
               "don't apply to arbitrary subprocesses, so for OS-level enforcement enable the "
               "sandbox"),
    SourceText("claude-cloud-environments", "Claude Code docs, Configure cloud environments",
               "https://code.claude.com/docs/en/cloud-environments",
               "Claude Code's connection to the Anthropic API still works at None"),
    SourceText("claude-devcontainer", "Claude Code docs, Development containers",
               "https://code.claude.com/docs/en/devcontainer",
               "dev containers do not prevent a malicious project from exfiltrating anything "
               "accessible inside the container, including the Claude Code credentials"),
    SourceText("copilot-firewall",
               "GitHub docs, Customizing or disabling the firewall for GitHub Copilot coding "
               "agent",
               "https://docs.github.com/en/copilot/how-tos/use-copilot-agents/coding-agent/"
               "customize-the-agent-firewall",
               "should not be considered a comprehensive security solution"),
    SourceText("copilot-mcp",
               "GitHub docs, Extending GitHub Copilot coding agent with the Model Context "
               "Protocol (MCP)",
               "https://docs.github.com/en/copilot/how-tos/use-copilot-agents/coding-agent/"
               "extend-coding-agent-with-mcp", ""),
    SourceText("github-pull-request-target",
               "GitHub docs, Events that trigger workflows (pull_request_target)",
               "https://docs.github.com/en/actions/reference/workflows-and-actions/"
               "events-that-trigger-workflows#pull_request_target",
               "will always run, regardless of approval settings"),
    SourceText("github-token-permissions", "GitHub docs, Controlling permissions for GITHUB_TOKEN",
               "https://docs.github.com/en/actions/how-tos/write-workflows/"
               "choose-what-workflows-do/control-jobs-and-workflows#permissions",
               "If you specify the access for any of these scopes, all of those that are not "
               "specified are set to none."),
)}
