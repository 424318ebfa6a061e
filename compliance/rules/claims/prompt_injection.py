"""CLM002 sandbox-stops-prompt-injection-claim."""

from __future__ import annotations

import re

from compliance.judge import lexicon as lx
from compliance.judge.engine import pattern
from compliance.rules.claims.base import ClaimRule

INJECTION = (r"\b(?:prompt[- ]injections?|injection attacks?|prompt[- ]injected|"
             r"injected (?:instructions?|prompts?|content|text|commands?|payloads?)|"
             r"(?:malicious|hostile|poisoned|adversarial|booby[- ]trapped|weaponi[sz]ed|"
             r"manipulative|rogue) "
             r"(?:instructions?|prompts?)|(?:indirect|direct) (?:prompt )?injections?|"
             r"hidden instructions?|be injected|"
             # a bare "injection" is prompt injection here, not SQL or dependency injection
             # (the lookahead first: lookbehinds tried at every position are slow)
             r"(?=inj)(?<!sql )(?<!dependency )(?<!fault )(?<!code )(?<!command )(?<!header )"
             r"(?<!ldap )(?<!script )(?<!log )(?<!fuel )(?<!-)"
             # injecting secrets into an environment is not prompt injection
             r"(?<!secret )(?<!secrets )(?<!credential )(?<!token )(?<!key )(?<!env )injections?"
             r"(?![- ](?:molding|moulding|site|needle|point))|"
             r"(?:hijacked|compromised|tampered) (?:prompts?|instructions?)|"
             # a participle after the noun: "instructions smuggled into a PR description"
             r"(?:instructions?|prompts?|commands?|directives?) (?:smuggled|planted|hidden|"
             r"embedded|"
             r"slipped|injected|buried|tucked|lurking|found|contained|written|concealed) "
             r"(?:in|into|inside|within)|"
             # instructions by their untrusted origin: "text in retrieved files"
             r"(?:instructions?|commands?|directives?|text|prompts?) (?:in|from|inside|within) "
             r"(?:retrieved|untrusted|fetched|scraped|downloaded|external|third[- ]party|"
             r"attacker[- ]controlled) [\w-]+|"
             r"smuggl\w* (?:\w+ )?(?:commands?|instructions?|prompts?|orders)|"
             # the agent manipulated by untrusted input: "manipulation by untrusted content"
             r"(?:manipulat\w*|hijack\w*|subver\w*|steer\w*|tricked|fooled|coerced) "
             r"(?:by|through|via) (?:untrusted|malicious|hostile|injected|poisoned|adversarial|"
             r"attackers?|external|third[- ]party)|"
             r"jailbreak(?:s|ing)?|jailbroken|jailbreakable|(?:prompt[- ])?injectable|"
             # the agent taken over, as an adjective: "Is the agent hijackable? No."
             r"(?:hijack|trick|manipul|fool|dup)(?:able|eable)|"
             r"instruction injection|"
             r"(?:be |being )?(?:tricked|manipulated|fooled|coerced|jailbroken|talked|conned|"
             r"duped|hoodwinked|socially engineered) (?:into|by)|"
             # the agent as the object of a takeover ("no README can hijack an agent")
             r"(?:hijack|commandeer|subvert|hoodwink|trick|fool|dupe|redirect|steer|"
             r"divert|misdirect|derail|reprogram|mislead)(?:s|ed|ing)?\s+"
             r"(?:the |an? |our |your |its )?(?:coding |ai |llm )?(?:agents?|models?|assistants?|"
             r"bots?|llms?)|turn(?:s|ed|ing)?\s+(?:it|them|the agent|our agent|your agent)\s+"
             r"against|"
             r"(?:be|being) (?:tricked|manipulated|fooled|coerced)|"
             r"(?:malicious|hostile|poisoned|adversarial|booby[- ]trapped|weaponi[sz]ed|"
             r"manipulative|rogue) "
             r"(?:readmes?|issues?|files?|content|web ?pages?|websites?|documents?|documentation|"
             r"docs|payloads?|"
             r"inputs?|comments?|repositor(?:y|ies)|text|data|dependenc(?:y|ies)|code comments?))"
             r"\b")


