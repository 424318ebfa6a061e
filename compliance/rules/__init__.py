"""Rules, one per module, in families: ``model`` (limits, layers, evidence, waivers),
``claims`` (prose overclaims), ``config`` (claims versus configuration files) and
``verdicts`` (what the verdicts say about each claim).

The registry of every rule is :mod:`compliance.rules.registry`. This package
file stays empty on purpose: importing one family (``compliance lint`` needs
only the claim rules) must not import the others and the model they need.
"""
