"""The inline suppression comment, as `check` reads it in YAML and `lint` in prose.

``# compliance: allow CLM001 -- reason`` (the ``--`` is optional): in a model's YAML a
comment; in Markdown, text or reStructuredText an HTML comment works too, so that it does
not show when the page is rendered: ``<!-- compliance: allow CLM010 -- reason -->``. It
covers findings on its own line and the next. A suppression needs its reason (SUP001).
"""

from __future__ import annotations

import re

_BODY = (r"compliance:\s*allow\s+(?P<codes>[A-Za-z0-9_-]+(?:\s*,\s*[A-Za-z0-9_-]+)*)"
         # (an HTML comment's closing "-->" is neither the separator nor a reason)
         r"(?:\s*(?:--(?!>)|:)?\s*(?P<reason>(?!-->)\S.*?))?")
#: In YAML: a ``#`` comment to the end of the line.
SUPPRESSION = re.compile(r"#\s*" + _BODY + r"\s*$")
#: In prose: a ``#`` or an HTML comment (``<!-- ... -->``) to the end of a line.
PROSE_SUPPRESSION = re.compile(r"(?:<!--|#)\s*" + _BODY + r"\s*(?:-->)?[ \t]*$", re.M)
SUP_CODE, SUP_NAME = "SUP001", "suppression-without-reason"
#: How ``waived_by`` starts for a finding an inline suppression covers.
INLINE = "inline at "


def codes_of(match: re.Match[str]) -> tuple[str, ...]:
    return tuple(c.strip() for c in match["codes"].split(","))
