"""The claims judge as the drafter uses it: the answer judged as the answer to its question.

:func:`compliance.rules.claims.judge_text` run on (question, answer) catches
"Yes" to "Is the sandbox escape-proof?". Many questions share one drafted
narrative, so the work is split without changing the verdict:

- the answer alone is judged once per distinct text (cached);
- the answer's first sentence is judged again with the question before it,
  but only when the question can matter: when it contains a claim predicate
  (a bare "Yes." then asserts it; an imperative "Describe how X guarantees Y"
  asserts it itself), or when the first sentence has a predicate and the
  question a topic word that sentence could refer back to.

Every other sentence sees the same preceding sentence as in a whole-text
judgement, so the union of both is the whole-text result (it can only be
stricter: a concession after a bare "Yes." is not considered).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

#: question, answer -> one message per overclaim (empty: honest).
Judge = Callable[[str, str], list[str]]


def claims_judge() -> Judge:
    from compliance.judge import sentences
    from compliance.rules.claims import judge_text
    from compliance.rules.claims.driver import has_claim_predicate, has_claim_topic

    @lru_cache(maxsize=4096)
    def alone(answer: str) -> tuple[str, ...]:
        return tuple(f"{o.message} [{o.code}]" for o in judge_text(answer))

    @lru_cache(maxsize=4096)
    def first_sentence(answer: str) -> str:
        spans = sentences(answer)
        return answer[spans[0].start : spans[0].end] if spans else answer

    def run(question: str, answer: str) -> list[str]:
        found = list(alone(answer))
        head = first_sentence(answer)
        if has_claim_predicate(question) or (
            has_claim_predicate(head) and has_claim_topic(question)
        ):
            found.extend(f"{o.message} [{o.code}]" for o in judge_text(head, question=question))
        return list(dict.fromkeys(found))

    return run
