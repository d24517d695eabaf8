// oxo serve: the page only draws what the JSON API returns; every rule and every number comes from Python.
"use strict";

const $ = (id) => document.getElementById(id);
let pending = 0;

function busy(delta) {
  pending += delta;
  document.body.dataset.busy = pending > 0 ? "1" : "0";
}

// -- requests: JSON both ways; long ones show what is being computed and can be cancelled -------------

const Long = { controller: null, timer: null };

function showLong(what) {
  const begun = performance.now();
  const tick = () => {
    const seconds = ((performance.now() - begun) / 1000).toFixed(1);
    $("busy-text").textContent = `${what}… ${seconds} s`;
  };
  tick();
  Long.timer = setInterval(tick, 100);
  $("busy").hidden = false;
}

function hideLong() {
  clearInterval(Long.timer);
  Long.timer = null;
  Long.controller = null;
  $("busy").hidden = true;
}

async function api(method, url, body, what) {
  busy(+1);
  const controller = new AbortController();
  // Requests that may take long say what they compute after a moment, with a button to cancel them.
  let shown = false;
  const delay = what ? setTimeout(() => { shown = true; Long.controller = controller; showLong(what); }, 300) : null;
  try {
    const response = await fetch(url, {
      method,
      headers: method === "POST" ? { "Content-Type": "application/json" } : {},
      body: method === "POST" ? JSON.stringify(body || {}) : undefined,
      signal: controller.signal,
    });
    let data;
    try { data = await response.json(); } catch (e) { data = { error: response.statusText }; }
    if (!response.ok) {
      const error = new Error(data.error || response.statusText);
      error.status = response.status;
      throw error;
    }
    return data;
  } catch (error) {
    if (error.name === "AbortError") {
      const stopped = new Error(`Cancelled. The server finishes the work and keeps the answer, so asking again later is quick.`);
      stopped.cancelled = true;
      throw stopped;
    }
    throw error;
  } finally {
    if (delay) clearTimeout(delay);
    if (shown) hideLong();
    busy(-1);
  }
}

$("busy-cancel").addEventListener("click", () => { if (Long.controller) Long.controller.abort(); });

function showError(error) {
  const box = $("error");
  if (!error) { box.hidden = true; box.textContent = ""; return; }
  box.textContent = error.message || String(error);
  box.hidden = false;
}

function load(key) {
  try { return JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { return null; }
}
function save(key, value) { localStorage.setItem(key, JSON.stringify(value)); }

// The part of the address after '#': a tab and its settings, e.g. #play?board=3x3&x=human&o=best&moves=4,0
function readHash() {
  const [tab, query] = (location.hash || "").slice(1).split("?");
  return { tab, params: new URLSearchParams(query || "") };
}
function writeHash(tab, params) {
  history.replaceState(null, "", `#${tab}${params ? "?" + params : ""}`);
}

// -- tabs -------------------------------------------------------------------------------------------

const started = {};
let currentTab = null;
function showTab(name) {
  if (!["play", "explore"].includes(name)) name = "play";
  currentTab = name;
  for (const button of document.querySelectorAll("nav button")) {
    const selected = button.dataset.tab === name;
    button.setAttribute("aria-selected", String(selected));
    button.tabIndex = selected ? 0 : -1;
  }
  for (const panel of document.querySelectorAll(".panel")) panel.hidden = panel.dataset.panel !== name;
  localStorage.setItem("oxo.tab", name);
  if (!started[name]) {
    started[name] = true;
    ({ play: Play.start, explore: Explore.start })[name]().catch(showError);
  } else if (name === "play" && Play.state) {
    Play.share(false);
  } else if (name === "explore" && Explore.data) {
    Explore.share(false);
  }
}
for (const button of document.querySelectorAll("nav button")) {
  button.addEventListener("click", () => { showError(null); writeHash(button.dataset.tab); showTab(button.dataset.tab); });
  button.addEventListener("keydown", (event) => {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    const other = button.dataset.tab === "play" ? "explore" : "play";
    writeHash(other); showTab(other); $(`tab-${other}`).focus();
  });
}

function fillSelect(select, options, value, label = (option) => (option === "human" ? "person" : option)) {
  select.innerHTML = "";
  for (const option of options) {
    const element = document.createElement("option");
    element.value = typeof option === "string" ? option : option.id;
    element.textContent = label(option);
    select.appendChild(element);
  }
  if (value !== undefined && [...select.options].some((o) => o.value === value)) select.value = value;
}

let info = null;
// A board of the menu: one the page offers, or one oxo has proved (the menu lists those apart).
function findBoard(boardId) {
  return info.boards.find((b) => b.id === boardId) || (info.proved || []).find((b) => b.id === boardId);
}

// The boards oxo has proved that the menu does not offer above, in a group of their own: on them
// the computer at perfect plays the moves of oxo's certificates ("play against the proof").
function addProvedBoards(select, meta) {
  const offered = new Set(meta.boards.map((b) => b.id));
  const group = document.createElement("optgroup");
  group.label = "Proved by oxo: play against the proof";
  for (const board of meta.proved || []) {
    if (offered.has(board.id)) continue;
    const option = document.createElement("option");
    option.value = board.id;
    option.textContent = board.label;
    group.appendChild(option);
  }
  if (group.children.length) select.appendChild(group);
}

async function getInfo() {
  if (!info) {
    info = await api("GET", "/api/info");
    showLevels(info);
  }
  return info;
}

// The levels in the library's words, and the limits with the server's numbers.
function showLevels(meta) {
  const list = $("levels-list");
  list.innerHTML = "";
  for (const row of meta.level_words) {
    const term = document.createElement("dt");
    term.textContent = row.level;
    const text = document.createElement("dd");
    text.textContent = row.words;
    list.append(term, text);
  }
  const limits = meta.limits;
  const lines = [
    `Thinking time per move: ${meta.seconds.min} to ${meta.seconds.max} s (default ${meta.seconds.default} s).`,
    `Move values and proven hints on boards of at most ${limits.values_cells} cells.`,
    `Boards of up to ${limits.play_cells} cells can be played; the explorer draws boards of up to ${limits.explore_cells} cells.`,
    `The server keeps up to ${limits.games} games; one without a move for ${limits.idle_minutes} minutes, or finished for ${limits.finished_minutes}, is put away (this page rebuilds it from its moves).`,
    `A request waits at most ${limits.request_seconds} s for an answer; longer work carries on and its answer is kept.`,
  ];
  const items = $("limits-list");
  items.innerHTML = "";
  for (const line of lines) {
    const item = document.createElement("li");
    item.textContent = line;
    items.appendChild(item);
  }
  const proved = (meta.proved || []).map((b) => `${b.label.replace(/ \(proved\)$/, "")}`);
  $("proved-list").textContent = proved.length ? `On these boards perfect (and best) play the moves of oxo's ` +
    `certificates, files that prove the value and that a program without oxo can check: ${proved.join("; ")}.` : "";
  const note = meta.strength;
  $("levels-note").textContent = note.anchor ? `Elo points, ${note.anchor} = 0: a level 200 points above another is expected to ` +
    `score ${Math.round(note.expected_at_200 * 100)} % against it (a draw counting half). Measured by a round robin of the levels ` +
    `with hard thinking ${note.seconds} s a move (medium a tenth); here they think the time set above, and are stronger ` +
    `with more. "≥" means at least (the level scored every point against those below it). A board the round robin ` +
    `did not play has no figure, and best was not rated apart from the levels it plays as.` : "";
}

// How each level plays on the board chosen in the form, and how strong it measured there; the
// level menus carry the same figure.
function showBoardLevels(boardId) {
  const board = findBoard(boardId);
  const body = $("levels-table").querySelector("tbody");
  body.innerHTML = "";
  $("levels-board").textContent = board ? `The levels on ${board.label}` : `The levels on ${boardId}`;
  const rows = board ? board.levels : [];
  for (const row of rows) {
    const line = document.createElement("tr");
    const name = document.createElement("th");
    name.scope = "row";
    name.textContent = row.level;
    const plays = document.createElement("td");
    plays.textContent = row.refused ? `not from the start: ${row.refused}` : row.plays;
    if (row.refused) plays.className = "refused";
    const elo = document.createElement("td");
    elo.textContent = row.strength ? row.strength.text : "—";
    line.append(name, plays, elo);
    body.appendChild(line);
  }
  $("levels-table").hidden = !rows.length;
  const byLevel = Object.fromEntries(rows.map((row) => [row.level, row]));
  for (const select of [$("play-x"), $("play-o")]) {
    for (const option of select.options) {
      option.textContent = levelLabel(option.value, board, byLevel[option.value]);
    }
  }
}

// "hard · Elo ≈ 550" on a board where hard was measured; "perfect (out of reach from the start)".
function levelLabel(level, board, row) {
  if (level === "human") return "person";
  if (!board) return level;
  if (!row) return `${level} (not on this game)`;
  if (row.refused) return `${level} (out of reach from the start)`;
  if (row.plays.startsWith(`${level}: oxo's proof`)) return `${level} · plays oxo's proof`;
  return row.strength ? `${level} · Elo ${row.strength.text}` : level;
}

// -- boards: names, focus and keys for every cell -------------------------------------------------------

const MARKS = { "0": "empty", "1": "X", "2": "O" };

// Give each cell of a drawn board a role, a name ("row 2, column 3, empty") and keyboard access.
function decorateBoard(container, describe, activate) {
  const svg = container.querySelector("svg");
  if (!svg) return;
  svg.setAttribute("role", "group");
  // Cells are rects (classic, mega, ultimate); on a gravity board (Connect Four) each whole column,
  // full or open, is one button, so the arrows go exactly one column at a time.
  const columns = [...svg.querySelectorAll("rect[data-column]")];
  const cells = columns.length ? columns : [...svg.querySelectorAll("rect[data-cell], rect[data-move]")];
  let focused = null;
  for (const cell of cells) {
    const label = describe(cell);
    if (!label) continue;
    cell.setAttribute("role", "button");
    cell.setAttribute("aria-label", label);
    cell.setAttribute("tabindex", "-1");
    if (!focused && (cell.classList.contains("legal") || cell.classList.contains("open"))) focused = cell;
  }
  const named = cells.filter((cell) => cell.hasAttribute("aria-label"));
  if (!named.length) return;
  (container._focusKey && named.find((cell) => cellKey(cell) === container._focusKey) || focused || named[0]).setAttribute("tabindex", "0");
  const moveTo = (cell, next) => {
    if (!next || next === cell) return;
    cell.setAttribute("tabindex", "-1");
    next.setAttribute("tabindex", "0");
    next.focus();
    container._focusKey = cellKey(next);
  };
  svg.onkeydown = (event) => {
    const cell = event.target.closest("[role=button]");
    if (!cell) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      container._focusKey = cellKey(cell);
      activate(cell);
      return;
    }
    if (columns.length) {  // one column left or right, or to either end; up and down do nothing
      const at = named.indexOf(cell);
      const next = { ArrowLeft: named[at - 1], ArrowRight: named[at + 1], Home: named[0], End: named[named.length - 1] }[event.key];
      if (!(event.key in { ArrowLeft: 1, ArrowRight: 1, Home: 1, End: 1, ArrowUp: 1, ArrowDown: 1 })) return;
      event.preventDefault();
      moveTo(cell, next);
      return;
    }
    const step = { ArrowRight: [0, 1], ArrowLeft: [0, -1], ArrowDown: [1, 0], ArrowUp: [-1, 0] }[event.key];
    if (!step) return;
    event.preventDefault();
    const box = cell.getBBox();
    const [dy, dx] = step;
    // The nearest named cell in that direction, on the same row or column; else the nearest in that
    // direction at all.
    let best = null, bestDistance = Infinity, nearest = null, nearestDistance = Infinity;
    for (const other of named) {
      if (other === cell) continue;
      const b = other.getBBox();
      const ddx = b.x - box.x, ddy = b.y - box.y;
      const along = dx ? ddx * dx : ddy * dy;
      const across = Math.abs(dx ? ddy : ddx);
      if (along <= 0) continue;
      if (across <= box.height / 2 && along < bestDistance) { best = other; bestDistance = along; }
      if (along + across < nearestDistance) { nearest = other; nearestDistance = along + across; }
    }
    moveTo(cell, best || nearest);
  };
}

