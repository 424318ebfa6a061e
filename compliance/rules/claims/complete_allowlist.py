"""CLM005 complete-allowlist-claim."""

from __future__ import annotations

import re

from compliance.judge import lexicon as lx
from compliance.judge.engine import pattern
from compliance.rules.claims.base import ClaimRule

ALLOWLIST = (r"\b(?:allow[- ]?lists?|allow[- ]?listed|whitelists?|white[- ]?listed|firewalls?|"
             # ("our no-egress policy" is a network cut, not a list)
             r"(?<!no-)(?<!no )egress (?:filter(?:s|ing)?|controls?|polic(?:y|ies)|rules?|proxy|"
             r"proxies)|"
             r"network (?:polic(?:y|ies)|filter(?:s|ing)?|controls?|restrictions?|rules?)|"
             r"domain (?:lists?|filter(?:s|ing)?|restrictions?|rules?)|proxy|proxies|"
             r"deny[- ]?lists?|block[- ]?lists?|(?:safe|permit|pass)[- ]?lists?|"
             r"(?:approved|allowed|permitted|listed) (?:hosts|domains|destinations)|"
             r"egress lists?)\b")
#: Hosts beyond the list: reaching them is what a bypass means.
#: The allowed hosts, by name or as what the list lets through ("only PyPI is allowed").
ALLOWED = (r"\b" + lx.ALLOWED_NOUN + r"\b|\b(?:are|is|were|was|being) (?:allowed|allow-?listed|"
           r"white-?listed|permitted)\b"
           # "an allowlisted API", "destinations on the allowlist"
           r"|\b(?:allow-?listed|white-?listed)\s+(?:[\w-]+\s+)?(?:apis?|urls?)\b"
           r"|\b(?:hosts?|domains?|destinations?|endpoints?|sites?|servers?|entr(?:y|ies)) on "
           r"(?:the|our|its|this) (?:allow[- ]?list|whitelist|list)\b")
OFF_LIST = (r"(?:hosts?|domains?|destinations?|sites?|servers?|endpoints?|addresses|urls?|"
            r"anything|anywhere|the (?:open )?internet)\s+"
            r"(?P<t>(?:that (?:is|are) )?(?:outside|beyond|off|not (?:on|in)|missing from|"
            r"absent from))\b")


