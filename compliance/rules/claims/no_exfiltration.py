"""CLM003 no-internet-no-exfiltration-claim."""

from __future__ import annotations

import re

from compliance.judge import lexicon as lx
from compliance.judge.engine import pattern
from compliance.rules.claims.base import ClaimRule

DATA = (r"\b(?:data|code|source|codebase|information|info|secrets?|credentials?|files?|content|"
        r"ip|intellectual property|pii|repositor(?:y|ies)|repos?|"
        # "prompt" in "prompt injection" names the attack, not data that could leave
        r"tokens?|keys?|customer \w+|outputs?|bytes?|contents?|"
        # (a hostile prompt is the injection, not data: "hijacked prompts go nowhere")
        r"(?<!hijacked )(?<!malicious )(?<!injected )(?<!poisoned )(?<!hostile )(?<!rogue )"
        r"prompts?(?![- ]?inject)|"
        r"anything)\b")
#: The premise of this family: the network cut ("offline mode", "egress is blocked", "no route
#: to the outside world").
NET_PREMISE = (r"\b(?:offline|internet|network\w*|disconnected|air[- ]?gap\w*|egress|outbound|"
               r"connectivity)\b|\bno (?:route|path|way|connection|link)s? (?:out|"
               r"to the outside)\b")


class NoInternetNoExfiltrationClaim(ClaimRule):
    """Flags claims that no data can leave, typically because the agent has no internet.

    ## What it does
    Flags a sentence asserting that data, code or secrets cannot leave the
    environment, that exfiltration is impossible or prevented, or that the
    agent is air-gapped — including the answer "No" to "Can data leave?".
    Statements that only describe the network setting ("internet access is
    disabled") or that say data can still leave through the model connection
    pass.

    ## Why is this bad?
    An agent with "no internet" still talks to its model provider: every
    prompt, file excerpt and tool output the agent reads goes there. Claude
    Code on the web states that the API connection "still works at None" and
    this "may allow data to exit the VM"; allowlisted hosts, the git proxy,
    DNS and package registries are further channels. Cutting internet access
    narrows exfiltration paths; it does not close them.

    ## Example
    ```text
    The agent has no internet access, so customer code cannot leave the sandbox.
    ```

    ## Use instead
    ```text
    The agent has no general internet access; the connection to the model provider
    stays open and carries prompts and code, and allowed hosts can receive data.
    ```

    ## Sources
    - Claude Code docs, "Configure cloud environments": the API connection "still works
      at None" and "may allow data to exit the VM".
    - GitHub docs, Copilot coding agent firewall: "Bypass potential".
    - OWASP Top 10 for LLM Applications 2025, LLM06 Excessive Agency.
    """

    code = "CLM003"
    consequence_of = frozenset({"CLM007", "CLM005"})
    name = "no-internet-no-exfiltration-claim"
    claimed = "that data cannot leave the environment"
    why = ("Without internet access the agent still sends prompts, code and tool output to "
           "its model provider, and allowed hosts, the git proxy and DNS remain channels; "
           'vendors say this connection "may allow data to exit the VM".')
    instead = ('"General internet access is off; the model connection stays open and carries '
               'code and prompts, so data can still leave through it."')
    # the allowlist or its allowed hosts as the subject: the claim is about the list
    yields_to = {"CLM005": re.compile(r"\b(?:allow[- ]?lists?|whitelists?|firewalls?|"
                                      # ("our no-egress policy" is the network premise)
                                      r"(?<!no-)(?<!no )egress (?:filters?|proxy|polic(?:y|ies))|"
                                      r"proxy|" + lx.ALLOWED_NOUN + r")\b")}
    #: a reason that names the allowed hosts ("Since only PyPI is allowlisted, nothing can be
    #: uploaded", "Permitted endpoints are read-only mirrors, so data has nowhere to go")
    #: makes the consequence the allowlist's claim
    yields_for_reason = {"CLM005": re.compile(
        r"\b(?:" + lx.ALLOWED_NOUN + r"|(?:is|are) (?:allow-?listed|white-?listed|the only "
        r"(?:allowed|permitted) \w+))\b")}
    patterns = (
        # "nothing leaves": the subject is the data; "writes nothing and exits" is not
        pattern(r"\b(?:nothing|none of (?:it|them|this|that|our \w+|your \w+))\s+"
                r"(?:[\w']+\s+){0,4}?(?:leaves?|leaving|gets? out|escapes?|exits?|leaks?|"
                r"is exfiltrated|is sent out|reach(?:es)? the (?:outside|open) (?:world|internet)|"
                # the passive after a modal: "nothing in the workspace can be leaked"
                r"(?:be|get|gets) (?:leaked|exfiltrated|sent out|uploaded|transmitted|copied out)|"
                # "nothing the agent sees can be sent off the machine"
                r"(?:be|get|gets) (?:sent|copied|moved|taken|uploaded|transmitted|carried|shipped)"
                r" (?:off|outside|beyond|elsewhere|anywhere)|"
                r"(?:smuggled|sneaked|snuck|spirited|slipped|carried) out)\b",
                negated=True, unless=lx.UNNOTICED.pattern),
        # (a process's exit status is not data exiting: "and exit 2", "exits with code 1",
        # nor is the noun: "errors become exits in one place", "the exits")
        pattern(r"\b(?:leave|leaves|leaving|"
                r"(?<!\bthe )(?<!\ban )(?<!\bbecome )(?<!\bbecomes )(?<!\bbecame )(?<!\bclean )"
                r"(?<!\bearly )(?:exit|exits|exiting)(?!\s+(?:with\s+)?(?:\d|code|"
                r"status))|leak|leaks|leaked|leaking|"
                r"be sent|get(?:s|ting)?\s+(?:[\w']+\s+){0,2}?out|"
                # "make it out", "go out from the sandbox"
                r"makes? it out|made it out|go(?:es)? out|went out|escape|escapes|escaping|"
                # a manner-of-motion verb with "out": "smuggled out", "sneaked out"
                r"(?:be |get |gets |is |are )?(?:smuggled|sneaked|snuck|spirited|slipped|carried|"
                r"trickled) out|"
                # the base forms, the object between ("smuggle anything out", "sneak it out")
                r"(?:smuggl|sneak|spirit|slip|carr|trickl|ferr|funnel|siphon)\w*\s+"
                r"(?:[\w'-]+\s+){0,2}?out\b|"
                # "reach the outside world"
                r"reach(?:es|ing)? the (?:outside|open) (?:world|internet)|"
                # "egress" heading a noun ("an egress proxy") is a modifier, not the verb
                r"(?<!-)egress(?:es)?(?!\s+(?:prox|filter|rule|control|polic|traffic|allow|firewall|"
                r"gateway|list|point|path|port|setting|config|restriction|ip|address|node))|"
                r"flow out|"
                # "your code has nowhere to go", "cannot go anywhere"
                r"(?:go|goes|went|going|travel\w*) (?:anywhere|elsewhere|nowhere)|"
                r"(?:nowhere|no place) to go|"
                r"flows out|be exfiltrated|be transmitted|be uploaded|be copied out|"
                r"(?:sent|transmitted|copied|moved|uploaded|shipped|taken) (?:outside|out of|"
                r"beyond|externally|off[- ]site|off (?:the |your |our |its )?(?:machine|box|host|"
                r"device|laptop|premises|vm|sandbox|network|server|workstation))|"
                r"(?:(?:exposed|disclosed|shared|sent|transmitted|"
                r"passed|given|shown|revealed|made available|go(?:es)?|went|flows?|travels?|"
                r"ends? up) (?:to|with|at)|reach(?:es|ed)?) (?:any |a |an )?"
                r"(?:third[- ]part(?:y|ies)|anyone|outsiders?|external \w+|the (?:internet|"
                r"outside world|public)|vendors?|other (?:companies|customers|tenants)))\b",
                negated=True, topic=DATA,
                # "leaves no room for ...", "leaves nothing out": "leave" with an object
                unless=r"\bleav\w* (?:nothing |no \w+ |\w+ )?out\b|" + lx.UNNOTICED.pattern
                + r"|\bleav\w* (?:no|little|any) (?:room|doubt|trace|gap|chance|space|opening|"
                r"margin)\b"),
        pattern(r"\b(?:exfiltrat\w*|exfil|exfils|data (?:leakage|leaks?|loss|egress|theft)|leakage|"
                # "phone home": covert reporting out
                r"(?:phon|call)(?:e|es|ed|ing|s)? home)\b",
                negated=True,
                # leakage between tenants is the isolation family's claim; a receiver of
                # exfiltrated data ("none of the allowed hosts can receive exfiltrated data")
                # is the allowlist's
                unless=r"\bcross[- ](?:tenant|customer|session|workload|container|vm|sandbox)s?\b"
                r"|\b(?:receiv|collect|accept|stor|captur|hold)\w*\s+(?:\w+\s+)?exfiltrat"),
        # "no path out for your data", "no route out of the sandbox"
        pattern(r"\b(?:paths?|routes?|ways?|channels?|avenues?|exits?)\s+out\b", negated=True,
                topic=DATA),
        pattern(r"\b(?:model provider|provider|vendors?|third[- ]part(?:y|ies)|openai|anthropic|"
                r"github)\s+(?:[\w']+\s+){0,2}?(?:receives?|sees?|gets?|stores?|has access to|"
                r"obtains?)\s+(?:[\w']+\s+){0,3}?" + DATA, negated=True),
        pattern(r"\b(?:air[- ]?gapped|(?:fully|completely|totally|entirely|100\s?%) "
                r"(?:offline|disconnected))\b",
                # a condition, not a claim: "air-gapped operation is only possible with ..."
                unless=r"\bonly (?:possible|available|supported|works?)\b|\brequires?\b"),
        # confidentiality made the network's consequence: "offline mode ensures confidentiality
        # of everything", "your data is contained", "code stays confidential: no route out"
        pattern(r"\b(?:ensures?|guarantees?|keeps?|preserves?|maintains?|means?)\s+(?:the\s+)?"
                r"(?:full\s+|complete\s+|total\s+|absolute\s+)?confidentiality\b"
                r"|" + DATA + r"(?:\s+[\w']+){0,3}?\s+(?:stays?|remains?|is|are|is kept|"
                r"are kept)\s+"
                r"(?:fully |completely |totally |entirely |always )?(?:confidential|contained|"
                r"sealed (?:in|inside|within)|locked (?:in|inside|within))\b",
                requires=NET_PREMISE, premise=True),
        # held in place by the premise or for every byte: "blocking egress keeps every byte of
        # customer data on our servers"
        pattern(r"\b(?:keeps?|kept|confines?|confined|retains?|locks?|holds?)\s+(?:[\w'-]+\s+){0,6}?"
                r"(?:on|in|inside|within)\s+(?:our|your|the|its|this)\s+(?:own\s+)?(?:servers?|"
                r"premises|infrastructure|sandbox|network|tenant|machines?|environment|vpc|perimeter|"
                r"box|walls)\b", topic=DATA,
                requires=NET_PREMISE + r"|\b(?:every|all|each)\b|100\s?%", premise=True),
        pattern(r"\b(?:transmit|send|share|disclose|expose|upload|leak|pass|give|show|reveal)"
                r"(?:s|ting|ing)?\s+(?:[\w']+\s+){0,3}?(?:to|with)\s+(?:any |a |an )?"
                r"(?:third[- ]part(?:y|ies)|anyone|outsiders?|external \w+|the (?:internet|"
                r"outside world|public)|vendors?|other (?:companies|customers|tenants))",
                negated=True, topic=DATA),
        pattern(DATA + r"(?:\s+[\w']+){0,3}?\s+(?:stays?|remains?|is kept|are kept|kept)\s+"
                r"(?:100\s?% |fully |completely |totally |entirely |always )?"
                r"(?:inside|within|in-house|on[- ]prem\w*|private|local|put|on[- ]?site|at home|"
                # "stays on your infrastructure", "remains under your control"
                # "stays on your side of the fence"
                r"on (?:your|our|the customer's|this|the) side(?: of the [\w-]+)?|"
                r"on (?:your|our|the customer's|customer) (?:own )?(?:infrastructure|premises|"
                r"network|servers?|machines?|devices?|hardware|vpc|account|tenancy|perimeter|"
                r"laptops?)|under (?:your|our|the customer's) (?:own )?control|"
                # "the code stays on the machine"
                r"on (?:the|this|that) (?:local |same )?(?:machine|box|laptop|device|workstation|"
                r"premises|computer))\b"),
        # idioms of containment ("kept under lock and key", "trapped inside forever") with a
        # network premise or an absolute: data that cannot get out
        pattern(r"\b(?:under lock and key|trapped (?:inside|in there|in here|for good|forever)|"
                r"locked (?:inside|in there|away for good|up for good)|sealed inside|"
                r"bottled up|stuck (?:inside|in there) (?:for good|forever))\b", topic=DATA,
                requires=r"\b(?:offline|internet|network\w*|disconnected|air[- ]?gap\w*|egress|"
                r"outbound|connectivity|every|all|forever|always|never|for good)\b|"
                r"\bno (?:route|path|way|connection|link) to the outside\b", premise=True),
        # "no internet means no leaks": with a network premise, a leak is a data leak
        pattern(r"\b(?:leaks?|leakage)\b", negated=True,
                topic=r"\b(?:internet|network\w*|offline|egress|outbound|air[- ]?gap\w*|"
                r"connectivity|(?:disabl\w*|no|cut|off) net|net (?:off|disabled|access))\b"),
        pattern(r"\b(?:send|sends|upload|uploads|transmit|transmits|copy|copies|post|posts|move|"
                r"moves|ship|ships|take|takes)\s+(?:[\w']+\s+){0,3}?(?:out|outside|anywhere|"
                r"externally|to the internet|off[- ]site|beyond|elsewhere)\b",
                negated=True, topic=DATA),
    )