// "4x4, 3 in a row": a classic board in words, from its shape and k.
function boardWords(shape, k) { return `${shape.join("x")}, ${k} in a row`; }

// A game on a board the form does not list (opened from a link) gets an option of its own.
function boardOption(state) {
  const select = $("play-board");
  if ([...select.options].some((option) => option.value === state.board)) return;
  const option = document.createElement("option");
  option.value = state.board;
  option.textContent = state.shape ? `${boardWords(state.shape, state.k)} (from a link)` : state.board;
  select.appendChild(option);
}

// A cell's key, kept across redraws to keep the focus on it (a column of a gravity board: its
// column, whether its drop hole or the whole column was clicked).
function cellKey(cell) {
  if (cell.dataset.cell !== undefined) return `c${cell.dataset.cell}`;
  if (cell.dataset.column !== undefined || cell.tagName.toLowerCase() === "circle") return `k${cell.dataset.column || cell.dataset.move}`;
  return `m${cell.dataset.move}`;
}

// Said by screen readers (a live region): each move, the person's and the computer's, with the state.
function announce(text) {
  if (text) $("play-announce").textContent = text;
}

function restoreFocus(container) {
  if (!container._focusKey || !container._hadFocus) return;
  const cell = container.querySelector("[role=button][tabindex='0']");
  if (cell) cell.focus();
}

function classicPlace(shape, index) {
  const cols = shape[shape.length - 1], rows = shape[shape.length - 2];
  const layer = shape.length === 3 ? Math.floor(index / (rows * cols)) : null;
  const within = index % (rows * cols);
  const where = `row ${Math.floor(within / cols) + 1}, column ${(within % cols) + 1}`;
  return layer === null ? where : `layer ${layer + 1}, ${where}`;
}

function classicCellName(shape, index, mark) { return `${classicPlace(shape, index)}, ${mark}`; }

// -- play: one game API for every board, classic and mega ---------------------------------------------

