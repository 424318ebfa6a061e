"""What looks like a long-lived secret: names, mounted credential paths, network commands."""

from __future__ import annotations

import re

SECRET_NAME = re.compile(
    r"(^|_)(API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|PAT|PRIVATE_KEY|ACCESS_KEY|CREDENTIALS?)($|_)",
    re.I,
)
EPHEMERAL = frozenset({"GITHUB_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
                       "ACTIONS_RUNTIME_TOKEN"})
CREDENTIAL_PATHS = re.compile(
    r"(\.ssh|\.aws|\.config/gh|\.gnupg|\.docker/config|\.kube|\.netrc|\.git-credentials|"
    r"\.azure|\.config/gcloud|\.npmrc|\.pypirc)(/|,|$|\s)"
)
NETWORK_COMMAND = re.compile(
    r"\b(curl|wget|apt-get|apt|pip3?|npm|npx|yarn|pnpm|gem|cargo|go\s+(get|install|mod)|"
    r"git\s+(clone|fetch|pull|push)|docker\s+(pull|push|login)|brew|uv|poetry|conda|gh)\b"
)


def is_secret_name(name: str) -> bool:
    return bool(SECRET_NAME.search(name)) and name.upper() not in EPHEMERAL
