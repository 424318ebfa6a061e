"""Claim rules: one family of overclaim per module, and the explicit registry.

Public API (used by the model check, ``compliance lint`` and the
questionnaire drafter): :func:`check_prose` and :func:`judge_text`.
"""

from __future__ import annotations

import re
from typing import Any

from compliance.rules.claims.absolute_isolation import AbsoluteIsolationClaim
from compliance.rules.claims.absolute_safety import AbsoluteSafetyClaim
from compliance.rules.claims.base import ClaimRule
from compliance.rules.claims.complete_allowlist import CompleteAllowlistClaim
from compliance.rules.claims.complete_logs import CompleteLogsClaim
from compliance.rules.claims.driver import check_prose, judge_text
from compliance.rules.claims.hidden_secrets import HiddenSecretsClaim
from compliance.rules.claims.no_exfiltration import NoInternetNoExfiltrationClaim
from compliance.rules.claims.pipeline_immune import PipelineImmuneClaim
from compliance.rules.claims.prompt_injection import SandboxStopsPromptInjectionClaim
from compliance.rules.claims.review_optional import ReviewOptionalClaim
from compliance.rules.claims.second_opinion import ReadsLikeAnOverclaim

#: Every claim rule, by code. Order is report order; codes are stable forever.
CLAIM_RULES: dict[str, type[ClaimRule]] = {
    "CLM001": AbsoluteSafetyClaim,
    "CLM002": SandboxStopsPromptInjectionClaim,
    "CLM003": NoInternetNoExfiltrationClaim,
    "CLM004": ReviewOptionalClaim,
    "CLM005": CompleteAllowlistClaim,
    "CLM006": AbsoluteIsolationClaim,
    "CLM007": HiddenSecretsClaim,
    "CLM008": CompleteLogsClaim,
    "CLM009": PipelineImmuneClaim,
    "CLM010": ReadsLikeAnOverclaim,
}


def __getattr__(name: str) -> Any:
    """``GATES``, compiled on first use (about 25 ms; the driver does not need it)."""
    if name != "GATES":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    #: Per rule, one regex of all its predicates: a rule whose gate does not match a
    #: sentence is not asked about it, and a sentence no gate matches is not analysed.
    #: The driver gets the same answers from the patterns themselves (see driver._Gates).
    gates = {
        code: re.compile("|".join(f"(?:{p.regex.pattern.replace('(?P<t>', '(')})"
                                  for p in rule.patterns))
        for code, rule in CLAIM_RULES.items() if rule.patterns
    }
    globals()["GATES"] = gates
    return gates


__all__ = ["CLAIM_RULES", "GATES", "ClaimRule", "check_prose", "judge_text"]
