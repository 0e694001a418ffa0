"""Rules: the rulebook, read by the replay and the settlement alike.

:mod:`.params` holds the parameter table, :mod:`.rulebook` the loader (built-ins in ``books/``,
``extends``, ``--set``) and the side-by-side tables, :mod:`.docs` the finding-code reference.
"""