const Play = {
  state: null,
  thinking: false,
  paused: false,
  values: {},
  generation: 0,  // counts New games asked for: an answer about an older game is not drawn
  query() { return $("play-values").checked ? "?values=1" : ""; },

  // The body that starts a game of the chosen board (an entry of /api/info's boards). A board the
  // form does not list (a link naming 3x5) is asked for as it is: the server plays any classic board
  // it can read, or answers 400 naming the board, which is shown (never another board instead).
  setup(boardId, players, seconds) {
    const board = findBoard(boardId);
    if (!board) return boardId ? { kind: "classic", board: boardId, players, seconds } : { players, seconds };
    const body = { kind: board.kind, players, seconds };
    if (board.kind === "classic") Object.assign(body, { board: board.board, k: board.k });
    return body;
  },

  async start() {
    const meta = await getInfo();
    const { tab, params } = readHash();
    const linked = tab === "play" && params.has("board") ? Play.fromLink(params, meta) : null;
    let saved = load("oxo.game");
    fillSelect($("play-board"), meta.boards, undefined, (board) => board.label);
    addProvedBoards($("play-board"), meta);
    const wanted = (linked || saved || {}).board || "3x3";
    if ([...$("play-board").options].some((o) => o.value === wanted)) $("play-board").value = wanted;
    const chosen = linked || saved;
    fillSelect($("play-x"), meta.players, chosen ? chosen.players.x : "human");
    fillSelect($("play-o"), meta.players, chosen ? chosen.players.o : meta.default_level);
    Object.assign($("play-seconds"), { min: meta.seconds.min, max: meta.seconds.max, value: chosen ? chosen.seconds : meta.seconds.default });
    showBoardLevels($("play-board").value);
    $("play-values").checked = Boolean(saved && saved.values);
    if (linked && !(saved && Play.same(saved, linked))) saved = { ...linked, id: null };
    if (saved) {
      try {
        if (!saved.id) throw Object.assign(new Error("no id"), { status: 404 });
        Play.show(await api("GET", `/api/games/${saved.id}${Play.query()}`, null, "Loading the game"));
        return;
      } catch (error) {
        if (error.status !== 404) throw error;
        // The server forgot the game (it restarted), or it came from a link: rebuild it from its moves.
        const body = { ...Play.setup(saved.board, saved.players, saved.seconds), moves: saved.moves };
        try {
          Play.show(await api("POST", `/api/games${Play.query()}`, body, "Setting up the game"));
        } catch (refused) {
          Play.clear("No game: change the settings above and press New game.");
          throw linked ? Play.linkError(linked, refused) : refused;
        }
        return;
      }
    }
    await Play.newGame();
  },

  // The game a link names (#play?board=3x3&x=human&o=best&seconds=1&moves=4,0).
  fromLink(params, meta) {
    return {
      board: params.get("board"),
      players: { x: params.get("x") || "human", o: params.get("o") || meta.default_level },
      seconds: Number(params.get("seconds") || meta.seconds.default),
      // cell IDs on classic boards; other games (mega, ...) write moves as text
      moves: (params.get("moves") || "").split(",").filter(Boolean).map((m) => (Play.classic(params.get("board")) ? Number(m) : m)),
    };
  },

  // A game link opened in this tab while it shows another game (pasted into the address bar).
  async openLink(params) {
    const linked = Play.fromLink(params, await getInfo());
    if (Play.state && Play.same(Play.state, linked)) return;
    showError(null);
    try {
      await Play.newGame({ ...Play.setup(linked.board, linked.players, linked.seconds), moves: linked.moves });
    } catch (error) {
      throw Play.linkError(linked, error);
    }
  },

  // A link the server refused, said as such (a board the page does not offer, a bad move, ...).
  linkError(linked, error) {
    const offered = Boolean(findBoard(linked.board));
    const what = offered ? "The link's game" : `The link's board ${JSON.stringify(linked.board)} (not one this page offers)`;
    return Object.assign(new Error(`${what} cannot be played: ${error.message}`), { status: error.status });
  },

  classic(boardId) {
    const board = findBoard(boardId);
    return !board || board.kind === "classic";
  },

  same(a, b) {
    return a.board === b.board && a.players.x === b.players.x && a.players.o === b.players.o &&
      JSON.stringify(a.moves) === JSON.stringify(b.moves);
  },

  async newGame(body) {
    // The form is read before the computer's search is stopped: the stopped search answers with the
    // old game, which must neither be drawn nor put the old settings back into the form.
    body = body || Play.setup($("play-board").value, { x: $("play-x").value, o: $("play-o").value }, Number($("play-seconds").value));
    Play.generation += 1;
    await Play.stop();
    Play.paused = false;
    try {
      Play.show(await api("POST", `/api/games${Play.query()}`, body, "Setting up the game"));
    } catch (error) {
      Play.clear("No game: change the settings above and press New game.");
      throw error;
    }
  },

  // After a refused New game nothing of the old game stays playable: the board is cleared.
  clear(message) {
    Play.state = null;
    Play.paused = false;
    $("play-svg").innerHTML = "";
    $("play-status").textContent = message;
    $("play-status").className = "status";
    for (const id of ["play-values-label", "play-legend", "play-values-list", "play-again", "play-explore", "play-hint-text", "play-paused", "mega-facts", "mega-hint", "play-link-row", "proof"]) $(id).hidden = true;
    Proof.stopPolling();
    $("play-levels").textContent = "—";
    $("play-search").textContent = "—";
    $("play-moves").textContent = "—";
    localStorage.removeItem("oxo.game");
  },

  show(state) {
    const before = Play.state;
    Play.state = state;
    announce(Play.announcement(before, state));
    const mega = state.kind === "mega";
    const board = $("play-svg");
    board._hadFocus = board.contains(document.activeElement);
    save("oxo.game", { id: state.id, board: state.board, players: state.players, seconds: state.seconds, moves: state.moves, values: $("play-values").checked });
    if (currentTab === "play") Play.share(false);
    boardOption(state);
    $("play-board").value = state.board;
    $("play-x").value = state.players.x;
    $("play-o").value = state.players.o;
    showBoardLevels(state.board);
    $("play-seconds").value = state.seconds;
    board.innerHTML = state.svg;
    board.dataset.kind = state.kind;
    board.dataset.over = state.over ? "1" : "0";
    Play.values = state.values || {};
    decorateBoard(board, (cell) => Play.cellName(cell), (cell) => Play.activate(cell));
    restoreFocus(board);
    $("play-status").textContent = state.result;
    $("play-status").className = "status" + (state.over ? " over " + Play.verdict(state) : "");
    $("play-values-label").hidden = !state.values_available;
    const showValues = Boolean(state.values_available && $("play-values").checked && state.values);
    $("play-legend").hidden = !showValues;
    Play.listValues(showValues ? state.values : null);
    const levels = Object.entries(state.playing).map(([side, text]) => `${side.toUpperCase()}: ${text}`);
    $("play-levels").textContent = levels.join("; ") || "two people";
    $("play-search").textContent = describeSearch(state.last_search);
    $("play-moves").textContent = state.moves.length ? state.moves.join(" ") : "—";
    $("play-again").hidden = !state.over;
    $("play-explore").hidden = !(state.kind === "classic" && state.explorable);
    $("play-hint").disabled = state.over || state.computer_to_move;
    $("play-hint-text").hidden = true;
    Proof.show(state);
    for (const id of ["mega-rules", "mega-facts", "mega-hint"]) $(id).hidden = !mega;
    $("uttt-rules").hidden = state.kind !== "uttt";
    if (state.kind === "uttt") Play.loadRules("uttt").catch(showError);
    if (mega) {
      Play.loadRules("mega").catch(showError);
      const string = state.string;
      $("mega-string").textContent = `${string.number} (length ${string.length}): ${string.played.join(" ") || "no move yet"}` +
        (string.abnormal ? " — abnormal" : "") + (state.rule8 ? " — the next move may reuse a cell position" : "");
      $("mega-legal").textContent = state.over ? "none" : `${state.legal.length}`;
      const covered = Object.entries(state.covered).map(([grid, owner]) => `grid ${grid}: ${owner.toUpperCase()}`);
      $("mega-covered").textContent = covered.join(", ") || "none";
      $("mega-abnormal").textContent = state.abnormal_strings.join(", ") || "none";
    }
    $("play-paused").hidden = !(Play.paused && state.computer_to_move && !state.over);
    if ((state.computer_to_move || state.thinking) && !state.over && !Play.paused) {
      setTimeout(() => Play.computer().catch(showError), 150);
    }
  },

  // Whether the people playing won (green), lost (red) or drew (plain).
  verdict(state) {
    if (!state.winner) return "draw";
    const people = ["x", "o"].filter((side) => state.players[side] === "human");
    if (people.length !== 1) return "draw";
    return people[0] === state.winner ? "win" : "loss";
  },

  // What a screen reader hears after a change: the move just played (one more than before) and the
  // state of the game; nothing when the game shown did not change.
  announcement(before, state) {
    const moves = JSON.stringify(state.moves);
    if (before && before.id === state.id && JSON.stringify(before.moves) === moves) return null;
    const continues = before && JSON.stringify(before.moves) === JSON.stringify(state.moves.slice(0, before.moves.length));
    let said = "";
    if (continues && state.moves.length === before.moves.length + 1) said = `${Play.moveWords(state)}. `;
    else if (before && before.id === state.id && state.moves.length < before.moves.length) said = `Taken back: ${state.moves.length} moves played now. `;
    else if (!state.moves.length) said = "New game. ";
    return `${said}${state.result}.`;
  },

  // The last move in words: "O (hard) dropped a mark in column 3, row 1 from the bottom".
  moveWords(state) {
    const index = state.moves.length - 1;
    const move = String(state.moves[index]);
    const side = index % 2 === 0 ? "x" : "o";
    const who = side.toUpperCase() + (state.players[side] === "human" ? "" : ` (${state.players[side]})`);
    if (state.columns) {
      const column = state.columns.find((c) => c.column === move);
      return `${who} dropped a mark in column ${move}, row ${column.marks.length} from the bottom`;
    }
    if (state.kind === "classic") return `${who} played ${classicPlace(state.shape, Number(move))} (cell ${move})`;
    return `${who} played grid ${move[0]}, cell ${move[1]}`;
  },

  cellName(cell) {
    const state = Play.state;
    if (state.columns) {  // a gravity board: the column's marks from the bottom, and where a mark would land
      const column = state.columns.find((c) => c.column === cell.dataset.column);
      if (!column) return null;
      const marks = column.marks.map((mark) => mark.toUpperCase());
      const contents = marks.length ? `${marks.join(", ")} from the bottom` : "empty";
      const next = column.open ? `, drop a mark here: it lands in row ${marks.length + 1}` : column.full ? ", full" : "";
      return `column ${column.column}: ${contents}${next}`;
    }
    if (state.kind !== "classic") {
      const move = cell.dataset.move;
      const index = state.moves.indexOf(move);
      const mark = index < 0 ? "empty" : index % 2 === 0 ? "X" : "O";
      const legal = cell.classList.contains("legal") ? "" : ", not playable now";
      return `grid ${move[0]}, cell ${move[1]}, ${mark}${legal}`;
    }
    const index = Number(cell.dataset.cell);
    const value = Play.values[String(index)];
    return classicCellName(state.shape, index, MARKS[state.position[index]]) + (value ? `, ${value.text}` : "");
  },

  activate(cell) {
    showError(null);
    if (cell.dataset.column !== undefined) {  // a whole column of a gravity board
      if (cell.classList.contains("open")) Play.click(cell.dataset.column).catch(showError);
      else announce(Play.state.over ? `The game is over. ${Play.state.result}.` : `Column ${cell.dataset.column} is full: choose another column.`);
      return;
    }
    if (cell.dataset.cell !== undefined) Play.click(Number(cell.dataset.cell)).catch(showError);
    else if (cell.classList.contains("legal")) Play.click(cell.dataset.move).catch(showError);
  },

  listValues(values) {
    const list = $("play-values-list");
    list.innerHTML = "";
    list.hidden = !values;
    if (!values) return;
    const rank = { win: 0, draw: 1, loss: 2 };
    const entries = Object.entries(values).sort(([, a], [, b]) =>
      rank[a.value] - rank[b.value] || (a.value === "win" ? a.plies - b.plies : b.plies - a.plies));
    for (const [cell, value] of entries) {
      const item = document.createElement("li");
      item.className = `v-${value.value}`;
      item.textContent = `cell ${cell}: ${value.text}`;
      list.appendChild(item);
    }
  },

  // The rules of mega or ultimate tic-tac-toe in the words of `oxo mega rules` / `oxo uttt rules`.
  rules: {},
  async loadRules(kind) {
    if (Play.rules[kind]) return;
    Play.rules[kind] = true;
    const data = await api("GET", `/api/rules/${kind}`);
    const box = $(`${kind}-rules-text`);
    box.innerHTML = "";
    for (const section of data.sections) {
      const title = document.createElement("h3");
      title.textContent = section.title;
      const text = document.createElement(section.preformatted ? "pre" : "p");
      text.textContent = section.text;
      if (section.preformatted) text.tabIndex = 0; // a wide example scrolls sideways on a phone: keys reach it
      box.append(title, text);
    }
  },

  // The computer's move; `seconds`, when given, is a new thinking time for it and the later ones.
  async computer(seconds) {
    const state = Play.state;
    if (!state || !(state.computer_to_move || state.thinking) || state.over || Play.thinking || Play.paused) return;
    Play.thinking = true;
    const generation = Play.generation;
    const who = `${state.to_move.toUpperCase()} (${state.players[state.to_move]})`;
    // The server says where the move is (every second, while it is under way): waiting for one of the
    // two workers (busy with other moves), waiting for a worker process to start (after Stop or New
    // game, when no spare is ready), or searching. The clock counts the search only.
    let seen = state.thinking ? state : null;
    let begun = null;
    const follow = (answer) => {
      seen = answer;
      if (answer.thinking_phase === "searching") {
        const since = performance.now() - 1000 * (answer.search_seconds || 0);
        begun = begun === null ? since : Math.min(begun, since);
      }
    };
    if (seen) follow(seen);
    const tick = () => {
      if (seen && seen.thinking_note && seen.thinking_phase !== "searching") {
        $("play-thinking-text").textContent = `${who} ${seen.thinking_note}…`;
      } else if (begun === null) {
        $("play-thinking-text").textContent = `${who} is thinking…`;
      } else {
        $("play-thinking-text").textContent = `${who} is thinking… ${((performance.now() - begun) / 1000).toFixed(1)} s`;
      }
    };
    let asking = false;
    const ask = async () => {
      if (asking) return;
      asking = true;
      try {
        const answer = await api("GET", `/api/games/${state.id}`);
        if (answer.thinking) follow(answer);
      } catch (error) { /* the move's own answer reports any problem */ }
      finally { asking = false; tick(); }
    };
    tick();
    const timer = setInterval(tick, 100);
    const poll = setInterval(ask, 1000);
    const first = setTimeout(ask, 200);
    $("play-thinking").hidden = false;
    try {
      // A move that takes longer than a request may wait (a certificate prepared first, minutes
      // on a big one) answers 503 and carries on on the server: asked again, it is joined.
      let answer = null;
      while (answer === null) {
        try {
          answer = await Play.call("POST", "ai", seconds === undefined ? null : { seconds }, state);
        } catch (error) {
          if (error.status !== 503 || Play.generation !== generation || Play.paused || !Play.state || Play.state.id !== state.id) throw error;
        }
      }
      if (Play.state && Play.state.id === answer.id && Play.generation === generation) {
        if (answer.cancelled) Play.paused = true;
        Play.thinking = false;
        Play.show(answer);
      }
    } finally {
      clearInterval(timer);
      clearInterval(poll);
      clearTimeout(first);
      Play.thinking = false;
      $("play-thinking").hidden = true;
      // A new game started meanwhile may be waiting for its computer's first move.
      const now = Play.state;
      if (now && now.id !== state.id && now.computer_to_move && !now.over && !Play.paused) {
        setTimeout(() => Play.computer().catch(showError), 0);
      }
    }
  },

  // Stop the computer's search of the current game (the server ends it at once).
  async stop() {
    const state = Play.state;
    if (!state || !Play.thinking) return;
    Play.paused = true;
    await Play.call("POST", "cancel", null, state);
  },

  // A person's move, sent with the number of moves this page saw: when another tab or window moved
  // in the game meanwhile, the server refuses it (409) and the page shows the game as it stands.
  async click(move) {
    const state = Play.state;
    if (!state || state.over || state.computer_to_move || Play.thinking) return;
    await Play.unlessMovedOn(state, async () =>
      Play.show(await Play.call("POST", "move", { move, ply: state.moves.length }, state, "Working out the values of the moves")));
  },

  async unlessMovedOn(state, send) {
    try {
      await send();
    } catch (error) {
      if (error.status !== 409) throw error;
      const fresh = await Play.call("GET", "", null, state);
      if (Play.state === state) Play.show(fresh);
      throw new Error("This game moved on in another tab or window: the board now shows where it stands, and nothing was played here.");
    }
  },

  async hint() {
    const state = Play.state;
    if (!state || state.over || state.computer_to_move || Play.thinking) return;
    const generation = Play.generation;
    const hint = await Play.call("POST", "hint", {}, state, "Looking for a good move", false);
    // Only for the position it was asked for (the game may have been rebuilt meanwhile: same moves).
    if (!Play.state || Play.generation !== generation || Play.state.moves.join() !== state.moves.join()) return;
    $("play-hint-text").textContent = `Hint: ${hint.text}`;
    $("play-hint-text").hidden = false;
    const selector = state.kind !== "classic" ? `[data-move='${hint.move}']` : `rect[data-cell='${hint.move}']`;
    const cell = $("play-svg").querySelector(selector);
    if (cell) {
      cell.classList.add("hinted");
      // on a gravity board the drop hole is outlined and its column (the button) named so
      const named = $("play-svg").querySelector(`rect[data-column='${hint.move}']`) || cell;
      named.setAttribute("aria-label", named.getAttribute("aria-label") + ", suggested");
    }
  },

  // A request about the game `state` ("move", "undo", "ai", "hint", "cancel", or "" to read it). When
  // the server has put the game away (404: it restarted, the game was idle for hours, or 500 newer
  // games came), the game is rebuilt from the moves this page holds and the request is sent again.
  async call(method, action, body, state, what, values = true) {
    const path = (id) => `/api/games/${id}${action ? "/" + action : ""}${values ? Play.query() : ""}`;
    try {
      return await api(method, path(state.id), body, what);
    } catch (error) {
      if (error.status !== 404) throw error;
      const rebuilt = await Play.rebuild(state);
      if (action === "cancel") return rebuilt;  // a rebuilt game has no search to stop
      return await api(method, path(rebuilt.id), body, what);
    }
  },

  // The same game again on the server, from its board, players, time, seed and moves (checked by the
  // server when they were played); it becomes the game shown when the old one still is.
  async rebuild(state) {
    const body = { kind: state.kind, players: state.players, seconds: state.seconds, moves: state.moves };
    if (state.kind === "classic") body.board = state.board;
    if (state.seed !== null && state.seed !== undefined) body.seed = state.seed;
    const rebuilt = await api("POST", `/api/games${Play.query()}`, body, "Setting the game up again");
    if (Play.state === state || (Play.state && Play.state.id === state.id)) {
      Play.state = rebuilt;
      save("oxo.game", { id: rebuilt.id, board: rebuilt.board, players: rebuilt.players, seconds: rebuilt.seconds, moves: rebuilt.moves, values: $("play-values").checked });
    }
    return rebuilt;
  },

  // The address of this game: board, players, thinking time and moves (the page rebuilds it from them).
  link() {
    const state = Play.state;
    const params = new URLSearchParams({ board: state.board, x: state.players.x, o: state.players.o, seconds: state.seconds });
    if (state.moves.length) params.set("moves", state.moves.join(","));
    return params.toString();
  },

  share(reveal) {
    if (!Play.state) return;
    writeHash("play", Play.link());
    if (reveal) {
      $("play-link").value = location.href;
      $("play-link-row").hidden = false;
      $("play-link").select();
      if (navigator.clipboard) navigator.clipboard.writeText(location.href).catch(() => {});
    }
  },
};

