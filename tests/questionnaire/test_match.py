"""The matcher's engine rules and the vocabulary's terms, on our own wording.

Each term added to compliance/questionnaire/vocabulary.yaml has a question here
in words nobody copied from a questionnaire; the real questionnaires are
measured in test_unmapped.py and benchmarks/unmapped_accuracy.py.
"""

from __future__ import annotations

import pytest

from compliance.questionnaire.match import DEFAULT_MIN_CONFIDENCE, builtin_matcher, term_pattern


def top(text: str) -> tuple[str | None, bool, float]:
    """The best concept's id, whether a strong term named it, and the score."""
    m = builtin_matcher().match(text)
    best = m.concepts[0] if m.concepts else None
    return (best.concept.id if best else None, bool(best and best.strong), m.score)


@pytest.mark.parametrize(
    ("text", "concept"),
    [
        # review (git): change management is how questionnaires say "who reviews changes"
        ("Do you run a change management process for production changes?", "review"),
        ("Is a change control procedure followed for the repository?", "review"),
        ("Which change approval steps exist?", "review"),
        ("Are changes to production signed off by someone?", "review"),
        ("Do actions the AI assistant takes require human intervention?", "review"),
        ("Is there human oversight of what the coding agent does?", "review"),
        ("Must a human approve every merge the bot proposes?", "review"),
        ("Is each change reviewed by a human?", "review"),
        ("Do approvals happen before anything ships?", "review"),
        ("Are changes to the repository reviewed?", "review"),
        ("Is every change peer-reviewed before release?", "review"),
        # pipeline
        ("How is application deployment secured?", "pipeline"),
        ("How do you deploy application code?", "pipeline"),
        ("Describe the deployment process.", "pipeline"),
        # egress
        ("Is network segmentation in place around the build hosts?", "egress"),
        ("Is there network segregation between tiers?", "egress"),
        ("Are communications between environments restricted?", "egress"),
        ("What are the controls on external resource access?", "egress"),
        ("Which external APIs can be called?", "egress"),
        ("Can the agent browse the internet?", "egress"),
        ("What can the agent reach?", "egress"),
        ("Does the LLM have network access?", "egress"),
        ("Is DNS filtering used to block bad domains?", "egress"),
        # credentials
        ("Are LLM privileges limited by default?", "credentials"),
        ("Which privileges are given to agents?", "credentials"),
        ("Are the LLM's permissions scoped to the task?", "credentials"),
        ("How is secrets management handled?", "credentials"),
        ("Is elevated access granted just-in-time?", "credentials"),
        ("Are temporary credentials used?", "credentials"),
        # logging
        ("Are prompts logged?", "logging"),
        ("Do you log prompts?", "logging"),
        ("Do you log inputs and outputs?", "logging"),
        ("What is the retention period for those logs?", "logging"),
        ("How are the logs protected?", "logging"),
        ("Do you record each session?", "logging"),
        ("Are there logs of every session?", "logging"),
        # isolation
        ("Where does agent-written code execute?", "isolation"),
        ("Are production and test environments separated?", "isolation"),
        ("Is there separation of environments?", "isolation"),
        ("Do you keep separate environments for development?", "isolation"),
        # isolation: one agent, tenant or workflow reaching what belongs to another
        ("Could a bot in one project read files that belong to another workflow?", "isolation"),
        ("Is any cross-tenant access possible?", "isolation"),
        ("Can my agent see another team's repositories?", "isolation"),
        ("How is data kept apart between tenants?", "isolation"),
        ("Could one tool reach another tenant's files?", "isolation"),
        ("Are there cross-workflow calls?", "isolation"),
        # credentials: whose identity is used, what the agent may do, grants limited in time
        ("On whose authority does it act?", "credentials"),
        ("Whose permissions apply when it edits a ticket?", "credentials"),
        ("Which operations is the agent allowed to perform on its own?", "credentials"),
        ("Are admin rights granted only for a limited period?", "credentials"),
        ("Is elevated access time-bound access that expires?", "credentials"),
        ("Which calls is the agent permitted to make?", "credentials"),
        ("Is root granted for a limited time only?", "credentials"),
        ("Are roles granted on a time-limited basis?", "credentials"),
        # review: a person asked before an action; actions held behind a gate
        ("Does the tool ask a person before it deletes anything?", "review"),
        ("Which destructive actions are gated?", "review"),
        ("Does the assistant ask a human first?", "review"),
        ("Describe the gating of irreversible actions.", "review"),
        ("Is there an approval gate for merges the bot makes?", "review"),
        ("Must a person approve a release first?", "review"),
        # logging: logs exist for someone to read; logs are kept for a time
        ("Are logs of each run available to us?", "logging"),
        ("How many days do you retain the logs?", "logging"),
        # the tokens CI jobs run with are the pipeline's ("least privilege" alone was read
        # as the agent's credentials, and the answer cited only CRED-02)
        ("What scopes does the GITHUB_TOKEN of each build job get?", "pipeline"),
        ("Are workflow tokens limited to what each job needs?", "pipeline"),
        # prompt injection: what the model says of it is what contains an injected agent
        ("How do you handle jailbreak attempts against the coding assistant?", "injection"),
        ("What limits the damage when the bot follows a prompt injection?", "injection"),
    ],
)
def test_vocabulary_terms_name_their_concept(text: str, concept: str) -> None:
    assert top(text)[:2] == (concept, True)


