"""Evidence rules: the files claims rest on exist, stay inside evidence/, match their pin."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from compliance.check.context import CheckContext
from compliance.diagnostics import Diagnostic, Level
from compliance.model.enums import FindingLevel
from compliance.paths import OutsideFolder
from compliance.rules.base import Rule

if TYPE_CHECKING:
    from compliance.model import Evidence


def evidence_file(ctx: CheckContext, ev: Evidence) -> Path | None:
    """The evidence item's real file, or None when it is outside evidence/ (or evidence/
    itself is outside the workspace) or missing. Readers open it again through
    ``ctx.workspace.open_evidence``, which re-checks at the moment of reading."""

    def resolve() -> Path | None:
        try:
            file = ctx.workspace.evidence_path(ev.path)
        except OutsideFolder:
            return None
        return file if file.is_file() else None

    return ctx.memo(("evidence-file", ev.path), resolve)


class EvidenceOutsideFolder(Rule):
    """An evidence path that leaves the workspace's evidence/ folder.

    ## What it does
    Resolves each `evidence[].path` against evidence/, following `..` and
    symbolic links, and flags any path that ends up outside it (or is absolute),
    and every path when evidence/ itself is a link to a folder outside the
    workspace. Such a file is never read, hashed, pinned or packed.

    ## Why is this bad?
    Evidence packs are handed to customers. A path outside evidence/ could pull
    in any file on the machine (an SSH key, /etc/passwd) or make the pack depend
    on files nobody reviewed.

    ## Example
    ```yaml
    evidence:
      - id: settings
        path: ../../home/me/.claude/settings.json
    ```

    ## Use instead
    Export the file into evidence/ and cite it there: `path: claude/settings.json`.

    ## Sources
    CWE-22: Improper Limitation of a Pathname to a Restricted Directory.
    """

    code = "EVD001"
    name = "evidence-outside-folder"
    family = "evidence"

    def check(self, ctx: CheckContext) -> Iterator[Diagnostic]:
        for ev in ctx.model.evidence:
            try:
                ctx.workspace.evidence_path(ev.path)
            except OutsideFolder as exc:
                yield self.diagnostic(ctx.pos("evidence", ev.id, "path"),
                                      f"evidence {ev.id}: path {ev.path!r} is refused: {exc}")


class EvidenceMissing(Rule):
    """An evidence item whose file does not exist under evidence/.

    ## What it does
    Flags evidence items whose path (inside evidence/) names no regular file.

    ## Why is this bad?
    A claim resting on a missing file rests on nothing.

    ## Example
    ```yaml
    - id: firewall
      path: devcontainer/init-firewall.sh   # file was renamed
    ```

    ## Use instead
    Restore or re-export the file, or fix the path, then run `compliance evidence pin`.

    ## Sources
    NIST SP 800-53A: assessment evidence must be retrievable by the assessor.
    """

    code = "EVD002"
    name = "evidence-missing"
    family = "evidence"

    def check(self, ctx: CheckContext) -> Iterator[Diagnostic]:
        for ev in ctx.model.evidence:
            try:
                file = ctx.workspace.evidence_path(ev.path)
            except OutsideFolder:
                continue  # EVD001 reports it
            if not file.is_file():
                yield self.diagnostic(ctx.pos("evidence", ev.id, "path"),
                                      f"evidence {ev.id}: no file at evidence/{ev.path}")


class EvidenceNotPinned(Rule):
    """An evidence item with no sha256 pin.

    ## What it does
    Flags evidence items without `sha256:`.

    ## Why is this bad?
    Without a pin nobody can tell whether the file a claim was reviewed against
    is the file in the pack today. Pinning makes a changed file a visible event.

    ## Example
    ```yaml
    - id: firewall
      path: devcontainer/init-firewall.sh
    ```

    ## Use instead
    Review the file, then run `compliance evidence pin` to write its sha256.

    ## Sources
    SLSA provenance: artifacts are identified by digest, not by name.
    """

    code = "EVD004"
    name = "evidence-not-pinned"
    family = "evidence"

    def check(self, ctx: CheckContext) -> Iterator[Diagnostic]:
        for ev in ctx.model.evidence:
            now = ctx.evidence_sha256(ev.path) if evidence_file(ctx, ev) else None
            if ev.sha256 is None and now is not None:
                yield self.diagnostic(
                    ctx.pos("evidence", ev.id, "path"),
                    f"evidence {ev.id} is not pinned (current sha256 {now}); "
                    "review it, then run `compliance evidence pin`")


class EvidenceStale(Rule):
    """A claim resting on an evidence file that changed since it was pinned.

    ## What it does
    Compares each evidence file's sha256 with its pin; when they differ, flags
    every control whose claim cites that evidence, at the claim, naming the
    file and both hashes.

    ## Why is this bad?
    The claim was reviewed against a different file. The change may have made it
    false (a firewall rule removed, a setting flipped) and no one has looked.

    ## Example
    The firewall script gained `iptables -P OUTPUT ACCEPT` after the pin.

    ## Use instead
    Review the change; fix the claim or the configuration; then re-pin with
    `compliance evidence pin` (it rewrites only the sha256 values).

    ## Sources
    config-checks.md: a claim goes stale when the file it rests on changes.
    """

    code = "EVD003"
    name = "stale-claim"
    family = "evidence"

    def check(self, ctx: CheckContext) -> Iterator[Diagnostic]:
        stale: dict[str, tuple[Evidence, str, str]] = {}
        for ev in ctx.model.evidence:
            file = evidence_file(ctx, ev)
            if file is not None and ev.sha256 is not None:
                now = ctx.evidence_sha256(ev.path)
                if now is not None and now != ev.sha256:
                    stale[ev.id] = (ev, ev.sha256, now)
        for c in ctx.model.controls:
            for eid in c.evidence:
                if eid in stale:
                    ev, pinned, now = stale[eid]
                    yield self.diagnostic(
                        ctx.pos("controls", c.id, "claim"),
                        f"STALE: the claim of {c.id} rests on evidence/{ev.path}, which changed "
                        f"(pinned {pinned[:12]}..., now {now[:12]}...); review it and run "
                        "`compliance evidence pin`",
                        related=(ctx.pos("evidence", ev.id, "sha256"),))


class EvidenceTooOld(Rule):
    """Evidence collected longer ago than its max_age_days.

    ## What it does
    Flags evidence items whose `collected` date is more than `max_age_days`
    before today. The level is set by `evidence_too_old` in compliance.yaml.
    Whatever the level, a claim resting on such a file is not VERIFIED: its
    verdict is UNVERIFIED, saying how many days too old the file is.

    ## Why is this bad?
    Configuration drifts. An export from last year says little about today.

    ## Example
    ```yaml
    collected: 2025-01-10
    max_age_days: 90
    ```

    ## Use instead
    Re-export the file, review it, update `collected`, and re-pin.

    ## Sources
    CSA CCM v4 A&A-02: independent assessments at least annually.
    """

    code = "EVD005"
    name = "evidence-too-old"
    family = "evidence"

    def check(self, ctx: CheckContext) -> Iterator[Diagnostic]:
        setting = ctx.model.settings.evidence_too_old
        if setting is FindingLevel.OFF:
            return
        level = Level(setting.value)
        for ev in ctx.model.evidence:
            if days_too_old(ev, ctx.today) > 0:
                age = (ctx.today - ev.collected).days
                yield self.diagnostic(
                    ctx.pos("evidence", ev.id, "collected"),
                    f"evidence {ev.id} was collected {age} days ago ({ev.collected}); its "
                    f"max_age_days is {ev.max_age_days}: re-export and re-pin it",
                    level=level)


def days_too_old(ev: Any, today: dt.date) -> int:
    """How many days ``ev`` is older than its ``max_age_days`` allows (0 or less: current).
    EVD005 reports the file; the verdicts of the claims resting on it read the same number."""
    return (today - ev.collected).days - ev.max_age_days


class EvidenceFromTheFuture(Rule):
    """Evidence whose `collected` date is after today.

    ## What it does
    Flags evidence items whose `collected` date lies in the future (after
    today, or after `compliance check --today DATE`), at that date. One day
    of grace is allowed: a file exported today east of the CI runner's time
    zone may carry tomorrow's date there.

    ## Why is this bad?
    Nobody can have collected a file tomorrow. The date is a typo (2027 for
    2026) or was set ahead on purpose; either way the age check
    (EVD005) reads it as fresh and will keep doing so for longer than
    `max_age_days`, so stale evidence passes as current.

    ## Example
    ```yaml
    collected: 2027-06-01   # checked on 2026-11-30
    ```

    ## Use instead
    ```yaml
    collected: 2026-06-01   # the day the file was exported
    ```

    ## Sources
    NIST SP 800-53A: assessment evidence carries the date it was obtained;
    ISO/IEC 27037: record when digital evidence was acquired.
    """

    code = "EVD006"
    name = "evidence-from-the-future"
    family = "evidence"

    def check(self, ctx: CheckContext) -> Iterator[Diagnostic]:
        for ev in ctx.model.evidence:
            if ev.collected > ctx.today + dt.timedelta(days=1):
                days = (ev.collected - ctx.today).days
                yield self.diagnostic(
                    ctx.pos("evidence", ev.id, "collected"),
                    f"evidence {ev.id} was collected on {ev.collected}, {days} days after "
                    f"today ({ctx.today}); write the date the file was exported")
