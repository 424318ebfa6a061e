"""CLM001 absolute-safety-claim."""

from __future__ import annotations

from compliance.judge import lexicon as lx
from compliance.judge.engine import pattern
from compliance.rules.claims.base import ClaimRule

SYSTEM = (r"\b(?:agents?|sandbox(?:es)?|platform|environment|system|product|runtime|sessions?|"
          r"execution|setup|deployment|service|solution|infrastructure|it|everything|tool|"
          r"containers?|vms?|workspace|approach|design|architecture|pipeline)\b")
MODAL = (r"\b(?:can|cannot|could|will|would|able|possible|impossible|way|ever|capable|"
         # an inability is a modal denied ("incapable of doing damage", "unable to cause harm")
         r"incapable|unable|"
         # a chance denied is a possibility denied ("zero chance of a breach")
         r"chance|odds|likelihood|probability)\b|n't\b|'ll\b")
#: Nouns of a security worry, the topic of "X? A thing of the past."
#: What a threat comes through, and the verbs that close it ("every attack vector has
#: been closed off").
VECTORS = (r"(?:attack (?:vectors?|paths?|surfaces?|routes?)|risks?|threats?|dangers?|"
           r"vulnerabilit(?:y|ies)|weakness(?:es)?|(?:security )?holes?|loopholes?|exposures?|"
           r"exploits?)")
CLOSED = (r"(?:clos(?:e|es|ed|ing)|shut(?:s|ting)?|seal(?:s|ed|ing)?|plug(?:s|ged|ging)?|"
          r"eliminat(?:e|es|ed|ing)|eradicat(?:e|es|ed|ing)|remov(?:e|es|ed|ing)|"
          r"neutrali[sz](?:e|es|ed|ing)|patch(?:es|ed|ing)?|lock(?:s|ed|ing)? down)")
WORRIES = (r"(?:security |safety |cyber ?)?(?:risks?|dangers?|threats?|headaches|worries|"
           r"concerns|nightmares|incidents|breach(?:es)?|hacks|vulnerabilit(?:y|ies))")


