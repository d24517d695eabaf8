"""The Elo fit (``oxo.engines.rating``) on synthetic results with known strengths, against closed
forms and a plain numerical check of the likelihood."""

from __future__ import annotations

import math
import random

import pytest

from oxo.engines.rating import (
    ELO_PER_NAT,
    Game,
    expected_score,
    fit_elo,
    log_likelihood,
)


def synthetic(truth: dict[str, float], per_pair: int, seed: int, draw_share: float = 0.0):
    """Games between every pair, each result drawn from the Elo model with the ratings ``truth``
    (a share of the games drawn, the rest split so the expected score is the model's)."""
    rng = random.Random(seed)
    names = list(truth)
    games = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            p = expected_score(truth[a] - truth[b])
            draws = min(draw_share, 2 * min(p, 1 - p))
            win = p - draws / 2
            for _ in range(per_pair):
                u = rng.random()
                score = 1.0 if u < win else 0.5 if u < win + draws else 0.0
                games.append(Game(a, b, score))
    return games


def test_two_players_match_the_closed_form():
    # 30 wins, 10 draws, 20 losses (plus one imaginary draw): d = 400 log10(s / (1 - s)).
    games = [Game("a", "b", 1.0)] * 30 + [Game("a", "b", 0.5)] * 10 + [Game("a", "b", 0.0)] * 20
    ratings = fit_elo(games, anchor="b")
    share = (30 + 5 + 0.5) / 61
    assert ratings.elo["b"] == 0.0
    assert ratings.elo["a"] == pytest.approx(400 * math.log10(share / (1 - share)), abs=1e-6)
    # Fisher information of n games at expected score p: n p (1 - p) per nat squared.
    assert ratings.error["a"] == pytest.approx(
        ELO_PER_NAT / math.sqrt(61 * share * (1 - share)), rel=1e-6
    )
    assert ratings.error["b"] == 0.0
    assert ratings.games == 60


def test_the_fit_is_the_maximum_of_the_likelihood():
    games = synthetic({"a": 0, "b": 150, "c": 500, "d": 520}, per_pair=15, seed=3, draw_share=0.2)
    ratings = fit_elo(games, anchor="a")
    best = log_likelihood(ratings.elo, games)
    for name in ("b", "c", "d"):  # every direction away from the fit is worse, and it is flat there
        for delta in (-5.0, 5.0):
            moved = dict(ratings.elo, **{name: ratings.elo[name] + delta})
            assert log_likelihood(moved, games) < best
        up = dict(ratings.elo, **{name: ratings.elo[name] + 1e-3})
        down = dict(ratings.elo, **{name: ratings.elo[name] - 1e-3})
        slope = (log_likelihood(up, games) - log_likelihood(down, games)) / 2e-3
        assert abs(slope) < 1e-5


def test_known_strengths_are_recovered_within_the_error_bars():
    truth = {"random": 0.0, "easy": 250.0, "medium": 500.0, "hard": 800.0}
    games = synthetic(truth, per_pair=400, seed=2026, draw_share=0.1)
    ratings = fit_elo(games, anchor="random", prior_draws=0.5)
    for name, value in truth.items():
        assert abs(ratings.elo[name] - value) <= 3 * ratings.error[name] + 1e-9
    assert ratings.elo["random"] < ratings.elo["easy"] < ratings.elo["medium"] < ratings.elo["hard"]
    assert 5 < ratings.error["easy"] < 60  # bars shrink with games but are not zero


def test_the_anchor_sets_the_scale_and_only_differences_count():
    games = synthetic({"a": 0, "b": 300, "c": 100}, per_pair=40, seed=7, draw_share=0.3)
    zero = fit_elo(games, anchor="a")
    moved = fit_elo(games, anchor="a", anchor_elo=1000)
    other = fit_elo(games, anchor="c")
    for name in "abc":
        assert moved.elo[name] == pytest.approx(zero.elo[name] + 1000)
        assert other.elo[name] - other.elo["a"] == pytest.approx(zero.elo[name], abs=1e-6)
    assert moved.elo["a"] == 1000 and other.error["c"] == 0.0


def test_a_clean_sweep_stays_finite_with_the_prior_and_is_refused_without():
    games = [Game("strong", "weak", 1.0)] * 10
    ratings = fit_elo(games, anchor="weak")
    assert 300 < ratings.elo["strong"] < 1000
    more = fit_elo(games * 10, anchor="weak")
    assert more.elo["strong"] > ratings.elo["strong"]  # more evidence, a higher bound
    with pytest.raises(ValueError, match="prior_draws"):
        fit_elo(games, anchor="weak", prior_draws=0)


