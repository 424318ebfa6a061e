"""Rules over the model itself: limits, layer gaps, evidence files, waivers."""

from compliance.rules.base import Rule
from compliance.rules.model.audience import LimitHiddenFromClaimReader
from compliance.rules.model.disclosures import DisclosureOutOfDate
from compliance.rules.model.evidence_rules import (
    EvidenceFromTheFuture,
    EvidenceMissing,
    EvidenceNotPinned,
    EvidenceOutsideFolder,
    EvidenceStale,
    EvidenceTooOld,
)
from compliance.rules.model.gaps import LayerWithoutControl
from compliance.rules.model.limits import (
    ControlWithoutLimits,
    KindLimitMissing,
    StanceWithoutLimits,
)
from compliance.rules.model.placeholders import UnfilledPlaceholder
from compliance.rules.model.waivers import (
    SuppressionWithoutReason,
    WaiverBeyondHorizon,
    WaiverExpired,
    WaiverUnknownRule,
    WaiverUnused,
)

MODEL_RULES: dict[str, type[Rule]] = {
    r.code: r
    for r in (
        ControlWithoutLimits, KindLimitMissing, StanceWithoutLimits, LayerWithoutControl,
        EvidenceOutsideFolder, EvidenceMissing, EvidenceNotPinned, EvidenceStale,
        EvidenceTooOld, EvidenceFromTheFuture, WaiverExpired, WaiverBeyondHorizon,
        WaiverUnknownRule, WaiverUnused, SuppressionWithoutReason, DisclosureOutOfDate,
        UnfilledPlaceholder, LimitHiddenFromClaimReader,
    )
}