class SandboxStopsPromptInjectionClaim(ClaimRule):
    """Flags claims that a sandbox (or anything) prevents prompt injection.

    ## What it does
    Flags a sentence that says prompt injection is prevented, stopped,
    blocked, impossible, not a concern, or that the agent is immune to it or
    protected against it, or that injected instructions cannot cause harm.
    "Sandboxing does not stop prompt injection" and "reduces the impact of
    prompt injection" pass.

    ## Why is this bad?
    A sandbox bounds what an injected agent can do; it does not stop the
    model from following instructions it reads in a README, an issue or a
    web page. OWASP LLM01: "it is unclear if there are fool-proof methods of
    prevention for prompt injection". Its listed mitigations (least
    privilege, human approval for high-risk actions) limit damage; none
    prevents injection.

    ## Example
    ```text
    Because the agent runs in a sandbox, it is immune to prompt injection.
    ```

    ## Use instead
    ```text
    Prompt injection remains possible; the sandbox, short-lived credentials and
    required review limit what an injected agent can reach or change.
    ```

    ## Sources
    - OWASP Top 10 for LLM Applications 2025, LLM01 Prompt Injection.
    - OWASP LLM06 Excessive Agency: least privilege and approval "limit the level of damage".
    """

    code = "CLM002"
    #: "secrets are sealed off from the agent, so even a prompt-injected agent cannot read
    #: them" is the secrets claim; the injected agent is the consequence's subject.
    consequence_of = frozenset({"CLM007"})
    name = "sandbox-stops-prompt-injection-claim"
    claimed = "that prompt injection is prevented or harmless"
    why = ('A sandbox limits what an injected agent can reach; it does not stop the model '
           'from obeying injected instructions. OWASP LLM01: "it is unclear if there are '
           'fool-proof methods of prevention for prompt injection".')
    instead = ('"Prompt injection remains possible; the sandbox and least-privilege '
               'credentials limit what an injected agent can do."')
    committed = re.compile(INJECTION)
    patterns = (
        pattern(INJECTION, negated=True),
        # "there isn't a jailbreak our filter doesn't catch"
        pattern(lx.DOUBLE_NEGATIVE + r"(?:stop|block|catch|caught|neutrali[sz]|defeat|detect|"
                r"filter|handle|absorb|prevent)\w*", requires=INJECTION),
        # the injection named elsewhere ("Prompt injections? Our agents are immune.")
        pattern(r"\b(?:is|are|remains?|stays?)\s+(?:fully |completely |totally |entirely )?"
                r"(?P<t>immune|impervious|invulnerable)(?!\s+(?:to|against|from)\b)",
                topic=INJECTION),
        pattern(r"\b(?P<t>(?:immune|impervious|invulnerable|proof)\s+(?:to|against)\s+"
                r"(?:\w+\s+){0,2}?(?:injection|manipulation))\b"),
        pattern(r"\binjection[- ]proof\b"),
        # instructions not from the user, denied: "ignores any instruction that does not come
        # from the user" (the relative's own "not" is part of the noun phrase)
        pattern(r"\b(?P<t>(?:instructions?|commands?|directives?|orders|text|prompts?)\s+"
                r"(?:that|which)?\s*(?:(?:do|does)(?: not|n't)|not)\s+(?:come|originate)\s+from\s+"
                r"(?:the |its |a |an )?(?:user|operator|developer|owner|human|principal)s?)\b",
                negated=True),
        # resistance made universal: "resists manipulation ... in all cases"
        pattern(r"\b(?:resists?|resisted|withstands?|withstood|shrugs? off|repels?)\b",
                topic=INJECTION, requires=r"\b(?:in all cases|always|every|all|any|100\s?%|"
                r"fully|completely|entirely|without fail)\b"),
        # a universal removal or catch before the threat: "strips every injection payload"
        pattern(r"\b(?P<t>(?:strip|scrub|filter|remov|purg|saniti[sz]|clean|catch|caught|"
                r"intercept|detect|block|neutrali[sz]|defus|stop|flag|reject|drop|quarantin)\w*\s+"
                r"(?:out\s+)?(?:every|all|each|any|100\s?% of))\s+(?:(?:the|of the|single)\s+)?"
                r"(?:[\w-]+\s+){0,3}?(?:prompt[- ])?(?:injection|jailbreak|injected|malicious "
                r"(?:instruction|prompt))\w*"),
        # caught before it can act: "intercepts injection attempts before the agent ever acts"
        pattern(r"\b(?:intercept|catch|caught|block|strip|stop|detect|filter|remov|neutrali[sz])"
                r"\w*\s+(?:[\w-]+\s+){0,4}?before\s+(?:the (?:agent|model|llm)|it|they)\s+"
                r"(?:ever\s+|can\s+|could\s+)?(?:acts?|sees?|reads?|reach(?:es)?|executes?|"
                r"follows?|obeys?|gets?)\b", topic=INJECTION),
        # the hole closed for good: "we have closed the prompt-injection hole entirely"
        pattern(r"\b(?:clos|shut|seal|plug|patch|fix)\w*\s+(?:off\s+|up\s+)?(?:the|this|that|"
                r"every|all|each|any)\s+(?:[\w-]+\s+){0,2}?(?:holes?|gaps?|doors?|loopholes?|"
                r"vectors?|avenues?|routes?|weakness(?:es)?)\b",
                topic=INJECTION, requires=r"\b(?:entirely|completely|fully|for good|"
                r"once and for all|totally|every|all|any|permanently|forever)\b"),
        pattern(INJECTION + r"(?:\s+[\w']+){0,4}?\s+(?:harmless|ineffective|toothless|irrelevant|"
                r"moot|a non-issue|powerless|neutered|defused|inert|defanged|"
                r"(?:a )?solved(?: problem| issue)?)\b"),
        # an outcome verb made absolute, the threat named here or in the question ("How do
        # you handle prompt injection? The sandbox takes care of it entirely.")
        pattern(r"\b(?:handle[sd]?|takes? care of|took care of|taken care of|deals? with|"
                r"dealt with|contain(?:s|ed)?|covers?|covered|solves?|absorbs?)\s+"
                r"(?:(?:it|them|this|that|the (?:threat|risk|problem|attack))\s+)?"
                r"(?:entirely|fully|completely|totally|for good|once and for all|100\s?%)",
                topic=INJECTION),
        # the verdict after its noun, as in a label line or table row ("Prompt injection
        # protection: complete")
        pattern(INJECTION + r"\s+(?:protection|defen[cs]es?|mitigations?|coverage|resistance)\s*"
                r"(?::|=|is|are)\s*(?:complete|full|total|absolute|perfect|100\s?%)"
                r"(?=\s*(?:[.;,()!]|$))"),
    )
