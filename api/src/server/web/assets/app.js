// Chronicle's pages work without this script; it adds uploads, stepping through a replay
// without reloading, and sortable tables. It asks the server for everything (GraphQL at
// /graphql, the board at /games/ID/board): no rule of any game is checked here.

const $ = (sel, root = document) => root.querySelector(sel);

async function graphql(query, variables, token) {
  const headers = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  // Every operation here is named; the name goes with it (the server's metrics count it).
  const operationName = query.match(/^(?:query|mutation) (\w+)/)?.[1];
  const body0 = JSON.stringify({ query, variables, operationName });
  const response = await fetch("/graphql", { method: "POST", headers, body: body0 });
  const body = await response.json().catch(() => ({ errors: [{ message: `HTTP ${response.status}` }] }));
  if (body.errors && body.errors.length) {
    const e = body.errors[0];
    throw new Error(`${e.extensions?.code ?? "ERROR"}: ${e.message}`);
  }
  return body.data;
}

// ---------------------------------------------------------------------------------------
// Upload (home page)

function remember(input, key) {
  if (!input) return;
  input.value = localStorage.getItem(key) ?? "";
  input.addEventListener("change", () => localStorage.setItem(key, input.value.trim()));
}

/** The logs of a file: one JSON document, or one per line (NDJSON). */
function logsOf(name, text) {
  const trimmed = text.trim();
  if (!trimmed) return [];
  try {
    return [{ name, log: JSON.parse(trimmed) }];
  } catch {
    return trimmed.split("\n").filter((l) => l.trim()).map((line, i) => {
      try {
        return { name: `${name}:${i + 1}`, log: JSON.parse(line) };
      } catch (e) {
        return { name: `${name}:${i + 1}`, error: `not JSON: ${e.message}` };
      }
    });
  }
}

const VERDICT =
  "game status round error { entry player code message } players { name winner score { total } } claimedMismatches { player claimed computed }";

function showResult(list, item, verdict, game, duplicate) {
  const li = document.createElement("li");
  li.className = `result ${verdict ? verdict.status.toLowerCase() : "failed"}`;
  const title = document.createElement("strong");
  title.textContent = item.name;
  li.append(title, " — ");
  if (!verdict) {
    li.append(item.error);
  } else {
    li.append(verdict.status.toLowerCase());
    if (verdict.error) li.append(`: ${verdict.error.entry == null ? "setup" : `entry ${verdict.error.entry + 1}`}, ${verdict.error.code} — ${verdict.error.message}`);
    if (verdict.players?.length && verdict.status === "COMPLETE") {
      li.append(` (${verdict.players.map((p) => `${p.winner ? "★" : ""}${p.name} ${p.score?.total ?? ""}`).join(", ")})`);
    }
    // Scores written at the table that the engine does not agree with, by the player's name.
    for (const m of verdict.claimedMismatches ?? []) {
      const who = verdict.players?.[m.player]?.name ?? `seat ${m.player + 1}`;
      const warn = document.createElement("span");
      warn.className = "mismatch";
      warn.textContent = ` · ${who}'s score was written as ${m.claimed}, the rules give ${m.computed}`;
      li.append(warn);
    }
    if (game) {
      const a = document.createElement("a");
      a.href = `/games/${game}`;
      a.textContent = duplicate ? ` stored already as game #${game}` : ` stored as game #${game}`;
      li.append(a);
    }
  }
  list.append(li);
}

async function upload(store) {
  const list = $("#results");
  const token = $("#token").value.trim();
  localStorage.setItem("chronicle-token", token);
  list.replaceChildren();
  const items = [];
  for (const file of $("#files").files) items.push(...logsOf(file.name, await file.text()));
  if ($("#paste").value.trim()) items.push(...logsOf("pasted log", $("#paste").value));
  if (!items.length) {
    list.innerHTML = "<li>Choose or drop files, or paste a log.</li>";
    return;
  }
  if (store && !token) {
    list.innerHTML = "<li class=\"failed\">Storing needs an API token (chronicle token create).</li>";
    return;
  }
  const progress = document.createElement("li");
  list.append(progress);
  let done = 0;
  for (const item of items) {
    progress.textContent = `${done} of ${items.length}…`;
    if (item.error) {
      showResult(list, item, null);
    } else {
      try {
        if (store) {
          const q = `mutation SubmitGames($logs: [JSON!]!) { submitGames(logs: $logs) { duplicate game { id ${VERDICT} } } }`;
          const data = await graphql(q, { logs: [item.log] }, token);
          const r = data.submitGames[0];
          showResult(list, item, r.game, r.game.id, r.duplicate);
        } else {
          const data = await graphql(`query VerifyLog($log: JSON!) { verifyLog(log: $log) { ${VERDICT} } }`, { log: item.log });
          showResult(list, item, data.verifyLog);
        }
      } catch (e) {
        showResult(list, { name: item.name, error: e.message }, null);
      }
    }
    done += 1;
  }
  progress.textContent = `${done} of ${items.length} done`;
}