// -- the proof of a board oxo has proved: what is proved, the certificates, play against it -----------

const Proof = {
  board: null,   // the page's id of the board shown
  poll: null,

  show(state) {
    const preparing = Proof.showOpen(state.open, state);
    const proof = state.proof;
    $("proof").hidden = !proof;
    if (!proof) {
      Proof.board = null;
      if (preparing) Proof.startPolling(); else Proof.stopPolling();
      return;
    }
    Proof.board = state.board;
    Proof.draw(proof, state);
  },

  // A board no one has published the value of, that oxo's long runs are proving: how far its run is,
  // and perfect play from the openings it has settled. Whether one of them is being prepared.
  showOpen(open, state) {
    $("open-proof").hidden = !open;
    if (!open) return false;
    const settled = open.questions.reduce((sum, q) => sum + q.proved + q.disproved, 0);
    const jobs = open.questions.reduce((sum, q) => sum + q.open_jobs, 0);
    const won = open.questions.length === 1 && settled && !open.questions[0].disproved ?
      `, all won by ${open.questions[0].attacker.toUpperCase()}` : "";
    const sessions = `${open.sessions} session${open.sessions === 1 ? "" : "s"}`;
    // A run that settled its board before its certificate is checked (OpenQuestion.answer).
    const at = (open.answers || []).findIndex((answer) => answer !== 0);
    const head = at >= 0 ?
      "No one has published the value of this board. oxo's long run of it has settled it: " +
      `${open.questions[at].attacker.toUpperCase()} ${open.answers[at] === 1 ? "wins" : "cannot force a line"}` +
      "; its certificate is still to be merged from the run's pieces and checked (the command " +
      "below), and until then oxo does not call it proved. " :
      "No one has published the value of this board, and oxo has not proved it yet. ";
    $("open-proof-text").textContent = head +
      `oxo's long run of it has settled ${settled.toLocaleString("en")} positions${won} in ${sessions}, the last on ` +
      `${open.date}; ${jobs.toLocaleString("en")} jobs are open.` + Proof.openingWords(open);
    $("open-proof-command").textContent = open.command;
    return Proof.showOpenPlay(open, state, $("open-proof-play"));
  },

  // How many settled openings perfect can play from here, and in a game the computer plays at
  // perfect: the opening its position is in, ready, being prepared (how far), or a button to prepare
  // it. Whether a preparation runs.
  showOpenPlay(open, state, box) {
    box.innerHTML = "";
    const here = open.openings_here || [];
    box.hidden = !here.length;
    if (!here.length) return false;
    const indexed = here.filter((o) => o.indexed).length;
    const count = document.createElement("p");
    count.textContent = `Indexed on this machine: ${indexed} of their ${here.length} certificates.`;
    box.appendChild(count);
    const perfect = ["x", "o"].filter((side) => state && state.players && state.players[side] === "perfect");
    const under = open.under || [];
    const opening = here.find((o) => under.includes(o.name) && perfect.includes(o.side));
    if (!opening) return here.some((o) => o.preparing && o.preparing.running);
    const S = opening.side.toUpperCase();
    const job = opening.preparing;
    const where = document.createElement("p");
    const named = `the opening ${opening.words}`;
    if (opening.indexed) {
      where.textContent = `This game is in ${named}, settled: perfect plays ${S}'s moves from its certificate, ${opening.file}.`;
    } else if (job && job.running) {
      const bar = document.createElement("progress");
      bar.max = 1;
      bar.value = job.fraction;
      bar.setAttribute("aria-label", `Preparing the certificate of ${named}`);
      const left = job.seconds_left === null ? "" : `, about ${Proof.duration(job.seconds_left)} left`;
      where.textContent = `This game is in ${named}, settled. Preparing its certificate (once on this machine): ` +
        `${job.status}, ${Math.round(100 * job.fraction)} %${left}. Until it is ready the level perfect plays hard as ${S}. `;
      where.appendChild(bar);
    } else if (!opening.here) {
      where.textContent = `This game is in ${named}, settled, but its certificate ${opening.file} is not on this machine ` +
        `(it ships with oxo's source repository, results/certificates): perfect plays hard as ${S}.`;
    } else {
      const failed = job && job.failed ? `The last preparation failed: ${job.failed}. ` : "";
      where.textContent = `${failed}This game is in ${named}, settled: perfect plays ${S}'s moves from its certificate once ` +
        `it is prepared: checked, and its moves put in a table, once on this machine (about ` +
        `${Proof.duration(opening.index_seconds)}; or on the command line: ${open.index_command} --opening ${opening.name}). ` +
        "Until then it plays hard. ";
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = `Prepare the certificate of ${opening.words}`;
      button.addEventListener("click", () => { showError(null); Proof.prepareOpening(opening).catch(showError); });
      where.appendChild(document.createElement("br"));
      where.appendChild(button);
    }
    box.appendChild(where);
    return here.some((o) => o.preparing && o.preparing.running);
  },

  async prepareOpening(opening) {
    const state = Play.state;
    if (!state || !(state.open || (state.proof && state.proof.openings))) return;
    const board = findBoard(state.board);
    const body = { board: board ? board.board : state.board, opening: opening.name };
    if (board && board.kind === "classic") body.k = board.k;
    const answer = await api("POST", "/api/proofs/prepare", body);
    if (!Play.state || Play.state.id !== state.id) return;
    if (answer.open && Play.state.open) {
      answer.open.under = Play.state.open.under;  // the same position: the game's answer found them
      Play.state.open = answer.open;
      if (Proof.showOpen(answer.open, Play.state)) Proof.startPolling();
    } else if (answer.proof && answer.proof.openings && Play.state.proof && Play.state.proof.openings) {
      answer.proof.openings.under = Play.state.proof.openings.under;
      Play.state.proof = answer.proof;
      Proof.draw(answer.proof, Play.state);
    }
    announce(`Preparing the certificate of the opening ${opening.words}.`);
  },

  // The openings a run has settled, in the server's words ("X wins after X on 0 and O on 3, 15 or 63").
  openingWords(open, lead = "Proved so far") {
    const words = open.openings_words || [];
    if (!words.length) return "";
    const total = (open.openings_here || open.openings).length;
    const count = total === 1 ? "one opening" : `${total} openings`;
    return ` ${lead}, each with a certificate anyone can check (cells numbered from 0): ${count}, ${words.join("; ")}.` +
      ` The level perfect plays from them once they are indexed (${open.index_command}).`;
  },

  draw(proof, state) {
    const words = { x: "X wins", o: "O wins", draw: "a draw" };
    const agrees = proof.published === "none" ? "Before it" : proof.published === proof.value ? "The same value was published" : `Published as ${words[proof.published] || proof.published}`;
    const ending = proof.ending_ply ? `, the game ending at move ${proof.ending_ply}` : "";
    $("proof-value").textContent = `${proof.page.label.replace(/: .*$/, "")}: ${words[proof.value]} with best play${ending}, ` +
      `as oxo proved it. ${agrees}: ${proof.source}.`;
    const sources = (proof.references || []).map(([number, text]) => `[${number}] ${text}`);
    $("proof-sources").textContent = sources.join(" ");
    $("proof-sources").hidden = !sources.length;
    const list = $("proof-sides");
    list.innerHTML = "";
    let running = false;
    for (const [side, data] of Object.entries(proof.sides)) {
      const item = document.createElement("li");
      const S = side.toUpperCase();
      const who = state.players[side] === "human" ? "" : ` The computer plays ${S} at ${state.players[side]}.`;
      const head = document.createElement("p");
      head.textContent = `${S}'s certificate proves ${data.claim}: ${data.file}.${who}`;
      item.appendChild(head);
      const where = document.createElement("p");
      const preparing = data.preparing;
      // Ready first: the index is there a moment before the preparation's process says it ended.
      if (data.ready) {
        where.textContent = data.indexed === null ? `Ready: perfect plays ${S} with its exact solver, as the certificate proves.` :
          `Ready: perfect plays ${S}'s moves from it.`;
      } else if (preparing && preparing.running) {
        running = true;
        const bar = document.createElement("progress");
        bar.max = 1;
        bar.value = preparing.fraction;
        bar.setAttribute("aria-label", `Preparing ${S}'s certificate`);
        const left = preparing.seconds_left === null ? "" : `, about ${Proof.duration(preparing.seconds_left)} left`;
        where.textContent = `Preparing it (once on this machine): ${preparing.status}, ${Math.round(100 * preparing.fraction)} %${left}. ` +
          `Until it is ready the level perfect plays hard as ${S}. `;
        where.appendChild(bar);
      } else if (data.missing) {
        where.textContent = proof.openings ?
          `Not on this machine: ${data.missing} Until it is, perfect plays ${S} from the openings below.` :
          `Not on this machine, so perfect plays hard as ${S}: ${data.missing}`;
      } else {
        const failed = preparing && preparing.failed ? `The last preparation failed: ${preparing.failed}. ` : "";
        where.textContent = `${failed}Not prepared yet: perfect plays hard as ${S} until its certificate is prepared: checked, and its moves put in a table, once on this machine ` +
          `(about ${Proof.duration(data.make_seconds || 0)}; or on the command line: ${data.make}). `;
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = `Prepare ${S}'s certificate`;
        button.addEventListener("click", () => { showError(null); Proof.prepare(side).catch(showError); });
        where.appendChild(document.createElement("br"));
        where.appendChild(button);
      }
      item.appendChild(where);
      if (data.check && data.check.length) {
        const check = document.createElement("p");
        check.className = "hint";
        check.append("Check it yourself: ");
        data.check.forEach((command, index) => {
          if (index) check.append(" or ");
          const code = document.createElement("code");
          code.textContent = command;
          check.appendChild(code);
        });
        item.appendChild(check);
      }
      list.appendChild(item);
    }
    // Play against the proof: the computer takes a side a certificate covers, at perfect.
    const play = $("proof-play");
    play.innerHTML = "";
    for (const [side, data] of Object.entries(proof.sides)) {
      const other = side === "x" ? "o" : "x";
      if (state.players[side] === "perfect" && state.players[other] === "human") continue;
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = `Play ${other.toUpperCase()} against the proof`;
      button.title = `a new game: you play ${other.toUpperCase()}, the computer ${side.toUpperCase()} at perfect (${data.claim})`;
      button.addEventListener("click", () => {
        showError(null);
        Play.paused = false;
        const players = { [side]: "perfect", [other]: "human" };
        Play.newGame(Play.setup(Proof.board, players, Number($("play-seconds").value))).catch(showError);
      });
      play.appendChild(button);
    }
    play.hidden = !play.children.length;
    // A proved board whose certificate is not here (too big to ship): perfect plays from the
    // openings its run settled first, each with a certificate of its own.
    const openings = proof.openings;
    $("proof-openings").hidden = !openings;
    if (openings) {
      $("proof-openings").textContent = "Until its certificate is rebuilt here, perfect plays from the openings " +
        "its run settled first, where a game reaches one, and hard elsewhere." + Proof.openingWords(openings, "They are");
      if (Proof.showOpenPlay(openings, state, $("proof-openings-play"))) running = true;
    } else {
      $("proof-openings-play").hidden = true;
    }
    if (running) Proof.startPolling(); else Proof.stopPolling();
  },

  duration(seconds) {
    if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
    if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
    return `${(seconds / 3600).toFixed(1)} h`;
  },

  async prepare(side) {
    const state = Play.state;
    if (!state || !state.proof) return;
    const board = findBoard(state.board);
    const body = board && board.kind === "classic" ? { board: board.board, k: board.k, side } : { board: state.board, side };
    const answer = await api("POST", "/api/proofs/prepare", body);
    if (Play.state && Play.state.id === state.id) {
      Play.state.proof = answer.proof;
      Proof.draw(answer.proof, Play.state);
      announce(`Preparing ${side.toUpperCase()}'s certificate.`);
    }
  },

  // While a preparation runs, its progress every second (the board's proof alone: cheap).
  startPolling() {
    if (Proof.poll) return;
    Proof.poll = setInterval(async () => {
      const state = Play.state;
      if (!state || !(state.proof || state.open)) { Proof.stopPolling(); return; }
      const board = findBoard(state.board);
      const query = board && board.kind === "classic" ? `board=${encodeURIComponent(board.board)}&k=${board.k}` : `board=${encodeURIComponent(state.board)}`;
      try {
        const answer = await api("GET", `/api/proof?${query}`);
        if (Play.state && Play.state.id === state.id && answer.proof) {
          const before = Object.values(Play.state.proof.sides).filter((s) => s.ready).length;
          if (answer.proof.openings && Play.state.proof.openings) {
            answer.proof.openings.under = Play.state.proof.openings.under;  // the game's position's
          }
          Play.state.proof = answer.proof;
          Proof.draw(answer.proof, Play.state);
          const after = Object.values(answer.proof.sides).filter((s) => s.ready).length;
          if (after > before) announce("A certificate is ready: perfect plays from it from the next move on.");
        }
        if (Play.state && Play.state.id === state.id && answer.open && Play.state.open) {
          const indexed = (open) => (open.openings_here || []).filter((o) => o.indexed).length;
          const before = indexed(Play.state.open);
          answer.open.under = Play.state.open.under;  // the same position: the game's answer found them
          Play.state.open = answer.open;
          const running = Proof.showOpen(answer.open, Play.state);
          if (indexed(answer.open) > before) announce("A certificate is ready: perfect plays from it from the next move on.");
          if (!running && !Play.state.proof) Proof.stopPolling();
        }
      } catch (error) { /* shown at the next answer of the game */ }
    }, 1000);
  },

  stopPolling() {
    clearInterval(Proof.poll);
    Proof.poll = null;
  },
};

