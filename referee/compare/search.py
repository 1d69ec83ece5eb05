"""The solver's search for positions where two readings disagree
(``referee compare GAME --rules A --rules B``; docs/translations.md).

For each variant in one reading and not the other, a *scenario* bounds the
search: a small transcript (a map, 2 or 3 players, a few moves) that reaches
a decision point — a round of a fight, a retreat, a player's turn, a payment —
the *free parts* of the position (extra pieces, money, buildings near the
action, each written as a ``position:`` item) and the
moves to judge there. Both readings' rule programs are grounded together, their
predicates renamed apart (``a_``/``b_``; the move ``does/2`` and the static facts
are shared); choice rules pick the free parts and the move; a constraint asks
that the verdicts (the rules broken) or the effects of the move differ; and
``#minimize`` keeps the position small (verdict differences first among
positions of one size). The witness is then written as a transcript
(``position:`` line, the scenario's moves, the move found) and replayed with the
referee under both readings, to show that ``referee check --rules A|B``
reproduces it.

The scenarios are the game's data (the ``scenarios`` of its Scenarios part,
``referee/games/<game>/scenarios.py``): one per rule block that a variant
changes. A variant without a scenario is reported as not searched.
"""

from __future__ import annotations

import time

from referee.base.errors import DataError, RefereeError
from referee.base.terms import Fn, fn
from referee.compare.play import referee_under
from referee.compare.result import CompareResult, Disagreement, check_readings
from referee.game.contract import lacks
from referee.game.fluents import fluent
from referee.game.parts import part, part_class
from referee.game.parts.scenarios import Scenarios
from referee.game.readings import Readings, load_readings
from referee.game.scenario import Scenario
from referee.judge.engine import best_model
from referee.judge.values import Verdict

#: Default bounds: free facts in a position, seconds of solving per scenario.
DEFAULT_MAX_SIZE = 8
DEFAULT_SECONDS = 20.0


# -- the combined program ------------------------------------------------------------------

_GLUE = """
{{ pick(E) : extra(E) }} {max_size}.
1 {{ choose(I) : move(I,_,_) }} 1.
does(R,M) :- choose(I), move(I,R,M).
"""

_COPY = """
{p}has(C,K) :- base_{p}(count(C,K,_)).
{p}touched(C,K) :- {p}has(C,K), pick(E), delta(E,C,K,_).
{p}counter(count(C,K,N)) :- base_{p}(count(C,K,N)).
{p}true(F) :- base_{p}(F), not {p}counter(F).
{p}true(count(C,K,N)) :- base_{p}(count(C,K,N)), not {p}touched(C,K).
{p}true(count(C,K,N+D)) :- base_{p}(count(C,K,N)), {p}touched(C,K), D = #sum{{ X,E : pick(E), delta(E,C,K,X) }},
    N + D != 0.
{p}true(count(C,K,D)) :- delta(_,C,K,_), not {p}has(C,K), D = #sum{{ X,E : pick(E), delta(E,C,K,X) }}, D != 0.
{p}true(F) :- pick(E), adds(E,F).
{p}verdict(Id) :- {p}violation(Id,R,M,_), does(R,M).
{p}after(F) :- {p}true(F), not {p}loses(F).
{p}after(F) :- {p}gains(F).
"""

_DIFFER = """
differ_verdict :- a_verdict(Id), not b_verdict(Id).
differ_verdict :- b_verdict(Id), not a_verdict(Id).
differ_effect :- a_after(F), not b_after(F).
differ_effect :- b_after(F), not a_after(F).
:- not differ_verdict, not differ_effect.
a_illegal :- a_verdict(_).
b_illegal :- b_verdict(_).
legality_differs :- a_illegal, not b_illegal.
legality_differs :- b_illegal, not a_illegal.
#minimize{ 1@3,E : pick(E) }.
#minimize{ 1@2 : not legality_differs }.
#minimize{ 1@1 : not differ_verdict }.
#show pick/1. #show choose/1. #show differ_verdict/0. #show a_verdict/1. #show b_verdict/1.
"""

#: What the search's optimal model shows: the extras picked for the position, the
#: move chosen, and the rules broken under each reading.
Pick = fluent("pick", "extra")
Choose = fluent("choose", "move")
VerdictA = fluent("a_verdict", "rule")
VerdictB = fluent("b_verdict", "rule")


