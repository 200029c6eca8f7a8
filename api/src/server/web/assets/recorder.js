// The recorder (/record). The log lives in this browser (localStorage) and grows one legal
// entry at a time. After every click the page posts the log and the entry being built to
// /record/next and shows what the server answers: the engine's verdict, the board, and the
// next legal choices. Nothing here knows a rule of the game: every button is an option the
// engine offered, every draft is one the engine returned.

const $ = (sel, root = document) => root.querySelector(sel);
// One recording per game, kept apart: the page's game is on the recorder section.
const GAME = document.querySelector("#recorder")?.dataset.game ?? "game";
const KEY = `chronicle-recorder-${GAME}`;

/** Milliseconds from each click to the page showing its answer (read by the browser test). */
window.chronicleClicks = [];

/**
 * The recording: `log`, the `place` draft being built and the drafts before it (`drafts`,
 * for "back one step"), with the labels clicked (`trail`), and the free-action draft.
 */
let rec = load();

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY));
    return saved && saved.log ? saved : null;
  } catch {
    return null;
  }
}

function save() {
  if (rec) localStorage.setItem(KEY, JSON.stringify(rec));
  else localStorage.removeItem(KEY);
}

function button(text, cls, onclick) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = cls;
  b.textContent = text;
  b.addEventListener("click", onclick);
  return b;
}

// ---------------------------------------------------------------------------------------
// Start

/** The engine's setup form for the players named so far, drawn as selects (GET /record/setup-form). */
async function drawSetupForm() {
  const holder = $("#setup-form");
  const players = Math.max(1, [...document.querySelectorAll(".player-name")].filter((i) => i.value.trim()).length);
  if (holder.dataset.players === String(players)) return;
  holder.dataset.players = String(players);
  const response = await fetch(`/record/setup-form?game=${encodeURIComponent(holder.dataset.game)}&players=${players}`);
  if (!response.ok) return;
  const form = await response.json();
  if (holder.dataset.players !== String(players)) return; // the players changed again meanwhile
  const kept = setupValues(); // choices already made stay when the player count changes
  holder.replaceChildren(...form.sections.map((section) => {
    const set = document.createElement("fieldset");
    set.dataset.section = section.id;
    if (section.shown_when) set.dataset.shownWhen = section.shown_when.join("=");
    const legend = document.createElement("legend");
    legend.textContent = section.title;
    const hint = document.createElement("p");
    hint.className = "hint";
    hint.textContent = section.hint;
    set.append(legend, hint, ...section.fields.map((f) => field(f, kept[f.id])));
    return set;
  }));
  holder.dataset.drawn = String(players);
  showWhen();
}

/**
 * One field of the setup form: a select of the allowed values, or a whole number; a field that
 * takes a file (data the log declares, such as the game's components) also offers to upload
 * one, whose text becomes the value (the file's name is offered in the select thereafter).
 */
function field(f, kept) {
  const label = document.createElement("label");
  label.append(f.label + " ");
  let input;
  if (f.upload) {
    input = document.createElement("select");
    for (const o of f.options) input.append(new Option(o.label, o.value));
    for (const [name, text] of Object.entries(uploads(f.id))) input.append(new Option(`${name} (uploaded)`, text));
    const file = document.createElement("input");
    file.type = "file";
    file.accept = "application/json,.json";
    file.className = "setup-upload";
    file.title = `Upload ${f.upload}`;
    file.addEventListener("change", async () => {
      const chosen = file.files?.[0];
      if (!chosen) return;
      const text = await chosen.text();
      const kept = uploads(f.id);
      kept[chosen.name] = text;
      localStorage.setItem(`${KEY}-uploads-${f.id}`, JSON.stringify(kept));
      const option = new Option(`${chosen.name} (uploaded)`, text);
      input.append(option);
      input.value = text;
      showWhen();
    });
    const hint = Object.assign(document.createElement("span"), { className: "hint", textContent: ` or upload ${f.upload}: ` });
    label.append(input, hint, file);
    input.className = "setup-value";
    input.dataset.field = f.id;
    const value = kept ?? f.default;
    if (value !== null && value !== undefined && [...input.options].some((o) => o.value === value)) input.value = value;
    input.addEventListener("change", showWhen);
    return label;
  }
  if (f.options.length) {
    input = document.createElement("select");
    if (f.options.length > 1 && f.default === null) input.append(new Option("—", ""));
    for (const o of f.options) input.append(new Option(o.label, o.value));
  } else {
    input = document.createElement("input");
    input.type = "number";
    input.min = "0";
    input.step = "1";
    input.value = String(Math.floor(Math.random() * 2 ** 31));
  }
  input.className = "setup-value";
  input.dataset.field = f.id;
  const value = kept ?? f.default;
  if (value !== null && value !== undefined && [...(input.options ?? [])].some((o) => o.value === value)) input.value = value;
  input.addEventListener("change", showWhen);
  label.append(input);
  return label;
}

