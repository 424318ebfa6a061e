"""A recorded disclosure the model no longer supports as it was sent."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from compliance.check.context import CheckContext
from compliance.diagnostics import Diagnostic, Level, Position
from compliance.model.enums import FindingLevel
from compliance.rules.base import Rule

if TYPE_CHECKING:  # pragma: no cover
    from compliance.disclose.records import LoadedRecord
    from compliance.model import Evidence

#: How many changes a finding names before "and N more".
SHOWN = 3


class DisclosureOutOfDate(Rule):
    """A recorded disclosure that the model no longer supports as it was sent.

    ## What it does
    Compares every record under `disclosures/` (written by `compliance answer
    --record NAME` or `compliance build --record NAME`) with the model now: each
    recorded claim's status, verdict, evidence content and limits, the stance
    summary a build stated, and each answer drafted again from the model. When
    anything the reader was told is weaker or different (a claim whose verdict
    dropped, a control removed, an evidence file re-pinned with new content, a
    limit added, an answer that would now be left blank), it reports the record.
    Changes that only make claims stronger do not. The level is set by
    `disclosure_out_of_date` in compliance.yaml (warning by default; error or off).

    ## Why is this bad?
    Once answers go to a customer or a pack to an auditor, the team is held to
    them. If a claim the customer relies on got weaker since, they hold a
    statement that is no longer true, and nobody has told them.

    ## Example
    `disclosures/acme-bank.yaml` records PIPE-01 as VERIFIED; the fork pull
    request approval setting was later turned off, and the check now refutes it.

    ## Use instead
    Run `compliance diff --since acme-bank` to see what changed, send the
    customer an update, and record what you sent
    (`--record acme-bank --replace-record`). If the change is a mistake, fix
    the configuration instead.

    ## Sources
    CSA CAIQ v4 A&A-03 and STA-08: assessments and supply-chain reviews rely on
    current, accurate answers; AICPA SOC 2 CC2.3 (communication with external
    parties about matters affecting internal control).
    """

    code = "DSC001"
    name = "disclosure-out-of-date"
    family = "disclosures"
    level = Level.WARNING

    def check(self, ctx: CheckContext) -> Iterator[Diagnostic]:
        setting = ctx.model.settings.disclosure_out_of_date
        records = ctx.workspace.disclosures
        if setting is FindingLevel.OFF or not records:
            return
        from compliance.check.engine import final_verdicts
        from compliance.disclose.drift import record_drift

        verdicts = final_verdicts(ctx)
        for name in sorted(records):
            loaded = records[name]
            drift = record_drift(loaded.record, loaded.display, ctx.model, verdicts,
                                 lambda ev: _hash(ctx, ev), ctx.workspace.evidence_dir)
            if not drift.owed_update:
                continue
            owed = [c for c in (*drift.changes, *drift.answers)
                    if c.direction.value != "stronger"]
            said = "; ".join(c.message for c in owed[:SHOWN])
            more = f"; and {len(owed) - SHOWN} more" if len(owed) > SHOWN else ""
            record = loaded.record
            yield self.diagnostic(
                _position(loaded, owed[0].subject if owed else None),
                f"disclosure {name!r} ({record.kind.value}, {record.sent}, recorded "
                f"{record.date.isoformat()}) is out of date: {said}{more}. Whoever received it "
                f"is owed an update; see `compliance diff --since {name}`",
                level=Level(setting.value))


def _hash(ctx: CheckContext, ev: Evidence) -> str:
    """sha256 of the evidence file now, shared with the other rules' hashing."""
    from compliance.model.disclosure import MISSING
    from compliance.rules.model.evidence_rules import evidence_file

    file = evidence_file(ctx, ev)
    digest = ctx.evidence_sha256(ev.path) if file is not None else None
    return digest or MISSING


def _position(loaded: LoadedRecord, subject: str | None) -> Position:
    """The recorded claim that changed, else the record's name."""
    for i, claim in enumerate(loaded.record.claims):
        if claim.control == subject:
            return loaded.doc.pos(("claims", i, "control"))
    return loaded.doc.pos(("name",))