def test_players_who_never_meet_are_refused():
    games = [Game("a", "b", 1.0), Game("c", "d", 0.5)]
    with pytest.raises(ValueError, match="meet"):
        fit_elo(games, anchor="a")
    with pytest.raises(ValueError, match="anchor"):
        fit_elo(games, anchor="z")


# -- the levels' recorded strength, and the round robin that measures it --------------------------


def test_help_shows_the_recorded_ratings(capsys):
    from oxo.cli import main
    from oxo.engines.rating import level_ratings

    data = level_ratings()
    assert data["anchor"] == "random" and data["games"]  # the record ships with oxo
    for command in ("play", "selfplay"):
        assert main([command, "--help"]) == 0
        text = " ".join(capsys.readouterr().out.split())  # unwrapped
        assert "Elo" in text and "random = 0" in text
        for entry in data["games"]:
            assert f"{entry['game']}:" in text
            for level, value in entry["elo"].items():
                if level != "random":
                    assert f"{level} " in text and f"{round(value, -1):.0f}" in text


def test_the_help_says_why_the_top_levels_tie(capsys):
    """Where the recorded ratings cannot tell the strongest levels apart (3x3 and 4x4: their games
    against each other are drawn), the help says so and why (issue 45, item 6)."""
    from oxo.cli import main
    from oxo.engines.rating import level_ratings, top_tie
    from oxo.registry import find_game

    ties = {entry["game"]: top_tie(entry) for entry in level_ratings()["games"]}
    assert ties["3x3"] == ties["4x4"] == ("medium", "hard", "perfect")
    assert ties["connect4"] == ties["uttt"] == ties["mega"] == ()  # lower bounds: no tie
    assert top_tie({"elo": {"a": 0.0, "b": 100.0}, "error": {"a": 0.0, "b": 60.0}}) == ("b",)
    assert main(["play", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert (
        "On 3x3 and 4x4, medium, hard and perfect tie within the margin: best play there is a draw"
        in text
    )
    solved = find_game("3x3").exact_solver()(find_game("3x3").start(), 16)  # the claim, on 3x3
    assert solved is not None and solved.value(find_game("3x3").start()).outcome == "draw"


def test_a_tiny_round_robin_plays_every_pair_and_rates_it():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import bench_elo

    entry = bench_elo.round_robin("3x3", per_pair=2, seconds=0.01, seed=1)
    levels = entry["levels"]
    assert len(entry["games"]) == 2 * len(levels) * (len(levels) - 1) // 2
    assert {(g["x"], g["o"]) for g in entry["games"][:2]} == {
        (levels[0], levels[1]),
        (levels[1], levels[0]),
    }
    rated = bench_elo.rate(entry)
    assert rated["elo"]["random"] == 0 and set(rated["elo"]) == set(levels)
    assert sum(rated["played"].values()) == 2 * len(entry["games"])
    assert sum(rated["points"].values()) == len(entry["games"])


def test_a_run_of_some_games_replaces_only_their_entries(tmp_path, monkeypatch):
    """``bench_elo --games uttt --write`` keeps the other games of the recorded run as they were
    and marks the re-measured one with its own command, commit and machine."""
    import json
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import bench_elo

    played = bench_elo.round_robin("3x3", per_pair=2, seconds=0.01, seed=1)

    def run(names, command):
        entries = [{**played, "game": name} for name in names]  # one game's results, renamed
        return {
            "command": command,
            "commit": "c" * 40,
            "machine": "test machine",
            "started": "2026-01-01T00:00:00Z",
            "seconds": 0.01,
            "round_robins": entries,
            "ratings": [bench_elo.rate(entry) for entry in entries],
        }

    record = tmp_path / "elo.json"
    monkeypatch.setattr(bench_elo, "RECORD", record)
    assert bench_elo.merged(run(["3x3"], "first"))["command"] == "first"  # nothing recorded yet
    old = run(["3x3", "4x4"], "everything")
    record.write_text(json.dumps(old))
    new = run(["3x3"], "again")
    merged = bench_elo.merged(new)
    assert [entry["game"] for entry in merged["round_robins"]] == ["3x3", "4x4"]
    assert merged["command"] == "everything"
    assert merged["round_robins"][0]["provenance"]["command"] == "again"
    assert merged["round_robins"][0]["games"] == new["round_robins"][0]["games"]
    assert "provenance" not in merged["round_robins"][1]
    assert merged["round_robins"][1] == old["round_robins"][1]
    assert merged["ratings"][1] == old["ratings"][1]
    tables = bench_elo.docs_tables(merged)
    assert "Re-measured alone: `again`" in tables and "`everything`" in tables
    assert bench_elo.merged(run(["3x3", "4x4"], "all again"))["command"] == "all again"
