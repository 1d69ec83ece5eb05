#!/usr/bin/env python3
"""Write a complete Luna game by playing legal moves chosen at random (seeded).

The solver lists the legal moves (the rule programs are the reference), a
seeded random choice picks one, weighted so that the game looks like a game
(meditation grows likelier as a round goes on).  The result is a transcript in
the notation of docs/luna.md; checking it must report every move legal.

    python tools/luna_playout.py --players 3 --layout normal --seed 7 > transcripts/luna/game-3p.txt
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.base.terms import Fn  # noqa: E402
from referee.game.notation import parse_transcript  # noqa: E402
from referee.games.luna.game import LunaRules  # noqa: E402
from referee.games.luna.words import scores as scores_of  # noqa: E402
from referee.games.luna.writing import action as notation  # noqa: E402
from referee.judge.engine import Engine  # noqa: E402

NAMES = ["Ann", "Bob", "Cy", "Dee"]
COLOURS = ["red", "blue", "green", "yellow"]
WEIGHTS = {"favour": 6, "recruit": 3, "shrine": 8, "herbs": 3, "travel": 2, "waves": 2, "sailboat": 2,
           "occupy": 8, "enter": 10, "book": 4, "council": 3, "banish": 2, "novices": 1}


def header(players: int, layout: str, seed: int) -> str:
    decl = ", ".join(f"{n} {c}" for n, c in zip(NAMES[:players], COLOURS))
    return (f"# A complete {players}-player game, written by tools/luna_playout.py --players {players}"
            f" --layout {layout} --seed {seed}\n# (legal moves chosen at random by a seeded generator).\n"
            f"game: luna\nplayers: {decl}\nlayout: {layout}\n")


def play(players: int, layout: str, seed: int) -> str:
    rng = random.Random(seed)
    text = header(players, layout, seed)
    rules = LunaRules(parse_transcript(text, "<playout>"))
    engine = Engine(rules.program_files)
    state = engine.init(rules.static)
    lines = [text.rstrip("\n"), ""]
    if layout == "normal":
        lines.append("preparation")
    heading = 0
    actions_this_round = 0
    continuing = False
    while not rules.is_over(state):
        step = rules.game_step(state)
        if step is not None:
            state = engine.judge(rules.static, state, Fn("game"), step).next_state
            continue
        role = rules.control(state)
        round_ = rules.period_number(state)
        if round_ != heading and round_ > 0:
            lines.append(f"round {round_}")
            heading, actions_this_round = round_, 0
        moves = [m for r, m in engine.legal_moves(rules.static, state) if r == role]
        weights = []
        for m in moves:
            if m.name == "meditate":
                weights.append(1 + actions_this_round * 1.5)
            else:
                weights.append(WEIGHTS.get(m.name, 1) / max(1, sum(1 for x in moves if x.name == m.name)) * 10)
        if any(m.name == "done" for m in moves):  # a travel in progress: usually one or two groups
            weights = [30 if m.name == "done" else w for m, w in zip(moves, weights)]
        move = rng.choices(moves, weights)[0]
        judgement = engine.judge(rules.static, state, role, move)
        assert not judgement.violations, (move, judgement.violations)
        if move.name == "done":  # not written: the next line ends the travel
            pass
        elif move.name in ("travel", "waves") and continuing:
            lines[-1] += ", " + notation(move).split(" ", 1)[1]
        else:
            lines.append(f"{role}: {notation(move)}")
        continuing = move.name in ("travel", "waves")
        state = judgement.next_state
        actions_this_round += 1
    merged: list[str] = []  # a player's four pairs of the preparation on one line
    for line in lines:
        if merged and " novices on " in line and merged[-1].split(":")[0] == line.split(":")[0] \
                and " novices on " in merged[-1]:
            merged[-1] += ", " + line.rsplit(" ", 1)[1]
        else:
            merged.append(line)
    lines = merged
    scores = ", ".join(f"{p} {v}" for p, v in sorted(scores_of(state).items()))
    lines.append(f"# final influence: {scores}; winner: {', '.join(rules.winners(state))}")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--layout", default="intro", choices=("intro", "normal"))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sys.stdout.write(play(args.players, args.layout, args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
