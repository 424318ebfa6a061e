"""CLM007 hidden-secrets-claim."""

from __future__ import annotations

import re

from compliance.judge.engine import pattern
from compliance.rules.claims.base import ClaimRule

SECRET = (r"(?:[a-z0-9]+_(?:[a-z0-9]+_)*(?:tokens?|keys?|secrets?|passwords?|pats?|credentials?)|"
          r"secrets?|credentials?|api[- ]?keys?|keys|tokens?|passwords?|"
          r"(?:deploy|signing|encryption|secret|cloud) keys?|"
          r"env(?:ironment)? var(?:iable)?s?|access keys?|private keys?|ssh keys?|\.env|"
          r"certificates?|passphrases?|"
          # "sensitive configuration values are concealed from ... agents"
          r"sensitive (?:config(?:uration)? )?(?:values?|settings?|variables?))")
PERCEIVE = (r"(?:see|sees|seen|read|reads|view|views|access|accesses|accessed|obtain|obtains|"
            r"get at|gets at|get to|gets to|know|knows|print|prints|echo|echoes|reach|reaches|"
            r"retrieve|retrieves|extract|extracts|steal|steals|dump|dumps|use|uses|touch|touches|"
            r"discover|discovers|find|finds|learn|learns|exposure (?:of|to)|"
            # recovering or glimpsing a value: "recover their plaintext", "glimpse the keys"
            r"recover|recovers|decrypt|decrypts|reveal|reveals|uncover|uncovers|glimpse|glimpses|"
            r"peek at|peeks at|peep at|sniff|sniffs|harvest|harvests|grab|grabs|copy|copies|"
            r"exfiltrate|exfiltrates|inspect|inspects|enumerate|enumerates|list|lists|"
            # the gerunds ("worry about the agent seeing your secrets")
            r"seeing|reading|viewing|accessing|retrieving|extracting|stealing|dumping|touching|"
            r"finding|printing|"
            # idioms of laying hold: "lay eyes on", "get its hands on", "lay a finger on"
            r"(?:lay|lays|laid|set|sets|get|gets|got|put|puts)\s+(?:its |their |his |her |a |an )?"
            r"(?:eyes|hands?|finger|paws|mitts)\s+on|"
            # a glance: "get a peek at", "catch a glimpse of", "take a look at"
            r"(?:get|gets|got|catch|catches|caught|have|has|take|takes|sneak|sneaks|steal|steals)"
            r"\s+(?:a |an |one |even a |so much as a )?(?:peek|peep|glimpse|look|sight|whiff|"
            r"glance|eyeful|squint)\s+(?:at|of|into|inside))")
#: "hold no standing credentials (they can read)": a statement about which credentials
#: are kept in the agent's reach (none that last), not that what it holds is hidden.
HOLDS_NO_LASTING = (r"\b(?:holds?|holding|has|have|having|carr(?:y|ies)|keeps?|gets?|given)\s+"
                    r"(?:no|zero)\s+(?:standing|long-lived|long-term|static|persistent|"
                    r"permanent|lasting)\s+" + SECRET + r"\b")
#: CI jobs that run without the secrets ("workflows from forks run without access to
#: deploy secrets") are scoped by the pipeline; the claim is about the agent's own view.
PIPELINE_RUN = (r"\b(?:(?:workflows?|jobs?|builds?|pipelines?|runners?|ci|steps?)\b[^.;]{0,60}?"
                r"\b(?:run|runs|ran|execute[sd]?)|(?:run|runs|ran)\s+(?:the\s+|its\s+|their\s+)?"
                r"(?:ci|workflows?|jobs?|builds?|pipelines?))\b[^.;]{0,60}?\b(?:without|with no|no)"
                r"\s+(?:\w+\s+)?access\b")
#: Secrets kept outside the agent's environment are hidden from it, honestly ("secrets
#: outside the sandbox are kept from the agent; those inside it are readable").
HELD_OUTSIDE = (r"\b" + SECRET + r"\b\s+(?:[\w-]+\s+)?(?:outside|beyond)\s+(?:of\s+)?"
                r"(?:the|its|their|our)\s+(?:agent(?:'s)?\s+)?(?:sandbox|environment|container|vm|"
                r"workspace|session)")
