"""What both drafters (mapped and unmapped) read of a control.

One place for the control's own words that topics and vocabulary terms are
matched against, its layer, and whether it may back a narrative on its own
(deployed, its claim VERIFIED by the configuration checks).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from compliance.questionnaire.verdicts import VERIFIED, status_of

#: The fields of a control whose words say what it is about.
TEXT_FIELDS = ("title", "claim", "implementation", "kind", "stance_clause")


def control_text(control: Any) -> str:
    """The control's title, claim, implementation, kind and stance clause, as one text."""
    return " ".join(str(getattr(control, field) or "") for field in TEXT_FIELDS)


def layer_of(control: Any) -> str:
    return str(getattr(control.layer, "value", control.layer))


def status_name(control: Any) -> str:
    """deployed / partial / planned."""
    return str(getattr(control.status, "value", control.status))


def verified_and_deployed(control: Any, verdict: Any) -> bool:
    """Whether the control is deployed and the checks VERIFIED its claim."""
    return status_name(control) == "deployed" and status_of(verdict) == VERIFIED


def waived_claims(result: Any) -> dict[str, str]:
    """Control id -> what the claims judge flagged in its claim and the waiver that lets it
    stand in the model (``CheckResult.waived_claims``): no answer is composed from it."""
    from compliance.check.engine import waiver_words

    out: dict[str, str] = {}
    for w in getattr(result, "waived_claims", ()):
        if w.section == "controls" and w.field == "claim":
            out.setdefault(w.item_id, f"{w.code} {w.name} at {w.location}, waived: "
                                      f"{waiver_words(w.waived_by).rstrip('.')}")
    return out


def waived_reason(controls: Iterable[Any], waived: dict[str, str]) -> str | None:
    """Why an answer is left for a human when a control it would rest on has a claim the
    claims judge flagged and a waiver lets stand, or None."""
    found = [f"{c.id} ({waived[c.id]})" for c in controls if c.id in waived]
    if not found:
        return None
    return ("the claims judge flagged the claim of " + "; ".join(found) + " as an "
            "overclaim and a waiver lets it stand in the model; a waiver is not carried "
            "into a customer's answer")


def unique(items: Iterable[str]) -> tuple[str, ...]:
    """The items in their first order, each once."""
    return tuple(dict.fromkeys(items))
