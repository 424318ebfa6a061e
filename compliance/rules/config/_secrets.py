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


#: Literal values shaped like a real credential (GitHub, AWS, Slack, OpenAI/Anthropic,
#: GitLab, Google API keys, private keys): a value that is one is a secret whatever its name.
TOKEN_VALUE = re.compile(
    r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|(?:AKIA|ASIA)[0-9A-Z]{16}"
    r"|xox[abprs]-[A-Za-z0-9-]{10,}|sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}|glpat-[A-Za-z0-9_-]{20,}"
    r"|AIza[0-9A-Za-z_-]{35})"
    r"|-----BEGIN [A-Z ]*PRIVATE KEY-----"
)


_KIND = re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----|[A-Za-z]+[_-](?:ant-|proj-|pat_)?")


def token_in(value: object) -> str | None:
    """The kind of credential a literal value holds, as its prefix only (``ghp_…``, never
    the secret itself), or None."""
    m = TOKEN_VALUE.search(value) if isinstance(value, str) else None
    if m is None:
        return None
    kind = _KIND.match(m.group())
    return (kind.group() if kind else m.group()[:4]) + "…"
