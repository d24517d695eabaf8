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
  if (!["classic", "mega", "explore"].includes(name)) name = "classic";
  for (const button of document.querySelectorAll("nav button")) {
    button.setAttribute("aria-selected", String(button.dataset.tab === name));
  }
  for (const panel of document.querySelectorAll(".panel")) panel.hidden = panel.dataset.panel !== name;
  localStorage.setItem("oxo.tab", name);
  showError(null);
  if (!started[name]) {
    started[name] = true;
    ({ classic: Classic.start, mega: Mega.start, explore: Explore.start })[name]().catch(showError);
  }
}
for (const button of document.querySelectorAll("nav button")) {
  button.addEventListener("click", () => { history.replaceState(null, "", "#" + button.dataset.tab); showTab(button.dataset.tab); });
}

function fillSelect(select, options, value) {
  select.innerHTML = "";
  for (const option of options) {
    const element = document.createElement("option");
    element.value = option;
    element.textContent = option === "human" ? "person" : option;
    select.appendChild(element);
  }
  select.value = value;
}

let info = null;
async function getInfo() {
  if (!info) info = await api("GET", "/api/info");
  return info;
}

// -- classic ----------------------------------------------------------------------------------------

const Classic = {
  state: null,
  query() { return $("classic-values").checked ? "?values=1" : ""; },

  async start() {
    const meta = await getInfo();
    const saved = load("oxo.classic");
    fillSelect($("classic-x"), meta.classic_players, saved ? saved.x : "human");
    fillSelect($("classic-o"), meta.classic_players, saved ? saved.o : "perfect");
    $("classic-values").checked = Boolean(saved && saved.values);
    if (saved) {
      $("classic-board-spec").value = saved.board;
      try {
        Classic.show(await api("GET", `/api/classic/${saved.id}${Classic.query()}`));
        return;
      } catch (error) {
        if (error.status !== 404) throw error;
        // The server forgot the game (it restarted): rebuild it from the moves kept here.
        Classic.show(await api("POST", `/api/classic${Classic.query()}`, { board: saved.board, x: saved.x, o: saved.o, moves: saved.moves }));
        return;
      }
    }
    await Classic.newGame();
  },

  async newGame() {
    showError(null);
    const body = { board: $("classic-board-spec").value.trim(), x: $("classic-x").value, o: $("classic-o").value };
    Classic.show(await api("POST", `/api/classic${Classic.query()}`, body));
  },

  show(state) {
    Classic.state = state;
    save("oxo.classic", { id: state.id, board: state.board, x: state.players.x, o: state.players.o, moves: state.moves, values: $("classic-values").checked });
    $("classic-board").innerHTML = state.svg;
    $("classic-board").dataset.over = state.over ? "1" : "0";
    $("classic-status").textContent = state.result;
    $("classic-status").classList.toggle("over", state.over);
    $("classic-moves").textContent = state.moves.length ? state.moves.join(" ") : "—";
    $("classic-legend").hidden = !$("classic-values").checked;
    if (state.computer_to_move && !state.over) setTimeout(() => Classic.computer().catch(showError), 250);
  },

  async computer() {
    const state = Classic.state;
    if (!state || !state.computer_to_move || state.over || Classic.thinking) return;
    Classic.thinking = true;
    $("classic-thinking").hidden = false;
    try {
      Classic.show(await api("POST", `/api/classic/${state.id}/ai${Classic.query()}`));
    } finally {
      Classic.thinking = false;
      $("classic-thinking").hidden = true;
    }
  },

  async click(cell) {
    const state = Classic.state;
    if (!state || state.over || state.computer_to_move || Classic.thinking) return;
    showError(null);
    Classic.show(await api("POST", `/api/classic/${state.id}/move${Classic.query()}`, { cell }));
  },
};

$("classic-form").addEventListener("submit", (event) => { event.preventDefault(); Classic.newGame().catch(showError); });
$("classic-undo").addEventListener("click", () => {
  if (!Classic.state || Classic.thinking) return;
  api("POST", `/api/classic/${Classic.state.id}/undo${Classic.query()}`).then(Classic.show).catch(showError);
});
$("classic-values").addEventListener("change", () => {
  if (Classic.state) api("GET", `/api/classic/${Classic.state.id}${Classic.query()}`).then(Classic.show).catch(showError);
});
$("classic-board").addEventListener("click", (event) => {
  const target = event.target.closest("[data-cell]");
  if (target) Classic.click(Number(target.dataset.cell)).catch(showError);
});

