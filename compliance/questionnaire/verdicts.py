"""Per-control verdicts for the drafter: verified, refuted or unverified.

They come from the check stage (``CheckResult.verdicts``: control id ->
verdict, a dict with ``status`` in this build); the drafter never re-runs the
configuration checks. A control with no verdict counts as unverified.
"""

from __future__ import annotations

from typing import Any

VERIFIED, REFUTED, UNVERIFIED = "verified", "refuted", "unverified"


def status_of(verdict: Any) -> str:
    """'verified' / 'refuted' / 'unverified' from a Verdict, its Status, a dict or a string."""
    if verdict is None:
        return UNVERIFIED
    if isinstance(verdict, dict):
        verdict = verdict.get("status", UNVERIFIED)
    verdict = getattr(verdict, "status", verdict)
    return str(getattr(verdict, "value", verdict)).casefold()


def control_verdicts(given: dict[str, Any]) -> dict[str, str]:
    """Control id -> status, from the check stage's verdicts."""
    return {cid: status_of(v) for cid, v in given.items()}
