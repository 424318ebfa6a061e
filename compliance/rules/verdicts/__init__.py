"""Rules over the claims' verdicts: a claim partly verified, a claim checked as one part,
a check code that names no check, a claim (or part) no check covers."""

from compliance.rules.base import Rule
from compliance.rules.verdicts.claim_checked_as_one import ClaimCheckedAsOne
from compliance.rules.verdicts.claim_partly_verified import ClaimPartlyVerified
from compliance.rules.verdicts.claim_without_check import ClaimWithoutCheck
from compliance.rules.verdicts.unknown_check import UnknownCheck

VERDICT_RULES: dict[str, type[Rule]] = {
    r.code: r for r in (ClaimPartlyVerified, ClaimCheckedAsOne, UnknownCheck, ClaimWithoutCheck)
}
