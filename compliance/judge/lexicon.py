"""The judge's word lists, as compiled patterns over lower-cased sentence text.

Every pattern here is about sentence structure, not about one family:
negators and the operators that negate what follows ("prevents", "immune
to"), hedges that really weaken a claim, restrictors that make a universal
claim partial, answer tokens, reporting and mention frames, and the cue words
that turn a quoted phrase into a mention. Families' own words live with their
rules in compliance/rules/claims/.
"""

from __future__ import annotations

import re

from compliance.judge.lazyre import lazy


def _re(pattern: str) -> re.Pattern[str]:
    # texts are lower-cased first (see analysis.normalise); compiled when first used
    return lazy(pattern)


#: An intensifier set off mid-sentence ("are, for all practical purposes, shielded"): it
#: weakens nothing, so analysis.normalise blanks it with its commas and the predicate
#: reads as if it were not there.
INTENSIFIER_ASIDE = _re(
    r",?\s*\b(?:for all (?:practical|intents and) purposes|to all intents and purposes|"
    r"in (?:all|every) (?:practical|meaningful) (?:sense|respect)|in effect|for practical purposes|"
    r"to all practical effects?)\b\s*,?(?=\s)"
    # a one-word intensifier between commas ("captures, essentially, every byte")
    r"|,\s*\b(?:essentially|effectively|basically|practically|virtually|in essence)\s*,(?=\s)"
)

#: A one-word intensifier before a predicate ("is effectively untouchable", "Effectively
#: agent has no way to ..."): it weakens nothing, so analysis.normalise blanks it too.
INTENSIFIER_WORD = _re(r"\b(?:effectively|essentially|practically|virtually|basically)\b(?! ,)")

#: A questionnaire's choice list before its colon ("(Y/N):", "(High/Med/Low/None):"): the
#: options are not the answer, so analysis.normalise blanks them.
OPTION_LIST = _re(r"\((?:\s*[\w-]{1,8}\s*/){1,5}\s*[\w-]{1,8}\s*\)(?=\s*:)")

#: Frequent misspellings of the same length as the word meant, and that word (spelling
#: slips that change the length, "acess" or "enviroment", are not corrected: offsets into
#: the original text must stay valid).
SPELLING = {"recieve": "receive", "recieves": "receives", "recieved": "received",
            "seperate": "separate", "seperated": "separated", "seperately": "separately",
            "seperation": "separation", "definately": "definitely", "gaurantee": "guarantee",
            "gauranteed": "guaranteed", "gaurantees": "guarantees", "acheive": "achieve",
            "beleive": "believe", "independant": "independent", "isloated": "isolated",
            "isloation": "isolation", "enviornment": "environment", "sandobx": "sandbox"}
assert all(len(k) == len(v) for k, v in SPELLING.items())
MISSPELLED = _re(r"\b(?:" + "|".join(sorted(SPELLING, key=len, reverse=True)) + r")\b")

#: A hundred per cent in words or with "per cent" (analysis.normalise rewrites it "100%").
PER_CENT = _re(r"\b(?:(?:one|a)[- ])?(?:hundred|100)[- ]?per[- ]?cent\b")

#: Words and operators that reverse the polarity of what they scope over.
NEGATOR = _re(
    r"\b(?:not|no|never|none|nothing|nobody|nowhere|neither|nor|cannot|zero|unable|"
    r"incapable|"
    r"far from|(?:the )?opposite of|anything but|"
    r"a thing of (?:the past|yesterday)|(?:ancient )?history now|gone for good|obsolete|"
    # the numeric framing of "none" ("escape risk: nil"), and the questionnaire verdict
    # "N/A" ("Sandbox breakout: N/A")
    r"nil|(?<=: )n/a|(?<=:)n/a|out of the question|unthinkable|"
    r"harmless|ineffective|toothless|powerless|useless|futile|ignored|disregarded|discarded|"
    r"inert|defanged|neutered|non-?existent|solved|(?:a )?non-issue|moot|off[- ]limits|"
    # the other forms of verbs listed as participles ("ignored" -> "ignores")
    # (not an argument overlooking something: "this ignores a concrete exfiltration vector")
    r"(?:ignores?|ignoring)(?! (?:an? |the )?(?:[\w-]+ ){0,2}?(?:vectors?|risks?|threats?|issues?|"
    r"problems?|facts?|possibilit\w+|cases?|gaps?|channels?|paths?)\b)|"
    r"disregards?|disregarding|discards?|discarding|"
    r"shuts? down|shutting down|clos(?:e|es|ed|ing) off|shut(?:s|ting)? (?:off|out)|"
    # a universal detection verb denies what it catches ("catches every injection attempt")
    r"(?:catch(?:es)?|caught|intercepts?|intercepted|detects?|detected) "
    r"(?:every|all|each|100\s?% of)|"
    r"a non-starter|off the table|not an option|"
    # deflection and failure idioms: "bounce off the sandbox", "dead on arrival"
    r"bounc(?:e|es|ed|ing) (?:right |straight |harmlessly )?off|dead on arrival|"
    r"out of (?:the |its |their |our |your )?(?:\w+(?:'s|s')? )?reach|"
    # "beyond the agent's reach", "beyond its grasp", "beyond the reach of any tampering"
    r"beyond (?:the |its |their |our |your |any )?(?:\w+(?:'s|s')? )?(?:reach|grasp)|"
    r"stripped out|filtered out|"
    # removed on the way in: "is stripped before the model ever sees it"
    r"(?:stripped|scrubbed|filtered|sanitis|sanitiz|removed|purged|cleaned)(?:ed)? "
    r"(?:(?:out|away|off) )?(?=before|prior to|ahead of)|"
    r"beyond(?= (?:(?:any|all) )?(?:(?:possibility|chance|hope|risk|threat|"
    r"danger|prospect) of )?(?:tamper|manipulat|alter|modif|compromis|attack|bypass|"
    r"circumvent|escape|forg|edit|delet|breach|escap))|"
    # "resistant to all known and unknown techniques": resistance made universal
    r"resistant to (?:all|every|any)|"
    # removing the need for something denies the need ("removes the need for review")
    # (or the chance of it: "removes any chance of a data leak")
    r"(?:remov|eliminat)(?:e|es|ed|ing) (?:the |any |all )?(?=need|chance|possibility|likelihood|"
    r"opportunit)|obviat(?:e|es|ed|ing)|"
    # ("removing the CODEOWNERS requirement for agent PRs", "waives the approval requirement")
    r"(?:remov|eliminat|drop|waiv|scrap|lift)(?:e|es|ed|ing|s|ped|ping)? (?:the |any |all )?"
    r"(?:[\w-]+ )?(?=requirements?\b)|"
    # a mitigation made total after its verb ("prompt injection: mitigated entirely")
    r"mitigat(?:e|es|ed|ing) (?:entirely|fully|completely|totally|in full)|"
    r"(?:fully|completely|entirely|totally) (?:mitigat\w+|solv\w+|address\w*|neutrali[sz]\w+)|"
    r"impossible|impossibility|infeasible|unfeasible|prevents?|prevented|preventing|prevention|"
    # (not the aspect verb: "we stopped describing the pipeline as ...", "a session that
    # stops sending"; "stops incoming connections" is the negator)
    r"(?:stops?|stopped|stopping)(?! (?!(?:incoming|outgoing|ongoing|existing|following|"
    r"remaining|upcoming|pending|anything|everything|nothing|something)\b)\w+ing\b)|blocks?|blocked|blocking|eliminates?|eliminated|eliminating|immune|impervious|"
    r"invulnerable|rules? out|ruled out|prohibits?|prohibited|forbids?|forbidden|precludes?|"
    r"precluded|defeats?|defeated|neutrali[sz]es?|neutrali[sz]ed|thwarts?|thwarted|"
    # verbs of disarming and repelling ("defuses every injection", "wards off any attack")
    r"defus(?:e|es|ed|ing)|disarm(?:s|ed|ing)?|foil(?:s|ed)?|repel(?:s|led|ling)?|"
    r"(?:ward|fend)(?:s|ed|ing)? off|nullif(?:y|ies|ied)|"
    r"protects? (?:\w+ ){0,3}?(?:against|from)|protected (?:against|from)|"
    r"(?:shields?|guards?|safeguards?) (?:\w+ ){0,3}?(?:against|from)|"
    r"protection (?:against|from)|"
    r"defends? against|safe from|secure against|free (?:of|from)|inaccessible|unreachable)\b"
    r"|n['\u2019]t\b"
    # the numeral as a determiner ("0 escapes possible") is "no"
    r"|0(?<![\w.,/]0)(?= [a-z])"
    # a spreadsheet's "N" after a label ("Data leaving the environment (Y/N): N")
    r"|(?<=:)\s*\bn\b(?=\s*(?:[-,.;(]|$))"
)

