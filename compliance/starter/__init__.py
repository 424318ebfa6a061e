"""`compliance init`: a starter workspace from the agent configuration a repository holds.

scan (:mod:`.scan`) -> plan (:mod:`.plan`: evidence, one control per aspect found,
its natural claim checked before it is written) -> write (:mod:`.render`: one
folder, all or nothing, never over an existing one).
"""
