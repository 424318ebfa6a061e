"""VRF003: a `verified_by` code that is not a configuration check."""

from __future__ import annotations

from collections.abc import Iterator

from compliance.check.context import CheckContext
from compliance.diagnostics import Diagnostic
from compliance.rules.base import Rule


class UnknownCheck(Rule):
    """A `verified_by` entry (of a control or an assertion) that names no configuration check.

    ## What it does
    Flags every code under `verified_by:` that is not one of the configuration
    checks `compliance rules` lists (CFG001 and up; CFG100 reads files, it
    verifies no claim).

    ## Why is this bad?
    A mistyped code verifies nothing. The part it was meant to check would
    silently rest on no check at all while the model reads as if it had one.

    ## Example
    `verified_by: [CFG07]`

    ## Use instead
    `verified_by: [CFG007]`; `compliance rules` lists the codes.

    ## Sources
    STYLE.md: "a typo in YAML is an error, not a silently ignored key".
    """

    code = "VRF003"
    name = "unknown-check"
    family = "verdicts"

    def check(self, ctx: CheckContext) -> Iterator[Diagnostic]:
        from compliance.rules.config import CONFIG_RULES

        for c in ctx.model.controls:
            lists: list[tuple[tuple[str | int, ...], list[str]]] = []
            if c.verified_by is not None:
                lists.append((("verified_by",), c.verified_by))
            for i, a in enumerate(c.assertions or ()):
                lists.append((("assertions", i, "verified_by"), a.verified_by))
            for where, codes in lists:
                for j, code in enumerate(codes):
                    if code not in CONFIG_RULES:
                        yield self.diagnostic(
                            ctx.pos("controls", c.id, *where, j),
                            f"{c.id}: {code!r} in verified_by is not a configuration check; "
                            "`compliance rules` lists them (CFG001 ...)")
