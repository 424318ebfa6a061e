"""CLM006 absolute-isolation-claim."""

from __future__ import annotations

import re

from compliance.judge import lexicon as lx
from compliance.judge.engine import pattern
from compliance.rules.claims.base import ClaimRule

#: The host, also by another name ("the underlying host", "the physical machine").
HOST = (r"(?:the|its|our|their) (?:underlying |physical |bare[- ]metal )?(?:host|host machine|"
        r"host kernel|host os)\b")

#: The host by any of its names, with its parts ("the host kernel", "the underlying
#: machine", "host systems", "the host filesystem").
HOSTLIKE = (r"\b(?:(?:the|its|our|their|your|any|all)\s+)?(?:underlying |physical |bare[- ]metal )?"
            r"(?:host(?:[- ](?:machines?|kernels?|os|systems?|file ?systems?|resources|paths?|"
            r"memory|processes|devices?|network|nodes?|servers?))?|(?:underlying|physical|"
            r"bare[- ]metal) (?:machines?|hardware|nodes?|servers?|kernels?|systems?|os))\b")
#: The path from the box to what it must not reach, as a compound ("agent-to-host").
TO_HOST = (r"\b(?:agents?|sandbox(?:es)?|containers?|vms?|guests?|workloads?|tenants?)[- ]to[- ]"
           r"(?:host|kernel|tenant|hypervisor)")
#: What the agent is boxed in by.
BOX = (r"(?:sandbox(?:es)?|containers?|vms?|micro[- ]?vms?|virtual machines?|jails?|enclaves?|"
       r"boundar(?:y|ies)|cages?|workspaces?|guests?)")
#: Something that is not the agent leaving the box is the exfiltration family's.
DATA_LEAVES = (r"\b(?:data|information|secrets?|credentials?|source|bytes?|traffic|packets?|"
               r"requests?|content|tokens?|files?|ip|pii|repo(?:sitor(?:y|ies))?|outputs?)\b")
#: States of a host the agent cannot affect: "the underlying machine is untouchable",
#: "keeps the host pristine", "the host stays beyond its grasp".
HOST_ADJ = (r"(?:unreachable|inaccessible|untouchable|unaffected|untouched|unharmed|pristine|"
            r"invisible|off[- ]limits|out of bounds|(?:out of|beyond) (?:the |its |their |any )?"
            r"(?:\w+(?:'s|s')? )?(?:reach|grasp)|(?:sealed|walled|cut|fenced) off|"
            r"unbreachable|impenetrable|inviolable)")
#: (a second state coordinated with the first is the same claim, not its negation: "is
#: invisible to agent workloads and out of their reach")
HOST_STATE = (r"(?P<t>" + HOST_ADJ + r"(?:\s+(?:to|from|for|by)\s+(?:[\w'-]+\s+){0,3}?(?:and|or)\s+"
              r"(?:\w+ly\s+)?" + HOST_ADJ + r")?)")

BOUNDARY = (r"\b(?:sandbox(?:es|ed)?|containers?|containeri[sz]ed|vms?|micro[- ]?vms?|"
            r"virtual machines?|gvisor|firecracker|kata|isolation|isolated|boundar(?:y|ies)|"
            r"host|jail|runtime|environment|sessions?|tenants?|namespaces?|enclave|agent|"
            r"it|nothing|no one|nobody|attackers?|code|process(?:es)?|workloads?)\b")
DATA_SUBJECT = (r"\b(?:data|information|secrets?|credentials?|files?|contents?|tokens?|traffic|"
                r"requests?|packets?)\b(?:\s+\w+){0,3}\s+(?:\w+n't|not|never|cannot)?\s*escap"
                r"|escap\w*\s+(?:the |our |its )?(?:allow[- ]?list|firewall|proxy|filter)"
                # escaping notice ("escapes our logging") is about the logs, not the boundary
                r"|" + lx.UNNOTICED.pattern)