/** The files uploaded for a field before, by file name (kept in this browser). */
function uploads(id) {
  try {
    return JSON.parse(localStorage.getItem(`${KEY}-uploads-${id}`)) ?? {};
  } catch {
    return {};
  }
}

/** Sections shown only for one choice (the cards and tokens when dealt at the table). */
function showWhen() {
  const values = setupValues();
  for (const set of document.querySelectorAll("#setup-form fieldset[data-shown-when]")) {
    const [id, value] = set.dataset.shownWhen.split("=");
    set.hidden = values[id] !== value;
  }
}

function setupValues() {
  return Object.fromEntries([...document.querySelectorAll("#setup-form .setup-value")].map((i) => [i.dataset.field, i.value]));
}

function setUpStart() {
  for (const input of document.querySelectorAll(".player-name")) input.addEventListener("input", drawSetupForm);
  drawSetupForm();
  $("#start-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    document.body.dataset.recorder = "busy"; // until the server has answered
    const names = [...document.querySelectorAll(".player-name")].map((i) => i.value.trim()).filter(Boolean);
    await drawSetupForm();
    const meta = { played_at: $("#played-at").value, place: $("#place").value, tournament: $("#tournament").value };
    const response = await fetch("/record/setup", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ game: $("#setup-form").dataset.game, names, values: setupValues(), meta }),
    });
    const answer = await response.json();
    const problems = answer.problems ?? (response.ok ? [] : [answer.message]);
    const list = $("#start-error");
    list.replaceChildren(...problems.map((p) => Object.assign(document.createElement("li"), { textContent: p })));
    list.hidden = problems.length === 0;
    if (problems.length) {
      document.body.dataset.recorder = "ready";
      return;
    }
    rec = { log: answer.log, drafts: [], trail: [], free: null };
    save();
    document.body.dataset.recorder = "busy";
    refresh();
  });
}

// ---------------------------------------------------------------------------------------
// Asking the server

let pending = 0;

/** The server's last answer (for drafts the engine starts, such as a free action's). */
let lastView = null;

async function refresh(clickedAt) {
  const mine = ++pending;
  const draft = rec.drafts.length ? rec.drafts[rec.drafts.length - 1] : null;
  let view;
  try {
    const response = await fetch("/record/next", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ log: rec.log, draft, free: rec.free }),
    });
    view = await response.json();
    if (!response.ok) throw new Error(`${view.code}: ${view.message}`);
  } catch (e) {
    if (mine === pending) showProblem(e.message);
    return;
  }
  if (mine !== pending) return; // a later click answered first
  render(view);
  if (clickedAt !== undefined) window.chronicleClicks.push(performance.now() - clickedAt);
  document.body.dataset.recorder = "ready";
}

function click(change) {
  return () => {
    const at = performance.now();
    document.body.dataset.recorder = "busy";
    change();
    save();
    refresh(at);
  };
}

function showProblem(text) {
  const status = $("#rec-status");
  status.replaceChildren();
  const p = document.createElement("p");
  p.className = "error";
  p.textContent = text;
  status.append(p);
  document.body.dataset.recorder = "ready";
}

// ---------------------------------------------------------------------------------------
// Showing the answer

function render(view) {
  $("#recorder-start").hidden = true;
  $("#recorder").hidden = false;
  renderStatus(view);
  $("#rec-board").innerHTML = view.board ?? "";
  renderSteps(view);
  renderWhole(view);
  renderFree(view);
  renderClaimed(view);
  renderTrail(view);
  const blob = new Blob([JSON.stringify(rec.log, null, 2)], { type: "application/json" });
  const link = $("#download");
  if (link.href.startsWith("blob:")) URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(blob);
  $("#undo").disabled = rec.log.entries.length === 0;
}

function renderStatus(view) {
  const status = $("#rec-status");
  status.replaceChildren();
  const p = document.createElement("p");
  p.id = "rec-verdict";
  p.dataset.status = view.status;
  p.textContent = `${view.entries} entries · round ${view.round}` + (view.phase ? ` · ${view.phase.replace(/_/g, " ")}` : "") + ` · ${view.status}`;
  status.append(p);
  if (view.error) {
    const e = document.createElement("p");
    e.className = "error";
    e.textContent = `${view.error.entry === null ? "Setup" : `Entry ${view.error.entry + 1}`}: ${view.error.message} (${view.error.code}). Undo the entry, or start a new game.`;
    status.append(e);
  }
}

