"""The judge's values: the one verdict and the one breach, as the report,
compare and the archive read them."""

from __future__ import annotations

from referee.ask.report import Report, Ruling, WordedBreach, verdict_json
from referee.base.errors import SequenceError
from referee.base.terms import Fn
from referee.judge.values import Breach, Step, Verdict, rules_broken
from referee.run.verdicts import brief, verdict_of


def _step(*breaches: Breach) -> Step:
    return Step(1, None, "Ann", Fn("pass"), breaches, frozenset(), frozenset(), "solver")


def test_a_verdict_is_its_word_and_gives_the_exit_code():
    assert [str(v) for v in Verdict] == ["legal", "illegal", "unreadable", "not judged", "failed"]
    assert [v.exit_code for v in Verdict] == [0, 1, 2, 2, 2]
    assert Verdict("not judged") is Verdict.NOT_JUDGED


def test_a_verdict_of_breaches_and_in_words():
    assert Verdict.of(()) is Verdict.LEGAL
    assert Verdict.of([Breach("not_in_control", "Ann", Fn("pass"))]) is Verdict.ILLEGAL
    assert Verdict.in_words(()) == "legal"
    assert Verdict.in_words(("bid_too_low", "not_in_control")) == "illegal (bid_too_low, not_in_control)"


def test_a_step_says_its_verdict_and_the_rules_it_breaks_once_each_sorted():
    assert _step().verdict is Verdict.LEGAL and _step().rules_broken == ()
    illegal = _step(Breach("b_rule", "Ann", Fn("pass")), Breach("a_rule", "Ann", Fn("pass"), (3,)),
                    Breach("b_rule", "Ann", Fn("pass"), (4,)))
    assert illegal.verdict is Verdict.ILLEGAL and not illegal.legal
    assert illegal.rules_broken == ("a_rule", "b_rule") == rules_broken(illegal.violations)


def test_a_worded_breach_is_the_breach_with_its_words():
    breach = Breach("bid_too_low", "Ann", Fn("bid", (Fn("zeus"), 2)), (2, 3))
    worded = WordedBreach(breach, "Bid too low", "Ann bids 2; at least 3", "en text", "zh-001", "zh text")
    assert worded.rule == "bid_too_low"
    assert worded.to_json() == {"rule": "bid_too_low", "title": "Bid too low", "message": "Ann bids 2; at least 3",
                                "en": "en text", "reading": "zh-001", "translation": "zh text"}


def test_a_ruling_in_json_keeps_the_schema_s_keys_in_order():
    ruling = Ruling(number=3, file="g.txt", line=7, column=1, cycle=1, player="Ann", text="pass", move="passes",
                    verdict=Verdict.ILLEGAL, disputed=False)
    data = verdict_json(ruling)
    assert list(data) == ["number", "file", "line", "column", "cycle", "player", "text", "move", "legal",
                          "disputed", "breaches", "warnings", "notes", "inserted", "assumptions", "alternatives",
                          "alternatives_for", "alternatives_total", "alternatives_complete"]
    assert data["legal"] is False and not ruling.legal


def test_a_report_s_verdict():
    report = Report("g.txt", "nim", "en", ("Ann", "Bob"), 0, 0)
    assert report.verdict is Verdict.LEGAL and report.exit_code == 0 and report.to_json()["legal"] is True
    report.problems.append(Ruling(1, "g.txt", 2, 1, 0, "Ann", "take 9", "takes 9", Verdict.ILLEGAL, False))
    assert report.verdict is Verdict.ILLEGAL and report.exit_code == 1
    report.error = SequenceError("cannot be followed")
    assert report.verdict is Verdict.UNREADABLE and report.exit_code == 2 and report.to_json()["legal"] is False


def test_an_archive_record_s_verdict_from_its_report():
    assert verdict_of({"exit": 0}) is Verdict.LEGAL
    assert verdict_of({"exit": 1}) is Verdict.ILLEGAL
    assert verdict_of({"exit": 2, "error": {"code": "notation"}}) is Verdict.UNREADABLE
    assert verdict_of({"exit": 2, "error": {"code": "record-time-limit"}}) is Verdict.NOT_JUDGED
    assert verdict_of({"exit": 2, "error": {"code": "solver-limit"}}) is Verdict.NOT_JUDGED
    assert verdict_of({"exit": 2, "error": {"code": "worker"}}) is Verdict.FAILED
    assert verdict_of({"exit": 2, "error": {"code": "internal"}}) is Verdict.FAILED
    short = brief({"file": "g.txt", "exit": 1, "moves_checked": 4, "problems": [
        {"line": 3, "column": 1, "number": 2, "breaches": [{"rule": "a_rule"}, {"rule": "b_rule"}]},
        {"line": 5, "column": 1, "number": 4, "breaches": [{"rule": "a_rule"}]}]})
    assert short["verdict"] == "illegal" and short["illegal_moves"] == 2 and short["by_rule"] == {"a_rule": 2}