def test_near_terms_stay_inside_one_phrase() -> None:
    near = term_pattern("logg ~ prompt")
    assert near.search("we are logging every prompt")
    assert near.search("prompts are logged")
    assert near.search("prompts users send are logged")  # three words apart
    assert not near.search("prompts sent by the end user today are logged")  # four words apart
    assert not near.search("prompts, outputs, embeddings, or logged")  # a list
    assert not term_pattern("logs ~ prompt").search("prompts, outputs, embeddings, or logs")


def test_logging_out_is_not_logging() -> None:
    m = builtin_matcher().match("Does the application lock the session or log out the user?")
    assert not m.has_strong and m.score < DEFAULT_MIN_CONFIDENCE  # only the weak word "log"


def test_a_word_inside_a_term_may_be_plural() -> None:
    assert term_pattern("communication between").search("communications between them")
    assert term_pattern("audit log").search("audit logs")
    assert not term_pattern("vm").search("vmware")  # short terms stay whole words


def test_the_longer_phrase_wins() -> None:
    m = builtin_matcher().match("Are cryptographic secrets rotated every year?")
    assert not m.concepts  # "secrets" is the encryption topic's, not credentials'
    assert [t.id for t, _ in m.uncovered] == ["encryption"]
    m = builtin_matcher().match("What is the retention period for those logs?")
    assert m.uncovered == ()  # "retention period" belongs to "... for those logs"


def test_weak_topic_words_count_only_without_a_strong_term() -> None:
    m = builtin_matcher().match(
        "Are security events, physical or electronic, written to an audit trail?"
    )
    assert m.off_topic is None and m.incidental == frozenset({"physical"})
    assert m.score >= DEFAULT_MIN_CONFIDENCE
    alone = builtin_matcher().match("Are physical keys to the building controlled?")
    assert alone.off_topic is not None and alone.off_topic.id == "physical"
    documented = builtin_matcher().match("Do you have a documented change management process?")
    assert documented.score == 0.6 and [t.id for t, _ in documented.uncovered] == ["governance"]


def test_one_word_of_a_topic_beside_a_well_named_concept_is_a_part() -> None:
    m = builtin_matcher().match(
        "Do you log outbound requests, enforce egress allowlists and block file uploads?"
    )
    assert m.off_topic is None and m.score >= DEFAULT_MIN_CONFIDENCE
    # the company's own network, named twice over, stays the company's
    corporate = builtin_matcher().match(
        "Does your company firewall restrict outbound traffic from your network?"
    )
    assert corporate.off_topic is not None and corporate.off_topic.id == "corporate-it"


def test_a_topic_said_many_ways_weighs_more() -> None:
    # change management *of encryption*: about the keys, not the agent's changes
    many = top("Are change management procedures applied to cryptography, encryption and key "
               "management changes?")
    one = top("Are change management procedures applied to encryption changes?")
    assert many[2] < DEFAULT_MIN_CONFIDENCE <= one[2] + 0.2
    assert many[2] < one[2]


def test_a_written_policy_is_governance_a_technical_policy_is_not() -> None:
    technical = builtin_matcher().match("Is there an egress policy for the agent's sessions?")
    assert technical.incidental == frozenset({"governance"})
    assert technical.score >= DEFAULT_MIN_CONFIDENCE
    written = builtin_matcher().match("Are egress policies and procedures documented and approved?")
    assert written.score < DEFAULT_MIN_CONFIDENCE


