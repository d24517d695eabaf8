"""Perfect play from oxo's proofs: each certificate's index (build time, peak memory, size), a move
from it (time), and games of perfect against the other levels on the proved boards.

Run:  python benchmarks/bench_book.py                  (everything: about two hours with Qubic)
      python benchmarks/bench_book.py --only 10x4 --only 8x8,k=5 --games 4
      python benchmarks/bench_book.py --skip-index     (games only, with the indexes in the cache)
      python benchmarks/bench_book.py --only 10x4 --only 8x8,k=5 --side x   (X's certificates only)

Indexes: for each certificate of the chosen rows (the book's names: ``10x4``, ``8x8,k=5``,
``4x4x4``), in a fresh process, into the cache folder ``--cache`` (default: oxo's own, so that
the games after use them; an index built already is built again only with ``--rebuild``):
wall and processor time, peak memory, and the index's size on disk. Qubic's certificate is first
merged again from its kept run (timed apart). Then a move from each index in a fresh process:
the first move of a process (which compares the certificate's SHA-256 and opens the index) and
the mean of the next moves of a game.

Openings (``--opening 4x4x4x4:0-3``, repeated; nothing else is run then): the index of the
certificate of a position a run of a board no one has proved has settled (the book's openings),
built in a fresh process like the others, then ``--games`` games from the position, its side at
perfect against the other at hard and at random, with the time of each move from the index.

Games: Qubic, X perfect against O hard and against O random; 10x4 with k = 4, X perfect against
O hard; 8x8 with k = 5, perfect against hard as X and as O (``--games`` each, hard thinking
``--hard-time`` seconds per move). A side playing perfect must never lose, and win where its
certificate proves a win: the run says so and exits 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import machine, measure  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
#: (board, the level of X, the level of O) of the games.
GAMES = (
    ("4x4x4", "perfect", "hard"),
    ("4x4x4", "perfect", "random"),
    ("10x4", "perfect", "hard"),
    ("8x8,k=5", "perfect", "hard"),
    ("8x8,k=5", "hard", "perfect"),
)


def build(board: str, side: str, env: dict[str, str], rebuild: bool) -> dict:
    """Build one certificate's index in a fresh process (the certificate first, when rebuilt)."""
    setup = f"""
        import shutil, time
        from oxo.book import book_entry, find_certificate, rebuild_certificate
        from oxo.book.index import build_index, index_folder, load_index
        entry = book_entry({board!r})
        certificate = entry.certificate_of({side!r})
        if {rebuild!r} and load_index(certificate) is not None:
            shutil.rmtree(index_folder(certificate))
        merged = None
        if find_certificate(certificate) is None and certificate.run is not None:
            began = time.perf_counter()
            rebuild_certificate(certificate)
            merged = time.perf_counter() - began
    """
    code = """
        import resource
        before = resource.getrusage(resource.RUSAGE_SELF)
        fresh = load_index(certificate) is None
        index = build_index(certificate)
        after = resource.getrusage(resource.RUSAGE_SELF)
        result = {
            "built_now": fresh,
            "cpu_seconds": round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 1),
            "merge_seconds": None if merged is None else round(merged, 1),
            "moves": len(index),
            "pairings": int(index.meta["pairings"]),
            "positions": int(index.meta["positions_checked"]),
            "bytes": int(index.meta["bytes"]),
            "certificate_bytes": certificate.bytes,
            "file": certificate.file,
        }
    """
    report = measure(code, setup=setup, label=f"index {board} {side}", env=env)
    return _index_row(report, board=board, side=side)


def _index_row(report: dict, **keys: object) -> dict:
    """An index build's row: ``keys``, what the child reported, its wall time and peak memory."""
    return {
        **keys,
        **report["result"],
        "seconds": round(report["seconds"], 1),
        "peak_mib": round(report["peak_mib"], 1),
    }


def moves(board: str, side: str, env: dict[str, str]) -> dict:
    """The time of the first move from the index in a fresh process, and of the moves after it
    along a game against random replies."""
    setup = f"""
        import random, time
        from oxo.registry import find_game
        game = find_game({board!r})
    """
    code = f"""
        rng = random.Random(1)
        engine = game.make_engine("perfect", game.start(), seed=1)
        state = game.start()
        if {side!r} == "o":
            state = state.play(rng.choice(state.legal_moves))
        times = []
        notes = []
        while not state.is_over and len(times) < 12:
            began = time.perf_counter()
            move = engine.choose(state)
            times.append(time.perf_counter() - began)
            notes.append(engine.last.engine)
            state = state.play(move)
            if not state.is_over:
                state = state.play(rng.choice(state.legal_moves))
        result = {{"first": times[0], "rest": times[1:], "engines": notes}}
    """
    report = measure(code, setup=setup, label=f"moves {board} {side}", env=env)
    result = report["result"]
    assert isinstance(result, dict)
    rest = result["rest"] or [0.0]
    from_book = sum("proof book" in note for note in result["engines"])
    return {
        "board": board,
        "side": side,
        "first_move_seconds": round(result["first"], 3),
        "next_moves_mean_seconds": round(sum(rest) / len(rest), 4),
        "next_moves_max_seconds": round(max(rest), 4),
        "moves": len(result["engines"]),
        "from_the_book": from_book,
    }


