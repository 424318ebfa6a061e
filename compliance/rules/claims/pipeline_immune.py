"""CLM009 pipeline-immune-claim."""

from __future__ import annotations

import re

from compliance.judge import lexicon as lx
from compliance.judge.engine import pattern
from compliance.rules.claims.base import ClaimRule

#: Immunity to a nuisance ("immune to flaky tests") is not immunity to workflow changes.
NUISANCE = (r"\b(?:to|from|against)\s+(?:\w+\s+){0,2}?(?:flak\w*|outages?|downtime|failures?|"
            r"timeouts?|rate[- ]limit\w*|errors?|bugs?|crash\w*|load|spikes?|latency|congestion|"
            r"noise|interruptions?|restarts?|glitch\w*|blips?|hiccups?)\b"
            # a bare "attack" with nothing of the agent's is the absolute-safety claim ("our
            # runner is impervious to attack")
            r"|\b(?:to|from|against)\s+(?:all\s+|any\s+|every\s+)?(?:attacks?|threats?|hackers?|"
            r"exploits?|intrusions?)\s*(?:[.,;!]|$)")
#: Secrets shielded from the agent are the hidden-secrets family's claim, not the pipeline's.
SECRET_SUBJECT = (r"\b(?:secrets?|credentials?|api[- ]?keys?|tokens?|passwords?|"
                  r"env(?:ironment)? var(?:iable)?s?)\s+"
                  r"(?:are|is|stay|stays|remain|remains|kept)\b")
PIPELINE = (r"\b(?:pipelines?|ci|ci/cd|cd|workflows?|github actions|actions workflows?|builds?|"
            # (a deploy key or token is a secret, not the pipeline)
            r"deploy(?:ment)?s?(?! keys?\b| tokens?\b)|runners?|release process|build system)\b")