def compare_search(game: str, reading_a: str, reading_b: str, max_size: int = DEFAULT_MAX_SIZE,
                   seconds: float = DEFAULT_SECONDS, readings: Readings | None = None,
                   progress=None) -> CompareResult:
    """Search the scenarios of the variants in which the readings differ for
    positions and moves they judge differently (see the module docstring).
    ``progress(done, total, found, seconds_left)`` is called after each search."""
    started = time.perf_counter()
    if readings is None:
        variants_a, variants_b = check_readings(game, reading_a, reading_b)
        readings = load_readings(game)
    else:
        variants_a, variants_b = readings.reading(reading_a).variants, readings.reading(reading_b).variants
    from referee.game.registry import game_class

    every = part_class(game_class(game), Scenarios).scenarios
    if not every:
        raise lacks(game_class(game), "search scenarios")
    result = CompareResult(game, reading_a, reading_b, variants_a, variants_b, "search")
    if reading_a == reading_b:
        raise DataError(f"compare two different readings (both are {reading_a})")
    differing = set(result.differing)
    scenarios = [s for s in every if differing & set(s.variants)]
    # A variant no listed scenario names: its module's rule ids pick the scenarios that exercise them.
    for vid in sorted(differing - {v for s in every for v in s.variants}):
        blocks = set(readings.variants[vid].rules)
        scenarios += [s for s in every if blocks & set(s.blocks) and s not in scenarios]
    unsearched = sorted(v for v in differing
                        if not any(v in s.variants or set(readings.variants[v].rules) & set(s.blocks)
                                   for s in scenarios))
    result.searched = {"scenarios": [s.name for s in scenarios], "max free facts": max_size,
                       "seconds per scenario": seconds,
                       "spaces": {s.name: s.description for s in scenarios},
                       "variants without a scenario": unsearched}
    pair = ((reading_a, variants_a), (reading_b, variants_b))
    shown_legality: set = set()
    shown_any: set = set()
    total = sum(len([v for v in s.variants if v in differing] or differing) for s in scenarios)
    done = 0

    def searching(found: list, then=None):
        nonlocal done
        out = then() if then else None
        done += 1
        if progress is not None:
            progress(min(done, total), total, len(found), max(0, total - done) * seconds)
        return out

    for scenario in scenarios:
        # Each variant alone first (reading A with that variant switched), so that each
        # difference gets its own witness; a witness counts when it parts A and B.
        own = [v for v in scenario.variants if v in differing] or sorted(differing)
        reproduced = False
        for vid in own:
            if vid in shown_legality:  # an earlier scenario showed it as legal against illegal
                reproduced = True
                continue
            # from A's side (A against A with v switched), else from B's (B with v switched against B)
            found = searching(result.disagreements, lambda: _search(
                scenario, (reading_a, variants_a), (f"{reading_a}±{vid}", tuple(sorted(set(variants_a) ^ {vid}))),
                pair, readings, max_size, seconds))
            if found is None or not found.reproduced:
                found = _search(scenario, (f"{reading_b}±{vid}", tuple(sorted(set(variants_b) ^ {vid}))),
                                (reading_b, variants_b), pair, readings, max_size, seconds)
            if found is not None and found.reproduced:
                found.variants = (vid,)
                result.disagreements.append(found)
                reproduced = True
                shown_any.add(vid)
                if (not found.verdict_a) != (not found.verdict_b):
                    shown_legality.add(vid)
        if not reproduced and not set(own) & shown_any:  # the variants together (one may mask another's)
            found = _search(scenario, *pair, pair, readings, max_size, seconds)
            if found is not None:
                found.variants = tuple(own)
                result.disagreements.append(found)
    from referee.compare.witnesses import settle

    settle(result, readings, {s.name: s for s in every})
    result.seconds = time.perf_counter() - started
    return result


def _base_state(scenario: Scenario, reading: tuple, readings: Readings):
    """The state the scenario's moves lead to under a reading (no free parts)."""
    from referee.game.notation import parse_transcript

    text = _witness(scenario, (), "")
    referee = referee_under(parse_transcript(text, source=f"<scenario {scenario.name}>"), reading, readings)
    state = referee.run(close=False).final
    for role, move, _ in scenario.then:
        state = referee.engine.judge(referee.rules.static, state, role, move).next_state
    return state, referee


