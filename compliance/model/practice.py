"""The practice around the model: tabletop scenarios and exercise records.

A *scenario* is a sequence of attacker steps; each step names what the
attacker needs (a :class:`Need`). The tabletop trace
(:mod:`compliance.practice.trace`) asks, per step, which controls act on
those needs. An *exercise* records one tabletop run: when, which scenario,
who took part, what was found and at least two improvements with an owner
and a due date.
"""

from __future__ import annotations

import datetime as dt
import enum

from pydantic import Field

from compliance.model.base import Identifier, Line, Strict, Text
from compliance.model.layers import Layer


class Need(enum.StrEnum):
    """What an attacker step needs. Control kinds act on needs (stop or make harder)."""

    FOLLOW_INJECTED_INSTRUCTION = "follow-injected-instruction"
    RUN_UNTRUSTED_CODE = "run-untrusted-code"
    INSTALL_DEPENDENCY = "install-dependency"
    CONNECT_TOOL = "connect-tool"
    WRITE_REPOSITORY = "write-repository"
    WRITE_OUTSIDE_REPOSITORY = "write-outside-repository"
    WRITE_WORKFLOW_FILE = "write-workflow-file"
    PUSH_BRANCH = "push-branch"
    OPEN_PULL_REQUEST = "open-pull-request"
    MERGE_WITHOUT_REVIEW = "merge-without-review"
    RUN_BEFORE_APPROVAL = "run-before-approval"
    USE_WORKFLOW_SECRETS = "use-workflow-secrets"
    READ_SECRET = "read-secret"
    READ_SESSION_TOKEN = "read-session-token"
    USE_STOLEN_TOKEN = "use-stolen-token"
    EGRESS_TO_HOST = "egress-to-host"
    EGRESS_VIA_ALLOWED_DESTINATION = "egress-via-allowed-destination"
    ESCAPE_ISOLATION = "escape-isolation"
    REACH_OTHER_SESSIONS = "reach-other-sessions"
    PERSIST_AFTER_SESSION = "persist-after-session"
    GO_UNLOGGED = "go-unlogged"
    ERASE_LOGS = "erase-logs"


NEED_TEXT: dict[Need, str] = {
    Need.FOLLOW_INJECTED_INSTRUCTION: "the agent acts on an instruction hidden in content it reads",
    Need.RUN_UNTRUSTED_CODE: "code the attacker chose runs inside the session",
    Need.INSTALL_DEPENDENCY: "the session installs a package the attacker controls",
    Need.CONNECT_TOOL: "the agent uses a tool or MCP server the attacker controls",
    Need.WRITE_REPOSITORY: "the agent changes files in its working copy",
    Need.WRITE_OUTSIDE_REPOSITORY: "the agent writes files outside its working copy",
    Need.WRITE_WORKFLOW_FILE: "a change to a workflow, build or agent file reaches the default "
                              "branch without a security owner's approval",
    Need.PUSH_BRANCH: "the agent pushes commits to a branch",
    Need.OPEN_PULL_REQUEST: "the agent opens a pull request",
    Need.MERGE_WITHOUT_REVIEW: "a change reaches the default branch without an approving review",
    Need.RUN_BEFORE_APPROVAL: "code from the pull request runs in CI before a maintainer approves",
    Need.USE_WORKFLOW_SECRETS: "a workflow run uses the repository's secrets or a write token",
    Need.READ_SECRET: "a long-lived credential is readable inside the session",
    Need.READ_SESSION_TOKEN: "the session's own short-lived token is read by a command",
    Need.USE_STOLEN_TOKEN: "a token taken from the session is used from somewhere else",
    Need.EGRESS_TO_HOST: "the session connects to a host the attacker controls",
    Need.EGRESS_VIA_ALLOWED_DESTINATION: "data leaves through an allowed destination (a "
                                         "package registry, the model API, the agent's fork)",
    Need.ESCAPE_ISOLATION: "code breaks out of the session's runtime to its host",
    Need.REACH_OTHER_SESSIONS: "from the host, other sessions or the node's credentials "
                               "are reached",
    Need.PERSIST_AFTER_SESSION: "something the attacker planted survives the end of the session",
    Need.GO_UNLOGGED: "the step leaves no record that reconstructs it",
    Need.ERASE_LOGS: "records of the session are changed or deleted afterwards",
}