def test_a_policy_question_is_for_a_human() -> None:
    _, _, score = top("Is the effectiveness of the AI acceptable-use policy evaluated through "
                      "risk assessments and human oversight?")
    assert score < DEFAULT_MIN_CONFIDENCE


def test_default_passwords_are_hardening_not_the_agents_credentials() -> None:
    m = builtin_matcher().match("Are vendor default credentials replaced on every server image?")
    assert not m.concepts and [t.id for t, _ in m.uncovered] == ["hardening"]


def test_secure_coding_of_the_application_is_web_security() -> None:
    m = builtin_matcher().match(
        "Do code reviews make sure that database queries use parameterized queries?"
    )
    assert m.off_topic is not None and m.off_topic.id == "web"


@pytest.mark.parametrize(
    "text",
    [
        "Are connections between services restricted to authenticated peers?",
        "Are login failures and access denied events logged?",
    ],
)
def test_authenticated_is_not_sign_in_policy(text: str) -> None:
    m = builtin_matcher().match(text)
    assert "mfa" not in [t.id for t, _ in m.uncovered]


def test_sign_in_methods_are_still_sign_in() -> None:
    m = builtin_matcher().match("Which authentication methods can users choose?")
    assert [t.id for t, _ in m.uncovered] == ["mfa"]


def test_a_tenant_word_without_reaching_across_is_no_isolation_answer() -> None:
    """Data shared with another tenant is data handling; the new isolation terms do not
    outweigh the topic nobody covers."""
    m = builtin_matcher().match("Is customer data ever shared with another tenant?")
    assert m.score < DEFAULT_MIN_CONFIDENCE


def test_a_retention_question_without_logs_stays_data_handling() -> None:
    m = builtin_matcher().match("Is customer data retained for a limited period?")
    assert m.score < DEFAULT_MIN_CONFIDENCE


@pytest.mark.parametrize(
    ("text", "concept"),
    [
        # by_agent: a layer's plain word beside a word naming the agent is about that layer
        ("Does the agent execute what it writes on a shared host?", "isolation"),
        ("Do assistant sessions share one kernel?", "isolation"),
        ("Is the bot's shell restricted?", "isolation"),
        ("Which commands may the assistant run unattended?", "isolation"),
        ("Is the copilot kept in a container per user?", "isolation"),
        ("Does each agent get its own VM?", "isolation"),
        ("Is the bot separated from the payroll systems?", "isolation"),
        ("Is the LLM segregated from billing data?", "isolation"),
        ("Is the agent kept apart from customer systems?", "isolation"),
        ("What boundary surrounds the agent?", "isolation"),
        ("Which runtime hosts the agent?", "isolation"),
        ("Could the assistant escape to the host?", "isolation"),
        ("Which network segments can the bot see?", "egress"),
        ("Is the internet reachable for the agent?", "egress"),
        ("Which servers may the agent connect to?", "egress"),
        ("Can the agent open any URL?", "egress"),
        ("Which websites can the assistant visit?", "egress"),
        ("Can the bot read any web site?", "egress"),
        ("Which domains does the agent resolve?", "egress"),
        ("Does the agent use DNS freely?", "egress"),
        ("Does the assistant go through a proxy?", "egress"),
        ("Can the agent upload files elsewhere?", "egress"),
        ("Can the bot download packages?", "egress"),
        ("Can the LLM fetch pages?", "egress"),
        ("Can the copilot browse freely?", "egress"),
        ("Can the agent call external services?", "egress"),
        ("Which destinations can the bot send to?", "egress"),
        ("Is the agent's traffic inspected?", "egress"),
        ("Is there an allowlist for the assistant?", "egress"),
        ("How long does the bot's token last?", "credentials"),
        ("Where does the agent keep its keys?", "credentials"),
        ("Does the assistant know any password?", "credentials"),
        ("What permissions does the agent get?", "credentials"),
        ("Does the bot hold admin privileges?", "credentials"),
        ("Which identity does the agent use?", "credentials"),
        ("Can the assistant read environment variables?", "credentials"),
        ("What access rights does the bot have?", "credentials"),
        ("With what authority does the LLM act?", "credentials"),
        ("Does the agent act on behalf of a user?", "credentials"),
        ("Can the bot impersonate a maintainer?", "credentials"),
        ("Can the agent push to main?", "review"),
        ("Can the bot merge by itself?", "review"),
        ("Who checks what the agent commits?", "review"),
        ("Can the assistant review its own work?", "review"),
        ("Which branch does the agent write to?", "review"),
        ("Does the agent only propose edits?", "review"),
        ("Who must sign off what the bot wrote?", "review"),
        ("Is a sign-off needed for the LLM's edits?", "review"),
        ("Can the agent edit a workflow?", "pipeline"),
        ("Can the bot change the pipeline?", "pipeline"),
        ("Can the agent change CI settings?", "pipeline"),
        ("Can the assistant start a build?", "pipeline"),
        ("Can the agent deploy to production?", "pipeline"),
        ("Can the bot cut a release?", "pipeline"),
        ("Are the agent's logs kept?", "logging"),
        ("Is the bot's work logged?", "logging"),
        ("Is there a record of what the agent did?", "logging"),
        ("Can the agent's steps be traced later?", "logging"),
        ("Is the assistant audited?", "logging"),
        ("Is the agent's history kept?", "logging"),
        ("Is a transcript of the bot kept?", "logging"),
        ("Can we replay what the agent did?", "logging"),
    ],
)
def test_by_agent_terms_name_their_concept(text: str, concept: str) -> None:
    assert top(text)[:2] == (concept, True)