def opening(
    board: str, moves: str, env: dict[str, str], rebuild: bool, count: int, hard_time: float
) -> dict:
    """An opening's index (build time, memory, size) and games from its position (``moves``:
    ``0-3``, X's cell then O's), its side perfect against hard and random; each in a fresh process."""
    setup = f"""
        import shutil, time
        from oxo.book import open_board
        from oxo.book.index import index_folder, load_index
        from oxo.book.play import prepare_opening
        board = open_board({board!r})
        wanted = tuple(int(cell) for cell in {moves!r}.split("-"))
        chosen = next(o for o in board.openings if o.moves == wanted)
    """
    rebuilding = f"""
        if {rebuild!r} and load_index(chosen.certificate) is not None:
            shutil.rmtree(index_folder(chosen.certificate))
    """
    code = """
        import resource
        before = resource.getrusage(resource.RUSAGE_SELF)
        fresh = load_index(chosen.certificate) is None
        index = prepare_opening(board, chosen).index
        after = resource.getrusage(resource.RUSAGE_SELF)
        result = {
            "built_now": fresh,
            "cpu_seconds": round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 1),
            "moves": len(index),
            "words": index.words,
            "positions": int(index.meta["positions_checked"]),
            "bytes": int(index.meta["bytes"]),
            "certificate_bytes": chosen.certificate.bytes,
            "file": chosen.certificate.file,
            "side": chosen.side,
            "guarantee": chosen.guarantee,
        }
    """
    built = measure(code, setup=setup + rebuilding, label=f"index {board} {moves}", env=env)
    # the games' process finds the index just built (it never removes it)
    play_setup = (
        setup
        + f"""
        import random
        from oxo.engines import RandomEngine
        from oxo.engines.selfplay import play_game
        from oxo.position import Position
        from oxo.proofs.certificate import status_masks
        from oxo.registry import find_game
        game = find_game({board!r})
        x, o = status_masks(chosen.position)
        start = Position(game.start().geometry, x, o)
    """
    )
    play_code = f"""
        rows = []
        for number in range({count} * 2):
            ours = game.make_engine("perfect", start, seed=number)
            theirs = (
                game.make_engine("hard", start, seconds={hard_time}, seed=number)
                if number % 2 else RandomEngine(number)
            )
            times, off = [], []

            class Timed:
                last = None
                def choose(self, state):
                    began = time.perf_counter()
                    move = ours.choose(state)
                    times.append(time.perf_counter() - began)
                    off.append(ours.note is not None)
                    self.last = ours.last
                    return move

            engines = (Timed(), theirs) if chosen.side == "x" else (theirs, Timed())
            final, _ = play_game(start, *engines)
            rows.append({{
                "against": "hard" if number % 2 else "random",
                "winner": final.outcome,
                "moves": len(times),
                "from_the_book": not any(off),
                "mean_move_seconds": sum(times) / max(len(times), 1),
                "max_move_seconds": max(times, default=0.0),
            }})
        result = rows
    """
    played = measure(play_code, setup=play_setup, label=f"games {board} {moves}", env=env)
    return {**_index_row(built, board=board, opening=moves), "games": played["result"]}


