"""Check stage: rules over the loaded model and its evidence files.

Entry point: :func:`compliance.check.engine.run_checks`.
"""
