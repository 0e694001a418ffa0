"""The replay room: judge every action of a hand under a rulebook (see engine.py)."""

from .engine import replay

__all__ = ["replay"]
