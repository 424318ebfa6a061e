"""The six layers of an agent sandbox and the question each one answers."""

from __future__ import annotations

import enum


class Layer(enum.StrEnum):
    """A layer of defence. Every layer needs a control or it is reported as a gap."""

    ISOLATION = "isolation"
    NETWORK = "network"
    CREDENTIALS = "credentials"
    GIT = "git"
    PIPELINE = "pipeline"
    LOGS = "logs"

    @property
    def label(self) -> str:
        """Human name of the layer, e.g. "Network egress"."""
        return LAYER_TITLES[self]

    @property
    def question(self) -> str:
        return LAYER_QUESTIONS[self]


LAYER_TITLES = {
    Layer.ISOLATION: "Isolation",
    Layer.NETWORK: "Network egress",
    Layer.CREDENTIALS: "Credentials",
    Layer.GIT: "Git write and review",
    Layer.PIPELINE: "Pipeline gating",
    Layer.LOGS: "Logs",
}

LAYER_QUESTIONS = {
    Layer.ISOLATION: "Is the runtime appropriate for the code it runs?",
    Layer.NETWORK: "What can the agent reach, including via its tools?",
    Layer.CREDENTIALS: "What can a leaked or misused token do?",
    Layer.GIT: "Where can the agent write, and who reviews it?",
    Layer.PIPELINE: "Do workflows run before a human looks?",
    Layer.LOGS: "Can we reconstruct a session?",
}
