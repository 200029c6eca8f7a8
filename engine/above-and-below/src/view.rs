//! What a position looks like: the state view for clients ([`crate::AboveAndBelow`]'s
//! `state_view`, [`state_json`]) and the board view pages draw ([`board_view`], the typed
//! contract of `chronicle_game::view`, in the players' words).
//!
//! The state view's shape (every key always present unless marked optional):
//!
//! ```text
//! {
//!   "round": 1..7, "phase": "actions" | "round_end" | "game_end",
//!   "first_player": seat, "to_move": seat | null (the action phase only),
//!   "passed": [bool per seat], "board_cider": bool,
//!   "rows": { "houses": [id|null ×4], "outposts": [id|null ×4], "keys": [id|null ×4],
//!             "stars": [id|null ×6], "villagers": [id|null ×5] },
//!   "train_costs": [5 numbers],
//!   "decks": { "houses": n, "outposts": n, "villagers": n, "caves": n,   // cards left to draw
//!              "cave_next": id | null },                                  // when known
//!   "specials_aside": [ids],
//!   "players": [ {
//!       "name", "coins", "reputation": position, "potions", "cider",
//!       "reserve": { good: n }, "sale": item | null,
//!       "storage": [ { "good", "n" } ], "income": coins at the next round end,
//!       "villagers": [ { "id", "state": "ready"|"exhausted"|"injured" } ],
//!       "houses": [ { "id", "kind", "tokens": [goods] } ],
//!       "caves": [ { "id", "outpost": { "id", "kind", "tokens" } | null } ],
//!       "beds": n, "declared": { card: vp },
//!       "provisional_score": { "rows": { row id: points }, "total": n },
//!       "trust": { the G.5 counts }
//!   } ]
//! }
//! ```
//!
//! `provisional_score` is the score if the game ended now (F.10); it is final once the phase is
//! `game_end`.

use chronicle_game::view::{list_text, words, Area, BoardView, Count, Line, Panel, ScoreNow, Table, TableRow};
use serde_json::{json, Map, Value};

use crate::game::{Game, OwnedCard, Phase, Player};
use crate::ids::Good;
use crate::notation::Effect;
use crate::rules::rest::beds;
use crate::rules::scoring::{score, ScoreBreakdown};
use crate::setup::Setup;
use crate::synthetic::LABEL;

pub fn state_json(game: &Game) -> Value {
    let scores = score(game);
    json!({
        "round": game.round(),
        "phase": game.phase().id(),
        "first_player": game.first,
        "to_move": game.to_move(),
        "passed": game.passed,
        "board_cider": game.board_cider,
        "rows": {
            "houses": game.house_row, "outposts": game.outpost_row, "keys": game.key_row,
            "stars": game.star_row, "villagers": game.villager_row,
        },
        "train_costs": game.setup.board.train_costs,
        "decks": {
            "houses": game.decks.houses.len(), "outposts": game.decks.outposts.len(),
            "villagers": game.decks.villagers.len(), "caves": game.decks.caves.len(),
            "cave_next": game.decks.caves.peek_known(),
        },
        "specials_aside": game.specials,
        "players": game.players().iter().enumerate().map(|(i, p)| player_json(game, i, p, &scores[i])).collect::<Vec<_>>(),
    })
}

fn player_json(game: &Game, seat: usize, p: &Player, s: &ScoreBreakdown) -> Value {
    let mut reserve = Map::new();
    for g in Good::ALL {
        reserve.insert(g.id().into(), json!(p.reserve[g.index()]));
    }
    let mut rows = Map::new();
    for (id, points) in s.rows() {
        rows.insert(id.into(), json!(points));
    }
    json!({
        "name": p.name,
        "coins": p.coins,
        "reputation": p.reputation,
        "potions": p.potions,
        "cider": p.cider,
        "reserve": reserve,
        "sale": p.sale.map(|i| i.id()),
        "storage": p.storage.iter().map(|(g, n)| json!({"good": g.id(), "n": n})).collect::<Vec<_>>(),
        "income": income(game, seat),
        "villagers": p.villagers,
        "houses": p.houses,
        "caves": p.caves,
        "beds": crate::rules::rest::beds(game, seat),
        "declared": p.declared,
        "provisional_score": { "rows": rows, "total": s.total },
        "trust": p.trust,
    })
}

/// The coins a player earns at the next round end (F.6): the board's income level for the
/// goods types on the storage track, plus the income of the player's cards. Both views show it,
/// so it is worked out once.
fn income(game: &Game, seat: usize) -> u64 {
    let level = u64::from(game.setup.board.income_level(game.players[seat].storage.len()));
    level + game.sum(seat, |e| if let Effect::IncomeCoins { n } = e { Some(*n) } else { None })
}