function describeSearch(search) {
  if (!search) return "—";
  const level = search.engine === search.level ? search.level : `${search.level}: ${search.engine}`;
  const side = search.side.toUpperCase();
  const parts = [`${side} played ${search.move} (${level})`];
  if (search.nodes) parts.push(`${search.nodes.toLocaleString()} positions searched` + (search.depth ? `, ${search.depth} plies deep` : ""));
  parts.push(`${search.seconds} s` + (search.budget ? ` of ${Number(search.budget.toFixed(3))} s` : ""));
  if (search.value) parts.push(search.value === "draw" ? "proven draw" : `proven win for ${search.value.toUpperCase()}`);
  else if (search.expectation !== null && search.expectation !== undefined) {
    parts.push(`${side} expects to score ${Math.round(search.expectation * 100)}% (a win counts 1, a draw ½)`);
  }
  return parts.join(", ");
}

$("play-board").addEventListener("change", () => showBoardLevels($("play-board").value));
$("play-form").addEventListener("submit", (event) => { event.preventDefault(); showError(null); Play.newGame().catch(showError); });
$("play-undo").addEventListener("click", async () => {
  if (!Play.state) return;
  showError(null);
  try {
    await Play.stop();
    Play.paused = false;
    const state = Play.state;
    await Play.unlessMovedOn(state, async () =>
      Play.show(await Play.call("POST", "undo", { ply: state.moves.length }, state)));
  } catch (error) { showError(error); }
});
$("play-hint").addEventListener("click", () => { showError(null); Play.hint().catch(showError); });
$("play-cancel").addEventListener("click", () => { showError(null); Play.stop().catch(showError); });
$("play-go").addEventListener("click", () => {
  showError(null);
  Play.paused = false;
  $("play-paused").hidden = true;
  // A thinking time changed while the search was stopped applies from this move on.
  const seconds = Number($("play-seconds").value);
  Play.computer(Play.state && seconds !== Play.state.seconds ? seconds : undefined).catch((error) => {
    Play.paused = true;  // the button stays, to try again (with a thinking time the server takes)
    $("play-paused").hidden = false;
    showError(error);
  });
});
$("play-again").addEventListener("click", () => {
  const state = Play.state;
  if (!state) return;
  showError(null);
  Play.paused = false;
  Play.newGame(Play.setup(state.board, state.players, state.seconds)).catch(showError);
});
$("play-share").addEventListener("click", () => Play.share(true));
$("play-explore").addEventListener("click", () => {
  const state = Play.state;
  if (!state || state.kind !== "classic") return;
  showError(null);
  $("explore-position").value = state.position;
  Explore.fill(state.board.split(",")[0], state.k);
  writeHash("explore");
  if (started.explore) { showTab("explore"); Explore.run().catch(showError); }
  else { Explore.fromGame = true; showTab("explore"); }
});
$("play-values").addEventListener("change", () => {
  showError(null);
  if (Play.state) Play.call("GET", "", null, Play.state, "Working out the values of the moves").then(Play.show).catch(showError);
});
$("play-svg").addEventListener("click", (event) => {
  // Classic cells carry data-cell (a cell ID); mega's legal cells carry data-move (GC text); a gravity
  // board's open columns carry data-move on their drop hole and data-column on the whole column.
  const cell = event.target.closest("[data-cell]") || event.target.closest("[data-move]") || event.target.closest("[data-column]");
  if (cell) { $("play-svg")._focusKey = cellKey(cell); Play.activate(cell); }
});
document.addEventListener("keydown", (event) => {
  // On 3x3, the keys 1..9 play the cells in reading order (when no text field has the focus).
  const state = Play.state;
  if (currentTab !== "play" || !state || state.board !== "3x3" || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest("input, select, textarea")) return;
  if (/^[1-9]$/.test(event.key)) { showError(null); Play.click(Number(event.key) - 1).catch(showError); }
});

