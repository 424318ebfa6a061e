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