class PipelineImmuneClaim(ClaimRule):
    """Flags claims that CI/CD pipelines are immune to malicious workflow changes.

    ## What it does
    Flags a sentence saying the pipeline is immune, safe or protected from
    the agent, that the agent cannot affect, modify or trigger workflows, or
    that malicious workflow changes never run. "Workflows on agent pushes
    need a maintainer's approval before they run" passes.

    ## Why is this bad?
    A workflow file the agent edits can run before any human looks, with the
    repository's secrets and token: `pull_request_target` workflows "will
    always run, regardless of approval settings"; `workflow_run` is "able to
    access secrets and write tokens, even if the previous workflow was not";
    a repository setting can auto-run workflows on the agent's pushes; and
    setup steps (`copilot-setup-steps.yml`) run with network access outside
    the agent firewall. Whether a pipeline is safe from the agent depends on
    these settings, which change.

    ## Example
    ```text
    Our CI pipeline is immune to malicious workflow changes made by the agent.
    ```

    ## Use instead
    ```text
    Workflows on the agent's pushes wait for a maintainer's approval; we do not use
    pull_request_target, and workflow files are owned by the platform team.
    ```

    ## Sources
    - GitHub docs, "Events that trigger workflows": `pull_request_target` and `workflow_run`.
    - GitHub docs, Copilot coding agent: workflows on Copilot pushes need "Approve and run
      workflows" unless a repository setting auto-runs them.
    - OWASP Top 10 for LLM Applications 2025, LLM06 Excessive Agency.
    """

    code = "CLM009"
    name = "pipeline-immune-claim"
    claimed = "that the CI/CD pipeline is immune to the agent's workflow changes"
    why = ('Workflow changes can run before review (pull_request_target "will always run, '
           'regardless of approval settings"; workflow_run gets secrets; auto-run settings), '
           "so pipeline safety depends on settings that change.")
    instead = ('"Workflows on agent pushes wait for maintainer approval and we do not use '
               'pull_request_target; these settings are checked in CI."')
    committed = re.compile(r"\b(?:pipelines?|ci|ci/cd|workflows?|github actions|runners?|"
                           r"build system|release process)\b")
    patterns = (
        # a bare "deployment" names the deployed system ("our deployment is 100% secure"),
        # not the delivery pipeline, unless it heads a pipeline noun
        pattern(r"\b(?:pipelines?|ci(?:/cd)?|workflows?|builds?|release process|"
                r"deployment (?:pipelines?|workflows?|process(?:es)?|jobs?)|"
                r"build system)\b(?:\s+[\w']+){0,3}?\s+(?:is|are|remains?|stays?)\s+"
                r"(?P<t>(?:fully |completely |totally |entirely |always |100% )?(?:protected|"
                r"safe|secure|immune|shielded|untouchable|bullet[- ]?proof|invulnerable|airtight|"
                r"impenetrable|untouched|unaffected|intact|uncompromised|"
                r"tamper[- ]?proof|hack[- ]?proof|unhackable|untamperable|"
                r"out of (?:the agent's |its |their )?reach|off[- ]limits))\b", unless=NUISANCE),
        pattern(r"\b(?P<t>immune|impervious|invulnerable|insulated|safe|protected|shielded|"
                r"isolated|bullet[- ]?proof|hardened|resilient|airtight|watertight|"
                r"off[- ]limits)\s+"
                r"(?:from|to|against)\b",
                topic=PIPELINE, unless=NUISANCE + "|" + SECRET_SUBJECT),
        # nominalised: "total protection of CI/CD from rogue workflow edits"
        pattern(r"\b(?:(?:complete|full|total|absolute|perfect|100\s?%|guaranteed)\s+"
                r"(?:protection|insulation|shielding|isolation)|immunity)\s+"
                r"(?:of\s+(?:[\w/-]+\s+){0,3}?)?(?:from|to|against)\b",
                topic=PIPELINE, unless=NUISANCE),
        # "pipeline-poisoning-proof CI", "agent-proof workflows"
        # (the compound's first word is spelled out, not [\w-]*: a pattern must start from
        # words the trigger index can derive, or it runs on every sentence)
        pattern(r"\b(?:tamper[- ]?proof|untamperable|(?:(?:pipeline|ci|workflow|build)-)?"
                r"(?:poison\w*|tamper\w*|hijack\w*|injection|agent|ai|bot|edit)[- ]?proof)\b",
                topic=r"\b(?:pipelines?|ci|ci/cd|workflows?|builds?|runners?)\b"),
        # "the triggering workflow": a participle after a determiner is an adjective
        pattern(r"(?<!\bthe )(?<!\ba )(?<!\ban )(?<!\bits )"
                r"\b(?:affect(?:s|ed|ing)?|touch(?:es|ed|ing)?|modif(?:y|ies|ied|ying)|"
                r"alter(?:s|ed|ing)?|compromis(?:e|es|ed|ing)|tamper(?:s|ed|ing)?(?: with)?|"
                r"hijack(?:s|ed|ing)?|poison(?:s|ed|ing)?|"
                # (not the noun at the end of its phrase: "nor the workflow_run trigger.")
                r"trigger(?:ed|ing)|(?:(?<=never )|(?<=not )|(?<=n't )|(?<=cannot ))triggers?|"
                r"triggers?(?!\s*(?:\([^()]*\)\s*)?[.!]?\s*$)|"
                r"subvert(?:s|ed|ing)?|influenc(?:e|es|ed|ing)|"
                r"weaponi[sz](?:e|es|ed|ing)|abus(?:e|es|ed|ing)|exploit(?:s|ed|ing)?|"
                r"misus(?:e|es|ed|ing)|turn(?:s|ed)? against|"
                # the pipeline as the place reached: "it will never reach a privileged runner"
                r"reach(?:es|ed)?\s+(?:a |the |any |our )?(?:privileged |protected |release |"
                r"production |deploy\w* )?(?:runners?|pipelines?|workflows?|ci)\b|"
                # smuggling a step in: "get a malicious step into our pipeline", "inject steps
                # into the pipeline"
                r"(?:get|slip|sneak|smuggl|plant|insert|inject|add|introduc)\w*\s+"
                r"(?:[\w'-]+\s+){0,3}?into|"
                # ("every change", "any edit": the noun, not the verb)
                r"interfer(?:e|es|ed|ing) with|"
                r"(?<!every )(?<!\bany )(?<!\beach )(?<!\ball )"
                r"(?:change|changing|edit|editing|break|breaks)|"
                # idioms of meddling: "mess with", "fiddle with", "meddle in"
                r"(?:mess|fiddl|meddl|tinker|muck|monkey|toy|play)(?:e|es|ed|ing|s)?\s+"
                r"(?:around\s+)?(?:with|in)|"
                r"rewrit(?:e|es|ing|ten)|overwrit(?:e|es|ing|ten)|breach(?:es|ed|ing)?|"
                r"penetrat(?:e|es|ed|ing)|"
                r"breaking|disrupt(?:s|ed|ing)?|sabotag(?:e|es|ed|ing)|propos(?:e|es|ed|ing)|"
                r"submit(?:s|ted|ting)?|"
                # the adjectives in -able: "Modifiable by the agent? No."
                r"(?:modifi|alter|edit|tamper|hijack|trigger|compromis|poison|chang)e?able)\b",
                negated=True, topic=PIPELINE),
        pattern(r"\b(?:workflows?|changes?|edits?|pipelines?|builds?|jobs?|workflow files?|"
                r"commits?|pushes|merges?|prs?|pull requests?|they|"
                r"it|these)\b"
                r"(?:\s+[\w']+){0,9}?\s+(?:run|runs|execute[sd]?|triggered|"
                r"(?:(?<=never )|(?<=not )|(?<=n't )|(?<=cannot ))triggers?|"
                r"triggers?(?!\s*(?:\([^()]*\)\s*)?[.!]?\s*$)|start|starts|"
                r"fire|fires)\b", negated=True, topic=PIPELINE),
        pattern(r"\b(?:(?:malicious|harmful|unsafe|untrusted|rogue|unapproved) )?"
                r"(?:workflow|pipeline|ci) (?:changes?|edits?|modifications?|files?|runs?)\b"
                # the noun before its object: "changes to .github/workflows"
                r"|\b(?:changes|edits|modifications) to (?:the |its |our |your |"
                r"any )?(?:\.github/workflows|\.github|workflows?|workflow files?|pipelines?|"
                r"ci(?: config\w*)?)(?!\w)",
                negated=True),
        # a concessive universal: "pipeline integrity holds even if the agent edits the YAML"
        pattern(r"\b(?:integrity|security|protection|safety|guarantees?)\b(?:\s+[\w']+){0,2}?\s+"
                r"(?:holds?|remains? intact|stays? intact|is preserved|is unaffected|survives?)\s+"
                r"even (?:if|when|though)\b", topic=PIPELINE),
        # "our builds are sealed off from anything the agent commits"
        pattern(PIPELINE + r"(?:\s+[\w']+){0,3}?\s+(?:is|are|remains?|stays?)\s+(?:\w+\s+)?"
                r"(?:walled|sealed|fenced|cut|shut) off from\b"),
        # a hostile workflow as the actor: "a poisoned workflow can do nothing"
        pattern(r"\b(?:malicious|harmful|rogue|poisoned|tampered|hostile|compromised|"
                r"booby[- ]trapped)\s+(?:workflows?|pipelines?|ci (?:configs?|files?))\b",
                negated=True),
        # integrity as a verdict: "- Workflow integrity vs. agent edits: guaranteed",
        # "pipeline integrity against agent-introduced modifications is assured"
        pattern(r"\b(?:integrity|immunity|protection|safety|security|tamper[- ]resistance)\b"
                r"(?:[^.;:]|(?<=\bvs)\.){0,60}?(?::|\b(?:is|are|remains?|stays?)\s+(?:\w+ly\s+)?)\s*"
                r"(?:guaranteed|assured|absolute|total|complete|certain|100\s?%|unconditional|"
                r"airtight|watertight|ironclad|iron-clad)(?![\w%])", topic=PIPELINE,
                unless=NUISANCE),
        # the pipeline left as it was: "the agent's pushes leave the pipeline untouched"
        pattern(r"\b(?:leaves?|left|leaving|keeps?|kept|keeping)\s+(?:the |our |your |its |their |"
                r"every |all )?(?:[\w/-]+\s+)?(?:pipelines?|ci(?:/cd)?|workflows?|builds?|"
                r"runners?)\s+"
                r"(?:\w+ly\s+)?(?P<t>untouched|intact|unaffected|unchanged|pristine|uncompromised|"
                r"unharmed|clean|safe|unaltered|unmodified)\b"),
        # every way in closed: "we've closed off every route by which the agent might alter CI"
        pattern(lx.ALL_ROUTES_CLOSED, topic=PIPELINE, unless=SECRET_SUBJECT),
        # an idiom of shrugging off a universal: "shrugs off any workflow change"
        pattern(r"\b(?:shrug(?:s|ged)?|brush(?:es|ed)?|laugh(?:s|ed)?) off\s+(?:any|every|all|"
                r"each)\b|\b(?:withstands?|withstood|repels?|repelled|deflects?|deflected|"
                r"absorbs?|absorbed|resists?|resisted|survives?|survived|defeats?|rebuffs?|"
                r"rejects?)\s+(?:any|every|all|each)\b", topic=PIPELINE),
    )