def _search(scenario: Scenario, reading_a: tuple, reading_b: tuple, shown: tuple, readings: Readings,
            max_size: int, seconds: float) -> Disagreement | None:
    """The smallest position and move of the scenario on which readings A and B
    (each (name, variants)) disagree, replayed as a transcript under the
    ``shown`` pair of readings (the pair compared)."""
    base_a, referee = _base_state(scenario, reading_a, readings)
    base_b, _ = _base_state(scenario, reading_b, readings)
    program = "\n".join(p.read_text(encoding="utf-8") for p in referee.engine.program_files)
    glue = _GLUE.format(max_size=max_size) + _COPY.format(p="a_") + _COPY.format(p="b_") + _DIFFER
    static = [f for f in referee.rules.static if f.name != "variant_active"]
    facts: list = list(static)
    facts += [fn("a_variant_active", Fn(v)) for v in reading_a[1]]
    facts += [fn("b_variant_active", Fn(v)) for v in reading_b[1]]
    facts += [fn("base_a_", f) for f in base_a]
    facts += [fn("base_b_", f) for f in base_b]
    for e, extra in enumerate(scenario.extras):
        facts.append(fn("extra", e))
        kind, name, *rest = part(referee.rules, Scenarios).position_item(extra)
        if kind == "change":
            key, delta = rest
            facts.append(fn("delta", e, Fn(name), key, delta))
        else:
            facts.append(fn("adds", e, fn(name, *rest[0])))
    for i, (role, move, _) in enumerate(scenario.moves):
        facts.append(fn("move", i, role, move))
    model, optimal = best_model(program, ("a_", "b_"), glue, facts, seconds, max(seconds, 30.0),
                                f"the search of scenario {scenario.name} could not be grounded in time")
    if model is None:
        return None
    picks = sorted(a.extra for a in Pick.of(model))
    choice = Choose.of(model)[0].move
    verdict_a = tuple(sorted(a.rule.name for a in VerdictA.of(model)))
    verdict_b = tuple(sorted(a.rule.name for a in VerdictB.of(model)))
    what = "verdict" if any(a.name == "differ_verdict" for a in model) else "effect"
    position = tuple(scenario.extras[e] for e in picks)
    role, move, line = scenario.moves[choice]
    transcript = _witness(scenario, position, line)
    reproduced, replay, verdicts = _replay(transcript, shown[0], shown[1], readings, closes=not line)
    line = line or f"({referee.words.describe_move(move)}: the referee makes it when the transcript ends)"
    if (reading_a, reading_b) != shown:  # a variant alone was searched: say what the compared pair gives
        verdict_a, verdict_b = verdicts
    return Disagreement(scenario.name, (), scenario.blocks, position, line, what, verdict_a, verdict_b,
                        transcript, reproduced, replay, optimal)


def _witness(scenario: Scenario, position: tuple[str, ...], line: str) -> str:
    items = scenario.fixed + position
    header = list(scenario.header) + ([f"position: {'; '.join(items)}"] if items else [])
    lines = list(scenario.lines) + [t[2] for t in scenario.then if t[2]] + ([line] if line else [])
    return "\n".join(header + lines) + "\n"


def _replay(text: str, reading_a: tuple, reading_b: tuple, readings: Readings,
            closes: bool = False) -> tuple[bool, str, tuple]:
    """Check the witness transcript under both readings: does its last move part
    them (its verdict, or the state after it; with ``closes``, the state after the
    period is closed, where the winner is known)? Whether it does, in words, and
    the rules each reading finds broken."""
    from referee.game.notation import parse_transcript

    outcomes = []
    for reading in (reading_a, reading_b):
        try:
            referee = referee_under(parse_transcript(text, source="<witness>"), reading, readings)
            run = referee.run(close=closes)
            last = max(s.number for s in run.written())
            step = run.step_of(last)
            rules = step.rules_broken
            effect = run.final if closes else step.after
            said = Verdict.in_words(rules)
            if closes:
                said += f", {referee.words.describe_outcome(run.final)}"
            outcomes.append((said, effect, rules))
        except RefereeError as error:
            outcomes.append((f"unreadable ({str(error).splitlines()[0]})", None, ("unreadable",)))
    reproduced = outcomes[0][:2] != outcomes[1][:2]
    said = f"{reading_a[0]}: {outcomes[0][0]}; {reading_b[0]}: {outcomes[1][0]}"
    if reproduced and outcomes[0][2] == outcomes[1][2] and not closes:
        said += " (the same verdict, different next states)"
    elif not reproduced:
        said += " (the transcript does not part them: the referee fills in what the notation leaves out)"
    return reproduced, said, (outcomes[0][2], outcomes[1][2])

