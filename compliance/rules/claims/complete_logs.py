"""CLM008 complete-logs-claim."""

from __future__ import annotations

import re

from compliance.judge import lexicon as lx
from compliance.judge.engine import pattern
from compliance.rules.claims.base import ClaimRule

LOGS = (r"\b(?:logs?|logged|logging|audit(?:ed|ing)?|audit (?:trail|log)s?|transcripts?|"
        r"recordings?|records?|recorded|telemetry|monitor(?:ed|ing)?|trails?|siem|we|"
        r"auditable|sessions?|observability|monitoring|dashboards?|consoles?)\b")
RECORDS = (r"\b(?:logs?|logged|logging|audit\w*|transcripts?|recordings?|records?|"
           r"recorded|telemetry|trails?|siem)\b")
EVENTS = (r"(?:actions?|activit(?:y|ies)|commands?|tool calls?|steps?|requests?|changes?|events?|"
          r"operations?|keystrokes?|prompts?|sessions?|interactions?|invocations?|executions?|"
          r"quer(?:y|ies)|edits?|writes?|reads?|messages?|responses?|outputs?|bytes?|"
          r"misbehaviou?rs?|anomal(?:y|ies)|incidents?|abuses?|violations?|"
          r"file (?:reads?|writes?|"
          r"accesses|access)|network (?:requests?|calls?|connections?)|things?|calls?|runs?|"
          r"moves?|steps?|clicks?|decisions?)")


