//! Village and Above and Below statistics through the real `chronicle serve`: simulated games
//! are stored with `submitGame`, and every number of `village { … }` / `aboveAndBelow { … }`
//! is checked against plain counts over the verdicts the server returned for those games; the
//! same numbers come back after a restart (loaded from the store), filters select games, and
//! the web pages show the tables with their caveat.

use serde_json::{json, Value};

use crate::common::server::*;
use crate::common::*;

both_stores!(outcome_statistics_match_plain_counts_over_the_stored_verdicts);

const PLAYER: &str = "players { seat winner score { total rows { id points } } counters { id value } }";

const STATS: &str = "games simulatedGames syntheticGames simulatedLeftOut playerGames soloGames \
    counters { counter label playerGames groups { low high winRate { successes n ciLow ciHigh belowMinSample } margin { mean n ciLow ciHigh } } } \
    mainSources { row label winRate { successes n } margin { mean n } } \
    rowPoints { row winners { mean n } others { mean n } } \
    seats { playerCount seat winRate { successes n } expected } \
    scoreDistribution { playerGames mean }";

fn simulated(game: &str, games: u32, players: u8, seed: u64) -> Vec<Value> {
    let (games, players, seed) = (games.to_string(), players.to_string(), seed.to_string());
    let args = ["simulate", "--game", game, "--games", &games, "--players", &players, "--seed", &seed, "--out", "-"];
    let out = chronicle().args(args).output().expect("chronicle simulate");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8").lines().map(|l| serde_json::from_str(l).expect("JSON")).collect()
}

fn submit(server: &Server, token: &str, log: &Value) -> Value {
    let q = format!("mutation($log: JSON!) {{ submitGame(log: $log) {{ game {{ status syntheticData {PLAYER} }} }} }}");
    let game = server.data(Some(token), &q, json!({ "log": log }))["submitGame"]["game"].clone();
    assert_eq!(game["status"], "COMPLETE", "{game}");
    game
}

fn stats(server: &Server, field: &str, filter: Value) -> Value {
    let q = format!("query($f: OutcomeStatsFilter) {{ {field}(filter: $f) {{ {STATS} }} }}");
    server.data(None, &q, json!({ "f": filter }))[field].clone()
}

/// One multiplayer player-game as the checks read it.
struct Seen {
    players: i64,
    seat: i64,
    winner: bool,
    total: i64,
    margin: f64,
    rows: Vec<(String, i64)>,
    counters: Vec<(String, i64)>,
}

fn seen(games: &[Value]) -> Vec<Seen> {
    let mut out = Vec::new();
    for g in games {
        let players = g["players"].as_array().expect("players");
        let totals: Vec<i64> = players.iter().map(|p| p["score"]["total"].as_i64().expect("total")).collect();
        if totals.len() < 2 {
            continue;
        }
        for (i, p) in players.iter().enumerate() {
            let others: i64 = totals.iter().sum::<i64>() - totals[i];
            let pairs = |list: &Value, key: &str| -> Vec<(String, i64)> {
                let items = list.as_array().expect("list");
                items
                    .iter()
                    .map(|x| (x["id"].as_str().expect("id").to_owned(), x[key].as_i64().expect("value")))
                    .collect()
            };
            out.push(Seen {
                players: totals.len() as i64,
                seat: p["seat"].as_i64().expect("seat"),
                winner: p["winner"] == true,
                total: totals[i],
                margin: totals[i] as f64 - others as f64 / (totals.len() - 1) as f64,
                rows: pairs(&p["score"]["rows"], "points"),
                counters: pairs(&p["counters"], "value"),
            });
        }
    }
    out
}

fn close(a: &Value, b: f64) -> bool {
    a.as_f64().is_some_and(|a| (a - b).abs() < 1e-9)
}

fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// Wins and player-games of `group`, and its margins.
fn tally<'a>(group: impl Iterator<Item = &'a Seen>) -> (u64, u64, Vec<f64>) {
    let (mut wins, mut n, mut margins) = (0, 0, Vec::new());
    for s in group {
        wins += u64::from(s.winner);
        n += 1;
        margins.push(s.margin);
    }
    (wins, n, margins)
}