/// The position as pages draw it, in the players' words: the round, phase and who is to move,
/// the face-up rows and decks, and one panel per seat with the score if the game ended now. It
/// shows what [`state_json`] holds, so that pages need neither the state JSON nor the rules.
pub fn board_view(game: &Game) -> BoardView {
    let scores = score(game);
    let players = game.players().iter().zip(&scores).enumerate();
    BoardView {
        round: u16::from(game.round()),
        phase: phase_words(game.phase()).to_owned(),
        to_move: game.to_move(),
        waiting_for: waiting_for(game.phase()).map(str::to_owned),
        notes: notes(game),
        areas: vec![rows_area(game), decks_area(game)],
        players: players.map(|(seat, (p, s))| panel(game, seat, p, s)).collect(),
        others: Vec::new(),
    }
}

/// A phase as players say it (the phase ids are the state view's, not the table's).
fn phase_words(phase: Phase) -> &'static str {
    match phase {
        Phase::Actions => "action phase",
        Phase::RoundEnd => "end of the round",
        Phase::Over => "game over",
    }
}

/// What the game waits for when no player is to move: every player passed (F.1), or round 7
/// is over and only storing and declaring may follow before scoring (F.9).
fn waiting_for(phase: Phase) -> Option<&'static str> {
    match phase {
        Phase::Actions => None,
        Phase::RoundEnd => Some("the end of the round: cider, villagers, rest, income and restock"),
        Phase::Over => Some("the final scoring; goods may still be stored and card points declared"),
    }
}

/// Facts of the moment: who passed this round (they act no more until it ends), and whether
/// the cards are the labelled synthetic set, so that no reader takes them for the printed game.
fn notes(game: &Game) -> Vec<String> {
    let passed: Vec<&str> =
        game.players().iter().zip(&game.passed).filter(|(_, passed)| **passed).map(|(p, _)| p.name.as_str()).collect();
    let passed = (!passed.is_empty()).then(|| format!("Passed this round: {}", passed.join(", ")));
    passed.into_iter().chain(synthetic_note(game.setup())).collect()
}

/// The note a game played with the synthetic component set carries (its `source` fields say
/// so, [`crate::synthetic`]); none for data a log declares as anything else.
fn synthetic_note(setup: &Setup) -> Option<String> {
    let synthetic = |source: &Option<String>| source.as_deref().is_some_and(|s| s.starts_with(LABEL));
    let what = match (synthetic(&setup.catalogue.source), synthetic(&setup.board.source)) {
        (true, true) => "Cards and board numbers",
        (true, false) => "Cards",
        (false, true) => "Board numbers",
        (false, false) => return None,
    };
    Some(format!("{what}: {LABEL}"))
}

/// A card, villager or cave by name. A log's catalogue declares ids, not printed names (the
/// printed texts are not available to the project, B.1), so the name is the id in words,
/// capitalised as a name is.
fn card_name(id: &str) -> String {
    let text = words(id);
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
}

/// A good as players say it.
fn good_name(good: Good) -> String {
    words(good.id())
}

/// The face-up rows as the table shows them, one row each, with the villager row's training
/// costs below it; an empty slot is a dash.
fn rows_area(game: &Game) -> Area {
    let row = |id: &str, label: &str, cards: &[Option<String>]| {
        let names: Vec<String> = cards.iter().map(|c| c.as_deref().map_or_else(|| "—".to_owned(), card_name)).collect();
        TableRow { id: id.to_owned(), cells: vec![label.to_owned(), list_text(&names)] }
    };
    let costs: Vec<String> = game.setup.board.train_costs.iter().map(u32::to_string).collect();
    let rows = vec![
        row("houses", "Houses", &game.house_row),
        row("outposts", "Outposts", &game.outpost_row),
        row("keys", "Key houses", &game.key_row),
        row("stars", "Star houses", &game.star_row),
        row("villagers", "Villagers to train", &game.villager_row),
        TableRow { id: "train_costs".to_owned(), cells: vec!["Training costs".to_owned(), costs.join(", ")] },
    ];
    let headers = vec!["Row".to_owned(), "Cards face up".to_owned()];
    Area {
        id: "rows".to_owned(),
        title: "Face-up rows".to_owned(),
        table: Some(Table { headers, rows }),
        lines: vec![],
    }
}

