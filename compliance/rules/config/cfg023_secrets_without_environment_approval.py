"""CFG023: deployment secrets need human sign-off."""

from __future__ import annotations

from typing import ClassVar

from compliance.adapters.base import EvidenceDoc, as_dict, as_list
from compliance.rules.config._secrets import EPHEMERAL
from compliance.rules.config.base import ConfigRule, of_kind
from compliance.rules.config.verdict import Findings


class SecretsWithoutEnvironmentApproval(ConfigRule):
    """Flags secrets used by jobs without an environment whose rules require a reviewer.

    ## What it does
    Every job that reads a secret (other than GITHUB_TOKEN) must declare
    `environment:`; with the `GET /repos/{o}/{r}/environments` export, that
    environment must have a `required_reviewers` protection rule. Without the
    export, jobs with environments leave the claim UNVERIFIED.

    ## Why is this bad?
    Repository secrets reach any job; only environment secrets wait until "all
    the deployment protection rules pass".

    ## Example
    `run: deploy --token ${{ secrets.DEPLOY_TOKEN }}` in a job with no
    `environment:`.

    ## Use instead
    Move the secret to an environment with required reviewers and declare
    `environment: production` on the job.

    ## Sources
    GitHub docs: "A job also cannot access secrets that are defined in an
    environment until all the deployment protection rules pass."
    """

    code = "CFG023"
    name = "secrets-without-environment-approval"
    reads: ClassVar[tuple[str, ...]] = ("gha-workflow", "environments")
    export_hint = "give the workflows and GET /repos/{o}/{r}/environments"

    def judge(self, docs: list[EvidenceDoc], findings: Findings) -> None:
        reviewed: dict[str, tuple[EvidenceDoc, bool]] = {}
        for doc in of_kind(docs, "environments"):
            for entry in map(as_dict, as_list(doc.get("environments"))):
                rules = map(as_dict, as_list(entry.get("protection_rules")))
                has = any(r.get("type") == "required_reviewers" for r in rules)
                reviewed[str(entry.get("name"))] = (doc, has)
        workflows = of_kind(docs, "gha-workflow")
        if not workflows:
            findings.gap("no workflows given")
        for doc in workflows:
            envs = {f.value[0]: f for f in doc.fact_list("environment")}
            used = False
            for fact in doc.fact_list("secret"):
                job, name = fact.value
                if name in EPHEMERAL:
                    continue
                used = True
                env = envs.get(job)
                if env is None:
                    findings.refute(doc, fact, f"secret {name} is used by job {job or '(all)'} "
                                               "without an environment")
                elif str(env.value[1]) not in reviewed:
                    findings.gap(f"{doc.path}:{env.line}: environment {env.value[1]!r} protection "
                                 "rules not exported (GET /repos/{o}/{r}/environments)")
                elif not reviewed[str(env.value[1])][1]:
                    env_doc = reviewed[str(env.value[1])][0]
                    findings.refute(env_doc, None, f"environment {env.value[1]!r} has no "
                                                   "required_reviewers rule")
                else:
                    findings.support(doc, env, f"environment {env.value[1]!r} requires a reviewer")
            if not used:
                findings.support(doc, None, "no secret other than GITHUB_TOKEN is used")