fn check_counters(stats: &Value, seen: &[Seen]) {
    for c in stats["counters"].as_array().expect("counters") {
        let id = c["counter"].as_str().expect("id");
        let value = |s: &Seen| s.counters.iter().find(|(k, _)| k == id).map(|(_, v)| *v);
        assert_eq!(c["playerGames"], seen.iter().filter(|s| value(s).is_some()).count(), "{id}");
        let mut covered = 0;
        for g in c["groups"].as_array().expect("groups") {
            let low = g["low"].as_i64().expect("low");
            let high = g["high"].as_i64().unwrap_or(i64::MAX);
            let (wins, n, margins) = tally(seen.iter().filter(|s| value(s).is_some_and(|v| v >= low && v <= high)));
            assert_eq!(
                (g["winRate"]["successes"].as_u64(), g["winRate"]["n"].as_u64()),
                (Some(wins), Some(n)),
                "{id} {g}"
            );
            assert!(n > 0 && close(&g["margin"]["mean"], mean(&margins)), "{id} {g}");
            covered += n;
        }
        assert_eq!(c["playerGames"], covered, "{id}: the groups cover every player-game once");
    }
}

fn main_source(s: &Seen) -> &str {
    let best = s.rows.iter().map(|r| r.1).max().expect("rows");
    &s.rows.iter().find(|r| r.1 == best).expect("a row").0
}

fn check_sources_seats_scores(stats: &Value, seen: &[Seen]) {
    let sources = stats["mainSources"].as_array().expect("sources");
    assert_eq!(sources.iter().map(|s| s["winRate"]["n"].as_u64().unwrap()).sum::<u64>(), seen.len() as u64);
    for s in sources {
        let row = s["row"].as_str().expect("row");
        let (wins, n, margins) = tally(seen.iter().filter(|x| main_source(x) == row));
        assert_eq!((s["winRate"]["successes"].as_u64(), s["winRate"]["n"].as_u64()), (Some(wins), Some(n)), "{s}");
        assert!(close(&s["margin"]["mean"], mean(&margins)), "{s}");
    }
    for p in stats["rowPoints"].as_array().expect("row points") {
        let row = p["row"].as_str().expect("row");
        let points = |winner: bool| -> Vec<f64> {
            let of = |x: &Seen| x.rows.iter().find(|r| r.0 == row).map(|r| r.1 as f64);
            seen.iter().filter(|x| x.winner == winner).filter_map(of).collect()
        };
        assert!(close(&p["winners"]["mean"], mean(&points(true))) && close(&p["others"]["mean"], mean(&points(false))));
    }
    for s in stats["seats"].as_array().expect("seats") {
        let (pc, seat) = (s["playerCount"].as_i64(), s["seat"].as_i64());
        let (wins, n, _) = tally(seen.iter().filter(|x| Some(x.players) == pc && Some(x.seat) == seat));
        assert_eq!((s["winRate"]["successes"].as_u64(), s["winRate"]["n"].as_u64()), (Some(wins), Some(n)), "{s}");
    }
    let totals: Vec<f64> = seen.iter().map(|s| s.total as f64).collect();
    assert_eq!(stats["scoreDistribution"]["playerGames"], seen.len());
    assert!(close(&stats["scoreDistribution"]["mean"], mean(&totals)));
}

fn check(server: &Server, field: &str, games: &[Value], solo: usize) -> Value {
    let all = stats(server, field, json!({ "minSample": 0 }));
    let seen = seen(games);
    assert_eq!(all["games"], games.len() - solo);
    assert_eq!((all["playerGames"].as_u64(), all["soloGames"].as_u64()), (Some(seen.len() as u64), Some(solo as u64)));
    check_counters(&all, &seen);
    check_sources_seats_scores(&all, &seen);
    // What the figures are computed over: every stored game here was played by the bots on the
    // synthetic component data (each verdict says so).
    let multiplayer: Vec<&Value> =
        games.iter().filter(|g| g["players"].as_array().is_some_and(|p| p.len() > 1)).collect();
    let synthetic = multiplayer.iter().filter(|g| g["syntheticData"] == true).count();
    assert_eq!(synthetic, multiplayer.len(), "the simulator's games declare synthetic data");
    assert_eq!(
        (all["simulatedGames"].as_u64(), all["syntheticGames"].as_u64()),
        (Some(synthetic as u64), Some(synthetic as u64))
    );
    let three = games.iter().filter(|g| g["players"].as_array().is_some_and(|p| p.len() >= 3)).count();
    assert_eq!(stats(server, field, json!({ "minPlayers": 3 }))["games"], three);
    assert_eq!(stats(server, field, json!({ "source": "simulate:" }))["games"], games.len() - solo);
    let none = stats(server, field, json!({ "excludeSource": "simulate" }));
    assert_eq!(
        (none["games"].as_u64(), none["soloGames"].as_u64(), none["counters"][0]["groups"].as_array().map(Vec::len)),
        (Some(0), Some(0), Some(0))
    );
    all
}