#: A heading label naming a kind of control ("Backdoor Prevention:", "**Exfiltration
#: protection** -"): its negator names the control; it does not negate what follows.
CONTROL_LABEL = _re(
    r"^[\s*_#>+-]*(?:[\w'-]+\s+){0,3}?(?:prevention|protection|blocking|defen[cs]e)"
    r"[\s*_]*(?=[:\u2014\u2013]|\s-\s)")

#: Phrases containing a negator that do not negate anything ("without exception").
_NEUTRAL_BODY = (
    r"\bwithout (?:any )?exceptions?\b|\bno exceptions?\b|\bno matter\b|\bnot only\b|"
    r"\bno doubt\b|\bwithout fail\b|\bwithout question\b|\bif not all\b|\bnot just\b|"
    # completeness, not negation: "logged without any gaps", "full stop"
    r"\bwithout (?:any )?(?:gaps?|missing|omissions?|loss|holes?)\b|\bfull stop\b|"
    r"\bbar none\b|"
    # a verb of stopping restricted to a subset names what it covers: "blocks only
    # high-confidence injection attempts"
    r"\b(?:blocks?|stops?|catch(?:es)?|detects?|flags?|filters?|prevents?)\s+only\b|"
    # completeness declared impossible is a limit, not the negation of a claim: "you cannot
    # enumerate every malicious domain", "no one can anticipate all injection strings"
    r"\b(?:cannot|can't|can not|could never|can never|impossible to|no way to|"
    r"(?:no one|no-one|nobody|no (?:\w+ )?(?:tool|filter|list|scanner|vendor|team|human))\s+"
    r"(?:can|could|will)(?:\s+ever)?)\s+"
    r"(?:ever\s+)?(?:fully\s+|reliably\s+)?(?:enumerate|list|anticipate|predict|foresee|"
    r"catalog(?:ue)?|know|track|keep up with|think of|imagine|write down|spell out)\s+"
    r"(?:every|all|each)\b|"
    # a start date, not "protection from" a threat ("airtight protection from day one")
    r"\bfrom (?:day (?:one|1)|the (?:start|outset|get-go|beginning|first day))\b|"
    # "does nothing about X" denies an operator, not the threat X
    r"\b(?:do|does|did|doing) (?:little or )?nothing (?:about|against)\b|"
    r",\s*not even\b|"
    # contrast, not negation: "dangerous not because of the prompt", "the concern addressed
    # is accidental damage, not sophisticated attacks or data exfiltration"
    r"\bnot because\b|,\s*not (?=(?:just |only |merely )?(?:sophisticated|targeted|deliberate|"
    r"malicious|determined|skilled|advanced)\b)|"
    # prepositional negation modifies its own noun ("a runner pool with no credentials")
    r"\bwith (?:no|zero)\b(?!\s+(?:way|escape|path|route|chance|possibility|means|exposure|"
    r"access|visibility|risk|leak\w*|gaps?|blind spots?|holes?|loopholes?))|\bnothing to chance\b|"
    # a fused "no risk" is a claim word of its own, not a negator of its neighbours
    r"\b(?:zero|no)[- ](?:security )?risks?\b(?!\s+(?:of|that|to)\b)|"
    r"\bwithout (?:any )?risks?\b(?!\s+(?:of|that|to)\b)|"
    # a network premise ("no internet access") is not the negation of the conclusion
    r"\b(?:no|without|zero|disabl\w*|block\w*|cut off|cuts off)[\s-]+(?:\w+\s+){0,2}?"
    r"(?:internet|network|egress|outbound|connectivity|web access|net access|the web)\b|"
    r"\b(?:internet|network|egress|outbound|connectivity)"
    r"(?: access| traffic| connections?| requests?| calls?)?\s+(?:is |are )?"
    r"(?:off|disabled|blocked|denied|cut|turned off|not available|unavailable)\b|"
    r"\bno (?:access to|connection to) the (?:internet|network)\b|"
    # an absence as the subject of a negated causal verb ("No write access for the agent does
    # not make review optional", "Having no merge rights doesn't mean ..."): the "no" names
    # the absence; only the verb's negation scopes over the predicate
    r"\bno(?<![\w'] no)(?=\s+(?:[\w/'-]+\s+){1,5}?(?:does|do|did)(?:n't|\s+not)\s+"
    r"(?:make|mean|imply|justify|excuse|remove|replace|eliminate|guarantee|change|equal)\b)"
)
#: The first character of every alternative above, checked before trying them all: this
#: makes the search about twice as fast and changes no match (tests/rules/claims/
#: test_lexicon_prefilter.py compares it with the bare alternatives). Extend it when an
#: alternative starts with another character.
NEUTRAL_FIRST = "wnif,zdbceofsp"
NEUTRAL = _re(r"(?=[" + NEUTRAL_FIRST + r"])(?:" + _NEUTRAL_BODY + r")")