class CompleteAllowlistClaim(ClaimRule):
    """Flags claims that a network allowlist or firewall is complete or cannot be bypassed.

    ## What it does
    Flags a sentence saying an allowlist, firewall, proxy or egress policy is
    comprehensive, complete, exhaustive or airtight, blocks every malicious
    destination, guarantees where the agent connects, or cannot be bypassed,
    circumvented or evaded. "The allowlist limits which domains the agent can
    reach" and "the allowlist can be bypassed" pass.

    ## Why is this bad?
    An allowlist decides by host name. Allowed hosts (package registries,
    GitHub, the model API) can themselves receive data; decisions use "the
    client-supplied hostname without inspecting TLS" (domain fronting); DNS
    and other ports may stay open; and GitHub says its agent firewall "does
    not apply to Model Context Protocol (MCP) servers", has "Bypass
    potential" and "should not be considered a comprehensive security
    solution".

    ## Example
    ```text
    Our egress allowlist is comprehensive and cannot be bypassed.
    ```

    ## Use instead
    ```text
    An egress allowlist limits which hosts the agent reaches; it can be bypassed
    (e.g. domain fronting) and allowed hosts can still receive data.
    ```

    ## Sources
    - GitHub docs, "Customizing or disabling the firewall for GitHub Copilot coding agent".
    - Claude Code docs, "Sandboxing": allow decisions use "the client-supplied hostname
      without inspecting TLS".
    - OWASP Top 10 for LLM Applications 2025, LLM06 Excessive Agency.
    """

    code = "CLM005"
    name = "complete-allowlist-claim"
    claimed = "that the network allowlist is complete or cannot be bypassed"
    why = ('Allowlists decide by host name without inspecting TLS (domain fronting), allowed '
           'hosts can still receive data, and GitHub says its agent firewall has "Bypass '
           'potential" and "should not be considered a comprehensive security solution".')
    instead = ('"The allowlist limits which hosts the agent can reach; it can be bypassed and '
               'allowed hosts can still receive data."')
    committed = re.compile(ALLOWLIST)
    patterns = (
        # "cannot reach any host outside the allowlist": reaching off the list is a bypass
        pattern(r"\b(?:reach(?:es|ing)?|contact(?:s|ing)?|connect(?:s|ing)? to|talk(?:s|ing)? to|"
                r"access(?:es|ing)?|call(?:s|ing)? out to|send(?:s|ing)? (?:\w+ )?to|get(?:s)? to)"
                r"\s+(?:\w+\s+){0,2}?" + OFF_LIST, negated=True, topic=ALLOWLIST),
        # "unauthorised outbound connections are impossible": the noun names the list
        pattern(r"\b(?:unauthori[sz]ed|unapproved|unlisted|non[- ]?allow[- ]?listed|unsanctioned|"
                r"disallowed|rogue)\s+(?:[\w-]+\s+)?(?:connections?|traffic|requests?|egress|"
                r"calls?)\b", negated=True,
                requires=r"\b(?:impossible|cannot|never|no way|not possible)\b|n't\b"),
        # "blocks everything not on the list": a universal over what is off the list
        pattern(r"\b(?P<t>(?:block|drop|deny|reject|stop|refuse)(?:s|es|ed|ped)?\s+(?:out\s+)?"
                r"(?:everything|anything|all)\s+(?:else|(?:that is |that's )?(?:not (?:on|in)|"
                r"outside|off|beyond)))\b", topic=ALLOWLIST + r"|\bthe list\b"),
        # "no other host can be contacted": the other hosts are those off the list
        pattern(r"\b(?:hosts?|domains?|destinations?|sites?|servers?|endpoints?)\b"
                r"(?:\s+[\w']+){0,3}?\s+(?:be |been |is |are |gets? )?"
                r"(?:contacted|reached|accessed|called|connected to)\b", negated=True,
                topic=ALLOWLIST + r"|\b(?:no|any) other (?:hosts?|domains?|destinations?|sites?|"
                r"servers?)\b",
                requires=r"\b(?:other|else|unlisted|unapproved|non-?allow\w*|outside|unknown)\b"),
        pattern(r"\b(?P<t>comprehensive|complete|exhaustive|airtight|watertight|fool[- ]?proof|"
                # the list as the last word: "the definitive list", "all-encompassing"
                r"definitive|all[- ]encompassing|all[- ]inclusive|gap[- ]?less|tamper[- ]?proof|"
                r"(?:fully|completely|exhaustively|totally) (?:enumerates?|lists?|covers?|"
                r"captures?|"
                r"describes?|specifies?|maps?)|"
                r"seal(?:s|ed)? (?:off )?(?:the |our |its |every )?(?:[\w']+ )?(?:network )?"
                r"(?:perimeter|border|boundary|egress)|"
                r"perfect|bypass[- ]?proof|unbypassable|impenetrable|infallible|flawless|"
                r"bullet[- ]?proof|iron[- ]?clad|unassailable|impregnable|hermetic|"
                r"leak[- ]?proof|"
                r"(?:covers?|accounts? for|address(?:es)?|handles?|closes?|"
                r"plugs?)(?: off| up)? (?:every|all|everything|each)|catch(?:es)? "
                r"(?:every|all|everything|100\s?% of)|"
                # "total control over outbound traffic"
                r"(?:total|complete|full|absolute|100\s?%) control|"
                r"sealed (?:border|perimeter|wall|door|shut|tight)|"
                r"(?:block|drop|stop|prevent|catch|deny|reject|filter)"
                r"(?:s|es|ed|ped)? (?:out )?(?:every|all|any|each|100\s?% of) (?:\w+ )?"
                r"(?:malicious|bad|harmful|unauthori[sz]ed|unapproved|unknown|attacks?|threats?|"
                r"exfiltration|attempts?|destinations?|hosts?)|"
                r"ensures? (?:that )?(?:the agent|agents|it|nothing|no))\b", topic=ALLOWLIST),
        # (the adjectives in -able too: "Bypassable? No.", "not circumventable")
        pattern(r"\b(?:bypass(?:es|ed|ing|able)?|circumvent(?:s|ed|ing|able)?|evade[ds]?|evading|"
                r"evadable|"
                r"get(?:s|ting)? (?:\w+ ){0,2}?(?:around|round|past|through)|"
                r"got (?:\w+ ){0,2}?(?:around|round|past)|"
                # the nouns and the misuse of an allowed host
                r"circumvention|evasion|abus(?:e|es|ed|ing)|misus(?:e|es|ed|ing)|"
                r"(?:makes?|made|making) it (?:around|past|through)|"
                r"pass(?:es|ed)?(?= (?:it|them|through it|the (?:firewall|proxy|filter))\b)|"
                r"work(?:s|ed)? around|sneak(?:s)? (?:past|around|through)|route(?:s|d)? around|"
                r"tunnel(?:s|ed)? (?:through|past|out)|slip(?:s)? (?:past|through))\b",
                negated=True, topic=ALLOWLIST,
                # the misuse in a relative clause of a coverage denied: "does not cover every
                # destination the agent could misuse"
                unless=r"\b(?:not|n't)\s+(?:cover|list|include|block|catch|stop)\s+(?:every|all|each)\b"),
        # a conditional universal: "if it's not on the list, it doesn't get out"
        pattern(r"\bif\b[^,;]{0,60}?(?:\b(?:not|n't)\s+(?:on|in)\s+(?:the|our|its|an?)\s+"
                r"(?:[\w-]+\s+)?(?:list|allow[- ]?list|whitelist)|(?:\bnot\s+|n't\s+)"
                r"(?:allow[- ]?listed|white[- ]?listed)|\b(?:unlisted|off[- ]list))\b"
                r"[^,;.]*,\s*(?:then\s+)?(?:[\w'-]+\s+){0,3}?"
                r"(?:(?!shouldn|mustn|oughtn)\w+n't|not|never|cannot)\s+(?:\w+\s+)?"
                r"(?:get|go|leave|pass|reach|connect|"
                r"make it|load|resolve|happen|leak)\w*"),
        # "there's not one request our proxy doesn't inspect"
        pattern(lx.DOUBLE_NEGATIVE + r"(?:vet|check|inspect|filter|screen|block|cover|catch|"
                r"caught|see|examin|scan|police|intercept)\w*", topic=ALLOWLIST),
        pattern(r"\b(?:ways? (?:out|around|round|past|through)|exits?|escape routes?)\b",
                negated=True, topic=ALLOWLIST),
        # the off-list hosts named as a topic question ("Unlisted domains? Unreachable.")
        pattern(r"^\s*(?:[\w-]+\s+)?(?:unlisted|unapproved|non-?allow-?listed|off-list|"
                r"disallowed|unknown|other) (?:hosts|domains|destinations|sites|servers|endpoints|"
                r"urls|ips)\s*\?", negated=True),
        # the allowed hosts as a channel or a receiver: "no way to send data out through
        # them", "nothing sent to them can be stored", "none of them can receive data"
        pattern(r"\b(?:leav\w*|leak\w*|get\w* out|exit\w*|sen[dt]\w*\s+(?:[\w'-]+\s+){0,2}?out|"
                r"exfiltrat\w*|go(?:es)? out|escap\w*|flow\w* out)(?:\s+[\w'-]+){0,3}?\s+"
                r"(?:through|via|over|by way of|using)\s+(?:any of |one of |either of |the |an? |"
                r"those )?(?:them|" + lx.ALLOWED_NOUN + r")\b", negated=True,
                topic=ALLOWLIST + "|" + ALLOWED),
        pattern(r"\b(?:sent|send|passed|uploaded|posted|given|shared|pushed)\s+(?:to|with)\s+"
                r"(?:them|those|(?:the |an? |any )?" + lx.ALLOWED_NOUN + r")\b(?:\s+[\w'-]+){0,4}?"
                r"\s+(?:end(?:s)? up|be (?:stored|retrieved|read|misused|abused|kept|logged|leaked|"
                r"accessed|used|seen)|reach(?:es)?|lands?)\b", negated=True,
                topic=ALLOWLIST + "|" + ALLOWED),
        pattern(r"\b(?:receiv|collect|stor|captur|accept|keep|retain|exfiltrat)\w*\s+(?:[\w'-]+\s+){0,3}?"
                r"(?:data|code|secrets|information|anything|exfiltrated \w+|uploads?|payloads?|"
                r"files|content)\b", negated=True,
                topic=ALLOWED),
        pattern(r"\broom for (?:data to (?:escape|leave|leak|get out|exit)|"
                r"abuse|misuse|bypass\w*|evasion|circumvention|error|leaks?|"
                r"exfiltration)\b", negated=True, topic=ALLOWLIST),
        # a coverage verdict under an allowlist label ("Egress allowlist completeness: Full")
        pattern(r"\b(?:coverage|completeness)\s*:\s*(?:complete|comprehensive|exhaustive|total|full|"
                r"100\s?%)(?=\s*(?:[.;,()!]|$))", topic=ALLOWLIST),
        pattern(r"\b(?:gaps?|holes?|loopholes?|blind spots?|weak spots?|weaknesses)\b",
                negated=True, topic=ALLOWLIST),
        pattern(r"\b(?:contact(?:s|ing)?|reach(?:es|ing)?|connect(?:s|ing)? to|talk(?:s|ing)? to|"
                r"send(?:s|ing)? (?:data |anything )?to|call(?:s|ing)?|exfiltrat\w* to)\s+"
                r"(?:an? |the |any )?(?:attacker(?:'s)?|malicious|evil|rogue|"
                r"command[- ]and[- ]control|c2)\b", negated=True, topic=ALLOWLIST),
        pattern(r"\b(?:every|all|any)\s+(?:[\w-]+\s+){0,2}?(?:destinations?|hosts?|domains?|"
                r"traffic|connections?|requests?|packets?|bytes?|calls?|attempts?)\b"
                r"(?:\s+[\w'-]+){0,5}?\s+(?:is|are|gets?|will be)"
                r"\s+(?:blocked|denied|dropped|rejected|stopped|refused)\b",
                topic=ALLOWLIST + r"|\b(?:off[- ]list|unlisted|non-?allow-?listed)\b"),
        # every route shut by the list: "every exfiltration route is shut by the allowlist"
        pattern(r"\b(?:every|all|each|any)\s+(?:[\w-]+\s+){0,2}?(?:routes?|paths?|channels?|ways?|"
                r"avenues?|vectors?|exits?|doors?|holes?)\b(?:\s+[\w'-]+){0,3}?\s+(?:is|are|"
                r"has been|"
                r"have been|gets?)\s+(?:\w+ly\s+)?(?:shut|closed|sealed|blocked|plugged|cut off)\b",
                topic=ALLOWLIST),
        # every trick fails against the list: "DNS tricks, redirects and tunnelling all fail
        # against our allowlist"
        pattern(r"\b(?:all|every\s+(?:[\w-]+\s+)?(?:one|trick|attempt|technique)|each|any)\s+"
                r"(?:of them\s+)?(?:fail|fails|failed|falls? flat|bounces? off|come to nothing|"
                r"get(?:s)? (?:caught|blocked|stopped))\b", topic=ALLOWLIST),
        # an entry vouched for, so sending to it is harmless: "we vouch for every entry on the
        # list", "every permitted destination is vetted and safe to send data to"
        pattern(r"\b(?:vouch(?:es|ed)? for|vet(?:s|ted)?|verif(?:y|ies|ied)|trust(?:s|ed)?)\s+"
                r"(?:every|all|each)\s+(?:\w+\s+)?(?:entr(?:y|ies)|hosts?|domains?|destinations?|"
                r"endpoints?)\b|\b(?:safe|harmless|fine|ok(?:ay)?)\s+to\s+(?:send|upload|share|post|"
                r"transmit)\b|\b(?:is|are)\s+(?:\w+\s+)?harmless\b", topic=ALLOWED),
        # the dropped host unreachable: "once a domain is off the allowlist, the agent has no
        # possible way to contact it"
        pattern(r"\b(?:contact|reach|connect to|talk to|call|access)\s+(?:it|them|that (?:host|"
                r"domain|site)|those (?:hosts|domains|sites))\b", negated=True, topic=ALLOWLIST,
                requires=r"\b(?:off|outside|not on|unlisted|removed from|dropped from|"
                         r"absent from)\b",
                premise=True),
    )
