"""Graph mode's front end (Note [Staging] in stager.py)."""


def is_building_graph():
    """True while a graph is being compiled: library code that must differ between the modes (an
    eager-only fast path, a step counter read as a number) asks this."""
    from sprout._frontend import calls
    return calls.active_context() is not None
