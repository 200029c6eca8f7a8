//! What a position looks like: the state view for clients ([`crate::AboveAndBelow`]'s
//! `state_view`, [`state_json`]) and the board view pages draw ([`board_view`], the typed
//! contract of `chronicle_game::view`, in the players' words): a tableau of the market rows
//! with costs, the decks and each player's village, cards and villagers named with the effects
//! the log's catalogue declares ([`crate::names`]); after an exploration, the walk's view
//! ([`board_view_after`]) also draws it as its steps.
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

use chronicle_game::view::{list_text, Area, BoardView, Count, Line, Panel, ScoreNow, Table, TableRow};
use serde_json::{json, Map, Value};

use crate::game::{Game, OwnedCard, Phase, Player};
use crate::ids::Good;
use crate::names;
use crate::notation::{Action, Effect, Entry, Roll, Step};
use crate::rules::rest::beds;
use crate::rules::scoring::{score, ScoreBreakdown};
use crate::sentence::{self, Before};
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

/// The position as pages draw it, in the players' words: a tableau. The headline (round, phase,
/// who is to move); the market — the house, outpost, key-house and star-house rows and the
/// villager row, one table row per card with its cost and the effects the log's catalogue
/// declares; the decks; and for each player a panel (counts, sale spot, storage track,
/// reputation, the score if the game ended now) and their village as a table: villagers with
/// their state, houses, caves and outposts, each with what the catalogue declares.
///
/// Row ids are for pages (the recorder makes rows clickable): a face-up market card's row is
/// the card's id; an empty market slot's is `<row>-slot-<n>`; a player's villager, house, cave
/// or outpost is `seat-<n>/<id>`, `n` the seat counted from 1 (the log's `player` + 1), since
/// the starting villagers and house have the same ids in every village. Ids are unique across
/// the view.
pub fn board_view(game: &Game) -> BoardView {
    let scores = score(game);
    let players = game.players().iter().zip(&scores).enumerate();
    let mut areas = market_areas(game);
    areas.push(decks_area(game));
    areas.extend(game.players().iter().enumerate().map(|(seat, p)| village_area(game, seat, p)));
    BoardView {
        round: u16::from(game.round()),
        phase: phase_words(game.phase()).to_owned(),
        to_move: game.to_move(),
        waiting_for: waiting_for(game.phase()).map(str::to_owned),
        notes: notes(game),
        areas,
        players: players.map(|(seat, (p, s))| panel(game, seat, p, s)).collect(),
        others: Vec::new(),
    }
}