function optionGroups(container, groups, cls, choose, seat) {
  container.replaceChildren();
  for (const g of groups) {
    const fs = document.createElement("fieldset");
    fs.className = "group";
    fs.dataset.group = g.id;
    const legend = document.createElement("legend");
    legend.textContent = g.label;
    fs.append(legend);
    // Chosen on the board when every option names its places; options that name the same
    // places (a cavern and a tunnel either way round) are told apart once the places are picked.
    const onBoard = seat !== undefined && g.options.length > 0 && g.options.every((o) => o.cells?.length);
    if (onBoard) {
      fs.append(boardPick(g, seat, choose));
    } else {
      const list = document.createElement("div");
      list.className = "options";
      for (const o of g.options) list.append(button(o.label, cls, click(() => choose(o))));
      fs.append(list);
    }
    container.append(fs);
  }
}

// ---------------------------------------------------------------------------------------
// Choosing on the board: the options of a placement name the cells they cover (`cells`, in
// the board's printed coordinates) and, for furnishings, the tile (`pick`, with its cost and
// points in `detail`). The player picks the tile, then clicks cells: every cell that continues
// some option is highlighted; the option whose cells are all clicked is chosen.

/** What is being picked on the board: the group, the tile chosen, the cells clicked so far. */
let picking = null;

function boardPick(group, seat, choose) {
  const box = document.createElement("div");
  box.className = "board-pick";
  if (!picking || picking.group !== group.id || picking.seat !== seat) picking = { group: group.id, seat, pick: null, cells: [] };
  const picks = [...new Map(group.options.filter((o) => o.pick).map((o) => [o.pick, o.detail ?? ""])).entries()];
  if (picks.length) {
    const list = document.createElement("div");
    list.className = "picker";
    for (const [name, detail] of picks) {
      const b = button("", "pick", () => {
        picking.pick = name;
        picking.cells = [];
        box.replaceWith(boardPick(group, seat, choose));
      });
      const strong = document.createElement("strong");
      strong.textContent = name;
      b.append(strong);
      if (detail) b.append(Object.assign(document.createElement("span"), { className: "detail", textContent: ` ${detail}` }));
      if (picking.pick === name) b.classList.add("chosen");
      list.append(b);
    }
    box.append(list);
  }
  const hint = document.createElement("p");
  hint.className = "hint";
  box.append(hint);
  const candidates = group.options.filter((o) => (!picks.length || o.pick === picking.pick) && picking.cells.every((c, i) => o.cells[i]?.at === c));
  if (picks.length && !picking.pick) {
    hint.textContent = "Choose a tile, then a highlighted space on the board.";
    highlight(seat, []);
    return box;
  }
  const complete = candidates.filter((o) => o.cells.length === picking.cells.length);
  if (complete.length > 1) {
    // The places picked are covered by more than one option: which one, in words.
    hint.textContent = `${picking.cells.join(", ")} chosen; which?`;
    highlight(seat, []);
    const list = document.createElement("div");
    list.className = "options ties";
    for (const o of complete) list.append(button(o.label, "option tie", click(() => { choose(o); picking = null; })));
    box.append(list, button("Start the placement again", "restart", () => {
      picking.cells = [];
      box.replaceWith(boardPick(group, seat, choose));
    }));
    return box;
  }
  const done = complete[0];
  if (done) {
    hint.textContent = `Chosen: ${done.label}.`;
    document.body.dataset.recorder = "busy";
    choose(done);
    picking = null;
    save();
    refresh(performance.now());
    return box;
  }
  const next = [...new Set(candidates.map((o) => o.cells[picking.cells.length]?.at).filter(Boolean))];
  hint.textContent = picking.cells.length
    ? `${picking.cells.join(", ")} chosen; now one of the highlighted spaces for the other half.`
    : `Click a highlighted place on the board (${next.length} possible): ${group.label.toLowerCase()}.`;
  highlight(seat, next, (at) => {
    picking.cells.push(at);
    box.replaceWith(boardPick(group, seat, choose));
  });
  if (picking.cells.length) box.append(button("Start the placement again", "restart", () => {
    picking.cells = [];
    box.replaceWith(boardPick(group, seat, choose));
  }));
  return box;
}

/**
 * The places a choice can name: the cells of the player's board (by printed coordinates) and
 * the rows of the shared areas (an action space, a card in a market row), by the id the
 * engine's view gives them.
 */
