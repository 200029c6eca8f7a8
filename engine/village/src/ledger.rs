//! The walk of a log (`GameEngine::walk`): every legal entry played once, showing each
//! position, with what a Village position counts for each player — cubes by colour, goods,
//! grain, coins, time, customers served, members per kind of place, and the score the pad
//! would show if the game were scored then (`points`). Core compares the counts into the
//! ledger and collects the views into the timeline; nothing here is a rule.

use std::collections::BTreeMap;

use chronicle_game::{BoardView, Position, Visit, Walk};

use crate::game::{Game, Loc};
use crate::ids::{Cube, Good};
use crate::replay::{parse_document, player_hint, start, tree_error};
use crate::rules::{self, scoring};

/// The counted items of player `p`, by id: the ledger's items (their ids are part of the
/// ledger's contract, so they stay as they are).
fn counts(game: &Game, p: usize) -> BTreeMap<String, i64> {
    let pl = &game.players[p];
    let mut c = BTreeMap::new();
    for cube in Cube::INFLUENCE {
        c.insert(format!("cube_{cube}"), i64::from(pl.cubes.get(cube)));
    }
    for g in Good::ALL {
        c.insert(g.id().to_owned(), i64::from(pl.good(*g)));
    }
    c.insert("grain".into(), i64::from(pl.grain));
    c.insert("coin".into(), i64::from(pl.coins));
    c.insert("time".into(), i64::try_from(pl.time).unwrap_or(i64::MAX));
    c.insert("customers".into(), pl.customers.len() as i64);
    let count = |f: fn(Loc) -> bool| pl.members.iter().filter(|m| f(m.loc)).count() as i64;
    c.insert("members_alive".into(), count(|l| l.visible() || l == Loc::Bag));
    c.insert("members_dead".into(), count(|l| matches!(l, Loc::Chronicle(_) | Loc::Grave | Loc::Removed)));
    c.insert("cities".into(), pl.discs.len() as i64);
    c.insert("points".into(), scoring::provisional(game, p).total);
    c
}

/// A position of the walk: the game as its entries left it. Its view is of the same game with
/// the steps that need no entry run (the end of the turn, the next turn, Carla's reaction):
/// where the next entry is decided, as `GameEngine::open_state` and `state_at` show it. Those
/// steps change no player's counts, so counts and view describe one position; the counts are
/// still read before them, as the ledger always was.
///
/// `before` is each player's time before the entry (empty after the setup and at a refused
/// entry): the log never writes time costs, so the entry's sentence reads its cost from the
/// difference ([`crate::sentence::describe`]).
struct Shown<'a> {
    game: &'a Game,
    before: Vec<u64>,
}

impl Position for Shown<'_> {
    fn counts(&self) -> Vec<BTreeMap<String, i64>> {
        (0..self.game.player_count()).map(|p| counts(self.game, p)).collect()
    }

    fn view(&self) -> BoardView {
        let mut settled = self.game.clone();
        // A step that fails leaves the position as played, as `replay_until` shows it then.
        match rules::run_automatic(&mut settled) {
            Ok(()) => crate::view::board_view(&settled),
            Err(_) => crate::view::board_view(self.game),
        }
    }

    /// The entry as a sentence in the players' words ([`crate::sentence`]); an entry the
    /// notation cannot read is said in words (`chronicle_game::view::entry_words`).
    fn describe(&self, entry: &str) -> String {
        crate::sentence::describe(self.game, entry, &self.before)
    }
}

/// Walks every legal entry of a Village log once (see `GameEngine::walk`): the setup's
/// position, then each entry's with the round it was played in (read before playing it, as an
/// entry that ends a round belongs to that round).
pub fn walk(input: &[u8], visit: Walk<'_>) {
    // A log a JSON tree cannot read has no legal entry (see `replay::tree_error`).
    if tree_error(input).is_some() {
        return;
    }
    let Ok(doc) = parse_document(input) else { return };
    let Ok(mut game) = start(&doc) else { return };
    visit(Visit::setup(round(&game), &Shown { game: &game, before: Vec::new() }));
    for (i, raw) in doc.entries.iter().enumerate() {
        let round = round(&game);
        let before = crate::sentence::times(&game);
        if game.play_raw(raw).is_err() {
            // A refused entry may have been applied part-way: its cost is not said.
            visit(Visit::refused(i, round, player_hint(raw), raw.get(), &Shown { game: &game, before: Vec::new() }));
            break;
        }
        visit(Visit::applied(i, round, player_hint(raw), raw.get(), &Shown { game: &game, before }));
    }
}

/// The game's round as the ledger and the timeline number it.
fn round(game: &Game) -> u16 {
    u16::try_from(game.round).unwrap_or(u16::MAX)
}