#: Hedges that really weaken what they govern. Intensifiers ("essentially",
#: "virtually", "for all practical purposes") are deliberately absent.
HEDGE = _re(
    # (the word boundary first: lookbehinds tried at every position are slow)
    r"\b(?<!fully )(?<!completely )(?<!entirely )(?<!totally )(?<!off-)(?<!off )"
    r"(?:reduc(?:e|es|ed|ing|tion)|lower(?:s|ed|ing)?|narrow(?:s|ed|ing)?|"
    # ("resource limits" is a noun, not a verb that narrows)
    r"(?<!resource )(?<!rate )(?<!memory )(?<!cpu )(?<!time )(?<!usage )(?<!quota )"
    r"limit(?:s|ed|ing)?|"
    r"mitigat(?:e|es|ed|ing)(?! (?:entirely|fully|completely|totally|in full)\b)|"
    r"minimi[sz](?:e|es|ed|ing)|"
    r"help(?:s|ed|ing)?|designed to|intended to|aims? to|aimed at|meant to|tr(?:y|ies|ied) to|"
    r"(?:built|engineered|architected) to|"
    r"(?<!any )(?<!every )(?<!all )(?<!from )(?<!against )(?<!malicious )(?<!hostile )"
    r"attempts? to|harder|more difficult|less likely|unlikely|"
    r"partial(?:ly)?|partly|mostly|largely|"
    # a condition around the predicate ("is only hidden from the agent if ...") and a bound
    # by comparison ("only as complete as our knowledge")
    r"only (?:as [\w-]+ as|(?:[\w-]+ ){1,6}?(?:if|when|while|as long as|provided)\b)|"
    r"most(?! (?:secure|safe|comprehensive|complete|robust|advanced|thorough|effective|"
    r"reliable|rigorous|powerful))|many|often|usually|typically|generally|may|might|"
    r"decreas(?:e|es|ed|ing)|constrain(?:s|ed|ing)?|restrict(?:s|ed|ing)?|"
    r"improv(?:e|es|ed)|strengthen(?:s|ed)?|lessen(?:s|ed)?|curb(?:s|ed)?|some|fewer|"
    r"less|in most cases|where possible|to the extent|best[- ]effort|"
    r"(?<!every )(?<!all )(?<!any )(?<!unknown or )(?<!unknown and )"
    r"known(?! or unknown| and unknown)|"
    r"common|partly|"
    r"where (?:the )?\w+ (?:allows?|supports?|permits?)|wherever|"
    r"obvious|certain kinds of|shrinks?|bounds?(?! for\b)|caps?|contains the)\b"
    # a hedge verb with an absolute endpoint is not a hedge ("reduced to zero")
    r"(?!\s+(?:[\w-]+\s+){0,2}?to\s+(?:zero|nil|nothing|none|0)\b)"
    # a share below 100% is partial by its own number ("99.9% of attempts were blocked")
    r"|(?<![\w.])(?:[1-9]\d?(?:\.\d+)?|0\.\d+)\s?%"
)

#: After a universal claim, these make it partial ("except through the model API").
RESTRICTOR = _re(
    r"\b(?:except|excepting|other than|apart from|aside from|besides|unless|until|"
    # ("outside of X" is an exception, "anything outside of it" a place)
    r"(?<!anything )(?<!everything )(?<!nothing )outside of|"
    r"but for|short of|barring|save for|beyond what|only after|once approved|without (?:\w+ )?"
    r"(?:approval|review|consent|permission|sign[- ]?off|a maintainer|a human|authori[sz]ation))\b"
    r"|\b(?:can|could|may|might|will|would|do|does)\s+still\b"
    r"|\bwith (?:some |occasional |known |documented |the odd )?(?:gaps?|holes?|omissions?)\b"
    r"|\bto (?:hosts|domains|destinations|sites|servers)\b(?:\s+\w+){0,2}?\s+(?:not|outside|off)\b"
    # a condition the claim holds under ("cannot read secrets only if they are not in its
    # environment", "as long as the vault is configured")
    r"|\bonly (?:if|when|while|where|as long as|provided)\b"
    r"|\bmake (?:it|that|this|them|such \w+) (?:less likely|harder|more difficult|rarer)\b"
    # a restriction to the direct route ("stops it pushing workflow files directly")
    r"|\bdirectly\b(?! or indirectly)"
    # a contrastive noun phrase after the predicate ("removes one path ..., not the others")
    r"|,\s*not\s+(?:the|its|their|our|all|every|each|any|those|these|other|others)\b"
    r"(?!\s+(?:single|one)\b)"
)

#: A bare yes/no answer at the start of a sentence ("No, ..."; "Yes.").
ANSWER = _re(
    r"^\s*(?:(?:a|answer)\s*[:.)]\s*)?"
    r"(?P<a>yes|yep|y|n|correct|absolutely not|absolutely|definitely not|definitely|certainly|"
    r"indeed|of course|always|completely|fully|entirely|totally|no chance|none can|"
    r"not in (?:our|this|the) (?:environment|setup|case|sandbox)|not here|"
    # an elliptical denial by a place or watch ("Not on our watch.", "Not from this box.")
    r"not (?:on|from|in|with|under|at|inside|past) (?:our|this|the|my|your|these) [\w-]+|"
    r"(?:(?:that|it|this) )?never (?:happens|happened|occurs|will)|"
    # a one-word answer to a wh-question ("What could leak? Nothing.")
    r"(?:nothing|nobody|no one)(?=(?:\s+(?:whatsoever|at all))?\s*(?:[.!]|$))|"
    r"none (?:exists?|remains?)|no|nope|none|never|not at all|no way|not really|not possible|"
    # idioms of flat refusal ("Not a chance.", "Not in a million years.", "Never ever.")
    r"not a (?:chance|hope|prayer)|fat chance|(?:zero|no) chance|not in a million years|"
    r"under no circumstances|never ever|not ever|not once|no way,? no how|"
    # an outcome word answering a threat named as a topic ("Prompt injection? Solved.",
    # "Consider it handled.", "A thing of the past.")
    r"(?:consider it )?(?:solved|handled|sorted|dealt with|taken care of|eliminated|gone)|"
    r"a solved problem|neutrali[sz]ed|gone for good|(?:ancient )?history|"
    r"a thing of (?:the past|yesterday)|nil|zero|"
    # an outcome of reach ("Unlisted domains? Unreachable.")
    r"unreachable|inaccessible|off[- ]limits|out of reach|"
    r"not an? (?:problem|concern|risk|issue|threat)(?: for us)?|no problem|a non-issue|"
    r"impossible|there (?:is|are) (?:none|no way|nothing)|not (?:by|for|to) (?:anyone|anybody)|"
    r"(?:it|they|we|this|that|he|she) (?:does|do|is|are|can|will|has|have|did|was|were)"
    r"(?: not|n't)?|(?:it|they|we|this|that) (?:cannot|can't|won't|isn't|aren't|doesn't|don't))"
    # a hyphen joined to the next word is a compound ("No-one"), not a dash
    # (a short place or time after the answer: "A thing of yesterday with our runtime.")
    r"(?:\s+(?:whatsoever|at all|here|ever|today|now|anymore|any more|these days|for good|"
    r"(?:with|for) (?:us|you|our [\w-]+|your [\w-]+|this [\w-]+)))?"
    r"(?=\s*(?:[,.;:!(\u2014\u2013]|-(?![a-z])|$))"
)
NO_ANSWERS = frozenset(
    {"no", "n", "nope", "none", "never", "not at all", "no way", "absolutely not",
     "definitely not", "not really", "not possible", "no problem", "a non-issue", "no chance",
     "none can", "solved", "a solved problem", "handled", "taken care of", "eliminated",
     "neutralised", "neutralized", "nothing", "nobody", "no one", "fat chance", "zero chance",
     "under no circumstances", "never ever", "sorted", "dealt with", "gone", "gone for good",
     "history", "ancient history", "a thing of the past", "a thing of yesterday", "nil", "zero",
     "unreachable", "inaccessible", "off limits", "off-limits", "out of reach"}
)