function setUpUpload() {
  if (!$("#upload-form")) return;
  remember($("#token"), "chronicle-token");
  $("#verify").addEventListener("click", () => upload(false));
  $("#store").addEventListener("click", () => upload(true));
  const drop = $("#drop");
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    $("#files").files = e.dataTransfer.files;
    drop.textContent = `${e.dataTransfer.files.length} file(s) chosen`;
  });
}

// ---------------------------------------------------------------------------------------
// Replay viewer (game page)

function setUpViewer() {
  const viewer = $("#viewer");
  if (!viewer || !$("#slider")) return;
  const game = viewer.dataset.game;
  const max = Number(viewer.dataset.max);
  let at = Number(viewer.dataset.at);
  let loading = 0;

  async function show(n, push = true) {
    n = Math.max(0, Math.min(max, n));
    const ticket = ++loading;
    const response = await fetch(`/games/${game}/board?at=${n}`);
    if (ticket !== loading || !response.ok) return;
    $("#board").innerHTML = await response.text();
    at = n;
    viewer.dataset.at = String(n);
    $("#slider").value = String(n);
    for (const [cls, target] of [["first", 0], ["prev", n - 1], ["next", n + 1], ["last", max]]) {
      const link = viewer.querySelector(`.controls .${cls}`);
      if (!link) continue;
      link.setAttribute("href", `?at=${Math.max(0, Math.min(max, target))}#board`);
      link.classList.toggle("disabled", target < 0 || target > max || (cls === "first" && n === 0) || (cls === "last" && n === max));
    }
    for (const row of document.querySelectorAll("#ledger tr[data-entry]")) {
      row.classList.toggle("current", Number(row.dataset.entry) === n);
    }
    if (push) history.replaceState(null, "", `#entry-${n}`);
  }

  const ledger = $("#ledger");
  if (ledger) {
    ledger.addEventListener("click", (e) => {
      const link = e.target.closest("a");
      if (!link) return;
      e.preventDefault();
      show(Number(link.closest("tr").dataset.entry));
      $("#viewer").scrollIntoView();
    });
  }
  viewer.querySelector(".controls").addEventListener("click", (e) => {
    const link = e.target.closest("a");
    if (!link) return;
    e.preventDefault();
    const target = { first: 0, prev: at - 1, next: at + 1, last: max }[link.classList[0]];
    if (target !== undefined) show(target);
  });
  $("#slider").addEventListener("input", (e) => show(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, textarea, select")) return;
    if (e.key === "ArrowLeft") { e.preventDefault(); show(at - 1); }
    if (e.key === "ArrowRight") { e.preventDefault(); show(at + 1); }
  });
  const permalink = /^#entry-(\d+)$/.exec(location.hash);
  if (permalink) show(Number(permalink[1]), false);
}

// ---------------------------------------------------------------------------------------
// Sortable tables (statistics)

function setUpSorting() {
  for (const table of document.querySelectorAll("table.sortable")) {
    table.querySelectorAll("thead th").forEach((th, column) => {
      th.tabIndex = 0;
      th.setAttribute("role", "button");
      const sort = () => {
        const descending = th.dataset.order !== "desc";
        table.querySelectorAll("thead th").forEach((h) => { delete h.dataset.order; h.removeAttribute("aria-sort"); });
        th.dataset.order = descending ? "desc" : "asc";
        th.setAttribute("aria-sort", descending ? "descending" : "ascending");
        const numeric = th.dataset.type === "num";
        const key = (row) => {
          const cell = row.children[column];
          const raw = cell?.dataset.sort ?? cell?.textContent ?? "";
          return numeric ? Number(raw) : raw.trim().toLowerCase();
        };
        // A figure from a small sample (or none: not enough data) never sorts to the top: those
        // rows follow the others, in either direction.
        const weak = (row) => {
          const cell = row.children[column];
          return cell?.classList.contains("small") || cell?.classList.contains("not-enough") ? 1 : 0;
        };
        const rows = [...table.tBodies[0].rows];
        rows.sort((a, b) => {
          const [x, y] = [key(a), key(b)];
          const order = numeric ? (x - y || 0) : x.localeCompare(y);
          return weak(a) - weak(b) || (descending ? -order : order);
        });
        table.tBodies[0].append(...rows);
      };
      th.addEventListener("click", sort);
      th.addEventListener("keydown", (e) => { if (e.key === "Enter") sort(); });
    });
  }
}

// ---------------------------------------------------------------------------------------
// Organizer (tournament page)