AI_HEADING = ("Coding agents", "Vendor questionnaire")


@pytest.mark.parametrize(
    ("text", "concept"),
    [
        # subject: under a heading that names AI, "it" and its stand-ins are the agent
        ("Can it push changes by itself?", "review"),
        ("Which tokens does it hold?", "credentials"),
        ("Are its logs kept?", "logging"),
        ("Does it act on behalf of itself?", "credentials"),
        ("Can the system open any URL?", "egress"),
        ("Can the solution merge changes?", "review"),
        ("Does the tool have a password?", "credentials"),
        ("Which builds can the service start?", "pipeline"),
        ("Can the platform reach arbitrary domains?", "egress"),
        ("Does the product keep a transcript?", "logging"),
        ("Can this tool deploy by itself?", "pipeline"),
        ("Is this system kept apart from billing?", "isolation"),
        ("Is each session's traffic filtered?", "egress"),
    ],
)
def test_under_an_ai_heading_it_is_the_agent(text: str, concept: str) -> None:
    m = builtin_matcher().match(text, AI_HEADING[:1], AI_HEADING[1:])
    assert (m.concepts[0].concept.id, bool(m.concepts[0].strong)) == (concept, True)
    assert m.score >= DEFAULT_MIN_CONFIDENCE and m.heading == "Coding agents"
    assert m.words[-1].endswith("(the agent, per the heading 'Coding agents')")
    # the same words with nothing above them say nothing about the agent
    assert builtin_matcher().match(text).score < DEFAULT_MIN_CONFIDENCE


def test_a_title_that_names_ai_also_says_what_it_is() -> None:
    m = builtin_matcher().match("Can it push to main?", ("Sheet1",), ("AI assistant review",))
    assert m.heading == "AI assistant review" and m.score >= DEFAULT_MIN_CONFIDENCE


def test_a_section_about_a_topic_elsewhere_frames_its_questions() -> None:
    m = builtin_matcher().match(
        "Are their credentials revoked on the last day?", ("Human resources",)
    )
    assert m.off_topic is not None and m.off_topic.id == "hr"
    assert m.heading == "Human resources"
    # the nearest heading decides: an AI section under an HR sheet is about the agent
    ai = builtin_matcher().match("Can it push to main?", ("Coding agents", "Human resources"))
    assert ai.off_topic is None and ai.score >= DEFAULT_MIN_CONFIDENCE
    # the question's own AI word wins over its section
    own = builtin_matcher().match("Is the agent's outbound traffic denied?", ("Human resources",))
    assert own.off_topic is None and own.score >= DEFAULT_MIN_CONFIDENCE


def test_a_title_never_frames_a_topic() -> None:
    m = builtin_matcher().match("Is outbound traffic denied by default?", (), ("Privacy review",))
    assert m.off_topic is None and m.score >= DEFAULT_MIN_CONFIDENCE