def answer_is_no(token: str) -> bool:
    """Is a matched answer token a denial ("No", "It does not", "Not a problem")?"""
    t = " ".join(token.split()).removeprefix("consider it ")
    return (t in NO_ANSWERS
            or t.startswith(("not ", "impossible", "there is", "there are", "never ", "that never",
                             "none ",
                             "it never", "this never"))
            or t.endswith((" not", "n't")) or t.endswith(" cannot"))

#: An answer that concedes ("No, but the model connection stays open") is not a bare denial.
CONCESSION = _re(
    r"\b(?:but|however|except|although|though|not (?:entirely|completely|fully|always|quite)|"
    r"partially|partly|in part|mostly|largely|still|limited|caveat|depends)\b"
)

#: Clause boundaries: punctuation, coordinators and subordinators that open a new clause.
BOUNDARY = _re(
    r"[;\u2014\u2013\u2192]|:(?=\s)|\s-{1,2}\s|\s(?=-+>\s|=>\s)|\(|\)"
    # a label's verdict "N/A" ends its clause ("Prompt injection: N/A, agent ignores ...")
    r"|(?<=n/a)(?=,)"
    # (the lookahead first: it fails fast where no comma or space follows)
    r"|(?=[,\s])(?<!\ball)(?<!\banything)(?<!\bnothing)(?<!rule out)(?<!rules out)"
    r"(?<!ruled out)"
    r"(?<!\bin)(?<!\bunder)(?<!\bby)"
    r"(?<!impossible)(?<!precludes)(?<!preclude),?\s+(?=(?:but|yet|so(?! far\b)(?! much as\b)|"
    r"because|b/c|since|"
    r"although|though|whereas|while|which|who|whereby|otherwise|that|and then|as long as|"
    r"provided)\b)"
    r"|\s+(?:and|or)\s+(?=[\"'(]*(?:leaves|makes|keeps|covers|blocks|stops|prevents|ensures|provides|"
    r"gives|captures|records|remains|stays|means|needs|requires|offers|protects|"
    r"is|are|was|were|can|cannot|can't|could|will|won't|would|never|"
    r"does|doesn't|do|don't|has|have|must|should|stays|remains|the|its|their|our|we|it|they|"
    r"there|all|every|no|nothing|none|zero|full|complete|total|absolute)\b)"
    # a second subject with its own verb ("... stops injection and agents cannot escape")
    r"|\s+and\s+(?=[\w-]+s\s+(?:cannot|can't|can|could|will|won't|never|must|are|do|don't)\b)"
)

#: Does a comma-separated piece look like a clause (has a verb or a subject pronoun)?
VERBISH = _re(
    r"\b(?:is|are|was|were|be|been|being|am|has|have|had|do|does|did|can|cannot|could|will|"
    r"would|shall|should|may|might|must|never|we|it|they|i|there|he|she|runs?|stays?|"
    r"remains?|leaves?|makes?|keeps?|provides?|prevents?|stops?|blocks?|captures?|"
    r"records?|needs?|requires?|holds?|sees?|reads?|reaches?|gets?|goes|comes|allows?|"
    r"lets?|means|works|uses?|sends?|receives?|exfiltrates?|escapes?|protects?|ensures?|"
    r"guarantees?|limits?|reduces?|narrows?|helps?|eliminates?|covers?|applies|"
    r"\w+n't|\w{3,}ed)\b"
)

#: The last items of a list after a comma ("..., web page or comment can"): with a verbless
#: piece before it, the list is one subject.
LIST_TAIL = _re(r",\s*(?:[\w'/.-]+\s+){1,3}?(?:or|and|nor)\s")

#: Pronouns that make a clause lean on an earlier one for its topic.
ANAPHOR = _re(
    r"\b(?:it|its|this|that|they|them|these|those|which|their|both|each)\b"
    r"|\bthe (?:raw |actual |plaintext |underlying |secret )?(?:values?|contents?)\b"
)

#: An auxiliary or modal still waiting for its verb ("cannot, under any circumstances,").
OPEN_AUX = re.compile(
    r"(?s:.*)\b(?:can|cannot|can't|could|will|won't|would|should|must|may|might|does|do|did|doesn't|"
    r"don't|didn't|not|never)\b(?P<rest>[^.;]*)$"
)

