//! A game's legal entries walked once ([`GameEngine::walk`](crate::GameEngine::walk)): the
//! ledger by snapshots (what each entry changed, compared count by count) and the timeline the
//! replay viewer steps through (every position's view and ledger line from that one replay).
//! Each engine says how to walk its log and what a position counts and looks like; the
//! comparing and collecting is written here once.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::engine::{LedgerChange, LedgerLine};
use crate::view::BoardView;

/// A position an engine shows while walking its log.
pub trait Position {
    /// The counted items of each player, by id (the ledger's items), in seat order.
    fn counts(&self) -> Vec<BTreeMap<String, i64>>;
    /// The position as pages draw it.
    fn view(&self) -> BoardView;
    /// An entry (its text in the log) in words, with the players named as in this position:
    /// what the game's pages and messages say instead of the entry's JSON. The default says
    /// the entry's members in words ([`crate::view::entry_words`]).
    fn describe(&self, entry: &str) -> String {
        let names: Vec<String> = self.view().players.into_iter().map(|p| p.name).collect();
        crate::view::entry_words(entry, &names)
    }
}

/// One stop of a walk: the position after the setup, or after one legal entry.
pub struct Visit<'a> {
    /// `None` after the setup; `Some(i)` after legal entry `i`.
    pub entry: Option<usize>,
    /// The round entry `entry` was played in (the setup's round after the setup).
    pub round: u16,
    /// The player whose entry it is, when the entry names one.
    pub player: Option<usize>,
    /// The entry's text in the log (`None` after the setup).
    pub text: Option<&'a str>,
    /// False for the stop at a refused entry, where the walk ends: `position` then only names
    /// the players (a rule may have refused the entry part-way through applying it).
    pub applied: bool,
    pub position: &'a dyn Position,
    /// The position after the game's automatic steps that the entry set off before its own
    /// effects (a harvest window it closed, the round it ended), when there were any: the
    /// ledger shows them as a row of their own.
    pub automatic: Option<&'a dyn Position>,
}

impl<'a> Visit<'a> {
    /// The stop after the setup.
    pub fn setup(round: u16, position: &'a dyn Position) -> Visit<'a> {
        Visit { entry: None, round, player: None, text: None, applied: true, position, automatic: None }
    }

    /// The stop after legal entry `entry`, played in `round` (see [`Visit::round`]).
    pub fn applied(
        entry: usize,
        round: u16,
        player: Option<usize>,
        text: &'a str,
        position: &'a dyn Position,
    ) -> Visit<'a> {
        Visit { entry: Some(entry), round, player, text: Some(text), applied: true, position, automatic: None }
    }

    /// This stop with the position the entry's automatic steps left (see [`Visit::automatic`]).
    pub fn after_automatic(self, automatic: Option<&'a dyn Position>) -> Visit<'a> {
        Visit { automatic, ..self }
    }

    /// The stop at entry `entry`, refused (see [`Visit::applied`]).
    pub fn refused(
        entry: usize,
        round: u16,
        player: Option<usize>,
        text: &'a str,
        position: &'a dyn Position,
    ) -> Visit<'a> {
        Visit { applied: false, ..Visit::applied(entry, round, player, text, position) }
    }
}

/// What an engine's walk is: replay a log, calling the visitor at every stop.
pub type Walk<'a> = &'a mut dyn FnMut(Visit<'_>);

/// Every position of a game from one replay, for the replay viewer.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Timeline {
    /// The position after the setup.
    pub setup: BoardView,
    /// After each legal entry, in order: what it changed and the position it left.
    pub steps: Vec<TimelineStep>,
    /// The entry the walk stopped at, refused, in words.
    pub refused: Option<(usize, String)>,
}

/// One legal entry in a [`Timeline`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TimelineStep {
    /// What the entry changed (its ledger line).
    #[serde(skip)]
    pub line: LedgerLine,
    /// The entry in words.
    pub sentence: String,
    /// What the game's automatic steps changed before the entry's own effects (a harvest it
    /// closed, the round it ended); empty when there were none. `line` holds both.
    #[serde(skip)]
    pub automatic: Vec<LedgerChange>,
    /// What the entry itself changed: `line` without `automatic`.
    #[serde(skip)]
    pub own: Vec<LedgerChange>,
    /// Every player's counts after it, by id (the running totals of the score sheet).
    pub totals: Vec<BTreeMap<String, i64>>,
    /// The position after it.
    pub view: BoardView,
}

