"""Waiver and suppression rules: exceptions need a reason, an owner and an end."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from compliance.check.context import CheckContext
from compliance.diagnostics import Diagnostic, Level
from compliance.rules.base import Rule


class WaiverExpired(Rule):
    """A waiver whose expiry date has passed.

    ## What it does
    Flags waivers in waivers.yaml with `expires` before today. An expired
    waiver no longer waives anything.

    ## Why is this bad?
    A waiver is a dated promise to fix or re-decide. Past its date the finding
    is an open problem again and someone must look.

    ## Example
    ```yaml
    - rule: LIM002
      target: GIT-02
      expires: 2025-01-31
    ```

    ## Use instead
    Fix the finding and delete the waiver, or re-review and set a new expiry.

    ## Sources
    Chef InSpec waivers: `expiration_date` after which the control runs again.
    """

    code = "WVR001"
    name = "waiver-expired"
    family = "waivers"

    def check(self, ctx: CheckContext) -> Iterator[Diagnostic]:
        for i, w in enumerate(ctx.model.waivers):
            if w.expires < ctx.today:
                yield self.diagnostic(
                    ctx.pos("waivers", str(i), "expires"),
                    f"waiver for {w.rule} on {w.target} expired on {w.expires}; fix the finding "
                    "or re-review the waiver")


class WaiverBeyondHorizon(Rule):
    """A waiver that runs longer than the workspace allows.

    ## What it does
    Flags waivers whose `expires` is more than `waiver_horizon_days` (default
    180) after today.

    ## Why is this bad?
    A waiver with a far-away date is a permanent exception in disguise.

    ## Example
    ```yaml
    expires: 2031-01-01
    ```

    ## Use instead
    Pick a date within the horizon and review the waiver when it comes.

    ## Sources
    PCI DSS v4.0 compensating controls are re-validated at least annually.
    """

    code = "WVR002"
    name = "waiver-beyond-horizon"
    family = "waivers"

    def check(self, ctx: CheckContext) -> Iterator[Diagnostic]:
        horizon = ctx.model.settings.waiver_horizon_days
        limit = ctx.today + dt.timedelta(days=horizon)
        for i, w in enumerate(ctx.model.waivers):
            if w.expires > limit:
                yield self.diagnostic(
                    ctx.pos("waivers", str(i), "expires"),
                    f"waiver for {w.rule} on {w.target} runs until {w.expires}, beyond the "
                    f"{horizon}-day horizon ({limit}); choose an earlier date")


class WaiverUnknownRule(Rule):
    """A waiver naming a rule that does not exist.

    ## What it does
    Flags waivers whose `rule` is neither a rule code nor a rule name.

    ## Why is this bad?
    A mistyped waiver waives nothing while looking like it does.

    ## Example
    ```yaml
    rule: LIM02
    ```

    ## Use instead
    Use a code from `compliance rules`, e.g. `LIM002` or `kind-limit-missing`.

    ## Sources
    ruff: `# noqa` with an unknown code is itself reported (RUF100-style hygiene).
    """

    code = "WVR003"
    name = "waiver-unknown-rule"
    family = "waivers"

    def check(self, ctx: CheckContext) -> Iterator[Diagnostic]:
        for i, w in enumerate(ctx.model.waivers):
            if w.rule not in ctx.rule_names:
                yield self.diagnostic(ctx.pos("waivers", str(i), "rule"),
                                      f"waiver names unknown rule {w.rule!r}; see "
                                      "`compliance rules` for codes and names")


class WaiverUnused(Rule):
    """A waiver in force that waives no finding, or whose target names nothing.

    ## What it does
    After the rules ran and waivers were applied, flags every waiver in force
    (not expired, within the horizon, naming a known rule) that marked no
    finding as waived, at the waiver's `target`. When the target is no id in
    the model (control, limit, evidence item, source) and no file in the
    workspace, the message says so: the target is mistyped.

    The level is **warning**, not error: an unused waiver makes no claim false
    and hides nothing, and when its target is mistyped the finding it was meant
    to waive still fails the run on its own. It fails the run with `--strict`,
    which is what CI should use. It cannot itself be waived.

    ## Why is this bad?
    A waiver that waives nothing looks like a decision someone made and
    reviews, while covering no finding: a mistyped target (`NET-1` for
    `NET-01`) or a finding fixed long ago. Left in place it will silently
    waive the next, unrelated finding of that rule on that target.

    ## Example
    ```yaml
    waivers:
      - rule: LIM001
        target: nosuch          # no control, limit or file of that name
        reason: limits are being written up
        owner: sec-lead
        expires: 2027-01-15
    ```

    ## Use instead
    Fix the target (`target: ISO-01`), or delete the waiver once its finding
    is fixed.

    ## Sources
    ruff RUF100 `unused-noqa`; ESLint `--report-unused-disable-directives`;
    Chef InSpec waivers name a control that must exist.
    """

    code = "WVR004"
    name = "unused-waiver"
    family = "waivers"
    level = Level.WARNING
    # Findings are produced by compliance.check.suppress, which applies the waivers.


class SuppressionWithoutReason(Rule):
    """An inline `# compliance: allow CODE` comment with no reason.

    ## What it does
    Flags inline suppressions in YAML comments that name a rule but give no
    reason after it. Such a comment suppresses nothing.

    ## Why is this bad?
    A suppression is a decision; without its reason the next reviewer cannot
    tell a considered exception from a silenced alarm.

    ## Example
    ```yaml
    claim: Every session is recorded.  # compliance: allow CLM008
    ```

    ## Use instead
    ```yaml
    # compliance: allow CLM008 -- the recorder covers every host, see the LOG-01 test
    claim: Every session is recorded.
    ```

    ## Sources
    checkov: `checkov:skip=CKV_AWS_20:reason`.
    """

    code = "SUP001"
    name = "suppression-without-reason"
    family = "waivers"
    # Findings are produced by compliance.check.suppress, which parses the comments.


class SuppressionInsideText(Rule):
    """A `# compliance: allow CODE` that is part of a value's text, not a comment.

    ## What it does
    Flags a suppression written inside a block scalar (`>` or `|`) or a quoted
    string, where YAML reads `#` as text. It suppresses nothing: the words are
    part of the claim, and the claim is judged with them.

    ## Why is this bad?
    The comment would otherwise silence a finding on the very text it travels
    in, and that text, comment included, goes into reports and answers.

    ## Example
    ```yaml
    claim: >
      Sessions run in microVMs, which cannot be escaped.  # compliance: allow CLM006 -- sales
    ```

    ## Use instead
    Fix the claim; if a suppression is really needed, put it on its own comment line
    above the key.

    ## Sources
    YAML 1.2, 8.1 block scalars: a `#` inside the content is content.
    """

    code = "SUP002"
    name = "suppression-inside-text"
    family = "waivers"
    # Findings are produced by compliance.check.suppress, which parses the comments.