#: Frames whose complement is mentioned, not asserted. Each match opens a region
#: that runs to the end of the clause group (until a contrastive boundary).
NOT_ASSERTED_FRAMES = tuple(_re(p) for p in (
    # negated reporting or commitment: "we do not claim", "never say", "does not mean"
    # (every alternative starts with "n" or "c": checked first, for speed)
    r"(?=[nc])(?:\bnot|\bcannot|n['\u2019]t|\bnever|\bno one|\bnobody|\bnor)\s+(?:\w+\s+){0,2}?"
    r"(?:claim(?:s|ed|ing)?|say(?:s|ing)?|said|state[sd]?|assert(?:s|ed)?|promis(?:e|es|ed)|"
    r"suggest(?:s|ed)?|impl(?:y|ies|ied)|mean(?:s|t)?|represent(?:s|ed)?|"
    r"advertis(?:e|es|ed)|describ(?:e|es|ed)|call(?:s|ed)?|tell(?:s)?|told|pretend(?:s|ed)?|"
    # ("never gets write access" is a permission, not a report)
    r"market(?:s|ed)?|write(?! (?:access|permissions?|rights?|privileges?|to)\b)|wrote|"
    r"consider(?:ed)?|regard(?:ed)?|guarantee[sd]?|"
    r"confident|sure|certain|convinced|"
    r"ensure[sd]?|certif(?:y|ies|ied)|warrant(?:s|ed)?|assure[sd]?|imply that|"
    # "it does not follow that" (not "will never follow injected instructions")
    r"follow(?=\s+(?:that|from)\b|\s*[.,;!]|\s*$)|"
    # "is not proof that", "does not show that": evidence that is denied asserts nothing
    r"proof|evidence|prove[sdn]?|show[sn]?|demonstrate[sd]?|report(?:s|ed)?|"
    r"confirm(?:s|ed)?|attest(?:s|ed)?|establish(?:es|ed)?)\b",
    # embedded questions: "ask whether", "unclear if"
    r"\b(?:ask(?:s|ed|ing)?|wonder(?:s|ed|ing)?|question(?:s|ed)?|quer(?:y|ies|ied)|unclear|"
    r"unsure|not sure|check(?:s|ed)?|verify|verif(?:ies|ied)|test(?:s|ed)?|know|confirm)"
    r"\s+(?:\w+\s+){0,3}?(?:whether|if)\b|\bwhether\b",
    # somebody else's belief or statement: "customers sometimes assume", "vendors claim"
    r"\b(?:some|many|several|customers?|clients?|people|vendors?|users?|auditors?|"
    r"competitors?|critics?|prospects?|buyers?|they|others|salespeople|marketing|brochures?|"
    r"analysts?|journalists?|regulators?|someone|anyone|questionnaires?)\b(?:\s+\w+){0,3}?\s+"
    r"(?:claim(?:s|ed)?|say|says|said|believ(?:e|es|ed)|think(?:s)?|thought|assum(?:e|es|ed)|"
    r"argu(?:e|es|ed)|suggest(?:s|ed)?|expect(?:s|ed)?|ask(?:s|ed)?|worr(?:y|ies|ied)|"
    r"fear(?:s|ed)?|insist(?:s|ed)?|promis(?:e|es|ed)|advertis(?:e|es|ed)|describ(?:e|es|ed)|"
    r"call(?:s|ed)?|writ(?:e|es)|wrote|hope(?:s|d)?|imagin(?:e|es|ed)|want to hear)\b",
    # denial: "it is a myth that", "it would be misleading to say", "we avoid saying"
    r"\b(?:myth|misconception|misunderstanding|fallacy|false|untrue|wrong|incorrect|mistaken|"
    r"misleading|inaccurate|overclaim|overstat\w+|not true|not the case|avoid(?:s|ed)?|"
    r"refus(?:e|es|ed)|ban(?:s|ned)?|forbid(?:s|den)?|withdr(?:aw|awn|ew)|reject(?:s|ed)?|"
    r"dispute[sd]?|naive|dishonest|irresponsible)\b(?:\s+\w+){0,3}?\s+"
    r"(?:that|to (?:say|claim|suggest|state|promise|imply|assume|think|believe|write)|saying|"
    r"claiming|suggesting|stating|promising|implying|assuming|writing|"
    r"the (?:claim|idea|notion|assumption|statement|belief|phrase|wording)s?)\b",
    # a document's past wording: "in 2025 our documentation said secrets were hidden"
    r"\b(?:documentation|docs|(?:web )?pages?|website|site|faq|deck|slides?|brochures?|readme|"
    r"wiki|datasheet|release notes|copy|draft|version|edition|questionnaires?|answers?)\b"
    r"(?:\s+\w+){0,3}?\s+"
    r"(?:said|stated|claimed|promised|described|called|read|answered|wrote|"
    r"used to (?:say|claim|state))\b",
    # a commitment denied by a negative subject: "no layer of our defence guarantees that ..."
    # (not a network premise: "no internet guarantees ..." is the claim itself)
    r"^\s*(?:nothing|no\s+(?!internet|network|egress|outbound|connectivity|web)[\w-]+|none of)"
    r"(?:\s+[\w'-]+){0,6}?\s+(?:guarantees?|ensures?|promises?|certifies|warrants)\b",
    # a disclaimer: "nothing here should be read / construed as a promise that ..."
    r"\b(?:nothing|no (?:part|statement|sentence|word)s?)\b[^.;]{0,60}?\b(?:read|taken|"
    r"understood|construed|interpreted|treated|seen)\s+as\s+(?:a |an |any )?(?:promise|"
    r"guarantee|warranty|representation|assurance|claim|commitment|statement)s?\b",
    # a belief the writer marks as mistaken: "we had wrongly believed secrets were hidden"
    r"\b(?:wrongly|mistakenly|falsely|incorrectly|naively|erroneously)\s+(?:\w+\s+)?"
    r"(?:believ\w*|assum\w*|thought|think\w*|claim\w*|said|stated|told|concluded)\b",
    # "the claim that", "the idea that"
    r"\b(?:claim|claims|idea|notion|assumption|belief|impression|statement|statements|"
    r"suggestion|myth|misconception|assertion|premise)\s+that\b",
    # a requirement or wish with an object and an infinitive ("customers who need code
    # never to leave their premises", "teams that want the logs to be complete"): the
    # object's predicate is what someone needs, not what is (the region starts at the object)
    r"\b(?:needs?|needed|wants?|wanted|requires?|required|demands?|demanded|wish(?:es)?|"
    r"would like|prefers?|insists? on)(?=\s+(?:[\w'-]+\s+){1,3}?(?:never\s+|not\s+)?to\s)",
    # "statements such as", "phrases like"
    r"\b(?:statements?|phrases?|claims?|words?|terms?|wording|language|expressions?|slogans?|"
    r"taglines?|promises?|labels?|descriptions?|sentences?)\b(?:\s+\w+){0,2}?\s+"
    r"(?:such as|like|including)\b",
    # what a standard, an auditor or a customer requires ("SOC 2 requires immutable audit
    # trails", "auditors expect complete logs"): a requirement, not a description
    r"\b(?:soc ?2|iso(?: ?\d{4,5})?|compliance|regulations?|regulators?|auditors?|audits?|"
    r"standards?|frameworks?|gdpr|hipaa|pci(?:[- ]dss)?|fedramp|nist|the law|laws?|"
    r"customers?|enterprises?|buyers?|insurers?|questionnaires?|certifications?)"
    r"(?:\s+[\w'-]+){0,3}?\s+(?:requires?|required|demands?|mandates?|expects?|"
    r"calls? for|asks? for|insists? on)\b",
))

#: Conditionals and hypotheticals: the region runs only to the next comma.
CONDITIONAL = _re(
    r"\b(?:if|even if|unless|suppose|supposing|assuming|in case|as though|as if|were it)\b"
)

#: The standard of a comparison is not asserted ("slower than skipping review"); the
#: region runs to the next comma, colon or contrast. "Nothing less than", "other than"
#: and "rather than" are left to the restrictor and forward-negator lists.
COMPARISON = _re(
    r"\bthan\b(?<!rather than)(?<!other than)(?<!no less than)(?<!no more than)"
    r"(?<!nothing less than)(?<!nothing more than)"
    # an equative's standard too ("as isolated as an air-gapped machine"); not the
    # fixed phrases "as well as", "as long as", "as good as" (= virtually), ...
    r"|\bas (?!(?:well|long|soon|far|much|many|little|few|often|good|close|near|early|late|"
    r"quickly|fast|is|are|it|if|to|of|a|an|the)\b)[a-z][\w-]* as\b"
)

#: A subject clause ("The fact that the agent cannot merge does not make ...", "Just
#: because it cannot merge doesn't mean ...") carries its own negation: it is cut off
#: before the main verb, the second finite verb group of the clause.
SUBJECT_CLAUSE = _re(r"\s*(?:the (?:mere |simple )?fact (?:that )?|just because |that |because )")
SUBJECT_CLAUSE_LEAD = _re(r"\s*(?:the (?:mere |simple )?fact|just)?\s*")
FINITE = _re(
    r"\b(?:can(?:not)?|can't|could(?:n't)?|does(?:n't)?|do(?:n't)?|did(?:n't)?|is(?:n't)?|"
    r"are(?:n't)?|was(?:n't)?|were(?:n't)?|will|won't|would(?:n't)?|has(?:n't)?|have(?:n't)?|"
    r"must|should|makes?|means?|implies)\b"
)

