"""Policy-as-code for AI coding-agent sandboxes that refuses to overclaim."""

__version__ = "0.1.0"
