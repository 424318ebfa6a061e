"""A field `compliance init` left for a person to fill in is still its placeholder."""

from __future__ import annotations

from collections.abc import Iterator

from compliance.check.context import CheckContext
from compliance.diagnostics import Diagnostic
from compliance.rules.base import Rule

#: How every placeholder `compliance init` writes begins.
MARKER = "FILL IN"

_SYSTEM_FIELDS = ("name", "scope", "owner")
_CONTROL_FIELDS = ("title", "claim", "stance_clause", "implementation", "residual_risk", "owner")


def is_placeholder(value: object) -> bool:
    return isinstance(value, str) and value.strip().startswith(MARKER)


class UnfilledPlaceholder(Rule):
    """A field still holds the placeholder `compliance init` wrote for a person to replace.

    ## What it does
    Flags every system and control field whose text begins with `FILL IN`:
    `compliance init` writes such placeholders where only a person can answer
    (who owns the system and each control, what the model covers, what risk
    remains), so `compliance check` keeps failing until they are filled.

    ## Why is this bad?
    A generated owner or residual risk would be a guess presented as a fact to a
    customer or auditor. Only the team that runs a control can say who answers
    for it and what it leaves open.

    ## Example
    ```yaml
        owner: "FILL IN: the team or person who runs this control"
    ```

    ## Use instead
    ```yaml
        owner: platform-security@acme.example
    ```

    ## Sources
    OWASP LLM06 Excessive Agency: controls need an accountable owner to keep
    their permissions minimal over time.
    """

    code = "INI001"
    name = "unfilled-placeholder"
    family = "placeholders"

    def check(self, ctx: CheckContext) -> Iterator[Diagnostic]:
        system = ctx.model.system
        for name in _SYSTEM_FIELDS:
            if is_placeholder(getattr(system, name)):
                yield self.diagnostic(ctx.pos("system", "system", name), _message(
                    f"system {name}", getattr(system, name)))
        for control in ctx.model.controls:
            for name in _CONTROL_FIELDS:
                value = getattr(control, name)
                if is_placeholder(value):
                    yield self.diagnostic(ctx.pos("controls", control.id, name), _message(
                        f"{name} of {control.id}", value))


def _message(what: str, value: str) -> str:
    hint = value.strip()[len(MARKER):].lstrip(" :").rstrip(".")
    return (f"{what} is still the placeholder `compliance init` wrote; replace it with "
            f"{hint or 'the real answer'} (only a person can answer this)")