fn outcome_statistics_match_plain_counts_over_the_stored_verdicts(db: Database) {
    let server = Server::start(&db, &[]);
    let token = create_token(&db, "simulator");
    let mut village = Vec::new();
    for (games, players, seed) in [(3, 3, 1), (2, 2, 2), (1, 1, 3)] {
        village.extend(simulated("village", games, players, seed).iter().map(|g| submit(&server, &token, g)));
    }
    let mut aab = Vec::new();
    for (games, players, seed) in [(3, 2, 4), (2, 3, 5)] {
        aab.extend(simulated("above-and-below", games, players, seed).iter().map(|g| submit(&server, &token, g)));
    }
    let before = (check(&server, "village", &village, 1), check(&server, "aboveAndBelow", &aab, 0));
    assert_eq!(before.0["counters"][0]["label"], "Cities visited (travel discs placed)");
    let (code, message) = server.error_code(None, "{ village(filter: { minPlayers: 0 }) { games } }", json!({}));
    assert_eq!((code, message.as_str()), (200, "BAD_USER_INPUT"));

    let (status, page) = server.get("/stats/village");
    assert_eq!(status, 200);
    assert!(page.contains("Cities visited (travel discs placed)") && page.contains("They control for nothing"));
    assert!(page.contains("id=\"main-sources\"") && page.contains("n="), "tables with their samples");
    assert!(
        page.contains("5 multiplayer games") && page.contains("5 played by Chronicle's bots (simulated)"),
        "the page says what it is computed over"
    );
    assert!(page.contains("5 on synthetic component data") && page.contains("id=\"corpus-notice\""), "and warns");
    let (status, page) = server.get("/stats/above-and-below?exclude_source=simulate");
    assert_eq!(status, 200);
    assert!(page.contains("0 multiplayer games (0 player-games") && page.contains("value=\"simulate\""));
    assert!(!page.contains("id=\"corpus-notice\""), "no notice over no game");
    assert_eq!(server.get("/stats/above-and-below?players=x").0, 400);
    assert!(server.get("/stats/furnishings").1.contains("href=\"/stats/above-and-below\""), "linked from the tabs");

    server.terminate();
    let server = Server::start(&db, &[]);
    let after = (
        stats(&server, "village", json!({ "minSample": 0 })),
        stats(&server, "aboveAndBelow", json!({ "minSample": 0 })),
    );
    assert_eq!(before, after, "loaded from the store at start, the same numbers");

    // A game played by people (the same log without the simulator's source): from then on the
    // simulated games are left out by default, and the page says so (docs/statistics.md).
    let mut real = simulated("village", 1, 3, 9).remove(0);
    real["meta"] = json!({ "place": "a club" });
    submit(&server, &token, &real);
    let mixed = stats(&server, "village", json!({ "minSample": 0 }));
    assert_eq!((mixed["games"].as_u64(), mixed["simulatedLeftOut"].as_u64()), (Some(1), Some(6)), "{mixed}");
    assert_eq!(mixed["simulatedGames"], 0);
    let all = stats(&server, "village", json!({ "minSample": 0, "includeSimulated": true }));
    assert_eq!((all["games"].as_u64(), all["simulatedLeftOut"].as_u64()), (Some(6), Some(0)));
    let (_, page) = server.get("/stats/village");
    assert!(
        page.contains("id=\"simulated-left-out\"") && page.contains("6 games played by Chronicle's bots are left out")
    );
    assert!(server.get("/stats/village?include_simulated=1").1.contains("6 multiplayer games"));
}