// -- explorer ---------------------------------------------------------------------------------------

const Explore = {
  data: null,
  countedBoard: null,
  fromGame: false,

  async start() {
    const { tab, params } = readHash();
    const saved = load("oxo.explore");
    if (tab === "explore" && params.has("position")) {
      $("explore-position").value = params.get("position");
      $("explore-board").value = params.get("board") || "";
      $("explore-k").value = params.get("k") || "";
    } else if (saved && !Explore.fromGame) {
      $("explore-position").value = saved.position;
      $("explore-board").value = saved.board || "";
      $("explore-k").value = saved.k || "";
    }
    await Explore.run();
  },

  // A position link opened in this tab (pasted into the address bar): its board and k, not the last ones.
  async openLink(params) {
    const data = Explore.data;
    const position = params.get("position");
    if (data && data.position === position && data.board.split(",")[0] === params.get("board") && String(data.k) === params.get("k")) return;
    showError(null);
    $("explore-position").value = position;
    $("explore-board").value = params.get("board") || "";
    $("explore-k").value = params.get("k") || "";
    await Explore.run();
  },

  // Board and k filled in by the page (a click, a game, the empty board): a position typed next gets its
  // board guessed again, unless the person typed a board or k themselves.
  filled: false,
  fill(board, k) {
    $("explore-board").value = board;
    $("explore-k").value = k;
    Explore.filled = true;
  },

  params(position) {
    const params = new URLSearchParams({ position });
    const board = $("explore-board").value.trim();
    const k = $("explore-k").value.trim();
    if (board) params.set("board", board);
    if (k) params.set("k", k);
    return params;
  },

  async run() {
    const position = $("explore-position").value.trim();
    save("oxo.explore", { position, board: $("explore-board").value.trim(), k: $("explore-k").value.trim() });
    const data = await api("GET", "/api/explore?" + Explore.params(position), null, "Exploring the position (solving the board the first time)");
    Explore.show(data);
    const key = `${data.board}`;
    if (Explore.countedBoard !== key) {
      Explore.countedBoard = key;
      $("explore-chart").innerHTML = "<p class='hint'>counting…</p>";
      try {
        Explore.showCount(await api("GET", "/api/count?" + new URLSearchParams({ board: data.board }), null, `Counting the positions of ${data.board}`));
      } catch (error) {
        Explore.countedBoard = null;
        $("explore-chart").innerHTML = "";
        const note = document.createElement("p");
        note.className = "hint";
        note.textContent = error.message;
        $("explore-chart").appendChild(note);
        $("explore-count-table").innerHTML = "";
      }
    }
  },

  share(reveal) {
    const data = Explore.data;
    if (!data) return;
    writeHash("explore", new URLSearchParams({ position: data.position, board: data.board.split(",")[0], k: data.k }).toString());
    if (reveal) {
      $("explore-link").value = location.href;
      $("explore-link-row").hidden = false;
      $("explore-link").select();
      if (navigator.clipboard) navigator.clipboard.writeText(location.href).catch(() => {});
    }
  },

  show(data) {
    Explore.data = data;
    if (currentTab === "explore") Explore.share(false);
    $("explore-result").hidden = false;
    MapView.boardChanged(data);
    $("explore-status").textContent = `${boardWords(data.shape, data.k)} — ${data.status}`;
    const board = $("explore-board-svg");
    board._hadFocus = board.contains(document.activeElement);
    board.innerHTML = data.svg;
    decorateBoard(board, (cell) => classicCellName(data.shape, Number(cell.dataset.cell), MARKS[data.position[Number(cell.dataset.cell)]]),
      (cell) => Explore.click(Number(cell.dataset.cell)));
    restoreFocus(board);
    $("explore-string").textContent = data.position;
    const win = data.winnability;
    $("explore-winnable").textContent = win.error ? win.error
      : win.winnable ? `yes (X ${win.x_can_win ? "can" : "cannot"} still win, O ${win.o_can_win ? "can" : "cannot"})` : "no: every continuation is a draw";
    const solution = data.solution;
    $("explore-value").textContent = solution.error ? solution.error : solution.text;
    $("explore-best").textContent = solution.error ? "—" : (solution.best_moves.map((cell) =>
      `${cell} (${solution.move_values[String(cell)].text})`).join(", ") || "none (the game is over)");
    $("explore-values-svg").innerHTML = solution.svg || "";
    $("explore-dead").textContent = `${data.dead_lines.length} of ${data.lines}` +
      (data.dead_lines.length ? ": " + data.dead_lines.map((line) => line.join("-")).join(", ") : "") +
      `; open for X: ${data.open_for_x}, for O: ${data.open_for_o}`;
    $("explore-class").textContent = `${data.class_size} distinct position${data.class_size === 1 ? "" : "s"} under ${data.symmetries} symmetries`;
    const transforms = $("explore-transforms");
    transforms.innerHTML = "";
    for (const image of data.transforms) {
      const figure = document.createElement("figure");
      if (image.canonical) figure.className = "canonical";
      figure.innerHTML = image.svg;
      figure.dataset.position = image.position;
      figure.tabIndex = 0;
      figure.setAttribute("role", "button");
      const caption = document.createElement("figcaption");
      caption.textContent = image.symmetries.join(", ") + (image.canonical ? " (canonical)" : "");
      figure.setAttribute("aria-label", `explore the image under ${caption.textContent}`);
      figure.appendChild(caption);
      transforms.appendChild(figure);
    }
    $("explore-canonical").textContent = data.canonical.position;
    $("explore-stabilizer").textContent = data.stabilizer.join(", ");
    $("explore-cells-svg").innerHTML = data.cell_classes_svg;
    const cells = $("explore-cells");
    cells.innerHTML = "";
    for (const cellClass of data.cell_classes) {
      const item = document.createElement("li");
      item.innerHTML = `<span class="swatch" style="background:${cellClass.color}"></span>`;
      item.appendChild(document.createTextNode(`${cellClass.name}: ${cellClass.cells.join(" ")}`));
      cells.appendChild(item);
    }
    const lines = $("explore-lines");
    lines.innerHTML = "";
    for (const lineClass of data.line_classes) {
      const item = document.createElement("li");
      item.className = "line-class";
      item.innerHTML = lineClass.svg;
      const text = document.createElement("span");
      text.textContent = `${lineClass.name} (${lineClass.lines.length}): ` + lineClass.lines.map((line) => line.join("-")).join(", ");
      item.appendChild(text);
      lines.appendChild(item);
    }
  },

  showCount(table) {
    $("explore-chart").innerHTML = table.svg;
    const rows = ["<tr><th>ply</th><th>positions</th><th>classes</th></tr>"];
    for (const row of table.plies) rows.push(`<tr><td>${row.ply}</td><td>${row.positions.toLocaleString()}</td><td>${row.classes.toLocaleString()}</td></tr>`);
    rows.push(`<tr><th>total</th><th>${table.total.positions.toLocaleString()}</th><th>${table.total.classes.toLocaleString()}</th></tr>`);
    $("explore-count-table").innerHTML = rows.join("");
  },

  click(cell) {
    const data = Explore.data;
    if (!data) return;
    showError(null);
    const statuses = data.position.split("");
    statuses[cell] = String((Number(statuses[cell]) + 1) % 3);
    // Keep the shape explicit so a non-square board is not guessed wrongly.
    $("explore-position").value = statuses.join("");
    Explore.fill(data.board.split(",")[0], data.k);
    Explore.run().catch(showError);
  },
};

