"""CFG100: a cited evidence file the configuration checks cannot read."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from compliance.diagnostics import Diagnostic
from compliance.rules.base import Rule

if TYPE_CHECKING:  # pragma: no cover
    from compliance.check.context import CheckContext


class UnreadableEvidence(Rule):
    """An evidence file that a control's checks need but no adapter can read.

    ## What it does
    For every evidence file cited by a control that has configuration checks:
    malformed JSON/JSONC, TOML, YAML or shell (an unclosed quote or
    here-document) is an error at the evidence file's own line and column;
    a binary file (NUL byte, not UTF-8) or one over the size cap is an error at
    its first bad byte (or line 1); an evidence item whose `kind:` names no adapter
    is an error at that key. A file no adapter recognises and with no `kind:` is
    reported (info) at its `path`: the checks never guess at it, and a claim
    resting only on it stays UNVERIFIED.

    ## Why is this bad?
    A claim resting on a file nobody can read is not verified by it; the checks
    treat the file as absent, so the claim can only be UNVERIFIED.

    ## Example
    ```yaml
    evidence:
      - id: settings
        path: claude/settings.json   # has a trailing comma: invalid JSON
    ```

    ## Use instead
    Export the file again from its source; set `kind:` to one of the adapter kinds
    (e.g. `kind: claude-managed-settings`) when the name does not say what it is.

    ## Sources
    Claude Code settings reference: "Settings files must be valid JSON".
    """

    code = "CFG100"
    name = "unreadable-evidence"
    family = "config"

    def check(self, ctx: CheckContext) -> Iterator[Diagnostic]:
        from compliance.rules.config.controls import unreadable_diagnostics

        yield from unreadable_diagnostics(type(self), ctx)