function setUpOrganizer() {
  const form = $("#organizer-form");
  if (!form) return;
  const key = `chronicle-organizer-${form.dataset.tournament}`;
  remember($("#organizer-token"), key);
  const run = async (query, variables) => {
    const token = $("#organizer-token").value.trim();
    localStorage.setItem(key, token);
    try {
      await graphql(query, { t: form.dataset.tournament, ...variables }, token);
      location.reload();
    } catch (e) {
      $("#organizer-result").textContent = e.message;
    }
  };
  $("#add").addEventListener("click", () => run(
    "mutation AddGamesToTournament($t: ID!, $g: [ID!]!) { addGamesToTournament(tournamentId: $t, gameIds: $g) { id } }",
    { g: $("#add-games").value.split(/[\s,]+/).filter(Boolean) }));
  $("#rename").addEventListener("click", () => run(
    "mutation RenameTournament($t: ID!, $n: String!) { renameTournament(tournamentId: $t, name: $n) { id } }",
    { n: $("#new-name").value }));
  form.addEventListener("click", (e) => {
    const row = e.target.closest("tr[data-game]");
    if (!row) return;
    if (e.target.matches(".remove-game")) {
      run("mutation RemoveTournamentGame($t: ID!, $g: ID!) { removeGameFromTournament(tournamentId: $t, gameId: $g) { id } }",
        { g: row.dataset.game });
    }
    if (e.target.matches(".replace-game")) {
      run("mutation ReplaceTournamentGame($t: ID!, $g: ID!, $n: ID!) { replaceTournamentGame(tournamentId: $t, gameId: $g, newGameId: $n) { id } }",
        { g: row.dataset.game, n: row.querySelector(".replacement").value });
    }
  });
  // Replace by upload: the corrected log is stored with the API token, then put in the game's
  // place with the organizer token.
  remember($("#upload-token"), "chronicle-token");
  form.addEventListener("change", async (e) => {
    if (!e.target.matches(".replacement-file") || !e.target.files.length) return;
    const row = e.target.closest("tr[data-game]");
    const apiToken = $("#upload-token").value.trim();
    localStorage.setItem("chronicle-token", apiToken);
    try {
      const log = JSON.parse(await e.target.files[0].text());
      const stored = await graphql("mutation SubmitGames($logs: [JSON!]!) { submitGames(logs: $logs) { game { id status } } }", { logs: [log] }, apiToken);
      const game = stored.submitGames[0].game;
      $("#organizer-result").textContent = `Stored as game #${game.id} (${game.status.toLowerCase()}); replacing…`;
      await run("mutation ReplaceTournamentGame($t: ID!, $g: ID!, $n: ID!) { replaceTournamentGame(tournamentId: $t, gameId: $g, newGameId: $n) { id } }",
        { g: row.dataset.game, n: game.id });
    } catch (err) {
      $("#organizer-result").textContent = err.message;
    }
  });
}

// ---------------------------------------------------------------------------------------
// Creating a tournament (tournaments page)

function setUpCreate() {
  if (!$("#create-form")) return;
  remember($("#token"), "chronicle-token");
  $("#create-tournament").addEventListener("click", async () => {
    const token = $("#token").value.trim();
    localStorage.setItem("chronicle-token", token);
    const out = $("#create-result");
    try {
      const data = await graphql("mutation CreateTournament($n: String!) { createTournament(name: $n) { organizerToken tournament { id name } } }",
        { n: $("#tournament-name").value }, token);
      const { tournament, organizerToken } = data.createTournament;
      // Kept for the tournament's page; shown once, to be written down as well.
      localStorage.setItem(`chronicle-organizer-${tournament.id}`, organizerToken);
      out.replaceChildren("Created. Organizer token (shown only now; this browser keeps it): ");
      const code = document.createElement("code");
      code.id = "new-organizer-token";
      code.textContent = organizerToken;
      const link = document.createElement("a");
      link.href = `/tournaments/${tournament.id}`;
      link.textContent = ` open ${tournament.name}`;
      out.append(code, link);
      // The list shows the new tournament at once.
      const body = $("#tournaments tbody");
      if (body) {
        const row = body.insertRow();
        const a = document.createElement("a");
        a.href = `/tournaments/${tournament.id}`;
        a.textContent = tournament.name;
        row.insertCell().append(a);
        row.insertCell().textContent = "just now";
        body.closest("div").hidden = false;
        $("#no-tournaments")?.remove();
      }
    } catch (e) {
      out.textContent = e.message;
    }
  });
}

setUpCreate();
setUpUpload();
setUpViewer();
setUpSorting();
setUpOrganizer();

// ---------------------------------------------------------------------------------------
// A page part that is still being made on the server (an analysis) asks for the page again
// after the seconds its `data-refresh` says.

const refreshing = $("[data-refresh]");
if (refreshing) {
  const seconds = Number(refreshing.dataset.refresh) || 5;
  setTimeout(() => location.reload(), seconds * 1000);
}