function places(seat) {
  const cells = [...document.querySelectorAll(`#rec-board .player[data-seat="${seat}"] .home-board .cell`)].map((el) => [el.dataset.at, el]);
  const rows = [...document.querySelectorAll("#rec-board [data-area] tr[data-row], #rec-board .player tr[data-at]")].map((el) => [el.dataset.at ?? el.dataset.row, el]);
  return [...cells, ...rows];
}

/** Marks the places a click can choose, and the places already chosen. */
function highlight(seat, cells, onPick) {
  for (const [at, cell] of places(seat)) {
    const target = cells.includes(at);
    cell.classList.toggle("target", target);
    cell.classList.toggle("picked", picking?.cells.includes(at) ?? false);
    cell.tabIndex = target ? 0 : -1;
    if (target) cell.setAttribute("role", "button");
    else if (cell.classList.contains("cell")) cell.setAttribute("role", "img");
    else cell.removeAttribute("role");
    cell.onclick = target ? () => onPick(at) : null;
    cell.onkeydown = target ? (ev) => {
      if (ev.key === "Enter" || ev.key === " ") {
        ev.preventDefault();
        onPick(at);
      }
    } : null;
  }
}

function renderSteps(view) {
  const steps = view.steps;
  const groups = $("#groups");
  const summary = $("#draft-summary");
  const record = $("#record-entry");
  groups.replaceChildren();
  record.hidden = true;
  $("#draft-back").hidden = rec.drafts.length === 0;
  summary.textContent = "";
  if (!steps) return;
  if (steps.refused) {
    summary.textContent = `This entry cannot go on: ${steps.refused}`;
    return;
  }
  const who = view.players[steps.draft?.player];
  summary.textContent = (who ? `${who}: ` : "") + (rec.trail.length ? rec.trail.join(" → ") : "choose below.");
  optionGroups(groups, steps.groups, "option", (o) => {
    rec.drafts.push(o.draft);
    rec.trail.push(o.label);
    (rec.previews ??= []).push(o.cells ?? []);
  }, steps.draft.player);
  showPreview(steps.draft.player);
  if (steps.unavailable?.length) {
    // What is not offered says why (the engine's reason), instead of simply missing.
    const why = document.createElement("details");
    why.id = "unavailable";
    const summary = document.createElement("summary");
    summary.textContent = `Not offered now (${steps.unavailable.length})`;
    const list = document.createElement("ul");
    for (const u of steps.unavailable) {
      const li = document.createElement("li");
      li.append(Object.assign(document.createElement("strong"), { textContent: u.label }), `: ${u.reason}`);
      list.append(li);
    }
    why.append(summary, list);
    groups.append(why);
  }
  if (steps.entry) {
    // What "Record this entry" records, in the engine's words.
    if (steps.said) {
      const said = Object.assign(document.createElement("p"), { id: "entry-said", className: "said", textContent: steps.said });
      groups.prepend(said);
    }
    record.hidden = false;
    record.onclick = click(() => {
      rec.log.entries.push(steps.entry);
      rec.drafts = [];
      rec.trail = [];
      rec.previews = [];
    });
  }
}

/** The tiles of the entry being built, drawn on the player's board before it is recorded. */
function showPreview(seat) {
  for (const { at, what } of (rec.previews ?? []).flat()) {
    const cell = $(`#rec-board .player[data-seat="${seat}"] .cell[data-at="${at}"]`);
    if (!cell) continue;
    cell.classList.add("preview");
    cell.replaceChildren(Object.assign(document.createElement("span"), { textContent: what }));
  }
}

function renderWhole(view) {
  const whole = $("#whole");
  whole.replaceChildren();
  if (!view.whole) return;
  const h = document.createElement("h3");
  h.textContent = "Choose the entry";
  whole.append(h);
  for (const w of view.whole) {
    whole.append(button(w.label, "whole", click(() => rec.log.entries.push(w.entry))));
  }
}

/** A free action's first draft for a seat, as the engine starts it. */
function freeStart(view, player) {
  return structuredClone(view.free_starts?.[player] ?? null);
}

function renderFree(view) {
  lastView = view;
  const select = $("#free-player");
  if (!select) return;
  if (select.options.length !== view.players.length) {
    select.replaceChildren(...view.players.map((name, i) => new Option(name, String(i))));
  }
  if (rec.free) select.value = String(rec.free.player);
  const groups = $("#free-groups");
  const record = $("#record-free");
  record.hidden = true;
  groups.replaceChildren();
  const free = view.free;
  if (!free) return;
  if (free.refused) {
    groups.textContent = free.refused;
    return;
  }
  optionGroups(groups, free.groups, "free-option", (o) => {
    rec.free = o.draft;
  });
  if (free.entry) {
    record.hidden = false;
    record.onclick = click(() => {
      rec.log.entries.push(free.entry);
      rec.free = freeStart(view, free.draft.player);
    });
  }
}