def games(board: str, x: str, o: str, count: int, hard_time: float, env: dict[str, str]) -> dict:
    setup = f"""
        from oxo.engines.selfplay import selfplay
        from oxo.registry import find_game
        game = find_game({board!r})
    """
    code = f"""
        stats = selfplay(game.start(), {x!r}, {o!r}, {count}, seed=7, seconds={hard_time},
                         make=game.make_engine)
        result = stats.to_dict()
    """
    report = measure(code, setup=setup, label=f"games {board} {x} {o}", env=env)
    result = report["result"]
    assert isinstance(result, dict)
    return {
        "board": board,
        "x": x,
        "o": o,
        "games": result["games"],
        "x_wins": result["x_wins"],
        "o_wins": result["o_wins"],
        "draws": result["draws"],
        "mean_moves": result["mean_moves"],
        "seconds": round(report["seconds"], 1),
        "peak_mib": round(report["peak_mib"], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", default=[], help="a board as the book names it")
    parser.add_argument("--games", type=int, default=5, help="games per pairing of levels")
    parser.add_argument("--hard-time", type=float, default=0.5, help="seconds per move of hard")
    parser.add_argument("--cache", default=None, help="oxo's cache folder (default: oxo's own)")
    parser.add_argument("--rebuild", action="store_true", help="build indexes built already again")
    parser.add_argument("--skip-index", action="store_true", help="no index builds: games only")
    parser.add_argument("--skip-games", action="store_true", help="indexes and moves only")
    parser.add_argument(
        "--side", choices=("x", "o"), default=None, help="only this side's certificates and games"
    )
    parser.add_argument(
        "--opening",
        action="append",
        default=[],
        help="BOARD:MOVES, a settled opening of a board being proved (4x4x4x4:0-3)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    env = {} if args.cache is None else {"OXO_CACHE": str(Path(args.cache).resolve())}
    if args.opening:
        openings(args, env)
        return
    boards = args.only or sorted({board for board, _, _ in GAMES})
    out: dict[str, object] = {"machine": machine(), "indexes": [], "moves": [], "games": []}
    print(f"machine: {out['machine']}", flush=True)
    sides = {"4x4x4": ("x",), "10x4": ("x",), "8x8,k=5": ("x", "o")}
    for board in boards:
        for side in sides.get(board, ("x", "o")):
            if args.side is not None and side != args.side:
                continue
            if not args.skip_index:
                row = build(board, side, env, args.rebuild)
                out["indexes"].append(row)  # type: ignore[attr-defined]
                print(
                    f"index {board} {side.upper()}: {row['file']} ({row['certificate_bytes']:,} bytes): "
                    f"{'built' if row['built_now'] else 'there already'} in {row['seconds']} s wall, "
                    f"{row['cpu_seconds']} s CPU, peak {row['peak_mib']} MiB; {row['moves']:,} moves, "
                    f"{row['pairings']:,} pairings, {row['positions']:,} positions checked, "
                    f"{row['bytes']:,} bytes"
                    + (
                        f"; certificate merged in {row['merge_seconds']} s"
                        if row["merge_seconds"]
                        else ""
                    ),
                    flush=True,
                )
            timing = moves(board, side, env)
            out["moves"].append(timing)  # type: ignore[attr-defined]
            print(
                f"moves {board} {side.upper()}: first {timing['first_move_seconds']} s (opens the "
                f"index, compares the SHA-256), next mean {timing['next_moves_mean_seconds']} s, "
                f"max {timing['next_moves_max_seconds']} s; {timing['from_the_book']} of "
                f"{timing['moves']} from the book",
                flush=True,
            )
    failed = []
    if not args.skip_games:
        for board, x, o in GAMES:
            if board not in boards:
                continue
            if args.side is not None and {"x": x, "o": o}[args.side] != "perfect":
                continue
            row = games(board, x, o, args.games, args.hard_time, env)
            out["games"].append(row)  # type: ignore[attr-defined]
            perfect = "x" if x == "perfect" else "o"
            lost = row["o_wins" if perfect == "x" else "x_wins"]
            proved_win = board in ("4x4x4", "10x4") and perfect == "x"
            bad = lost or (proved_win and row["x_wins"] != row["games"])
            failed += [f"{board} {x}-{o}"] if bad else []
            print(
                f"games {board} X {x} against O {o}: {row['games']} games, X won {row['x_wins']}, "
                f"O won {row['o_wins']}, drawn {row['draws']}; {row['mean_moves']} moves a game; "
                f"{row['seconds']} s"
                + ("  <- perfect lost or missed its proved win" if bad else ""),
                flush=True,
            )
    if args.json:
        print(json.dumps(out, indent=1))
    raise SystemExit(1 if failed else 0)


def openings(args: argparse.Namespace, env: dict[str, str]) -> None:
    """``--opening``: each opening's index and games; exit 1 if its side lost or missed its win,
    or a move of its side came from elsewhere than the certificate."""
    out: dict[str, object] = {"machine": machine(), "openings": []}
    print(f"machine: {out['machine']}", flush=True)
    failed = False
    for text in args.opening:
        board, _, moves = text.partition(":")
        row = opening(board, moves, env, args.rebuild, args.games, args.hard_time)
        out["openings"].append(row)  # type: ignore[attr-defined]
        print(
            f"index {board} after {moves}: {row['file']} ({row['certificate_bytes']:,} bytes): "
            f"{'built' if row['built_now'] else 'there already'} in {row['seconds']} s wall, "
            f"{row['cpu_seconds']} s CPU, peak {row['peak_mib']} MiB; {row['moves']:,} moves "
            f"({row['words']} words a mask), {row['positions']:,} positions checked, "
            f"{row['bytes']:,} bytes",
            flush=True,
        )
        for game in row["games"]:
            wanted = (row["side"],) if row["guarantee"] == "win" else (row["side"], "draw")
            bad = not game["from_the_book"] or game["winner"] not in wanted
            failed |= bad
            print(
                f"  against {game['against']}: won by {game['winner']}, {game['moves']} moves "
                f"from the book, mean {game['mean_move_seconds']:.3f} s, max "
                f"{game['max_move_seconds']:.3f} s" + ("  <- not as proved" if bad else ""),
                flush=True,
            )
    if args.json:
        print(json.dumps(out, indent=1))
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
