"""CLM010 reads-like-an-overclaim: the learned second opinion on sentences no rule flagged."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from compliance.diagnostics import Level
from compliance.rules.claims.base import ClaimRule

if TYPE_CHECKING:  # pragma: no cover
    from compliance.judge.learned import Reading


class ReadsLikeAnOverclaim(ClaimRule):
    """Warns on a sentence no claim rule flagged that a learned model reads as an overclaim.

    ## What it does
    The claim rules CLM001-CLM009 read a sentence's grammar: which absolute
    predicate it asserts, about which topic, and whether a negation, hedge,
    condition or quotation takes it back. They are precise on wordings they know
    and silent on the rest; on real public writing nobody here wrote they find
    about half of the overclaims. This rule is a second opinion on the sentences
    they passed: a linear model over word n-grams, trained in this repository
    (`training/train_judge_model.py`) on labelled synthetic statements and on real
    public sentences, scores each one. Above its threshold the sentence gets this
    warning, naming the family it reads, its score and the n-grams that weighed
    most. The threshold was set so that 5% of honest real sentences the model had not
    seen pass it; in the same cross-validation it caught 24% of the overclaims. On
    two fresh sets of real sentences collected after it was trained (261 and 265), it
    raised the share of overclaims flagged from 0.500 to 0.594 and from 0.508 to
    0.609, and flagged about two more honest sentences in a hundred (0.083 to 0.098,
    0.088 to 0.109).

    It is a warning, not an error: the model weighs words, not grammar, so it
    cannot tell "agents cannot escape" from "we never said agents cannot escape"
    as the rules can. A person decides. `compliance check` and `lint` still exit 0
    on it.

    ## Why is this bad?
    The overclaims the rules miss are the same claims in other words ("the
    boundary holds", "zero host risk", "damage stays contained"): the reasons each
    family's rule page gives apply to them. A sentence the model flags wrongly costs
    a reviewer a minute; an overclaim that reaches a customer's questionnaire costs
    the answer its credibility when the first exception is found.

    ## Example
    ```text
    Whatever the agent does, the blast radius stays inside the microVM.
    ```

    ## Use instead
    ```text
    Each session runs in its own microVM; a kernel or hypervisor flaw could reach the
    host, which is why the host carries no credentials.
    ```
    When the sentence is honest, suppress the warning with a reason: in a model,
    `# compliance: allow CLM010 -- why this is accurate` on the line above the key;
    in Markdown or text, `<!-- compliance: allow CLM010 -- why this is accurate -->`
    on the line before the sentence.

    ## Sources
    - OWASP Top 10 for LLM Applications 2025, LLM06 Excessive Agency and LLM09
      Misinformation (overreliance on stated guarantees).
    - The model's training script and data are described in
      `training/train_judge_model.py`; its figures in `benchmarks/judge_accuracy.py`.
    """

    code = "CLM010"
    name = "reads-like-an-overclaim"
    level: ClassVar[Level] = Level.WARNING
    claimed = "what a family's overclaim claims, in words no rule knows"
    why = ("The claim rules passed it; a model trained on labelled statements reads it as "
           "an overclaim.")
    instead = "state what the control does and the limit it has."

    @classmethod
    def second_opinion(cls, excerpt: str, reading: Reading, threshold: float) -> str:
        """The warning for a sentence the model reads as ``reading.family``'s claim."""
        from compliance.rules.claims import CLAIM_RULES

        fam = CLAIM_RULES[reading.family]
        words = ", ".join(f'"{w}"' for w in reading.carriers)
        weighed = f"; the words that weighed most: {words}" if words else ""
        return (f'"{excerpt}" reads like a claim {fam.claimed} ({fam.code} {fam.name}) to '
                f"the judge's learned second opinion (score {reading.score:.2f}, threshold "
                f"{threshold:.2f}{weighed}), though no rule matched it. The model weighs "
                "words, not grammar: check the sentence yourself. "
                f"{fam.why} Honest wording: {fam.instead}")