$("explore-position").addEventListener("input", () => {
  if (Explore.filled) { $("explore-board").value = ""; $("explore-k").value = ""; Explore.filled = false; }
});
for (const id of ["explore-board", "explore-k"]) $(id).addEventListener("input", () => { Explore.filled = false; });
$("explore-form").addEventListener("submit", (event) => { event.preventDefault(); showError(null); Explore.run().catch(showError); });
$("explore-share").addEventListener("click", () => Explore.share(true));
$("explore-clear").addEventListener("click", () => {
  showError(null);
  const data = Explore.data;
  const size = data ? data.position.length : 9;
  $("explore-position").value = "0".repeat(size);
  if (data) Explore.fill(data.board.split(",")[0], data.k);
  Explore.run().catch(showError);
});
$("explore-board-svg").addEventListener("click", (event) => {
  const target = event.target.closest("[data-cell]");
  if (target) { $("explore-board-svg")._focusKey = cellKey(target); Explore.click(Number(target.dataset.cell)); }
});
function openTransform(figure) {
  showError(null);
  $("explore-position").value = figure.dataset.position;
  Explore.run().catch(showError);
}
$("explore-transforms").addEventListener("click", (event) => {
  const figure = event.target.closest("figure");
  if (figure) openTransform(figure);
});
$("explore-transforms").addEventListener("keydown", (event) => {
  const figure = event.target.closest("figure");
  if (figure && (event.key === "Enter" || event.key === " ")) { event.preventDefault(); openTransform(figure); }
});

