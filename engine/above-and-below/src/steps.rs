//! Building one entry step by step ([`crate::AboveAndBelow`]'s `entry_steps`), so that a person
//! recording a game at the table clicks only legal choices, one decision at a time, in the
//! players' words: villagers, houses, outposts and caves by name (the catalogue declares ids
//! only, B.1, so a name is the id in words, as the board view shows it), goods by their names,
//! players by name, never by 0-based index.
//!
//! # The draft
//!
//! A draft is a JSON object holding the entry's members chosen so far, in the log's own notation
//! (`docs/log-format-above-and-below.md` "Entries"); each choice offered is the draft it leads
//! to, and the finished entry is the draft itself once it is a legal entry.
//!
//! * `null` or `{}`: the entry the game waits for now. In the action phase that is the turn (or
//!   pass) of the player to act, whose seat the returned draft sets (`{"player": 1}`); at the end
//!   of rounds 1–6 it is `{"type": "round_end"}`; after round 7 the choices are the `store` and
//!   `declare` entries each player may still write. A group `other` offers the entries that may
//!   stand here instead: another player's turn when the engine passes for players without a
//!   ready villager (D.2.3) or ends the round with its defaults (F.5.4), a `round_end`, and each
//!   player's `store`.
//! * A turn or pass: `{"player": p}` while it is open (free actions may be added: `"free": [...]`
//!   without a `type`); choosing a custom credit, a Cave Cat failure or an action makes it
//!   `"type": "turn"`, choosing to pass makes it `"type": "pass"`. The action grows member by
//!   member inside `"action"` (`{"do": "build", "villager": …}`, then `"card"`, …).
//! * A free action outside a turn (D.9.1, any player at any time, also after passing or after
//!   round 7): `{"type": "store", "player": p}` (the engine's `free_start`), then one good at a
//!   time. Free actions of the player's own turn (offer, buy, refresh, store; D.8) are the
//!   members of the turn's `free` list, offered while the turn has no action yet: a purchase
//!   (`{"do": "buy", "from": q}`) then waits for its price, a refresh in explicit mode for each
//!   card it draws.
//! * `{"type": "round_end"}`, then the villagers drawn (explicit mode), then the rest objects one
//!   player at a time; `{"type": "declare", "player": p}`, then the card and its points.
//!
//! The order of decisions is the order the notation applies them (free actions, custom credits,
//! Cave Cat failures, the action), and within an action the order of the table. An exploration
//! (E) goes: the party (any legal subset of ready villagers, in party order; a Cave Cat with its
//! obedience die 3–6), then in explicit mode the cave drawn (among those the deck model of G.1.1
//! allows) and the paragraph die (1–6); the first paragraph (taken from the cave's table or an
//! earlier exploration when the log fixes it, H.33), the option, its thresholds (taken from the
//! log when declared before, H.33–H.34), the lantern dice one villager at a time (explicit mode),
//! then rerolls, bonuses and last efforts until "resolve", which writes the one `reached` the
//! total allows (E.8); then the outcome item by item and, after a success, a continuation step
//! (`then`, E.9) built the same way. In seeded mode every random result (cards drawn, dice) is
//! derived from the seed and never asked: the draft leaves it out (the log may, LOG-FORMAT
//! "Randomness") and the labels say what the seed gives.
//!
//! The form never writes what the notation lets a log leave out: a Train's `recruit` (the slot
//! names the villager, D.6.2), a payment all in coins (D.5.3), and in seeded mode every random
//! result. A draft may hold any value the notation allows, also one no option offers (a typed
//! number, a `custom` text, a derived result): the steps read it and go on from it, and refuse a
//! draft only when it is malformed or cannot be completed into a legal entry, with a message
//! for people.
//!
//! An option on a face-up card (a Build, a card reward) or on a villager (of the village, or of
//! the villager row) names it in `cells`, `at` its id: the ids the board view's rows use.
//!
//! # What is checked
//!
//! Every option is checked by completing its draft with placeholders (the first card the deck
//! model allows, dice of 1, the next villager, a neutral step) and applying the result to a copy
//! of the game, as a replay does; `entry` is the draft as it is, when it applies. A single option
//! is taken at once (up to [`MAX_AUTO`] times). Each group is cut at [`MAX_OPTIONS`] options,
//! with `complete` false.
//!
//! # Bounds
//!
//! Numbers the table reads from the Adventure Book or agrees on are offered over documented
//! ranges (a number outside them may still be typed into the draft): paragraphs
//! 1–[`MAX_PARAGRAPH`], options 1–[`MAX_OPTION_NUMBER`], up to [`MAX_THRESHOLDS`] thresholds of
//! 1–[`MAX_THRESHOLD`] (E.3, the Adventure Book's counts), bonus lanterns 1–[`MAX_BONUS`], coins
//! and payments in outcomes and credits 1–[`MAX_AMOUNT`], goods, potions and cider 1–[`MAX_TOKENS`]
//! per item, reputation ±1–[`MAX_REPUTATION`] (E.10), purchase prices 3–[`MAX_PRICE`] (D.8.2),
//! declared points 0–[`MAX_DECLARED_VP`] (B.4). Every loop over declared data is bounded by the
//! data: the catalogue's ids of one kind, a player's villagers, cards and caves, the rows (at
//! most 6 cards each), the goods (8) and items (10), the seats (2–4), the dice faces (6).
//!
//! Free texts (`custom` bonuses and outcomes) are offered with an empty `text` for the recorder
//! to type; every other member is chosen by clicking.

use chronicle_game::view::words;
use chronicle_game::{ChoiceCell, StepChoice, StepGroup, Steps, Unavailable};
use serde_json::{json, Map, Value};

use crate::deck::Deck;
use crate::game::{Game, Phase};
use crate::ids::{Good, Item, Skill, Token, Trait, VState};
use crate::names::{self, name};
use crate::notation::{CardKind, CatDie, Effect, Entry, Free, Payment, TurnCredit, VillagerKind};
use crate::rules::build::{free_cave, Row};
use crate::rules::turn::{forced_passes, TurnCtx};

/// Most options in one group; a longer group is cut and the steps say they are incomplete.
pub const MAX_OPTIONS: usize = 400;
/// Most single choices taken at once in one call.
pub const MAX_AUTO: usize = 64;
/// Paragraphs offered: the Adventure Book's 215 (E.9).
pub const MAX_PARAGRAPH: u32 = 215;
/// Options offered per paragraph: 1–3, as the book has (E.3).
pub const MAX_OPTION_NUMBER: u32 = 3;
/// Thresholds offered per option: none, one or two (E.3).
pub const MAX_THRESHOLDS: usize = 2;
/// The greatest threshold offered ("Explore 12"; above 8 is unusual, G.3).
pub const MAX_THRESHOLD: u32 = 12;
/// The greatest bonus lanterns offered per bonus (E.7).
pub const MAX_BONUS: u32 = 4;
/// The greatest coins offered in one outcome item, payment or credit (E.10, B.4).
pub const MAX_AMOUNT: u32 = 10;
/// The greatest goods, potions or cider offered in one outcome item or credit (E.10, B.4).
pub const MAX_TOKENS: u32 = 4;
/// The greatest reputation offered in one outcome item or credit, either way (E.10).
pub const MAX_REPUTATION: i64 = 3;
/// The greatest price offered for a purchase from a player (D.8.2: 3 coins or more).
pub const MAX_PRICE: u64 = 30;
/// The greatest points offered for a declaration (B.4).
pub const MAX_DECLARED_VP: i32 = 30;
/// Most placeholder completions tried for one draft.
const MAX_COMPLETIONS: usize = 64;

/// The steps from `draft` in `game`: refused, for people, when the draft is malformed or cannot
/// become a legal entry.
pub fn steps(game: &Game, draft: &Value) -> Result<Steps, String> {
    let mut draft = match draft {
        Value::Null => Value::Object(Map::new()),
        Value::Object(_) => draft.clone(),
        _ => return Err("a draft is a JSON object of the entry's members chosen so far (or null to start)".into()),
    };
    for _ in 0..MAX_AUTO {
        let st = stage(game, &draft)?;
        let entry = finished(game, &st.draft);
        let total: usize = st.groups.iter().map(|g| g.options.len()).sum();
        if entry.is_none() && total == 1 {
            if let Some(only) = st.groups.iter().flat_map(|g| &g.options).next() {
                draft = only.draft.clone();
                continue;
            }
        }
        return Ok(output(on_the_board(game, st), entry));
    }
    Err(format!("more than {MAX_AUTO} choices were taken at once: the draft does not settle"))
}

/// One option while it is built.
struct Opt {
    label: String,
    draft: Value,
    cells: Vec<ChoiceCell>,
    detail: Option<String>,
}

impl Opt {
    fn new(label: impl Into<String>, draft: Value) -> Opt {
        Opt { label: label.into(), draft, cells: Vec::new(), detail: None }
    }

    /// The option covers a card of a face-up row or a villager, by its id (the view's row ids).
    fn at(mut self, id: &str, what: &str) -> Opt {
        self.cells.push(ChoiceCell { at: id.to_owned(), what: what.to_owned() });
        self
    }

    fn detail(mut self, detail: impl Into<String>) -> Opt {
        self.detail = Some(detail.into());
        self
    }
}

/// The options of one decision.
struct Group {
    id: &'static str,
    label: String,
    options: Vec<Opt>,
}

impl Group {
    fn new(id: &'static str, label: impl Into<String>, options: Vec<Opt>) -> Group {
        Group { id, label: label.into(), options }
    }
}

/// Where a draft stands: the draft as read (with what the engine filled in), the decisions that
/// continue it, and what is not offered and why.
struct Stage {
    draft: Value,
    groups: Vec<Group>,
    unavailable: Vec<Unavailable>,
}

impl Stage {
    fn new(draft: Value, groups: Vec<Group>) -> Stage {
        Stage { draft, groups, unavailable: Vec::new() }
    }
}

/// The options' places as the board view names them: a villager of the player building the
/// entry is a row of that player's village (`seat-<n>/<id>`, as `crate::view` ids it), a card of
/// a face-up row keeps its card id.
fn on_the_board(game: &Game, mut st: Stage) -> Stage {
    let player = st.draft.get("player").and_then(Value::as_u64).and_then(|p| usize::try_from(p).ok());
    let Some((seat, village)) = player.and_then(|p| Some((p, game.players.get(p)?))) else { return st };
    for cell in st.groups.iter_mut().flat_map(|g| &mut g.options).flat_map(|o| &mut o.cells) {
        if village.villagers.iter().any(|v| v.id == cell.at) {
            cell.at = crate::view::seat_row_id(seat, &cell.at);
        }
    }
    st
}

fn output(st: Stage, entry: Option<Value>) -> Steps {
    let mut complete = true;
    let groups = st
        .groups
        .into_iter()
        .filter(|g| !g.options.is_empty())
        .map(|mut g| {
            if g.options.len() > MAX_OPTIONS {
                g.options.truncate(MAX_OPTIONS);
                complete = false;
            }
            StepGroup {
                id: g.id.to_owned(),
                label: g.label,
                options: g
                    .options
                    .into_iter()
                    .map(|o| StepChoice {
                        label: o.label,
                        draft: o.draft,
                        cells: o.cells,
                        pick: None,
                        detail: o.detail,
                    })
                    .collect(),
            }
        })
        .collect();
    Steps { draft: st.draft, entry, groups, complete, unavailable: st.unavailable }
}

// ---------------------------------------------------------------------------------------------
// Checking: a draft applies, or can be completed into an entry that applies

/// An entry in the notation, read from a draft, or why it is not one.
fn read_entry(draft: &Value) -> Result<Entry, String> {
    serde_json::from_value(draft.clone())
        .map_err(|e| crate::replay::notation_error(&e, "not in the log's notation").message)
}

/// Applies an entry written as JSON to a copy of the game.
fn applies(game: &Game, entry: &Value) -> Result<(), String> {
    let entry = read_entry(entry)?;
    let mut copy = game.clone();
    copy.apply(&entry).map_err(|e| e.message)
}

/// The draft as a finished entry, when it is one and it is legal (as the log would hold it).
fn finished(game: &Game, draft: &Value) -> Option<Value> {
    let entry = read_entry(draft).ok()?;
    let mut copy = game.clone();
    copy.apply(&entry).ok()?;
    serde_json::to_value(&entry).ok()
}

/// Whether a draft can become a legal entry: one of its placeholder completions applies.
/// Refused with the first completion's reason.
fn completable(game: &Game, draft: &Value) -> Result<(), String> {
    let mut first = None;
    for c in completions(game, draft)? {
        match applies(game, &c) {
            Ok(()) => return Ok(()),
            Err(e) => {
                first.get_or_insert(e);
            }
        }
    }
    Err(first.unwrap_or_else(|| "no choice completes this draft into a legal entry".into()))
}

fn ok(game: &Game, draft: &Value) -> bool {
    completable(game, draft).is_ok()
}

/// The options whose drafts can still become legal entries.
fn legal(game: &Game, options: Vec<Opt>) -> Vec<Opt> {
    options.into_iter().filter(|o| ok(game, &o.draft)).collect()
}

/// Placeholder completions of a draft, most likely first (at most [`MAX_COMPLETIONS`]).
fn completions(game: &Game, draft: &Value) -> Result<Vec<Value>, String> {
    let map = draft.as_object().ok_or("a draft is a JSON object")?;
    let mut out = match map.get("type").and_then(Value::as_str) {
        Some("store") => {
            let mut d = map.clone();
            d.entry("goods").or_insert_with(|| json!([]));
            vec![Value::Object(d)]
        }
        Some("declare") => declare_completions(game, map),
        Some("round_end") => round_end_completions(game, map),
        _ => {
            let t = Turn::read(game, draft)?;
            t.completions()
        }
    };
    out.truncate(MAX_COMPLETIONS);
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Reading drafts

/// The members a draft object may hold, so that a typo is refused by name.
fn check_keys(map: &Map<String, Value>, allowed: &[&str], what: &str) -> Result<(), String> {
    match map.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(k) => Err(format!("`{k}` is not a member of {what} (its members: {})", allowed.join(", "))),
        None => Ok(()),
    }
}

/// A list member (absent: empty).
fn list(map: &Map<String, Value>, key: &str) -> Result<Vec<Value>, String> {
    match map.get(key) {
        None => Ok(Vec::new()),
        Some(Value::Array(a)) => Ok(a.clone()),
        Some(_) => Err(format!("`{key}` is a list")),
    }
}

/// A list of ids (absent: empty).
fn ids(map: &Map<String, Value>, key: &str) -> Result<Vec<String>, String> {
    list(map, key)?
        .into_iter()
        .map(|v| v.as_str().map(str::to_owned).ok_or_else(|| format!("`{key}` is a list of ids")))
        .collect()
}

/// The seat a draft names, when it names one.
fn seat_of(game: &Game, map: &Map<String, Value>) -> Result<Option<usize>, String> {
    match map.get("player") {
        None => Ok(None),
        Some(v) => {
            let n = v.as_u64().ok_or("`player` is a seat number, counted from 0")?;
            usize::try_from(n)
                .ok()
                .filter(|p| *p < game.players().len())
                .map(Some)
                .ok_or_else(|| game.no_seat("player", n))
        }
    }
}

/// A copy of a draft object with one member set.
fn with(map: &Map<String, Value>, key: &str, value: Value) -> Value {
    let mut d = map.clone();
    d.insert(key.to_owned(), value);
    Value::Object(d)
}

/// A list with one more item.
fn plus<T: Into<Value>>(items: &[Value], item: T) -> Value {
    let mut v = items.to_vec();
    v.push(item.into());
    Value::Array(v)
}

// ---------------------------------------------------------------------------------------------
// Words (names through `crate::names`, as the sentences and the board view say them)

fn player_name(game: &Game, p: usize) -> String {
    game.players()[p].name.clone()
}