#: Cue words that make a quoted phrase a mention rather than a use.
META = _re(
    r"\b(?:phrases?|terms?|words?|wording|language|statements?|claims?|claimed|claiming|"
    r"slogans?|expressions?|taglines?|headlines?|say|says|said|saying|describ(?:e|es|ed|ing)|"
    r"call(?:s|ed|ing)?|label(?:s|led|ed)?|marketing|appear(?:s|ed)?|banned|avoid(?:s|ed)?|"
    r"withdrawn|retired|quote[sd]?|copy|so-called|dubbed|write|wrote|written|ask(?:s|ed)?|"
    r"question|mean(?:s|t)?|stated?|states|according|advertised|advertises|overclaims?|"
    r"examples?|rejects?|flags?|flagged|catches|wording|lines?|sentences?|removed|deleted|"
    r"struck|retracted|reworded|rewritten|edited out|advertis(?:e|es|ed|ing))\b"
)

#: (an apostrophe between letters stays inside a single-quoted phrase: 'the agent's logs')
QUOTE = re.compile(r"\"[^\"]{1,300}\"|(?<![\w])'(?:[^'\n]|(?<=\w)'(?=\w)){1,300}'(?![\w])")

#: Where a mention region ends: a contrast opens a clause that is asserted again.
CONTRAST = _re(r";|\u2014|,?\s+but\b|,?\s+however\b|,?\s+yet\b|\.\s")

#: A pronoun subject after the predicate opens an embedded clause ("commands we did not
#: intend"): negators from there on do not scope over the predicate.
EMBEDDED_SUBJECT = _re(
    r"\b(?:we|you|they|i|he|she|where|when|whom|whose)\b"
    # a relative clause on an indefinite ("anything it isn't allowed to")
    r"|(?<=anything )(?:that )?it\b|(?<=something )(?:that )?it\b"
    r"|(?<=everything )(?:that )?it\b"
)

#: A clause that starts with a coordinated verb has the previous clause's subject
#: ("Logs are complete and cannot be edited").
ELIDED_SUBJECT = _re(
    r",\s*(?!(?:the|a|an|our|your|its|their|we|it|they|this|these|those|all|every|each|no|some|"
    r"any|there|i|you|he|she|so|but|and|which|that|because|since|while|although|though|if)\b)"
    r"[a-z]|\s*(?:and|or|but|yet)\s+(?:is|are|was|were|can|cannot|could|will|won't|would|never|"
    r"does|doesn't|do|don't|has|have|must|should|remains?|stays?|also|always)\b"
    # a coordinated predicate adjective shares the subject and copula ("The allowlist is
    # short and complete")
    r"|\s*(?:and|or|but|yet)\s+(?:(?:fully|completely|totally|entirely)\s+)?(?:complete|"
    r"comprehensive|exhaustive|airtight|watertight|tamper[- ]?proof|immutable|unbreakable|"
    r"impenetrable|bypass[- ]?proof|escape[- ]?proof|absolute|total|perfect|foolproof)\b"
)

#: Words of completeness or absoluteness; denying one of them takes a claim back.
ABSOLUTE_WORDS = (
    r"(?:complete|comprehensive|exhaustive|total|perfect|full|absolute|airtight|watertight|"
    r"guaranteed|fool[- ]?proof|bullet[- ]?proof|tamper[- ]?proof|escape[- ]?proof|flawless|"
    r"infallible|impenetrable|unbreakable|100\s?%|true|accurate|the case|so)\b"
)

#: After a universal claim, a contrast that takes part of it back ("but not the output").
TAKEN_BACK = _re(
    r"[\s,;]*(?:but|though) not\b"
    # a contrast that denies the universal ("protected against forks, not against every edit")
    r"|[\s,;]*not\s+(?:against|from|to|for|in|on|by)\s+(?:every|all|any|each)\b"
    r"|[\s,;]*with (?:some |occasional |known |documented |the odd )?(?:gaps?|holes?|omissions?)\b"
    # a next clause that concedes the opposite still happens ("..., the agent can still cat
    # them"; "; the model could still read it")
    r"|[\s,;]*(?:but\s+|though\s+|yet\s+)?(?:[\w'-]+\s+){1,3}?(?:can|could|may|might|will|does|do)"
    r"\s+still\b(?!\s+(?:not|never)\b)"
    # a next clause that states how the claimed control is defeated ("..., which a careless
    # reviewer can defeat", "but it can be bypassed")
    # a contrastive ellipsis after a denial ("X never touch the runtime; short-lived ones do")
    r"|[\s,;]*(?:but\s+)?(?:[\w-]+\s+){0,2}?(?:ones|others)\s+(?:do|does|can|are|is|will|did)"
    r"(?!\s*n't|\s+not)\b"
    r"|[\s,;]*(?:which|that|but|though|although|yet)\s+(?:[\w'-]+\s+){0,4}?"
    r"(?:can|could|may|might)\s+(?:still\s+|also\s+)?(?:be\s+)?(?:defeat|bypass|circumvent|"
    r"overrid|disabl|evad|break|broke)\w*"
    # a next clause that denies the claim about the same thing ("; it is not complete",
    # "; it is not."): only completeness/absolute words, since "it is not vulnerable"
    # would restate the claim rather than take it back
    r"|[\s,;:\u2014\u2013-]*(?:(?:but|though|although|yet|and)\s+)?"
    r"(?:it|this|that|they|these|those|which|the (?:\w+\s+)?\w+)\s+(?:is|are|was|were|remains?)"
    r"(?:\s+(?:not|never|far from|by no means)|n't)"
    r"(?:\s*[.!]|\s+(?:(?:fully|entirely|quite|completely|always|yet)\s+)?" + ABSOLUTE_WORDS + r")"
    r"|[\s,;:\u2014\u2013-]*(?:(?:but|though|although|yet|and)\s+)?"
    r"(?:it|this|that|they|these|those|which)\s+(?:is|are|was|were|remains?)\s+"
    r"(?:incomplete|partial|imperfect|fallible|bypassable)\b"
)

#: A next clause that denies the claim's own verb of something else ("protects the host from
#: the sandbox; it doesn't protect the sandbox from itself"): the claim is scoped, not absolute.
_SAME_VERB_DENIED = _re(
    r"[\s,;:\u2014\u2013-]*(?:(?:but|though|although|yet|and)\s+)?(?:it|this|that|they|these|"
    r"those|the (?:\w+\s+)?\w+)\s+(?:doesn't|does not|don't|do not|won't|will not|cannot|"
    r"can't|isn't|is not|aren't|are not)\s+(?:\w+ly\s+)?(?P<verb>[a-z]{4,})")


def taken_back(text: str, s: int, ce: int) -> bool:
    """Does the text after the predicate's clause (ending at ``ce``) take the claim that
    starts at ``s`` back: :data:`TAKEN_BACK`, or a denial of its own verb?"""
    if TAKEN_BACK.match(text, ce):
        return True
    m = _SAME_VERB_DENIED.match(text, ce)
    return m is not None and text.startswith(m.group("verb")[:5], s)


#: Parenthetical adverbs set off by commas do not open a clause ("does not, however, prevent").
PARENTHETICAL = _re(
    r",\s*(?:however|in practice|therefore|of course|in fact|in turn|though|as a result|"
    r"by design|in our experience|on its own|by itself|alone|today|currently|at present|"
    r"for example|for instance|e\.g\.|i\.e\.|in short|in a word|as such|in general|"
    r"for all practical purposes|to be clear|to be fair|frankly|honestly)\s*,"
)