class AbsoluteIsolationClaim(ClaimRule):
    """Flags claims that isolation is absolute or that escape is impossible.

    ## What it does
    Flags a sentence saying the sandbox, container or VM provides complete,
    full, total or perfect isolation, that a session is fully isolated, that
    the boundary is escape-proof, or that escaping or breaking out is
    impossible or cannot happen. "Each session runs in an isolated microVM"
    and "isolation depends on a well-configured host" pass.

    ## Why is this bad?
    Isolation is as strong as its kernel, hypervisor and configuration:
    container escapes and hypervisor bugs are found every year, and a single
    setting undoes it (a mounted `/var/run/docker.sock` "effectively grants
    access to the host system"; gVisor's `--network=host` "decreases the
    isolation to the host"). Claude Code's docs say "Sandboxing reduces risk
    but is not a complete isolation boundary".

    ## Example
    ```text
    Escaping the agent's microVM is impossible.
    ```

    ## Use instead
    ```text
    Each session runs in a Firecracker microVM; isolation depends on a
    well-configured, patched host and is not absolute.
    ```

    ## Sources
    - Claude Code docs, "Sandboxing": "not a complete isolation boundary"; the Docker socket
      "effectively grants access to the host system".
    - gVisor docs: `--network=host` "decreases the isolation to the host".
    - OWASP Top 10 for LLM Applications 2025, LLM06 Excessive Agency.
    """

    code = "CLM006"
    name = "absolute-isolation-claim"
    claimed = "that isolation is absolute or that escape is impossible"
    why = ("Isolation depends on the kernel, hypervisor and configuration, all of which have "
           'had escapes; vendors say sandboxing "is not a complete isolation boundary".')
    instead = ('"Sessions run in isolated microVMs; isolation depends on a well-configured, '
               'patched host and is not absolute."')
    committed = re.compile(r"\b(?:host|isolation|boundar(?:y|ies)|escap\w*|break(?:s|ing)? out|"
                           r"breakouts?|(?:other |co-?)tenants?|neighbou?rs?|hypervisor)\b")
    patterns = (
        pattern(r"\b(?:complete|full|total|perfect|absolute|100\s?%|hermetic|airtight|watertight|"
                r"impenetrable|unbreakable|bullet[- ]?proof|iron[- ]?clad|guaranteed)\s+"
                r"(?:\w+\s+)?(?:isolation|separation|containment)\b"),
        pattern(r"\b(?:fully|completely|totally|perfectly|absolutely|entirely|100\s?%|"
                r"hermetically|wholly)\s+(?:isolated|sandboxed|contained|separated|segregated|"
                r"walled off|cut off from|sealed(?: off)?|"
                # "kept entirely separate from the host": the adjective, not "separate billing"
                r"(?:separate|apart)(?=\s+from\b|\s*[.,;:!)]|\s*$))\b",
                # a contained injection is the injection family's claim, not isolation's
                unless=r"\b(?:ci|ci/cd|pipelines?|workflows?|builds?|prompt[- ]injections?|"
                r"injection attacks?|jailbreaks?)\b"
                # secrets walled off from the agent are the hidden-secrets family's claim
                r"|\b(?:secrets?|credentials?|api[- ]?keys?|tokens?|passwords?)\s+(?:are|is|stay|"
                r"stays|remain|remains|kept)\b"),
        # idioms of a closed container, and an equative with an absolute standard ("as
        # isolated as an air-gapped machine")
        pattern(r"\b(?:sealed (?:shut|tight)|locked (?:in|away) for good|boxed in for good)\b"),
        pattern(r"\bas (?:isolated|sealed|separated|cut off|walled off|segregated) as "
                r"(?:an? |the )?(?:air[- ]?gapped|offline|physically (?:separate|isolated)|"
                r"standalone|separate (?:physical )?(?:machine|computer|box|host))"),
        # (also with the copula contracted: "the isolation's bulletproof")
        # ("isolation between the agent and the host is absolute")
        pattern(r"\b(?:isolation|separation|containment|the boundary)(?:'s|\b(?:\s+[\w'-]+){0,7}?"
                r"\s+(?:is|remains|stays))\s+(?:\w+\s+)?"
                r"(?:complete|absolute|total|perfect|guaranteed|unbreakable|airtight|comprehensive|"
                r"flawless|watertight|full|bullet[- ]?proof|fool[- ]?proof|unbreachable|"
                r"impenetrable|inviolable|assured|certain|hermetic|100\s?%)(?![\w%])"),
        # a label line, the colon as copula: "- Isolation: absolute"
        # (also with a measure after the label: "Isolation strength: 100%")
        pattern(r"\b(?:isolation|separation|containment)(?:\s+[\w-]+){0,2}?\s*:\s*(?:complete|"
                r"absolute|total|perfect|guaranteed|unbreakable|airtight|flawless|watertight|full|"
                r"unbreachable|impenetrable|inviolable|hermetic|100\s?%)(?=\s*(?:[.;,()!]|$))"),
        pattern(TO_HOST + r"\b(?:\s+[\w-]+){0,2}?\s*(?::|is|are|remains?)\s*"
                r"(?:\w+\s+)?(?:unbreachable|impenetrable|unbreakable|airtight|watertight|sealed|"
                r"escape[- ]?proof|inviolable|absolute|complete|total)\b"),
        # the host's compromise, named as a thing that cannot happen ("host compromise has been
        # ruled out entirely", "host escape is off the table")
        pattern(r"\bhost[- ](?:compromise|escapes?|breakouts?|takeovers?|access|contamination|"
                r"tampering|intrusions?|exposure|breach(?:es)?)\b", negated=True,
                unless=DATA_LEAVES),
        # the host in a state the agent cannot change
        pattern(HOSTLIKE + r"(?:\s+[\w']+){0,3}?\s+(?:is|are|remains?|stays?|is kept|are kept|"
                r"will (?:stay|remain|be))\s+(?:(?:\w+ly|always|simply|wholly|fully)\s+){0,2}"
                + HOST_STATE + r"(?!\w)"),
        pattern(r"\b(?:keeps?|kept|keeping|leaves?|left|leaving)\s+" + HOSTLIKE
                + r"\s+(?:(?:\w+ly|always|simply|wholly|fully)\s+)?" + HOST_STATE + r"(?!\w)"),
        # a verb of leaving the box: "incapable of leaving its container", "never exits the
        # VM", "will never run outside its sandbox"
        pattern(r"\b(?:leav(?:e|es|ing)|exit(?:s|ing)?|get(?:s|ting)? out of|"
                r"step(?:s|ping)? out of|quit(?:s|ting)?)\s+"
                r"(?:the|its|their|our|this|that|his|her)\s+(?:own\s+)?"
                r"(?:[\w-]+\s+)?" + BOX + r"\b", negated=True,
                # ("nothing leaves the VM", "your code cannot leave the sandbox": data, so
                # the exfiltration family's)
                requires=r"\b(?:agents?|it|they|process(?:es)?|workloads?|guests?|bots?|"
                r"assistants?|models?)\b",
                unless=DATA_LEAVES + r"|\b(?:code|nothing)\b"),
        pattern(r"\b(?:run|runs|running|execut(?:e|es|ing)|operat(?:e|es|ing)|act|acts|wander(?:s)?|"
                r"stray(?:s)?|spill(?:s)?|extend(?:s)?|reach(?:es)?|get(?:s)?|go(?:es)?|"
                r"step(?:s)?)\s+(?:\w+\s+)?(?:outside|beyond)\s+(?:of\s+)?(?:the|its|their|our)\s+"
                r"(?:own\s+)?(?:[\w-]+\s+)?" + BOX + r"\b", negated=True, unless=DATA_LEAVES),
        pattern(r"\bblast radius\b(?:\s+[\w']+){0,2}?\s+(?P<t>stops|ends|is confined|stays|"
                r"remains|is contained|never (?:extends|goes|reaches))\s+(?:at|to|within|inside|in|"
                r"beyond|past)\s+(?:the|its|their|our|this)\s+(?:[\w-]+\s+)?(?:" + BOX
                + r"|edges?|walls?)\b",
                requires=r"\b(?:whatever|every|always|guaranteed|never|any|all|no matter)\b",
                premise=True),
        # the verb with its adverb after it: "isolates agents perfectly", "walled off completely"
        pattern(r"\b(?:isolat(?:e|es|ed|ing)|walled off|sealed off|cut off|separat(?:e|es|ed|ing)|"
                r"segregat(?:e|es|ed|ing)|sandboxed|contained)\b(?:\s+[\w']+){0,3}?\s+"
                r"(?:completely|fully|perfectly|totally|entirely|absolutely|hermetically|wholly|"
                r"100\s?%)(?!\w)(?=\s*(?:[.,;:!)]|$|(?:from|by|and|in|at|on|inside|within)\b))",
                unless=r"\b(?:ci|ci/cd|pipelines?|workflows?|builds?|prompt[- ]injections?|"
                r"injection attacks?|jailbreaks?|secrets?|credentials?|api[- ]?keys?|tokens?|"
                r"passwords?|logs?|data)\b"),
        pattern(r"\b(?:fully|completely|totally|perfectly|absolutely|entirely|hermetically|wholly)\s+"
                # (not the adjective: "a completely separate billing account")
                r"(?:isolat(?:e|es|ing)|separat(?:es|ing)|seal(?:s|ing)? off|wall(?:s|ing)? off)\b",
                unless=r"\b(?:ci|ci/cd|pipelines?|workflows?|builds?|prompt[- ]injections?|"
                r"injection attacks?|jailbreaks?|secrets?|credentials?|api[- ]?keys?|tokens?|"
                r"passwords?|logs?|data)\b"),
        # no gap in the wall: "our isolation leaves no gap an agent could slip through"
        pattern(r"\b(?P<t>(?:no|zero|not (?:a|one)(?: single)?|without (?:a |any )?)\s*"
                r"(?:\w+\s+)?(?:gaps?|holes?|cracks?|chinks?|openings?|loopholes?|weak (?:spots?|"
                r"points?)))\b",
                topic=r"\b(?:isolation|sandbox(?:es)?|containers?|vms?|micro[- ]?vms?|"
                r"boundar(?:y|ies)|host|hypervisor|jail|tenants?)\b",
                unless=r"\b(?:logs?|logging|audit\w*|records?|coverage|allow[- ]?lists?|firewall|"
                r"proxy|monitoring|telemetry|review)\b"),
        # the host reached through a pronoun: "sealed off from the host; nothing they run can
        # reach it"
        pattern(r"\b(?:reach|access|touch|affect|tamper with|compromise|get to|talk to)(?:es|s)?\s+"
                # (the host, not "a host" on the network)
                r"(?:it|them)\b(?!\s+(?:to|from)\b)", negated=True,
                topic=r"\b(?:the|its|our|their) (?:underlying )?host\b",
                unless=DATA_LEAVES + r"|\b(?:secrets?|keys?|logs?)\b"),
        pattern(r"\b(?:escape|breakout|break-out|escape)[- ]?proof\b|\b(?:unescapable|"
                r"inescapable)\b"),
        pattern(r"\b(?:reach|access|see|touch|affect|read|interfere with|talk to)(?:es|s)?\s+"
                r"(?:another(?:'s)?|other (?:customers?|tenants?|sessions?|agents?)(?:'s?)?|"
                r"each other(?:'s)?|one another(?:'s)?|"
                # "a neighbour's memory", "co-tenants", "adjacent workloads"
                r"(?:an? |the |its |their |any )?(?:neighbou?r(?:'s|s'|s|ing)?|co-?tenants?|"
                r"adjacent (?:tenants?|workloads?|vms?|containers?|sessions?))\b)", negated=True),
        # a one-way door: "once the agent is inside, it's never coming out"
        pattern(r"\bonce\b[^;.]{0,40}?\b(?:in|inside|in there|locked in|contained)\b[^;.]{0,30}?"
                r"\b(?:com(?:e|es|ing)|walk(?:s|ing)?|get(?:s|ting)?) (?:back )?out\b",
                negated=True, topic=r"\b(?:agents?|it|they|workloads?|process(?:es)?|guests?)\b"),
        pattern(r"\b(?:penetrat(?:e|es|ed|ing)|break(?:s|ing)? into|get(?:s)? into)\b",
                negated=True, topic=BOUNDARY),
        pattern(r"\b(?:escap(?:e|es|ed|ing|able)|break(?:s|ing)? out|breakouts?|break-outs?|"
                # verbs of climbing out: "can never climb out of", "crawl out of"
                r"(?:climb|crawl|wriggl|claw|squeez|clamber|tunnel)(?:s|ed|ing|e|es)?\s+out)\b",
                negated=True, unless=DATA_SUBJECT),
        # "cross-tenant contamination is not a thing"
        pattern(r"\bcross[- ](?:tenant|customer|session|workload|container|vm|sandbox)s?\s+"
                r"(?:contamination|leak\w*|access|bleed\w*|interference|exposure|attacks?|"
                r"escapes?|reads?|spill\w*)\b", negated=True),
        # "there isn't one tenant wall our runtime hasn't sealed"
        pattern(lx.DOUBLE_NEGATIVE + r"(?:seal|clos|block|shut|plug|harden|lock)\w*",
                topic=BOUNDARY),
        pattern(r"\b(?:breach|penetrate|cross|break|pierce)(?:es|s)?\s+"
                r"(?:the |that |this |its |our )?"
                r"(?:[\w-]+\s+)?boundar(?:y|ies)\b", negated=True,
                # data crossing the boundary is the exfiltration family's claim
                unless=DATA_LEAVES),
        pattern(r"\bboundar(?:y|ies)\b(?:\s+[\w']+){0,3}?\s+(?:be |been |is |are )?(?:crossed|"
                r"breached|broken|penetrated|bypassed)\b", negated=True),
        # the box's wall by another name: "the container wall cannot be crossed"
        pattern(r"\b(?:walls?|barriers?|perimeters?|edges?|membranes?|shells?)\b(?:\s+[\w']+){0,3}?"
                r"\s+(?:be |been |is |are )?(?:crossed|breached|broken|penetrated|bypassed|"
                r"pierced|scaled|climbed|breached|broken through|circumvented|defeated)\b",
                negated=True, topic=r"\b(?:sandbox(?:es)?|containers?|vms?|micro[- ]?vms?|"
                r"isolation|jail|hypervisor|tenants?|host)\b"),
        pattern(r"\b(?:access|reach|touch|read|see|affect|get to|talk to)(?:es|s|ed)?\s+"
                r"(?:[\w']+\s+){0,3}?(?:outside|beyond)\s+(?:of\s+)?(?:the |their |its |our )?"
                r"(?:sandbox|container|vm|microvm|workspace|boundary|jail)", negated=True),
        pattern(r"\b(?:visible|accessible|readable|available|exposed|shared)\s+(?:to|with)\s+"
                r"(?:any\s+)?(?:other|another|different)\s+(?:tenants?|customers?|sessions?|agents?|"
                r"users?)\b", negated=True),
        pattern(r"\b(?:invisible|inaccessible|unreadable|unreachable|hidden)\s+(?:to|from)\s+"
                r"(?:every|all|any)?\s*(?:other|another|different)\s+(?:tenants?|customers?|sessions?|"
                r"agents?|users?)\b"),
        pattern(r"\b(?:holds?|withstands?|resists?|survives?|stops?|blocks?|defeats?)\s+(?:up\s+)?"
                r"(?:against\s+)?(?:any|every|all)\s+(?:\w+\s+)?(?:attacks?|exploits?|escapes?|"
                r"attempts?|breakouts?)\b",
                topic=r"\b(?:sandbox(?:es)?|containers?|vms?|micro[- ]?vms?|boundar(?:y|ies)|"
                r"isolation|jail|runtime|hypervisor|gvisor|firecracker)\b"),
        pattern(r"\b(?:disabl\w+|turn(?:ed|s)? off|switch(?:ed|es)? off|opt(?:s|ed)? out of)\b",
                negated=True, topic=r"\b(?:sandbox(?:es|ing)?|isolation|container|vm|firewall)\b",
                requires=r"\b(?:agents?|model|it|they|ai|llm|copilot|claude|codex|anyone|nobody)\b"),
        pattern(r"\b(?:paths?|routes?|way|access|connection|channels?)\s+(?:\w+\s+){0,2}?(?:to|into)\s+"
                + HOST, negated=True),
        # the host by another name: "the underlying machine", "the physical server"
        pattern(r"\b(?:reach|access|touch|affect|see|read|modify|get to|talk to|escape to|"
                r"break (?:out )?(?:in)?to|compromise|tamper with)(?:es|s)?\s+"
                r"(?:the|its|our|their) "
                r"(?:underlying|physical|bare[- ]metal|host) (?:machine|hardware|node|server|"
                r"kernel|system|host|os)\b", negated=True),
        pattern(r"\b(?:way out|escape routes?|exit routes?)\b", negated=True,
                topic=r"\b(?:sandbox(?:es)?|containers?|vms?|micro[- ]?vms?|boundar(?:y|ies)|"
                r"isolation|jail|runtime|hypervisor|gvisor|firecracker)\b",
                # data finding its way out is the exfiltration family's claim
                unless=r"\b(?:data|code|source|lines?|bytes?|secrets?|files?|information|"
                r"credentials?|tokens?|ip|pii)\b"),
        pattern(r"\b(?:impenetrable|unbreakable|escape[- ]proof|inescapable|unescapable|airtight|"
                r"watertight)\s+(?:\w+\s+)?(?:sandbox(?:es)?|containers?|vms?|micro[- ]?vms?|"
                r"boundar(?:y|ies)|jails?|enclaves?)\b"),
        pattern(r"\bhermetic(?:ally)?\s+(?:sealed\s+)?(?:sandbox(?:es)?|containers?|vms?|"
                r"environments?|isolation|boundar(?:y|ies)|"
                # the container metaphors: "a hermetic airlock", "a hermetic vault"
                r"airlocks?|vaults?|seals?|barriers?|bubbles?|walls?|chambers?)\b"),
        pattern(r"\b(?:sandbox(?:es)?|containers?|vms?|micro[- ]?vms?|boundar(?:y|ies)|isolation|"
                r"jail|enclave)(?:'s|\b(?:\s+[\w']+){0,3}?\s+(?:is|are|remains?|stays?))\s+"
                r"(?:\w+\s+)?"
                r"(?:impenetrable|unbreakable|escape[- ]proof|airtight|watertight|inviolable|"
                r"unbreachable)\b"),
        pattern(r"\b(?:be|been)\s+(?:broken|breached|defeated|escaped|broken out of)\b",
                negated=True,
                topic=r"\b(?:isolation|sandbox(?:es)?|containers?|vms?|micro[- ]?vms?|"
                r"boundar(?:y|ies)|separation)\b"),
        pattern(r"\b(?:walled off|sealed off|cut off|isolated|separated|segregated)\s+"
                r"(?:(?:fully|completely|entirely|totally|hermetically|wholly)\s+)?from\s+"
                r"(?:all|every|any|everything)\b",
                unless=r"from\s+(?:all|every|any)\s+(?:\w+\s+)?(?:secrets?|credentials?|keys?|"
                r"tokens?|passwords?)"),
        pattern(r"\b(?:cross(?:es|ing)? (?:the |that |this )?(?:isolation )?boundar(?:y|ies)|"
                # (the article may be missing: "Can agent access host filesystem?")
                r"(?:reach|access|touch|affect|see)(?:es|s)? (?:(?:the|its|our) )?host(?:[- ]"
                r"(?:file ?systems?|kernels?|machines?|os|nodes?|processes|memory|devices?))?)\b",
                negated=True, topic=BOUNDARY, unless=DATA_SUBJECT),
    )