def test_an_ai_heading_never_overrides_a_topic_the_question_names() -> None:
    m = builtin_matcher().match("Does it record badge entries at the office?", AI_HEADING)
    assert m.off_topic is not None and m.off_topic.id == "physical"
    # and with no subject word, the heading adds nothing
    plain = builtin_matcher().match("Are network settings reviewed?", AI_HEADING)
    assert plain.score == builtin_matcher().match("Are network settings reviewed?").score


@pytest.mark.parametrize(
    ("text", "topic"),
    [
        # the company's own systems, said as such, are not the agent's
        ("Is outbound traffic from corporate devices filtered?", "corporate-it"),
        ("Is outbound traffic from company-owned phones filtered?", "corporate-it"),
        ("Are company owned printers logged?", "corporate-it"),
        ("Is outbound traffic from the office filtered?", "corporate-it"),
        ("Is access to the intranet logged?", "corporate-it"),
        ("Who holds the credentials of the cloud root account, and are they kept offline?",
         "corporate-it"),
        # its customer-facing web presence is web application security
        ("Are the partner portal's logs retained?", "web"),
        ("Are customer-facing services logged?", "web"),
        ("Is the public site's audit trail kept?", "web"),
    ],
)
def test_the_companys_own_systems_are_elsewhere(text: str, topic: str) -> None:
    m = builtin_matcher().match(text)
    assert m.has_strong and m.off_topic is not None and m.off_topic.id == topic


@pytest.mark.parametrize("text", [
    "Can a PC be left logged on overnight, or do idle sessions lock?",
    "Is a screen lock enforced on every computer after five minutes?",
])
def test_a_person_logged_on_at_a_computer_is_no_log(text: str) -> None:
    m = builtin_matcher().match(text)
    assert m.off_topic is not None and m.off_topic.id == "corporate-it"
    assert not m.has_strong  # "logged" inside "logged on" is the topic's word, not logging's


def test_servers_beside_a_layers_strong_term_are_the_layers() -> None:
    reach = builtin_matcher().match("Which servers on the internet may the agent reach?")
    assert reach.off_topic is None and reach.score >= DEFAULT_MIN_CONFIDENCE
    build = builtin_matcher().match("Do build servers hold deployment credentials?")
    assert build.off_topic is None and build.score >= DEFAULT_MIN_CONFIDENCE
    alone = builtin_matcher().match("Are the logs of all servers collected in one place?")
    assert alone.off_topic is not None and alone.off_topic.id == "corporate-it"
    yours = builtin_matcher().match("Are outbound connections from your servers logged?")
    assert yours.off_topic is not None and yours.off_topic.id == "corporate-it"


@pytest.mark.parametrize(
    ("text", "concept"),
    [
        ("Does each agent get a workspace of its own?", "isolation"),
        ("Is the assistant's working environment rebuilt for every job?", "isolation"),
        ("Do service identities hold only the privileges they need?", "credentials"),
        ("Do jobs get the permissions they need and no more?", "credentials"),
    ],
)
def test_workspace_and_least_privilege_as_need(text: str, concept: str) -> None:
    assert top(text)[:2] == (concept, True)


def test_what_the_agent_can_access_is_what_it_may_do() -> None:
    m = builtin_matcher().match("Which systems can the bot access?")
    assert [c.concept.id for c in m.concepts if c.strong] == ["credentials"]
    assert m.score >= DEFAULT_MIN_CONFIDENCE
    under = builtin_matcher().match("What systems can it access, and at what scope?", AI_HEADING)
    assert under.score >= DEFAULT_MIN_CONFIDENCE


@pytest.mark.parametrize(
    ("text", "concept"),
    [
        # what the vocabulary said only with "agent" ("agent ~ reach") holds for any word
        # naming the agent, and for "it" under an AI heading
        ("Which hosts can the bot reach?", "egress"),
        ("Can the assistant send files anywhere?", "egress"),
        ("What is the copilot allowed to change?", "credentials"),
        ("Which calls is the bot permitted to make?", "credentials"),
        ("Can one assistant read another's files?", "isolation"),
        # runs of contributions from outside the team
        ("Do workflows run for outside contributors without a check?", "pipeline"),
        ("Are jobs from external contributors held back?", "pipeline"),
        ("Is untrusted contributed code built automatically?", "pipeline"),
        ("Do first-time contributors' changes trigger jobs?", "pipeline"),
        ("Which jobs run for code from a fork?", "pipeline"),
        ("Are builds started for changes from forks?", "pipeline"),
        ("Do forked repositories get the same tokens?", "pipeline"),
        # a log as a thing kept, not "log in"
        ("Is a log of each change kept?", "logging"),
    ],
)
def test_agent_words_contributors_and_a_log(text: str, concept: str) -> None:
    assert top(text)[:2] == (concept, True)


