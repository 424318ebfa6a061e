"""The configuration-check base: which evidence kinds a check reads, and how it judges.

Inside ``compliance check`` the engine calls :meth:`check`, which runs the
check over each control that it verifies (see
:mod:`compliance.rules.config.controls`).

A subclass sets ``reads`` (adapter kinds), ``export_hint`` (what evidence
would let it verify the claim) and implements :meth:`judge`, adding reasons
and gaps to a :class:`Findings`. :meth:`evaluate` filters the documents to
the kinds it reads and returns UNVERIFIED, naming the export, when none is
given. A cited file that could not be read (too large, malformed) is named as given
but unreadable, with why and where, never as not given.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, ClassVar

from compliance.adapters.base import EvidenceDoc, EvidenceError
from compliance.adapters.claude_merge import Effective, Sourced
from compliance.diagnostics import Diagnostic
from compliance.rules.base import Rule
from compliance.rules.config.verdict import Findings, Status, Verdict

if TYPE_CHECKING:  # pragma: no cover
    from compliance.check.context import CheckContext


class ConfigRule(Rule):
    family: ClassVar[str] = "config"
    reads: ClassVar[tuple[str, ...]] = ()
    export_hint: ClassVar[str] = ""

    def evaluate(self, docs: list[EvidenceDoc],
                 unreadable: Sequence[tuple[EvidenceError, str | None]] = ()) -> Verdict:
        """The verdict over ``docs``. ``unreadable``: the cited files that could not be read,
        each with its declared ``kind`` (None: any check may have been meant to read it).
        Such a file keeps the claim from VERIFIED and is named as given but unreadable."""
        relevant = [d for d in docs if d.kind in self.reads]
        unread = [exc for exc, kind in unreadable if kind is None or kind in self.reads]
        given = "; ".join(f"{exc.diagnostic.path} was given but could not be read "
                          f"({exc.why()})" for exc in unread)
        fix = ("fix or re-export it so this check can read it" if len(unread) == 1
               else "fix or re-export them so this check can read them")
        if not relevant:
            if unread:
                return Verdict(self.code, Status.UNVERIFIED, f"{given}; {fix}")
            kinds = ", ".join(self.reads)
            return Verdict(self.code, Status.UNVERIFIED,
                           f"no evidence of a kind this check reads ({kinds}); {self.export_hint}")
        findings = Findings()
        self.judge(relevant, findings)
        verdict = findings.verdict(self.code, f"nothing in the given evidence confirms the "
                                              f"claim; {self.export_hint}")
        if unread and verdict.status is not Status.REFUTED:
            return Verdict(self.code, Status.UNVERIFIED,
                           f"{given}; {fix}; from the files it could read: {verdict.message}",
                           verdict.reasons)
        return verdict

    def judge(self, docs: list[EvidenceDoc], findings: Findings) -> None:
        raise NotImplementedError

    def check(self, ctx: CheckContext) -> Iterator[Diagnostic]:
        """Inside `compliance check`: this check over every control it verifies."""
        from compliance.rules.config.controls import claim_diagnostics

        yield from claim_diagnostics(type(self), ctx)


def of_kind(docs: list[EvidenceDoc], *kinds: str) -> list[EvidenceDoc]:
    return [d for d in docs if d.kind in kinds]


def require_sandbox(eff: Effective, findings: Findings, why: str) -> Sourced | None:
    """The effective ``sandbox.enabled`` setting when it is true; otherwise refute with
    ``why`` (at the setting, or at the top settings file when it is unset) and None."""
    enabled = eff.value("sandbox.enabled")
    if enabled is not None and enabled.value is True:
        return enabled
    findings.refute(enabled.doc if enabled else eff.top(), enabled.fact if enabled else None, why)
    return None


def bypass_mode(eff: Effective) -> Sourced | None:
    """The effective ``permissions.defaultMode: bypassPermissions`` (no permission prompt
    at all), or None: another mode, or bypass mode disabled
    (``permissions.disableBypassPermissionsMode: "disable"``)."""
    mode = eff.value("permissions.defaultMode")
    if mode is None or mode.value != "bypassPermissions":
        return None
    off = eff.value("permissions.disableBypassPermissionsMode")
    return None if off is not None and off.value == "disable" else mode


def require_containment(eff: Effective, findings: Findings, off: str, outside: str) -> None:
    """For a claim that rests on what the sandbox keeps from Bash (the files it denies, the
    hosts it blocks, where it lets commands write): refute with ``off`` when the sandbox is
    off (:func:`require_sandbox`), and keep the claim from VERIFIED for every way a command
    runs outside the sandbox, where ``outside`` (what such a command reaches) holds:
    ``sandbox.allowUnsandboxedCommands`` true or unset (its default is true: a command may
    retry with ``dangerouslyDisableSandbox``) and each ``sandbox.excludedCommands`` entry.
    With permission prompts in effect a person approves such a command (a gap); with
    bypassPermissions in effect nobody does, and it refutes."""
    if require_sandbox(eff, findings, off) is None:
        return
    retry = eff.value("sandbox.allowUnsandboxedCommands")
    fix = "set sandbox.allowUnsandboxedCommands to false in managed settings"
    ways: list[tuple[Sourced | None, str, str]] = []
    if retry is None:
        ways.append((None, "sandbox.allowUnsandboxedCommands is not set in any scope (default "
                           "true): a command may retry outside the sandbox", fix))
    elif retry.value is not False:
        ways.append((retry, f"sandbox.allowUnsandboxedCommands is {json.dumps(retry.value)} "
                            f"({retry.scope} scope): a command may retry outside the sandbox",
                     fix))
    ways += [(src, f"sandbox.excludedCommands lists {src.value}: it runs outside the sandbox",
              "take it out of sandbox.excludedCommands")
             for src in eff.array("sandbox.excludedCommands")]
    bypass = bypass_mode(eff)
    for src, what, fix in ways:
        doc, fact = (src.doc, src.fact) if src else (eff.top(), None)
        if bypass is not None:
            findings.refute(doc, fact, f"{what}, and with permissions.defaultMode "
                                       f"bypassPermissions ({bypass.doc.path}:{bypass.fact.line})"
                                       f" nobody approves it; outside the sandbox {outside}")
        else:
            where = f"{doc.path}:{fact.line}" if fact else doc.path
            findings.gap(f"{where}: {what} when a person approves it, and outside the sandbox "
                         f"{outside}; {fix}")
