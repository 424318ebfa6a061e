"""Three verdicts per check, never two: VERIFIED, REFUTED, UNVERIFIED.

A :class:`Verdict` is what a configuration check says about one claim given
the evidence files it cites. Each :class:`Reason` names the evidence file,
the key and the line that refutes (or supports) the claim. :class:`Findings`
is the small accumulator rules use: any refutation makes the verdict
REFUTED; otherwise any gap (something no given file can confirm) or no
support at all makes it UNVERIFIED; only support without gaps is VERIFIED.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from compliance.adapters.base import EvidenceDoc, Fact, key_text
from compliance.diagnostics import Position


class Status(enum.StrEnum):
    VERIFIED = "verified"
    REFUTED = "refuted"
    UNVERIFIED = "unverified"
    #: Only a claim can be partly verified (some of its parts verified, none refuted);
    #: a single check never returns it. See :mod:`compliance.rules.config.claim_verdict`.
    PARTLY_VERIFIED = "partly-verified"


@dataclass(frozen=True, slots=True)
class Reason:
    """One piece of evidence for or against a claim, at its file, key and line."""

    path: str
    key: str
    line: int
    column: int
    message: str
    refutes: bool

    @property
    def position(self) -> Position:
        return Position(self.path, self.line, self.column)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}: {self.key}: {self.message}"


@dataclass(frozen=True, slots=True)
class Verdict:
    code: str
    status: Status
    message: str
    reasons: tuple[Reason, ...] = ()

    @property
    def refuting(self) -> tuple[Reason, ...]:
        return tuple(r for r in self.reasons if r.refutes)


@dataclass
class Findings:
    """Accumulates reasons and gaps while a rule reads the evidence."""

    reasons: list[Reason] = field(default_factory=list)
    gaps: list[str] = field(default_factory=list)

    def _reason(self, doc: EvidenceDoc, where: Fact | tuple[str | int, ...] | None,
                message: str, refutes: bool) -> None:
        if isinstance(where, Fact):
            key, line, column = where.key, where.line, where.column
        elif where:
            key = key_text(where)
            line, column = doc.loc(*where)
        else:
            key, (line, column) = "(file)", doc.loc()
        reason = Reason(doc.path, key, line, column, message, refutes)
        if reason not in self.reasons:
            self.reasons.append(reason)

    def refute(self, doc: EvidenceDoc, where: Fact | tuple[str | int, ...] | None,
               message: str) -> None:
        self._reason(doc, where, message, True)

    def support(self, doc: EvidenceDoc, where: Fact | tuple[str | int, ...] | None,
                message: str) -> None:
        self._reason(doc, where, message, False)

    def gap(self, message: str) -> None:
        if message not in self.gaps:
            self.gaps.append(message)

    @property
    def refuted(self) -> bool:
        return any(r.refutes for r in self.reasons)

    def verdict(self, code: str, no_support: str) -> Verdict:
        """REFUTED if anything refutes; UNVERIFIED on gaps or no support; else VERIFIED."""
        ordered = tuple(sorted(self.reasons, key=lambda r: (not r.refutes, r.path, r.line)))
        refuting = [r for r in ordered if r.refutes]
        if refuting:
            first = refuting[0]
            more = f" (and {len(refuting) - 1} more)" if len(refuting) > 1 else ""
            return Verdict(code, Status.REFUTED,
                           f"refuted by {first.path}:{first.line} {first.key}: "
                           f"{first.message}{more}", ordered)
        if self.gaps or not ordered:
            return Verdict(code, Status.UNVERIFIED, "; ".join(self.gaps) or no_support, ordered)
        shown = "; ".join(f"{r.path}:{r.line} {r.key}: {r.message}" for r in ordered)
        return Verdict(code, Status.VERIFIED, f"supported by {shown}", ordered)
