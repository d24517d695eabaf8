"""Proof runs that last hours: split into jobs, spread over workers, resumed after any stop.

A run answers the questions of :func:`oxo.proofs.solver.prove_board` (can X force a line? if not,
can O?) and writes the same certificates, but keeps everything it learns in a folder, so that it
can be stopped at any moment (Ctrl-C, the end of ``--time``, a kill) and continued by running the
same command again.

**The split.** Each question is an AND/OR tree over positions, starting from the empty board. At a
position where the attacker (the side asking "can I force a line?") is to move, one move that
wins is enough (an OR node); where the defender is to move, every reply must lose (an AND node).
The top of the tree is kept by the run, one node per class of positions under the board's
symmetries (so a position reached by several orders of moves, or in several orientations, is one
node). Its leaves are *jobs*: a job runs the proof search on its position for a *slice* (a time and
a number of positions); a job that settles its position sends back the strategy's certificate
entries (a fragment, :mod:`oxo.proofs.merge`); a job that does not is *split*: its position's
children become leaves of their own (those the search settled on the way come back settled, with
their fragments), so a job loses at most one slice of work. The value of a node follows from its
children's as in any AND/OR tree, and the run stops as soon as the root's is known (one X move
proven to win settles an OR node: the jobs still running under its siblings are cancelled).

**Which job next.** As in proof-number search: every open leaf counts as one position to settle,
an OR node needs its cheapest child (the fewest leaves to prove it) and all of its children to be
disproved, an AND node the other way round; the next job is the leaf reached by always following
the child that most cheaply settles the root, skipping leaves already running.

**Where.** The first slice of the root runs in this process (small boards settle there, with no
worker started); then the tree is split to a few plies and the jobs go to local worker processes
(one per core by default) or to a Dask cluster (:mod:`oxo.proofs.workers`). Only results travel
back: workers need not share the folder.

**The folder.** ``DIR/run/state.json`` holds the tree (every node, its position, its children and
value, what was spent on it), written atomically every few seconds and at every stop;
``DIR/run/fragments-x.pack`` (and ``-o``; a long run adds ``fragments-x.1.pack`` and so on, about
32 MB each) holds the fragments of the settled jobs, appended as soon
as each result arrives and made durable before each write of the state (a run that finds
fragments its state does not know yet takes them up again). So a kill loses the slices that were
running and at most the last few seconds of splits. When the root's value is known, the
certificates are merged from the fragments into ``DIR`` (sectioned ``oxo-strategy/1`` files,
streamed, :mod:`oxo.proofs.merge`) and checked by the independent checker, a section at a time.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from oxo.errors import OptionError, OxoError
from oxo.fileio import digests, write_atomic
from oxo.game import other
from oxo.geometry import Geometry, mask_cells, play
from oxo.phrases import counted, duration
from oxo.proofs.certificate import (
    CHECK_RATE,
    Guarantee,
    MoveEntry,
    Side,
    status_masks,
    status_string,
    verify_certificate,
)
from oxo.proofs.merge import FragmentPack, Section, decode_fragment, merge_certificate
from oxo.proofs.results import (
    ProofResult,
    SearchSummary,
    Value,
    Waiting,
    certificate_name,
    goes_wide,
    sessions_span,
)
from oxo.proofs.search import QUICK_SECONDS, certificate_rules
from oxo.proofs.strategy import StrategyReader
from oxo.proofs.workers import (
    EARLY_SPLIT,
    Job,
    JobExecutor,
    JobResult,
    classes_of,
    make_executor,
    plain_slice,
    run_job,
)

RUN_FORMAT = "oxo-proof-run/1"
#: The largest table a job of the compiled search of boards up to 64 cells gets, in bytes.
MAX_TABLE_BYTES = 1 << 30
#: The largest table a job of the search over line counts gets (boards past 64 cells, gravity),
#: in bytes: within its share of --memory, the bigger the better for a long job. That search
#: stores some 160 positions for each one it searches (the first numbers of every move and the
#: replies its threats settle), so a job of a few million positions outgrows any table, and a
#: table short of what a search stores costs it dearly: a 4x4x4x4 position four plies in settles
#: in 259,529 positions with 2 GiB, 407,486 with 1 GiB and 1,295,072 with 256 MiB
#: (docs/performance.md).
MAX_WIDE_TABLE_BYTES = 1 << 36
#: The most bytes of --memory a proof run sets aside for its own process (the tree of positions
#: and the certificates' fragments it reads: 120 MB on 4x4x4x4 after 40 sessions); its workers
#: share the rest. With a share like a worker's, a third of `--memory 20G` went unused on two
#: workers, and their tables got 2^27 slots where 2^28 fit.
RUN_PROCESS_BYTES = 1 << 30
#: Positions a second and table bytes per position of the search over line counts, generous: its
#: table is sized for what the slice can search (at least 16 MiB), like the other's.
WIDE_NODES_PER_SECOND = 20_000
WIDE_TABLE_BYTES_PER_NODE = 4_000
#: The most bytes of kept tables of split positions (those that seed their children's first jobs,
#: ProofRun._tidy_tables) a run's folder holds: past it the oldest go first. A leaf's own table,
#: which its next, longer job goes on from, is never dropped for it. On 4x4x4x4 the positions three
#: moves in were split after a minute or two each, and each kept a table of some 250 MB for its 80
#: or so children: 10 GB an hour of 2 workers.
SEED_TABLE_BYTES = 8 << 30
#: The free space a run leaves on its folder's disk: below it, kept tables go too, leaves' among
#: them, the least recently written first (a leaf's next job then starts afresh). A full disk would
#: stop the run at a table's write; the kept tables of 4x4x4x4's leaves grew by some 7 GB a
#: session (45 of them held 21 GB after 29 sessions).
FREE_DISK_BYTES = 16 << 30
#: ... while the kept tables hold at least this much in all: below it, deleting them would free
#: nothing that matters (a small board's run, or a machine short of disk for other reasons).
GUARD_FROM_BYTES = 1 << 30
#: The most bytes of table the whole search of the root gets (RunOptions.root_search).
MAX_ROOT_TABLE_BYTES = 1 << 32
#: Positions per second the compiled search reaches at most (about 190,000 per CPU second measured
#: on 5x5 and 7x4 with k=4; a generous bound), and table bytes per position: a job's table is sized
#: for what its slice can search, since a big table costs time to set up even for a small job.
NODES_PER_SECOND = 500_000
TABLE_BYTES_PER_NODE = 32
#: Seconds a job's slice must have at least to be worth starting before the end of --time.
MIN_SLICE = 0.5
#: Seconds to wait, past the end of --time, for the results of the slices still running.
GRACE = 10.0
#: Seconds to wait, past the end of --time, for the jobs that keep their table (the whole search
#: of the root, :meth:`ProofRun.table_file`, and a leaf's, :meth:`ProofRun.job_table`) to write
#: it (up to 1 GiB).
TABLE_GRACE = 120.0
#: Seconds between progress lines while nothing comes in (a long slice): the time left still
#: counts down, and a log written by a run in the background stays current.
REPORT_EVERY = 30.0
#: Progress samples kept in the state (for the rate shown by the status).
SAMPLES = 400
#: A depth of the tree is barren (Tree.barren: its jobs where the attacker is to move are split
#: early too) once this many of its leaves were searched and fewer than one in BARREN_SHARE settled.
#: The 8x8 (k = 5) run searched 100 leaves two moves in (X to move) for 120 s each, and not one
#: settled or disproved any of X's moves; on Qubic 86 % of the leaves four moves in settled.
BARREN_SEARCHED = 20
BARREN_SHARE = 20
#: Longer slices have not paid at a depth (Tree.doubling_fruitless: its leaves are split after one
#: slice, not run again with twice it) once this many of its leaves ran all their doublings and
#: neither settled nor had any of their moves settled by them, and no leaf of the depth that ran
#: more than once settled. On 4x4x4x4 four positions two moves in ran five jobs each (13 to 40
#: million positions) and settled none of their 53 to 158 moves: each of the other 17 would have
#: taken some 2.6 hours of a worker the same way.
FRUITLESS_DOUBLED = 3
#: A leaf whose job settled nothing waits for its siblings' first jobs (Tree.waiting) at a depth
#: where first jobs mostly pay: at least BARREN_SEARCHED leaves searched there and at least one in
#: SIBLINGS_FIRST settled. On 4x4x4x4, four moves in, 549 of some 560 did (most in seconds, with
#: the move that won a sibling tried first), while two leaves with no proven sibling, so no such
#: move to try, held both workers for 300, 600 and 1,200 s each without settling (one settled in
#: its fourth job, of 2,400 s).
SIBLINGS_FIRST = 2
#: The attacker's split move the run follows is followed alone (Tree._followed) until this many
#: jobs ran below it, and after that while one in this many settled a position below it.
PATIENCE = 20
#: A split move of the attacker *lags* once LAG_TRIED of the defender's replies to it were tried
#: and fewer than half of those settled (Tree._lagging; a reply is tried once it is settled, or a
#: job ran on it and it is still a leaf: a reply split into more is still under way). The run then
#: follows another split move that does not lag, or else the unsplit ones among the attacker's
#: first RIVALS open moves in the search's order, until each is split or settled. On 4x4x4x4,
#: below X on 0, O on 7, X on 103 and O on 3, the run followed X on 11 (split after a job that
#: tried it first as the move that had won the siblings, which proved none of O's replies in a
#: quarter of its slice) through some 250 jobs, in which 57 of O's 251 replies settled; one search
#: of 1.5 million positions of each answer there settled none of O's replies to X on 11, 218 of
#: those to X on 15 and 201 of those to X on 51, the search's first two moves; with this rule the
#: run proved X on 15 wins there in four jobs (12.2 million positions), 35 minutes after it set X
#: on 11 aside (docs/boxes.md). Ten replies tell a move whose replies mostly settle in their first
#: job (below X on 103, 248 of 253) from one where three in four do not (X on 11).
LAG_TRIED = 10
#: How many of the attacker's first moves in the search's order are searched until split or
#: settled once one of its moves is split with more than half the defender's replies to it open,
#: before the run follows one split move alone (Tree._followed), and that a lagging move gives
#: way to. The run follows the split move with the fewest replies open: below X on 0, O on 7, X
#: on 103 and O on 87 on 4x4x4x4 it had split X on 247 (and X on 11), of whose replies one search
#: of 1.5 million positions settles 4 of 251, where it settles 184 after X on 3 and 207 after X
#: on 15, the search's first two moves (docs/boxes.md).
RIVALS = 2
#: Processor seconds the plain search looks at a question's root alone before a worker starts the
#: compiled search beside it (RunOptions' first slice, :meth:`ProofRun._probe`): the boards it
#: settles in that time (4x5 with k = 4 in about 0.07 s) start no process. Processor time, not
#: wall time, so that a loaded machine, where a tenth of a second of wall time buys a few dozen
#: positions, does not start a process for a board the plain search settles alone.
FIRST_LOOK = 0.15
#: Seconds of each piece of the plain search after that, between two looks for the worker's answer.
PLAIN_PIECE = 0.02
#: Boards of at least this many cells whose root the first piece of the first look (PLAIN_PIECE)
#: has not settled start the worker then, not after the first look: it loads the compiled search
#: (about a second) while the first look goes on, and is stopped if the first look settles the
#: root after all. The plain search reaches 250-800 positions in FIRST_LOOK on such boards; of
#: the questions of boards of 40 to 64 cells tried (docs/performance.md), none that the first piece
#: left open did the first look settle but O's on a few boards with k = 5 (in 0.03-0.06 s), which a
#: run asks second, when the worker is loaded already. Smaller boards, which the first look settles
#: in up to 0.15 s (4x5 with k = 4, 6x6 with k = 5), start no process when it does.
EARLY_WORKER_CELLS = 40

#: How many times a job that settled nothing in its slice runs again with twice the slice before
#: it is split (RunOptions.slice_doublings): a minute grows to 16 at most.
SLICE_DOUBLINGS = 4

Question = Literal["x", "o"]


@dataclass(frozen=True)
class RunOptions:
    """How a run spends its time and where its jobs go.

    ``workers`` local worker processes (default: one per core; 1 runs the jobs in this process), or
    the Dask cluster at ``scheduler`` (``tcp://host:8786``, or ``"local"`` for a cluster of
    ``workers`` processes started here). A job searches for at most ``slice_seconds`` and
    ``slice_nodes`` positions (None: no limit); the first slice of each question's root runs here
    for at most ``probe_seconds`` (0: none); then the tree is split to ``split_plies`` plies.
    ``memory`` bounds this process and its local workers (default: half the available memory, at
    most 8 GiB): each job's positions are bounded to its share. The state is written at most every
    ``save_every`` seconds (and at every stop). With ``root_search`` and two workers or more, one
    worker searches the whole root, unsplit, beside the split jobs, for the longest slice a job
    may grow to (:meth:`ProofRun.root_seconds`): one search keeps everything it learns in one
    table, where split jobs start afresh, so a board
    that one long search settles (10x4 with k = 4) is not lost to the split. When the end of
    ``--time`` stops it, its table is kept in the folder and the next session's whole search goes
    on from it (:meth:`ProofRun.table_file`; local workers only); a kill or Ctrl-C loses what it
    learnt since the last session, where the split jobs' work is kept as it comes.
    A job where the defender is to move that has proved none of the defender's moves after the
    ``early_split`` part of its slice is split then (0: never early; :attr:`Job.early`); so is a job
    where the attacker is to move that has disproved none of the attacker's moves by then, at a
    depth whose searches almost never settle (:meth:`Tree.barren`). A job that used its whole
    slice without settling its position is not split but run again with twice the slice (the
    positions and the seconds), up to ``slice_doublings`` times (then it is split), except at a
    depth where that has not paid (:meth:`Tree.doubling_fruitless`: then it is split): its children
    would be as far out of reach as it is, each in a search of its own, where a longer search of
    the position keeps all it learns in one table, which the next job takes up where the last one
    left it (local workers: :meth:`ProofRun.job_table`; a cluster's jobs keep no table, and one
    that settled half of its children or more is split; 0: split at once, as before 2026-11-28).
    ``first_question`` is the attacker of the question settled first ("x": can X force a line?);
    a draw needs both answered, and the first one answered "no" gives the other side's no-loss
    certificate at once."""

    workers: int | None = None
    scheduler: str | None = None
    slice_seconds: float | None = 60.0
    slice_nodes: int | None = None
    probe_seconds: float = 10.0
    split_plies: int = 2
    memory: int | None = None
    save_every: float = 5.0
    root_search: bool = True
    early_split: float = EARLY_SPLIT
    first_question: Question = "x"
    slice_doublings: int = SLICE_DOUBLINGS

    def worker_count(self) -> int:
        return self.workers or os.cpu_count() or 1

    @classmethod
    def one_search(cls) -> RunOptions:
        """A run made of one job, here: the root searched until it is settled or the time is up,
        as a proof without a folder is (the certificates are the same; the folder is kept)."""
        return cls(workers=1, slice_seconds=None, probe_seconds=float("inf"), split_plies=0)


# -- the tree --------------------------------------------------------------------------------------


@dataclass
class Node:
    """A class of positions in the top of a question's tree (under the symmetries the search uses,
    :class:`oxo.proofs.symmetry.Classes`), in the orientation first met.

    ``children`` (move in this orientation, child's class) once split; ``value`` 1 / -1 when a job
    settled the position itself (an internal node's value follows from its children); ``root`` the
    position of the fragment holding its strategy (a status string; None without entries),
    ``offset`` where the fragment is in the question's pack, and for an open leaf the proof and
    disproof numbers the search of its parent's job left for it (when it never looked, those the
    search starts such a position from: :meth:`oxo.proofs.dfpn.ProofSearch.start_numbers`)."""

    x: int
    o: int
    children: list[tuple[int, int]] | None = None
    value: int = 0
    root: str | None = None
    entries: int = 0
    offset: int = -1
    nodes: int = 0
    jobs: int = 0
    pn: int = 1
    dn: int = 1
    #: The moves its jobs tried first (the moves that won its siblings, :meth:`Tree.hints`).
    tried: tuple[int, ...] = ()


INF = 1 << 60

#: Proof (or disproof) numbers at most NEAR[0] / NEAR[1] times the least among a node's children
#: count as equal when the run picks its next job (:meth:`Tree.select`).
NEAR = (5, 4)
#: How many of a node's open children, the first in its search's move order, take turns at the
#: slices that double (:meth:`Tree.continuing`). One child may settle its parent alone (a reply of
#: the defender that the attacker cannot beat, a move of the attacker that wins), and which one
#: does is not known in advance: on 8x8 with k = 5, with X's first move answered by O, the reply
#: that settled it was O's first in the move order twice, its second six times and its third and
#: fourth once each in the run with the defaults; in the run whose slices were picked by hand, its
#: first, second or fourth.
ABREAST = 2

#: How many of the moves that won a leaf's siblings a job of the leaf tries first (Tree.hints).
HINTS = 1

#: Open replies to the first move worked on up to which the status says what each waits on
#: (:meth:`Tree.waits`): when more are open, each is mostly a job of its own not run yet.
WAITS_SAID = 8


class Tree:
    """The top of the AND/OR tree of one question ("can ``attacker`` force a line?")."""

    def __init__(self, geometry: Geometry, attacker: Question, folder: Path) -> None:
        self.geometry = geometry
        self.attacker: Question = attacker
        self.pack = FragmentPack(folder / f"fragments-{attacker}.pack")
        self.classes = classes_of(geometry)
        self.root = self.classes.key(0, 0)
        self.nodes: dict[int, Node] = {self.root: Node(0, 0)}
        # Fragments found in the pack for classes not in the tree yet: class -> (value, root,
        # entries, offset).
        self.known: dict[int, tuple[int, str, int, int]] = {}
        self.searched = 0
        self.cpu = 0.0
        self.wall = 0.0
        self.jobs = 0
        self.searches = 0  # the jobs that searched (splits alone do not)
        self.statistics: dict[str, int] = {}
        # Processor seconds the whole search of the root has had, over all sessions (None: a
        # state written before they were counted; :meth:`ProofRun.root_left`).
        self.root_cpu: float | None = 0.0
        # The winning moves read so far (Tree.winning_move), by node.
        self._won: dict[int, int | None] = {}

    # -- values ------------------------------------------------------------------------------------

    def attacker_to_move(self, node: Node) -> bool:
        return (node.x.bit_count() == node.o.bit_count()) == (self.attacker == "x")

    def values(self) -> dict[int, int]:
        """The value of every node for the attacker: 1 proven, -1 disproven, 0 open."""
        memo: dict[int, int] = {}

        def value(key: int) -> int:
            known = memo.get(key)
            if known is not None:
                return known
            node = self.nodes[key]
            if node.value or node.children is None:
                result = node.value
            else:
                found = [value(child) for _, child in node.children]
                if self.attacker_to_move(node):
                    result = 1 if 1 in found else -1 if all(v == -1 for v in found) else 0
                else:
                    result = -1 if -1 in found else 1 if all(v == 1 for v in found) else 0
            memo[key] = result
            return result

        value(self.root)
        return memo

    def select(self, busy: set[int], count: int, values: dict[int, int]) -> list[int]:
        """Up to ``count`` open leaves to run next, none of them in ``busy``: each the leaf that most
        cheaply settles the root, as proof-number search picks it (an open leaf counts as the proof
        and disproof numbers its parent's search left for it, or would have started it from).

        Numbers within :data:`NEAR` of the least count as equal, and of equals the first child in
        the search's own move order is taken: a search spreads its work evenly over the moves it
        has not settled, so after a long slice their numbers differ by chance (on 8x8 with k=5 the
        disproof numbers of O's 63 replies to one first move of X ran from 24,180 to 30,244), and
        the move order, which puts first the cells on most open lines, says more.

        Before any of that, a leaf whose jobs settled nothing (kept a leaf for a longer slice,
        :meth:`apply`) runs again at once, the one with most jobs first: its search is taken up
        again with twice the slice until it settles or is split, rather than every other leaf
        getting a first short slice before it; the first two open children of a node take turns
        at it (:meth:`continuing`). Left to the numbers, a run whose slices are too
        short for its positions spreads them over ever more leaves and settles none (the 8x8
        run with k = 5 and the defaults: 261 jobs of a minute in 2.6 hours, none a second one)."""
        waiting = self.waiting(busy, values)
        picks = self.continuing(busy, values, waiting)[:count]
        for _ in range(count - len(picks)):
            numbers = self._numbers(values, busy | set(picks) | waiting)
            if not numbers[self.root][2]:  # only waiting leaves left: they run after all
                numbers = self._numbers(values, busy | set(picks))
            key = self.root
            if values[key] or not numbers[key][2]:
                break
            while True:
                node = self.nodes[key]
                if node.children is None:
                    picks.append(key)
                    break
                index = 0 if self.attacker_to_move(node) else 1
                open_ = [c for _, c in node.children if not values[c] and numbers[c][2]]
                if not open_:  # cannot happen: a node holds a leaf to run when a child does
                    return picks
                if index == 0:  # the attacker's moves that were split, one at a time
                    followed = self._followed(node, values)
                    open_ = [c for c in open_ if c in followed] or open_
                least = min(numbers[c][index] for c in open_)
                key = next(c for c in open_ if numbers[c][index] * NEAR[1] <= least * NEAR[0])
        return picks

    def parents_of(self, key: int) -> list[int]:
        """The nodes that have ``key`` among their children (more than one where moves in
        another order reach the same class)."""
        return [
            parent
            for parent, node in self.nodes.items()
            if node.children is not None and any(child == key for _, child in node.children)
        ]

    def hints(self, key: int, values: dict[int, int], count: int = HINTS) -> tuple[int, ...]:
        """The attacker's moves worth trying first at the leaf ``key``, where the attacker is to
        move (cells in the leaf's orientation; ``Job.hints``): the moves that won its proven
        siblings (the other replies of the defender to the same position), the commonest first,
        at most ``count``, only to empty cells. Siblings differ by one mark of the defender, and a
        move that wins one of them often wins the others: of ten positions four moves in that the
        4x4x4x4 run settled, the hint won seven, and a dear one in 225,709 positions where its
        search without the hint took 1,332,236 (docs/boxes.md)."""
        node = self.nodes[key]
        if not self.attacker_to_move(node):
            return ()
        votes: dict[int, int] = {}
        for parent_key in self.parents_of(key):
            parent = self.nodes[parent_key]
            assert parent.children is not None
            here = next(move for move, child in parent.children if child == key)
            # The leaf's orientation from the parent's: carrying the child as the parent plays it
            # onto the leaf as it is kept.
            into_leaf = self.classes.carrying(play(parent.x, parent.o, here), (node.x, node.o))
            for move, child in parent.children:
                if child == key or values.get(child) != 1:
                    continue
                won = self.winning_move(child, values)
                if won is None:
                    continue
                sibling = self.nodes[child]
                into_parent = self.classes.carrying(
                    (sibling.x, sibling.o), play(parent.x, parent.o, move)
                )
                cell = into_leaf[into_parent[won]]
                votes[cell] = votes.get(cell, 0) + 1
        taken = node.x | node.o
        ranked = sorted(votes, key=lambda cell: (-votes[cell], cell))
        return tuple(cell for cell in ranked if not taken >> cell & 1)[:count]

    def fresh_hints(self, key: int, values: dict[int, int]) -> tuple[int, ...]:
        """The moves :meth:`hints` gives the leaf ``key`` now that its jobs have not tried yet."""
        tried = self.nodes[key].tried
        return tuple(move for move in self.hints(key, values) if move not in tried)

    def paying_depths(self) -> set[int]:
        """The depths (moves on the board) where the jobs of leaves mostly settle their position:
        at least :data:`BARREN_SEARCHED` searched, one in :data:`SIBLINGS_FIRST` settled."""
        return {
            figures.moves
            for figures in self.depths()
            if figures.searched >= BARREN_SEARCHED
            and figures.settled * SIBLINGS_FIRST >= figures.searched
        }

    def waiting(self, busy: set[int], values: dict[int, int]) -> set[int]:
        """The open leaves whose jobs settled nothing that wait for their siblings' first jobs
        before they run again: where the attacker is to move, with no move that won a sibling
        left to try first (:meth:`fresh_hints`), at a depth where jobs mostly settle
        (:meth:`paying_depths`), while a sibling (another reply to the same position) that never
        had a job waits, not running. A sibling that settles gives them a move to try first: on
        4x4x4x4 such a move won the position in 156 of the first 164 jobs that tried one."""
        found: set[int] = set()
        paying: set[int] | None = None
        for key in self.focus(values):
            node = self.nodes[key]
            if node.children is not None or not node.jobs or not self.attacker_to_move(node):
                continue
            paying = self.paying_depths() if paying is None else paying
            if (node.x | node.o).bit_count() not in paying or self.fresh_hints(key, values):
                continue
            for parent in self.parents_of(key):
                if any(
                    not values[child]
                    and child not in busy
                    and not self.nodes[child].jobs
                    and self.nodes[child].children is None
                    for _, child in self.nodes[parent].children or []
                ):
                    found.add(key)
                    break
        return found

    def winning_move(self, key: int, values: dict[int, int]) -> int | None:
        """The attacker's move that wins the proven node ``key`` where the attacker is to move, in
        its orientation: the move its fragment's strategy plays there, or for a split node a move
        to a proven child; None where neither is known."""
        if key in self._won:
            return self._won[key]
        node = self.nodes[key]
        found: int | None = None
        if node.children is not None:
            found = next((move for move, child in node.children if values.get(child) == 1), None)
        elif node.value == 1 and node.offset >= 0 and node.root is not None:
            _, lines = decode_fragment(self.pack.read(node.offset))
            for line in lines:
                move = line.get("move")
                if line.get("position") == node.root and isinstance(move, int):
                    found = move
                    break
        self._won[key] = found
        return found

    def continuing(
        self, busy: set[int], values: dict[int, int], held: set[int] | None = None
    ) -> list[int]:
        """The open leaves that still matter, are not running and had jobs that settled nothing
        (their next job gets a longer slice), those with most jobs first; except that the first
        :data:`ABREAST` open and unsplit children of a node take turns: one of them that had more
        jobs than another that is not running gives its turn to that one (the one with fewest
        jobs) and comes after the others.
        So two replies of O are each searched for 1, 2, 4, ... minutes in turn, rather than the
        first for 31 minutes before the second is tried. Leaves that wait for their siblings'
        first jobs (:meth:`waiting`, or ``held`` where the caller has them) are left out."""
        relevant = self.relevant(values)
        focus = self.focus(values)
        held = self.waiting(busy, values) if held is None else held
        found = [
            key
            for key in focus
            if key not in busy
            and key not in held
            and self.nodes[key].children is None
            and self.nodes[key].jobs
        ]
        found.sort(key=lambda key: (-self.nodes[key].jobs, key))
        parents: dict[int, int] = {}
        for key in relevant:
            for _, child in self.nodes[key].children or []:
                parents.setdefault(child, key)
        picks: list[int] = []
        waiting: list[int] = []  # gave its turn: next after the others
        for key in found:
            pick = key
            parent = parents.get(key)
            if parent is not None:
                siblings = self.nodes[parent].children or []
                window = [
                    child
                    for _, child in siblings
                    if not values[child] and self.nodes[child].children is None
                ][:ABREAST]
                behind = [
                    child
                    for child in window
                    if child not in busy
                    and child not in picks
                    and self.nodes[child].jobs < self.nodes[key].jobs
                ]
                if key in window and behind:
                    pick = min(
                        behind, key=lambda child: (self.nodes[child].jobs, window.index(child))
                    )
            if pick not in picks:
                picks.append(pick)
            if pick != key:
                waiting.append(key)
        return picks + [key for key in waiting if key not in picks]

    def _numbers(
        self, values: dict[int, int], busy: set[int], unit: bool = False
    ) -> dict[int, tuple[int, int, bool]]:
        """(proof number, disproof number, holds a leaf to run) of every node; with ``unit`` every
        open leaf counts 1 and 1, not the numbers its parent's search left."""
        memo: dict[int, tuple[int, int, bool]] = {}

        def numbers(key: int) -> tuple[int, int, bool]:
            known = memo.get(key)
            if known is not None:
                return known
            node = self.nodes[key]
            if values[key] == 1:
                result = (0, INF, False)
            elif values[key] == -1:
                result = (INF, 0, False)
            elif node.children is None:
                result = (1, 1, True) if unit else (node.pn, node.dn, key not in busy)
            else:
                found = [numbers(child) for _, child in node.children]
                free = any(f[2] for f in found)
                if self.attacker_to_move(node):
                    result = (min(f[0] for f in found), min(INF, sum(f[1] for f in found)), free)
                else:
                    result = (min(INF, sum(f[0] for f in found)), min(f[1] for f in found), free)
            memo[key] = result
            return result

        numbers(self.root)
        return memo

    def _followed(self, node: Node, values: dict[int, int]) -> list[int]:
        """The open children of ``node`` (the attacker to move) that the run works on now: the
        unsplit ones, and of the split ones one only: the one that does not lag (:meth:`_lagging`)
        with the fewest of the defender's replies open, the first in the search's order among
        equals; that one alone while it gets on (:meth:`_getting_on`). While more than half of
        its replies are open, the first :data:`RIVALS` moves in the search's order go first
        until each is split or settled (so that the run has something to compare it with: a job
        that settles most replies keeps its table for a longer slice rather than split); where
        every split move lags, those go before them too.

        A move split is one the searches liked best, and the attacker needs only one that wins:
        its unsplit siblings each cost a job and a split of their own before they look as far
        off as it does (their numbers come from their parent's search, its from its own
        children's), so left to the numbers the run would split every move of the attacker
        before it went deeper in any. On 4x4x4x4 it split X's moves three plies in one after the
        other, 21 in as many minutes, while a position four plies in settles in about one. But a
        move is split for the siblings it won, or by the luck of a search, not because it was
        compared with the search's own first choices: below X on 0, O on 7, X on 103 and O on 87
        the run split X on 247, and one search of 1.5 million positions settles 4 of O's 251
        replies to it, and 184, 207 and 224 of those to the search's first three moves."""
        open_ = [child for _, child in node.children or [] if not values[child]]
        unsplit = [child for child in open_ if self.nodes[child].children is None]
        split = [child for child in open_ if self.nodes[child].children is not None]
        if not split:
            return unsplit
        first = [child for _, child in (node.children or [])[:RIVALS]]
        rivals = [child for child in first if not values[child] and child in unsplit]
        going = [child for child in split if not self._lagging(child, values)]
        followed = min(going, key=lambda child: self._replies(child, values)[0], default=None)
        if rivals and (followed is None or self._mostly_open(followed, values)):
            return rivals
        if followed is None:  # every split move lags, and no rival is left
            followed = split[0]
        if self._getting_on(followed, values):
            return [followed]
        return [*unsplit, followed]

    def _mostly_open(self, key: int, values: dict[int, int]) -> bool:
        """Whether more than half of the defender's replies to the split move ``key`` are open."""
        open_replies, replies = self._replies(key, values)
        return 2 * open_replies > replies

    def _replies(self, key: int, values: dict[int, int]) -> tuple[int, int]:
        """(open, all) of the defender's replies to the attacker's split move ``key``, each
        position once."""
        replies = {child for _, child in self.nodes[key].children or []}
        return sum(1 for child in replies if not values[child]), len(replies)

    def _below(self, key: int, values: dict[int, int]) -> tuple[int, int]:
        """(jobs that ran, positions settled) below the split node ``key``."""
        jobs = settled = 0
        seen = {key}
        stack = [key]
        while stack:
            for _, child in self.nodes[stack.pop()].children or []:
                if child not in seen:
                    seen.add(child)
                    jobs += self.nodes[child].jobs
                    settled += bool(values[child])
                    stack.append(child)
        return jobs, settled

    def _getting_on(self, key: int, values: dict[int, int]) -> bool:
        """Whether the jobs below the split node ``key`` get on: fewer than :data:`PATIENCE` of
        them ran, or one in PATIENCE settled a position below it."""
        jobs, settled = self._below(key, values)
        return jobs < PATIENCE or settled * PATIENCE >= jobs

    def _lagging(self, key: int, values: dict[int, int]) -> bool:
        """Whether the attacker's split move ``key`` lags: :data:`LAG_TRIED` or more of the
        defender's replies to it were tried (settled, or a leaf that had a job) and fewer than
        half of those are settled. Counted among those tried, not among all: a move whose
        replies each settle in a job or two gets on, however many are left; and a reply split
        into more is under way, not tried: the replies to X's first move on 4x4x4x4 took hundreds
        of jobs each."""
        settled = tried = 0
        for child in {child for _, child in self.nodes[key].children or []}:
            node = self.nodes[child]
            if values[child]:
                settled += 1
                tried += 1
            elif node.children is None and node.jobs:
                tried += 1
        return tried >= LAG_TRIED and 2 * settled < tried

    def focus(self, values: dict[int, int]) -> set[int]:
        """The open nodes the run works on now: those reached from the root through open nodes,
        where the attacker is to move through one split child at a time (:meth:`_followed`).

        The attacker needs one move that wins, and a question answered no needs every move to
        fail, so trying the attacker's split moves one after another costs nothing when the
        answer is no and saves the work on all but one when the first tried wins; spread over
        them, the slices that double (:meth:`continuing`) grow on all. Qubic's run with the
        defaults split X's two first moves at once and gave 14 of its first 55 minutes of worker
        time to O's replies to X on 1 while X on 0 wins (the run whose options were picked by
        hand proved it through X on 0 alone)."""
        seen: set[int] = set()
        stack = [self.root]
        while stack:
            key = stack.pop()
            if key in seen or values[key]:
                continue
            seen.add(key)
            node = self.nodes[key]
            if node.children is None:
                continue
            if self.attacker_to_move(node):
                stack.extend(self._followed(node, values))
            else:
                stack.extend(child for _, child in node.children)
        return seen

    def relevant(self, values: dict[int, int], top: int | None = None) -> set[int]:
        """The nodes whose value still matters: reached from the root (or from ``top``) through
        open nodes only."""
        seen: set[int] = set()
        stack = [self.root if top is None else top]
        while stack:
            key = stack.pop()
            if key in seen or values[key]:
                continue
            seen.add(key)
            children = self.nodes[key].children
            if children is not None:
                stack.extend(child for _, child in children)
        return seen

    def followed_to_prove(self, values: dict[int, int]) -> int:
        """The fewest open leaves whose values would prove the root along the moves the run
        follows (:meth:`_followed`: where a split move of the attacker gets on, that move alone),
        each counted 1: what the run has still to settle if the moves it follows win, at least
        (a leaf whose jobs do not settle it splits into more). 0 once the root is proved; INF
        where no followed move can win any more. Unlike :meth:`fewest_leaves`, the attacker's
        unsplit moves beside a followed split one do not count as one job away: on 4x4x4x4 they
        made "at least 1" of some two hundred."""
        memo: dict[int, int] = {}

        def count(key: int) -> int:
            if values[key]:
                return 0 if values[key] == 1 else INF
            known = memo.get(key)
            if known is not None:
                return known
            node = self.nodes[key]
            if node.children is None:
                found = 1
            elif self.attacker_to_move(node):
                found = min((count(child) for child in self._followed(node, values)), default=INF)
            else:  # every reply; two replies that lead to one position count it once
                found = min(INF, sum(count(child) for child in {c for _, c in node.children}))
            memo[key] = found
            return found

        return count(self.root)

    def fewest_leaves(self, values: dict[int, int]) -> tuple[int, int]:
        """The fewest open leaves (running ones included) whose values would prove the root, and the
        fewest that would disprove it: the proof and disproof numbers with every open leaf counted 1
        (one child of an OR node, every child of an AND node, for a proof). Each needs a job at
        least, so these bound the jobs still to run from below (0 and 0 once the root is known)."""
        if values[self.root]:
            return 0, 0
        pn, dn, _ = self._numbers(values, set(), unit=True)[self.root]
        return pn, dn

    def leaves(self, values: dict[int, int], top: int | None = None) -> int:
        """Open leaves that still matter (the jobs left to run, running ones included), below the
        root or below ``top``."""
        return sum(1 for key in self.relevant(values, top) if self.nodes[key].children is None)

    # -- results -----------------------------------------------------------------------------------

    def settle(self, key: int, value: int, fragment: bytes | None, entries: int, root: str) -> None:
        """Record that a job settled the class ``key``, its fragment added to the pack first."""
        node = self.nodes[key]
        if node.value:
            return
        if fragment is not None and entries:
            node.offset = self.pack.append(fragment)
            node.root, node.entries = root, entries
        node.value = value

    def apply(self, key: int, result: JobResult, doublings: int = 0) -> None:
        """Take in a job's result: settle its node, or split it into its children, unless the job
        searched its whole slice and its node has had at most ``doublings`` jobs, and either the
        job kept its table for the next one (``Job.table_file``) or it settled fewer than half of
        the children: then the node stays a leaf, for a job with a longer slice
        (:meth:`ProofRun.slice_of`) that goes on from this one's table, and takes the numbers its
        children would give it.

        A child settled where the attacker moves is a move that fails, where the defender moves a
        reply that loses: a step towards the answer that needs every child. With children still
        open, a split would start each of them afresh where one longer search of the node, going
        on from its table, settles them all: of the positions two moves in on 8x8 with k = 5, four
        were split after a job settled 1 or 2 of their 34 to 62 children, into a job for each of
        the rest; and X on 1, O on 28 was split after its third job had settled more than half of
        X's moves (9.0 million positions in all), where one search settles it in 13.5 million.
        Without a kept table (a cluster's workers), a job that settled half of them or more is
        split: a longer one would start afresh too."""
        node = self.nodes[key]
        # A slice cut short by the end of the run's time (``Job.final``) is not one of the leaf's
        # doublings: its next job gets the slice this one should have had (before 2026-11-29 each
        # stop of a run took a doubling from the leaves that were running).
        if not (result.job.final and not result.value):
            node.jobs += 1
        node.nodes += result.nodes
        self.jobs += 1
        self.searches += result.job.search
        self.searched += result.nodes
        self.cpu += result.cpu
        if key == self.root and node.children is not None and self.root_cpu is not None:
            self.root_cpu += result.cpu  # the whole search of the root, beside the split
        for name, count in result.statistics.items():
            self.statistics[name] = self.statistics.get(name, 0) + count
        size = self.geometry.size
        if result.value:
            job = result.job
            self.settle(key, result.value, result.fragment, result.entries, _status(job, size))
            return
        if result.children is None or node.children is not None:
            return
        settled = sum(1 for child in result.children if child.value)
        if (
            node.jobs <= doublings
            and result.job.search
            and not result.statistics.get("early_splits")
            and (result.job.table_file is not None or settled * 2 < len(result.children))
            and not self.doubling_fruitless((node.x | node.o).bit_count(), doublings)
        ):
            pns = [child.pn for child in result.children]
            dns = [child.dn for child in result.children]
            if self.attacker_to_move(node):
                node.pn, node.dn = min(pns), min(INF, sum(dns))
            else:
                node.pn, node.dn = min(INF, sum(pns)), min(dns)
            return
        children = []
        for child in result.children:
            child_key = self.classes.key(child.x, child.o)
            if child_key not in self.nodes:
                self.nodes[child_key] = Node(child.x, child.o, pn=child.pn, dn=child.dn)
                if child_key in self.known:
                    fresh = self.nodes[child_key]
                    fresh.value, fresh.root, fresh.entries, fresh.offset = self.known.pop(child_key)
            if child.value:
                root = status_string(child.x, child.o, size)
                self.settle(child_key, child.value, child.fragment, child.entries, root)
            children.append((child.move, child_key))
        node.children = _each_class_once(children)

    # -- what the jobs of each depth do -------------------------------------------------------------

    @staticmethod
    def _kind(node: Node) -> int | None:
        """What became of a leaf's jobs: 0 settled by its own search, 1 searched and then split,
        2 split without a search, None none of these (never run, or settled by its parent's)."""
        if node.nodes == 0:
            return 2 if node.children is not None and node.jobs else None
        if node.children is not None:
            return 1
        return 0 if node.value else None

    def depths(self) -> list[DepthFigures]:
        """What the jobs of each depth did, counted from the nodes, the shallowest first (depths
        where jobs ran only)."""
        counts: dict[int, list[int]] = {}
        for node in self.nodes.values():
            kind = self._kind(node)
            if kind is not None:
                counts.setdefault((node.x | node.o).bit_count(), [0, 0, 0])[kind] += 1
        return [
            DepthFigures(depth, settled + split, settled, at_once)
            for depth, (settled, split, at_once) in sorted(counts.items())
        ]

    def barren(self, moves: int) -> bool:
        """Whether the searches of leaves with ``moves`` on the board almost never settle their
        position: at least :data:`BARREN_SEARCHED` of them ran, and fewer than one in
        :data:`BARREN_SHARE` settled (on 8x8 with k = 5, none of the first 100 two moves in did)."""
        for figures in self.depths():
            if figures.moves == moves:
                return (
                    figures.searched >= BARREN_SEARCHED
                    and figures.settled * BARREN_SHARE < figures.searched
                )
        return False

    def doubling_fruitless(self, moves: int, doublings: int) -> bool:
        """Whether longer slices have not paid for leaves with ``moves`` on the board: at least
        :data:`FRUITLESS_DOUBLED` of them ran ``doublings`` + 1 jobs (all their doublings) and
        neither settled nor settled any of their children (those never searched by a job of their
        own), and none of them that ran more than once settled."""
        spent = 0
        for node in self.nodes.values():
            if node.jobs < 2 or (node.x | node.o).bit_count() != moves:
                continue
            if node.value:
                return False
            children = [self.nodes[child] for _, child in node.children or []]
            if node.jobs > doublings and not any(c.value and not c.jobs for c in children):
                spent += 1
        return spent >= FRUITLESS_DOUBLED

    def recover(self, start: int) -> None:
        """Take up the fragments the pack holds from ``start`` on (added after the state was last
        written, just before a kill)."""
        for offset, fragment in self.pack.scan(start):
            if fragment.attacker != self.attacker:
                continue
            x, o = status_masks(fragment.root)
            key = self.classes.key(x, o)
            found = (1 if fragment.proven else -1, fragment.root, fragment.entries, offset)
            node = self.nodes.get(key)
            if node is None:
                self.known[key] = found
            elif not node.value:
                node.value, node.root, node.entries, node.offset = found

    # -- the certificate ---------------------------------------------------------------------------

    def assemble(
        self, target: int, start: int | None = None
    ) -> tuple[list[MoveEntry], list[Section]]:
        """The certificate of the settled root (``target`` its value), or of the settled node
        ``start`` (a key; its certificate's walk begins at the node's position, in the orientation
        the tree holds it): the moves of the strategy's side in the top of the tree, and the
        fragments of the leaves the strategy reaches.

        It walks the positions of the game from the empty board (or the node), as the checker will:
        a node of the tree stands for every position of its class, and the checker knows only the
        board's own symmetries. So each position reached gets its entry in its own orientation, and
        a fragment whose root the board's symmetries do not carry onto the position reached is
        copied carried over by a symmetry of the search (:attr:`Section.perm`)."""
        values = self.values()
        key = self.root if start is None else start
        if values[key] != target:
            raise AssertionError("the position does not have the value to certify")
        size = self.geometry.size
        classes = self.classes
        top: list[MoveEntry] = []
        sections: list[Section] = []
        done: set[int] = set()
        stack = [(self.nodes[key].x, self.nodes[key].o, key)]  # a position and its class's key
        while stack:
            x, o, key = stack.pop()
            seen = classes.rigid_key(x, o)
            if seen in done:
                continue
            done.add(seen)
            node = self.nodes[key]
            if node.value:
                if node.value != target:
                    raise AssertionError("a settled strategy reaches a position of the other value")
                if node.root is not None:
                    sections.append(self._section(node, x, o))
                continue
            assert node.children is not None, "an open leaf in a settled tree"
            after = [
                (move, play(x, o, move))
                for move in mask_cells(
                    self.geometry.playable(x | o)
                )  # empty cells, or with gravity
                # the lowest empty cell of each column
            ]
            if self.attacker_to_move(node) == (target == 1):
                chosen = next(c for _, c in node.children if values[c] == target)
                move, position = next(a for a in after if classes.key(*a[1]) == chosen)
                top.append(MoveEntry(status_string(x, o, size), move))
                stack.append((*position, chosen))
            else:
                for _, position in after:
                    reply = classes.key(*position)
                    if values[reply] != target:
                        raise AssertionError("a reply escapes a settled strategy")
                    stack.append((*position, reply))
        return top, sections

    def _section(self, node: Node, x: int, o: int) -> Section:
        """The section of a settled node's fragment for the position (x, o) of its class."""
        assert node.root is not None
        rx, ro = status_masks(node.root)
        if self.classes.rigid_key(rx, ro) == self.classes.rigid_key(x, o):
            return Section(node.root, self.pack.path, node.offset, node.entries)
        perm = self.classes.carrying((rx, ro), (x, o))
        root = status_string(x, o, self.geometry.size)
        return Section(root, self.pack.path, node.offset, node.entries, perm)

    # -- the state file ----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, object]:
        nodes = []
        for key, node in self.nodes.items():
            children = (
                None
                if node.children is None
                else [[move, f"{child:x}"] for move, child in node.children]
            )
            nodes.append(
                [
                    f"{key:x}",
                    f"{node.x:x}",
                    f"{node.o:x}",
                    node.value,
                    node.root,
                    node.entries,
                    node.offset,
                    node.nodes,
                    node.jobs,
                    children,
                    node.pn,
                    node.dn,
                    list(node.tried),
                ]
            )
        return {
            "pack": self.pack.size(),
            "symmetries": len(self.classes),
            "nodes": nodes,
            "searched": self.searched,
            "cpu": round(self.cpu, 3),
            "wall": round(self.wall, 3),
            "jobs": self.jobs,
            "searches": self.searches,
            "statistics": self.statistics,
            "root_cpu": None if self.root_cpu is None else round(self.root_cpu, 3),
        }

    @classmethod
    def from_dict(
        cls, geometry: Geometry, attacker: Question, folder: Path, data: dict[str, Any]
    ) -> Tree:
        tree = cls(geometry, attacker, folder)
        tree.nodes = {}
        size = tree.pack.size()
        for row in data["nodes"]:
            key, x, o, value, root, entries, offset, nodes, jobs, children = row[:10]
            # A state written before the numbers were kept has 10 fields a node, before the
            # moves tried first were, 12.
            pn, dn = row[10:12] if len(row) >= 12 else (1, 1)
            tried = tuple(row[12]) if len(row) >= 13 else ()
            node = Node(
                int(x, 16),
                int(o, 16),
                None if children is None else [(move, int(child, 16)) for move, child in children],
                value,
                root,
                entries,
                offset,
                nodes,
                jobs,
                pn,
                dn,
                tried,
            )
            if root is not None and offset + 12 > size:  # a fragment lost with the pack's tail
                node.value, node.root, node.entries, node.offset = 0, None, 0, -1
            tree.nodes[int(key, 16)] = node
        if int(data.get("symmetries", tree.classes.rigid)) != len(tree.classes):
            tree.rekey()
        if tree.root not in tree.nodes:
            raise ValueError("the tree has no root")
        tree.searched = int(data["searched"])
        tree.cpu = float(data["cpu"])
        tree.wall = float(data["wall"])
        tree.jobs = int(data["jobs"])
        tree.searches = int(data.get("searches", tree.jobs))
        tree.statistics = {str(k): int(v) for k, v in data["statistics"].items()}
        root_cpu = data.get("root_cpu")
        tree.root_cpu = None if root_cpu is None else float(root_cpu)
        return tree

    def rekey(self) -> None:
        """Key the nodes by the classes of the search's symmetries, for a state written when the
        tree knew only the board's own. Nodes of one class become one: the settled one, or else the
        one split, or else the one searched most; the others' subtrees are no longer reached."""
        old = self.nodes
        new_key = {key: self.classes.key(node.x, node.o) for key, node in old.items()}

        def rank(key: int) -> tuple[bool, bool, int]:
            node = old[key]
            return node.value != 0, node.children is not None, node.nodes

        chosen: dict[int, int] = {}
        for key in old:
            kept = chosen.get(new_key[key])
            if kept is None or rank(key) > rank(kept):
                chosen[new_key[key]] = key
        self.nodes = {}
        for key, kept in chosen.items():
            node = old[kept]
            if node.children is not None:
                node.children = _each_class_once(
                    [(move, new_key[child]) for move, child in node.children]
                )
            self.nodes[key] = node

    def first_moves(self, values: dict[int, int]) -> dict[str, list[int]]:
        """The root's moves (one per class) by what is known of them, as :class:`SearchSummary` has it."""
        out: dict[str, list[int]] = {"win": [], "no win": [], "open": []}
        root = self.nodes[self.root]
        if root.value:  # settled by a search of the whole root: its moves are in the certificate
            return out
        for move, child in root.children or []:
            value = values[child]
            out["win" if value > 0 else "no win" if value < 0 else "open"].append(move)
        return out

    def replies(self, values: dict[int, int]) -> list[Replies]:
        """For each of the root's moves that the run split and has not settled, what is known of
        the replies to it (how far the opening is proved below that move)."""
        root = self.nodes[self.root]
        focus = self.focus(values)
        out = []
        for move, child in root.children or []:
            node = self.nodes[child]
            if values[child] or node.children is None:
                continue
            counts = {1: 0, -1: 0, 0: 0}
            for _, reply in node.children:
                counts[values[reply]] += 1
            below = self.leaves(values, child)
            now = child in focus
            waits = self.waits(values, child) if now and counts[0] <= WAITS_SAID else ()
            out.append(Replies(move, counts[1], counts[-1], counts[0], below, now, waits))
        return out

    def waits_on(self, key: int, values: dict[int, int]) -> int:
        """The open position that stands in the way below the open node ``key``: down through the
        one child the run follows where the attacker is to move (:meth:`_followed`) and the one
        open child where the defender is, to the first position with more than one, or a leaf."""
        seen: set[int] = set()
        while key not in seen:
            seen.add(key)
            node = self.nodes[key]
            if node.children is None:
                break
            if self.attacker_to_move(node):
                ahead = self._followed(node, values)
            else:
                ahead = [child for _, child in node.children if not values[child]]
            if len(ahead) != 1:
                break
            key = ahead[0]
        return key

    def waits(self, values: dict[int, int], key: int, levels: int = 2) -> tuple[Waiting, ...]:
        """For each open child of ``key`` (the defender to move), what it waits on
        (:meth:`waits_on`), in the order of the children; where that is again the defender's
        position with at most :data:`WAITS_SAID` replies open, what each of those waits on, down
        to ``levels`` levels in all."""
        out: list[Waiting] = []
        first: dict[int, int] = {}
        for move, child in self.nodes[key].children or []:
            if values[child]:
                continue
            at = self.waits_on(child, values)
            node = self.nodes[at]
            below = node.children or []
            deeper: tuple[Waiting, ...] = ()
            if levels > 1 and below and not self.attacker_to_move(node) and at not in first:
                if sum(1 for _, c in below if not values[c]) <= WAITS_SAID:
                    deeper = self.waits(values, at, levels - 1)
            out.append(
                Waiting(
                    move,
                    mask_cells(node.x),
                    mask_cells(node.o),
                    self.attacker_to_move(node),
                    len(below),
                    sum(1 for _, c in below if values[c]),
                    sum(1 for _, c in below if self.nodes[c].jobs),
                    node.jobs if not below or node.nodes else 0,  # split at once: no search
                    first.get(at),
                    deeper,
                    self._set_aside(at, values),
                )
            )
            first.setdefault(at, move)
        return tuple(out)

    def _set_aside(self, key: int, values: dict[int, int]) -> tuple[tuple[int, int, int], ...]:
        """Where the attacker is to move at ``key``: its open split moves that the run does not
        follow (:meth:`_followed`: they lag, or another has fewer replies open, or the search's
        first moves are searched first), each as (move, replies settled, replies)."""
        node = self.nodes[key]
        if node.children is None or not self.attacker_to_move(node):
            return ()
        followed = self._followed(node, values)
        out = []
        for move, child in node.children:
            if values[child] or self.nodes[child].children is None or child in followed:
                continue
            open_replies, replies = self._replies(child, values)
            out.append((move, replies - open_replies, replies))
        return tuple(out)


def _each_class_once(children: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """(move, class) pairs with each class once, at its first move: moves the board's own
    symmetries tell apart may lead to one class of the search's."""
    first: dict[int, int] = {}
    for move, key in children:
        first.setdefault(key, move)
    return [(move, key) for key, move in first.items()]


@dataclass(frozen=True)
class DepthFigures:
    """What the jobs of one depth of the tree (``moves`` on the board) did: leaves ``searched``,
    of which ``settled`` by their own search (the others split), and leaves ``split_at_once``
    without a search (the first plies, RunOptions.split_plies)."""

    moves: int
    searched: int
    settled: int
    split_at_once: int


def _depth_words(figures: DepthFigures) -> str:
    """One depth's figures for the status: ``3: 204 searched (4 settled), 2 split at once``."""
    parts = []
    if figures.searched:
        parts.append(f"{figures.searched:,} searched ({figures.settled:,} settled)")
    if figures.split_at_once:
        parts.append(f"{figures.split_at_once:,} split at once")
    return f"{figures.moves}: " + ", ".join(parts)


@dataclass(frozen=True)
class Replies:
    """The replies to one of the root's moves: how many (one of each set alike by symmetry) the
    attacker is proved to win after, proved not to, and still open, and the open jobs below;
    ``now``: whether the run works below it now (the attacker's split moves wait their turn,
    :meth:`Tree.focus`); ``waits``: for each open reply the run works on, what it waits on (when
    at most :data:`WAITS_SAID` are open)."""

    move: int
    win: int
    no_win: int
    open: int
    open_jobs: int
    now: bool = True
    waits: tuple[Waiting, ...] = ()


def _status(job: Job, size: int) -> str:
    return status_string(job.x, job.o, size)


# -- the run ---------------------------------------------------------------------------------------


StatusReporter = Callable[[str], None]


class ProofRun:
    """One board's proof run in a folder: opened (created, or loaded to continue), driven by
    :meth:`prove`, and closed. Use :func:`run_proof`."""

    def __init__(self, geometry: Geometry, folder: Path, options: RunOptions) -> None:
        self.geometry = geometry
        self.folder = folder
        self.options = options
        self.state_dir = folder / "run"
        self.trees: dict[str, Tree] = {}
        self.state: dict[str, Any] = {}
        self.running: dict[int, tuple[str, int, float]] = {}
        self.tickets = 0
        # The questions whose whole root search was started in this session (RunOptions.root_search).
        self.root_searches: set[str] = set()
        # The tickets of the whole root searches that keep their table in the folder.
        self.keeping: set[int] = set()
        self.executor: JobExecutor | None = None
        self.last_save = 0.0
        self.save_cost = 0.0
        self.session: dict[str, Any] = {}
        self.resumed = False
        # The question being worked on, and when its run time was last added up.
        self.working: Tree | None = None
        self.since = 0.0
        # A local worker has run a root's job with the compiled search (:meth:`_probe`): it holds
        # the search, loaded, and gets the next root's job at once.
        self.warm = False
        # prove() wrote the state last, after stopping the workers (close() need not write it).
        self.saved_at_end = False

    # -- the folder --------------------------------------------------------------------------------

    def open(self) -> None:
        """Create the run's folder, or load the run it holds; refuse a folder of anything else."""
        folder = self.folder
        state_file = self.state_dir / "state.json"
        if folder.exists() and not folder.is_dir():
            raise OxoError(f"--proof {str(folder)!r} is a file; give a new or empty folder")
        if state_file.exists():
            self.state = load_state(folder)
            board = f"{'x'.join(map(str, self.state['dims']))} (k={self.state['k']})"
            if self.state.get("gravity", False):
                board += " with gravity"
            if (
                tuple(self.state["dims"]) != self.geometry.shape
                or self.state["k"] != self.geometry.k
                or self.state.get("gravity", False) != self.geometry.gravity
            ):
                raise OxoError(
                    f"--proof folder {str(folder)!r} holds a proof run of {board}, not of "
                    f"{self.geometry.spec_shape} (k={self.geometry.k}): give another folder"
                )
            self.resumed = True
        elif folder.exists() and any(path.name != "run" for path in folder.iterdir()):
            raise OxoError(
                f"--proof folder {str(folder)!r} holds other files and no proof run: give a new or "
                "empty folder, or the folder of an earlier run of this board to continue it"
            )
        else:
            try:
                self.state_dir.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise OxoError(
                    f"cannot create the folder {str(folder)!r}: {error.strerror}"
                ) from None
            self.state = {
                "format": RUN_FORMAT,
                "board": self.geometry.spec_shape,
                "dims": list(self.geometry.shape),
                "k": self.geometry.k,
                **({"gravity": True} if self.geometry.gravity else {}),
                "created": time.time(),
                "questions": {},
                "sessions": [],
                "samples": [],
                "running": [],
                "done": None,
            }
        self.state_dir.mkdir(parents=True, exist_ok=True)
        self._lock()
        try:
            for attacker, data in self.state["questions"].items():
                try:
                    tree = Tree.from_dict(self.geometry, attacker, self.state_dir, data)
                except (KeyError, TypeError, ValueError) as error:
                    raise OxoError(
                        f"the proof run's state {self.state_dir / 'state.json'} is damaged "
                        f"({error!r}): give a new folder"
                    ) from None
                self.trees[attacker] = tree
                tree.recover(int(data.get("pack", 0)))
            self.save(force=True)
        except BaseException:
            (self.state_dir / "lock").unlink(missing_ok=True)
            raise

    def _lock(self) -> None:
        """Take the folder: the lock file names this process. It is made whole aside and linked
        into place, so that no other run ever reads half of it."""
        lock = self.state_dir / "lock"
        me = {"pid": os.getpid(), "host": socket.gethostname(), "started": time.time()}
        mine = self.state_dir / f".lock.{os.getpid()}"
        mine.write_text(json.dumps(me), encoding="utf-8")
        try:
            for _ in range(2):
                try:
                    os.link(mine, lock)
                    return
                except FileExistsError:
                    holder = running_process(self.folder)
                    if holder is not None:
                        raise OptionError(
                            f"a proof run is going on in {str(self.folder)!r} (process {holder}); "
                            "'oxo solve BOARD --proof DIR --status' shows how far it is (if no run "
                            f"is going on, delete {lock})"
                        ) from None
                    lock.unlink(missing_ok=True)  # left by a run that was killed
            raise OptionError(f"cannot take the lock {lock}")
        finally:
            mine.unlink(missing_ok=True)

    def close(self) -> None:
        """Stop the workers, write the state (unless :meth:`prove` wrote it last, the workers
        stopped) and let go of the folder."""
        self._stop_workers()
        try:
            if not self.saved_at_end:
                self.save(force=True)
        finally:
            for tree in self.trees.values():
                tree.pack.close()
            (self.state_dir / "lock").unlink(missing_ok=True)

    def save(self, force: bool = False) -> None:
        """Write the state atomically: at once when ``force``, else at most every few seconds (and
        less often when writing it takes long, so that it never costs more than a twentieth)."""
        now = time.perf_counter()
        if not force and now - self.last_save < max(self.options.save_every, 20 * self.save_cost):
            return
        state = self.state
        self._add_wall()
        for tree in self.trees.values():
            tree.pack.sync()  # the state names records of the packs: they go to disk first
        state["questions"] = {name: tree.to_dict() for name, tree in self.trees.items()}
        state["running"] = [
            [attacker, f"{key:x}", since] for attacker, key, since in self.running.values()
        ]
        state["saved"] = time.time()
        if self.session:
            self.session["seconds"] = round(time.time() - self.session["started"], 3)
            searched = sum(tree.searched for tree in self.trees.values())
            self.session["nodes"] = searched - self.session["nodes_before"]
            self.session["settled"] = self._settled() - self.session["settled_before"]
            samples = state["samples"]
            samples.append([round(time.time(), 3), searched, len(state["sessions"]) - 1])
            del samples[:-SAMPLES]
        write_atomic(self.state_dir / "state.json", json.dumps(state, separators=(",", ":")) + "\n")
        self.save_cost = time.perf_counter() - now
        self.last_save = time.perf_counter()

    # -- proving -----------------------------------------------------------------------------------

    def _settled(self) -> int:
        """Positions settled by the jobs so far, over both questions (a session records how many
        it settled: the pace of a run, which its positions a second do not show)."""
        return sum(1 for tree in self.trees.values() for node in tree.nodes.values() if node.value)

    def prove(self, seconds: float | None, report: StatusReporter) -> tuple[Value, float]:
        """Continue the run for at most ``seconds`` (None: until the value is known); return the
        value (``"unknown"`` when the time ran out first) and the seconds spent."""
        started = time.perf_counter()
        deadline = None if seconds is None else started + seconds
        searched = sum(tree.searched for tree in self.trees.values())
        self.session = {
            "started": round(time.time(), 3),
            "seconds": 0.0,
            "workers": self.options.worker_count(),
            "scheduler": self.options.scheduler,
            "nodes_before": searched,
            "nodes": 0,
            "settled_before": self._settled(),
            "settled": 0,
            "end": "running",
        }
        self.state["sessions"].append(self.session)
        self.saved_at_end = False
        try:
            done = self.state["done"]
            if done is not None and all((self.folder / name).exists() for name in done["proofs"]):
                value: Value = done["value"]
            else:
                value = self._value(deadline, report)
                if value != "unknown":
                    # The certificates need no worker: they end while this process writes them.
                    if self.executor is not None:
                        self.executor.kill()
                    self._certify(value, report)
            self.session["end"] = "settled" if value != "unknown" else "time"
        except KeyboardInterrupt:
            self.session["end"] = "interrupted"
            raise
        except BaseException:
            self.session["end"] = "stopped"
            raise
        finally:
            self._stop_workers()
            self.save(force=True)
            self.saved_at_end = True  # nothing changes before close(): it need not write it again
        return value, time.perf_counter() - started

    def _value(self, deadline: float | None, report: StatusReporter) -> Value:
        """Settle the two questions in turn: a side that can force a line wins (it wins whatever
        the other does, so the other question is not needed); when neither can, it is a draw. The
        first question answered "no" has its certificate (the other side's no-loss) written at
        once: a result on its own, kept while the second question is open."""
        first: Question = self.options.first_question
        second: Question = other(first)
        answer = self._settle(first, deadline, report)
        if answer == 0:
            return "unknown"
        if answer == 1:
            return first
        self._certificate(first, -1, report)
        answer = self._settle(second, deadline, report)
        if answer == 0:
            return "unknown"
        return second if answer == 1 else "draw"

    def _settle(self, attacker: Question, deadline: float | None, report: StatusReporter) -> int:
        """The value of one question's root, as far as the time allows (0 when not settled)."""
        tree = self.trees.get(attacker)
        if tree is None:
            tree = self.trees[attacker] = Tree(self.geometry, attacker, self.state_dir)
            tree.recover(0)
        if tree.values()[tree.root]:
            return tree.values()[tree.root]
        self.working, self.since = tree, time.perf_counter()
        try:
            root = tree.nodes[tree.root]
            probe = self.options.probe_seconds
            if self.options.slice_seconds is not None:
                probe = min(probe, self.options.slice_seconds)
            if root.jobs == 0 and root.children is None and probe > 0:
                job = self._job(tree, tree.root, deadline, probe)
                if job is not None:
                    report(f"can {attacker.upper()} force a line? a first search of the root here")
                    tree.apply(tree.root, self._probe(tree, job))
                    self.save()
            self._split_top(tree, deadline)
            return self._loop(tree, deadline, report)
        finally:
            self._add_wall()
            self.working = None

    def _probe(self, tree: Tree, job: Job) -> JobResult:
        """The first slice of a question's root. In this process, as any job, unless the run has
        two local workers or more, the board is one the compiled search handles and this process
        has not loaded it: then the plain search looks for :data:`FIRST_LOOK` processor seconds here (small
        boards end there, with no process started), and if it has not settled the root it goes on
        here for the rest of :data:`oxo.proofs.search.QUICK_SECONDS` while a worker loads the
        compiled search and takes the whole slice from the start. The plain search's answer is
        taken if it comes first (the worker is stopped), else the worker's. So the two cores
        overlap the plain search with the loading of the compiled one (about half a second each)
        instead of one after the other. On a board of :data:`EARLY_WORKER_CELLS` or more, a
        worker starts loading the compiled search as soon as the first piece of the first look has
        not settled the root (and is stopped if the rest of it does). Once a worker has answered
        so (it holds the compiled search, loaded), the other question's root goes to it at once,
        without a first look."""
        options = self.options
        if (
            options.worker_count() < 2
            or options.scheduler is not None
            or self.geometry.size > 64
            or "oxo.proofs.dfpn" in sys.modules
        ):
            return run_job(job)
        if self.warm and self.executor is not None and self.executor.slots:
            return self._on_worker(tree, job, None, None)
        since = time.perf_counter(), time.process_time()
        search = None
        early = False
        while True:  # the first look, in pieces, until it has used FIRST_LOOK of processor time
            search, result = plain_slice(job, PLAIN_PIECE, search, since)
            if result is not None:
                if early:  # the worker started for nothing: stopped before it costs more
                    self._stop_workers()
                return result
            if time.process_time() - since[1] >= FIRST_LOOK:
                break
            if not early and self.executor is None and self._early_worker():
                early = True
                self._executor(preload=True)
        return self._on_worker(tree, job, search, since)

    def _early_worker(self) -> bool:
        """Whether the worker starts after the first piece of the first look, not after the whole
        look (:data:`EARLY_WORKER_CELLS`): on a big board the flat compiled search handles (boxes
        with gravity have a search of their own, which the worker does not preload)."""
        return self.geometry.size >= EARLY_WORKER_CELLS and not self.geometry.gravity

    def _on_worker(
        self,
        tree: Tree,
        job: Job,
        search: StrategyReader | None,
        since: tuple[float, float] | None,
    ) -> JobResult:
        """The root's job on a worker (the compiled search from the start), raced, while the run
        is younger than :data:`oxo.proofs.search.QUICK_SECONDS` since ``since``, against the plain
        search going on here with ``search`` (None: no race)."""
        executor = self._executor()
        self.tickets += 1
        ticket = self.tickets
        executor.submit(ticket, replace(job, plain_first=False))
        self.running[ticket] = (tree.attacker, tree.root, round(time.time(), 3))
        try:
            # The plain search in short pieces, looking for the worker's answer in between.
            while search is not None and since is not None:
                if time.perf_counter() - since[0] >= QUICK_SECONDS:
                    break
                search, result = plain_slice(job, PLAIN_PIECE, search, since)
                if result is not None:
                    return result
                for done, answer in executor.wait(0.0):
                    del self.running[done]
                    if done == ticket:
                        self.warm = True
                        return answer
            while True:
                for done, answer in executor.wait(0.25):
                    del self.running[done]
                    if done == ticket:
                        self.warm = True
                        return answer
        finally:
            if ticket in self.running:  # the plain search answered first
                self._cancel(ticket)
                del self.running[ticket]

    def _cancel(self, ticket: int) -> None:
        """Give up a running job. A local worker is replaced by a fresh process, which has not
        loaded the compiled search: the next root's job takes the first look again."""
        assert self.executor is not None
        self.executor.cancel(ticket)
        self.warm = False

    def _add_wall(self) -> None:
        """Add the run time since the last call to the question being worked on."""
        now = time.perf_counter()
        if self.working is not None:
            self.working.wall += now - self.since
        self.since = now

    def _split_top(self, tree: Tree, deadline: float | None) -> None:
        """Split the open leaves of the first ``split_plies`` plies (here, without a search)."""
        level = [tree.root]
        seen = set(level)
        for _ in range(self.options.split_plies):
            following = []
            for key in level:
                if _past(deadline):
                    return
                node = tree.nodes[key]
                if node.children is None and not node.value:
                    self._split(tree, key)
                for _, child in node.children or []:
                    if child not in seen:
                        seen.add(child)
                        following.append(child)
            self.save()
            if tree.values()[tree.root]:
                return
            level = following

    def _split(self, tree: Tree, key: int) -> None:
        """Split a leaf here, without a search (its children and what is known of them at once)."""
        node = tree.nodes[key]
        shape, k = self.geometry.shape, self.geometry.k
        gravity = self.geometry.gravity
        job = Job(shape, k, tree.attacker, node.x, node.o, search=False, gravity=gravity)
        tree.apply(key, run_job(job))

    def _job(
        self, tree: Tree, key: int, deadline: float | None, seconds: float | None
    ) -> Job | None:
        """The job for a leaf: a slice of ``seconds`` (longer for a leaf that had jobs,
        :meth:`slice_of`; cut at the end of the run's time)."""
        final = False
        node = tree.nodes[key]
        if seconds is not None and seconds == float("inf"):
            seconds = None
        if node.jobs and node.children is None:
            seconds = self.slice_of(node, seconds)
        if deadline is not None:
            left = deadline - time.perf_counter()
            if left < MIN_SLICE:
                return None
            if seconds is None or left < seconds:
                seconds, final = left, True
        max_nodes, table_bytes = self.limits(seconds, node)
        early = self.options.early_split or None
        return Job(
            self.geometry.shape,
            self.geometry.k,
            tree.attacker,
            node.x,
            node.o,
            seconds,
            max_nodes,
            final=final,
            table_bytes=table_bytes,
            early=early,
            early_attacker=early is not None
            and tree.attacker_to_move(node)
            and tree.barren((node.x | node.o).bit_count()),
            gravity=self.geometry.gravity,
        )

    def _past_doubling(self, tree: Tree, key: int) -> bool:
        """Whether a leaf picked for a job is split instead: it had a job that settled nothing,
        and longer slices have not paid at its depth (:meth:`Tree.doubling_fruitless`), so its
        moves are the next jobs (its kept table seeds them) rather than it, with twice the slice.
        A leaf whose job ended just before the depth was found fruitless is split here."""
        node = tree.nodes[key]
        return (
            node.jobs > 0
            and node.children is None
            and tree.doubling_fruitless((node.x | node.o).bit_count(), self.options.slice_doublings)
        )

    def _leaf_job(
        self, tree: Tree, key: int, deadline: float | None, values: dict[int, int] | None = None
    ) -> Job | None:
        """The job the run gives a leaf it picked (:meth:`_job`): it tries first the moves that won
        the leaf's proven siblings that the leaf's jobs have not tried yet
        (:meth:`Tree.fresh_hints`, recorded in ``Node.tried``; ``values`` the tree's, found again
        when not given): its first job, and a later one once a sibling settled since. With slices
        that double, it keeps the compiled search's table in the folder for the leaf's next job
        (:meth:`job_table`; local workers only: a cluster's need not see the folder), and while
        the leaf has doublings left it reads no strategies of the children it settles
        (``Job.fragments``)."""
        job = self._job(tree, key, deadline, self.options.slice_seconds)
        if job is not None:
            hints = tree.fresh_hints(key, tree.values() if values is None else values)
            if hints:
                tree.nodes[key].tried += hints
                job = replace(job, hints=hints)
        if job is None or not self.options.slice_doublings or self.options.scheduler is not None:
            return job
        job = replace(job, table_file=str(self.job_table(tree.attacker, key)))
        if tree.nodes[key].jobs + 1 <= self.options.slice_doublings:
            # Unsettled, it stays a leaf (Tree.apply): its children's strategies are not needed.
            job = replace(job, fragments=False)
        if not tree.nodes[key].jobs:  # its first job: from the table of the leaf it was split from
            for parent in tree.parents_of(key):
                seed = self.job_table(tree.attacker, parent)
                if seed.exists():
                    return replace(job, seed_file=str(seed))
        return job

    def job_table(self, attacker: Question, key: int) -> Path:
        """Where a leaf's jobs keep the compiled search's table while the leaf runs again with a
        longer slice (:meth:`Tree.apply`): its next job goes on from what the last one learnt
        instead of starting afresh (on 8x8 with k = 5, five jobs of one position, each from an
        empty table, searched 17.9 million positions in all and did not settle it; one search
        settles it in 13.8 million). When the leaf is split, its table is the first table of each
        of its children's jobs (``Job.seed_file``), which would otherwise start afresh what it
        had learnt of them. Deleted once the leaf is settled, no longer matters, or is split and
        each of its open children has had a job (:meth:`_tidy_tables`)."""
        return self.state_dir / f"job-{attacker}-{key:x}.npz"

    def _tidy_tables(self, tree: Tree, relevant: set[int]) -> None:
        """Delete the kept tables that no job will take up again: of the question's positions that
        are settled or no longer matter (``relevant``: :meth:`Tree.relevant`), or are split with
        no open child left that has not had a job (the table seeds their first jobs), and the
        pieces a killed worker left half-written; never those of a running job. Of the tables of
        split positions, the oldest go while they hold more than :data:`SEED_TABLE_BYTES`; of all,
        the oldest go while the disk has less than :data:`FREE_DISK_BYTES` free."""
        running = {key for _, key, _ in self.running.values()}
        seeds: list[tuple[float, int, Path]] = []
        others: list[tuple[float, int, Path]] = []
        for file in self.state_dir.glob(f"*job-{tree.attacker}-*"):
            found = re.search(rf"job-{tree.attacker}-([0-9a-f]+)\.npz", file.name)
            key = int(found.group(1), 16) if found else -1
            if key in running:
                continue
            node = tree.nodes.get(key)
            whole = file.name.startswith("job-")  # not a half-written piece (".job-....tmp")
            wanted = node is not None and (
                node.children is None
                or any(
                    not tree.nodes[child].jobs and tree.nodes[child].children is None
                    for _, child in node.children
                    if child in relevant
                )
            )
            if not (whole and wanted and key in relevant):
                file.unlink(missing_ok=True)
            else:
                stat = file.stat()
                split = node is not None and node.children is not None
                (seeds if split else others).append((stat.st_mtime, stat.st_size, file))
        seeds.sort()
        held = sum(size for _, size, _ in seeds)
        while seeds and held > SEED_TABLE_BYTES:
            _, size, file = seeds.pop(0)
            file.unlink(missing_ok=True)
            held -= size
        kept = sorted(seeds + others)
        if sum(size for _, size, _ in kept) < GUARD_FROM_BYTES:
            return
        free = _free_bytes(self.state_dir)
        for _, size, file in kept:
            if free >= FREE_DISK_BYTES:
                break
            file.unlink(missing_ok=True)
            free += size

    def _share(self) -> int:
        """Bytes of ``--memory`` for one worker: what is left when this process has set aside its
        part (a worker's share, at most :data:`RUN_PROCESS_BYTES`), divided among the workers."""
        from oxo.counting.budget import default_memory_limit

        memory = self.options.memory or default_memory_limit()
        workers = self.options.worker_count()
        own = min(memory // (workers + 1), RUN_PROCESS_BYTES)
        return (memory - own) // workers

    def slice_of(self, node: Node, seconds: float | None) -> float | None:
        """The slice of a leaf's next job: ``seconds`` doubled for each job the leaf had (each
        settled nothing, :meth:`Tree.apply`), at most ``slice_doublings`` times."""
        if seconds is None:
            return None
        return seconds * (1 << min(node.jobs, self.options.slice_doublings))

    def limits(
        self, seconds: float | None = None, node: Node | None = None
    ) -> tuple[int | None, int | None]:
        """(positions, table bytes) a job with a slice of ``seconds`` (of ``node``, whose earlier
        jobs double the positions as :meth:`slice_of` doubles the seconds) may use, within its
        share of ``--memory`` (:meth:`_share`). Both compiled searches have a table of a fixed size
        (it replaces positions when full, so it never grows), sized for what the slice can search:
        the search of boards up to 64 cells at most half its share and 1 GiB, the search over line
        counts (boards past 64 cells, gravity) at most three quarters of its share, which it needs
        (:data:`MAX_WIDE_TABLE_BYTES`). None: the search's default, for a job without bounds."""
        from oxo.counting.budget import MiB

        share = self._share()
        nodes = self.options.slice_nodes
        if nodes is not None and node is not None and node.jobs and node.children is None:
            nodes <<= min(node.jobs, self.options.slice_doublings)
        if goes_wide(self.geometry):
            rate, per_node, most = (
                WIDE_NODES_PER_SECOND,
                WIDE_TABLE_BYTES_PER_NODE,
                min(share * 3 // 4, MAX_WIDE_TABLE_BYTES),
            )
        else:
            rate, per_node, most = (
                NODES_PER_SECOND,
                TABLE_BYTES_PER_NODE,
                min(share // 2, MAX_TABLE_BYTES),
            )
        bounds = (nodes, None if seconds is None else seconds * rate)
        known = [int(n) for n in bounds if n is not None]
        if not known:
            return nodes, None
        wanted = 1 << max(24, (min(known) * per_node - 1).bit_length())
        return nodes, min(wanted, max(16 * MiB, most))

    def _executor(self, preload: bool = False) -> JobExecutor:
        """The run's executor, started on first use (``preload``: its first worker loads the
        compiled search at once, :class:`oxo.proofs.workers.ProcessExecutor`)."""
        if self.executor is None:
            workers = self.options.worker_count()
            self.executor = make_executor(workers, self.options.scheduler, self._share(), preload)
        return self.executor

    def _stop_workers(self) -> None:
        if self.executor is not None:
            self.executor.close()
            self.executor = None
        self.running.clear()
        self.warm = False

    def _loop(self, tree: Tree, deadline: float | None, report: StatusReporter) -> int:
        """Run jobs until the root is settled or the time is up.

        The tree's numbers are worked out again only when a result came in: a wait that brings
        nothing costs nothing but the wait."""
        values = tree.values()
        changed = True
        reported = time.perf_counter()
        while not values[tree.root] and not _past(deadline, MIN_SLICE):
            executor = self._executor()
            free = executor.slots
            if free and self._wants_root_search(tree):
                job = self._root_job(tree, deadline)
                self.root_searches.add(tree.attacker)
                if job is not None:
                    self.tickets += 1
                    executor.submit(self.tickets, job)
                    self.running[self.tickets] = (tree.attacker, tree.root, round(time.time(), 3))
                    if job.table_file is not None:
                        self.keeping.add(self.tickets)
                    free -= 1
                    changed = True
            if free and changed:
                busy = {key for _, key, _ in self.running.values()}
                split = False
                for key in tree.select(busy, free, values):
                    if self._past_doubling(tree, key):
                        self._split(tree, key)
                        split = True
                        continue
                    job = self._leaf_job(tree, key, deadline, values)
                    if job is None:
                        break
                    self.tickets += 1
                    executor.submit(self.tickets, job)
                    self.running[self.tickets] = (tree.attacker, key, round(time.time(), 3))
                    if job.table_file is not None:
                        self.keeping.add(self.tickets)
                if split:  # pick again among the new leaves
                    values = tree.values()
                    continue
            if changed or time.perf_counter() - reported >= REPORT_EVERY:
                report(self.progress_line(tree, values, deadline))
                reported = time.perf_counter()
            if not self.running:
                if not free:  # a cluster without workers yet: wait for them
                    time.sleep(0.25)
                    continue
                raise AssertionError("no job to run, yet the question is not settled")
            arrived = executor.wait(0.25)
            changed = bool(arrived)
            for ticket, result in arrived:
                _, key, _ = self.running.pop(ticket)
                tree.apply(key, result, self.options.slice_doublings)
            if changed:
                values = tree.values()
                relevant = tree.relevant(values)
                self._cancel_irrelevant(relevant)
                self._tidy_tables(tree, relevant)
            self.save()
        if self.running and not values[tree.root]:
            # The time is up: the last slices end with it; wait a little for what they found (and
            # for the whole search of the root to keep its table).
            executor = self._executor()
            now = time.perf_counter()
            until, keeping = now + GRACE, now + TABLE_GRACE
            report(self.ending_line())
            while self.running and (
                time.perf_counter() < until
                or (time.perf_counter() < keeping and self.keeping & self.running.keys())
            ):
                for ticket, result in executor.wait(0.25):
                    _, key, _ = self.running.pop(ticket)
                    tree.apply(key, result, self.options.slice_doublings)
            values = tree.values()
        if self.executor is not None:  # what still runs no longer matters (or has no time left)
            for ticket in list(self.running):
                self._cancel(ticket)
        self.running.clear()
        self.keeping.clear()
        self._tidy_tables(tree, tree.relevant(values))
        if values[tree.root]:  # the table of the whole search is no longer needed
            self.table_file(tree.attacker).unlink(missing_ok=True)
        return values[tree.root]

    def _wants_root_search(self, tree: Tree) -> bool:
        """Whether to start the whole search of the root beside the split jobs now: once per
        question and session, with two workers or more, once the root is split, while it has
        time left of its share over all sessions (:meth:`root_left`)."""
        if not (
            self.options.root_search
            and self.options.worker_count() >= 2
            and tree.attacker not in self.root_searches
            and tree.nodes[tree.root].children is not None
        ):
            return False
        left = self.root_left(tree)
        return left is None or left >= MIN_SLICE

    def root_left(self, tree: Tree) -> float | None:
        """Seconds the whole search of the root has left (None: no bound): :meth:`root_seconds`
        over all sessions together, less the processor seconds it has had (processor time, so
        that a loaded machine does not eat its share). It goes on from its kept table, so each
        session's search is the next part of one search, and a board that needs more of it than
        the longest slice of a job is the split's to settle. Until 2026-11-29 each session gave
        it the whole share again: Qubic's run with the defaults spent 16 minutes of one of its
        two workers on it at every start. A state written before the seconds were counted counts
        each of the root's jobs after its first look as a whole share."""
        seconds = self.root_seconds()
        if seconds is None:
            return None
        spent = tree.root_cpu
        if spent is None:
            spent = max(0, tree.nodes[tree.root].jobs - 1) * seconds
        return max(0.0, seconds - spent)

    def _root_job(self, tree: Tree, deadline: float | None) -> Job | None:
        """The whole search of the root, unsplit, for the longest slice a job may grow to
        (:meth:`root_seconds`; cut at the end of the run's time)."""
        job = self._job(tree, tree.root, deadline, self.root_left(tree))
        if job is None:
            return None
        if self.geometry.size > 64:  # a job as the others are (its table from limits), not kept
            return replace(job, final=True)
        # The compiled search: its work is not bounded, its table is, to most of its share. The
        # worker processes of this run (not a cluster's: they need not see the folder, and are
        # not stopped at once) keep the table in the folder between sessions.
        table_bytes = min(MAX_ROOT_TABLE_BYTES, max(16 << 20, self._share() * 3 // 4))
        table_file = None
        if self.options.scheduler is None:
            table = self.table_file(tree.attacker)
            for stale in table.parent.glob(f".{table.name}.*.tmp"):  # left by a killed worker
                stale.unlink(missing_ok=True)
            table_file = str(table)
        return replace(
            job, max_nodes=None, table_bytes=table_bytes, final=True, table_file=table_file
        )

    def table_file(self, attacker: Question) -> Path:
        """Where the whole search of the root keeps its table between sessions: the positions
        it had learnt (at most :data:`oxo.proofs.dfpn.KEPT_MAX`, about 1 GiB) when the end of the
        session stopped it, read back by the next session's (10x4 with k = 4 takes about 7 CPU
        minutes of it: more than one session of the default --time on a loaded machine). Deleted
        once the question is settled."""
        return table_path(self.state_dir, attacker)

    def root_seconds(self) -> float | None:
        """Seconds of the whole search of the root beside the split jobs: the longest slice a job
        may grow to (``slice_seconds`` doubled ``slice_doublings`` times; None: the run's time).
        The hedge is for a board that one long search settles where split jobs do not (10x4 with
        k = 4: 7½ minutes); on one that it does not settle (8x8 with k = 5: hours), it would hold a
        worker for the whole run and keep nothing, so it gets as long as a job may, not longer."""
        slice_seconds = self.options.slice_seconds
        if slice_seconds is None:
            return None
        return slice_seconds * (1 << self.options.slice_doublings)

    def _cancel_irrelevant(self, relevant: set[int]) -> None:
        """Cancel the running jobs whose leaf no longer matters (not in ``relevant``)."""
        if not self.running or self.executor is None:
            return
        for ticket, (_, key, _) in list(self.running.items()):
            if key not in relevant:
                self._cancel(ticket)
                del self.running[ticket]

    def progress_line(self, tree: Tree, values: dict[int, int], deadline: float | None) -> str:
        settled = sum(1 for node in tree.nodes.values() if node.value)
        left = (
            ""
            if deadline is None
            else f"; {duration(max(0.0, deadline - time.perf_counter()))} left"
        )
        return (
            f"can {tree.attacker.upper()} force a line? {tree.leaves(values):,} jobs open "
            f"({len(self.running)} running), {settled:,} settled; {tree.searched:,} positions "
            f"searched{left}"
        )

    def ending_line(self) -> str:
        """What the run waits for once its time is up: the last slices' results, and the tables
        of the jobs that keep theirs (written to disk for the next session)."""
        running, keeping = len(self.running), len(self.keeping & self.running.keys())
        jobs = counted(running, "job")
        if not keeping:
            return f"time is up: waiting up to {GRACE:.0f} s for the last {jobs} to report"
        return (
            f"time is up: waiting up to {TABLE_GRACE:.0f} s for the last {jobs} ({keeping} "
            f"{'saves its' if keeping == 1 else 'save their'} table)"
        )

    # -- certificates ------------------------------------------------------------------------------

    def _certify(self, value: Value, report: StatusReporter) -> None:
        """Merge and check the certificates of a settled value; record them as the run's result."""
        wanted: dict[str, list[tuple[Question, int]]] = {
            "x": [("x", 1)],
            "o": [("o", 1)],
            "draw": [("x", -1), ("o", -1)],
        }
        proofs = []
        checks = {}
        for attacker, target in wanted[value]:
            name, check = self._certificate(attacker, target, report)
            proofs.append(name)
            checks[name] = check
        self.state["done"] = {
            "value": value,
            "proofs": proofs,
            "checks": checks,
        }  # saved by prove()

    def _certificate(
        self, attacker: Question, target: int, report: StatusReporter
    ) -> tuple[str, dict[str, Any]]:
        """Merge and check the certificate of one settled question (``target`` 1: the attacker's
        win, -1: the defender's no-loss) unless it is in the folder already, written and checked
        by this run; record it; return its name and its check."""
        side: Side = attacker if target == 1 else other(attacker)
        guarantee: Guarantee = "win" if target == 1 else "no-loss"
        name = certificate_name(self.geometry, side, guarantee)
        written: dict[str, dict[str, Any]] = self.state.setdefault("certified", {})
        kept = written.get(name)
        if kept is not None and (self.folder / name).exists():
            if digests(self.folder / name).get("sha256") == kept.get("sha256"):
                return name, kept
        top, sections = self.trees[attacker].assemble(target)
        report(f"writing {name}: {len(sections):,} sections")
        merge_certificate(
            self.folder / name,
            self.geometry,
            side,
            guarantee,
            top,
            sections,
            rules=certificate_rules(self.geometry, guarantee),
        )
        say = _throttled(report)

        def progress(read: int, total: int, checked: int) -> None:
            share = f"{100 * read / total:.0f}% of the entries, " if total else ""
            say(f"checking {name}: {share}{checked:,} positions checked")

        began = time.process_time()
        check = verify_certificate(self.folder / name, on_progress=progress)
        if not check.valid:
            raise AssertionError(f"the certificate {name} fails its own check: {check}")
        written[name] = {
            **check.to_dict(),
            "attacker": attacker,
            "check_seconds": round(time.process_time() - began, 1),  # its processor time
            **digests(self.folder / name),
        }
        self.save(force=True)
        return name, written[name]

    # -- the answer --------------------------------------------------------------------------------

    def result(self, value: Value, seconds: float, limit: float | None) -> ProofResult:
        status = run_status(self.folder)  # the state as saved at the stop: its certificates too
        searches = []
        for attacker in ("x", "o"):
            tree = self.trees.get(attacker)
            if tree is None:
                continue
            values = tree.values()
            root = values[tree.root]
            entries = None
            for check in status.checks.values():
                if check["attacker"] == attacker:
                    entries = check["entries"]
            searches.append(
                SearchSummary(
                    attacker,
                    None if root == 0 else root == 1,
                    tree.searched,
                    tree.wall,
                    entries,
                    dict(tree.statistics),
                    tree.first_moves(values) if root == 0 else None,
                )
            )
        return ProofResult(
            self.geometry,
            value,
            tuple(searches),
            seconds,
            tuple(str(self.folder / name) for name in status.proofs),
            limit,
            run={**status.to_dict(), "resumed": self.resumed},
        )


def _free_bytes(folder: Path) -> int:
    """Bytes free on the disk that holds ``folder``."""
    return shutil.disk_usage(folder).free


def _throttled(report: StatusReporter, interval: float = 0.2) -> StatusReporter:
    """``report``, passing on at most one line every ``interval`` seconds."""
    last = -interval

    def say(text: str) -> None:
        nonlocal last
        if time.monotonic() - last >= interval:
            last = time.monotonic()
            report(text)

    return say


def _past(deadline: float | None, margin: float = 0.0) -> bool:
    return deadline is not None and time.perf_counter() > deadline - margin


def write_certificate_again(
    folder: str | os.PathLike[str], name: str, target: str | os.PathLike[str]
) -> None:
    """Merge the certificate ``name`` of the finished run kept in ``folder`` again, from the run's
    pieces, into ``target`` (written atomically), without checking it: the same bytes as the run
    wrote (the merge is deterministic), for a caller that compares its SHA-256 with the one the
    run recorded and checks it its own way. The run's folder is opened as a run (its state is
    written again, and its lock taken meanwhile): give a copy of a folder that must not change."""
    state = load_state(folder)
    done = state.get("done") or {}
    checks = {**done.get("checks", {}), **state.get("certified", {})}
    if name not in done.get("proofs", []) or name not in checks:
        raise OxoError(f"the run in {folder} holds no finished certificate {name}")
    check = checks[name]
    geometry = state_geometry(state)
    run = ProofRun(geometry, Path(folder), RunOptions(workers=1))
    run.open()
    try:
        top, sections = run.trees[check["attacker"]].assemble(
            1 if check["guarantee"] == "win" else -1
        )
        guarantee = check["guarantee"]
        rules = certificate_rules(geometry, guarantee)
        merge_certificate(target, geometry, check["side"], guarantee, top, sections, rules=rules)
    finally:
        run.close()


#: How many moves in a run's settled positions count as openings (:func:`proved_openings`): the
#: attacker's first move and the defender's reply, the positions a run's status lists.
OPENING_PLIES = 2


@dataclass(frozen=True)
class ProvedOpening:
    """A position a few moves into a board that a run has settled before the board itself: one of
    :func:`proved_openings`. ``position`` is a status string, in the orientation the run's tree
    holds it (reached from the empty board by the moves :attr:`moves`); ``side`` wins
    (``guarantee`` ``"win"``) or does not lose (``"no-loss"``) the game that goes on from it."""

    attacker: Question
    key: int
    position: str
    side: Side
    guarantee: Guarantee

    @property
    def moves(self) -> tuple[int, ...]:
        """Moves from the empty board to the position: X's and O's cells in turn, each side's in
        reading order. Any such order reaches a position that is not over (no line is completed
        on the way); with gravity, one of at most two marks, as an opening has (X's first mark is
        on the bottom)."""
        x, o = status_masks(self.position)
        xs, os_ = mask_cells(x), mask_cells(o)
        return tuple(cell for pair in zip(xs, (*os_, -1)) for cell in pair if cell >= 0)

    def certificate_name(self, geometry: Geometry) -> str:
        """The file name of its certificate: the board's (:func:`certificate_name`) with the moves
        (``4x4x4x4-k4-x-win-after-0-3.jsonl.gz``)."""
        whole = certificate_name(geometry, self.side, self.guarantee)
        moves = "-".join(map(str, self.moves))
        return whole.replace(".jsonl.gz", f"-after-{moves}.jsonl.gz")


def _kept_trees(folder: str | os.PathLike[str]) -> tuple[Geometry, dict[Question, Tree]]:
    """The board and the questions' trees of the run kept in ``folder``, read as they were last
    saved, without opening the run (no lock, nothing written: a run may be going on)."""
    state = load_state(folder)
    geometry = state_geometry(state)
    questions: dict[Question, Any] = state["questions"]
    trees = {
        attacker: Tree.from_dict(geometry, attacker, Path(folder) / "run", data)
        for attacker, data in questions.items()
    }
    return geometry, trees


def proved_openings(
    folder: str | os.PathLike[str], plies: int = OPENING_PLIES, every: bool = False
) -> list[ProvedOpening]:
    """The positions at most ``plies`` moves in that the run kept in ``folder`` has settled, one
    per class, each the first settled on its way from the empty board (a settled position's
    replies are not listed again; with ``every`` they are, where the tree splits them: on
    4x4x4x4, O's replies to X on 0 proved one by one before X on 0 was), for each question the
    run asked. Read from the state as last saved (:func:`_kept_trees`). Below a position a job
    settled alone (the root of a board proved by one search, say) the tree's values stop:
    nothing there is listed."""
    _, trees = _kept_trees(folder)
    found: list[ProvedOpening] = []
    for attacker, tree in trees.items():
        values = tree.values()
        seen: set[int] = set()
        level = [tree.root]
        for _ in range(plies):
            level = [child for key in level for _, child in tree.nodes[key].children or []]
            following = []
            for key in level:
                if key in seen:
                    continue
                seen.add(key)
                value = values.get(key, 0)
                if not value or every:
                    following.append(key)
                if not value:
                    continue
                node = tree.nodes[key]
                side: Side = attacker if value == 1 else other(attacker)
                guarantee: Guarantee = "win" if value == 1 else "no-loss"
                position = status_string(node.x, node.o, tree.geometry.size)
                found.append(ProvedOpening(attacker, key, position, side, guarantee))
            level = following
    return found


def write_opening_certificate(
    folder: str | os.PathLike[str], opening: ProvedOpening, target: str | os.PathLike[str]
) -> int:
    """Merge the certificate of a settled opening (one of :func:`proved_openings` of the run kept
    in ``folder``) into ``target``, atomically, with the opening's position as its ``start``;
    return its number of entries. Not checked here (:func:`oxo.proofs.certificate
    .verify_certificate` does). The run is read, not opened: it may be going on."""
    geometry, trees = _kept_trees(folder)
    tree = trees[opening.attacker]
    target_value = 1 if opening.side == opening.attacker else -1
    top, sections = tree.assemble(target_value, start=opening.key)
    return merge_certificate(
        target,
        geometry,
        opening.side,
        opening.guarantee,
        top,
        sections,
        rules=certificate_rules(geometry, opening.guarantee),
        start=opening.position,
    )


def run_proof(
    geometry: Geometry,
    folder: str | os.PathLike[str],
    *,
    seconds: float | None = None,
    options: RunOptions | None = None,
    on_status: StatusReporter | None = None,
) -> ProofResult:
    """Prove the value of ``geometry``'s empty board in a run kept in ``folder`` (a new or empty
    folder, or one holding a run of the same board, which continues), for at most ``seconds``.

    The value is ``"unknown"`` when the time runs out first: the folder keeps everything, and the
    same call continues. Ctrl-C stops every worker and leaves the folder to continue from."""
    from oxo.counting.budget import MemoryGuard, default_memory_limit

    options = options or RunOptions()
    run = ProofRun(geometry, Path(folder), options)
    run.open()
    report = on_status or (lambda text: None)
    limit = options.memory or default_memory_limit()
    with _guard(MemoryGuard, limit, options):
        try:
            value, spent = run.prove(seconds, report)
        finally:
            run.close()
    return run.result(value, spent, seconds)


@contextmanager
def _guard(guard: Any, limit: int, options: RunOptions) -> Iterator[None]:
    """The memory guard over this process and its local workers (not over a remote cluster's)."""
    if options.scheduler not in (None, "local"):
        yield
        return
    with guard(
        limit,
        what="the proof run",
        advice="the run's folder keeps what it found; run again with more --memory, fewer "
        "--workers or a smaller --slice",
    ):
        yield


# -- status ----------------------------------------------------------------------------------------


def state_geometry(state: dict[str, Any]) -> Geometry:
    """The board of a run's state (as :func:`load_state` reads it)."""
    return Geometry(tuple(state["dims"]), state["k"], bool(state.get("gravity", False)))


def load_state(folder: str | os.PathLike[str]) -> dict[str, Any]:
    """The state of the run in ``folder``; raises :class:`OxoError` when there is none."""
    path = Path(folder) / "run" / "state.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise OxoError(f"no proof run in {str(folder)!r} (no {path})") from None
    except (OSError, ValueError) as error:
        raise OxoError(f"the proof run's state {path} cannot be read: {error}") from None
    if not isinstance(data, dict) or data.get("format") != RUN_FORMAT:
        raise OxoError(f"{path} is not the state of an oxo proof run")
    return data


def running_process(folder: str | os.PathLike[str]) -> int | None:
    """The process id of the run going on in ``folder`` on this machine, or None."""
    try:
        holder = json.loads((Path(folder) / "run" / "lock").read_text(encoding="utf-8"))
        pid = int(holder["pid"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if holder.get("host") != socket.gethostname():
        return pid  # another machine's run: assume it is alive
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        return pid
    return pid


@dataclass(frozen=True)
class QuestionStatus:
    """How far one question of a run is: its answer, the root's moves and the jobs."""

    attacker: str
    value: int
    first_moves: dict[str, list[int]]
    settled_jobs: int
    proved: int
    disproved: int
    split: int
    open_jobs: int
    running: int
    positions: int
    cpu: float
    wall: float
    jobs: int
    replies: tuple[Replies, ...] = ()
    #: The fewest open jobs whose values would prove the answer, and disprove it
    #: (:meth:`Tree.fewest_leaves`).
    fewest_to_prove: int = 0
    fewest_to_disprove: int = 0
    #: What the jobs of each depth did (:meth:`Tree.depths`).
    depths: tuple[DepthFigures, ...] = ()
    #: The jobs that tried first a move that won their siblings (``Job.hints``), and those whose
    #: try won the position.
    hinted: int = 0
    hints_won: int = 0
    #: The fewest open jobs that would prove the answer along the moves the run follows
    #: (:meth:`Tree.followed_to_prove`).
    followed_to_prove: int = 0

    def to_dict(self) -> dict[str, object]:
        answer = {1: "wins", -1: "cannot win", 0: "unknown"}[self.value]
        return {
            "question": f"can {self.attacker} force a line?",
            "answer": answer,
            "first_moves": {
                f"{self.attacker} wins after": self.first_moves["win"],
                f"{self.attacker} does not win after": self.first_moves["no win"],
                "open": self.first_moves["open"],
            },
            "jobs_run": self.jobs,
            "settled": self.settled_jobs,
            "proved": self.proved,
            "disproved": self.disproved,
            "split": self.split,
            "open": self.open_jobs,
            "fewest_to_prove": self.fewest_to_prove,
            "fewest_to_disprove": self.fewest_to_disprove,
            "followed_to_prove": None if self.followed_to_prove >= INF else self.followed_to_prove,
            "running": self.running,
            "positions": self.positions,
            "cpu_seconds": round(self.cpu, 1),
            "wall_seconds": round(self.wall, 1),
            "hinted_jobs": self.hinted,
            "hints_won": self.hints_won,
            "depths": [
                {
                    "moves": d.moves,
                    "searched": d.searched,
                    "settled_by_search": d.settled,
                    "split_at_once": d.split_at_once,
                }
                for d in self.depths
            ],
            "replies": [
                {
                    "first_move": r.move,
                    f"{self.attacker} wins after": r.win,
                    f"{self.attacker} does not win after": r.no_win,
                    "open": r.open,
                    "open_jobs_below": r.open_jobs,
                    "worked_on_now": r.now,
                    "waits": [wait.to_dict() for wait in r.waits],
                }
                for r in self.replies
            ],
        }


@dataclass(frozen=True)
class RunStatus:
    """What a run's folder says: the board, each question, the rate, an estimate, the certificates."""

    folder: str
    board: str
    k: int
    active: int | None
    questions: tuple[QuestionStatus, ...]
    value: str | None
    proofs: tuple[str, ...]
    sessions: int
    rate: float | None
    estimate: float | None
    workers: int
    checks: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: The time all the open jobs would take at the same cost (``estimate`` is for the fewest).
    estimate_all: float | None = None
    #: The board has gravity (Score Four).
    gravity: bool = False
    #: Per question, the bytes of the whole search's table kept for the next session
    #: (:meth:`ProofRun.table_file`).
    kept_tables: dict[str, int] = field(default_factory=dict)
    #: Per question, the positions whose last job kept its table for the jobs to come (its own
    #: next one, or its children's first ones), and their bytes in all (:meth:`ProofRun.job_table`).
    leaf_tables: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: What ``rate`` is measured over: None for the last ten minutes, else the words for the
    #: session it comes from (when no job ended lately: a job's positions count when it ends).
    rate_over: str | None = None
    #: The latest session that counted the positions it settled (the earlier ones did not):
    #: (its number, its seconds, positions settled), the running one's so far.
    pace: tuple[int, float, int] | None = None
    #: Every session that counted the positions it settled, together: (the first's number, the
    #: last's, their seconds, positions settled), for the estimate at that pace.
    paces: tuple[int, int, float, int] | None = None

    @property
    def geometry(self) -> Geometry:
        """The run's board."""
        return Geometry.parse(f"{self.board},k={self.k}{',gravity' if self.gravity else ''}")

    @property
    def won_by(self) -> str | None:
        """The attacker of a question the run answered yes (that side wins the board, its
        certificate written and checked once the value is recorded), None while none is."""
        return next((q.attacker for q in self.questions if q.value == 1), None)

    @property
    def followed_left(self) -> int:
        """The positions still to settle along the moves the run follows, at least: every open
        question's :meth:`Tree.followed_to_prove` (INF or more where one cannot be proved)."""
        return sum(q.followed_to_prove for q in self.questions if not q.value)

    def pace_estimate(self) -> float | None:
        """Seconds of run time for :attr:`followed_left` at the pace of the counted sessions;
        None before a counted session settled one, or once nothing is open."""
        if self.paces is None or self.value is not None or not self.paces[3]:
            return None
        left = self.followed_left
        if not 0 < left < INF:
            return None
        return left * self.paces[2] / self.paces[3]

    def to_dict(self) -> dict[str, object]:
        return {
            "folder": self.folder,
            "board": self.board,
            "k": self.k,
            **({"gravity": True} if self.gravity else {}),
            "running_now": self.active is not None,
            "process": self.active,
            "value": self.value,
            "proofs": list(self.proofs),
            "sessions": self.sessions,
            "positions_per_second": None if self.rate is None else round(self.rate, 1),
            "positions_per_second_over": self.rate_over or "the last ten minutes",
            "estimate_seconds": None if self.estimate is None else round(self.estimate, 1),
            "estimate_all_open_seconds": (
                None if self.estimate_all is None else round(self.estimate_all, 1)
            ),
            "workers": self.workers,
            "certificates": {name: self.checks.get(name, {}) for name in self.proofs},
            "questions": [question.to_dict() for question in self.questions],
            "kept_table_bytes": dict(self.kept_tables),
            "leaf_tables": {
                attacker: {"leaves": leaves, "bytes": size}
                for attacker, (leaves, size) in self.leaf_tables.items()
            },
            "pace": (
                None
                if self.pace is None
                else dict(zip(("session", "seconds", "settled"), self.pace, strict=True))
            ),
            "paces": (
                None
                if self.paces is None
                else dict(
                    zip(
                        ("first_session", "last_session", "seconds", "settled"),
                        self.paces,
                        strict=True,
                    )
                )
            ),
            "pace_estimate_seconds": (
                None if (estimate := self.pace_estimate()) is None else round(estimate, 1)
            ),
        }

    def lines(self) -> list[str]:
        """The status in words, a line each."""
        going = (
            f"going on now (process {self.active})" if self.active is not None else "not running"
        )
        board = f"{self.board} board, k={self.k}{', gravity' if self.gravity else ''}"
        geometry = self.geometry
        out = [f"{board}: the proof run in {self.folder}, {going}"]
        if self.value is not None:
            words = {"x": "X wins", "o": "O wins", "draw": "draw"}[self.value]
            out.append(f"value: {words} with best play")
        for q in self.questions:
            side = q.attacker.upper()
            answer = {1: "yes", -1: "no", 0: "not settled yet"}[q.value]
            out.append(f"can {side} force a line? {answer}")
            moves = q.first_moves
            if any(moves.values()):

                def cells(found: list[int]) -> str:
                    return ", ".join(map(geometry.move_name, found)) if found else "none"

                numbered = "" if not geometry.gravity else f", {geometry.moves_numbered}"
                out.append(
                    f"  X's first moves (one of each set alike by symmetry{numbered}): {side} "
                    "wins after "
                    f"{cells(moves['win'])}; does not win after {cells(moves['no win'])}; open: "
                    f"{cells(moves['open'])}"
                )
            for r in q.replies:
                total = r.win + r.no_win + r.open
                out.append(
                    f"    O's {total} replies to {geometry.mark_words('X', r.move)}: {side} wins "
                    f"after {r.win:,}, "
                    f"does not win after {r.no_win:,}, {r.open:,} open ({r.open_jobs:,} open jobs "
                    f"below){'' if r.now else '; waits its turn'}"
                )
                out.extend(
                    f"      {'  ' * depth}{words}"
                    for wait in r.waits
                    for depth, words in wait.lines(q.attacker, geometry=geometry)
                )
            out.append(
                f"  jobs: {q.jobs:,} run; {q.settled_jobs:,} positions settled ({q.proved:,} "
                f"proved, {q.disproved:,} disproved), {q.split:,} split; {q.open_jobs:,} open, "
                f"{q.running:,} running"
            )
            if q.depths:
                out.append(
                    "  by depth (moves on the board): " + "; ".join(map(_depth_words, q.depths))
                )
            if q.hinted:
                out.append(
                    f"  {q.hinted:,} jobs tried first the move that won a sibling (another reply "
                    f"to the same position); in {q.hints_won:,} it won"
                )
            if not q.value:
                out.append(
                    f"  still to settle: at least {q.fewest_to_prove:,} open "
                    f"{'job' if q.fewest_to_prove == 1 else 'jobs'} to prove that "
                    f"{side} can (one move wherever {side} is to move, every reply of the other "
                    f"side), {q.fewest_to_disprove:,} to prove that it cannot"
                )
                if q.followed_to_prove < INF:
                    out.append(
                        f"  on the moves the run follows: at least {q.followed_to_prove:,} open "
                        f"{'job' if q.followed_to_prove == 1 else 'jobs'} to prove that {side} can"
                    )
            out.append(
                f"  {q.positions:,} positions searched in {duration(q.cpu)} of worker time "
                f"({duration(q.wall)} of run time)"
            )
            if not q.value and q.attacker in self.kept_tables:
                out.append(
                    "  the search of the whole board kept its table "
                    f"({self.kept_tables[q.attacker] / 1e6:,.0f} MB): the next session goes on "
                    "from it"
                )
            if not q.value and q.attacker in self.leaf_tables:
                leaves, held = self.leaf_tables[q.attacker]
                out.append(
                    f"  {counted(leaves, 'position')} kept "
                    f"{'their' if leaves != 1 else 'its'} last job's table for the jobs to come "
                    f"({held / 1e6:,.0f} MB)"
                )
        if self.rate is not None and self.value is None:
            out.append(
                f"rate: {self.rate:,.0f} positions per second "
                + (f"over {self.rate_over}" if self.rate_over else "lately")
            )
        if self.pace is not None and self.value is None:
            number, seconds, settled = self.pace
            when = (
                "this session so far"
                if self.active is not None and number == self.sessions
                else f"session {number}"
            )
            each = f", one each {duration(seconds / settled)}" if settled else ""
            out.append(
                f"pace: {counted(settled, 'position') if settled else 'no position'} settled in "
                f"{when} ({duration(seconds)}{each})"
            )
        estimate = self.pace_estimate()
        if estimate is not None and self.paces is not None:
            first, last, seconds, settled = self.paces
            out.append(
                f"  at the pace of {sessions_span(first, last)} ({counted(settled, 'position')} "
                f"settled in {duration(seconds)}), those {self.followed_left:,} take about "
                f"{duration(estimate)} of run "
                "time, more where a job splits a position into more"
            )
        if self.estimate is not None:
            every = (
                ""
                if self.estimate_all is None
                else f"; {duration(self.estimate_all)} to run every open job"
            )
            out.append(
                f"estimate: at least {duration(self.estimate)} more on "
                f"{counted(self.workers, 'worker')} (the fewest jobs that settle it along the moves "
                "the run follows, at the mean cost of a job so far"
                f"{every}; a job that does not settle splits into more)"
            )
        elif self.value is None and not any(q.settled_jobs for q in self.questions):
            jobs = sum(q.jobs for q in self.questions)
            out.append(
                f"estimate: none yet: none of the {jobs:,} jobs run has settled its position "
                "(each split into more), so the cost of settling one is not known"
                if jobs
                else "estimate: none yet: no job has run"
            )
        for name in self.proofs:
            check = self.checks.get(name, {})
            size = (
                f" ({check.get('positions_checked', 0):,} positions checked, "
                f"{check.get('strategy_moves', 0):,} moves of {str(check.get('side', '')).upper()}, "
                f"{check.get('entries', 0):,} entries)"
                if check
                else ""
            )
            out.append(f"certificate: {Path(self.folder) / name}{size}")
            if "sha256" in check:
                out.append(
                    f"  {int(check['bytes']):,} bytes, SHA-256 {check['sha256']} (of the text it "
                    f"holds: {check.get('sha256_uncompressed', '?')})"
                )
            if not (Path(self.folder) / name).exists():
                size = f"{int(check.get('bytes', 0)) / 1e6:,.0f} MB"
                checking = duration(int(check.get("positions_checked", 0)) / CHECK_RATE)
                out.append(
                    f"  not in the folder now; the run's command writes it again ({size}, the"
                )
                out.append(
                    f"  same bytes: minutes to merge, about {checking} to check), on a copy:"
                )
                shape = self.board
                board = (
                    shape if self.k == min(map(int, shape.split("x"))) else f"{shape} --k {self.k}"
                )
                out.append(f"  cp -r {self.folder} COPY && oxo solve {board} --proof COPY")
        out.append(f"sessions: {self.sessions}")
        return out


def table_path(state_dir: Path, attacker: str) -> Path:
    """The file of a question's whole search's kept table in a run's state folder."""
    return state_dir / f"whole-search-{attacker}.npz"


def job_estimates(
    open_jobs: int, fewest: int, cpu: float, searches: int, workers: int, settled: int
) -> tuple[float | None, float | None]:
    """Seconds for the ``fewest`` open jobs that settle a run, and for all ``open_jobs``, on
    ``workers`` at the mean processor time of its ``searches`` so far; (None, None) while no
    job has settled its position (``settled``): then every job split, and the mean cost of a
    job says nothing of what settling one costs."""
    if not (open_jobs and searches and settled):
        return None, None
    per_job = (cpu / searches) / max(1, workers)
    return fewest * per_job, open_jobs * per_job


def run_status(folder: str | os.PathLike[str]) -> RunStatus:
    """How far the run in ``folder`` is (it may be going on: the state is read as last written)."""
    state = load_state(folder)
    geometry = state_geometry(state)
    dims = geometry.shape
    state_dir = Path(folder) / "run"
    active = running_process(folder)
    running: dict[str, int] = {}
    for attacker, _, _ in state.get("running", []) if active is not None else []:
        running[attacker] = running.get(attacker, 0) + 1
    questions = []
    open_total = 0
    fewest_total = 0
    cpu_total = 0.0
    searches = 0
    for attacker, data in state["questions"].items():
        tree = Tree.from_dict(geometry, attacker, state_dir, data)
        values = tree.values()
        settled = [node for node in tree.nodes.values() if node.value]
        open_jobs = tree.leaves(values)
        to_prove, to_disprove = tree.fewest_leaves(values)
        followed = tree.followed_to_prove(values)
        questions.append(
            QuestionStatus(
                attacker,
                values[tree.root],
                tree.first_moves(values),
                len(settled),
                sum(1 for node in settled if node.value > 0),
                sum(1 for node in settled if node.value < 0),
                sum(1 for node in tree.nodes.values() if node.children is not None),
                open_jobs,
                running.get(attacker, 0),
                tree.searched,
                tree.cpu,
                tree.wall,
                tree.jobs,
                tuple(tree.replies(values)) if not values[tree.root] else (),
                to_prove,
                to_disprove,
                tuple(tree.depths()),
                tree.statistics.get("hinted_jobs", 0),
                tree.statistics.get("hints_won", 0),
                followed,
            )
        )
        if not values[tree.root]:
            open_total += open_jobs
            # what the run follows: its other moves' single jobs would say "at least 1"
            fewest_total += min(followed, to_disprove)
        cpu_total += tree.cpu
        searches += tree.searches
    sessions = state.get("sessions", [])
    workers = int(sessions[-1]["workers"]) if sessions else 1
    rate = _rate(state.get("samples", []))
    rate_over = None
    if not rate:  # no job ended lately (a long slice): the latest session in which some did
        for number, session in reversed(list(enumerate(sessions, start=1))):
            if session.get("nodes") and session.get("seconds"):
                rate = session["nodes"] / session["seconds"]
                rate_over = (
                    f"session {number} ({session['nodes']:,} positions in "
                    f"{duration(session['seconds'])}; a job's positions count when it ends)"
                )
                break
    counted_sessions = [
        (number, float(session["seconds"]), int(session["settled"]))
        for number, session in enumerate(sessions, start=1)
        if "settled" in session and session.get("seconds")
    ]
    pace = counted_sessions[-1] if counted_sessions else None
    paces = (
        (
            counted_sessions[0][0],
            counted_sessions[-1][0],
            sum(seconds for _, seconds, _ in counted_sessions),
            sum(settled for _, _, settled in counted_sessions),
        )
        if counted_sessions
        else None
    )
    done = state.get("done") or {}
    # Before the value is known, the certificate of a question answered "no" (written at once).
    checks = done.get("checks") or state.get("certified", {})
    estimate, estimate_all = job_estimates(
        open_total,
        fewest_total,
        cpu_total,
        searches,
        workers,
        sum(q.settled_jobs for q in questions),
    )
    return RunStatus(
        str(folder),
        "x".join(map(str, dims)),
        int(state["k"]),
        active,
        tuple(questions),
        done.get("value"),
        tuple(done.get("proofs", checks)),
        len(sessions),
        rate,
        estimate,
        workers,
        dict(checks),
        estimate_all,
        geometry.gravity,
        {
            attacker: path.stat().st_size
            for attacker in ("x", "o")
            if (path := table_path(state_dir, attacker)).exists()
        },
        _leaf_tables(state_dir),
        rate_over,
        pace,
        paces,
    )


def _leaf_tables(state_dir: Path) -> dict[str, tuple[int, int]]:
    """Per question, how many positions kept their last job's table in the folder, and the
    bytes."""
    found: dict[str, tuple[int, int]] = {}
    for path in state_dir.glob("job-*.npz"):
        attacker = path.name[len("job-")]
        leaves, size = found.get(attacker, (0, 0))
        try:
            found[attacker] = (leaves + 1, size + path.stat().st_size)
        except FileNotFoundError:  # deleted by the run since the listing
            continue
    return found


def _rate(samples: list[list[float]]) -> float | None:
    """Positions per second over the last ten minutes of the latest session's samples."""
    if len(samples) < 2:
        return None
    session = samples[-1][2]
    recent = [s for s in samples if s[2] == session and s[0] >= samples[-1][0] - 600]
    if len(recent) < 2 or recent[-1][0] <= recent[0][0]:
        return None
    return (recent[-1][1] - recent[0][1]) / (recent[-1][0] - recent[0][0])
