//! The walk of a log ([`crate::AboveAndBelow`]'s `walk`): the position after the setup and
//! after each legal entry, from one replay. The core builds the ledger and the replay viewer's
//! timeline from it; a position's counts are what the ledger compares for each player — coins,
//! goods in the reserve and in storage, potions, cider, reputation, villagers, houses and
//! outposts, caves, and the provisional score (`points`).

use std::collections::BTreeMap;

use chronicle_game::{BoardView, Position, Visit, Walk};

use crate::game::{Game, Player};
use crate::ids::Good;
use crate::replay::{parse_document, player_of, start, step};
use crate::rules::scoring::score;
use crate::sentence::Before;

/// One player's counted items by id: the ledger's items, whose ids the ledger has always used
/// (a change of them would change every stored ledger).
fn counts(p: &Player, points: i64) -> BTreeMap<String, i64> {
    let mut c = BTreeMap::new();
    let n = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
    c.insert("coins".to_owned(), n(p.coins));
    for g in Good::ALL {
        c.insert(g.id().to_owned(), n(p.reserve[g.index()]));
        c.insert(format!("stored_{}", g.id()), n(p.stored(g)));
    }
    c.insert("potions".into(), n(p.potions));
    c.insert("cider".into(), n(p.cider));
    c.insert("reputation".into(), i64::from(p.reputation));
    c.insert("villagers".into(), p.villagers.len() as i64);
    c.insert("houses_outposts".into(), p.houses_and_outposts() as i64);
    c.insert("caves".into(), p.caves.len() as i64);
    c.insert("points".into(), points);
    c
}

/// A game is a position of its walk: its counts for the ledger, its board view for pages.
impl Position for Game {
    fn counts(&self) -> Vec<BTreeMap<String, i64>> {
        let s = score(self);
        self.players().iter().zip(s).map(|(p, s)| counts(p, s.total)).collect()
    }

    fn view(&self) -> BoardView {
        crate::view::board_view(self)
    }

    /// The entry as a sentence ([`crate::sentence`]), named by this position's catalogue; an
    /// entry the notation cannot read is said in words ([`chronicle_game::view::entry_words`]).
    fn describe(&self, entry: &str) -> String {
        crate::sentence::describe(self, None, entry)
    }
}

/// A stop of the walk: the game after an entry, with what the table showed before it
/// ([`Before`]) and the entry's text. It counts as the game does; its view adds the
/// exploration the entry made, step by step, and its sentence derives the dice a seeded log
/// leaves out, both of which need the position before the entry.
struct Stop<'a> {
    game: &'a Game,
    before: &'a Before,
    text: &'a str,
}

impl Position for Stop<'_> {
    fn counts(&self) -> Vec<BTreeMap<String, i64>> {
        self.game.counts()
    }

    fn view(&self) -> BoardView {
        crate::view::board_view_after(self.game, self.before, self.text)
    }

    fn describe(&self, entry: &str) -> String {
        crate::sentence::describe(self.game, Some(self.before), entry)
    }
}

/// Replays a log's legal entries once, without end-of-log defaults, showing `visit` the game
/// after the setup and after each legal entry (no stop without a valid setup, none after the
/// first illegal entry). An entry's round is the one it was played in, read before it is
/// applied: the entry that ends a round belongs to that round.
pub fn walk(input: &[u8], visit: Walk<'_>) {
    let Ok(doc) = parse_document(input) else { return };
    let Ok(mut game) = start(&doc) else { return };
    visit(Visit::setup(u16::from(game.round()), &game));
    for (i, value) in doc.entries.iter().enumerate() {
        let round = u16::from(game.round());
        let before = Before::of(&game);
        let refused = step(&mut game, value).is_err();
        let player = player_of(value, game.players().len());
        let stop = Stop { game: &game, before: &before, text: value.get() };
        if refused {
            visit(Visit::refused(i, round, player, value.get(), &stop));
            break;
        }
        visit(Visit::applied(i, round, player, value.get(), &stop));
    }
}
