#!/usr/bin/env python3
"""Show where a Cyclades transcript leaves the game: a helper for writing games by hand.

    python tools/game_state.py transcripts/cyclades/game-4p.txt           # after the last move
    python tools/game_state.py FILE --close      # after closing the last cycle (next order, refreshed track)
    python tools/game_state.py FILE --moves      # and what the player in control may do

Prints the check's report, then one line per player (GP, priests, philosophers,
the income they will collect, troops, fleets and their sea spaces, and each island
with its building spaces, metropolis spaces, printed and Apollo prosperity,
buildings, metropolis and free spaces), then the cycle, phase, creature track,
god tiles, turn track, offerings, discard pile and deck. The transcripts under
transcripts/ were written cycle by cycle with it: write a cycle, look at the
gold and the free spaces, write the next.

It reads the referee's state fluents (referee/games/cyclades/rules/state.lp), so it
is a development aid, not an interface: it may need a touch when the fluents change.
"""

from __future__ import annotations

import argparse
from collections import defaultdict

from referee.ask.session import Session
from referee.base.terms import Fn


def _key(term):
    """Counter keys are tuples (an Fn with an empty name) or single terms."""
    return tuple(term.args) if isinstance(term, Fn) and term.name == "" else term


def _name(term) -> str:
    return term.name if isinstance(term, Fn) else str(term)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("transcript")
    parser.add_argument("--close", action="store_true", help="close the last cycle first")
    parser.add_argument("--moves", action="store_true", help="list what the player in control may do")
    args = parser.parse_args()

    session = Session(args.transcript)
    print(session.check().to_text())
    state = session.referee.run(close=args.close).final
    board = session.rules.board
    islands = {i.id: i for i in board.islands}
    sea_prosperity = {s.id: s.prosperity for s in board.seas}

    counts: dict[str, dict] = defaultdict(dict)
    other = []
    for f in state:
        if f.name == "count":
            counts[f.args[0].name][_key(f.args[1])] = f.args[2]
        else:
            other.append(f)
    metropolises = {f.args[0] for f in other if f.name == "metropolis"}

    for player in session.rules.players:
        held = sorted({k[1] for k in counts["troops"] if k[0] == player}
                      | {f.args[0] for f in other if f.name == "marker" and f.args[1] == player})
        fleets = {k[1]: n for k, n in counts["fleets"].items() if k[0] == player}
        income = sum(islands[i].prosperity + counts["prosperity"].get(i, 0) for i in held) \
            + sum(sea_prosperity.get(s, 0) for s in fleets)
        parts = []
        for i in held:
            island = islands[i]
            built = {_name(k[1]): n for k, n in counts["building"].items() if k[0] == i}
            used = sum(built.values()) + (island.metropolis_slots if i in metropolises else 0)
            parts.append(f"{i}[{island.slots} spaces, metropolis {island.metropolis_slots}, "
                         f"prosperity {island.prosperity}+{counts['prosperity'].get(i, 0)}]"
                         + ("{" + ",".join(f"{t} {n}" for t, n in sorted(built.items())) + "}" if built else "")
                         + (" METROPOLIS" if i in metropolises else "") + f" free {island.slots - used}")
        print(f"{player}: {counts['gold'].get(player, 0)} GP, {counts['priests'].get(player, 0)} priests, "
              f"{counts['philosophers'].get(player, 0)} philosophers, income {income}, "
              f"{sum(n for k, n in counts['troops'].items() if k[0] == player)} troops, "
              f"{sum(fleets.values())} fleets {sorted(fleets)}")
        for part in parts:
            print(f"    {part}")
    for name in ("cycle", "phase", "control", "track", "god_up", "god_down", "waiting_god", "order", "offer",
                 "outbid", "pending", "marker", "battle", "battle_turn", "winner"):
        facts = sorted(str(f) for f in other if f.name == name)
        if facts:
            print(f"{name}: {' '.join(facts)}")
    print("discard:", " ".join(sorted(_name(f.args[0]) for f in other if f.name == "discard")))
    deck = sorted(_name(f.args[0]) for f in other if f.name == "deck")
    print(f"deck ({len(deck)}):", " ".join(deck))
    if args.moves:
        who, groups, total, _, _ = session.moves()
        print(f"{who} to decide ({total} legal moves):")
        for group in groups:
            print(f"  - {group}")


if __name__ == "__main__":
    main()
