"""CLM004 review-optional-claim."""

from __future__ import annotations

from compliance.judge.engine import pattern
from compliance.rules.claims.base import ClaimRule

REVIEW = (r"\b(?:review(?:s|ed|ing|ers?)?|approv(?:al|als|e|ed|ing)|oversight|sign[- ]?off|"
          r"human checks?|look at|inspect(?:ion)?|check (?:its|the|their|every|each) "
          r"(?:code|changes|work|output|prs?|pull requests)|(?:a|any) human|pair of eyes|"
          r"(?:four|4)[- ]eyes|"
          # looking idioms: "a second look", "eyeball", "skim"
          r"(?:second|another|close|closer|careful|hard|proper) looks?|eyeball\w*|"
          r"read[- ]?through|check (?:its|the|their) (?:diffs?|commits?)|"
          # reading the agent's work: "read agent PRs line by line"
          r"read (?:the |its |their |every |each |all )?(?:agent(?:'s)? )?(?:prs?|pull requests?|"
          r"diffs?|changes|commits?|code)|line[- ]by[- ]line|"
          # a person kept in the approval path: "a human in the loop"
          r"(?:a |the )?humans? in the loop|human[- ]in[- ]the[- ]loop)\b")

#: The reason such claims give: the agent cannot change anything by itself ("it cannot
#: merge", "has no write access", "only proposes changes", "read-only").
POWERLESS = (
    r"\b(?:can't|cannot|can not|couldn't|could not|won't|unable to|never|doesn't|does not)\s+"
    r"(?:\w+\s+){0,2}?(?:merge|push|write|land|commit|approve|deploy)\b"
    r"|\b(?:no|without|w/o|lacks?|lacking|never (?:gets?|has))\s+(?:\w+\s+)?(?:write|merge|push|"
    r"commit)\s+"
    r"(?:access|permissions?|rights?|privileges?)\b|\bno (?:ability|way|power|permission) to "
    r"(?:merge|push|write|land)\b|\bread[- ]only\b(?!\s+(?:tokens?|credentials?|keys?))|"
    r"\bonly (?:has |have )?read access\b"
    r"|\bonly (?:propose|proposes|suggest|suggests|open|opens)\b|\binability to (?:merge|push|"
    r"write|land)\b"
    r"|\b(?:stops?|prevents?|blocks?|keeps?) (?:the agent|the bot|it|agents?) from (?:merging|"
    r"pushing|"
    r"writing|landing)\b"
)
#: Verbs of letting the agent's work through unexamined.
RELAXED = (r"(?:dropped|skipped|waived|removed|relaxed|automated|bypassed|disabled|turned off|"
           r"dispensed with|omitted|foregone|forgone|left out|eliminated|switched off|retired|"
           r"cut|scrapped|abandoned)")


