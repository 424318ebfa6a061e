"""Rendering: typed context -> Jinja templates -> HTML, PDF/A, stance summary, evidence pack.

Every stage here is hermetic (no network, no file outside the render's own
folders) and reproducible (same inputs, same bytes): dates come from the
model, never from the clock. Heavy imports (WeasyPrint) live in
:mod:`compliance.render.pdf` only, so importing this package stays cheap.
"""