#: Negators that scope only over what follows them ("a nice-to-have rather than a requirement").
#: "Without" is one of them: it negates its own complement ("run without access to
#: secrets"), not a verb before it ("workflows triggered by the agent run without ...").
FORWARD_NEGATOR = _re(r"\b(?:rather than|instead of|without|w/o)(?!\w)")

#: A comma piece that starts with an auxiliary continues the clause before it
#: ("Nobody, not even an administrator, can modify the logs").
AUX_START = _re(
    r"[\s,]*(?:can|cannot|can't|could|will|won't|would|is|are|was|were|does|doesn't|do|don't|"
    r"has|have|must|should|may|might|never|always)\b"
)

#: A sentence-initial subordinate clause ("Since the agent cannot merge, ...").
#: A questionnaire label before a sentence ("Q:", "Question 3.2:", "A:").
QA_LEAD = _re(r"\s*(?:q|question|a|answer)\s*[\d.]*\s*[:.)]\s*")

#: A questionnaire prompt in the imperative ("Q: Describe how secrets are protected."):
#: it names a topic for the answer and asserts nothing, unless it presupposes a guarantee
#: ("Describe how your sandbox guarantees isolation."), which an answer that does not reject
#: it accepts.
_PROMPT_HEAD = (r"\s*(?:(?:q|question)\s*[\d.]*\s*[:.)]\s*)?(?:please\s+)?(?:describe|explain|"
                r"outline|summari[sz]e)\b")
PROMPT = _re(_PROMPT_HEAD + r"(?![^.?!]*\bguarant)")
#: Any imperative prompt, a presupposing one included: the one kind of statement in a
#: question cell the answer can be read as accepting (any other is the asker's own words).
PROMPT_ANY = _re(_PROMPT_HEAD)

FRONT_SUBORDINATE = _re(r"\s*(?:since|because|b/c|as|although|though|whereas|given that|now that)"
                        r"(?!\w)")

#: A consequence or cause clause is about the topic of the clause before it
#: ("a strict allowlist, so there's zero chance of ...").
CONSEQUENCE = _re(r"[\s,;]*(?:so|and so|therefore|thus|hence|which means|meaning|because|b/c|"
                  r"since|-+>|=>|\u2192)(?!\w)")

#: A relative clause that restricts the noun before it ("to hosts that are not on it").
RELATIVE = _re(r"[\s,]*(?:(?:through|by|via|over|along|in) )?(?:that|which|who|whose)\b")

#: A restriction that opens the next clause ("..., unless the run is auto-approved").
NEXT_RESTRICTOR = _re(
    r"[\s,;]*(?:unless|except|excepting|until|other than|apart from|barring|save for|short of|"
    r"only (?:if|when|while|as long as|provided)|as long as|so long as|provided that|"
    # a purpose that concedes the risk ("CODEOWNERS-protected to make that less likely")
    r"to make (?:it|that|this|them|such \w+) (?:less likely|harder|more difficult|rarer))\b"
)

#: A sentence that opens with a restriction ("Without approval, workflows do not run.")
#: makes every claim after it conditional.
FRONT_RESTRICTOR = _re(
    r"\s*(?:unless|until|except|only (?:after|when|if|with|once))\b|\s*without (?:a |an |the |"
    r"explicit |prior |human |manual )?(?:approval|review|consent|permission|sign[- ]?off|"
    r"maintainer|reviewer|human|click)"
)

#: The hosts an allowlist lets through ("the allowed registries", "trusted hosts").
ALLOWED_NOUN = (r"(?:allowed|approved|listed|permitted|trusted|allow-?listed|white-?listed|"
                r"first[- ]party|sanctioned)\s+(?:[\w-]+\s+)?(?:hosts?|domains?|destinations?|"
                r"registr(?:y|ies)|services?|endpoints?|sites?|mirrors?|servers?)")

#: A channel right after a predicate scopes it ("exfiltration through DNS is blocked").
CHANNEL = _re(
    r"\s+(?:through|via|over|by way of|using)\s+(?:the |a |an |its |our )?(?:dns|https?|ssh|smtp|"
    r"e-?mail|ftp|udp|tcp|icmp|git|websockets?|proxy|firewall|port \d+|\w+ ports?|"
    r"outbound (?:http|traffic)|"
    # the allowed hosts as the channel: that they cannot receive data is the allowlist's
    # claim ("no way to send data out through them")
    r"them|those|any of them|one of them|" + ALLOWED_NOUN + r")\b"
)

#: Perfect-tense history ("has never been escaped in testing") reports the past; it
#: does not claim that something cannot happen.
HISTORY = _re(
    r"\b(?:has|have|had)\s+(?:never|not)\s+(?:yet\s+)?been\b|\b(?:hasn't|haven't|hadn't)\s+been\b|"
    r"\bto date\b|\bso far\b|\bin (?:our )?(?:testing|tests)\b|"
    r"\bhave (?:never|not) (?:seen|observed)\b"
    # knowledge reported, not a property claimed: "we know of no working escape", "we are
    # not aware of any bypass"
    r"|\b(?:know|knows|knew|aware) of no\b|\b(?:not|un)aware of (?:any|a)\b"
    # a negative subject in the perfect over a stated period ("nobody has escaped it in two
    # years of red-team exercises") reports the past too; without the period ("no agent has
    # ever escaped, and none ever will") it is read as the claim
    r"|\b(?:nobody|no one|none|nothing|no [\w-]+)\s+(?:[\w-]+\s+){0,3}?(?:has|have|had)\s+"
    r"(?:ever\s+|yet\s+)?(?!been made\b|been rendered\b)(?:been\s+)?"
    r"(?:\w+(?:ed|en)|got|found|made|won|run|hit|beat)\b"
    r"(?:\s+[\w'-]+){0,4}?\s+(?:in|over|during|for|since|across|throughout)\s+(?:[\w-]+\s+){0,3}?"
    r"(?:years?|months?|weeks?|days?|exercises?|engagements?|tests?|testing|audits?|"
    r"assessments?|red[- ]team\w*|pen(?:etration)?[- ]tests?|production|launch|release|"
    r"records?|history|incident (?:log|register|records?)|"
    r"go-live|\d{4})\b"
    # an observation denied in the perfect needs no period ("none of our customers has
    # reported an escape")
    r"|\b(?:nobody|no one|none|no [\w-]+)\s+(?:[\w-]+\s+){0,3}?(?:has|have|had)\s+"
    r"(?:ever\s+|yet\s+)?(?:been\s+)?(?:reported|seen|observed|found|detected|demonstrated|"
    r"achieved|recorded|logged)\b"
    # a count of past events ("we've had 0 escapes in 3 years", "have recorded no breaches")
    r"|(?:\b(?:has|have|had)|'ve|'s)\s+(?:ever\s+)?(?:had|seen|recorded|observed|logged)\s+"
    r"(?:no|zero|0|not (?:one|a single))\b"
)