impl Timeline {
    /// The view after entry `at` (after the setup when `None`); `None` past the legal entries.
    pub fn view(&self, at: Option<usize>) -> Option<&BoardView> {
        match at {
            None => Some(&self.setup),
            Some(n) => self.steps.get(n).map(|s| &s.view),
        }
    }

    /// The ledger lines, in order.
    pub fn ledger(&self) -> Vec<LedgerLine> {
        self.steps.iter().map(|s| s.line.clone()).collect()
    }
}

/// The changes from `before` to `after`, player by player in the order of items; an item
/// missing before counts as 0 there.
fn changes(before: &[BTreeMap<String, i64>], after: &[BTreeMap<String, i64>]) -> Vec<LedgerChange> {
    after
        .iter()
        .zip(before)
        .enumerate()
        .flat_map(|(player, (now, was))| {
            now.iter().filter_map(move |(item, n)| {
                let delta = n - was.get(item).copied().unwrap_or(0);
                (delta != 0).then(|| LedgerChange { player, item: item.clone(), delta })
            })
        })
        .collect()
}

/// The ledger of a walk: each legal entry's changes, compared with the position before it.
pub fn ledger(walk: impl FnOnce(Walk<'_>)) -> Vec<LedgerLine> {
    let mut lines = Vec::new();
    let mut before: Vec<BTreeMap<String, i64>> = Vec::new();
    walk(&mut |v: Visit<'_>| {
        if !v.applied {
            return;
        }
        let after = v.position.counts();
        if let Some(entry) = v.entry {
            lines.push(LedgerLine { entry, round: v.round, player: v.player, changes: changes(&before, &after) });
        }
        before = after;
    });
    lines
}

/// The view of a walk's last stop: the position after the last legal entry (`None` when the
/// walk made no stop). Each stop's view is drawn and the last one kept, since a walk does not
/// know which stop is its last; a view costs a few microseconds.
pub fn last_view(walk: impl FnOnce(Walk<'_>)) -> Option<BoardView> {
    let mut last = None;
    walk(&mut |v: Visit<'_>| {
        if v.applied {
            last = Some(v.position.view());
        }
    });
    last
}

/// The legal entries of a walk in words and the view of its last stop (`None` when the walk
/// made no stop): what a recorder shows after each click, without keeping every position's view
/// as a [`Timeline`] does.
pub fn trail(walk: impl FnOnce(Walk<'_>)) -> Option<(Vec<String>, BoardView)> {
    let mut said = Vec::new();
    let mut last = None;
    walk(&mut |v: Visit<'_>| {
        if v.applied {
            if let Some(text) = v.text {
                said.push(v.position.describe(text));
            }
            last = Some(v.position.view());
        }
    });
    last.map(|view| (said, view))
}

/// The timeline of a walk; `None` when the walk made no stop (no valid setup).
pub fn timeline(walk: impl FnOnce(Walk<'_>)) -> Option<Timeline> {
    let mut setup = None;
    let mut steps = Vec::new();
    let mut refused = None;
    let mut before: Vec<BTreeMap<String, i64>> = Vec::new();
    walk(&mut |v: Visit<'_>| {
        let sentence = v.text.map(|t| v.position.describe(t)).unwrap_or_default();
        match (v.entry, v.applied) {
            (Some(entry), false) => refused = Some((entry, sentence)),
            (None, _) => {
                before = v.position.counts();
                setup = Some(v.position.view());
            }
            (Some(entry), true) => {
                let after = v.position.counts();
                let line = LedgerLine { entry, round: v.round, player: v.player, changes: changes(&before, &after) };
                let (automatic, own) = match v.automatic.map(|a| a.counts()) {
                    Some(between) => (changes(&before, &between), changes(&between, &after)),
                    None => (Vec::new(), line.changes.clone()),
                };
                steps.push(TimelineStep {
                    line,
                    sentence,
                    automatic,
                    own,
                    totals: after.clone(),
                    view: v.position.view(),
                });
                before = after;
            }
        }
    });
    setup.map(|setup| Timeline { setup, steps, refused })
}
