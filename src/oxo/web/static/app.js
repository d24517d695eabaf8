// oxo serve: the page only draws what the JSON API returns; every rule and every number comes from Python.
"use strict";

const $ = (id) => document.getElementById(id);
let pending = 0;

function busy(delta) {
  pending += delta;
  document.body.dataset.busy = pending > 0 ? "1" : "0";
}

async function api(method, url, body) {
  busy(+1);
  try {
    const response = await fetch(url, {
      method,
      headers: body ? { "Content-Type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    let data;
    try { data = await response.json(); } catch (e) { data = { error: response.statusText }; }
    if (!response.ok) {
      const error = new Error(data.error || response.statusText);
      error.status = response.status;
      throw error;
    }
    return data;
  } finally {
    busy(-1);
  }
}

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

// -- tabs -------------------------------------------------------------------------------------------

const started = {};
function showTab(name) {
  if (!["play", "explore"].includes(name)) name = "play";
  for (const button of document.querySelectorAll("nav button")) {
    button.setAttribute("aria-selected", String(button.dataset.tab === name));
  }
  for (const panel of document.querySelectorAll(".panel")) panel.hidden = panel.dataset.panel !== name;
  localStorage.setItem("oxo.tab", name);
  showError(null);
  if (!started[name]) {
    started[name] = true;
    ({ play: Play.start, explore: Explore.start })[name]().catch(showError);
  }
}
for (const button of document.querySelectorAll("nav button")) {
  button.addEventListener("click", () => { history.replaceState(null, "", "#" + button.dataset.tab); showTab(button.dataset.tab); });
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
async function getInfo() {
  if (!info) info = await api("GET", "/api/info");
  return info;
}

// -- play: one game API for every board, classic and mega ---------------------------------------------

const Play = {
  state: null,
  thinking: false,
  query() { return $("play-values").checked ? "?values=1" : ""; },

  // The body that starts a game of the chosen board (an entry of /api/info's boards).
  setup(boardId, players, seconds) {
    const board = info.boards.find((b) => b.id === boardId) || info.boards[0];
    const body = { kind: board.kind, players, seconds };
    if (board.kind === "classic") Object.assign(body, { board: board.board, k: board.k });
    return body;
  },

  async start() {
    const meta = await getInfo();
    const saved = load("oxo.game");
    fillSelect($("play-board"), meta.boards, saved ? saved.board : "3x3", (board) => board.label);
    fillSelect($("play-x"), meta.players, saved ? saved.players.x : "human");
    fillSelect($("play-o"), meta.players, saved ? saved.players.o : meta.default_level);
    Object.assign($("play-seconds"), { min: meta.seconds.min, max: meta.seconds.max, value: saved ? saved.seconds : meta.seconds.default });
    $("play-values").checked = Boolean(saved && saved.values);
    if (saved) {
      try {
        Play.show(await api("GET", `/api/games/${saved.id}${Play.query()}`));
        return;
      } catch (error) {
        if (error.status !== 404) throw error;
        // The server forgot the game (it restarted): rebuild it from the moves kept here.
        const body = { ...Play.setup(saved.board, saved.players, saved.seconds), moves: saved.moves };
        Play.show(await api("POST", `/api/games${Play.query()}`, body));
        return;
      }
    }
    await Play.newGame();
  },

  async newGame() {
    showError(null);
    const body = Play.setup($("play-board").value, { x: $("play-x").value, o: $("play-o").value }, Number($("play-seconds").value));
    Play.show(await api("POST", `/api/games${Play.query()}`, body));
  },

  show(state) {
    Play.state = state;
    const mega = state.kind === "mega";
    save("oxo.game", { id: state.id, board: state.board, players: state.players, seconds: state.seconds, moves: state.moves, values: $("play-values").checked });
    $("play-board").value = state.board;
    $("play-svg").innerHTML = state.svg;
    $("play-svg").dataset.kind = state.kind;
    $("play-svg").dataset.over = state.over ? "1" : "0";
    $("play-status").textContent = state.result;
    $("play-status").classList.toggle("over", state.over);
    $("play-values-label").hidden = !state.values_available;
    $("play-legend").hidden = !(state.values_available && $("play-values").checked);
    const levels = Object.entries(state.playing).map(([side, text]) => `${side.toUpperCase()}: ${text}`);
    $("play-levels").textContent = levels.join("; ") || "two people";
    $("play-search").textContent = describeSearch(state.last_search);
    $("play-moves").textContent = state.moves.length ? state.moves.join(" ") : "—";
    for (const id of ["mega-rules", "mega-facts", "mega-hint"]) $(id).hidden = !mega;
    if (mega) {
      const string = state.string;
      $("mega-string").textContent = `${string.number} (length ${string.length}): ${string.played.join(" ") || "no move yet"}` +
        (string.abnormal ? " — abnormal" : "") + (state.rule8 ? " — the next move may reuse a cell position" : "");
      $("mega-legal").textContent = state.over ? "none" : `${state.legal.length}`;
      const covered = Object.entries(state.covered).map(([grid, owner]) => `grid ${grid}: ${owner.toUpperCase()}`);
      $("mega-covered").textContent = covered.join(", ") || "none";
      $("mega-abnormal").textContent = state.abnormal_strings.join(", ") || "none";
    }
    if (state.computer_to_move && !state.over) setTimeout(() => Play.computer().catch(showError), 150);
  },

  async computer() {
    const state = Play.state;
    if (!state || !state.computer_to_move || state.over || Play.thinking) return;
    Play.thinking = true;
    const who = `${state.to_move.toUpperCase()} (${state.players[state.to_move]})`;
    const begun = performance.now();
    const tick = () => {
      const seconds = ((performance.now() - begun) / 1000).toFixed(1);
      $("play-thinking-text").textContent = `${who} is thinking… ${seconds} s`;
    };
    tick();
    const timer = setInterval(tick, 100);
    $("play-thinking").hidden = false;
    try {
      Play.show(await api("POST", `/api/games/${state.id}/ai${Play.query()}`));
    } finally {
      clearInterval(timer);
      Play.thinking = false;
      $("play-thinking").hidden = true;
    }
  },

  async click(move) {
    const state = Play.state;
    if (!state || state.over || state.computer_to_move || Play.thinking) return;
    showError(null);
    Play.show(await api("POST", `/api/games/${state.id}/move${Play.query()}`, { move }));
  },
};

function describeSearch(search) {
  if (!search) return "—";
  const level = search.engine === search.level ? search.level : `${search.level}: ${search.engine}`;
  const parts = [`${search.side.toUpperCase()} played ${search.move} (${level})`];
  if (search.nodes) parts.push(`${search.nodes.toLocaleString()} nodes` + (search.depth ? `, depth ${search.depth}` : ""));
  parts.push(`${search.seconds} s` + (search.budget ? ` of ${Number(search.budget.toFixed(3))} s` : ""));
  if (search.value) parts.push(search.value === "draw" ? "proven draw" : `proven win for ${search.value.toUpperCase()}`);
  else if (search.expectation !== null) parts.push(`expected result ${Math.round(search.expectation * 100)}%`);
  return parts.join(", ");
}

$("play-form").addEventListener("submit", (event) => { event.preventDefault(); Play.newGame().catch(showError); });
$("play-undo").addEventListener("click", () => {
  if (!Play.state || Play.thinking) return;
  api("POST", `/api/games/${Play.state.id}/undo${Play.query()}`).then(Play.show).catch(showError);
});
$("play-values").addEventListener("change", () => {
  if (Play.state) api("GET", `/api/games/${Play.state.id}${Play.query()}`).then(Play.show).catch(showError);
});
$("play-svg").addEventListener("click", (event) => {
  // Classic cells carry data-cell (a cell ID); mega's legal cells carry data-move (GC text).
  const cell = event.target.closest("[data-cell]");
  if (cell) { Play.click(Number(cell.dataset.cell)).catch(showError); return; }
  const move = event.target.closest("[data-move]");
  if (move && move.classList.contains("legal")) Play.click(move.dataset.move).catch(showError);
});

// -- explorer ---------------------------------------------------------------------------------------

const Explore = {
  data: null,
  countedBoard: null,

  async start() {
    const saved = load("oxo.explore");
    if (saved) {
      $("explore-position").value = saved.position;
      $("explore-board").value = saved.board || "";
      $("explore-k").value = saved.k || "";
    }
    await Explore.run();
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
    showError(null);
    const position = $("explore-position").value.trim();
    save("oxo.explore", { position, board: $("explore-board").value.trim(), k: $("explore-k").value.trim() });
    const data = await api("GET", "/api/explore?" + Explore.params(position));
    Explore.show(data);
    const key = `${data.board}`;
    if (Explore.countedBoard !== key) {
      Explore.countedBoard = key;
      $("explore-chart").innerHTML = "<p class='hint'>counting…</p>";
      try {
        Explore.showCount(await api("GET", "/api/count?" + new URLSearchParams({ board: data.board })));
      } catch (error) {
        $("explore-chart").innerHTML = "";
        const note = document.createElement("p");
        note.className = "hint";
        note.textContent = error.message;
        $("explore-chart").appendChild(note);
        $("explore-count-table").innerHTML = "";
      }
    }
  },

  show(data) {
    Explore.data = data;
    $("explore-result").hidden = false;
    $("explore-status").textContent = `${data.board}, k=${data.k} — ${data.status}`;
    $("explore-board-svg").innerHTML = data.svg;
    $("explore-string").textContent = data.position;
    const win = data.winnability;
    $("explore-winnable").textContent = win.error ? win.error
      : win.winnable ? `yes (X ${win.x_can_win ? "can" : "cannot"} still win, O ${win.o_can_win ? "can" : "cannot"})` : "no: every continuation is a draw";
    const solution = data.solution;
    $("explore-value").textContent = solution.error ? solution.error : solution.text;
    $("explore-best").textContent = solution.error ? "—" : (solution.best_moves.join(", ") || "none (the game is over)");
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
      const caption = document.createElement("figcaption");
      caption.textContent = image.symmetries.join(", ") + (image.canonical ? " (canonical)" : "");
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
    const statuses = data.position.split("");
    statuses[cell] = String((Number(statuses[cell]) + 1) % 3);
    // Keep the shape explicit so a non-square board is not guessed wrongly.
    $("explore-position").value = statuses.join("");
    $("explore-board").value = data.board.split(",")[0];
    $("explore-k").value = data.k;
    Explore.run().catch(showError);
  },
};

$("explore-form").addEventListener("submit", (event) => { event.preventDefault(); Explore.run().catch(showError); });
$("explore-clear").addEventListener("click", () => {
  const data = Explore.data;
  const size = data ? data.position.length : 9;
  $("explore-position").value = "0".repeat(size);
  if (data) { $("explore-board").value = data.board.split(",")[0]; $("explore-k").value = data.k; }
  Explore.run().catch(showError);
});
$("explore-board-svg").addEventListener("click", (event) => {
  const target = event.target.closest("[data-cell]");
  if (target) Explore.click(Number(target.dataset.cell));
});
$("explore-transforms").addEventListener("click", (event) => {
  const figure = event.target.closest("figure");
  if (!figure) return;
  $("explore-position").value = figure.dataset.position;
  Explore.run().catch(showError);
});

window.addEventListener("hashchange", () => showTab(location.hash.slice(1)));
showTab((location.hash || "").slice(1) || localStorage.getItem("oxo.tab") || "play");