// -- the strategy map: one side's whole best strategy as nested grids, zoomed through the SVG's viewBox ---

const MapView = {
  board: null,   // the board of the map shown ({board, k}), null when none is shown
  base: null,    // the drawing's own viewBox [x, y, width, height]
  view: null,    // the viewBox shown now
  pointers: new Map(),
  MAX_ZOOM: 2000,

  // The explorer moved to another board: a map of the old one no longer applies.
  boardChanged(data) {
    const key = `${data.board}`;
    $("map-caption").textContent = boardWords(data.shape, data.k);
    if (MapView.board && MapView.board.key !== key) MapView.clear();
  },

  clear() {
    MapView.board = null;
    MapView.base = MapView.view = null;
    $("map-view").innerHTML = "";
    for (const id of ["map-view", "map-help", "map-lines", "map-note"]) $(id).hidden = true;
    for (const id of ["map-zoom-in", "map-zoom-out", "map-zoom-reset"]) $(id).disabled = true;
    $("map-zoom-level").textContent = "";
  },

  async show() {
    const data = Explore.data;
    if (!data) return;
    const side = $("map-side").value;
    const params = new URLSearchParams({ board: data.board.split(",")[0], k: data.k, side });
    let answer;
    try {
      answer = await api("GET", "/api/map?" + params, null, `Drawing the strategy map of ${side.toUpperCase()}`);
    } catch (error) {
      MapView.clear();
      $("map-note").textContent = error.message;
      $("map-note").hidden = false;
      return;
    }
    MapView.board = { key: `${data.board}`, side };
    const view = $("map-view");
    view.innerHTML = answer.svg;
    const svg = view.querySelector("svg");
    MapView.base = svg.getAttribute("viewBox").split(/[\s,]+/).map(Number);
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    const lines = $("map-lines");
    lines.innerHTML = "";
    for (const line of answer.lines) {
      const item = document.createElement("li");
      item.textContent = line;
      lines.appendChild(item);
    }
    for (const id of ["map-view", "map-help", "map-lines"]) $(id).hidden = false;
    $("map-note").hidden = true;
    for (const id of ["map-zoom-in", "map-zoom-out", "map-zoom-reset"]) $(id).disabled = false;
    MapView.reset();
  },

  svg() { return $("map-view").querySelector("svg"); },

  set(view) {
    const [bx, by, bw, bh] = MapView.base;
    let [x, y, w, h] = view;
    // Never smaller than the whole drawing nor deeper than MAX_ZOOM; never moved off the drawing.
    const scale = Math.min(Math.max(bw / w, 1), MapView.MAX_ZOOM);
    w = bw / scale; h = bh / scale;
    x = Math.min(Math.max(x, bx), bx + bw - w);
    y = Math.min(Math.max(y, by), by + bh - h);
    MapView.view = [x, y, w, h];
    MapView.svg().setAttribute("viewBox", MapView.view.map((v) => +v.toFixed(3)).join(" "));
    $("map-zoom-level").textContent = scale > 1.001 ? `zoom ×${scale < 10 ? scale.toFixed(1) : Math.round(scale)}` : "whole map";
  },

  reset() { if (MapView.base) MapView.set([...MapView.base]); },

  // Zoom by `factor` keeping the drawing's point (px, py) where it is on the screen.
  zoom(factor, px, py) {
    if (!MapView.view) return;
    const [x, y, w, h] = MapView.view;
    if (px === undefined) { px = x + w / 2; py = y + h / 2; }
    const nw = w / factor, nh = h / factor;
    MapView.set([px - (px - x) * (nw / w), py - (py - y) * (nh / h), nw, nh]);
  },

  pan(dx, dy) {
    if (!MapView.view) return;
    const [x, y, w, h] = MapView.view;
    MapView.set([x + dx, y + dy, w, h]);
  },

  // A point of the screen in the drawing's units (the SVG keeps the viewBox's proportions).
  point(clientX, clientY) {
    const rect = MapView.svg().getBoundingClientRect();
    const [x, y, w, h] = MapView.view;
    return [x + ((clientX - rect.left) / rect.width) * w, y + ((clientY - rect.top) / rect.height) * h];
  },

  unitsPerPixel() { return MapView.view[2] / MapView.svg().getBoundingClientRect().width; },

  // Zoom to one board of the map (double-click): its box with a small margin.
  focusBoard(board) {
    const box = board.getBBox();
    const [, , bw, bh] = MapView.base;
    const size = Math.max(box.width, box.height * (bw / bh)) * 1.08;
    const w = size, h = size * (bh / bw);
    MapView.set([box.x + box.width / 2 - w / 2, box.y + box.height / 2 - h / 2, w, h]);
  },
};

$("map-show").addEventListener("click", () => { showError(null); MapView.show().catch(showError); });
$("map-side").addEventListener("change", () => { if (MapView.board) MapView.show().catch(showError); });
$("map-zoom-in").addEventListener("click", () => MapView.zoom(2));
$("map-zoom-out").addEventListener("click", () => MapView.zoom(0.5));
$("map-zoom-reset").addEventListener("click", () => MapView.reset());
$("map-view").addEventListener("wheel", (event) => {
  if (!MapView.view) return;
  event.preventDefault();
  const [px, py] = MapView.point(event.clientX, event.clientY);
  MapView.zoom(Math.exp(-event.deltaY * (event.deltaMode === 1 ? 0.05 : 0.002)), px, py);
}, { passive: false });
$("map-view").addEventListener("pointerdown", (event) => {
  if (!MapView.view) return;
  try { $("map-view").setPointerCapture(event.pointerId); } catch (error) { /* a pointer already gone */ }
  MapView.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
});
$("map-view").addEventListener("pointermove", (event) => {
  const last = MapView.pointers.get(event.pointerId);
  if (!last || !MapView.view) return;
  const now = { x: event.clientX, y: event.clientY };
  if (MapView.pointers.size === 1) {
    const units = MapView.unitsPerPixel();
    MapView.pan((last.x - now.x) * units, (last.y - now.y) * units);
  } else if (MapView.pointers.size === 2) {
    // Pinch: the distance between the two fingers scales the map around their middle.
    const [other] = [...MapView.pointers].filter(([id]) => id !== event.pointerId).map(([, p]) => p);
    const before = Math.hypot(last.x - other.x, last.y - other.y);
    const after = Math.hypot(now.x - other.x, now.y - other.y);
    if (before > 0 && after > 0) {
      const [px, py] = MapView.point((now.x + other.x) / 2, (now.y + other.y) / 2);
      MapView.zoom(after / before, px, py);
    }
  }
  MapView.pointers.set(event.pointerId, now);
});
for (const type of ["pointerup", "pointercancel", "lostpointercapture"]) {
  $("map-view").addEventListener(type, (event) => MapView.pointers.delete(event.pointerId));
}
$("map-view").addEventListener("dblclick", (event) => {
  // The board under the pointer (the map holds the pointer while dragging, so not event.target).
  const under = document.elementFromPoint(event.clientX, event.clientY);
  const board = under && under.closest ? under.closest("g.map-board") : null;
  if (board && MapView.view) MapView.focusBoard(board);
});
$("map-view").addEventListener("keydown", (event) => {
  if (!MapView.view || event.ctrlKey || event.metaKey || event.altKey) return;
  const step = MapView.view[2] / 8;
  const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
  if (moves[event.key]) MapView.pan(...moves[event.key]);
  else if (event.key === "+" || event.key === "=") MapView.zoom(2);
  else if (event.key === "-" || event.key === "_") MapView.zoom(0.5);
  else if (event.key === "0") MapView.reset();
  else return;
  event.preventDefault();
});

// Another tab of this browser moved in the same game (both keep it in localStorage): show its moves.
window.addEventListener("storage", (event) => {
  const state = Play.state;
  if (event.key !== "oxo.game" || !state || Play.thinking) return;
  let other = null;
  try { other = JSON.parse(event.newValue || "null"); } catch (error) { return; }
  if (!other || other.id !== state.id || JSON.stringify(other.moves) === JSON.stringify(state.moves)) return;
  Play.call("GET", "", null, state).then((fresh) => { if (Play.state === state) Play.show(fresh); }).catch(showError);
});

window.addEventListener("hashchange", () => {
  // The page writes its own address without this event; it comes when a link is pasted or followed.
  const { tab, params } = readHash();
  const running = Boolean(started[tab]);
  if (tab && tab !== currentTab) showTab(tab);
  if (!running) return;  // a tab starting now reads the link itself
  if (tab === "play" && params.has("board")) Play.openLink(params).catch(showError);
  if (tab === "explore" && params.has("position")) Explore.openLink(params).catch(showError);
});
showTab(readHash().tab || localStorage.getItem("oxo.tab") || "play");
