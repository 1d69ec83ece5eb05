"""What every game reads off a state the same way: the role in control, the
phase, whether the game is over and who won (fluents ``control(R)``,
``phase(P)``, ``winner(P)``, shared by the games' rule programs)."""

from __future__ import annotations

from ..terms import Fn


class StateReading:
    """A mixin for a game's rules class (see ``GameRules``)."""

    @staticmethod
    def _one(state: frozenset, name: str) -> Fn | None:
        return next((f for f in state if f.name == name), None)

    def control(self, state: frozenset):
        f = self._one(state, "control")
        return f.args[0] if f else None

    def phase(self, state: frozenset) -> str:
        f = self._one(state, "phase")
        return f.args[0].name if f else ""

    def is_over(self, state: frozenset) -> bool:
        return self.phase(state) == "over"

    def winners(self, state: frozenset) -> list[str]:
        return sorted(f.args[0] for f in state if f.name == "winner")