/** The entries recorded so far, in words (the engine's sentences), newest last. */
function renderTrail(view) {
  const list = $("#trail");
  if (!list) return;
  list.replaceChildren(...(view.trail ?? []).map((t) => Object.assign(document.createElement("li"), { textContent: t })));
  $("#trail-panel summary").textContent = `Entries so far (${(view.trail ?? []).length})`;
}

function renderClaimed(view) {
  const box = $("#claimed");
  box.hidden = view.status !== "complete";
  if (box.hidden) return;
  const inputs = $("#claimed-inputs");
  if (inputs.children.length !== view.players.length) {
    inputs.replaceChildren(
      ...view.players.map((name, i) => {
        const label = document.createElement("label");
        label.textContent = `${name} `;
        const input = document.createElement("input");
        input.type = "number";
        input.className = "claimed-score";
        input.value = view.claimed[i] ?? "";
        label.append(input);
        return label;
      }),
    );
  }
  // The engine's total so far, as a hint (it changes while final decisions are recorded).
  inputs.querySelectorAll(".claimed-score").forEach((input, i) => {
    input.placeholder = view.computed[i] ?? "";
  });
}

// ---------------------------------------------------------------------------------------
// Tools

function setUpTools() {
  $("#draft-back").addEventListener("click", click(() => {
    rec.drafts.pop();
    rec.trail.pop();
    rec.previews?.pop();
    picking = null;
  }));
  $("#undo").addEventListener("click", click(() => {
    rec.log.entries.pop();
    rec.drafts = [];
    rec.trail = [];
    rec.previews = [];
    picking = null;
  }));
  if ($("#free-panel")) {
    $("#free-player").addEventListener("change", click(() => {
      rec.free = freeStart(lastView, Number($("#free-player").value));
    }));
    $("#free-panel").addEventListener("toggle", () => {
      if ($("#free-panel").open && !rec.free) click(() => {
        rec.free = freeStart(lastView, Number($("#free-player").value || 0));
      })();
    });
    $("#free-clear").addEventListener("click", click(() => {
      if (rec.free) rec.free = freeStart(lastView, rec.free.player);
    }));
  }
  $("#save-claimed").addEventListener("click", click(() => {
    const scores = [...document.querySelectorAll(".claimed-score")].map((i) => i.value.trim());
    if (scores.every((s) => s !== "")) rec.log.claimed = { scores: scores.map(Number) };
    else delete rec.log.claimed;
  }));
  $("#download").addEventListener("click", () => {
    const names = rec.log.setup.players.map((p) => p.name).join("-").replace(/[^A-Za-z0-9-]+/g, "");
    $("#download").download = `${rec.log.format.split("-log")[0]}-${names || "game"}.json`;
  });
  const token = $("#token");
  token.value = localStorage.getItem("chronicle-token") ?? "";
  $("#submit-log").addEventListener("click", async () => {
    const out = $("#submit-result");
    localStorage.setItem("chronicle-token", token.value.trim());
    const query = "mutation RecorderSubmit($log: JSON!) { submitGame(log: $log) { duplicate game { id status } } }";
    const headers = { "content-type": "application/json" };
    if (token.value.trim()) headers.authorization = `Bearer ${token.value.trim()}`;
    const response = await fetch("/graphql", { method: "POST", headers, body: JSON.stringify({ query, variables: { log: rec.log }, operationName: "RecorderSubmit" }) });
    const body = await response.json().catch(() => ({ errors: [{ message: `HTTP ${response.status}` }] }));
    out.replaceChildren();
    if (body.errors?.length) {
      out.className = "error";
      out.textContent = `${body.errors[0].extensions?.code ?? "ERROR"}: ${body.errors[0].message}`;
      return;
    }
    const r = body.data.submitGame;
    out.className = "";
    const a = document.createElement("a");
    a.id = "stored-game";
    a.href = `/games/${r.game.id}`;
    a.textContent = `game ${r.game.id} (${r.game.status.toLowerCase()})`;
    out.append(r.duplicate ? "Stored already: " : "Stored: ", a);
  });
  $("#new-game").addEventListener("click", () => {
    if (rec && rec.log.entries.length && !confirm("Start a new game? The current log is lost unless downloaded.")) return;
    rec = null;
    save();
    $("#recorder").hidden = true;
    $("#recorder-start").hidden = false;
  });
}

setUpStart();
setUpTools();
if (rec) {
  refresh();
} else {
  $("#recorder-start").hidden = false;
  document.body.dataset.recorder = "ready";
}