/// The view of the position after an entry (its text in the log), with what the table showed
/// before it: [`board_view`], led by the exploration the entry made, when it made one, drawn
/// as its steps (E: dice, paragraphs, options, results and outcomes).
pub fn board_view_after(game: &Game, before: &Before, entry: &str) -> BoardView {
    let mut view = board_view(game);
    if let Some(area) = exploration_area(game, before, entry) {
        view.areas.insert(0, area);
    }
    view
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

/// The id of a player's village row: the seat counted from 1 and the thing's id.
pub(crate) fn seat_row_id(seat: usize, id: &str) -> String {
    format!("seat-{}/{id}", seat + 1)
}

/// A market table row for one slot: the card's id for a face-up card, `<row>-slot-<n>` for a
/// gap; the slot counted from 1 as players count the row left to right.
fn market_row(row: &str, slot: usize, card: Option<&str>, cells: [String; 3]) -> TableRow {
    let id = card.map_or_else(|| format!("{row}-slot-{}", slot + 1), str::to_owned);
    let [name, cost, what] = cells;
    TableRow { id, cells: vec![(slot + 1).to_string(), name, cost, what] }
}

/// One row of cards face up (A.7, C.5): slot, name, cost and declared effects per card.
fn card_row_area(game: &Game, id: &str, title: &str, cards: &[Option<String>]) -> Area {
    let catalogue = &game.setup.catalogue;
    let rows = cards
        .iter()
        .enumerate()
        .map(|(slot, card)| {
            let cells = match card.as_deref().map(|c| (c, catalogue.cards.get(c))) {
                None => ["—".to_owned(), String::new(), String::new()],
                Some((c, None)) => [names::name(c), "—".to_owned(), "not declared in the catalogue".to_owned()],
                Some((c, Some(def))) => [
                    names::name(c),
                    def.cost.map_or_else(|| "—".to_owned(), names::coins),
                    def.effects.as_deref().map_or_else(|| "not declared (only seen)".to_owned(), names::effects),
                ],
            };
            market_row(id, slot, card.as_deref(), cells)
        })
        .collect();
    let headers = ["Slot", "Card", "Cost", "Effects"].map(str::to_owned).to_vec();
    Area { id: id.to_owned(), title: title.to_owned(), table: Some(Table { headers, rows }), lines: vec![] }
}

/// The villager row (A.6): slot, villager, training cost of the slot and declared profile.
fn villager_row_area(game: &Game) -> Area {
    let catalogue = &game.setup.catalogue;
    let costs = game.setup.board.train_costs;
    let rows = game
        .villager_row
        .iter()
        .enumerate()
        .map(|(slot, v)| {
            let cost = costs.get(slot).map_or_else(String::new, |c| names::coins(*c));
            let cells = match v.as_deref() {
                None => ["—".to_owned(), cost, String::new()],
                Some(v) => [
                    names::name(v),
                    cost,
                    catalogue
                        .villagers
                        .get(v)
                        .map_or_else(|| "not declared in the catalogue".to_owned(), names::villager_text),
                ],
            };
            market_row("villagers", slot, v.as_deref(), cells)
        })
        .collect();
    let headers = ["Slot", "Villager", "Training cost", "Skills and lanterns"].map(str::to_owned).to_vec();
    Area {
        id: "villagers".to_owned(),
        title: "Villagers to train".to_owned(),
        table: Some(Table { headers, rows }),
        lines: vec![],
    }
}

/// The market: the rows of cards face up and the villager row.
fn market_areas(game: &Game) -> Vec<Area> {
    vec![
        card_row_area(game, "houses", "House row", &game.house_row),
        card_row_area(game, "outposts", "Outpost row", &game.outpost_row),
        card_row_area(game, "keys", "Key houses", &game.key_row),
        card_row_area(game, "stars", "Star houses", &game.star_row),
        villager_row_area(game),
    ]
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
    lines.extend(d.caves.peek_known().map(|c| Line::new("Next cave", names::name(c))));
    if !game.specials.is_empty() {
        let catalogue = &game.setup.catalogue;
        let aside: Vec<String> = game.specials.iter().map(|id| names::villager_with_text(catalogue, id)).collect();
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

/// A player's village as a table (A.4, A.5, A.7): the villagers in village order with their
/// state (ready, exhausted, injured), the houses with the goods lying on them, and the caves
/// with the outposts on them, each with what the log's catalogue declares.
fn village_area(game: &Game, seat: usize, p: &Player) -> Area {
    let catalogue = &game.setup.catalogue;
    let mut rows: Vec<TableRow> = p
        .villagers
        .iter()
        .map(|v| TableRow {
            id: seat_row_id(seat, &v.id),
            cells: vec![
                names::name(&v.id),
                "villager".to_owned(),
                v.state.id().to_owned(),
                catalogue.villagers.get(&v.id).map_or_else(String::new, names::villager_text),
            ],
        })
        .collect();
    rows.extend(p.houses.iter().map(|h| owned_card_row(seat, h, names::card_kind(h.kind).to_owned())));
    for c in &p.caves {
        let state = c.outpost.as_ref().map_or_else(|| "empty".to_owned(), |o| format!("under {}", names::name(&o.id)));
        let table = names::cave_table(catalogue, &c.id).map_or_else(String::new, |t| format!("paragraphs by die: {t}"));
        rows.push(TableRow {
            id: seat_row_id(seat, &c.id),
            cells: vec![names::name(&c.id), "cave".to_owned(), state, table],
        });
        if let Some(o) = &c.outpost {
            rows.push(owned_card_row(seat, o, format!("outpost on {}", names::name(&c.id))));
        }
    }
    let headers = ["Name", "Kind", "State", "Declared effects"].map(str::to_owned).to_vec();
    Area {
        id: format!("seat-{}", seat + 1),
        title: format!("{}'s village", p.name),
        table: Some(Table { headers, rows }),
        lines: vec![],
    }
}

/// An owned house or outpost as a village row: the goods lying on it as its state.
fn owned_card_row(seat: usize, card: &OwnedCard, kind: String) -> TableRow {
    let tokens = tokens_text(card);
    TableRow {
        id: seat_row_id(seat, &card.id),
        cells: vec![
            names::name(&card.id),
            kind,
            if tokens.is_empty() { "—".to_owned() } else { format!("{tokens} on it") },
            names::effects(&card.effects),
        ],
    }
}

/// One player's panel: what they have, their village in short, and the score if the game
/// ended now (F.10, by the spec's score rows; final once the game is over).
fn panel(game: &Game, seat: usize, p: &Player, s: &ScoreBreakdown) -> Panel {
    Panel {
        seat: Some(seat),
        name: p.name.clone(),
        aside: (game.first == seat).then(|| "first player".to_owned()),
        counts: player_counts(game, seat, p),
        lines: player_lines(game, p),
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
    counts.extend(Good::ALL.iter().map(|&g| Count::new(g.id(), names::good(g), n(p.reserve[g.index()]))));
    counts
}

/// A player's holdings that are not counts: the sale spot, the storage track, the reputation
/// track, the villagers with their states, the houses with their goods tokens, the caves with
/// their outposts, and the card points declared (B.4) when there are any.
fn player_lines(game: &Game, p: &Player) -> Vec<Line> {
    let villagers: Vec<String> =
        p.villagers.iter().map(|v| format!("{} ({})", names::name(&v.id), v.state.id())).collect();
    let houses: Vec<String> = p.houses.iter().map(card_with_tokens).collect();
    let caves: Vec<String> = p
        .caves
        .iter()
        .map(|c| match &c.outpost {
            Some(o) => format!("{} with {}", names::name(&c.id), card_with_tokens(o)),
            None => names::name(&c.id),
        })
        .collect();
    let mut lines = vec![
        Line::new("For sale", p.sale.map_or_else(|| "nothing".to_owned(), names::item)),
        Line::new("Storage track", storage_text(game, p)),
        Line::new("Reputation track", reputation_text(game, p)),
        Line::new("Villagers", list_text(&villagers)),
        Line::new("Houses", list_text(&houses)),
        Line::new("Caves", list_text(&caves)),
    ];
    if !p.declared.is_empty() {
        let declared: Vec<String> = p.declared.iter().map(|(card, vp)| format!("{} {vp}", names::name(card))).collect();
        lines.push(Line::new("Card points declared", list_text(&declared)));
    }
    lines
}

/// The storage track left to right, one goods type per space with the VP each token there
/// scores, then the next empty space's VP and income ("2 paper (1 VP each) · 1 ore (1 VP
/// each) · next space: 2 VP each, income 6"), as the board prints them (A.5).
fn storage_text(game: &Game, p: &Player) -> String {
    let spaces = &game.setup.board.spaces;
    let mut parts: Vec<String> = p
        .storage
        .iter()
        .zip(spaces)
        .map(|((g, n), (vp, _))| format!("{n} {} ({vp} VP each)", names::good(*g)))
        .collect();
    if parts.is_empty() {
        parts.push("empty".to_owned());
    }
    match spaces.get(p.storage.len()) {
        Some((vp, income)) => parts.push(format!("next space: {vp} VP each, income {income}")),
        None => parts.push("every space used".to_owned()),
    }
    parts.join(" · ")
}

/// The reputation cube's position and the VP printed there (A.6).
fn reputation_text(game: &Game, p: &Player) -> String {
    format!("position {}, worth {} VP at the end", p.reputation, game.setup.board.track_vp(p.reputation))
}

/// The goods tokens lying on a card, counted by good ("2 fruit, 1 fish"); empty for none.
fn tokens_text(card: &OwnedCard) -> String {
    let tokens: Vec<String> = Good::ALL
        .iter()
        .map(|&g| (g, card.tokens.iter().filter(|&&t| t == g).count()))
        .filter(|(_, n)| *n > 0)
        .map(|(g, n)| format!("{n} {}", names::good(g)))
        .collect();
    tokens.join(", ")
}

/// A house or outpost with the goods tokens lying on it, counted by good ("Farm (2 fruit)"):
/// tokens are not owned until harvested, so they are shown on the card, not in the reserve.
fn card_with_tokens(card: &OwnedCard) -> String {
    let tokens = tokens_text(card);
    if tokens.is_empty() {
        names::name(&card.id)
    } else {
        format!("{} ({tokens})", names::name(&card.id))
    }
}

/// The exploration an entry made (E), drawn as its steps: lines for the party, the cave with
/// its paragraph table, the paragraph die, the lantern dice with the lanterns each gave (A.4)
/// and the rerolls; one table row per step of the Adventure Book (paragraph, option, the
/// thresholds announced, the efforts and bonuses used, the result and the outcome); and where
/// the cave ended (E.8). `None` for an entry that is no exploration.
fn exploration_area(game: &Game, before: &Before, text: &str) -> Option<Area> {
    let entry: Entry = serde_json::from_str(text).ok()?;
    let player = entry.player().and_then(|p| game.players.get(usize::try_from(p).ok()?))?;
    let action = sentence::explore_as_rolled(game, Some(before), &entry)?;
    let Action::Explore { party, cave, die, rolls, rerolls, step, .. } = &action else { return None };
    let cave_name = cave.as_deref().map_or_else(|| "the next cave".to_owned(), names::name);
    let die_text = |d: Option<i64>| d.map_or_else(|| "?".to_owned(), |d| d.to_string());
    let mut lines = vec![Line::new("Party", list_text(&party.iter().map(|v| names::name(v)).collect::<Vec<_>>()))];
    if let Some(table) = cave.as_deref().and_then(|c| names::cave_table(&game.setup.catalogue, c)) {
        lines.push(Line::new("Paragraphs by die", table));
    }
    lines.push(Line::new("Paragraph die", format!("{} (paragraph {})", die_text(*die), step.paragraph)));
    let dice: Vec<String> = party
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let d = rolls.as_ref().and_then(|r| r.get(i)).and_then(|r| r.die);
            let lanterns = d.map_or(0, |d| sentence::lanterns_of(game, v, d));
            format!("{} {} ({})", names::name(v), die_text(d), names::count(lanterns, "lantern", "lanterns"))
        })
        .collect();
    lines.push(Line::new("Lantern dice", list_text(&dice)));
    let mut all_rerolls: Vec<String> = rerolls.iter().map(reroll_text).collect();
    let mut rows = Vec::new();
    let mut at = Some(step.as_ref());
    let mut last = step.as_ref();
    while let Some(s) = at {
        all_rerolls.extend(s.rerolls.iter().map(reroll_text));
        rows.push(step_row(game, rows.len() + 1, s));
        last = s;
        at = s.then.as_deref();
    }
    if !all_rerolls.is_empty() {
        lines.push(Line::new("Rerolls", list_text(&all_rerolls)));
    }
    let end = match last.reached {
        Some(_) => format!("{cave_name} is now {}'s", player.name),
        None => format!("{cave_name} goes back under the cave deck"),
    };
    lines.push(Line::new("Result", end));
    let headers = ["Step", "Paragraph", "Option", "Thresholds", "Efforts and bonuses", "Result", "Outcome"]
        .map(str::to_owned)
        .to_vec();
    Some(Area {
        id: "exploration".to_owned(),
        title: format!("{} explores {cave_name}", player.name),
        table: Some(Table { headers, rows }),
        lines,
    })
}

/// A reroll (E.5): the villager and the die it now shows.
fn reroll_text(r: &Roll) -> String {
    format!("{} to {}", names::name(&r.villager), r.die.map_or_else(|| "?".to_owned(), |d| d.to_string()))
}

/// One step of an exploration (E.3–E.10) as a table row.
fn step_row(game: &Game, n: usize, s: &Step) -> TableRow {
    let mut used: Vec<String> = s.efforts.iter().map(|v| format!("last effort by {}", names::name(v))).collect();
    used.extend(s.bonus.iter().map(|b| sentence::bonus_words(game, b)));
    let result = match s.reached {
        Some(0) if s.thresholds.is_empty() => "no test".to_owned(),
        Some(r) => format!("reached {r}"),
        None => "fell short".to_owned(),
    };
    TableRow {
        id: format!("exploration-step-{n}"),
        cells: vec![
            n.to_string(),
            s.paragraph.to_string(),
            s.option.to_string(),
            sentence::thresholds(&s.thresholds),
            list_text(&used),
            result,
            sentence::outcome_words(game, &s.outcome),
        ],
    }
}
