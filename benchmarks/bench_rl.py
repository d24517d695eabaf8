"""Benchmark of the learning environments (``oxo.rl``) and of the strategy map (``oxo.strategy_map``).

Run:  python benchmarks/bench_rl.py              (about a minute)
      python benchmarks/bench_rl.py --games 200  (more games per environment)

Environments: random legal games played through the PettingZoo loop (``agent_iter``, ``last``,
``step``), reported as steps per second, beside the same number of random games of the same game in
OpenSpiel (``pyspiel``: C++ states, no observation built), the ratio being OpenSpiel's rate over
oxo's; one row also builds the eight symmetric copies of every observation, and one renders every
position as an RGB array. Strategy map: building the 3x3 map of each side from nothing (solver
included) and drawing it as SVG. Each row runs in a fresh process; wall time excludes imports, peak
memory is the process's.
"""

from __future__ import annotations

import argparse

from _measure import measure

ENV_GAMES = (
    ("3x3", "tic_tac_toe"),
    ("6x7,k=4,gravity", "connect_four"),
    ("uttt", "ultimate_tic_tac_toe"),
    ("mega", None),
)

LOOP = """
rng = np.random.default_rng(0)
steps = 0
for _ in range({games}):
    env.reset()
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            {extra}
            steps += 1
        env.step(action)
result = steps
"""

SPIEL = """
rng = np.random.default_rng(0)
steps = 0
for _ in range({games}):
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
        steps += 1
result = steps
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="random games per environment")
    args = parser.parse_args()
    print(f"{'what':58} {'wall s':>8} {'steps/s':>10} {'peak MiB':>9} {'ratio':>7}")
    for name, spiel in ENV_GAMES:
        setup = f"import numpy as np, oxo.rl\nenv = oxo.rl.env({name!r})"
        rows = [("plain loop", "")]
        if name == "3x3":
            rows.append(("loop + 8 symmetric copies", "env.symmetries(observation, action)"))
        for label, extra in rows:
            mine = measure(
                LOOP.format(games=args.games, extra=extra or "pass"),
                setup=setup,
                label=f"oxo.rl {name}: {label}",
            )
            other = None
            if spiel is not None and not extra:
                other = measure(
                    SPIEL.format(games=args.games),
                    setup=f"import numpy as np, pyspiel\ngame = pyspiel.load_game({spiel!r})",
                    label=f"pyspiel {spiel}",
                )
            _row(mine, other)
            if other is not None:
                _row(other, None)
    games = max(1, args.games // 10)
    picture = measure(
        LOOP.format(games=games, extra="env.render()"),
        setup="import numpy as np, oxo.rl\nenv = oxo.rl.env('3x3', render_mode='rgb_array')",
        label="oxo.rl 3x3: loop + rgb_array picture of every position",
    )
    _row(picture, None)
    for side in ("x", "o"):
        built = measure(
            f"m = strategy_map('3x3', {side!r}); svg = strategy_svg(m); "
            "result = [m.positions, m.boards, len(svg)]",
            setup="from oxo.strategy_map import strategy_map\n"
            "from oxo.render.strategy import strategy_svg",
            label=f"strategy map 3x3 for {side.upper()} (solve, choose, draw)",
        )
        positions, boards, size = built["result"]  # type: ignore[misc]  # list of three ints
        print(
            f"{built['label']:58} {built['seconds']:8.2f} {'':>10} {built['peak_mib']:9.0f}"
            f"   {positions} positions, {boards} boards, {size / 1024:.0f} KiB of SVG"
        )


def _row(report: dict[str, object], other: dict[str, object] | None) -> None:
    seconds = float(report["seconds"])  # type: ignore[arg-type]  # measure() reports a float
    steps = int(report["result"])  # type: ignore[call-overload]  # the loop's step count
    rate = steps / seconds
    ratio = ""
    if other is not None:
        other_rate = int(other["result"]) / float(other["seconds"])  # type: ignore[call-overload, arg-type]  # as above
        ratio = f"{other_rate / rate:7.1f}x"
    print(f"{report['label']:58} {seconds:8.2f} {rate:10.0f} {report['peak_mib']:9.0f} {ratio:>8}")


if __name__ == "__main__":
    main()
