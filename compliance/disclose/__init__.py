"""Disclosures: what was sent to whom, and whether the model still supports it.

``records`` (disclosures/NAME.yaml on disk), ``make`` (a record from a build or
an answer run), ``state`` (each claim's state now, the one description both
sides of a comparison use), ``compare`` (weaker / stronger / changed),
``gitrev`` (a workspace as it was at a git revision).
"""
