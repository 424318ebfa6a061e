"""What a hostname on an egress allowlist is: package registry, model API, or something else.

The claim "the agent can only reach package registries and the model API"
is checked against these two lists; any other host refutes it, and hosts on
:data:`WRITE_CAPABLE` get a sharper message (they accept data from anyone
holding a token, so they are exfiltration channels).
"""

from __future__ import annotations

REGISTRIES = (
    "registry.npmjs.org", "registry.yarnpkg.com", "pypi.org", "files.pythonhosted.org",
    "crates.io", "static.crates.io", "index.crates.io", "proxy.golang.org", "sum.golang.org",
    "repo.maven.apache.org", "repo1.maven.org", "plugins.gradle.org", "rubygems.org",
    "api.nuget.org", "registry.hub.docker.com", "registry-1.docker.io",
    "deb.debian.org", "security.debian.org", "archive.ubuntu.com", "security.ubuntu.com",
    "dl-cdn.alpinelinux.org", "packages.microsoft.com", "conda.anaconda.org", "repo.anaconda.com",
    "pkg.go.dev", "hex.pm", "repo.hex.pm", "cdn.jsdelivr.net",
)
MODEL_APIS = (
    "api.anthropic.com", "api.openai.com", "generativelanguage.googleapis.com",
    "aiplatform.googleapis.com", "bedrock-runtime.amazonaws.com", "openai.azure.com",
    "api.mistral.ai", "api.cohere.com",
)
WRITE_CAPABLE = (
    "github.com", "api.github.com", "githubusercontent.com", "gitlab.com", "bitbucket.org",
    "slack.com", "hooks.slack.com", "notion.so", "notion.com", "api.notion.com", "sentry.io",
    "discord.com", "discordapp.com", "pastebin.com", "gist.github.com", "s3.amazonaws.com",
    "amazonaws.com", "storage.googleapis.com", "blob.core.windows.net", "dropbox.com",
    "drive.google.com", "docs.google.com", "webhook.site", "ngrok.io", "ngrok-free.app",
    "statsig.com", "segment.io", "api.segment.io", "linear.app", "atlassian.net",
    "trello.com", "telegram.org", "api.telegram.org",
)


def _under(host: str, domain: str) -> bool:
    host = host.lower().lstrip("*.").rstrip(".")
    return host == domain or host.endswith("." + domain)


def classify(host: str) -> str:
    """``registry``, ``model-api``, ``wildcard``, ``write-capable`` or ``other``."""
    h = host.lower().strip()
    if h in ("*", "*.*") or h.count(".") == 1 and h.startswith("*."):
        return "wildcard"
    if any(_under(h, d) for d in REGISTRIES):
        return "registry"
    if any(_under(h, d) for d in MODEL_APIS) or (h.startswith("bedrock-runtime.")
                                                 and h.endswith(".amazonaws.com")):
        return "model-api"
    if any(_under(h, d) for d in WRITE_CAPABLE):
        return "write-capable"
    return "other"


def describe(host: str) -> str | None:
    """Why a host breaks the claim, or None when it is a registry or model API."""
    kind = classify(host)
    return {
        "wildcard": f"{host} allows every host under a top-level domain",
        "write-capable": f"{host} is a general write-capable service (allowed hosts receive data)",
        "other": f"{host} is neither a package registry nor a model API",
    }.get(kind)