/// The decks: the cards left in each, the next cave when it is known, the special villagers
/// still aside, and the cider on the board's cider space (F.3).
fn decks_area(game: &Game) -> Area {
    let d = &game.decks;
    let mut lines = vec![
        Line::new("Houses", cards_left(d.houses.len())),
        Line::new("Outposts", cards_left(d.outposts.len())),
        Line::new("Villagers", cards_left(d.villagers.len())),
        Line::new("Caves", cards_left(d.caves.len())),
    ];
    lines.extend(d.caves.peek_known().map(|c| Line::new("Next cave", card_name(c))));
    if !game.specials.is_empty() {
        let aside: Vec<String> = game.specials.iter().map(|id| card_name(id)).collect();
        lines.push(Line::new("Special villagers aside", list_text(&aside)));
    }
    if game.board_cider {
        lines.push(Line::new("Cider", "a cider on the board"));
    }
    Area { id: "decks".to_owned(), title: "Decks".to_owned(), table: None, lines }
}

/// A number of cards left to draw, singular for one.
fn cards_left(n: usize) -> String {
    if n == 1 {
        "1 card left".to_owned()
    } else {
        format!("{n} cards left")
    }
}

/// One player's panel: what they have, their village, and the score if the game ended now
/// (F.10, by the spec's score rows; final once the game is over).
fn panel(game: &Game, seat: usize, p: &Player, s: &ScoreBreakdown) -> Panel {
    Panel {
        seat: Some(seat),
        name: p.name.clone(),
        aside: (game.first == seat).then(|| "first player".to_owned()),
        counts: player_counts(game, seat, p),
        lines: player_lines(p),
        grid: None,
        score: Some(ScoreNow { rows: s.rows().iter().map(|(id, n)| ((*id).to_owned(), *n)).collect(), total: s.total }),
    }
}

/// A player's counts: coins, reputation, potions, cider, beds, income, then the goods in the
/// reserve (what can be spent) in the order of the goods (A.1).
fn player_counts(game: &Game, seat: usize, p: &Player) -> Vec<Count> {
    let n = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
    let mut counts = vec![
        Count::new("coins", "coins", n(p.coins)),
        Count::new("reputation", "reputation", i64::from(p.reputation)),
        Count::new("potions", "potions", n(p.potions)),
        Count::new("cider", "cider", n(p.cider)),
        Count::new("beds", "beds", n(beds(game, seat))),
        Count::new("income", "income", n(income(game, seat))),
    ];
    counts.extend(Good::ALL.iter().map(|&g| Count::new(g.id(), good_name(g), n(p.reserve[g.index()]))));
    counts
}

/// A player's holdings that are not counts: the sale spot, the storage track, the villagers
/// with their states, the houses with their goods tokens, the caves with their outposts, and
/// the card points declared (B.4) when there are any.
fn player_lines(p: &Player) -> Vec<Line> {
    let villagers: Vec<String> =
        p.villagers.iter().map(|v| format!("{} ({})", card_name(&v.id), v.state.id())).collect();
    let houses: Vec<String> = p.houses.iter().map(card_with_tokens).collect();
    let caves: Vec<String> = p
        .caves
        .iter()
        .map(|c| match &c.outpost {
            Some(o) => format!("{} with {}", card_name(&c.id), card_with_tokens(o)),
            None => card_name(&c.id),
        })
        .collect();
    let mut lines = vec![
        Line::new("For sale", p.sale.map_or_else(|| "nothing".to_owned(), |i| words(i.id()))),
        Line::new("Storage track", storage_text(p)),
        Line::new("Villagers", list_text(&villagers)),
        Line::new("Houses", list_text(&houses)),
        Line::new("Caves", list_text(&caves)),
    ];
    if !p.declared.is_empty() {
        let declared: Vec<String> = p.declared.iter().map(|(card, vp)| format!("{} {vp}", card_name(card))).collect();
        lines.push(Line::new("Card points declared", list_text(&declared)));
    }
    lines
}

/// The storage track left to right, one goods type per space ("2 paper · 1 ore").
fn storage_text(p: &Player) -> String {
    if p.storage.is_empty() {
        return "empty".to_owned();
    }
    p.storage.iter().map(|(g, n)| format!("{n} {}", good_name(*g))).collect::<Vec<_>>().join(" · ")
}

/// A house or outpost with the goods tokens lying on it, counted by good ("Farm (2 fruit)"):
/// tokens are not owned until harvested, so they are shown on the card, not in the reserve.
fn card_with_tokens(card: &OwnedCard) -> String {
    let tokens: Vec<String> = Good::ALL
        .iter()
        .map(|&g| (g, card.tokens.iter().filter(|&&t| t == g).count()))
        .filter(|(_, n)| *n > 0)
        .map(|(g, n)| format!("{n} {}", good_name(g)))
        .collect();
    if tokens.is_empty() {
        card_name(&card.id)
    } else {
        format!("{} ({})", card_name(&card.id), tokens.join(", "))
    }
}