#: A thing that receives no secrets ("workflow runs ... read and receive no repository
#: secrets"): the "no" is the object's, not a denied perception before it.
RECEIVES_NONE = (r"\b(?:receive|receives|received|get|gets|given|hold|holds|carry|carries)\s+"
                 r"(?:no|zero)\b")
NOT_AGENT_VIEW = (r"\b(?:in|from) (?:the |our |its |their )?(?:[\w-]+ )?"
                  r"(?:logs?|output|transcripts?|ui|console|screenshots?)\b")


class HiddenSecretsClaim(ClaimRule):
    """Flags claims that secrets in the agent's environment are hidden from it.

    ## What it does
    Flags a sentence saying secrets, credentials, API keys or tokens are
    hidden, invisible, masked or inaccessible to the agent, or that the agent
    cannot see, read or access them. "Secrets in environment variables are
    readable by any command the agent runs" passes, and so does "deploy
    credentials stay outside the VM, so the agent never holds them".

    ## Why is this bad?
    Anything in the agent's environment is readable by any command the agent
    runs: `env`, `cat /proc/self/environ`, a test that prints its config.
    Claude Code's default sandbox read policy "includes credential files such
    as `~/.aws/credentials`"; environment variables in a cloud environment
    are "visible to anyone using the environment"; masking hides a value from
    logs, not from the process that uses it. The honest claim is about where
    credentials are kept, not that the agent cannot see what it holds.

    ## Example
    ```text
    Environment secrets are hidden from the agent.
    ```

    ## Use instead
    ```text
    Deploy credentials stay outside the agent's environment; the few secrets
    inside it are readable by any command the agent runs and are scoped and
    short-lived for that reason.
    ```

    ## Sources
    - Claude Code docs, "Sandboxing" and "Configure cloud environments" (default read policy;
      environment variables "visible to anyone using the environment").
    - OWASP Top 10 for LLM Applications 2025, LLM06 Excessive Agency ("minimize permissions").
    """

    code = "CLM007"
    name = "hidden-secrets-claim"
    claimed = "that secrets are hidden from the agent"
    why = ("A secret in the agent's environment is readable by any command the agent runs "
           "(env, /proc, a test that prints config); masking hides values from logs, not from "
           "the process.")
    instead = ('"Long-lived credentials stay outside the agent environment; the secrets inside it '
               'are readable by any command the agent runs, so they are scoped and short-lived."')
    committed = re.compile(r"\b" + SECRET + r"\b")
    patterns = (
        pattern(r"\b" + SECRET + r"\b(?:[\s,]+[\w'-]+){0,5}?[\s,:]+(?:(?:is|are|remain|stay|stays|"
                r"remains|kept|be)\s+(?:\w+ly\s+)?)?(?P<t>hidden|invisible|inaccessible|concealed|"
                r"masked|redacted|shielded|undetectable|unobservable|imperceptible|unrecoverable|"
                r"unretrievable|undiscoverable|locked (?:away|up)|"
                r"(?:secret|private|sealed|safe) from|out of bounds|"
                r"(?:agent|ai|model|llm|bot)[- ]proof|"
                r"opaque to (?=(?:the |an? |any |our |its )?(?:agents?|models?|ai|llm|assistants?|"
                r"sandbox|it|them|llms?)\b)|"
                r"sealed off|walled off|out of (?:the agent's |its )?reach|unreadable|unavailable|"
                r"off[- ]limits|"
                # "out of the assistant's sight", "out of sight of the model"
                r"out of (?:the (?:agent|model|assistant|ai)(?:'s|s')? |its |their )?(?:sight|view)"
                r"(?: (?:of|from) (?:the |any )?(?:agents?|model|ai|assistant))?|"
                r"(?:fully |completely |totally )?(?:protected|safe|kept|withheld) from|"
                r"(?:kept|held|stored)\s+(?:\w+\s+)?away from|"
                r"not (?:visible|readable|accessible|exposed|available|shown|revealed))\b",
                unless=NOT_AGENT_VIEW + "|" + HELD_OUTSIDE),
        pattern(r"\b" + PERCEIVE + r"\b(?:\s+[\w'-]+){0,4}?\s+" + SECRET + r"\b", negated=True,
                unless=PIPELINE_RUN + "|" + RECEIVES_NONE),
        pattern(r"\b" + SECRET + r"\b(?:\s+[\w'-]+){0,5}?\s+(?:exposed|visible|readable|"
                r"available|accessible|seen|read|shown|revealed|leaked|passed|given)\s+"
                r"(?:(?:to|by|in|with)\s+)?(?:the |any |an )?"
                r"(?:(?:coding|ai|llm|autonomous|code|cloud) )?(?:agent|model|ai|llm|it|agents|"
                r"sandbox|process)", negated=True,
                # (or left out in a question: "NPM_TOKEN readable by agent?")
                requires=r"\b(?:is|are|was|were|be|been|being|remains?|stays?|gets?|got)\b|\?"
                # (or a label line or table row: "Env secrets readable by agent: No")
                r"|:\s"),
        pattern(r"\b(?P<t>(?:no|zero|without(?: any)?)\s+(?:\w+\s+)?(?:access|visibility|insight|"
                r"view|way in))\b", topic=r"\b" + SECRET + r"\b",
                requires=r"\b(?:agents?|model|ai|llm|assistant|it|copilot|claude|codex)\b",
                unless=PIPELINE_RUN),
        pattern(r"\b(?:" + PERCEIVE + r"|(?:have|has|had|having|get|gets|gain|gains)\s+(?:any\s+)?"
                r"(?:access|visibility)\s+(?:to|into))\s+(?:them|it|these|those|any of them|"
                r"(?:the |their |its )?"
                r"(?:raw |actual |plaintext |underlying |secret )?(?:values?|contents?|plaintext|"
                r"cleartext))\b",
                negated=True,
                topic=r"\b" + SECRET + r"\b",
                requires=r"\b(?:agents?|model|ai|llm|assistant|copilot|claude|codex)\b"),
        # the noun phrase on its own, as in a label line or table row ("Agent visibility
        # into credentials: none")
        pattern(r"\b(?:access|visibility|insight|view)\s+(?:to|into|of|on)\s+(?:[\w']+\s+){0,2}?"
                + SECRET + r"\b", negated=True,
                requires=r"\b(?:agents?|model|ai|llm|assistant|copilot|claude|codex)\b",
                unless=PIPELINE_RUN),
        # the agent's view as a column or label ("| Asset | Agent visibility |" over
        # "| Environment secrets | None |")
        pattern(r"\b(?:agents?|models?|ai|llm|assistants?)(?:'s)?\s+(?:visibility|access|exposure|"
                r"insight|view|readability)\b(?=\s*:)", negated=True, topic=r"\b" + SECRET + r"\b"),
        pattern(r"\bexposure\b", negated=True, topic=r"\b" + SECRET + r"\b"),
        # ("secrets never so much as brush past the agent")
        pattern(r"\b" + SECRET + r"\b(?:\s+[\w']+){0,5}?\s+(?:touch(?:es)?|reach(?:es)?|"
                r"brush(?:es)? (?:past|against|up against)|(?:come|comes|go|goes|get|gets) near|"
                r"cross(?:es)? paths with|"
                r"enter(?:s)?|get(?:s)? into|end(?:s)? up in|appear(?:s)? in|land(?:s)? in|"
                # verbs of seeping in: "seeps into the agent's context", "crosses into"
                r"(?:seep|leak|flow|cross|slip|drift|creep|trickle)(?:s|es|ed)? into|"
                r"(?:makes?|finds?) (?:its|their) way into|"
                r"makes? it into|makes? it to)\s+"
                r"(?:the |its |their )?"
                r"(?:agent(?:'s|s')?|model(?:'s)?|sandbox|vm|container)", negated=True),
        pattern(r"\b" + PERCEIVE + r"(?:\s+(?:from|in|into|out of))?(?=\s*(?:[.,;:!?)]|$))",
                negated=True, topic=r"\b" + SECRET + r"\b",
                requires=r"\b(?:agents?|model|ai|llm|assistant|copilot|claude|codex)\b",
                # ("out of the model's reach" is the idiom, not the verb)
                unless=HOLDS_NO_LASTING
                + r"|\bout of (?:the |its |their )?(?:\w+(?:'s|s')? )?reach\b"),
        # a vault's verbs: "a vault the agent cannot open"
        pattern(r"\b(?:vaults?|lockers?|strongbox(?:es)?)\b(?:\s+[\w']+){0,5}?\s+"
                r"(?:open|opens|unlock|unlocks|crack|cracks)\b", negated=True,
                topic=r"\b" + SECRET + r"\b",
                requires=r"\b(?:agents?|model|ai|llm|assistant|copilot|claude|codex)\b"),
        pattern(r"\bblind to\s+(?:all\s+|any\s+|the\s+|our\s+)?(?:[\w']+\s+){0,4}?" + SECRET
                + r"\b"),
        pattern(r"\b(?:walled off|sealed off|cut off|isolated|shielded|kept away|hidden)\s+from\s+"
                r"(?:all|every|any)\s+(?:\w+\s+)?" + SECRET + r"\b"),
        # what a command run by the agent shows: "running `env` as the agent reveals nothing
        # sensitive", "printing the environment shows no secret values"
        pattern(r"\b(?:reveal|show|print|expose|leak|return|yield|surface|display|output|dump|"
                r"give away|turn up|produce|disclose)s?\s+(?P<t>nothing|no)\s+(?:\w+\s+)?"
                r"(?:sensitive|secret|confidential|of value|credentials?|secrets?|keys?|tokens?|"
                r"passwords?)\b",
                requires=r"\b(?:agents?|model|ai|llm|assistant|copilot|claude|codex)\b",
                premise=True),
        # read access denied to the agent: "agent processes are denied read access to the
        # secret environment variables"
        pattern(r"\b(?P<t>(?:denied|refused|barred from|blocked from|locked out of|shut out of)\s+"
                r"(?:any\s+|all\s+)?(?:read\s+|direct\s+)?(?:access|visibility)\s+(?:to|into|of)?)\s*"
                # (files or stores of credentials are a permission, not the environment's
                # secrets: "denied read access to credential files")
                r"(?:[\w'-]+\s+){0,3}?" + SECRET + r"\b(?!\s+(?:files?|stores?|vaults?|paths?|"
                r"director(?:y|ies)|dirs?|databases?))",
                requires=r"\b(?:agents?|model|ai|llm|assistant|copilot|claude|codex|it|they)\b"),
        pattern(r"\bnothing (?:sensitive|secret|confidential|of value)\s+(?:to|it can|it could)\s+"
                r"(?:read|see|access|find|steal|leak|take)\b",
                requires=r"\b(?:agents?|model|ai|llm|assistant|it|copilot|claude|codex)\b"),
        # a predicate whose subject is elsewhere ("Secrets? Invisible to the agent.", "They are
        # hidden from the model.")
        # "keeps them out of the agent's reach"
        pattern(r"\b(?P<t>(?:out of|beyond) (?:the (?:agent|model|assistant|ai|llm)(?:'s|s')?) "
                r"(?:reach|sight|view))\b", topic=r"\b" + SECRET + r"\b"),
        pattern(r"\b(?P<t>invisible|hidden|inaccessible|concealed|unreadable|unavailable|"
                r"off[- ]limits|"
                # the metaphors: "a black box to the agent", "a closed book to the model"
                r"(?:an? )?(?:black box|closed book|sealed book|no-go zone|mystery)|"
                r"not (?:visible|readable|accessible|available|exposed|shown))\s+(?:to|from)\s+"
                r"(?:the |any |an |our |every |all )?"
                r"(?:agents?|model|ai|llm|sandbox|process(?:es)?|assistant)\b",
                topic=r"\b(?:" + SECRET + r"|vaults?)\b", unless=NOT_AGENT_VIEW),
        pattern(r"\b(?:hide|hides|mask|masks|conceal|conceals|shield|shields)\s+(?:all |every |"
                r"the |our |any )?" + SECRET + r"\s+from\b"),
        # nominalised: "total concealment of environment secrets from agent processes"
        pattern(r"\b(?:concealment|hiding|masking|shielding|withholding|redaction)\s+of\s+"
                r"(?:all |every |the |our |any )?(?:[\w-]+\s+)?" + SECRET + r"\s+from\b",
                unless=NOT_AGENT_VIEW),
    )