class CompleteLogsClaim(ClaimRule):
    """Flags claims that logs are complete or tamper-proof.

    ## What it does
    Flags a sentence saying every action is logged, logs capture everything
    or are complete, any session can be reconstructed fully, or logs are
    tamper-proof, immutable or cannot be altered. "Logs record tool calls but
    not what the model saw" and "write-once storage makes tampering harder"
    pass.

    ## Why is this bad?
    Agent logs record what the harness sees: tool calls and commands. They
    miss what the model was shown, what a subprocess did inside a command,
    network traffic that bypassed the proxy, and anything before logging was
    configured; transcripts are kept 30 days by default in Claude Code.
    Whoever administers the log store can alter or delete it; write-once
    storage and hashing make tampering evident or harder, not impossible.
    OWASP LLM06: logging "will not prevent Excessive Agency, but can limit
    the level of damage caused".

    ## Example
    ```text
    Every agent action is logged and the logs are tamper-proof.
    ```

    ## Use instead
    ```text
    Tool calls and shell commands are logged to a write-once bucket; logs do not
    capture model context or subprocess detail.
    ```

    ## Sources
    - OWASP Top 10 for LLM Applications 2025, LLM06 Excessive Agency (logging and monitoring).
    - Claude Code settings reference: `cleanupPeriodDays` (transcripts kept 30 days by default).
    """

    code = "CLM008"
    name = "complete-logs-claim"
    claimed = "that logs are complete or tamper-proof"
    why = ("Logs record what the harness sees (tool calls, commands), not model context, "
           "subprocess detail or traffic that bypassed the proxy, and whoever administers the "
           "log store can alter it.")
    instead = ('"Tool calls and commands are logged to write-once storage; the logs do not '
               'capture everything (e.g. model context) and tampering is made harder, not '
               'impossible."')
    committed = re.compile(RECORDS)
    patterns = (
        pattern(r"\b(?:tamper[- ]?proof|tamperproof|immutable|unalterable|unmodifiable|"
                r"undeletable|indelible|forgery[- ]?proof|tamper[- ]?free|incorruptible|"
                # the adjectives in un-...-able: "unforgeable", "uneditable", "unerasable"
                r"un(?:forge|edit|eras|rewrit|overwrit|falsifi|tamper|doctor|purg|chang)e?able|"
                # "written in stone", "set in stone"
                r"(?:written|set|carved|etched|cast) in stone)\b",
                topic=LOGS),
        pattern(r"\b(?:complete|comprehensive|exhaustive|full|total|perfect|gap[- ]?free|"
                r"100\s?%|end-to-end|full-fidelity|leave-nothing-out|lossless)"
                r"(?:,?\s+(?:and\s+)?[\w-]+(?=[\s,]))?\s+(?:\w+\s+)?"
                r"(?:logs?|logging|audit (?:trails?|logs?)|"
                r"records?|visibility|transcripts?|coverage|history|trace|traceability|"
                r"auditability)\b"),
        pattern(r"\b(?:logs?|logging|audit (?:trails?|logs?|data)|records?|recordings?|"
                r"transcripts?|telemetry|monitoring|observability)"
                r"(?:\s+[\w']+){0,4}?\s+(?:is|are|remain)\s+"
                # a coordinated adjective first: "100% accurate and complete"
                r"(?:(?:100\s?% |fully |totally |entirely |always )?[\w-]+,?\s+and\s+)?"
                r"(?:100\s?% |fully |totally |entirely |always )?"
                r"(?:complete|comprehensive|exhaustive|total|perfect|"
                r"gap[- ]?free)\b"),
        # a label line, the colon as copula: "- Logging: complete"
        pattern(r"\b(?:logs?|logging|audit(?: trails?| logs?)?|transcripts?|telemetry)"
                r"(?: coverage| completeness| integrity| immutability| fidelity)?\s*:\s*"
                r"(?:complete|comprehensive|exhaustive|total|full|gap[- ]?free|tamper[- ]?proof|"
                r"immutable|100\s?%|absolute|guaranteed|perfect|assured)(?=\s*(?:[.;,()!]|$))"),
        pattern(r"\b(?:every|each|all|any)(?: single| and every)?\s+(?:[\w-]+\s+){0,2}?" + EVENTS +
                r"\b[^;]{0,60}?\b(?:logged|recorded|captured|audited|tracked|traced|monitored|"
                r"on (?:the )?record|"
                r"(?:written|sent|streamed|shipped|saved|stored|kept|appended|forwarded)"
                r" (?:to|in|into) (?:the |our |an? )?(?:[\w-]+ )?(?:logs?|audit\w*|siem|"
                r"transcripts?))\b"),
        pattern(r"\b(?P<t>miss(?:es|ed)?\s+(?:nothing|no\s+\w+))\b", topic=LOGS),
        # "everything the agent does is captured"
        pattern(r"\beverything\s+(?:that\s+)?(?:the |an? |our |your |its |their )?"
                r"(?:agents?|it|they|models?|bots?|assistants?|sessions?)\b[^;]{0,40}?\b(?:logged|recorded|captured|"
                r"audited|tracked|traced|on (?:the )?record)\b"),
        # a conditional universal: "if the agent did it, it's in the log", "if it happened,
        # we recorded it"
        pattern(r"\bif (?:the |an |our )?(?:agents?|it|they|bots?|assistants?|models?|sessions?|"
                r"anyone|someone|anything)\b[^,;.]{0,40}?,\s*(?:then\s+)?(?:(?:it's|it is|it'll be|"
                r"it will be|it gets|it goes|it ends up|they're|they are)\s+(?:logged|recorded|"
                r"captured|audited|(?:in|on) (?:the |our |an? )?(?:logs?|audit\w*|record|siem|"
                r"trail|transcripts?))|(?:we|the logs?|our logs?|the siem|the audit \w+)\s+"
                r"(?:'ve |have |will |'ll )?(?:logged|recorded|captured|audited|log|record|"
                r"capture|have|see|saw) it)\b"),
        # a coverage verdict under a log label or table header ("Log source Shell Coverage: Full")
        pattern(r"\b(?:coverage|completeness|capture)\s*:\s*(?:complete|comprehensive|exhaustive|"
                r"total|full|gap[- ]?free|100\s?%)(?=\s*(?:[.;,()!]|$))", topic=RECORDS),
        # a bare verdict answering a question about the logs ("Logging coverage? 100%.")
        pattern(r"\b(?:100\s?%|complete|comprehensive|exhaustive|total|full|gap[- ]?free|"
                r"tamper[- ]?proof|immutable|everything|all of it)\s*[.!]*\s*$",
                requires=r"^\s*(?:[\w%-]+\s+){0,2}?[\w%-]+\s*[.!]*\s*$",
                topic=r"\b(?:logs?|logging|audit\w*|transcripts?|telemetry|records?|recording)\b"),
        # "never miss a single agent action"
        pattern(r"\bmiss(?:es|ed)?\s+(?:a single|one single|one|an?|any)\s+(?:[\w'-]+\s+){0,2}?"
                + EVENTS + r"\b", negated=True, topic=LOGS),
        # "there isn't an action our SIEM doesn't capture"
        pattern(lx.DOUBLE_NEGATIVE + r"(?:log|captur|record|track|audit|trac|see|catch|caught|"
                r"notic|detect|stor)\w*", topic=LOGS),
        pattern(r"\b(?:sees?|observes?|watch(?:es)?)\s+(?:\w+\s+){0,2}?(?:all|every|everything)\b",
                topic=r"\b(?:logs?|logging|audit\w*|monitor\w*|observability|siem|telemetry)\b"),
        # "captures everything", "records every command": the universal must range over
        # agent activity, not over anything ("we record each issuance" is a narrow claim)
        pattern(r"\b(?:log(?:s|ged)?|captur\w*|record\w*|track\w*|audit\w*|trace\w*|catch\w*|"
                r"detect\w*|spot\w*)\s+(?:[\w']+\s+){0,2}?"
                r"(?P<t>everything|all of it|it all|(?:all|every|each|any|100\s?%)(?:\s+of)?"
                r"(?:\s+(?:the|single|agent|agent's|its|their))*\s+"
                r"(?:[\w-]+\s+)?" + EVENTS + r")(?!\w)", topic=LOGS),
        pattern(r"\bwithout (?:any )?exceptions?\b", topic=LOGS),
        pattern(r"\b(?:log|captur|record|track|keep|store|contain)\w*\s+(?:the |a )?"
                r"(?:full|complete|entire|whole|every)\s+(?:\w+\s+)?(?:context|history|sessions?|conversations?|"
                r"record|trace|interactions?|transcripts?)\b", topic=LOGS),
        pattern(r"\b(?:incomplete|lossy|partial)\b", negated=True,
                topic=r"\b(?:logs?|logging|audit (?:trails?|logs?)|transcripts?|records?)\b"),
        pattern(r"\b(?:gaps?|holes?|blind spots?)\b", negated=True,
                topic=r"\b(?:logs?|logging|audit (?:trails?|logs?)|transcripts?|records?)\b"),
        # ("no longer unseen": "no longer" is a change of state, not "no thing")
        pattern(r"\b(?P<t>nothing|no(?! longer\b)|none of|not (?:one|a single))\s+"
                r"(?:[\w']+\s+){0,6}?"
                r"(?:goes |is |gets |remains |stays |passes )?(?:unlogged|unrecorded|unaudited|"
                r"untracked|unmonitored|unnoticed|undetected|unseen)\b"),
        # "nothing the agent does escapes our logging": evading the log is not being logged
        pattern(r"\b(?:escap(?:e|es|ed|ing)|evad(?:e|es|ed|ing)|bypass(?:es|ed|ing)?|"
                r"slip(?:s|ped)? (?:past|through)|get(?:s)? past|avoid(?:s|ed)?)\s+"
                r"(?:the |our |its |their )?(?:[\w-]+\s+)?(?:logs?|logging|audit(?: trail| log)?|"
                r"monitoring|recording|telemetry|recorders?|monitors?|auditors?|siem|cameras?|"
                r"watch|gaze|eyes?|dragnet)\b", negated=True),
        # nothing done without a trace: "the agent cannot do anything without it showing up
        # in the logs", "no command runs without being recorded"
        pattern(r"\bwithout\s+(?:it\s+|them\s+|that\s+|us\s+)?(?:showing up|appearing|landing|"
                r"ending up|being (?:logged|recorded|captured|audited|seen|noticed|traced)|"
                r"leaving (?:a |any )?(?:trace|record|log (?:entry|line)|footprint)|"
                r"(?:us|the logs?|our logs?|the siem) (?:knowing|seeing|noticing|recording it))\b",
                negated=True, topic=LOGS,
                requires=r"\b(?:anything|nothing|any|every|no|cannot|can't|never)\b"),
        # trust beyond doubt: "the logs are trustworthy beyond question"
        pattern(r"\b(?:beyond (?:question|doubt|dispute|reproach|challenge)|unquestionabl\w+|"
                r"indisputabl\w+|irrefutabl\w+|unimpeachabl\w+|incontrovertibl\w+)\b",
                topic=RECORDS),
        # nobody can write to them: "no one has write access after ingestion"
        pattern(r"\b(?P<t>no one|nobody|not even (?:an? |the )?\w+|no (?:human|admin\w*|operator|"
                r"engineer|user))\s+(?:\w+\s+)?(?:has|have|holds?|gets?|is given)\s+(?:any\s+)?"
                r"(?:write|delete|deletion|edit|modify|modification|admin) (?:access|rights|"
                r"permissions?)\b", topic=RECORDS),
        # "a full and faithful account of everything the agent did"
        pattern(r"\b(?:complete|full|total|entire|perfect|exhaustive|faithful|accurate)"
                r"(?:(?:\s+and|,)\s+[\w-]+)?\s+(?:account|picture|record|view|history|trail|trace|"
                r"replay|reconstruction|audit)\s+of\s+(?:everything|every|all|each|any)\b",
                topic=LOGS),
        pattern(r"\b(?P<t>leaves?[- ](?:nothing|no \w+)[- ]out|omits? nothing|"
                r"nothing (?:is )?(?:left out|omitted))\b", topic=LOGS),
        pattern(r"\b(?:fully|completely|comprehensively|exhaustively|always|100\s?%|entirely)\s+"
                r"(?:logged|recorded|captured|audited|monitored|tracked|traced)\b"),
        pattern(r"\b(?:is|are)\s+(?:the |our |your |all )?(?:logs?|logging|audit (?:trails?|logs?)|"
                r"records?|transcripts?)\s+(?:complete|comprehensive|exhaustive|total|perfect|"
                r"gap[- ]?free|tamper[- ]?proof|immutable)\b"),
        pattern(r"\breconstruct\w*\s+(?:\w+\s+){0,4}?(?:completely|fully|exactly|perfectly|"
                r"entirely|in full)\b|\b(?:completely|fully|exactly|perfectly|entirely)\s+"
                r"reconstruct\w*\b|\breconstruct\w*\s+(?:any|every|all)\s+(?:\w+\s+)?"
                r"(?:sessions?|actions?|incidents?)\b"),
        pattern(r"\b(?:alter(?:ed)?|modif(?:y|ied)|tamper(?:ed|ing)?(?: with)?|delet(?:e|ed)|"
                r"eras(?:e|ed|ing)|edit(?:ed|ing)?|forg(?:e|ed|ing)|rewrit(?:e|ten|ing)|purg(?:e|ed|ing)|"
                r"overwrit(?:e|ten)|falsif(?:y|ied)|chang(?:e|ed)|touch(?:ed)?|doctor(?:ed)?|"
                r"fudg(?:e|ed)|cook(?:ed)?|los(?:e|t)|remov(?:e|ed)|dropp?(?:ed)?|"
                r"(?:mess|fiddl|meddl|tinker|muck|monkey|interfer)(?:e|es|ed|ing|s)?\s+with|"
                # the nouns: "beyond any chance of alteration"
                r"alteration|modification|deletion|erasure|forgery|falsification)\b", negated=True,
                # the thing that cannot be altered must be a record, not just "we"
                topic=RECORDS,
                requires=r"\b(?:can|cannot|could|able|possible|impossible|infeasible|way|will|"
                r"ever|beyond)\b|n't"),
        # the adjectives in -able are modal already ("Tamperable? No.", "not alterable")
        pattern(r"\b(?:alter|modifi|tamper|delet|eras|edit|forge|rewrit|overwrit|chang|"
                r"falsifi|doctor)(?:e)?able\b", negated=True, topic=RECORDS),
    )
