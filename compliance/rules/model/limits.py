"""Limit rules: a deployed control must say what it does not do."""

from __future__ import annotations

import re
from collections.abc import Iterator

from compliance.check.context import CheckContext
from compliance.diagnostics import Diagnostic, Level
from compliance.model.enums import Status
from compliance.rules.base import Rule

#: Control kind -> limit topics every control of that kind must cite.
#: A workspace replaces this table with ``required_limits`` in compliance.yaml.
REQUIRED_LIMITS: dict[str, list[str]] = {
    "egress-default-deny": ["model-channel-open"],
    "egress-allowlist": ["allowlist-bypass", "allowed-destinations-receive-data"],
    "microvm-isolation": ["depends-on-host-configuration"],
    "container-isolation": ["depends-on-host-configuration"],
    "gvisor-isolation": ["depends-on-host-configuration"],
    "os-sandbox": ["depends-on-host-configuration"],
    "env-secrets": ["readable-by-agent-commands"],
    "credential-proxy": ["proxy-can-be-misused"],
    "human-review": ["review-quality-matters"],
    "branch-protection": ["review-quality-matters"],
    "mcp-servers": ["mcp-outside-sandbox"],
    "tools-inside-sandbox": ["sandbox-scope"],
}


class ControlWithoutLimits(Rule):
    """A deployed or partial control that cites no limit.

    ## What it does
    Flags a control with status `deployed` or `partial` whose `limits:` list is empty.

    ## Why is this bad?
    Every control has limits; a control presented without them reads as a
    guarantee. Customers and auditors cannot weigh a claim whose limits are hidden.

    ## Example
    ```yaml
    - id: NET-01
      status: deployed
      claim: Outbound traffic is denied by default.
      limits: []
    ```

    ## Use instead
    ```yaml
      limits: [model-channel-open, allowlist-bypass]
    ```

    ## Sources
    OWASP LLM06 Excessive Agency: logging and monitoring "will not prevent
    Excessive Agency, but can limit the level of damage caused".
    """

    code = "LIM001"
    name = "control-without-limits"
    family = "limits"

    def check(self, ctx: CheckContext) -> Iterator[Diagnostic]:
        for c in ctx.model.controls:
            if c.status is not Status.PLANNED and not c.limits:
                yield self.diagnostic(
                    ctx.pos("controls", c.id, "limits", key=True),
                    f"control {c.id} is {c.status.value} but states no limit; add the "
                    "known limits it has (limits: [...]) so no output presents it as absolute")


class KindLimitMissing(Rule):
    """A control of a known kind that lacks the limit its kind always has.

    ## What it does
    For each control with a `kind`, looks up the limit topics that kind always
    has (built-in table, or `required_limits` in compliance.yaml) and flags each
    topic none of the control's limits covers.

    ## Why is this bad?
    Some limits are structural: egress control leaves the model connection open;
    an allowlist can be bypassed and allowed hosts still receive data; isolation
    depends on a well-configured host; environment secrets are readable by any
    command the agent runs; review is only as good as the reviewer.

    ## Example
    ```yaml
    - id: NET-01
      kind: egress-default-deny
      limits: [allowlist-bypass]   # no limit with topic model-channel-open
    ```

    ## Use instead
    ```yaml
    limits:
      - id: model-channel-open
        text: The connection to the model provider stays open.
        topics: [model-channel-open]
        sources: [anthropic-sandboxing]
    ```

    ## Sources
    Claude Code docs, Configure cloud environments: the Anthropic API connection
    "still works" at the "None" network-access level, and this "may allow data
    to exit the VM". GitHub
    Copilot firewall docs: "should not be considered a comprehensive security solution".
    """

    code = "LIM002"
    name = "kind-limit-missing"
    family = "limits"

    def check(self, ctx: CheckContext) -> Iterator[Diagnostic]:
        table = ctx.model.settings.required_limits
        if table is None:
            table = REQUIRED_LIMITS
        topics_of = {lim.id: set(lim.topics) for lim in ctx.model.limits}
        for c in ctx.model.controls:
            if c.kind is None or c.status is Status.PLANNED:
                continue
            have = set().union(*(topics_of.get(lid, set()) for lid in c.limits))
            for topic in table.get(c.kind, []):
                if topic not in have:
                    yield self.diagnostic(
                        ctx.pos("controls", c.id, "kind"),
                        f"control {c.id} is of kind {c.kind!r}, which always has the limit "
                        f"{topic!r}; cite a limit with `topics: [{topic}]`")


class StanceWithoutLimits(Rule):
    """A hand-written stance paragraph that names no limit.

    ## What it does
    Flags a `stance:` text in the model that contains no limiting language
    (e.g. "does not", "cannot", "limit", "still", "remains", "except").

    ## Why is this bad?
    A stance without limits is a sales claim. The defensible stance states what
    the controls do and, in the same breath, what they do not.

    ## Example
    ```yaml
    stance: Agents run in isolated sandboxes with default-deny egress.
    ```

    ## Use instead
    ```yaml
    stance: >
      Agents run in isolated sandboxes with default-deny egress. The model
      connection stays open and allowed destinations can still receive data.
    ```

    ## Sources
    OWASP LLM01: "it is unclear if there are fool-proof methods of prevention
    for prompt injection."
    """

    code = "LIM003"
    name = "stance-without-limits"
    family = "limits"
    level = Level.ERROR
    #: Words that state a limit: negation, residue, dependence, exception.
    MARKERS = re.compile(
        r"\b(?:not|no|never|cannot|can't|doesn't|don't|won't|isn't|limit(?:s|ed)?|still|"
        r"remains?|stays? open|depends? on|only as|matters|residual|risks?|bypass(?:ed)?|"
        r"except|however|but|unless|can still)\b", re.I)

    def check(self, ctx: CheckContext) -> Iterator[Diagnostic]:
        stance = ctx.model.stance
        if stance and not self.MARKERS.search(stance):
            yield self.diagnostic(ctx.pos("stance", "stance"),
                                  "the stance names no limit; add what the controls do not "
                                  "do (e.g. 'the model connection stays open')")