/// Caverna's statistics pages say what they are computed over and do not mix simulated games
/// with games played by people (docs/statistics.md): with one real 3-player game and two
/// simulated 2-player games stored, the pages count the real game's 3 player-games and say the
/// 4 simulated ones are left out; asked to include them, they count all 7 and say 4 are
/// simulated.
#[test]
fn caverna_statistics_leave_simulated_games_out_when_real_ones_exist() {
    let db = Database::sqlite();
    let server = Server::start(&db, &[]);
    let token = create_token(&db, "organiser");
    let real: Value = serde_json::from_slice(&fixture("complete_3p.json").bytes).expect("JSON");
    submit(&server, &token, &real);
    for log in simulated("caverna", 2, 2, 11) {
        submit(&server, &token, &log);
    }
    for family in ["furnishings", "weapons", "seats", "scores", "spaces"] {
        let (status, page) = server.get(&format!("/stats/{family}"));
        assert_eq!(status, 200, "{family}");
        assert!(page.contains("Computed over 3 player-games: 0 from games Chronicle's bots played"), "{family}");
        assert!(page.contains("4 player-games from games Chronicle's bots played are left out"), "{family}");
        assert!(page.contains("href=\"?include_simulated=1\""), "{family}: a link keeps them");
        let (_, all) = server.get(&format!("/stats/{family}?include_simulated=1"));
        assert!(all.contains("Computed over 7 player-games: 4 from games Chronicle's bots played"), "{family}");
        assert!(!all.contains("id=\"simulated-left-out\""), "{family}");
    }
    // The API answers alike and says so.
    let q =
        "query($f: StatsFilter) { caverna { corpus(filter: $f) { playerGames simulatedPlayerGames simulatedLeftOut } \
             seatStats(filter: $f) { bySeat { winRate { n } } } } }";
    let counted = |f: Value| {
        let c = server.data(None, q, json!({ "f": f }))["caverna"].clone();
        let seats: i64 =
            c["seatStats"]["bySeat"].as_array().unwrap().iter().map(|s| s["winRate"]["n"].as_i64().unwrap()).sum();
        (c["corpus"].clone(), seats)
    };
    assert_eq!(counted(json!({})), (json!({ "playerGames": 3, "simulatedPlayerGames": 0, "simulatedLeftOut": 4 }), 3));
    let all = json!({ "playerGames": 7, "simulatedPlayerGames": 4, "simulatedLeftOut": 0 });
    assert_eq!(counted(json!({ "includeSimulated": true })), (all, 7));
    // So do the strategy effects, on the page and in the API.
    let effects = |include: bool| {
        let q = "query($i: Boolean!) { caverna { strategyEffects(includeSimulated: $i) { playerGames } } }";
        server.data(None, q, json!({ "i": include }))["caverna"]["strategyEffects"][0]["playerGames"].clone()
    };
    assert_eq!((effects(false), effects(true)), (json!(3), json!(7)));
    let (_, page) = server.get("/stats/strategies");
    assert!(page.contains("id=\"simulated-left-out\"") && page.contains("Computed over 3 player-games"), "{page}");
    let (_, bots) = server.get("/stats/furnishings?source=simulate");
    assert!(
        bots.contains("Computed over 4 player-games: 4 from")
            && bots.contains("Most of these games were played by bots")
    );
}

/// docs/statistics.md "Rates and intervals", "Support": on a corpus far below every minimum
/// sample (a few games of each title), no statistics page draws an interval — no bar, no
/// "95% interval", no "(low to high)" — and the cells say why.
#[test]
fn no_statistics_page_draws_an_interval_from_a_tiny_corpus() {
    let db = Database::sqlite();
    let server = Server::start(&db, &[]);
    let token = create_token(&db, "organiser");
    let real: Value = serde_json::from_slice(&fixture("complete_3p.json").bytes).expect("JSON");
    submit(&server, &token, &real);
    for (game, players) in [("caverna", 2), ("village", 3), ("above-and-below", 3)] {
        for log in simulated(game, 3, players, 5) {
            submit(&server, &token, &log);
        }
    }
    let pages = ["furnishings", "weapons", "seats", "scores", "spaces", "strategies", "village", "above-and-below"];
    for page in pages {
        let (status, html) = server.get(&format!("/stats/{page}?include_simulated=1"));
        assert_eq!(status, 200, "{page}");
        let drawn =
            html.contains("class=\"bar\"") || html.contains("; 95% interval") || html.contains("\"95% interval");
        assert!(!drawn, "{page}: an interval is drawn");
        for (i, _) in html.match_indices("<span class=\"n\"> (") {
            let rest = &html[i..];
            let shown = &rest[..rest.find(')').unwrap_or(rest.len())];
            assert!(!shown.contains(" to "), "{page}: an interval is written: {shown}");
        }
        let without_rates = ["scores", "spaces"].contains(&page);
        let why = html.contains("too few for an interval") || html.contains("not enough data");
        assert!(why || without_rates, "{page}: says why");
    }
}