fn plural(n: u64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

fn coins(n: u64) -> String {
    plural(n, "coin", "coins")
}

/// A Cave Cat (D.10).
fn is_cat(game: &Game, id: &str) -> bool {
    game.setup().catalogue.villagers.get(id).is_some_and(|v| v.has_trait(Trait::CaveCat))
}

fn has_skill(game: &Game, id: &str, skill: Skill) -> bool {
    game.setup().catalogue.villagers.get(id).is_some_and(|v| v.has_skill(skill))
}

/// Seeded mode: the `n` dice the seed gives after `skip` more dice are rolled (none in explicit
/// mode).
fn seeded_dice(g: &Game, skip: usize, n: usize) -> Vec<u8> {
    let Some(mut rng) = g.rng.clone() else { return Vec::new() };
    // `skip` counts dice of one turn: Cave Cats, the paragraph die, the party's dice, rerolls.
    for _ in 0..skip {
        rng.die();
    }
    (0..n).map(|_| rng.die()).collect()
}

/// The cards a draw from `deck` may give (G.1.1): explicit mode, any card of the catalogue's
/// `ids` not seen while the unseen part is not empty, then the first card of the known tail;
/// seeded mode, the one the seed gives. None from an empty deck.
fn allowed_draws(deck: &Deck, ids: &[String]) -> Vec<String> {
    if deck.is_empty() {
        return Vec::new();
    }
    if deck.order.is_some() {
        return deck.peek_known().map(str::to_owned).into_iter().collect();
    }
    if deck.unseen() > 0 {
        return ids.iter().filter(|id| !deck.seen.contains(*id)).cloned().collect();
    }
    deck.tail.front().cloned().into_iter().collect()
}

/// A copy of a deck after the draws already written.
fn drawn_after(deck: &Deck, drawn: &[String]) -> Deck {
    let mut d = deck.clone();
    for id in drawn {
        // A draw the rules refuse is reported when the draft is applied; here it is skipped.
        let _ = d.draw(Some(id), |_| Ok(()));
    }
    d
}

/// A payment object as the notation writes it.
fn payment_json(pay: &Payment) -> Value {
    json!({ "coins": pay.coins, "cider": pay.cider, "potions": pay.potions })
}

/// D.5.3, H.5: the ways to pay `price` to the supply other than all in coins, with cider and
/// potions from the reserve when the player owns the effects that allow them.
fn payment_variants(g: &Game, p: usize, price: u64) -> Vec<Payment> {
    let pl = &g.players()[p];
    let cider_ok = g.has(p, |e| matches!(e, Effect::CiderAsCoin));
    let potion_ok = g.has(p, |e| matches!(e, Effect::PotionAsCoin));
    let most_cider = if cider_ok { pl.cider.min(price) } else { 0 };
    let most_potions = if potion_ok { pl.potions.min(price) } else { 0 };
    let mut out = Vec::new();
    for cider in 0..=most_cider {
        for potions in 0..=most_potions.min(price - cider) {
            let rest = price - cider - potions;
            if (cider, potions) != (0, 0) && rest <= pl.coins {
                let n = |x: u64| u32::try_from(x).unwrap_or(u32::MAX);
                out.push(Payment { coins: n(rest), cider: n(cider), potions: n(potions) });
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The kinds of entry

/// The decisions that continue a draft, by the kind of entry it is.
fn stage(game: &Game, draft: &Value) -> Result<Stage, String> {
    let map = draft.as_object().ok_or("a draft is a JSON object")?;
    let st = match map.get("type") {
        None if map.is_empty() => return start(game),
        None => turn_stage(game, draft)?,
        Some(Value::String(t)) => match t.as_str() {
            "turn" | "pass" => turn_stage(game, draft)?,
            "store" => store_stage(game, map)?,
            "round_end" => round_end_stage(game, map)?,
            "declare" => declare_stage(game, map)?,
            other => {
                return Err(format!(
                    "`type` \"{other}\" is not a kind of entry: turn, pass, store, round_end or declare"
                ))
            }
        },
        Some(_) => return Err("`type` is the kind of entry: turn, pass, store, round_end or declare".into()),
    };
    // A draft that cannot become a legal entry is refused, with the rules' reason.
    completable(game, &st.draft).map_err(|why| format!("the draft cannot become a legal entry: {why}"))?;
    Ok(st)
}

/// `{}`: the entry the game waits for now, and the others that may stand here.
fn start(game: &Game) -> Result<Stage, String> {
    match game.phase() {
        Phase::Actions => {
            let mut st = turn_stage(game, &json!({ "player": game.current }))?;
            st.groups.push(others(game));
            Ok(st)
        }
        Phase::RoundEnd => {
            let map = json!({ "type": "round_end" });
            let mut st = round_end_stage(game, map.as_object().ok_or("a draft is a JSON object")?)?;
            st.groups.push(others(game));
            Ok(st)
        }
        Phase::Over => {
            let mut options = stores(game);
            for (p, pl) in game.players().iter().enumerate() {
                for card in pl.cards().filter(|c| custom_card(game, &c.id)) {
                    let d = json!({ "type": "declare", "player": p, "card": card.id });
                    let label = format!("{} declares the points of {} (B.4)", pl.name, name(&card.id));
                    options.push(Opt::new(label, d));
                }
            }
            let group = Group::new("entry", "Store goods or declare card points (F.9)", legal(game, options));
            Ok(Stage::new(json!({}), vec![group]))
        }
    }
}

/// Whether a card has a `custom` effect (B.4).
fn custom_card(game: &Game, id: &str) -> bool {
    game.setup().catalogue.cards.get(id).is_some_and(|c| c.has_custom())
}

/// Each player's `store` entry, for players with goods in the reserve (D.9.1).
fn stores(game: &Game) -> Vec<Opt> {
    (0..game.players().len())
        .filter(|&p| game.players()[p].reserve.iter().any(|n| *n > 0))
        .map(|p| {
            let label = format!("{} stores goods (D.9)", player_name(game, p));
            Opt::new(label, json!({ "type": "store", "player": p }))
        })
        .collect()
}

/// The entries that may stand where the game waits for another: a later player's turn when the
/// engine passes for those without a ready villager (D.2.3) or ends the round with its defaults
/// (F.5.4), the end of the round, and each player's `store`.
fn others(game: &Game) -> Group {
    let mut options = Vec::new();
    let n = game.players().len();
    match game.phase() {
        Phase::Actions => {
            for step in 1..n {
                let r = (game.current + step) % n;
                if applies(game, &json!({ "type": "pass", "player": r })).is_ok() {
                    let label = format!(
                        "{}'s turn: the engine passes for the players before, who have no ready villager (D.2.3)",
                        player_name(game, r)
                    );
                    options.push(Opt::new(label, json!({ "player": r })));
                }
            }
            if ok(game, &json!({ "type": "round_end" })) {
                let label = "End of the round: the engine passes for the players without a ready villager (D.2.3)";
                options.push(Opt::new(label, json!({ "type": "round_end" })));
            }
        }
        Phase::RoundEnd => {
            let r = (game.first + 1) % n;
            if applies(game, &json!({ "type": "pass", "player": r })).is_ok() {
                let label = format!(
                    "{}'s turn in round {}: the round ends with the default rest (F.5.4)",
                    player_name(game, r),
                    game.round() + 1
                );
                options.push(Opt::new(label, json!({ "player": r })));
            }
        }
        Phase::Over => {}
    }
    options.extend(legal(game, stores(game)));
    Group::new("other", "Another entry", options)
}

// ---------------------------------------------------------------------------------------------
// Turns and passes (D.2, D.8, D.10, B.4)

/// The actions (D.2.2), as the notation names them.
const ACTIONS: [&str; 5] = ["explore", "harvest", "build", "train", "labor"];

fn action_name(kind: &str) -> &'static str {
    match kind {
        "explore" => "Explore",
        "harvest" => "Harvest",
        "build" => "Build",
        "train" => "Train",
        _ => "Labor",
    }
}

/// A turn or pass being built: its player, its members so far, and the game as it stands when
/// the action is decided (the turn opened, its free actions, credits and Cave Cat failures done).
struct Turn<'a> {
    game: &'a Game,
    p: usize,
    /// The whole draft, with its player (and `type` once known).
    map: Map<String, Value>,
    /// `turn`, `pass`, or not yet known.
    kind: Option<&'static str>,
    free: Vec<Value>,
    custom: Vec<Value>,
    cat_fails: Vec<Value>,
    action: Option<Map<String, Value>>,
    /// The game when the action is decided.
    g: Game,
    ctx: TurnCtx,
    /// The last free action is not finished (a buy without its price, a refresh without all the
    /// cards it draws, explicit mode).
    open_free: bool,
}

/// LOG-FORMAT "Turn order": before a turn or pass of `p`, the end of round with its defaults when
/// every player passed, and the forced passes of players who cannot act (D.2.3), as a replay
/// opens the entry.
fn open_turn(g: &mut Game, p: usize) -> Result<(), String> {
    // At most one end of round per round (7).
    for _ in 0..8 {
        forced_passes(g, Some(p));
        match g.phase() {
            Phase::RoundEnd => crate::rules::income::end_round(g, None, &[])
                .map_err(|e| format!("the round cannot end with its defaults before this turn: {}", e.message))?,
            Phase::Over => return Err("round 7 is over: only store and declare entries may follow (F.9)".into()),
            Phase::Actions => break,
        }
    }
    if g.passed[p] {
        return Err(format!("{} has passed this round (D.2.4)", g.seat_name(p)));
    }
    if g.current != p {
        return Err(format!("{} is to act, not {} (D.2.1)", g.seat_name(g.current), g.seat_name(p)));
    }
    Ok(())
}

/// A free action of the turn, read: finished, or still open (the last one only).
enum FreeItem {
    Done(Free),
    Open,
}

/// The deck a refresh of `row` draws from, after the row's cards went under it (D.8.3, H.29),
/// and the kind of its cards.
fn refresh_deck(g: &Game, row: &str) -> Option<(Deck, CardKind)> {
    let (deck, slots, kind) = match row {
        "houses" => (&g.decks.houses, &g.house_row, CardKind::Basic),
        "outposts" => (&g.decks.outposts, &g.outpost_row, CardKind::Outpost),
        _ => return None,
    };
    let mut d = deck.clone();
    for c in slots.iter().flatten() {
        d.put_bottom(c.clone());
    }
    Some((d, kind))
}

fn read_free(g: &Game, item: &Value) -> Result<FreeItem, String> {
    let map = item.as_object().ok_or("a free action is an object with `do`")?;
    if map.get("do").and_then(Value::as_str) == Some("buy") && !map.contains_key("price") {
        check_keys(map, &["do", "from"], "a purchase")?;
        return Ok(FreeItem::Open);
    }
    let free: Free =
        serde_json::from_value(item.clone()).map_err(|e| crate::replay::notation_error(&e, "a free action").message)?;
    if let Free::Refresh { row, drawn, .. } = &free {
        if !g.seeded() {
            let needed = refresh_deck(g, row.id()).map_or(0, |(d, _)| d.len().min(4));
            if drawn.as_ref().map_or(0, Vec::len) < needed {
                return Ok(FreeItem::Open);
            }
        }
    }
    Ok(FreeItem::Done(free))
}

fn apply_free(g: &mut Game, p: usize, f: &Free, ctx: &mut TurnCtx) -> crate::error::RuleResult {
    use crate::rules::{market, storage};
    match f {
        Free::Offer { item } => market::offer(g, p, *item),
        Free::Buy { from, price } => market::buy(g, p, *from, *price),
        Free::Refresh { row, drawn, pay } => market::refresh(g, p, row, drawn.as_deref(), *pay, ctx),
        Free::Store { goods } => storage::store(g, p, goods),
    }
}

/// B.4: a custom credit outside an action, as the rules apply it.
fn apply_credit(g: &mut Game, p: usize, c: &TurnCredit) -> crate::error::RuleResult {
    g.check_custom_card(p, &c.card)?;
    let pl = &mut g.players[p];
    pl.coins = pl.coins.saturating_add(u64::from(c.coins.unwrap_or(0)));
    pl.potions = pl.potions.saturating_add(u64::from(c.potions.unwrap_or(0)));
    pl.cider = pl.cider.saturating_add(u64::from(c.cider.unwrap_or(0)));
    for good in c.goods.iter().flatten() {
        *pl.reserve_mut(Item::Good(*good)) += 1;
    }
    if let Some(r) = c.reputation {
        crate::rules::reputation::gain(g, p, i64::from(r));
    }
    Ok(())
}

impl<'a> Turn<'a> {
    fn read(game: &'a Game, draft: &Value) -> Result<Turn<'a>, String> {
        let mut map = draft.as_object().cloned().ok_or("a draft is a JSON object")?;
        let mut kind = match map.get("type").map(|t| t.as_str()) {
            None => None,
            Some(Some("turn")) => Some("turn"),
            Some(Some("pass")) => Some("pass"),
            Some(_) => return Err("`type` of a turn is \"turn\" or \"pass\"".into()),
        };
        if kind == Some("pass") {
            check_keys(&map, &["type", "player", "free"], "a pass")?;
        } else {
            check_keys(&map, &["type", "player", "free", "cat_fails", "action", "custom"], "a turn")?;
        }
        if kind.is_none() && ["custom", "cat_fails", "action"].iter().any(|k| map.contains_key(*k)) {
            kind = Some("turn");
            map.insert("type".into(), json!("turn"));
        }
        let p = match seat_of(game, &map)? {
            Some(p) => p,
            None => game.to_move().ok_or("no player is to act now: name the player (`player`)")?,
        };
        map.insert("player".into(), json!(p));
        let mut g = game.clone();
        open_turn(&mut g, p)?;
        if kind == Some("turn") && !g.players()[p].has_ready() {
            return Err(format!("{} has no ready villager and must pass (D.2.3)", g.seat_name(p)));
        }
        let free = list(&map, "free")?;
        let custom = list(&map, "custom")?;
        let cat_fails = list(&map, "cat_fails")?;
        let action = match map.get("action") {
            None => None,
            Some(Value::Object(a)) => {
                let kind = a.get("do").and_then(Value::as_str).unwrap_or_default();
                if !ACTIONS.contains(&kind) {
                    return Err("`action` names its kind in `do`: explore, harvest, build, train or labor".into());
                }
                Some(a.clone())
            }
            Some(_) => return Err("`action` is an object with `do`".into()),
        };
        let mut ctx = TurnCtx::default();
        let mut open_free = false;
        for (i, item) in free.iter().enumerate() {
            match read_free(&g, item)? {
                FreeItem::Open
                    if i + 1 == free.len() && custom.is_empty() && cat_fails.is_empty() && action.is_none() =>
                {
                    open_free = true;
                }
                FreeItem::Open => return Err(format!("free action {} is not finished", i + 1)),
                FreeItem::Done(f) => {
                    apply_free(&mut g, p, &f, &mut ctx).map_err(|e| format!("free action {}: {}", i + 1, e.message))?;
                }
            }
        }
        for (i, c) in custom.iter().enumerate() {
            let credit: TurnCredit = serde_json::from_value(c.clone())
                .map_err(|e| crate::replay::notation_error(&e, "a custom credit").message)?;
            apply_credit(&mut g, p, &credit).map_err(|e| format!("custom credit {}: {}", i + 1, e.message))?;
        }
        if !cat_fails.is_empty() {
            let fails: Vec<CatDie> = serde_json::from_value(Value::Array(cat_fails.clone()))
                .map_err(|e| crate::replay::notation_error(&e, "cat_fails").message)?;
            crate::rules::villagers::cat_fails(&mut g, p, &fails).map_err(|e| e.message)?;
        }
        Ok(Turn { game, p, map, kind, free, custom, cat_fails, action, g, ctx, open_free })
    }

    fn draft(&self) -> Value {
        Value::Object(self.map.clone())
    }

    fn name(&self) -> String {
        player_name(self.game, self.p)
    }

    /// The draft with another free list.
    fn with_free(&self, free: Value) -> Value {
        with(&self.map, "free", free)
    }

    /// The draft as a turn with this action.
    fn with_action(&self, action: Map<String, Value>) -> Value {
        let mut d = self.map.clone();
        d.insert("type".into(), json!("turn"));
        d.insert("action".into(), Value::Object(action));
        Value::Object(d)
    }

    /// The draft as a turn with one more member set.
    fn as_turn_with(&self, key: &str, value: Value) -> Value {
        let mut d = self.map.clone();
        d.insert("type".into(), json!("turn"));
        d.insert(key.to_owned(), value);
        Value::Object(d)
    }

    fn explicit(&self) -> bool {
        !self.game.seeded()
    }

    /// The open last free action, finished with placeholders (a price of 3, the first cards the
    /// deck model allows).
    fn finish_open_free(&self) -> Option<Value> {
        let last = self.free.last()?.as_object()?;
        match last.get("do").and_then(Value::as_str) {
            Some("buy") => Some(with(last, "price", json!(3))),
            Some("refresh") => {
                let row = last.get("row").and_then(Value::as_str)?;
                let drawn = ids(last, "drawn").ok()?;
                let (deck, kind) = refresh_deck(&self.g, row)?;
                let needed = deck.len().min(4);
                let ids = self.game.setup().catalogue.card_ids(kind);
                let mut deck = drawn_after(&deck, &drawn);
                let mut all = drawn;
                // At most 4 draws (a row), each a card the deck model allows.
                while all.len() < needed {
                    let next = allowed_draws(&deck, &ids).into_iter().next()?;
                    let _ = deck.draw(Some(&next), |_| Ok(()));
                    all.push(next);
                }
                Some(with(last, "drawn", json!(all)))
            }
            _ => None,
        }
    }

    /// Placeholder completions of the turn.
    fn completions(&self) -> Vec<Value> {
        let mut base = self.map.clone();
        if self.open_free {
            let Some(done) = self.finish_open_free() else { return Vec::new() };
            let mut free = self.free.clone();
            free.pop();
            free.push(done);
            base.insert("free".into(), Value::Array(free));
        }
        match (self.kind, &self.action) {
            (None | Some("pass"), None) => {
                base.insert("type".into(), json!("pass"));
                vec![Value::Object(base)]
            }
            (_, None) if !self.cat_fails.is_empty() => vec![Value::Object(base)],
            (_, None) => {
                base.insert("type".into(), json!("turn"));
                let mut out = Vec::new();
                for kind in ["labor", "harvest", "build", "train", "explore"] {
                    let mut a = Map::new();
                    a.insert("do".into(), json!(kind));
                    for done in self.action_completions(&a).into_iter().take(4) {
                        out.push(with(&base, "action", Value::Object(done)));
                    }
                }
                out
            }
            (_, Some(a)) => {
                self.action_completions(a).into_iter().map(|done| with(&base, "action", Value::Object(done))).collect()
            }
        }
    }

    /// The decisions that continue the turn.
    fn stage(&self) -> Result<Stage, String> {
        let game = self.game;
        if self.open_free {
            return Ok(Stage::new(self.draft(), vec![self.open_free_group()]));
        }
        if let Some(a) = &self.action {
            let mut a = a.clone();
            let groups = self.action_stage(&mut a)?;
            return Ok(Stage::new(self.with_action(a), groups));
        }
        let mut groups = Vec::new();
        let mut unavailable = Vec::new();
        if self.kind != Some("turn") {
            groups.push(Group::new("free", "Free actions (D.8)", legal(game, self.free_options())));
            groups.extend(self.free_more());
        }
        if self.kind != Some("pass") && self.cat_fails.is_empty() {
            groups.push(Group::new("custom", "Custom credits (B.4, trusted)", legal(game, self.credit_options())));
            groups.extend(self.credit_more());
        }
        if self.kind != Some("pass") {
            groups.push(Group::new("cat_fails", "Cave Cats that disobey (D.10)", legal(game, self.cat_fail_options())));
            let (options, why) = self.action_options();
            groups.push(Group::new("action", "Action (D.2.2)", options));
            unavailable = why;
        }
        if self.kind.is_none() {
            let mut d = self.map.clone();
            d.insert("type".into(), json!("pass"));
            let label = if self.g.players()[self.p].has_ready() {
                format!("{} passes (D.2.4)", self.name())
            } else {
                format!("{} passes: no ready villager (D.2.3)", self.name())
            };
            groups.push(Group::new("pass", "Pass", legal(game, vec![Opt::new(label, Value::Object(d))])));
        }
        Ok(Stage { draft: self.draft(), groups, unavailable })
    }

    /// New free actions (D.8): offer or withdraw, buy, refresh, store.
    fn free_options(&self) -> Vec<Opt> {
        let g = &self.g;
        let pl = &g.players()[self.p];
        let mut out = Vec::new();
        let items =
            Good::ALL.iter().map(|g| Item::Good(*g)).chain([Item::Other(Token::Potion), Item::Other(Token::Cider)]);
        for item in items {
            if pl.in_reserve(item) > 0 {
                let label = format!("Offer {} for sale (D.8.1)", names::item(item));
                out.push(Opt::new(
                    label,
                    self.with_free(plus(&self.free, json!({ "do": "offer", "item": item.id() }))),
                ));
            }
        }
        if let Some(on_sale) = pl.sale {
            let label = format!("Take {} back from the sale spot (D.8.1)", names::item(on_sale));
            out.push(Opt::new(label, self.with_free(plus(&self.free, json!({ "do": "offer", "item": null })))));
        }
        for (q, seller) in g.players().iter().enumerate() {
            if let (true, Some(item)) = (q != self.p, seller.sale) {
                let label = format!("Buy {}'s {} (3 coins or more, D.8.2)", seller.name, names::item(item));
                out.push(Opt::new(label, self.with_free(plus(&self.free, json!({ "do": "buy", "from": q })))));
            }
        }
        if !self.ctx.refreshed {
            for (row, what) in [("houses", "house row"), ("outposts", "outpost row")] {
                let mut pays = vec![None];
                pays.extend(payment_variants(g, self.p, 1).into_iter().map(Some));
                for pay in pays {
                    let mut f = json!({ "do": "refresh", "row": row });
                    let label = match &pay {
                        None => format!("Refresh the {what} for 1 coin (D.8.3)"),
                        Some(pay) => {
                            f["pay"] = payment_json(pay);
                            format!("Refresh the {what}, paying {} (D.8.3)", names::payment(pay))
                        }
                    };
                    out.push(Opt::new(label, self.with_free(plus(&self.free, f))));
                }
            }
        }
        for good in Good::ALL {
            if pl.reserve[good.index()] > 0 {
                let label = format!("Store {} on the storage track (D.9)", words(good.id()));
                out.push(Opt::new(
                    label,
                    self.with_free(plus(&self.free, json!({ "do": "store", "goods": [good.id()] }))),
                ));
            }
        }
        out
    }

    /// One more good for the store just begun.
    fn free_more(&self) -> Vec<Group> {
        let Some(last) = self.free.last().and_then(Value::as_object) else { return Vec::new() };
        if last.get("do").and_then(Value::as_str) != Some("store") {
            return Vec::new();
        }
        let Ok(goods) = ids(last, "goods") else { return Vec::new() };
        let pl = &self.g.players()[self.p];
        let options = Good::ALL
            .iter()
            .filter(|g| pl.reserve[g.index()] > 0)
            .map(|good| {
                let mut more = goods.clone();
                more.push(good.id().to_owned());
                let mut free = self.free.clone();
                free.pop();
                free.push(with(last, "goods", json!(more)));
                Opt::new(format!("Store {} too", words(good.id())), self.with_free(Value::Array(free)))
            })
            .collect();
        vec![Group::new("store_more", "Store one more good", legal(self.game, options))]
    }

    /// The decision the open free action waits for: a purchase's price, or the next card a
    /// refresh draws (explicit mode).
    fn open_free_group(&self) -> Group {
        let Some(last) = self.free.last().and_then(Value::as_object) else {
            return Group::new("free", "Free action", Vec::new());
        };
        let replace = |item: Value| {
            let mut free = self.free.clone();
            free.pop();
            free.push(item);
            self.with_free(Value::Array(free))
        };
        let mut options = Vec::new();
        if last.get("do").and_then(Value::as_str) == Some("buy") {
            let most = self.g.players()[self.p].coins.min(MAX_PRICE);
            for price in 3..=most {
                options.push(Opt::new(format!("For {}", coins(price)), replace(with(last, "price", json!(price)))));
            }
            return Group::new("price", "The price agreed (D.8.2)", legal(self.game, options));
        }
        let row = last.get("row").and_then(Value::as_str).unwrap_or_default();
        let drawn = ids(last, "drawn").unwrap_or_default();
        if let Some((deck, kind)) = refresh_deck(&self.g, row) {
            let deck = drawn_after(&deck, &drawn);
            for card in allowed_draws(&deck, &self.game.setup().catalogue.card_ids(kind)) {
                let mut more = drawn.clone();
                more.push(card.clone());
                let label = format!("{} drawn into slot {}", name(&card), more.len());
                options.push(Opt::new(label, replace(with(last, "drawn", json!(more)))));
            }
        }
        Group::new("drawn", "The next card drawn (D.8.3, G.1.1)", legal(self.game, options))
    }

    /// The player's cards with a `custom` effect (B.4).
    fn custom_cards(&self) -> Vec<String> {
        self.g.players()[self.p].cards().filter(|c| custom_card(self.game, &c.id)).map(|c| c.id.clone()).collect()
    }

    /// A new custom credit outside an action, from each own card with a `custom` effect.
    fn credit_options(&self) -> Vec<Opt> {
        self.custom_cards()
            .into_iter()
            .map(|card| {
                let label = format!("A credit from {} (its custom effect)", name(&card));
                Opt::new(label, self.as_turn_with("custom", plus(&self.custom, json!({ "card": card }))))
            })
            .collect()
    }

    /// What the credit just begun gives: coins, goods, potions, cider, reputation.
    fn credit_more(&self) -> Vec<Group> {
        let Some(last) = self.custom.last().and_then(Value::as_object) else { return Vec::new() };
        let replace = |credit: Value| {
            let mut custom = self.custom.clone();
            custom.pop();
            custom.push(credit);
            self.as_turn_with("custom", Value::Array(custom))
        };
        let mut options = Vec::new();
        for (key, what) in [("coins", "coins"), ("potions", "potions"), ("cider", "cider")] {
            if !last.contains_key(key) {
                let most = if key == "coins" { MAX_AMOUNT } else { MAX_TOKENS };
                for n in 1..=most {
                    options.push(Opt::new(format!("{n} {what}"), replace(with(last, key, json!(n)))));
                }
            }
        }
        if !last.contains_key("reputation") {
            for n in (-MAX_REPUTATION..=MAX_REPUTATION).filter(|n| *n != 0) {
                options.push(Opt::new(format!("{n:+} reputation"), replace(with(last, "reputation", json!(n)))));
            }
        }
        let goods = ids(last, "goods").unwrap_or_default();
        if goods.len() < MAX_TOKENS as usize {
            for good in Good::ALL {
                let mut more = goods.clone();
                more.push(good.id().to_owned());
                options.push(Opt::new(format!("1 {}", words(good.id())), replace(with(last, "goods", json!(more)))));
            }
        }
        vec![Group::new("credit_more", "What the credit gives (B.4)", legal(self.game, options))]
    }

    /// D.10, D.2.6: a ready Cave Cat rolls 1–2 and goes to exhausted.
    fn cat_fail_options(&self) -> Vec<Opt> {
        let listed = |id: &str| self.cat_fails.iter().any(|f| f["villager"] == id);
        let mut out = Vec::new();
        for v in self.g.players()[self.p].ready().filter(|v| is_cat(self.game, &v.id) && !listed(&v.id)) {
            let dice: Vec<u8> = if self.explicit() { vec![1, 2] } else { seeded_dice(&self.g, 0, 1) };
            for die in dice {
                let fail =
                    if self.explicit() { json!({ "villager": v.id, "die": die }) } else { json!({ "villager": v.id }) };
                let label = format!("{} disobeys (die {die}) and goes to exhausted", name(&v.id));
                out.push(
                    Opt::new(label, self.as_turn_with("cat_fails", plus(&self.cat_fails, fail))).at(&v.id, "disobeys"),
                );
            }
        }
        out
    }

    /// The actions that can be taken now, and why the others cannot.
    fn action_options(&self) -> (Vec<Opt>, Vec<Unavailable>) {
        let mut options = Vec::new();
        let mut why = Vec::new();
        for kind in ACTIONS {
            let mut a = Map::new();
            a.insert("do".into(), json!(kind));
            let d = self.with_action(a);
            match completable(self.game, &d) {
                Ok(()) => options.push(Opt::new(action_name(kind), d)),
                Err(e) => why.push(Unavailable { label: action_name(kind).to_owned(), reason: self.not_now(kind, e) }),
            }
        }
        (options, why)
    }

    /// Why an action cannot be taken now, in the rules' words.
    fn not_now(&self, kind: &str, fallback: String) -> String {
        let g = &self.g;
        let pl = &g.players()[self.p];
        let ready: Vec<&str> = pl.ready().map(|v| v.id.as_str()).collect();
        if ready.is_empty() {
            return format!("{} has no ready villager (D.2.3)", self.name());
        }
        let skilled = |s: Skill| ready.iter().any(|v| has_skill(self.game, v, s));
        match kind {
            "explore" if ready.len() < 2 => "a party needs 2 ready villagers (E.1)".into(),
            "explore" if g.decks.caves.is_empty() => "the cave deck is empty (H.24)".into(),
            "build" if !skilled(Skill::Hammer) => "no ready villager has a hammer (D.5.1)".into(),
            "build" => format!("no face-up card can be paid for with {} (D.5.3)", coins(pl.coins)),
            "train" if !skilled(Skill::Quill) => "no ready villager has a quill (D.6.1)".into(),
            "train" if g.villager_row.iter().all(Option::is_none) => "the villager row is empty (D.6.2)".into(),
            "train" => format!("no villager of the row can be paid for with {} (D.6.2)", coins(pl.coins)),
            _ => fallback,
        }
    }
}

fn turn_stage(game: &Game, draft: &Value) -> Result<Stage, String> {
    Turn::read(game, draft)?.stage()
}

// ---------------------------------------------------------------------------------------------
// The actions (D.3–D.7)

/// A copy of an action object with one member set.
fn set(a: &Map<String, Value>, key: &str, value: Value) -> Map<String, Value> {
    let mut a = a.clone();
    a.insert(key.to_owned(), value);
    a
}

/// A copy of an action with a villager acting: added to the list `key` (or set, for a single
/// villager), with its Cave Cat obedience die when it has one to write.
fn acting(a: &Map<String, Value>, key: &str, many: bool, v: &str, roll: Option<Value>) -> Map<String, Value> {
    let mut a = a.clone();
    if many {
        let mut l = list(&a, key).unwrap_or_default();
        l.push(json!(v));
        a.insert(key.to_owned(), Value::Array(l));
    } else {
        a.insert(key.to_owned(), json!(v));
    }
    if let Some(roll) = roll {
        let mut rolls = list(&a, "cat_rolls").unwrap_or_default();
        rolls.push(roll);
        a.insert("cat_rolls".into(), Value::Array(rolls));
    }
    a
}

impl Turn<'_> {
    /// Ready villagers, those who are not Cave Cats first (a placeholder acts without a die).
    fn ready_ids(&self) -> Vec<String> {
        let ready = self.g.players()[self.p].ready();
        let (cats, others): (Vec<&str>, Vec<&str>) = ready.map(|v| v.id.as_str()).partition(|v| is_cat(self.game, v));
        others.into_iter().chain(cats).map(str::to_owned).collect()
    }

    /// The ways villager `v` may act, `cats_before` Cave Cats having acted before it in the same
    /// action: a Cave Cat obeys on 3–6 (D.10), asked in explicit mode and derived in seeded mode.
    fn obedience(&self, v: &str, cats_before: usize) -> Vec<(String, Option<Value>)> {
        if !is_cat(self.game, v) {
            return vec![(String::new(), None)];
        }
        if self.explicit() {
            return (3..=6).map(|d| (format!(" (obeys: die {d})"), Some(json!({ "villager": v, "die": d })))).collect();
        }
        seeded_dice(&self.g, cats_before, 1).into_iter().map(|d| (format!(" (obeys: die {d})"), None)).collect()
    }

    /// A placeholder obedience die for a Cave Cat that acts (explicit mode).
    fn placeholder_roll(&self, v: &str) -> Option<Value> {
        (is_cat(self.game, v) && self.explicit()).then(|| json!({ "villager": v, "die": 6 }))
    }

    fn cats(&self, ids: &[String]) -> usize {
        ids.iter().filter(|v| is_cat(self.game, v)).count()
    }

    /// Options adding one more ready villager to the list `key` of the action.
    fn add_villager(&self, a: &Map<String, Value>, key: &str, what: &str) -> Vec<Opt> {
        let listed = ids(a, key).unwrap_or_default();
        let mut out = Vec::new();
        for v in self.g.players()[self.p].ready().map(|v| v.id.clone()).filter(|v| !listed.contains(v)) {
            for (suffix, roll) in self.obedience(&v, self.cats(&listed)) {
                let label = format!("{}{suffix}", name(&v));
                out.push(Opt::new(label, self.with_action(acting(a, key, true, &v, roll))).at(&v, what));
            }
        }
        legal(self.game, out)
    }

    /// Options choosing the one villager of a Build or Train, with the skill it needs.
    fn one_villager(&self, a: &Map<String, Value>, skill: Skill, what: &str) -> Vec<Opt> {
        let mut out = Vec::new();
        for v in self.g.players()[self.p].ready().filter(|v| has_skill(self.game, &v.id, skill)) {
            for (suffix, roll) in self.obedience(&v.id, 0) {
                let label = format!("{}{suffix}", name(&v.id));
                out.push(Opt::new(label, self.with_action(acting(a, "villager", false, &v.id, roll))).at(&v.id, what));
            }
        }
        legal(self.game, out)
    }

    /// Placeholder completions of an action.
    fn action_completions(&self, a: &Map<String, Value>) -> Vec<Map<String, Value>> {
        match a.get("do").and_then(Value::as_str).unwrap_or_default() {
            "labor" | "harvest" => {
                if a.get("villagers").is_some_and(|v| v.as_array().is_none_or(|l| !l.is_empty())) {
                    return vec![a.clone()];
                }
                self.ready_ids()
                    .iter()
                    .map(|v| acting(&set(a, "villagers", json!([])), "villagers", true, v, self.placeholder_roll(v)))
                    .collect()
            }
            "build" => self.build_completions(a),
            "train" => self.train_completions(a),
            _ => self.explore_completions(a),
        }
    }

    /// The decisions of the action begun (members set by the engine go into `a`).
    fn action_stage(&self, a: &mut Map<String, Value>) -> Result<Vec<Group>, String> {
        match a.get("do").and_then(Value::as_str).unwrap_or_default() {
            "labor" => {
                check_keys(a, &["do", "villagers", "cat_rolls"], "a Labor action")?;
                ids(a, "villagers")?;
                let options = self.add_villager(a, "villagers", "labor");
                Ok(vec![Group::new("villagers", "Villagers who labor, 1 coin each (D.7)", options)])
            }
            "harvest" => self.harvest_stage(a),
            "build" => self.build_stage(a),
            "train" => self.train_stage(a),
            _ => self.explore_stage(a),
        }
    }

    // --- Harvest (D.4)

    fn harvest_stage(&self, a: &Map<String, Value>) -> Result<Vec<Group>, String> {
        check_keys(a, &["do", "villagers", "take", "cat_rolls"], "a Harvest action")?;
        let villagers = ids(a, "villagers")?;
        let take = ids(a, "take")?;
        let mut groups = vec![Group::new(
            "villagers",
            "Villagers who harvest (D.4.1)",
            self.add_villager(a, "villagers", "harvest"),
        )];
        if take.len() < villagers.len() {
            let mut options = Vec::new();
            for card in self.g.players()[self.p].cards() {
                let taken = take.iter().filter(|t| **t == card.id).count();
                if let Some(good) = card.tokens.get(taken) {
                    let mut more = take.clone();
                    more.push(card.id.clone());
                    let label = format!("1 {} from {}", words(good.id()), name(&card.id));
                    options.push(Opt::new(label, self.with_action(set(a, "take", json!(more)))));
                }
            }
            groups.push(Group::new("take", "Goods taken, one per villager at most (D.4.2)", legal(self.game, options)));
        }
        Ok(groups)
    }

    // --- Build (D.5) and Train (D.6): the payment

    /// The custom discounts written so far (B.4) and their sum.
    fn discounts(&self, a: &Map<String, Value>) -> (Vec<Value>, u64) {
        let custom = list(a, "custom").unwrap_or_default();
        let sum = custom.iter().filter_map(|d| d.get("discount").and_then(Value::as_u64)).sum();
        (custom, sum)
    }

    /// The payment choices of a Build or Train whose price is `before` custom discounts: a
    /// discount from an own custom card, or a payment with cider or potions (D.5.3, H.5).
    fn payment_groups(&self, a: &Map<String, Value>, before: u64) -> Vec<Group> {
        if a.contains_key("pay") || a.contains_key("refill") {
            return Vec::new();
        }
        let (custom, sum) = self.discounts(a);
        let price = before.saturating_sub(sum);
        let mut discounts = Vec::new();
        for card in self.custom_cards().iter().filter(|c| !custom.iter().any(|d| d["card"] == c.as_str())) {
            for n in 1..=price {
                let label = format!("{} less from {} (custom, trusted)", coins(n), name(card));
                let d = plus(&custom, json!({ "card": card, "discount": n }));
                discounts.push(Opt::new(label, self.with_action(set(a, "custom", d))));
            }
        }
        let pays = payment_variants(&self.g, self.p, price)
            .into_iter()
            .map(|pay| {
                Opt::new(format!("Pay {}", names::payment(&pay)), self.with_action(set(a, "pay", payment_json(&pay))))
            })
            .collect();
        vec![
            Group::new("discount", "Custom discounts (B.4)", legal(self.game, discounts)),
            Group::new("pay", format!("Pay the price of {} otherwise (D.5.3)", coins(price)), legal(self.game, pays)),
        ]
    }

    // --- Build (D.5)

    /// The cards face up in the rows, with their row.
    fn face_up(&self) -> Vec<(String, Row)> {
        let g = &self.g;
        let rows = [
            (&g.house_row, Row::Houses),
            (&g.outpost_row, Row::Outposts),
            (&g.key_row, Row::Keys),
            (&g.star_row, Row::Stars),
        ];
        rows.into_iter().flat_map(|(slots, row)| slots.iter().flatten().map(move |c| (c.clone(), row))).collect()
    }

    /// The card a Build or a card reward refills its row with, when one is drawn: explicit mode,
    /// from the house or outpost row, with a deck that is not empty (D.5.7).
    fn refill_deck(&self, card: &str, drawn: &[String]) -> Option<(Deck, Vec<String>)> {
        if !self.explicit() {
            return None;
        }
        // A basic house lies in the house row, an outpost in the outpost row (A.7).
        let cat = &self.game.setup().catalogue;
        let (deck, kind) = match cat.cards.get(card)?.kind {
            CardKind::Basic => (&self.g.decks.houses, CardKind::Basic),
            CardKind::Outpost => (&self.g.decks.outposts, CardKind::Outpost),
            CardKind::Starting | CardKind::Key | CardKind::Star => return None,
        };
        let earlier: Vec<String> =
            drawn.iter().filter(|id| cat.cards.get(id).is_some_and(|c| c.kind == kind)).cloned().collect();
        let deck = drawn_after(deck, &earlier);
        (!deck.is_empty()).then(|| (deck, cat.card_ids(kind)))
    }

    fn free_caves(&self) -> Vec<String> {
        let pl = &self.g.players()[self.p];
        pl.caves
            .iter()
            .filter(|c| free_cave(&self.g, self.p, &c.id, pl.caves.len()).is_some())
            .map(|c| c.id.clone())
            .collect()
    }

    fn build_completions(&self, a: &Map<String, Value>) -> Vec<Map<String, Value>> {
        let cat = &self.game.setup().catalogue;
        let builders: Vec<Map<String, Value>> = match a.get("villager") {
            Some(_) => vec![a.clone()],
            None => self
                .ready_ids()
                .iter()
                .filter(|v| has_skill(self.game, v, Skill::Hammer))
                .map(|v| acting(a, "villager", false, v, self.placeholder_roll(v)))
                .collect(),
        };
        let cards: Vec<Option<String>> = match a.get("card") {
            Some(_) => vec![None],
            None => {
                let mut cards = self.face_up();
                cards.sort_by_key(|(c, _)| cat.cards.get(c).and_then(|d| d.cost).unwrap_or(u32::MAX));
                cards.into_iter().map(|(c, _)| Some(c)).collect()
            }
        };
        let mut out = Vec::new();
        for b in &builders {
            for card in &cards {
                let mut m = match card {
                    Some(c) => set(b, "card", json!(c)),
                    None => b.clone(),
                };
                let id = m.get("card").and_then(Value::as_str).unwrap_or_default().to_owned();
                let outpost = cat.cards.get(&id).is_some_and(|c| c.kind == CardKind::Outpost);
                if outpost && !m.contains_key("cave") {
                    let Some(cave) = self.free_caves().into_iter().next() else { continue };
                    m.insert("cave".into(), json!(cave));
                }
                if !m.contains_key("refill") {
                    if let Some(next) =
                        self.refill_deck(&id, &[]).and_then(|(d, ids)| allowed_draws(&d, &ids).into_iter().next())
                    {
                        m.insert("refill".into(), json!(next));
                    }
                }
                out.push(m);
                if out.len() >= MAX_COMPLETIONS {
                    return out;
                }
            }
        }
        out
    }

    fn build_stage(&self, a: &Map<String, Value>) -> Result<Vec<Group>, String> {
        check_keys(a, &["do", "villager", "card", "cave", "pay", "refill", "custom", "cat_rolls"], "a Build action")?;
        let Some(builder) = a.get("villager").and_then(Value::as_str) else {
            return Ok(vec![Group::new(
                "villager",
                "The builder, a villager with a hammer (D.5.1)",
                self.one_villager(a, Skill::Hammer, "builder"),
            )]);
        };
        let plus_skill = has_skill(self.game, builder, Skill::HammerPlus);
        let cat = &self.game.setup().catalogue;
        let Some(card) = a.get("card").and_then(Value::as_str) else {
            let mut options = Vec::new();
            for (id, row) in self.face_up() {
                let Ok(full) = cat.full_card(&id) else { continue };
                let price = crate::rules::payment::discounted(full.cost, plus_skill, 0);
                let kind = match row {
                    Row::Houses => "house",
                    Row::Outposts => "outpost",
                    Row::Keys => "key house",
                    Row::Stars => "star house",
                };
                let label = format!("{} ({kind}, {})", name(&id), coins(price));
                options.push(
                    Opt::new(label, self.with_action(set(a, "card", json!(id))))
                        .at(&id, "build")
                        .detail(names::effects(full.effects)),
                );
            }
            return Ok(vec![Group::new("card", "The card bought (D.5.2)", legal(self.game, options))]);
        };
        let full = cat.full_card(card).map_err(|e| e.message)?;
        if full.kind == CardKind::Outpost && !a.contains_key("cave") {
            let options = self
                .free_caves()
                .into_iter()
                .map(|c| Opt::new(format!("On {}", name(&c)), self.with_action(set(a, "cave", json!(c)))))
                .collect();
            return Ok(vec![Group::new("cave", "The own cave the outpost covers (D.5.4)", legal(self.game, options))]);
        }
        let mut groups = self.payment_groups(a, crate::rules::payment::discounted(full.cost, plus_skill, 0));
        if !a.contains_key("refill") {
            if let Some((deck, ids)) = self.refill_deck(card, &[]) {
                let options = allowed_draws(&deck, &ids)
                    .into_iter()
                    .map(|c| {
                        Opt::new(
                            format!("{} drawn into the row", name(&c)),
                            self.with_action(set(a, "refill", json!(c))),
                        )
                    })
                    .collect();
                groups.push(Group::new(
                    "refill",
                    "The card drawn into the gap (D.5.7, G.1.1)",
                    legal(self.game, options),
                ));
            }
        }
        Ok(groups)
    }

    // --- Train (D.6)

    fn train_completions(&self, a: &Map<String, Value>) -> Vec<Map<String, Value>> {
        let trainers: Vec<Map<String, Value>> = match a.get("villager") {
            Some(_) => vec![a.clone()],
            None => self
                .ready_ids()
                .iter()
                .filter(|v| has_skill(self.game, v, Skill::Quill))
                .map(|v| acting(a, "villager", false, v, self.placeholder_roll(v)))
                .collect(),
        };
        let costs = self.game.setup().board.train_costs;
        let mut slots: Vec<usize> = match a.get("slot") {
            Some(_) => vec![usize::MAX],
            None => (0..5).filter(|s| self.g.villager_row.get(*s).is_some_and(Option::is_some)).collect(),
        };
        slots.sort_by_key(|s| costs.get(*s).copied().unwrap_or(0));
        let mut out = Vec::new();
        for t in &trainers {
            for &s in &slots {
                out.push(if s == usize::MAX { t.clone() } else { set(t, "slot", json!(s)) });
            }
        }
        out.truncate(MAX_COMPLETIONS);
        out
    }

    fn train_stage(&self, a: &Map<String, Value>) -> Result<Vec<Group>, String> {
        check_keys(a, &["do", "villager", "slot", "recruit", "pay", "custom", "cat_rolls"], "a Train action")?;
        let Some(trainer) = a.get("villager").and_then(Value::as_str) else {
            return Ok(vec![Group::new(
                "villager",
                "The trainer, a villager with a quill (D.6.1)",
                self.one_villager(a, Skill::Quill, "trainer"),
            )]);
        };
        let plus_skill = has_skill(self.game, trainer, Skill::QuillPlus);
        let costs = self.game.setup().board.train_costs;
        let Some(slot) = a.get("slot") else {
            let mut options = Vec::new();
            for (s, v) in self.g.villager_row.iter().enumerate() {
                let Some(v) = v else { continue };
                let price = crate::rules::payment::discounted(costs.get(s).copied().unwrap_or(0), plus_skill, 0);
                let label = format!("{} ({})", name(v), coins(price));
                options.push(Opt::new(label, self.with_action(set(a, "slot", json!(s)))).at(v, "train"));
            }
            return Ok(vec![Group::new(
                "slot",
                "The villager trained, from the row (D.6.2)",
                legal(self.game, options),
            )]);
        };
        let s = slot
            .as_u64()
            .and_then(|s| usize::try_from(s).ok())
            .filter(|s| *s < 5)
            .ok_or("`slot` is a slot of the villager row, 0–4")?;
        Ok(self.payment_groups(a, crate::rules::payment::discounted(costs[s], plus_skill, 0)))
    }
}

// ---------------------------------------------------------------------------------------------
// Explore (E)

/// Most continuation steps followed in one exploration (a chain of the book is a few long).
const MAX_CHAIN: usize = 64;

fn step_ref(a: &Map<String, Value>, depth: usize) -> Option<&Map<String, Value>> {
    let mut s = a.get("step")?.as_object()?;
    for _ in 0..depth {
        s = s.get("then")?.as_object()?;
    }
    Some(s)
}

fn step_mut(a: &mut Map<String, Value>, depth: usize) -> Option<&mut Map<String, Value>> {
    let mut s = a.get_mut("step")?.as_object_mut()?;
    for _ in 0..depth {
        s = s.get_mut("then")?.as_object_mut()?;
    }
    Some(s)
}

/// The depth of the last step of the chain (0: the first step).
fn innermost(a: &Map<String, Value>) -> usize {
    let mut depth = 0;
    while depth < MAX_CHAIN && step_ref(a, depth).and_then(|s| s.get("then")).is_some_and(Value::is_object) {
        depth += 1;
    }
    depth
}

/// Every step of the chain, first to last.
fn chain(a: &Map<String, Value>) -> Vec<&Map<String, Value>> {
    (0..=innermost(a)).filter_map(|d| step_ref(a, d)).collect()
}

fn number(map: &Map<String, Value>, key: &str) -> Option<u32> {
    map.get(key).and_then(Value::as_u64).and_then(|n| u32::try_from(n).ok())
}

/// The thresholds of an option in words ("Explore 4 or 7", "no test").
fn thresholds_words(t: &[u32]) -> String {
    if t.is_empty() {
        return "no test".into();
    }
    let t: Vec<String> = t.iter().map(u32::to_string).collect();
    format!("Explore {}", t.join(" or "))
}

/// The ascending threshold lists offered: none, one or [`MAX_THRESHOLDS`] of 1–[`MAX_THRESHOLD`].
fn threshold_lists() -> Vec<Vec<u32>> {
    let mut out = vec![vec![]];
    out.extend((1..=MAX_THRESHOLD).map(|t| vec![t]));
    if MAX_THRESHOLDS >= 2 {
        for low in 1..=MAX_THRESHOLD {
            for high in low + 1..=MAX_THRESHOLD {
                out.push(vec![low, high]);
            }
        }
    }
    out
}

fn skill_id(s: Skill) -> &'static str {
    match s {
        Skill::Hammer => "hammer",
        Skill::Quill => "quill",
        Skill::HammerPlus => "hammer_plus",
        Skill::QuillPlus => "quill_plus",
    }
}

/// Every item a reserve may hold (A.1–A.2).
fn all_items() -> impl Iterator<Item = Item> {
    Good::ALL.into_iter().map(Item::Good).chain([Item::Other(Token::Potion), Item::Other(Token::Cider)])
}

impl Turn<'_> {
    /// The cave and paragraph die of an exploration: written (explicit mode) or derived from the
    /// seed (the cave on top of the deck; the die after the party's Cave Cat dice, H.11).
    fn cave_and_die(&self, a: &Map<String, Value>) -> (Option<String>, Option<u8>) {
        if self.explicit() {
            let cave = a.get("cave").and_then(Value::as_str).map(str::to_owned);
            let die =
                a.get("die").and_then(Value::as_u64).and_then(|d| u8::try_from(d).ok()).filter(|d| (1..=6).contains(d));
            return (cave, die);
        }
        let party = ids(a, "party").unwrap_or_default();
        (
            self.g.decks.caves.peek_known().map(str::to_owned),
            seeded_dice(&self.g, self.cats(&party), 1).first().copied(),
        )
    }

    /// The first paragraph the log already fixes for a cave and die: the cave's table (B.7) or
    /// an earlier exploration (H.33).
    fn forced_first(&self, cave: &str, die: u8) -> Option<u32> {
        let i = usize::from(die.clamp(1, 6) - 1);
        self.game
            .setup()
            .catalogue
            .caves
            .get(cave)
            .and_then(|c| c.paragraphs)
            .map(|t| t[i])
            .or_else(|| self.game.paragraphs.get(cave).and_then(|d| d[i]))
    }

    /// The draft with the step at `depth` changed.
    fn edit_step(&self, a: &Map<String, Value>, depth: usize, f: impl FnOnce(&mut Map<String, Value>)) -> Value {
        let mut a = a.clone();
        if let Some(s) = step_mut(&mut a, depth) {
            f(s);
        }
        self.with_action(a)
    }

    fn explore_completions(&self, a: &Map<String, Value>) -> Vec<Map<String, Value>> {
        let Ok(party) = ids(a, "party") else { return vec![a.clone()] };
        let mut parties = Vec::new();
        if party.len() >= 2 {
            parties.push(a.clone());
        } else {
            let others: Vec<String> = self.ready_ids().into_iter().filter(|v| !party.contains(v)).collect();
            let base = set(a, "party", json!(party));
            for (i, v) in others.iter().enumerate().take(4) {
                let one = acting(&base, "party", true, v, self.placeholder_roll(v));
                if party.len() == 1 {
                    parties.push(one);
                    continue;
                }
                for w in others.iter().skip(i + 1).take(3) {
                    parties.push(acting(&one, "party", true, w, self.placeholder_roll(w)));
                }
            }
        }
        parties.into_iter().flat_map(|pa| self.fill_explore(pa)).take(MAX_COMPLETIONS).collect()
    }

    /// An exploration with a party, completed with placeholders: the first cave the deck model
    /// allows, die and lantern dice of 1, the first paragraph the log fixes (or 1), option 1,
    /// the thresholds the log declared for it (or none), no outcome, and each `reached` a step
    /// may have.
    fn fill_explore(&self, mut a: Map<String, Value>) -> Vec<Map<String, Value>> {
        let party = ids(&a, "party").unwrap_or_default();
        if self.explicit() {
            if !a.contains_key("cave") {
                let caves: Vec<String> = self.game.setup().catalogue.caves.keys().map(str::to_owned).collect();
                let Some(cave) = allowed_draws(&self.g.decks.caves, &caves).into_iter().next() else { return vec![a] };
                a.insert("cave".into(), json!(cave));
            }
            a.entry("die").or_insert(json!(1));
            let mut rolls = list(&a, "rolls").unwrap_or_default();
            for v in party.iter().skip(rolls.len()) {
                rolls.push(json!({ "villager": v, "die": 1 }));
            }
            a.insert("rolls".into(), Value::Array(rolls));
        }
        let (cave, die) = self.cave_and_die(&a);
        let first = cave.zip(die).and_then(|(c, d)| self.forced_first(&c, d));
        self.fill_refills(&mut a);
        if a.get("step").is_some_and(|s| !s.is_object()) {
            return vec![a];
        }
        a.entry("step").or_insert(json!({}));
        let depth = innermost(&a);
        let thresholds = &self.game.thresholds;
        let Some(s) = step_mut(&mut a, depth) else { return vec![a] };
        if !s.contains_key("paragraph") {
            s.insert("paragraph".into(), json!(if depth == 0 { first.unwrap_or(1) } else { 1 }));
        }
        s.entry("option").or_insert(json!(1));
        if !s.contains_key("thresholds") {
            let key = (number(s, "paragraph").unwrap_or(0), number(s, "option").unwrap_or(0));
            s.insert("thresholds".into(), json!(thresholds.get(&key).cloned().unwrap_or_default()));
        }
        s.entry("outcome").or_insert(json!([]));
        if s.contains_key("reached") {
            return vec![a];
        }
        let t: Vec<Value> = list(s, "thresholds").unwrap_or_default();
        let candidates: Vec<Value> =
            if t.is_empty() { vec![json!(0)] } else { std::iter::once(Value::Null).chain(t).collect() };
        candidates
            .into_iter()
            .map(|r| {
                let mut b = a.clone();
                if let Some(s) = step_mut(&mut b, depth) {
                    s.insert("reached".into(), r);
                }
                b
            })
            .collect()
    }

    /// The refills written by the card rewards of an exploration, in order.
    fn written_refills(a: &Map<String, Value>) -> Vec<String> {
        chain(a)
            .into_iter()
            .flat_map(|s| list(s, "outcome").unwrap_or_default())
            .filter_map(|i| i.get("refill").and_then(Value::as_str).map(str::to_owned))
            .collect()
    }

    /// Explicit mode: a card reward from the house or outpost row without its refill gets the
    /// first card the deck model allows (a placeholder).
    fn fill_refills(&self, a: &mut Map<String, Value>) {
        if !self.explicit() {
            return;
        }
        let mut drawn: Vec<String> = Vec::new();
        for depth in 0..=innermost(a) {
            let Some(items) = step_mut(a, depth).and_then(|s| s.get_mut("outcome")).and_then(Value::as_array_mut)
            else {
                continue;
            };
            for item in items.iter_mut().filter_map(Value::as_object_mut) {
                if item.get("get").and_then(Value::as_str) != Some("card") {
                    continue;
                }
                if let Some(r) = item.get("refill").and_then(Value::as_str) {
                    drawn.push(r.to_owned());
                    continue;
                }
                let card = item.get("card").and_then(Value::as_str).unwrap_or_default();
                if let Some(next) =
                    self.refill_deck(card, &drawn).and_then(|(d, ids)| allowed_draws(&d, &ids).into_iter().next())
                {
                    drawn.push(next.clone());
                    item.insert("refill".into(), json!(next));
                }
            }
        }
    }

    fn explore_stage(&self, a: &mut Map<String, Value>) -> Result<Vec<Group>, String> {
        check_keys(a, &["do", "party", "cat_rolls", "cave", "die", "rolls", "rerolls", "step"], "an Explore action")?;
        let party = ids(a, "party")?;
        if a.get("step").is_some_and(|s| !s.is_object()) {
            return Err("`step` is an object: one paragraph of the book (E.2–E.10)".into());
        }
        let closed = if self.explicit() {
            ["cave", "die", "rolls", "step"].iter().any(|k| a.contains_key(*k))
        } else {
            a.contains_key("step")
        };
        if !closed {
            let mut groups = vec![Group::new(
                "party",
                "The party, 2 villagers or more (E.1)",
                self.add_villager(a, "party", "party"),
            )];
            if party.len() >= 2 {
                groups.push(self.close_party(a));
            }
            return Ok(groups);
        }
        let (cave, die) = self.cave_and_die(a);
        if self.explicit() && !a.contains_key("die") {
            let mut options = Vec::new();
            for d in 1..=6u8 {
                let read = cave.as_deref().and_then(|c| self.forced_first(c, d));
                let label = match read {
                    Some(pg) => format!("Paragraph die {d}: paragraph {pg}"),
                    None => format!("Paragraph die {d}"),
                };
                options.push(Opt::new(label, self.with_action(set(a, "die", json!(d)))));
            }
            return Ok(vec![Group::new("die", "The paragraph die (E.2)", legal(self.game, options))]);
        }
        if !a.contains_key("step") {
            a.insert("step".into(), json!({}));
        }
        let first_read =
            step_ref(a, 0).ok_or("`step` is an object: one paragraph of the book")?.contains_key("paragraph");
        if !first_read {
            match cave.as_deref().zip(die).and_then(|(c, d)| self.forced_first(c, d)) {
                Some(pg) => {
                    if let Some(s) = step_mut(a, 0) {
                        s.insert("paragraph".into(), json!(pg));
                    }
                }
                None => {
                    let label = "The paragraph the cave gives for the die (E.2)";
                    return Ok(vec![Group::new("paragraph", label, self.paragraph_options(a, 0))]);
                }
            }
        }
        let depth = innermost(a);
        self.step_stage(a, depth, &party)
    }

    /// Options for the paragraph of the step at `depth`.
    fn paragraph_options(&self, a: &Map<String, Value>, depth: usize) -> Vec<Opt> {
        let options = (1..=MAX_PARAGRAPH)
            .map(|pg| {
                Opt::new(
                    format!("Paragraph {pg}"),
                    self.edit_step(a, depth, |s| {
                        s.insert("paragraph".into(), json!(pg));
                    }),
                )
            })
            .collect();
        legal(self.game, options)
    }

    /// The choices that end the party: the cave drawn (explicit mode), or the paragraph the seed's
    /// cave and die lead to (seeded mode).
    fn close_party(&self, a: &Map<String, Value>) -> Group {
        if self.explicit() {
            let caves: Vec<String> = self.game.setup().catalogue.caves.keys().map(str::to_owned).collect();
            let options = allowed_draws(&self.g.decks.caves, &caves)
                .into_iter()
                .map(|c| Opt::new(format!("{} drawn", name(&c)), self.with_action(set(a, "cave", json!(c)))))
                .collect();
            return Group::new("cave", "That is the party: the cave drawn (E.1, G.1.1)", legal(self.game, options));
        }
        let (cave, die) = self.cave_and_die(a);
        let (Some(cave), Some(die)) = (cave, die) else {
            return Group::new("cave", "The cave deck is empty (H.24)", Vec::new());
        };
        let step = |pg: u32| self.with_action(set(a, "step", json!({ "paragraph": pg })));
        match self.forced_first(&cave, die) {
            Some(pg) => {
                let label = format!("That is the party: {} drawn, paragraph die {die}, paragraph {pg}", name(&cave));
                Group::new("go", "That is the party (E.1–E.2)", legal(self.game, vec![Opt::new(label, step(pg))]))
            }
            None => {
                let options = (1..=MAX_PARAGRAPH).map(|pg| Opt::new(format!("Paragraph {pg}"), step(pg))).collect();
                let label =
                    format!("That is the party: {} drawn, paragraph die {die}; the paragraph read (E.2)", name(&cave));
                Group::new("paragraph", label, legal(self.game, options))
            }
        }
    }

    /// The decisions of the step at `depth`: its option, thresholds, (first step, explicit mode)
    /// lantern dice, then rerolls, bonuses and efforts until it is resolved, then its outcome
    /// and continuation.
    fn step_stage(&self, a: &mut Map<String, Value>, depth: usize, party: &[String]) -> Result<Vec<Group>, String> {
        let s = step_ref(a, depth).ok_or("each step is an object: one paragraph of the book")?;
        check_keys(
            s,
            &["paragraph", "option", "thresholds", "rerolls", "bonus", "efforts", "reached", "outcome", "then"],
            "a step",
        )?;
        let Some(pg) = number(s, "paragraph") else {
            return Ok(vec![Group::new("paragraph", "The paragraph read (E.9)", self.paragraph_options(a, depth))]);
        };
        let Some(option) = number(s, "option") else {
            let mut options = Vec::new();
            for o in 1..=MAX_OPTION_NUMBER {
                let label = match self.game.thresholds.get(&(pg, o)) {
                    Some(t) => format!("Option {o} ({})", thresholds_words(t)),
                    None => format!("Option {o}"),
                };
                options.push(Opt::new(
                    label,
                    self.edit_step(a, depth, |s| {
                        s.insert("option".into(), json!(o));
                    }),
                ));
            }
            return Ok(vec![Group::new(
                "option",
                format!("The option chosen in paragraph {pg} (E.3)"),
                legal(self.game, options),
            )]);
        };
        if !s.contains_key("thresholds") {
            if let Some(t) = self.game.thresholds.get(&(pg, option)).cloned() {
                if let Some(s) = step_mut(a, depth) {
                    s.insert("thresholds".into(), json!(t));
                }
            } else {
                let options = threshold_lists()
                    .into_iter()
                    .map(|t| {
                        let label = thresholds_words(&t);
                        Opt::new(
                            label,
                            self.edit_step(a, depth, |s| {
                                s.insert("thresholds".into(), json!(t));
                            }),
                        )
                    })
                    .collect();
                let label = format!("The thresholds of option {option}, as read aloud (E.3, H.34)");
                return Ok(vec![Group::new("thresholds", label, legal(self.game, options))]);
            }
        }
        if depth == 0 && self.explicit() {
            let rolls = list(a, "rolls")?;
            if let Some(v) = party.get(rolls.len()) {
                let def = self.game.setup().catalogue.villagers.get(v);
                let options = (1..=6u8)
                    .map(|d| {
                        let lanterns = def.map_or(0, |x| x.lanterns(d));
                        let label =
                            format!("{} rolls {d}: {}", name(v), plural(u64::from(lanterns), "lantern", "lanterns"));
                        let roll = json!({ "villager": v, "die": d });
                        Opt::new(label, self.with_action(set(a, "rolls", plus(&rolls, roll)))).at(v, "roll")
                    })
                    .collect();
                let label = format!("The lantern die of {} (E.4)", name(v));
                return Ok(vec![Group::new("roll", label, legal(self.game, options))]);
            }
        }
        let s = step_ref(a, depth).ok_or("each step is an object")?;
        if s.contains_key("reached") {
            Ok(self.outcome_groups(a, depth, party))
        } else {
            Ok(self.lantern_groups(a, depth, party))
        }
    }

    /// Before a step is resolved: rerolls (E.5, H.14), bonuses (E.7), last efforts (E.6), and
    /// the resolution, which writes the one `reached` the lanterns give (E.8).
    fn lantern_groups(&self, a: &Map<String, Value>, depth: usize, party: &[String]) -> Vec<Group> {
        let game = self.game;
        let Some(s) = step_ref(a, depth) else { return Vec::new() };
        let mut groups = Vec::new();
        // Rerolls.
        let allowance = self.g.sum(self.p, |e| if let Effect::Rerolls { n } = e { Some(*n) } else { None });
        let used = list(a, "rerolls").unwrap_or_default().len()
            + chain(a).iter().map(|s| list(s, "rerolls").unwrap_or_default().len()).sum::<usize>();
        if (used as u64) < allowance {
            // The first step's rerolls are the action's (LOG-FORMAT "explore and the step object").
            let current = if depth == 0 { list(a, "rerolls") } else { list(s, "rerolls") }.unwrap_or_default();
            let mut options = Vec::new();
            let mut distinct: Vec<&String> = Vec::new();
            for v in party.iter().filter(|v| self.still_in_cave(a, v)) {
                if !distinct.contains(&v) {
                    distinct.push(v);
                }
            }
            for v in distinct {
                // Seeded mode: the die the seed gives after the paragraph die, the lantern dice
                // and the rerolls so far (LOG-FORMAT "Randomness").
                let dice: Vec<(u8, bool)> = if self.explicit() {
                    (1..=6).map(|d| (d, true)).collect()
                } else {
                    let skip = self.cats(party) + 1 + party.len() + used;
                    seeded_dice(&self.g, skip, 1).into_iter().map(|d| (d, false)).collect()
                };
                for (d, write) in dice {
                    let roll = if write { json!({ "villager": v, "die": d }) } else { json!({ "villager": v }) };
                    let more = plus(&current, roll);
                    let draft = if depth == 0 {
                        self.with_action(set(a, "rerolls", more))
                    } else {
                        self.edit_step(a, depth, |s| {
                            s.insert("rerolls".into(), more);
                        })
                    };
                    options.push(Opt::new(format!("Reroll {}'s die: {d}", name(v)), draft).at(v, "reroll"));
                }
            }
            groups.push(Group::new("reroll", "Rerolls (E.5)", legal(game, options)));
        }
        // Bonuses.
        let bonus = list(s, "bonus").unwrap_or_default();
        let add_bonus = |b: Value| {
            let more = plus(&bonus, b);
            self.edit_step(a, depth, |s| {
                s.insert("bonus".into(), more);
            })
        };
        let mut options = Vec::new();
        let cat = &game.setup().catalogue;
        for skill in [Skill::Hammer, Skill::Quill, Skill::HammerPlus, Skill::QuillPlus] {
            if party.iter().any(|v| has_skill(game, v, skill)) {
                for n in 1..=MAX_BONUS {
                    let label = format!("+{n} per {} in the cave", words(skill_id(skill)));
                    options.push(Opt::new(
                        label,
                        add_bonus(json!({ "kind": "per_skill", "skill": skill_id(skill), "n": n })),
                    ));
                }
            }
        }
        for item in self.items_held(a) {
            for n in 1..=MAX_BONUS {
                let label = format!("+{n} for owning {}", names::item(item));
                options.push(Opt::new(label, add_bonus(json!({ "kind": "if_have", "item": item.id(), "n": n }))));
                let label = format!("+{n} per {} owned", names::item(item));
                options.push(Opt::new(label, add_bonus(json!({ "kind": "per_have", "item": item.id(), "n": n }))));
            }
        }
        let mut tags: Vec<&String> = Vec::new();
        for v in party {
            for t in cat.villagers.get(v).map(|d| d.tags.as_slice()).unwrap_or_default() {
                if !tags.contains(&t) {
                    tags.push(t);
                }
            }
        }
        for tag in tags {
            for n in 1..=MAX_BONUS {
                options.push(Opt::new(
                    format!("+{n} for a {} in the cave", words(tag)),
                    add_bonus(json!({ "kind": "if_tag", "tag": tag, "n": n })),
                ));
            }
        }
        for c in 1..=MAX_AMOUNT {
            for n in 1..=MAX_BONUS {
                let label = format!("+{n} for paying {}", coins(u64::from(c)));
                options.push(Opt::new(label, add_bonus(json!({ "kind": "pay", "coins": c, "n": n }))));
            }
        }
        for n in 1..=MAX_BONUS {
            let label = format!("+{n} by a condition of the book (custom: type its text)");
            options.push(Opt::new(label, add_bonus(json!({ "kind": "custom", "n": n, "text": "" }))));
        }
        for card in self.custom_cards() {
            for n in 1..=MAX_BONUS {
                let label = format!("+{n} from {} (custom credit)", name(&card));
                options.push(Opt::new(label, add_bonus(json!({ "kind": "card", "card": card, "n": n }))));
            }
        }
        groups.push(Group::new("bonus", "Bonus lanterns of the option (E.7)", legal(game, options)));
        // A bonus payment with cider or potions.
        if let Some(last) = bonus.last().and_then(Value::as_object) {
            if last.get("kind").and_then(Value::as_str) == Some("pay") && !last.contains_key("with") {
                let price = last.get("coins").and_then(Value::as_u64).unwrap_or(0);
                let options = payment_variants(&self.g, self.p, price)
                    .into_iter()
                    .map(|pay| {
                        let mut b = bonus.clone();
                        b.pop();
                        b.push(with(last, "with", payment_json(&pay)));
                        let d = self.edit_step(a, depth, |s| {
                            s.insert("bonus".into(), Value::Array(b));
                        });
                        Opt::new(format!("Pay {}", names::payment(&pay)), d)
                    })
                    .collect();
                groups.push(Group::new("bonus_with", "Pay the bonus otherwise (D.5.3)", legal(game, options)));
            }
        }
        // Last efforts.
        let efforts = list(s, "efforts").unwrap_or_default();
        let mut options = Vec::new();
        for v in party.iter().filter(|v| self.still_in_cave(a, v)) {
            let more = plus(&efforts, json!(v));
            let draft = self.edit_step(a, depth, |s| {
                s.insert("efforts".into(), more);
            });
            options.push(Opt::new(format!("{}: a last effort, +1 lantern, injured", name(v)), draft).at(v, "effort"));
        }
        groups.push(Group::new("effort", "Last efforts (E.6)", legal(game, options)));
        // Resolution.
        let t: Vec<u32> = list(s, "thresholds")
            .unwrap_or_default()
            .iter()
            .filter_map(|x| x.as_u64())
            .filter_map(|x| u32::try_from(x).ok())
            .collect();
        let candidates: Vec<Option<u32>> = if t.is_empty() {
            vec![Some(0)]
        } else {
            std::iter::once(None).chain(t.iter().map(|x| Some(*x))).collect()
        };
        let mut options = Vec::new();
        for r in candidates {
            let draft = self.edit_step(a, depth, |s| {
                s.insert("reached".into(), json!(r));
                s.entry("outcome").or_insert(json!([]));
            });
            let label = match r {
                None => format!("Resolve: failure, below Explore {}", t.first().copied().unwrap_or(0)),
                Some(0) if t.is_empty() => "Resolve: no test".to_owned(),
                Some(x) => format!("Resolve: Explore {x} reached"),
            };
            options.push(Opt::new(label, draft));
        }
        groups.push(Group::new("resolve", "Resolve the step with the lanterns (E.8)", legal(game, options)));
        groups
    }

    /// Items the player owns or gains in this exploration (for bonuses and penalties).
    fn items_held(&self, a: &Map<String, Value>) -> Vec<Item> {
        let pl = &self.g.players()[self.p];
        let gained: Vec<Item> = chain(a)
            .into_iter()
            .flat_map(|s| list(s, "outcome").unwrap_or_default())
            .filter_map(|i| match i.get("get").and_then(Value::as_str) {
                Some("good") => i.get("good").and_then(Value::as_str).and_then(Item::from_id),
                Some("potion") => Some(Item::Other(Token::Potion)),
                Some("cider") => Some(Item::Other(Token::Cider)),
                _ => None,
            })
            .collect();
        all_items().filter(|i| pl.owned(*i) > 0 || gained.contains(i)).collect()
    }

    /// The cards face up when a reward is taken: the rows as the turn began, without the cards
    /// earlier rewards of this exploration took, with the cards drawn into their gaps (H.31).
    fn reward_cards(&self, a: &Map<String, Value>) -> Vec<(String, Row)> {
        let mut cards = self.face_up();
        for item in chain(a).into_iter().flat_map(|s| list(s, "outcome").unwrap_or_default()) {
            let Some(taken) = item.get("card").and_then(Value::as_str).filter(|_| item["get"] == "card") else {
                continue;
            };
            let Some(at) = cards.iter().position(|(c, _)| c == taken) else { continue };
            let (_, row) = cards.remove(at);
            if let Some(refill) = item.get("refill").and_then(Value::as_str) {
                cards.insert(at, (refill.to_owned(), row));
            }
        }
        cards
    }

    /// Whether a party villager is still in the cave: not moved out by an effort, an injury or a
    /// loss written so far (E.6, E.10).
    fn still_in_cave(&self, a: &Map<String, Value>, v: &str) -> bool {
        !chain(a).iter().any(|s| {
            list(s, "efforts").unwrap_or_default().iter().any(|e| e == v)
                || list(s, "outcome").unwrap_or_default().iter().any(|i| match i["get"].as_str() {
                    Some("lose_villager") => i["villager"] == v,
                    Some("injure") => i["villagers"].as_array().is_some_and(|l| l.iter().any(|x| x == v)),
                    _ => false,
                })
        })
    }

    /// After a step is resolved: its outcome item by item (a reward, or a penalty after a
    /// failure, E.10), and after a success the continuation (E.9).
    fn outcome_groups(&self, a: &Map<String, Value>, depth: usize, party: &[String]) -> Vec<Group> {
        let game = self.game;
        let Some(s) = step_ref(a, depth) else { return Vec::new() };
        let success = !s.get("reached").is_some_and(Value::is_null);
        let outcome = list(s, "outcome").unwrap_or_default();
        let set_outcome = |items: Value| {
            self.edit_step(a, depth, |s| {
                s.insert("outcome".into(), items);
            })
        };
        let replace_last = |item: Value| {
            let mut items = outcome.clone();
            items.pop();
            items.push(item);
            set_outcome(Value::Array(items))
        };
        // A card reward from a row waits for the card drawn into the gap (explicit mode).
        if let Some(last) = outcome.last().and_then(Value::as_object) {
            if last.get("get").and_then(Value::as_str) == Some("card") && !last.contains_key("refill") {
                let card = last.get("card").and_then(Value::as_str).unwrap_or_default();
                let earlier = Self::written_refills(a);
                if let Some((deck, ids)) = self.refill_deck(card, &earlier) {
                    let options = allowed_draws(&deck, &ids)
                        .into_iter()
                        .map(|c| {
                            Opt::new(
                                format!("{} drawn into the row", name(&c)),
                                replace_last(with(last, "refill", json!(c))),
                            )
                        })
                        .collect();
                    return vec![Group::new(
                        "refill",
                        "The card drawn into the gap (D.5.7, G.1.1)",
                        legal(game, options),
                    )];
                }
            }
        }
        let add = |item: Value| set_outcome(plus(&outcome, item));
        let mut options: Vec<Opt> = Vec::new();
        if success {
            for n in 1..=MAX_AMOUNT {
                options.push(Opt::new(coins(u64::from(n)), add(json!({ "get": "coins", "n": n }))));
            }
            for good in Good::ALL {
                for n in 1..=MAX_TOKENS {
                    options.push(Opt::new(
                        format!("{n} {}", words(good.id())),
                        add(json!({ "get": "good", "good": good.id(), "n": n })),
                    ));
                }
            }
            for (kind, what) in [("potion", "potion"), ("cider", "cider")] {
                for n in 1..=MAX_TOKENS {
                    options.push(Opt::new(format!("{n} {what}"), add(json!({ "get": kind, "n": n }))));
                }
            }
            for n in 1..=MAX_REPUTATION {
                options.push(Opt::new(format!("+{n} reputation"), add(json!({ "get": "reputation", "n": n }))));
            }
            let costs = game.setup().board.train_costs;
            let occupied = || self.g.villager_row.iter().enumerate().filter_map(|(i, v)| v.as_ref().map(|v| (i, v)));
            let cheapest = occupied().map(|(i, _)| costs[i]).min();
            for (i, v) in occupied() {
                let item = json!({ "get": "villager", "villager": v, "from": "row" });
                options.push(Opt::new(format!("{} from the villager row", name(v)), add(item)).at(v, "gain"));
                if Some(costs[i]) == cheapest {
                    let item = json!({ "get": "villager", "villager": v, "from": "row", "which": "cheapest" });
                    options.push(
                        Opt::new(format!("{}, the cheapest of the villager row", name(v)), add(item)).at(v, "gain"),
                    );
                }
            }
            for v in &self.g.specials {
                let item = json!({ "get": "villager", "villager": v, "from": "special" });
                options.push(Opt::new(format!("{} (special villager)", name(v)), add(item)));
            }
            if self.explicit() {
                let mut drawn: Vec<String> =
                    a.get("cave").and_then(Value::as_str).map(str::to_owned).into_iter().collect();
                for st in chain(a) {
                    for i in list(st, "outcome").unwrap_or_default() {
                        if i["get"] == "cave" {
                            drawn.extend(i.get("card").and_then(Value::as_str).map(str::to_owned));
                        }
                    }
                }
                let caves: Vec<String> = game.setup().catalogue.caves.keys().map(str::to_owned).collect();
                for c in allowed_draws(&drawn_after(&self.g.decks.caves, &drawn), &caves) {
                    options.push(Opt::new(
                        format!("{}, an extra cave", name(&c)),
                        add(json!({ "get": "cave", "card": c })),
                    ));
                }
            } else {
                options.push(Opt::new("An extra cave", add(json!({ "get": "cave" }))));
            }
            let caves = self.free_caves();
            for (card, row) in self.reward_cards(a) {
                if row == Row::Outposts {
                    for cave in &caves {
                        let label = format!("{}, free, on {}", name(&card), name(cave));
                        options.push(
                            Opt::new(label, add(json!({ "get": "card", "card": card, "cave": cave })))
                                .at(&card, "gain"),
                        );
                    }
                } else {
                    options.push(
                        Opt::new(format!("{}, free", name(&card)), add(json!({ "get": "card", "card": card })))
                            .at(&card, "gain"),
                    );
                }
            }
        }
        for n in 1..=MAX_AMOUNT {
            options.push(Opt::new(format!("Pay {}", coins(u64::from(n))), add(json!({ "get": "pay", "n": n }))));
        }
        for n in 1..=MAX_AMOUNT {
            options
                .push(Opt::new(format!("Lose {}", coins(u64::from(n))), add(json!({ "get": "lose_coins", "n": n }))));
        }
        for n in 1..=MAX_REPUTATION {
            options.push(Opt::new(format!("-{n} reputation"), add(json!({ "get": "reputation", "n": -n }))));
        }
        for v in party.iter().filter(|v| self.still_in_cave(a, v)) {
            options.push(
                Opt::new(format!("{} injured", name(v)), add(json!({ "get": "injure", "villagers": [v] })))
                    .at(v, "injured"),
            );
        }
        for item in self.items_held(a) {
            for n in 1..=MAX_TOKENS {
                let label = format!("Lose {n} {}", names::item(item));
                options.push(Opt::new(label, add(json!({ "get": "lose_good", "item": item.id(), "n": n }))));
            }
        }
        for v in party {
            options.push(
                Opt::new(format!("{} lost", name(v)), add(json!({ "get": "lose_villager", "villager": v })))
                    .at(v, "lost"),
            );
        }
        options.push(Opt::new("Nothing", add(json!({ "get": "nothing" }))));
        options.push(Opt::new("Custom (type the book's text)", add(json!({ "get": "custom", "text": "" }))));
        let label = if success { "The reward (E.10)" } else { "The penalty (E.8, E.10)" };
        let mut groups = vec![Group::new("outcome", label, legal(game, options))];
        // More of the item just begun: injured villagers, a card's printed cost limit, a
        // payment with cider or potions.
        if let Some(last) = outcome.last().and_then(Value::as_object) {
            let mut more = Vec::new();
            match last.get("get").and_then(Value::as_str) {
                Some("injure") => {
                    let listed = ids(last, "villagers").unwrap_or_default();
                    for v in party.iter().filter(|v| !listed.contains(v) && self.still_in_cave(a, v)) {
                        let mut l = listed.clone();
                        l.push(v.clone());
                        more.push(
                            Opt::new(
                                format!("{} injured too", name(v)),
                                replace_last(with(last, "villagers", json!(l))),
                            )
                            .at(v, "injured"),
                        );
                    }
                }
                Some("card") if !last.contains_key("max_cost") => {
                    let card = last.get("card").and_then(Value::as_str).unwrap_or_default();
                    let cost = game.setup().catalogue.cards.get(card).and_then(|c| c.cost).unwrap_or(0);
                    for m in cost..=cost.max(MAX_AMOUNT) {
                        more.push(Opt::new(
                            format!("A card costing at most {m}"),
                            replace_last(with(last, "max_cost", json!(m))),
                        ));
                    }
                }
                Some("pay") if !last.contains_key("with") => {
                    let price = last.get("n").and_then(Value::as_u64).unwrap_or(0);
                    for pay in payment_variants(&self.g, self.p, price) {
                        more.push(Opt::new(
                            format!("Pay {}", names::payment(&pay)),
                            replace_last(with(last, "with", payment_json(&pay))),
                        ));
                    }
                }
                _ => {}
            }
            groups.push(Group::new("outcome_more", "More of the same item", legal(game, more)));
        }
        if success && !s.contains_key("then") {
            let options = (1..=MAX_PARAGRAPH)
                .map(|pg| {
                    let d = self.edit_step(a, depth, |s| {
                        s.insert("then".into(), json!({ "paragraph": pg }));
                    });
                    Opt::new(format!("Go on to paragraph {pg}"), d)
                })
                .collect();
            groups.push(Group::new("then", "The paragraph the reward sends the reader to (E.9)", legal(game, options)));
        }
        groups
    }
}

// ---------------------------------------------------------------------------------------------
// The entries outside a turn: store (D.9), round_end (F.4–F.5), declare (F.9, B.4)

fn store_stage(game: &Game, map: &Map<String, Value>) -> Result<Stage, String> {
    check_keys(map, &["type", "player", "goods"], "a store")?;
    let p = seat_of(game, map)?.ok_or("a store names the player whose goods are stored (`player`)")?;
    let goods = ids(map, "goods")?;
    let pl = &game.players()[p];
    let options = Good::ALL
        .iter()
        .filter(|g| pl.reserve[g.index()] > goods.iter().filter(|x| *x == g.id()).count() as u64)
        .map(|g| {
            let mut more = goods.clone();
            more.push(g.id().to_owned());
            Opt::new(format!("Store {}", words(g.id())), with(map, "goods", json!(more)))
        })
        .collect();
    let label = format!("Goods {} moves to the storage track, in order (D.9)", pl.name);
    Ok(Stage::new(Value::Object(map.clone()), vec![Group::new("goods", label, legal(game, options))]))
}

/// The game when the round ends: the omitted forced passes taken (LOG-FORMAT "Round end").
fn at_round_end(game: &Game) -> Result<Game, String> {
    let mut g = game.clone();
    forced_passes(&mut g, None);
    match g.phase() {
        Phase::RoundEnd => Ok(g),
        Phase::Actions => Err(format!("the round is not over: {} is to act (F.1)", g.seat_name(g.current))),
        Phase::Over => Err("round 7 ends the game without a round_end (F.2, H.3)".into()),
    }
}

/// F.4: the villagers drawn into the row after the slide (explicit mode).
fn draws_needed(g: &Game) -> usize {
    if g.seeded() {
        return 0;
    }
    g.villager_row.iter().filter(|s| s.is_none()).count().min(g.decks.villagers.len())
}

fn round_end_completions(game: &Game, map: &Map<String, Value>) -> Vec<Value> {
    let mut d = map.clone();
    if let Ok(g) = at_round_end(game) {
        let mut drawn = ids(map, "villagers").unwrap_or_default();
        let needed = draws_needed(&g);
        let regular = game.setup().catalogue.villager_ids(VillagerKind::Regular);
        let mut deck = drawn_after(&g.decks.villagers, &drawn);
        // At most 5 draws (the villager row), each a villager the deck model allows.
        while drawn.len() < needed {
            let Some(next) = allowed_draws(&deck, &regular).into_iter().next() else { break };
            let _ = deck.draw(Some(&next), |_| Ok(()));
            drawn.push(next);
        }
        if !drawn.is_empty() {
            d.insert("villagers".into(), json!(drawn));
        }
    }
    vec![Value::Object(d)]
}

fn round_end_stage(game: &Game, map: &Map<String, Value>) -> Result<Stage, String> {
    check_keys(map, &["type", "villagers", "rest"], "a round_end")?;
    let g = at_round_end(game)?;
    let draft = Value::Object(map.clone());
    let drawn = ids(map, "villagers")?;
    if drawn.len() < draws_needed(&g) {
        let regular = game.setup().catalogue.villager_ids(VillagerKind::Regular);
        let deck = drawn_after(&g.decks.villagers, &drawn);
        let slot = g.villager_row.iter().filter(|s| s.is_some()).count() + drawn.len() + 1;
        let options = allowed_draws(&deck, &regular)
            .into_iter()
            .map(|v| {
                let mut more = drawn.clone();
                more.push(v.clone());
                Opt::new(format!("{} drawn into slot {slot}", name(&v)), with(map, "villagers", json!(more)))
            })
            .collect();
        let group = Group::new("villagers", "The villagers drawn into the row (F.4, G.1.1)", legal(game, options));
        return Ok(Stage::new(draft, vec![group]));
    }
    let rests = list(map, "rest")?;
    let mut groups = Vec::new();
    let chosen = |q: usize| rests.iter().any(|r| r["player"] == q);
    let options = (0..g.players().len())
        .filter(|q| !chosen(*q))
        .map(|q| {
            let label = format!("{} rests as chosen (otherwise by the default, F.5.4)", player_name(game, q));
            Opt::new(label, with(map, "rest", plus(&rests, json!({ "player": q }))))
        })
        .collect();
    groups.push(Group::new("rest", "Rest choices (F.5)", legal(game, options)));
    if let Some(last) = rests.last().and_then(Value::as_object) {
        groups.extend(rest_more(game, &g, map, &rests, last));
    }
    Ok(Stage::new(draft, groups))
}

/// The choices of the rest just begun: a potion, a cider or a bed for a villager, or a trusted
/// bed from a custom card (F.5.2–F.5.3, B.4).
fn rest_more(
    game: &Game,
    g: &Game,
    map: &Map<String, Value>,
    rests: &[Value],
    last: &Map<String, Value>,
) -> Vec<Group> {
    let Some(q) = last
        .get("player")
        .and_then(Value::as_u64)
        .and_then(|q| usize::try_from(q).ok())
        .filter(|q| *q < g.players().len())
    else {
        return Vec::new();
    };
    let replace = |r: Value| {
        let mut all = rests.to_vec();
        all.pop();
        all.push(r);
        with(map, "rest", Value::Array(all))
    };
    let who = player_name(game, q);
    let mut options = Vec::new();
    let villagers: Vec<(String, VState)> = g.players()[q]
        .villagers
        .iter()
        .filter(|v| !g.traits.is_mechanical(&v.id))
        .map(|v| (v.id.clone(), v.state))
        .collect();
    for (key, what) in [("potions", "a potion"), ("cider", "a cider"), ("beds", "a bed")] {
        let listed = ids(last, key).unwrap_or_default();
        for (v, state) in villagers.iter().filter(|(v, _)| !listed.contains(v)) {
            let mut more = listed.clone();
            more.push(v.clone());
            let label = format!("{who}: {what} for {} ({})", name(v), state.id());
            options.push(Opt::new(label, replace(with(last, key, json!(more)))).at(v, key));
        }
    }
    let credits = list(last, "custom").unwrap_or_default();
    for card in g.players()[q].cards().filter(|c| custom_card(game, &c.id)).map(|c| c.id.clone()) {
        for (v, _) in &villagers {
            let label = format!("{who}: a bed from {} for {} (custom, trusted)", name(&card), name(v));
            let credit = json!({ "card": card, "beds": [v] });
            options.push(Opt::new(label, replace(with(last, "custom", plus(&credits, credit)))).at(v, "beds"));
        }
    }
    if let Some(credit) = credits.last().and_then(Value::as_object) {
        let beds = ids(credit, "beds").unwrap_or_default();
        for (v, _) in villagers.iter().filter(|(v, _)| !beds.contains(v)) {
            let mut more = beds.clone();
            more.push(v.clone());
            let mut all = credits.clone();
            all.pop();
            all.push(with(credit, "beds", json!(more)));
            let label = format!("{who}: one more bed from the same card for {}", name(v));
            options.push(Opt::new(label, replace(with(last, "custom", Value::Array(all)))).at(v, "beds"));
        }
    }
    vec![Group::new("rest_more", format!("{who}'s rest: potions, then cider, then beds (F.5)"), legal(game, options))]
}

fn declare_completions(game: &Game, map: &Map<String, Value>) -> Vec<Value> {
    let mut d = map.clone();
    d.entry("vp").or_insert(json!(0));
    if d.contains_key("card") {
        return vec![Value::Object(d)];
    }
    let Ok(Some(p)) = seat_of(game, map) else { return vec![Value::Object(d)] };
    game.players()[p].cards().filter(|c| custom_card(game, &c.id)).map(|c| with(&d, "card", json!(c.id))).collect()
}

fn declare_stage(game: &Game, map: &Map<String, Value>) -> Result<Stage, String> {
    check_keys(map, &["type", "player", "card", "vp"], "a declaration")?;
    let p = seat_of(game, map)?.ok_or("a declaration names the player who owns the card (`player`)")?;
    let mut over = game.clone();
    forced_passes(&mut over, None);
    if over.phase() != Phase::Over {
        return Err("points are declared only after round 7 (F.9)".into());
    }
    if !game.players()[p].cards().any(|c| custom_card(game, &c.id)) {
        return Err(format!("{} owns no card with a custom effect to declare points for (B.4)", player_name(game, p)));
    }
    let draft = Value::Object(map.clone());
    let Some(card) = map.get("card").and_then(Value::as_str) else {
        let options = game.players()[p]
            .cards()
            .filter(|c| custom_card(game, &c.id))
            .map(|c| Opt::new(name(&c.id), with(map, "card", json!(c.id))))
            .collect();
        return Ok(Stage::new(
            draft,
            vec![Group::new("card", "The card with a custom effect (B.4)", legal(game, options))],
        ));
    };
    if map.contains_key("vp") {
        return Ok(Stage::new(draft, Vec::new()));
    }
    let options = (0..=MAX_DECLARED_VP).map(|vp| Opt::new(format!("{vp} VP"), with(map, "vp", json!(vp)))).collect();
    let label = format!("The points {} gives (B.4, trusted)", name(card));
    Ok(Stage::new(draft, vec![Group::new("vp", label, legal(game, options))]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::build::find_in_rows;

    /// Most decisions one entry takes in the tests (the longest exploration of the fixtures takes
    /// about 25).
    const MAX_DEPTH: usize = 80;
    /// Most step computations the search for one entry may make.
    const BUDGET: usize = 300;

    fn fixture(name: &str) -> Value {
        let path = format!("{}/tests/fixtures/{name}.json", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// The game at the start of a log.
    fn start_of(log: &Value) -> Game {
        let bytes = serde_json::to_vec(log).unwrap_or_default();
        crate::replay::replay_until(&bytes, Some(0)).game.unwrap_or_else(|| panic!("the log's setup is valid"))
    }

    fn entries(log: &Value) -> Vec<Value> {
        log["entries"].as_array().cloned().unwrap_or_default()
    }

    /// Removes a member of an object.
    fn strip(v: &mut Value, key: &str) {
        if let Some(m) = v.as_object_mut() {
            m.remove(key);
        }
    }

    /// A payment of all coins is the default (D.5.3): left out.
    fn strip_coins_only(v: &mut Value, key: &str) {
        let coins_only = v.get(key).is_some_and(|p| p["cider"] == 0 && p["potions"] == 0);
        if coins_only {
            strip(v, key);
        }
    }

    fn each_mut(v: &mut Value, key: &str, f: impl Fn(&mut Value)) {
        if let Some(items) = v.get_mut(key).and_then(Value::as_array_mut) {
            items.iter_mut().for_each(f);
        }
    }

    /// An entry as the step form writes it: read and written back in the notation (canonical
    /// defaults), without the random results seeded mode derives (LOG-FORMAT "Randomness"),
    /// without `recruit` (the slot names it, D.6.2) and without payments of coins only.
    fn canonical(game: &Game, entry: &Value) -> Value {
        let typed = read_entry(entry).unwrap_or_else(|e| panic!("{entry}: {e}"));
        let mut v = serde_json::to_value(&typed).unwrap_or_default();
        let seeded = game.seeded();
        if seeded {
            strip(&mut v, "villagers");
            each_mut(&mut v, "cat_fails", |f| strip(f, "die"));
        }
        each_mut(&mut v, "free", |f| {
            strip_coins_only(f, "pay");
            if seeded {
                strip(f, "drawn");
            }
        });
        if let Some(a) = v.get_mut("action") {
            strip(a, "recruit");
            strip_coins_only(a, "pay");
            if seeded {
                for key in ["cat_rolls", "cave", "die", "rolls", "refill"] {
                    strip(a, key);
                }
                each_mut(a, "rerolls", |r| strip(r, "die"));
            }
            let mut step = a.get_mut("step");
            while let Some(s) = step {
                each_mut(s, "bonus", |b| strip_coins_only(b, "with"));
                each_mut(s, "outcome", |i| {
                    strip_coins_only(i, "with");
                    if seeded && i["get"] == "cave" {
                        strip(i, "card");
                    }
                    if seeded {
                        strip(i, "refill");
                    }
                });
                if seeded {
                    each_mut(s, "rerolls", |r| strip(r, "die"));
                }
                step = s.get_mut("then");
            }
        }
        v
    }

    /// Whether a draft may still become the target: each member it holds is the target's, each
    /// list a beginning of the target's (an empty `text` is one still to be typed).
    fn consistent(d: &Value, t: &Value) -> bool {
        match (d, t) {
            (Value::Object(a), Value::Object(b)) => a
                .iter()
                .all(|(k, v)| b.get(k).is_some_and(|w| (k == "text" && v == "" && w.is_string()) || consistent(v, w))),
            (Value::Array(a), Value::Array(b)) => a.len() <= b.len() && a.iter().zip(b).all(|(x, y)| consistent(x, y)),
            _ => d == t,
        }
    }

    /// The draft with the texts the recorder types (an empty `text` takes the target's).
    fn typed(d: &Value, t: &Value) -> Value {
        match (d, t) {
            (Value::Object(a), Value::Object(b)) => Value::Object(
                a.iter()
                    .map(|(k, v)| {
                        let w = b.get(k).unwrap_or(&Value::Null);
                        let v = if k == "text" && v == "" && w.is_string() { w.clone() } else { typed(v, w) };
                        (k.clone(), v)
                    })
                    .collect(),
            ),
            (Value::Array(a), Value::Array(b)) => {
                Value::Array(a.iter().enumerate().map(|(i, x)| typed(x, b.get(i).unwrap_or(&Value::Null))).collect())
            }
            _ => d.clone(),
        }
    }

    /// Follows the options consistent with `target` from `draft` (backing out of a choice that
    /// closed a list too early): the number of decisions that reach it.
    fn reach(game: &Game, draft: Value, target: &Value, depth: usize, budget: &mut usize) -> Option<usize> {
        if *budget == 0 || depth > MAX_DEPTH {
            return None;
        }
        *budget -= 1;
        let st = steps(game, &draft).ok()?;
        if st.entry.as_ref().is_some_and(|e| canonical(game, e) == *target) {
            return Some(depth);
        }
        for o in st.groups.iter().flat_map(|g| &g.options) {
            if consistent(&o.draft, target) {
                if let Some(n) = reach(game, typed(&o.draft, target), target, depth + 1, budget) {
                    return Some(n);
                }
            }
        }
        None
    }

    /// Every entry of a log is reached by clicking, from `{}` (a `store` from its own start).
    fn every_entry_is_reached(log: &Value, what: &str) -> usize {
        let mut game = start_of(log);
        let mut decisions = 0;
        for (i, raw) in entries(log).iter().enumerate() {
            let target = canonical(&game, raw);
            let start = match raw["type"].as_str() {
                Some("store") => json!({ "type": "store", "player": raw["player"] }),
                _ => json!({}),
            };
            let mut budget = BUDGET;
            let n = reach(&game, start, &target, 0, &mut budget)
                .unwrap_or_else(|| panic!("{what}, entry {i}: {raw} is not reached by the step form"));
            decisions += n;
            let entry = read_entry(raw).unwrap_or_else(|e| panic!("{what}, entry {i}: {e}"));
            game.apply(&entry).unwrap_or_else(|e| panic!("{what}, entry {i}: {}", e.message));
        }
        decisions
    }

    /// The key test (E, D, F.4–F.5, F.9; LOG-FORMAT "Entries"): at every entry of the golden games
    /// (explicit mode: every random result written, Cave Cats, a Mechanical Man, chained steps,
    /// rests, a refresh, sales, a declaration) the step form, started from `{}`, reaches the
    /// logged entry by clicking only options consistent with it.
    #[test]
    fn every_entry_of_the_golden_games_is_reached_step_by_step_in_explicit_mode() {
        for name in [
            "log-format-example",
            "golden-2p",
            "golden-3p",
            "golden-4p",
            "golden-2p-rich",
            "golden-3p-rich",
            "golden-4p-rich",
        ] {
            let log = fixture(name);
            assert!(every_entry_is_reached(&log, name) > 0);
        }
    }

    /// The key test in seeded mode (LOG-FORMAT "Randomness": derived, never asked): every entry
    /// of games the bots play, for 2, 3 and 4 players.
    #[test]
    fn every_entry_of_simulated_games_is_reached_step_by_step_in_seeded_mode() {
        for (seed, players) in [(1u64, 2u8), (2, 3), (3, 4)] {
            let log = crate::bots::simulate(seed, players).unwrap_or_else(|e| panic!("{e}"));
            every_entry_is_reached(&log, &format!("simulated game {seed} ({players} players)"));
        }
    }

    /// A seeded simulated game as a table would record it: explicit mode, the setup's rows and
    /// every card drawn and die rolled written into the entries (LOG-FORMAT "Randomness"). The
    /// bots' games draw caves, roll dice, refill rows and the villager row; nothing else random.
    fn explicit_twin(log: &Value) -> Value {
        let mut game = start_of(log);
        let mut setup = log["setup"].clone();
        setup["random"] = json!("explicit");
        strip(&mut setup, "seed");
        let row = |r: &[Option<String>]| json!(r.iter().flatten().collect::<Vec<_>>());
        setup["key_houses"] = row(&game.key_row);
        setup["star_houses"] = row(&game.star_row);
        setup["house_row"] = row(&game.house_row);
        setup["outpost_row"] = row(&game.outpost_row);
        setup["villager_row"] = row(&game.villager_row);
        let mut out = Vec::new();
        for raw in entries(log) {
            let mut e = raw.clone();
            let entry = read_entry(&raw).unwrap_or_else(|err| panic!("{err}"));
            let built = raw["action"]["card"].as_str().and_then(|c| find_in_rows(&game, c));
            let occupied = game.villager_row.iter().filter(|s| s.is_some()).count();
            if raw["action"]["do"] == "explore" {
                let party = raw["action"]["party"].as_array().map_or(0, Vec::len);
                let dice = seeded_dice(&game, 0, 1 + party);
                let a = &mut e["action"];
                a["cave"] = json!(game.decks.caves.peek_known());
                a["die"] = json!(dice[0]);
                let rolls: Vec<Value> = raw["action"]["party"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .zip(&dice[1..])
                    .map(|(v, d)| json!({ "villager": v, "die": d }))
                    .collect();
                a["rolls"] = json!(rolls);
            }
            game.apply(&entry).unwrap_or_else(|err| panic!("{}", err.message));
            if let Some((r, slot)) = built.filter(|_| raw["action"]["do"] == "build") {
                let drawn = match r {
                    Row::Houses => game.house_row[slot].clone(),
                    Row::Outposts => game.outpost_row[slot].clone(),
                    Row::Keys | Row::Stars => None,
                };
                if let Some(card) = drawn {
                    e["action"]["refill"] = json!(card);
                }
            }
            if raw["type"] == "round_end" {
                let drawn: Vec<&String> = game.villager_row.iter().skip(occupied).flatten().collect();
                if !drawn.is_empty() {
                    e["villagers"] = json!(drawn);
                }
            }
            out.push(e);
        }
        json!({ "format": crate::replay::FORMAT, "setup": setup, "entries": out })
    }

    /// The key test on explicit twins of simulated games (many explorations with last efforts,
    /// builds with refills, trained villagers, round-end draws), for 3 and 4 players.
    #[test]
    fn every_entry_of_simulated_games_written_explicitly_is_reached_step_by_step() {
        for (seed, players) in [(5u64, 3u8), (6, 4)] {
            let log = crate::bots::simulate(seed, players).unwrap_or_else(|e| panic!("{e}"));
            let twin = explicit_twin(&log);
            let bytes = serde_json::to_vec(&twin).unwrap_or_default();
            let r = crate::replay::replay(&bytes);
            assert_eq!(r.status, crate::Status::Complete, "{:?}", r.error);
            every_entry_is_reached(&twin, &format!("explicit twin of simulated game {seed} ({players} players)"));
        }
    }

    /// A table game in explicit mode with what the other logs lack: rerolls (E.5), a custom
    /// bonus and outcome (E.7, E.10), card and cave rewards with their draws (H.31), a special
    /// villager, a chained step that pays, a refresh paid with cider (H.5), a custom credit and a
    /// custom discount (B.4), a Cave Cat failure (D.10), a bonus paid with cider, a sale, a
    /// villager from the row, a lost villager, an outpost reward on an own cave (H.28), a custom
    /// bed (F.5), a store and a pass with an offer.
    fn crafted() -> Value {
        let mut setup = fixture("golden-2p-rich")["setup"].clone();
        setup["players"] = json!([{ "name": "Ada" }, { "name": "Bo" }]);
        setup["key_houses"] = json!(["key_09", "key_01", "key_02", "key_03"]);
        setup["house_row"] = json!(["house_13", "house_14", "house_15", "house_11"]);
        let entries = json!([
            { "type": "turn", "player": 0, "action": { "do": "build", "villager": "start_hammer", "card": "house_13", "refill": "house_01" } },
            { "type": "turn", "player": 1, "action": { "do": "labor", "villagers": ["start_quill"] } },
            { "type": "turn", "player": 0, "action": { "do": "explore", "party": ["start_explorer", "start_quill"],
                "cave": "cave_01", "die": 1,
                "rolls": [{ "villager": "start_explorer", "die": 1 }, { "villager": "start_quill", "die": 2 }],
                "rerolls": [{ "villager": "start_quill", "die": 5 }],
                "step": { "paragraph": 1, "option": 2, "thresholds": [3, 6],
                    "bonus": [{ "kind": "custom", "n": 1, "text": "a torch" }], "reached": 3,
                    "outcome": [{ "get": "card", "card": "house_01", "refill": "house_02" }, { "get": "cave", "card": "cave_02" },
                        { "get": "coins", "n": 2 }, { "get": "villager", "villager": "cave_cat_1", "from": "special" }],
                    "then": { "paragraph": 120, "option": 1, "thresholds": [], "reached": 0,
                        "outcome": [{ "get": "custom", "text": "a map" }, { "get": "pay", "n": 1 }] } } } },
            { "type": "turn", "player": 1, "action": { "do": "build", "villager": "start_hammer", "card": "house_14", "refill": "house_03" } },
            { "type": "turn", "player": 1,
                "free": [{ "do": "refresh", "row": "outposts", "pay": { "coins": 0, "cider": 1, "potions": 0 },
                    "drawn": ["outpost_05", "outpost_06", "outpost_07", "outpost_08"] }],
                "action": { "do": "labor", "villagers": ["start_explorer"] } },
            { "type": "round_end", "rest": [{ "player": 0, "beds": ["start_hammer", "start_quill", "cave_cat_1"] }] },
            { "type": "turn", "player": 1, "action": { "do": "build", "villager": "start_hammer", "card": "house_15", "refill": "house_04" } },
            { "type": "turn", "player": 0, "action": { "do": "build", "villager": "start_hammer", "card": "key_09" } },
            { "type": "turn", "player": 1, "action": { "do": "train", "villager": "start_quill", "slot": 0, "recruit": "villager_01" } },
            { "type": "turn", "player": 0, "custom": [{ "card": "key_09", "coins": 3, "goods": ["fish"] }],
                "cat_fails": [{ "villager": "cave_cat_1", "die": 1 }],
                "action": { "do": "train", "villager": "start_quill", "slot": 1, "custom": [{ "card": "key_09", "discount": 1 }] } },
            { "type": "turn", "player": 1, "action": { "do": "labor", "villagers": ["start_explorer"] } },
            { "type": "round_end", "villagers": ["villager_06", "villager_07"],
                "rest": [{ "player": 0, "beds": ["start_hammer", "start_quill", "start_explorer"],
                    "custom": [{ "card": "key_09", "beds": ["villager_02"] }] }] },
            { "type": "turn", "player": 0, "free": [{ "do": "offer", "item": "fish" }],
                "action": { "do": "labor", "villagers": ["start_hammer"] } },
            { "type": "turn", "player": 1, "free": [{ "do": "buy", "from": 0, "price": 3 }],
                "action": { "do": "explore", "party": ["start_explorer", "start_quill"], "cave": "cave_03", "die": 2,
                    "rolls": [{ "villager": "start_explorer", "die": 2 }, { "villager": "start_quill", "die": 1 }],
                    "step": { "paragraph": 82, "option": 1, "thresholds": [2],
                        "bonus": [{ "kind": "pay", "coins": 2, "n": 1, "with": { "coins": 1, "cider": 1, "potions": 0 } }],
                        "efforts": ["start_quill"], "reached": 2,
                        "outcome": [{ "get": "villager", "villager": "villager_03", "from": "row", "which": "cheapest" },
                            { "get": "potion", "n": 2 }],
                        "then": { "paragraph": 130, "option": 2, "thresholds": [5], "reached": null,
                            "outcome": [{ "get": "lose_villager", "villager": "start_explorer" }] } } } },
            { "type": "turn", "player": 0, "action": { "do": "explore", "party": ["start_quill", "villager_02"], "cave": "cave_04", "die": 2,
                "rolls": [{ "villager": "start_quill", "die": 3 }, { "villager": "villager_02", "die": 4 }],
                "step": { "paragraph": 4, "option": 1, "thresholds": [3], "reached": 3,
                    "outcome": [{ "get": "card", "card": "outpost_05", "max_cost": 1, "cave": "cave_01", "refill": "outpost_09" }] } } },
            { "type": "store", "player": 1, "goods": ["fish"] },
            { "type": "pass", "player": 1, "free": [{ "do": "offer", "item": "potion" }] }
        ]);
        json!({ "format": crate::replay::FORMAT, "setup": setup, "entries": entries })
    }

    /// The key test on a crafted table game: the rarer parts of turns, explorations and rests
    /// are reached step by step too (E.5, E.7, E.9, E.10, D.8, D.10, B.4, F.5, H.28, H.31).
    #[test]
    fn every_entry_of_a_table_game_with_rare_choices_is_reached_step_by_step() {
        let log = crafted();
        let bytes = serde_json::to_vec(&log).unwrap_or_default();
        let r = crate::replay::replay(&bytes);
        assert!(r.error.is_none(), "{:?}", r.error);
        assert_eq!(r.entries_applied, entries(&log).len());
        every_entry_is_reached(&log, "the crafted game");
    }

    /// Positions of the golden and simulated games: the start, and every fifth entry.
    fn positions() -> Vec<(String, Game)> {
        let mut out = Vec::new();
        let logs = [
            ("golden-3p-rich".to_owned(), fixture("golden-3p-rich")),
            ("golden-2p-rich".to_owned(), fixture("golden-2p-rich")),
            ("simulated 4p".to_owned(), crate::bots::simulate(7, 4).unwrap_or_else(|e| panic!("{e}"))),
        ];
        for (what, log) in logs {
            let mut game = start_of(&log);
            for (i, raw) in entries(&log).iter().enumerate() {
                if i % 5 == 0 {
                    out.push((format!("{what} before entry {i}"), game.clone()));
                }
                let entry = read_entry(raw).unwrap_or_else(|e| panic!("{e}"));
                game.apply(&entry).unwrap_or_else(|e| panic!("{}", e.message));
            }
            out.push((format!("{what} at the end"), game));
        }
        out
    }

    /// Every option offered at the first two steps from `{}` can be taken: its draft is not
    /// refused, and it is a legal entry or leads on to more choices (no dead end) (D.2, F.1,
    /// F.9).
    #[test]
    fn every_option_offered_at_the_first_steps_can_be_taken() {
        for (what, game) in positions() {
            let st = steps(&game, &json!({})).unwrap_or_else(|e| panic!("{what}: {{}} refused: {e}"));
            for o in st.groups.iter().flat_map(|g| &g.options) {
                let next = steps(&game, &o.draft).unwrap_or_else(|e| panic!("{what}: option {} refused: {e}", o.label));
                assert!(next.entry.is_some() || !next.groups.is_empty(), "{what}: option {} leads nowhere", o.label);
                if let Some(e) = &next.entry {
                    assert!(applies(&game, e).is_ok(), "{what}: option {} does not apply", o.label);
                }
                for o2 in next.groups.iter().flat_map(|g| &g.options) {
                    let deeper = steps(&game, &o2.draft)
                        .unwrap_or_else(|e| panic!("{what}: option {} then {} refused: {e}", o.label, o2.label));
                    let label = format!("{what}: option {} then {}", o.label, o2.label);
                    assert!(deeper.entry.is_some() || !deeper.groups.is_empty(), "{label} leads nowhere");
                    if let Some(e) = &deeper.entry {
                        assert!(applies(&game, e).is_ok(), "{label} does not apply");
                    }
                }
            }
        }
    }

    /// Malformed or illegal drafts are refused with a message for people, never a panic (D.2.1,
    /// D.2.5, LOG-FORMAT "Entries").
    #[test]
    fn malformed_drafts_are_refused_with_a_message() {
        let game = start_of(&fixture("golden-2p-rich"));
        let refused = [
            (json!(5), "JSON object"),
            (json!("turn"), "JSON object"),
            (json!([1]), "JSON object"),
            (json!({ "type": "dance" }), "not a kind of entry"),
            (json!({ "type": 3 }), "kind of entry"),
            (json!({ "player": 7 }), "names no seat"),
            (json!({ "player": "Ada" }), "seat number"),
            (json!({ "player": 1 }), "is to act"),
            (json!({ "player": 0, "colour": "red" }), "`colour` is not a member"),
            (json!({ "type": "pass", "player": 0, "action": { "do": "labor" } }), "not a member of a pass"),
            (
                json!({ "type": "turn", "player": 0, "action": { "do": "fly" } }),
                "explore, harvest, build, train or labor",
            ),
            (json!({ "type": "turn", "player": 0, "action": 5 }), "object"),
            (
                json!({ "type": "turn", "player": 0, "action": { "do": "labor", "villagers": ["nobody"] } }),
                "not a ready villager",
            ),
            (json!({ "type": "turn", "player": 0, "action": { "do": "labor", "villagers": "start_hammer" } }), "list"),
            (json!({ "type": "turn", "player": 0, "action": { "do": "build", "villager": "start_quill" } }), "hammer"),
            (
                json!({ "type": "turn", "player": 0, "action": { "do": "explore", "party": ["start_quill"], "step": 5 } }),
                "step",
            ),
            (json!({ "type": "turn", "player": 0, "free": [{ "do": "offer", "item": "ore" }] }), "no ore"),
            (json!({ "type": "turn", "player": 0, "free": [7] }), "free action"),
            (json!({ "type": "store" }), "names the player"),
            (json!({ "type": "store", "player": 0, "goods": ["gold"] }), "gold"),
            (json!({ "type": "round_end" }), "not over"),
            (json!({ "type": "declare", "player": 0 }), "after round 7"),
        ];
        for (draft, words) in refused {
            let why = steps(&game, &draft).err().unwrap_or_else(|| panic!("{draft} is not refused"));
            assert!(why.contains(words), "{draft}: {why}");
            assert!(!why.is_empty() && !why.contains("Value") && !why.contains("Object {"), "{draft}: {why}");
        }
    }

    /// Choices are labelled in the players' words (players, villagers and cards by name), and a
    /// face-up card names itself in `cells` by its id and a villager by its village's row id, as
    /// the view's rows do (D.5.2).
    #[test]
    fn choices_name_players_villagers_and_cards_and_point_at_them() {
        let log = fixture("golden-2p");
        let game = start_of(&log);
        let st = steps(&game, &json!({})).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(st.draft, json!({ "player": 0 }), "the player to act is set in the draft");
        let build = json!({ "player": 0, "type": "turn", "action": { "do": "build" } });
        let st = steps(&game, &build).unwrap_or_else(|e| panic!("{e}"));
        // One villager has a hammer: the builder is chosen at once.
        assert_eq!(st.draft["action"]["villager"], "start_hammer");
        let cards = &st.groups[0];
        assert_eq!(cards.id, "card");
        assert!(!cards.options.is_empty());
        for o in &cards.options {
            let id = o.draft["action"]["card"].as_str().unwrap_or_default();
            assert_eq!(o.cells, vec![ChoiceCell { at: id.to_owned(), what: "build".to_owned() }]);
            assert!(o.label.starts_with(&name(id)), "{}", o.label);
            assert!(o.detail.is_some());
        }
        let labor = json!({ "player": 0, "type": "turn", "action": { "do": "labor" } });
        let st = steps(&game, &labor).unwrap_or_else(|e| panic!("{e}"));
        let villagers = &st.groups[0].options;
        assert_eq!(villagers.len(), 3);
        // A villager of the player's village is that village's row in the view.
        assert!(villagers.iter().all(|o| Some(o.cells[0].at.as_str())
            == o.draft["action"]["villagers"][0].as_str().map(|v| format!("seat-1/{v}")).as_deref()));
        assert!(villagers.iter().any(|o| o.label == "Start quill"));
    }

    /// In seeded mode the cave, the paragraph die and the lantern dice are derived, never asked
    /// (LOG-FORMAT "Randomness"); the party closes with the paragraph the seed's cave leads to.
    #[test]
    fn seeded_explorations_ask_for_no_random_result() {
        let log = crate::bots::simulate(3, 2).unwrap_or_else(|e| panic!("{e}"));
        let game = start_of(&log);
        let draft = json!({ "player": 0, "type": "turn", "action": { "do": "explore", "party": ["start_quill", "start_explorer"] } });
        let st = steps(&game, &draft).unwrap_or_else(|e| panic!("{e}"));
        let go = st.groups.iter().find(|g| g.id == "go").unwrap_or_else(|| panic!("no closing choice"));
        let next = &go.options[0].draft;
        assert!(next["action"].get("cave").is_none() && next["action"].get("die").is_none());
        let st = steps(&game, next).unwrap_or_else(|e| panic!("{e}"));
        assert!(st.groups.iter().all(|g| !["cave", "die", "roll"].contains(&g.id.as_str())));
        assert_eq!(st.groups[0].id, "option");
    }

    /// Actions that cannot be taken are listed with the reason, in the rules' words (E.1, D.5.1).
    #[test]
    fn unavailable_actions_say_why() {
        let log = fixture("golden-2p");
        let mut game = start_of(&log);
        for raw in entries(&log).iter().take(2) {
            game.apply(&read_entry(raw).unwrap_or_else(|e| panic!("{e}"))).unwrap_or_else(|e| panic!("{}", e.message));
        }
        // Player 0 built with the hammer: the quill and the explorer are ready.
        let st = steps(&game, &json!({})).unwrap_or_else(|e| panic!("{e}"));
        let why = |label: &str| st.unavailable.iter().find(|u| u.label == label).map(|u| u.reason.clone());
        assert_eq!(why("Build").as_deref(), Some("no ready villager has a hammer (D.5.1)"));
        assert!(why("Labor").is_none() && why("Explore").is_none());
    }

    /// A store (D.9.1) may be started for any player at any time, one good at a time.
    #[test]
    fn a_store_is_built_one_good_at_a_time_for_any_player() {
        let log = fixture("golden-2p");
        let mut game = start_of(&log);
        for raw in entries(&log).iter().take(4) {
            game.apply(&read_entry(raw).unwrap_or_else(|e| panic!("{e}"))).unwrap_or_else(|e| panic!("{}", e.message));
        }
        let st = steps(&game, &json!({ "type": "store", "player": 1 })).unwrap_or_else(|e| panic!("{e}"));
        // Bo's reserve holds one fruit: the only choice is taken at once, and it is the entry.
        let stored = json!({ "type": "store", "player": 1, "goods": ["fruit"] });
        assert_eq!(st.draft, stored);
        assert_eq!(st.entry, Some(stored));
        assert!(st.groups.is_empty());
    }

    /// A group longer than [`MAX_OPTIONS`] is cut, and the steps say they are incomplete.
    #[test]
    fn a_group_is_cut_at_the_documented_limit() {
        let options = (0..MAX_OPTIONS + 5).map(|i| Opt::new(i.to_string(), json!({}))).collect();
        let st = output(Stage::new(json!({}), vec![Group::new("x", "x", options)]), None);
        assert!(!st.complete);
        assert_eq!(st.groups[0].options.len(), MAX_OPTIONS);
    }
}