#: A denial extended to the future after a report of the past ("no one has ever found a
#: way round it, and no one ever will"): the history does not excuse the claim.
FUTURE_TOO = _re(
    r"(?:,|\band|\bbut)\s+(?:(?:no one|nobody|none|nothing|no [\w-]+)\s+(?:ever\s+)?will|"
    r"(?:(?:it|they|this|that|one)\s+)?(?:will never|never will|won't ever|won't))\b"
    # an elliptical denial of the possibility ("..., and it cannot be.")
    r"|(?:,|\band|\bbut)\s+(?:it|they|this|that)\s+(?:cannot|can't|could not|couldn't|"
    r"never can|never could|never will)\s+be\s*[.!]*\s*$"
)

#: A denied classification: "X isn't a sandbox escape", "reading a mounted secret is not an
#: escape". It says what kind of thing X is, not that escape or exfiltration cannot happen;
#: a denied risk ("exfiltration is not a risk") or an existential ("there is no escape")
#: is still a claim. ``np`` is the classifying noun phrase.
CLASSIFIED_AS_NOT = _re(
    r"\b(?:(?:is|are|was|were)(?:\s+not|n't)|isn't|aren't|wasn't|weren't)\s+(?:a|an)\s+"
    r"(?P<np>(?:[\w-]+\s+){0,3}?[\w-]+)\b(?=\s*(?:[.;:,!)\u2014-]|\s+(?:in|for|of|at|but)\b|$))")
CLASSIFIED_RISK = _re(
    r"\b(?:risks?|threats?|dangers?|concerns?|problems?|issues?|possibilit(?:y|ies)|options?|"
    r"chances?|ways?|paths?|routes?|worry|worries|vectors?|exposures?|weakness(?:es)?|"
    r"gaps?|holes?|loopholes?|concern|factor)\b")

#: A denied noun phrase whose relative clause carries the predicate ("treat it as one layer,
#: never as the layer that guarantees safety", "it is not a wall that stops every attack"):
#: the "not" scopes over that clause. Matched at the end of the clause before the relative.
NEGATED_ANTECEDENT = _re(
    r"\b(?:not|never)\s+(?:as\s+|like\s+)?(?:a|an|the|one|some|any)\s+"
    r"(?:[\w-]+\s+){0,3}?[\w-]+\s*$")

#: A negated existential whose relative clause carries the predicate ("there's no
#: keystroke that escapes our audit pipeline"): its "no" scopes over that clause.
EXISTENTIAL_NO = _re(
    r"\bthere(?:'s|\s+(?:is|are|was|were|will be))\s+(?:no|not (?:a|one)(?: single)?)\b"
    # a means denied to someone: "the agent has no channel through which data could leave"
    r"|\b(?:has|have|had|with|leaves?|left|gives?|offers?|provides?|is given|get|gets)\s+"
    r"(?:no|not (?:a|one)(?: single)?)\s+(?:[\w-]+\s+)?(?:channels?|ways?|paths?|routes?|means|"
    r"mechanisms?|avenues?|methods?|vectors?|openings?|opportunit(?:y|ies)|exits?)\b"
)

#: A past habit ("we used to skip review for ...") reports history, not the present.
PAST_HABIT = _re(r"\b(?<!be )(?<!is )(?<!are )(?<!been )(?<!being )(?<!was )(?<!were )(?<!get )"
                 r"(?<!got )(?:used to|formerly|previously|at one time|back then|"
                 # a past description reported ("Earlier we described the allowlist as ...")
                 r"(?:earlier|in the past),? (?:we|our \w+|the \w+) (?:described|called|"
                 r"marketed|advertised|presented)|"
                 # a dated past practice ("In 2025 one team treated agent PRs as ...")
                 r"in (?:19|20)\d\d,? [^,;]{0,40}?\b(?:treated|regarded|considered|"
                 r"described|called|marketed|labell?ed|advertised))\b")

#: A requirement ("must never be visible", "should ensure") states a policy, not a fact.
DEONTIC = _re(r"\b(?:should|must|ought to|shall)\b")

#: Escaping notice rather than a boundary: "nothing escapes our logging / attention".
UNNOTICED = _re(
    r"\b(?:escap\w*|evad\w*|slips? past)\s+(?:the |our |its |their )?(?:[\w-]+\s+)?"
    r"(?:logs?|logging|audit\w*|monitor\w*|notice|detection|attention|record\w*|"
    r"telemetry|scrutiny|review|watch|gaze|eyes?|sight|siem|recorders?)\b"
)

#: A conceded possibility before a practical verdict ("theoretically possible but practically
#: impossible", "possible in theory but impossible in practice"): the first conjunct is
#: granted only to be overruled, so the verdict after "but" is the claim. It is blanked.
CONCEDED_THEORY = _re(
    r"(?:\b(?:theoretically|in theory|on paper|technically|conceivably|academically)\s+"
    r"(?:[\w-]+\s+)?(?:possible|conceivable|feasible|vulnerable|breakable|exploitable|"
    r"achievable|plausible|imaginable)|\b(?:possible|conceivable|feasible|vulnerable|"
    r"breakable|exploitable|achievable|plausible|imaginable)\s+(?:in theory|on paper|"
    r"theoretically|technically))\s*,?\s+(?:but|yet)\s+"
    r"(?=(?:[\w-]+\s+){0,2}?(?:impossible|invulnerable|unbreakable|unexploitable|out of reach|"
    r"unachievable|inconceivable|unthinkable|never|not)\b)"
)

#: A universal stated as a double negation: "there is not a single X (that) our Y does not
#: V", "there isn't an action we haven't logged" means "Y Vs every X". Families append
#: their own verb to this prefix; both negations lie inside the match, so they cancel.
DOUBLE_NEGATIVE = (
    r"\bthere(?:'s|\s+(?:is|are|was|were)(?:n't)?)\s+(?:not\s+)?(?:a\s+single|one\s+single|"
    r"a|an|one|no|any|single)\s+(?:[\w'/-]+\s+){1,9}?(?:that\s+|which\s+)?"
    r"(?:we|it|they|you|(?:our|the|its|their|your|an?|this)\s+(?:[\w/-]+\s+)?[\w/-]+)\s+"
    r"(?:\w+n't|(?:do|does|did|has|have|had|can|could|will|would)\s+not|cannot|never)\s+"
    r"(?:yet\s+|already\s+|ever\s+)?(?:been\s+)?"
)

#: Every way in closed: "we've closed off every route by which the agent might alter CI",
#: "sealed all paths to the host". A universal over the means, so a later "might" or
#: "could" in its relative clause hedges nothing. Families append nothing; they give the
#: topic. "every known route" is left alone (a hedge by its own word).
ALL_ROUTES_CLOSED = (
    r"\b(?:clos|shut|seal|block|eliminat|remov|plug|cut|lock|bolt|wall)\w*\s+"
    r"(?:off\s+|down\s+|up\s+)?(?:every|all|each|any)(?:\s+(?:single|last|possible|and every))?"
    r"\s+(?!known\b)(?:[\w-]+\s+){0,2}?(?:routes?|paths?|ways?|avenues?|vectors?|openings?|means|"
    r"channels?|holes?|gaps?|doors?|loopholes?|backdoors?|entry points?|escape hatch(?:es)?)\b"
)