#: Limit topics a need exploits in any scenario, whatever its step lists: a credential in
#: the session's environment or in a file no deny rule names is readable by any command;
#: reaching a host may go over DNS. A step exploits these as well as its own ``exploits``
#: (which add what depends on the scenario: a read made by the agent's own tools, outside
#: the Bash sandbox), so the same need against the same control has the same outcome in
#: every scenario unless the scenario says why not.
NEED_EXPLOITS: dict[Need, tuple[str, ...]] = {
    Need.READ_SECRET: ("readable-by-agent-commands",),
    Need.EGRESS_TO_HOST: ("allowlist-bypass", "dns-channel"),
    Need.RUN_UNTRUSTED_CODE: ("sandbox-scope",),
    Need.PUSH_BRANCH: ("proxy-can-be-misused",),
    Need.OPEN_PULL_REQUEST: ("proxy-can-be-misused",),
    Need.USE_WORKFLOW_SECRETS: ("token-scope", "approval-scope"),
}


class Step(Strict):
    """One attacker step: what happens and what it needs to succeed."""

    id: Identifier = Field(description="Short id of the step, unique in its scenario.",
                           examples=["edit-workflow"])
    action: Text = Field(description="What the attacker (or the injected agent) does.")
    needs: list[Need] = Field(min_length=1, description="What the step needs to succeed; "
                              "controls whose kind acts on a need stop it or make it harder.")
    exploits: list[Identifier] = Field(
        default_factory=list,
        description="Limit topics this step relies on (e.g. review-quality-matters); the "
        "trace lists this workspace's limits with those topics.")
    trail: Text | None = Field(
        default=None,
        description="What a log of the session would contain if the step happened.")


class Scenario(Strict):
    """A tabletop scenario: attacker steps in order; the path needs every step."""

    id: Identifier = Field(description="Id given to `compliance tabletop ID`.",
                           examples=["readme-injection"])
    title: Line = Field(description="One-line name of the scenario.")
    summary: Text = Field(description="The story, in two or three sentences.")
    steps: list[Step] = Field(min_length=1, description="The attacker's steps, in order.")
    questions: list[Text] = Field(
        default_factory=list,
        description="Extra discussion questions for this scenario's worksheet.")


class ScenarioFile(Strict):
    """One file under scenarios/ (or a built-in scenario)."""

    scenarios: list[Scenario] = Field(min_length=1)


class Improvement(Strict):
    """Something an exercise decided to change, with who does it by when."""

    text: Text = Field(description="What will change.")
    owner: Line = Field(description="Who does it.")
    due: dt.date = Field(description="When it is due (YYYY-MM-DD).")
    done: dt.date | None = Field(default=None,
                                 description="When it was done; open while empty.")


class Exercise(Strict):
    """One tabletop exercise as it was run."""

    date: dt.date = Field(description="When the exercise was run (YYYY-MM-DD).")
    scenario: Identifier = Field(description="Id of the scenario exercised.",
                                 examples=["readme-injection"])
    participants: list[Line] = Field(min_length=1, description="Who took part.")
    findings: list[Text] = Field(min_length=1, description="What the exercise found.")
    improvements: list[Improvement] = Field(
        min_length=2, description="At least two improvements, each with an owner and a due date.")


class ExerciseFile(Strict):
    """One file under exercises/: one recorded exercise."""

    exercise: Exercise


class DrillResult(enum.StrEnum):
    PASSED = "passed"
    FAILED = "failed"


class DrillLayer(Strict):
    """What one layer was expected to do in a drill, and what it did."""

    layer: Layer = Field(description="The layer drilled.")
    expected: Text = Field(description="What the layer should have done.")
    happened: Text = Field(description="What it did, as observed.")
    result: DrillResult = Field(description="passed or failed.")
    controls: list[Identifier] = Field(
        default_factory=list,
        description="Controls this layer's result is about; a failed result keeps them from "
        "being VERIFIED in every output until a later drill passes.")
    evidence: list[Identifier] = Field(
        default_factory=list, description="Ids of evidence items (files under evidence/) "
        "showing what happened: logs, screenshots, the pull request.")


class Drill(Strict):
    """One layer drill: a hostile instruction planted in a test repository, a task run."""

    date: dt.date = Field(description="When the drill was run (YYYY-MM-DD).")
    scenario: Identifier = Field(description="What was planted, e.g. the kit's hostile-readme.",
                                 examples=["hostile-readme"])
    repository: Line = Field(description="The test repository the agent worked in.")
    task: Text = Field(description="The task the agent was given.")
    layers: list[DrillLayer] = Field(min_length=1, description="Per layer, expected and seen.")


class DrillFile(Strict):
    """One file under drills/: one recorded drill."""

    drill: Drill