def test_a_by_agent_term_may_be_four_words_from_the_agent() -> None:
    # "bot ... key": four words between; five are too many
    assert top("Can the bot read a private SSH key?")[:2] == ("credentials", True)
    assert top("Can the bot read out a private SSH key?")[:2] == ("credentials", False)


def test_it_in_capitals_is_information_technology() -> None:
    m = builtin_matcher().match("Are IT changes reviewed by a board?", AI_HEADING)
    assert m.subject == () and m.heading == ""
    lower = builtin_matcher().match("Are its changes reviewed?", AI_HEADING)
    assert lower.subject and lower.score >= DEFAULT_MIN_CONFIDENCE


@pytest.mark.parametrize(
    ("text", "concept"),
    [
        ("Is the main branch locked against direct edits?", "review"),
        ("Who may write to the default branch?", "review"),
        ("Is the master branch guarded?", "review"),
        ("Can actions run without confirmation?", "review"),
        ("Is user confirmation asked for deletions?", "review"),
        ("Is human confirmation needed for a deploy?", "review"),
        ("Can anything ship without a human looking?", "review"),
        ("Can code ship without human sign-off?", "review"),
        ("Are other tenants' workloads reachable?", "isolation"),
        ("Could other customers' jobs read ours?", "isolation"),
        ("Can another customer see our files?", "isolation"),
    ],
)
def test_main_branch_confirmation_and_other_customers(text: str, concept: str) -> None:
    assert top(text)[:2] == (concept, True)


def test_a_by_agent_word_never_overrides_a_topic_elsewhere() -> None:
    # "access to the agent" is people's access; the question is about staff screening
    m = builtin_matcher().match("Are people with access to the agent console screened by HR?")
    assert m.has_strong and not m.has_own_strong
    assert m.off_topic is not None and m.off_topic.id == "hr"
    # a layer's own strong term beside an AI word still makes it a compound question
    own = builtin_matcher().match("Are employees' laptops and the agent's egress restricted?")
    assert own.off_topic is None


@pytest.mark.parametrize(
    ("text", "concept"),
    [
        ("Are the build and test networks segmented?", "egress"),
        ("Is each network segregated by purpose?", "egress"),
        ("Can the bot install libraries of its choosing?", "egress"),
        ("Does the agent have admin on the cluster?", "credentials"),
        ("Is the assistant ever given administrator powers?", "credentials"),
        ("Does the bot run as root?", "credentials"),
        ("Which rights does the agent hold?", "credentials"),
    ],
)
def test_segments_installs_and_admin_rights(text: str, concept: str) -> None:
    assert top(text)[:2] == (concept, True)


@pytest.mark.parametrize(
    ("text", "qualifier", "words"),
    [
        ("Is the record of each agent session kept on write-once storage?", "immutability",
         ("write-once",)),
        ("Can anyone delete what the agent logged?", "immutability",
         ("delete",)),
        ("Are agent tool-call logs kept for twelve months?", "retention", ("kept for", "months")),
        ("Could a coding agent's token open the production database?", "production-data",
         ("production database",)),
    ],
)
def test_a_question_names_what_it_demands_of_a_concept(
    text: str, qualifier: str, words: tuple[str, ...]
) -> None:
    m = builtin_matcher().match(text)
    assert [(q.id, tuple(h.words for h in hits)) for q, hits in m.qualifiers] == [
        (qualifier, words)
    ]
    assert m.score == 0.85  # the matcher does not know the claims; the drafter decides


def test_a_qualifier_of_another_concept_is_ignored() -> None:
    # "modify" qualifies logs, not a workflow; "how long" qualifies logs, not tokens
    for text in ("Can the agent modify the release workflow?",
                 "How long does a token given to the agent stay valid?"):
        assert builtin_matcher().match(text).qualifiers == ()