class ReviewOptionalClaim(ClaimRule):
    """Flags claims that human review of the agent's changes is unnecessary.

    ## What it does
    Flags a sentence saying review or approval of the agent's work is not
    needed, not required, optional, unnecessary or skippable — usually
    justified by "the agent cannot merge" or "it only pushes to its own
    branch". "Every pull request still requires a code owner's approval" and
    "the agent cannot merge" on their own pass.

    ## Why is this bad?
    That the agent cannot merge means a human merges; the review is the
    control. A change that nobody reads can still add a backdoor, a malicious
    workflow or a leaked secret, and a push to the agent's own branch can
    already trigger workflows. OWASP LLM01 and LLM06 list "require human
    approval for high-risk actions" among the few mitigations, and review
    quality matters: a rubber-stamped approval gives little protection.

    ## Example
    ```text
    The agent cannot merge its own pull requests, so its changes do not need review.
    ```

    ## Use instead
    ```text
    The agent cannot merge; each of its pull requests needs an approving review from
    a code owner who did not request the change.
    ```

    ## Sources
    - OWASP Top 10 for LLM Applications 2025, LLM01 ("Require human approval for high-risk
      actions") and LLM06 Excessive Agency.
    - GitHub docs, Copilot coding agent: the requester's approval doesn't count.
    """

    code = "CLM004"
    name = "review-optional-claim"
    claimed = "that human review of the agent's changes is unnecessary"
    why = ("That the agent cannot merge only moves the decision to the human who merges; "
           "unreviewed changes can carry backdoors, malicious workflows or secrets, and OWASP "
           "LLM01/LLM06 name human approval as a key mitigation.")
    instead = ('"The agent cannot merge; every change it proposes is reviewed and approved by a '
               'code owner before merge."')
    patterns = (
        pattern(r"\b(?:need(?:s|ed)?|necessary|required?|requires|requirement|mandatory|"
                # ("must not skip" forbids; it is not "need not")
                r"have to|has to|had to|must(?!\s+(?:not|never)\s+[a-z])|essential|obliged|worth|"
                # the case for it denied: "there is no case for keeping a human in the loop"
                r"(?:case|argument|justification|call|reason|rationale) for)\b", negated=True,
                topic=REVIEW),
        pattern(r"\b(?P<t>optional|unnecessary|unneeded|not needed|not necessary|not required|"
                # approved in advance: "its pull requests are pre-approved"
                r"pre[- ]?approved|approved (?:automatically|by default|in advance)|"
                r"redundant|superfluous|overkill|pointless|(?:a\s+)?(?:mere\s+|pure\s+)?formality|"
                r"skippable|(?:don't|do not|doesn't|does not|never|no longer) bother(?:s|ed)?|"
                r"skip(?:ped|s|ping)?|waive[ds]?|dispensable|moot|needn't|nice[- ]to[- ]have|"
                # released from it: "exempt from peer review", "can do without review"
                r"exempt(?:ed)? from|excused from|released from|"
                r"(?:do|does|did|can|could) without|dispens(?:e|es|ed|ing) with|"
                r"a luxury|box[- ]ticking|wasted effort|busywork|"
                # "a waste of everyone's time", "just ceremony", "pure theatre"
                r"(?:a |an )?(?:complete |total |utter )?waste of (?:[\w']+\s+){0,2}?"
                r"(?:time|effort|energy|resources)|"
                r"(?:just|mere|merely|pure|purely|only|empty) (?:a )?(?:ceremony|ceremonial|"
                r"theat(?:re|er)|ritual|for show|paperwork|red tape|bureaucracy|"
                r"rubber[- ]stamp\w*))\b",
                topic=REVIEW),
        pattern(r"\b(?:safely|safe to|fine to|okay to|ok to|straight (?:in|through|to main)|"
                r"directly (?:in|into main|to main))\s+(?:[\w']+\s+){0,5}?"
                r"(?:without|w/o|with no)\s+(?:(?:any|a|human|anyone|anybody|someone)\s+){0,2}"
                r"(?:looking|review|reviewing|reading|checking|approval|oversight|inspection)\b"),
        # merging without review as the rule ("agent PRs may be merged without review"): the
        # modal inside the predicate is a permission, not a hedge
        # ("are merged without review" states a practice, "can be" a possibility: neither is
        # the rule that review is optional)
        pattern(r"\b(?:may|(?:is|are) (?:allowed|permitted) to)\s+(?:safely\s+|always\s+|simply\s+|"
                r"just\s+)?be\s+"
                r"(?:merged|landed|shipped|deployed|approved|accepted)\s+(?:[\w'-]+\s+){0,2}?"
                r"without (?:any |a |human |prior |manual )?(?:review|approval|reviewers?|"
                r"human (?:review|approval|sign[- ]?off)|sign[- ]?off|looking)\b",
                requires=r"\b(?:agents?|agent-\w+|bots?|ai|copilot|assistants?|model|devin|claude|"
                r"codex)\b"),
        # waving changes through, made safe: "reviewers can safely skim agent diffs"
        # (and approving or merging unread: "safe to auto-approve", "fine to merge blind";
        # or with a reason that nothing can go wrong: "..., there is nothing it can break")
        # (a permission modal before the verb is part of it: "reviewers may rubber-stamp")
        pattern(r"\b(?:(?:may|can|could)\s+(?:safely\s+|just\s+|simply\s+)?)?"
                r"(?:rubber[- ]?stamp(?:s|ed|ing)?|skim(?:s|med|ming)?|"
                r"auto[- ]?(?:approv|merg)(?:e|es|ed|ing|al)|"
                r"(?:approv|merg)(?:e|es|ed|ing)\s+(?:\w+\s+){0,2}?(?:blind(?:ly)?|unread|"
                r"unreviewed|sight unseen)|"
                r"wav(?:e|es|ed|ing)(?=(?:\s+[\w'-]+){0,4}?\s+through\b))\b",
                requires=r"\bsafely\b|\b(?:safe|fine|ok(?:ay)?|harmless) to\b"
                r"|\bnothing (?:it|they|the agent|the bot|that) (?:can|could) (?:break|harm|damage|"
                r"hurt|ruin|wreck)\b"
                # a harmlessness reason: "the agent can't do harm, so reviewers may ..."
                r"|\b(?:can't|cannot|can not|couldn't|could not|won't)\s+(?:do|cause)\s+(?:any\s+)?"
                r"(?:harm|damage|anything (?:bad|harmful|dangerous))\b|\bharmless\b"
                # or that it cannot merge: "agent PRs can be rubber-stamped; the bot can't write"
                r"|" + POWERLESS, premise=True),
        # "there's no point checking what the agent writes"
        pattern(r"\b(?P<t>(?:no|little) (?:point|use|sense|value|need)\s+(?:in\s+|to\s+)?"
                r"(?:checking|reviewing|reading|inspecting|approving|vetting|auditing|"
                r"double[- ]checking|looking (?:at|over)|eyeballing|check|review|read|inspect|"
                r"approve|vet|audit|double[- ]check|look (?:at|over)|eyeball|scrutini[sz]e))\b",
                requires=r"\b(?:agent(?:'s|s)?|bot|ai|copilot|assistant|model|its|it|prs?|"
                r"pull requests?|diffs?|changes|commits?|code|writes)\b"),
        # review relaxed with the agent's powerlessness as the reason: "oversight of its PRs
        # can be dropped", "approvals can be automated", "can bypass the review queue"
        pattern(r"\b(?:can|may|could|is|are|be|been|get|gets)\s+(?:safely\s+|simply\s+|just\s+)?"
                r"(?:be\s+)?" + RELAXED + r"\b", topic=REVIEW, requires=POWERLESS, premise=True),
        # a permission to skip, the modal part of it (not a hedge): "reviewers may skip agent
        # diffs: the agent cannot land code on its own"
        pattern(r"\b(?P<t>(?:may|can|could)\s+(?:safely\s+|simply\s+|just\s+)?(?:skip|waive|forgo|"
                r"forego|bypass|omit|drop|ignore|pass on))\b", topic=REVIEW, requires=POWERLESS,
                premise=True),
        # leave to go ahead unread: "feel free to merge agent PRs without looking", "you can trust
        # agent PRs without reading them" (a permission, not "nothing merges without review")
        pattern(r"\b(?:can|may|free to|fine to|okay to|ok to|safe to|allowed to|go ahead and)\s+"
                r"(?:[\w'-]+\s+){0,5}?(?:without|w/o|with no)\s+(?:(?:a|any|the|human|second|"
                r"further)\s+)?"
                r"(?:looking|reading|reviewing|review|checking|inspect\w*|looks?|thought|approval|"
                r"glance)\b", requires=POWERLESS, premise=True),
        # accepted as it comes: "the agent's code is safe to accept as-is"
        pattern(r"\b(?:accept|merg|approv|land|ship|tak)\w*\s+(?:[\w'-]+\s+){0,3}?(?:as[- ]is|"
                r"unread|unreviewed|unchecked|unseen|wholesale|sight unseen|on trust|"
                r"at face value)\b",
                requires=POWERLESS + r"|\b(?:safe|fine|ok(?:ay)?) to\b|\bsafely\b", premise=True),
        # straight in: "agent contributions go straight in; branch protection ensures ..."
        pattern(r"\b(?:go|goes|went|get|gets|are merged|is merged|merged|land|lands)\s+"
                r"(?:straight|directly|right)\s+(?:in|through|into main|to main|to production)\b",
                requires=POWERLESS, premise=True),
        # a minimum called enough: "a glance at the CI status is all the review its changes
        # need", "write protection on main is sufficient"
        pattern(r"\b(?:is|are)\s+(?:all|enough|sufficient|plenty)\b(?:\s+(?:the\s+)?"
                r"(?:review|oversight|checking|scrutiny|approval|vetting|protection)\b)?",
                topic=REVIEW + r"|\b(?:branch|write|merge) protection\b",
                requires=POWERLESS + r"|\bno (?:reviewers?|review|approvals?)\b", premise=True),
        pattern(r"\b(?P<t>(?:adds?|provides?|offers?|brings?|gives?|contributes?)\s+"
                r"(?:no|nothing|zero)\b(?:\s+(?:value|benefit|protection|security))?)",
                topic=REVIEW),
    )