class AbsoluteSafetyClaim(ClaimRule):
    """Flags claims of absolute safety: "safe by default", "fully secure", "zero risk".

    ## What it does
    Flags a sentence that asserts safety without limit: "safe/secure by
    default", "fully/completely/100% secure", "zero risk", "risk-free",
    "bulletproof", "foolproof", "cannot be compromised", "we guarantee", or a
    system that "is safe". Negated ("no environment is risk-free"), hedged
    ("reduces risk"), quoted as a mention, or asked but not answered, it
    passes. When a more specific claim family fires on the same sentence,
    that finding is reported instead of this generic one.

    ## Why is this bad?
    No control makes an AI coding agent safe. Sandboxes narrow the blast
    radius; credentials, egress, review, pipeline gating and logs decide
    most outcomes, and each has known limits. OWASP LLM01 says "it is unclear
    if there are fool-proof methods of prevention for prompt injection", and
    vendors say the same of their own controls: "Sandboxing reduces risk but
    is not a complete isolation boundary" (Claude Code docs). A reviewer who
    reads "zero risk" stops trusting every other answer.

    ## Example
    ```text
    Our agent sandbox is safe by default and carries zero risk.
    ```

    ## Use instead
    ```text
    The sandbox narrows what a misbehaving agent can reach; the limits that
    remain are listed below.
    ```

    ## Sources
    - OWASP Top 10 for LLM Applications 2025, LLM01 Prompt Injection and LLM06 Excessive Agency.
    - Claude Code docs, "Sandboxing": "Sandboxing reduces risk but is not a complete
      isolation boundary".
    - GitHub docs, Copilot coding agent firewall: "should not be considered a comprehensive
      security solution".
    """

    code = "CLM001"
    name = "absolute-safety-claim"
    generic = True
    claimed = "absolute safety"
    why = ("No sandbox or control removes all risk from an AI coding agent; vendors and "
           "OWASP (LLM01, LLM06) describe every control as reducing risk, with known limits.")
    instead = ('say what the control narrows and list its limits, e.g. "The sandbox reduces '
               'what a compromised agent can reach; remaining risks are ...".')
    patterns = (
        pattern(r"\b(?:safe|secure)[- ]by[- ](?:default|design|construction)\b"),
        pattern(r"\b(?P<t>(?:fully|completely|totally|entirely|perfectly|absolutely|inherently|"
                r"100\s?%|100 percent|one hundred percent|utterly|thoroughly|always|wholly|"
                r"unconditionally|categorically|provably|unreservedly)"
                r"\s+(?:safe|secure|protected|risk[- ]free|harmless|trustworthy|"
                r"hardened against (?:all|every|any)))\b"),
        pattern(r"\b(?P<t>(?:zero|no)[- ](?:security )?risks?)\b"),
        # an adjective of degree between: "presents no residual risk", "zero meaningful risk"
        pattern(r"\b(?P<t>(?:zero|no)\s+(?:residual|remaining|real|meaningful|material|practical|"
                r"measurable|appreciable|significant|conceivable|additional|further)\s+"
                r"(?:security\s+)?risks?)\b"),
        pattern(r"\b(?P<t>(?:zero|no)\s+(?:security\s+)?(?:attack surface|vulnerabilit(?:y|ies)|"
                r"weak(?:ness(?:es)?| points?)|exploitable \w+|"
                r"(?:security|safety) (?:concerns?|issues?|threats?|problems?|dangers?)|"
                r"(?:threats?|dangers?|hazards?) (?:whatsoever|at all)))\b"),
        # the verdict after its noun, as in a label line or table row: "Risk level: zero",
        # "Security: 10/10"
        # (the copula may be left out: "risk level nil, attack surface nil")
        pattern(r"\b(?:(?:residual |overall |security |total )?risks?(?: level| rating| score)?|"
                r"threat level|attack surface|exposure)"
                # what the risk is from may stand between: "Risk from agent execution: nil"
                r"(?:\s+(?:from|of|to|posed by|for)\s+(?:[\w-]+\s+){0,3}?[\w-]+(?=\s*[:=]))?"
                r"(?:\s*(?::|=|\bis|\bare)\s*|\s+)"
                r"(?P<t>zero|none|nil|0(?![.,]\d)\s?%?|non-?existent)(?=\s*(?:[.;,()!]|$))"),
        pattern(r"\b(?:likelihood|chance|probability|odds|possibility)\s+of\s+(?:a\s+)?"
                r"(?:[\w-]+\s+)?(?:compromise|breach|incident|attack|harm|damage|exploit\w*)\s*"
                r"(?::|=|is)\s*(?P<t>zero|none|nil|0(?![.,]\d)\s?%?)(?=\s*(?:[.;,()!]|$))"),
        # a certainty phrase after the adjective: "secure beyond doubt"
        pattern(r"\b(?:safe|secure|protected)\s+beyond (?:any |all )?"
                r"(?:doubt|question|reproach)\b"),
        pattern(r"\b(?:security|safety)(?: level| rating| score| posture)?"
                r"(?:\s+(?:of|for)\s+(?:[\w-]+\s+){0,4}?[\w-]+)?\s*(?::|=|is)\s*"
                r"(?:100\s?%|10/10|10 out of 10|perfect|flawless|absolute|total)"
                r"(?=\s*(?:[.;,()!]|$))"),
        # "agent risk is a thing of the past", "threats are obsolete"
        pattern(r"\b" + WORRIES + r"\b", negated=True,
                requires=r"\b(?:a thing of (?:the past|yesterday)|obsolete|non-?existent|"
                r"gone for good|history now)\b"),
        # "any risk?" answered "None at all." ("Any residual security risk? None.")
        pattern(r"\bany\s+(?:[\w-]+\s+){0,2}?(?:risks?|dangers?|threats?|exposure)"
                r"(?:\s+(?:from|to|of|for|with)\s+[^?;.]{1,40})?\s*\?",
                negated=True),
        # the worry named as a topic question ("Security headaches? A thing of yesterday.")
        pattern(r"\b(?:risks?|dangers?|threats?|headaches|worries|concerns|nightmares|incidents|"
                r"breach(?:es)?|hacks|vulnerabilit(?:y|ies))\s*\?", negated=True,
                requires=r"^\s*(?:[\w-]+\s+){0,2}?[\w-]+\s*\?\s*$"),
        # "agents simply cannot cause trouble", "can't wreak havoc"
        pattern(r"\b(?:cause|causes|do|does|wreak|wreaks|make|makes|create|creates)\s+"
                r"(?:any\s+|real\s+|serious\s+)?(?:trouble|mischief|havoc|problems)\b",
                negated=True, requires=MODAL, topic=SYSTEM),
        # "will never suffer a security incident", "cannot be breached"
        pattern(r"\b(?:suffer|have|experience|face|see)\s+(?:a |any |an )?(?:single )?"
                r"(?:security )?(?:incidents?|breach(?:es)?)\b", negated=True,
                requires=r"\b(?:will|would|can|could|ever)\b|n't\b"),
        pattern(r"\b(?:engineer|design|architect|build|squeez|driv|tak|strip)\w*\s+"
                r"(?:all |the |every |any )?(?:security )?(?:risks?|danger|threats?)\s+"
                r"(?:right |completely |entirely )?out\b"),
        # the need to worry denied ("never have to worry about security", "security you never
        # have to think twice about"): an unconcern idiom is a claim that the risk is gone
        pattern(r"\b(?:have|has|had|need|needs|needed)\s+to\s+(?:ever\s+)?(?:worry|think|fret|"
                r"stress|lose sleep|care|be (?:concerned|worried))\b", negated=True,
                topic=r"\b(?:security|safety|risks?|threats?|attacks?|breach\w*|incidents?|"
                r"hack\w*|compromise)\b"),
        # a rhetorical "What could go wrong?" answered "Nothing."
        pattern(r"\b(?:go|goes|went|going) wrong\b", negated=True, requires=MODAL),
        # "zero worries", "zero exposure": numeric framing of an absent risk (not the
        # greeting "no worries")
        pattern(r"\b(?P<t>zero\s+(?:worries|headaches|sleepless nights|exposure))\b"),
        # "in safe hands", "safe as houses"
        pattern(r"\b(?:in (?:safe|good) hands|safe and sound|safe as houses)\b",
                topic=SYSTEM + r"|\b(?:code(?:base)?s?|repos?|repositor(?:y|ies)|data|you|your)\b"),
        # "there's not a single risk we haven't eliminated"
        pattern(lx.DOUBLE_NEGATIVE + r"(?:eliminat|remov|clos|fix|mitigat|address|neutrali[sz]|"
                r"patch|eradicat)\w*", requires=r"\b(?:risks?|threats?|dangers?|"
                r"vulnerabilit(?:y|ies)|weakness(?:es)?|holes?)\b"),
        # "nothing bad gets in or out"
        pattern(r"\bnothing (?:bad|harmful|malicious|dangerous|nasty|hostile|untoward)\s+"
                r"(?:ever\s+)?(?:gets?|comes?|goes|slips?|(?:can|could|will) (?:ever )?"
                r"(?:get|come|go|slip)|makes? it)\s+(?:in|through|out|past)\b"),
        pattern(r"\b(?P<t>nothing to (?:worry|fear|be (?:concerned|worried)) about|"
                r"no (?:need|reason) to worry|no cause for concern)\b"),
        pattern(r"\b(?P<t>risk[- ]free|worry[- ]free|without (?:any )?risks?|"
                r"nothing (?:bad |harmful |dangerous |"
                r"untoward )?(?:can|could|will|would)(?: ever)? (?:happen|go wrong|occur))\b"),
        # also a fronted noun phrase, as in a headline or bullet ("Total security for ...")
        pattern(r"(?:^\s*|\b(?:a|an|the|offers?|provides?|gives?|ensures?|with|of|delivers?)\s+)"
                r"(?:complete|full|total|absolute|perfect|100\s?%|foolproof|airtight)\s+"
                r"(?:protection|security|safety)\b"),
        pattern(r"\b(?:bullet[- ]?proof|unhackable|impenetrable|fool[- ]?proof|invulnerable|"
                r"uncompromis(?:e)?able|ironclad|iron[- ]clad|unbreakable|hack[- ]?proof|"
                r"attack[- ]?proof|infallible|airtight|watertight|unassailable|impregnable|"
                r"breach[- ]?proof|exploit[- ]?proof)\b"),
        pattern(r"\b(?P<t>(?:eliminat\w*|remov\w*|eradicat\w*)\s+(?:all |any |every )?(?:the )?"
                r"(?:security )?(?:risks?|threats?|danger|attack surface))\b"),
        pattern(r"\bguarantee(?:s|d|ing)?\b", before_only=True,
                # a verb, not the noun of a heading ("Guarantees", "the guarantees are ...")
                requires=r"\b(?:we|it|they|is|are|was|were|be|been|will|would|can|cannot|could|"
                r"should|must|does|do|did|has|have|fully|absolutely)\b"
                # a reduced passive in a headline: "Security guaranteed."
                # (or before its complement clause: "controls virtually guarantee | that ...")
                r"|(?:\w+ly\s+guarantee[sd]?|\w+s\s+guarantee|\b(?:it|this|that|which)\s+guarantees|"
                r"\w+\s+guarantees)\s*$"
                r"|\b(?:security|safety|protection)\s+guaranteed\b|\bguarantee[sd]?\s+"
                r"(?!(?:are|were|is|was|of|for|in|listed|below|above|and|or|we|you|they|"
                r"include|section)\b)\w+",
                unless=r"\b(?:the|our|these|those|its|their|your|any|some|a|no|of|such)\s+"
                r"guarantees?\b"
                # a service-level promise ("we guarantee a first response within two days")
                r"|\bguarantee[sd]?\s+(?:[\w.%-]+\s+){0,3}?(?:response|responses|uptime|availability|"
                r"refunds?|support|delivery|repl(?:y|ies)|acknowledg\w+|turnaround|sla|"
                r"service levels?|credits?|money[- ]back|compensation)\b"),
        pattern(r"\b(?:is|are|be|makes?|made|keeps?|remains?|stays?|being)\s+(?:the \w+ |it |"
                r"them |agents? |everything |you |us |your \w+ )?(?:safe|secure|harmless)\b"
                # ("safe to open": a file handed over by a check, not a safe system)
                r"(?!\s*(?:against|from|to (?:say|assume|conclude|ignore|open|parse|load|read|"
                r"unzip|extract|import|delete|remove)\b|for\b|enough|than))",
                topic=SYSTEM + r"|\b(?:pull requests?|prs?|changes?|commits?|code|output)\b",
                unless=r"\bsafer\b|\bmore secure\b"),
        pattern(r"\b(?:harm|harmed|damage|damaged|hurt|endanger|endangered|hack|hacked|compromise|"
                r"compromised|breach|"
                r"breached|exploit|exploited|misuse|abuse)\b", negated=True, requires=MODAL,
                # the harm in a relative clause of a coverage denied: "does not cover every
                # destination the agent could misuse"
                unless=r"\b(?:not|n't)\s+(?:cover|list|include|block|catch|stop)\s+(?:every|all|each)\b"),
        pattern(r"\b(?:at risk|in danger|endangered|vulnerable)\b", negated=True,
                requires=MODAL + r"|\b(?:is|are|am|be|stays?|remains?)\s+never\b"),
        # "cannot do anything harmful", "can do nothing dangerous"
        pattern(r"\b(?:do|cause|run|execute|perform|break)\s+(?:anything|something|nothing)\s+"
                r"(?:harmful|dangerous|malicious|bad|damaging|destructive|risky|unsafe|nasty|"
                r"untoward|catastrophic)\b", negated=True),
        pattern(r"\b(?:protected|hardened|secured?|safe|immune|defended|resilient|invulnerable|"
                r"shields?|shielded|protects?|guards?|defends?)\s+(?:[\w-]+\s+){0,2}?"
                r"(?:against|from|to)\s+(?:all|every|any)\s+(?:[\w-]+\s+){0,3}?(?:attacks?|threats?|"
                r"exploits?|risks?|vulnerabilit(?:y|ies)|compromises?|attackers?)\b"),
        # the incident denied as an event: "security incidents simply cannot happen"
        pattern(r"\b(?:(?:security|safety) (?:incidents?|breach(?:es)?|events?|failures?|problems?|"
                r"issues?)|breach(?:es)?|compromises?|incidents?|attacks?)\s+(?:[\w'-]+\s+){0,3}?"
                r"(?:happen|occur|arise|take place|succeed)\b", negated=True,
                requires=MODAL + r"|\bnever\b"),
        # "nothing bad can come of it"
        pattern(r"\b(?P<t>nothing (?:bad|harmful|dangerous|untoward|good)\s+(?:can|could|will|"
                r"would)"
                r"(?: ever)? come (?:of|from|out of))\b"),
        # every worry closed, in either order: "every attack vector has been closed off",
        # "we have shut every hole", "all threats are neutralised"
        pattern(r"\b(?:every|all|each|any)\s+(?:(?:the|of the|single|possible|"
                r"known and unknown)\s+)?"
                r"(?:[\w-]+\s+)?" + VECTORS + r"\b(?:\s+[\w'-]+){0,4}?\s+(?:has|have|is|are)\s+"
                r"(?:been\s+)?(?:\w+ly\s+)?" + CLOSED + r"\b"),
        pattern(r"\b" + CLOSED + r"\s+(?:off\s+|up\s+|down\s+)?(?:every|all|each|any)\s+"
                r"(?:(?:the|of the|single|possible)\s+)?(?:[\w-]+\s+)?" + VECTORS + r"\b"),
        # "security is a solved problem", "safety: solved"
        pattern(r"\b(?:(?:agent |ai |cyber ?)?security|safety)\s+(?:is|becomes|has become)\s+"
                r"(?P<t>(?:a |an )?(?:solved|non-?issue)(?: problem| issue| question)?)\b"),
        # a universal extent after the adjective: "secure in every respect"
        pattern(r"\b(?:safe|secure|protected)\s+(?:in (?:every|all) (?:respects?|ways?|senses?|"
                r"cases?|circumstances|scenarios?)|on every front|from every angle|"
                r"(?:at|for) all times|under all (?:circumstances|conditions))\b",
                topic=SYSTEM),
    )