def test_a_claim_speaks_to_a_qualifier_in_its_own_words() -> None:
    matcher = builtin_matcher()
    immutability = next(q for q in matcher.vocabulary.qualifiers if q.id == "immutability")
    assert matcher.speaks_to(immutability, "Session logs go to a bucket with S3 Object Lock.")
    assert not matcher.speaks_to(immutability, "Session logs are exported over OpenTelemetry.")


def test_under_an_ai_section_a_layers_own_term_is_about_the_agent() -> None:
    """A section or sheet naming AI makes a question with a layer's own strong term about the
    agent although it has no "it"; a workbook title alone does not."""
    m = builtin_matcher().match("Are audit trails kept centrally?", AI_HEADING)
    assert (m.under_ai, m.score, m.heading) == (True, 0.85, "Coding agents")
    assert m.words[-1] == "(about the agent, per the heading 'Coding agents')"
    titled = builtin_matcher().match("Are audit trails kept centrally?", (), ("AI tools",))
    assert (titled.under_ai, titled.score) == (False, 0.6)
    # a weak term alone stays weak under the heading
    assert builtin_matcher().match("Is there a record?", AI_HEADING).score < 0.55


def test_the_word_for_the_agent_is_not_a_concepts_term() -> None:
    """"tool" in "this tool" is the agent, not the tools it calls."""
    m = builtin_matcher().match("Can this tool itself deploy?", AI_HEADING)
    assert [c.concept.id for c in m.concepts] == ["pipeline"]


def test_a_longer_phrase_of_another_concept_wins() -> None:
    """The "tool-call" of "tool-call logs" is logging."""
    m = builtin_matcher().match("Are the assistant's tool-call logs exported?")
    assert [c.concept.id for c in m.concepts] == ["logging"]


@pytest.mark.parametrize(
    ("text", "concept"),
    [
        # tools: what the agent calls (tools, plugins, MCP servers, policy layers)
        ("Which plugins may the assistant invoke?", "tools"),
        ("Are MCP servers vetted before the copilot uses them?", "tools"),
        ("Does a policy engine decide on each step before it runs?", "tools"),
        # isolation: how far a compromised agent reaches; environments kept apart
        ("What is the blast radius of a misbehaving bot?", "isolation"),
        ("If the agent were compromised, how far could it get?", "isolation"),
        ("Is staging kept separate from the live environment?", "isolation"),
        # review: change procedures, where changes land, approval of actions and merges
        ("Do change procedures govern every release?", "review"),
        ("Are changes in the production estate approved?", "review"),
        ("Can the copilot merge code autonomously?", "review"),
        ("Who signs off risky actions?", "review"),
        ("Is direct push to the trunk disabled?", "review"),
        ("Must each PR get two approvals?", "review"),
        ("What happens when a file is changed by mistake?", "review"),
        # pipeline: checks a change must pass
        ("Are status checks required before a merge?", "pipeline"),
        ("Is every change tested before it ships?", "pipeline"),
        # logging: proving after the fact what happened and who did it
        ("Could you show afterwards who did what?", "logging"),
        ("Can every action be attributed to the agent?", "logging"),
        # injection: untrusted content, instructions overriding rules, tricking the agent
        ("Is untrusted content kept from steering it?", "injection"),
        ("Can rules be overridden by a prompt?", "injection"),
        ("Can the assistant be tricked by a poisoned issue comment?", "injection"),
        # egress: talking to the outside or to the metadata service
        ("Can the agent talk to the cloud metadata service?", "egress"),
        ("May the bot communicate with outside parties?", "egress"),
        # credentials: least privilege said as a minimum
        ("Are permissions kept to the minimum a job needs?", "credentials"),
    ],
)
def test_wording_classes_of_a_blind_set_name_their_concept(text: str, concept: str) -> None:
    assert top(text)[:2] == (concept, True)


@pytest.mark.parametrize(
    "text",
    [
        "Is an organisation-wide DLP tool watching for exfiltration?",
        "Can users opt out of usage telemetry?",
        "Do you keep a model inventory of AI systems?",
        "Is the marketing site hosted separately from production?",
        "Is the guest network segregated from the internal network?",
        "Do you watermark AI-generated images?",
    ],
)
def test_decoys_of_those_classes_stay_blank(text: str) -> None:
    m = builtin_matcher().match(text)
    assert m.off_topic is not None or m.score < DEFAULT_MIN_CONFIDENCE