// -- mega -------------------------------------------------------------------------------------------

const Mega = {
  state: null,

  async start() {
    const meta = await getInfo();
    const saved = load("oxo.mega");
    fillSelect($("mega-x"), meta.mega_players, saved ? saved.x : "human");
    fillSelect($("mega-o"), meta.mega_players, saved ? saved.o : "mcts");
    $("mega-seconds").min = meta.seconds.min;
    $("mega-seconds").max = meta.seconds.max;
    if (saved) {
      $("mega-seconds").value = saved.seconds;
      try {
        Mega.show(await api("GET", `/api/mega/${saved.id}`));
        return;
      } catch (error) {
        if (error.status !== 404) throw error;
        Mega.show(await api("POST", "/api/mega", { x: saved.x, o: saved.o, seconds: saved.seconds, record: saved.record }));
        return;
      }
    }
    await Mega.newGame();
  },

  async newGame() {
    showError(null);
    const body = { x: $("mega-x").value, o: $("mega-o").value, seconds: Number($("mega-seconds").value) };
    Mega.show(await api("POST", "/api/mega", body));
  },

  show(state) {
    Mega.state = state;
    save("oxo.mega", { id: state.id, x: state.players.x, o: state.players.o, seconds: state.seconds, record: state.record });
    $("mega-board").innerHTML = state.svg;
    $("mega-board").dataset.over = state.over ? "1" : "0";
    $("mega-status").textContent = state.result;
    $("mega-status").classList.toggle("over", state.over);
    const string = state.string;
    $("mega-string").textContent = `${string.number} (length ${string.length}): ${string.played.join(" ") || "no move yet"}` +
      (string.abnormal ? " — abnormal" : "") + (state.rule8 ? " — rule 8: the next move may reuse a cell position" : "");
    $("mega-legal").textContent = state.over ? "none" : `${state.legal.length}`;
    const covered = Object.entries(state.covered).map(([grid, owner]) => `grid ${grid}: ${owner.toUpperCase()}`);
    $("mega-covered").textContent = covered.join(", ") || "none";
    $("mega-abnormal").textContent = state.abnormal_strings.join(", ") || "none";
    const search = state.last_search;
    $("mega-search").textContent = search
      ? `${search.move}: ${search.simulations.toLocaleString()} simulations in ${search.seconds} s (budget ${search.budget} s), win rate ${search.win_rate}`
      : "—";
    $("mega-record").textContent = state.record || "—";
    if (state.computer_to_move && !state.over) setTimeout(() => Mega.computer().catch(showError), 150);
  },

  async computer() {
    const state = Mega.state;
    if (!state || !state.computer_to_move || state.over || Mega.thinking) return;
    Mega.thinking = true;
    const who = state.to_move.toUpperCase();
    const kind = state.players[state.to_move];
    const begun = performance.now();
    const tick = () => {
      const seconds = ((performance.now() - begun) / 1000).toFixed(1);
      $("mega-thinking-text").textContent = kind === "mcts"
        ? `${who} (MCTS AI) is thinking… ${seconds} s of ${state.seconds} s`
        : `${who} (${kind}) is choosing…`;
    };
    tick();
    const timer = setInterval(tick, 100);
    $("mega-thinking").hidden = false;
    try {
      Mega.show(await api("POST", `/api/mega/${state.id}/ai`));
    } finally {
      clearInterval(timer);
      Mega.thinking = false;
      $("mega-thinking").hidden = true;
    }
  },

  async click(move) {
    const state = Mega.state;
    if (!state || state.over || state.computer_to_move || Mega.thinking) return;
    showError(null);
    Mega.show(await api("POST", `/api/mega/${state.id}/move`, { move }));
  },
};

$("mega-form").addEventListener("submit", (event) => { event.preventDefault(); Mega.newGame().catch(showError); });
$("mega-undo").addEventListener("click", () => {
  if (!Mega.state || Mega.thinking) return;
  api("POST", `/api/mega/${Mega.state.id}/undo`).then(Mega.show).catch(showError);
});
$("mega-board").addEventListener("click", (event) => {
  const target = event.target.closest("[data-move]");
  if (target && target.classList.contains("legal")) Mega.click(target.dataset.move).catch(showError);
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
showTab((location.hash || "").slice(1) || localStorage.getItem("oxo.tab") || "classic");
