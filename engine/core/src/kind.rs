//! The games Chronicle knows and what every service needs to know about each of them.

use std::ops::RangeInclusive;

/// A game Chronicle verifies, chosen by the `format` of a log. Closed: code that must know
/// every game matches on it exhaustively, so a new game cannot be forgotten anywhere.
///
/// `Toy` exists only with the `toy` feature: a minimal game used by tests to show that storage,
/// verification, tournaments and score rows work for a second game without its code (see
/// the `chronicle-toy` crate). Release builds do not have it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameKind {
    Caverna,
    Village,
    AboveAndBelow,
    #[cfg(feature = "toy")]
    Toy,
}

/// One row of a game's score pad.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoreRowSpec {
    /// Stable id (snake case), as in the game's rules reference and the stored score rows.
    pub id: &'static str,
    /// What the row is called on the score pad, for people.
    pub label: &'static str,
}

/// One per-player count a game's verdict reports (`PlayerVerdict::counters`), for the
/// statistics by count: how often a player did something, read from the final state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CounterSpec {
    /// Stable id (snake case), as stored in each player's score sheet (`game_players.sheet`) and shown by the API.
    pub id: &'static str,
    /// What the count is, for people.
    pub label: &'static str,
    /// The question a player asks of it, for the questions pages ("Does visiting more cities
    /// help?", "When should I first explore?").
    pub asked: &'static str,
    /// The value is the round in which something first happened, 0 when it never did (a timing
    /// dimension: grouped by round, asked about as "when").
    pub round: bool,
}

/// What a game offers beyond what every game has (a verdict, states, legal entries, a ledger,
/// simulated games), as data: services and pages ask these rather than naming games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capabilities {
    /// Its logs declare component data the engine takes on trust, and a replay reports which
    /// (`GameEngine::trust_report`).
    pub trust_report: bool,
    /// Its entries can be built step by step (`GameEngine::entry_steps`); otherwise they are
    /// chosen whole from the legal entries.
    pub step_form: bool,
    /// Its statistics are outcomes by the counters of its verdicts (`GameSpec::counters`), on
    /// the outcome statistics page; a game without them has statistics of its own.
    pub outcome_stats: bool,
    /// The web recorder records it.
    pub recorder: bool,
    /// Its positions (`Position::view`) include a board of cells with printed coordinates (a
    /// player's home board), which entries name spaces by. Every game's engine draws its
    /// positions; this says whether they have such a grid.
    pub board_view: bool,
    /// Its engine has a search bot (`strong`, with a budget of playouts per decision) and
    /// analyses a log move by move with it (`GameEngine::analysis_moves`, `GameEngine::analyse_move`).
    pub analysis: bool,
}

/// What services need to know about a game without its rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSpec {
    pub kind: GameKind,
    /// Stable id: stored in `games.game`, used in URLs and the API.
    pub id: &'static str,
    /// The log format (`format` field of a log).
    pub format: &'static str,
    /// The game's name, for people.
    pub name: &'static str,
    /// How many players a game may have.
    pub min_players: u8,
    pub max_players: u8,
    /// The score pad's rows in printed order, without the total.
    pub score_rows: &'static [ScoreRowSpec],
    /// The variants a setup may choose (stored in `games.variant`); the first is the default.
    pub variants: &'static [&'static str],
    /// The counters every complete player verdict of this game carries, in this order (empty
    /// for Caverna, whose statistics read its richer facts).
    pub counters: &'static [CounterSpec],
    /// The bots its simulator can seat, by id; the first is `chronicle simulate`'s default.
    /// Empty when the engine seats its own bots, with no choice.
    pub bots: &'static [&'static str],
    /// The strategy bots a member of a simulation pool can be ([`crate::pool`]); every game
    /// also has a `random` bot. Empty for a game whose simulator takes no pool.
    pub pool_bots: &'static [&'static str],
    /// What the game offers beyond what every game has.
    pub capabilities: Capabilities,
}

impl GameSpec {
    pub fn players(&self) -> RangeInclusive<u8> {
        self.min_players..=self.max_players
    }

    /// The label of a counter of this game (`None` for an id it does not have).
    pub fn counter_label(&self, id: &str) -> Option<&'static str> {
        self.counters.iter().find(|c| c.id == id).map(|c| c.label)
    }

    /// The label of a score row of this game (`None` for an id it does not have).
    pub fn row_label(&self, id: &str) -> Option<&'static str> {
        self.score_rows.iter().find(|r| r.id == id).map(|r| r.label)
    }
}

const fn counter(id: &'static str, label: &'static str, asked: &'static str) -> CounterSpec {
    CounterSpec { id, label, asked, round: false }
}

/// A counter whose value is the round something first happened (0: never).
const fn round_counter(id: &'static str, label: &'static str, asked: &'static str) -> CounterSpec {
    CounterSpec { id, label, asked, round: true }
}

const fn row(id: &'static str, label: &'static str) -> ScoreRowSpec {
    ScoreRowSpec { id, label }
}

/// Caverna: the score pad of the rules reference, G.1.
pub const CAVERNA: GameSpec = GameSpec {
    kind: GameKind::Caverna,
    id: "caverna",
    format: "caverna-log/1",
    name: "Caverna",
    min_players: 1,
    max_players: 7,
    score_rows: &[
        row("farm_animals_and_dogs", "Farm animals and dogs"),
        row("missing_farm_animal_types", "Missing farm animal types"),
        row("grain", "Grain"),
        row("vegetables", "Vegetables"),
        row("rubies", "Rubies"),
        row("dwarfs", "Dwarfs"),
        row("unused_spaces", "Unused spaces"),
        row("tiles_pastures_mines", "Furnishing tiles, pastures and mines"),
        row("bonus_parlors_storages_chambers", "Bonus points for parlors, storages and chambers"),
        row("gold_and_begging", "Gold and begging markers"),
    ],
    variants: &["full", "introductory"],
    counters: &[],
    bots: &["random", "weapons", "peaceful", "mixed", "strong"],
    pool_bots: &["weapons", "peaceful"],
    capabilities: Capabilities {
        trust_report: false,
        step_form: true,
        outcome_stats: false,
        recorder: true,
        board_view: true,
        analysis: true,
    },
};

/// Village: the final scoring rows of its rules reference, E.3 (engine: `chronicle-village`).
pub const VILLAGE: GameSpec = GameSpec {
    kind: GameKind::Village,
    id: "village",
    format: "village-log/1",
    name: "Village",
    min_players: 1,
    max_players: 5,
    score_rows: &[
        row("track_travel", "Prestige from travel during play"),
        row("track_council", "Prestige from council privileges during play"),
        row("track_mass", "Prestige from masses"),
        row("travel", "Travel"),
        row("church", "Church"),
        row("customers", "Customers"),
        row("chronicle", "Village chronicle"),
        row("council", "Council chamber"),
        row("coins", "Coins"),
    ],
    variants: &[],
    counters: &[
        counter("cities_visited", "Cities visited (travel discs placed)", "Does visiting more cities help?"),
        counter("crafts_held", "Craft buildings with a member at the end", "Does holding more craft buildings help?"),
        counter("customers_served", "Customers served", "Does serving more customers help?"),
        counter(
            "chronicle_members",
            "Members in the village chronicle",
            "Does putting more of the family in the village chronicle help?",
        ),
        counter("church_members", "Members in the church", "Does putting more of the family in the church help?"),
        round_counter("first_travel_round", "Round of the first travel disc placed", "When should I start travelling?"),
    ],
    bots: &[],
    pool_bots: &["greedy"],
    capabilities: Capabilities {
        trust_report: false,
        step_form: true,
        outcome_stats: true,
        recorder: true,
        board_view: false,
        analysis: false,
    },
};

/// Above and Below: the score rows of its rules reference, F.10 (engine:
/// `chronicle-above-and-below`).
pub const ABOVE_AND_BELOW: GameSpec = GameSpec {
    kind: GameKind::AboveAndBelow,
    id: "above-and-below",
    format: "above-and-below-log/1",
    name: "Above and Below",
    min_players: 2,
    max_players: 4,
    score_rows: &[
        row("storage", "Goods in the storage track"),
        row("houses_outposts", "Houses and outposts"),
        row("reputation_rank", "Reputation rank bonus"),
        row("reputation_track", "Reputation track"),
        row("card_vp_fixed", "Fixed card points"),
        row("card_vp_variable", "Variable card points"),
        row("card_vp_custom", "Declared card points"),
    ],
    variants: &[],
    counters: &[
        counter("houses_built", "Houses gained (not the starting house)", "Does building more houses help?"),
        counter("outposts_built", "Outposts built on caves", "Does building more outposts help?"),
        counter("reputation", "Reputation track position", "Does a higher reputation help?"),
        counter("explorations", "Explorations", "Does exploring more help?"),
        counter("villagers_trained", "Villagers trained", "Does training more villagers help?"),
        counter("villagers", "Villagers at the end (three to start)", "Does ending with more villagers help?"),
        round_counter("first_exploration_round", "Round of the first exploration", "When should I first explore?"),
    ],
    bots: &[],
    pool_bots: &["strategy"],
    capabilities: Capabilities {
        trust_report: true,
        step_form: true,
        outcome_stats: true,
        recorder: true,
        board_view: false,
        analysis: false,
    },
};

/// The test-only toy game (feature `toy`): see `chronicle-toy`.
#[cfg(feature = "toy")]
pub const TOY: GameSpec = GameSpec {
    kind: GameKind::Toy,
    id: "toy",
    format: "toy-log/1",
    name: "Toy (test-only)",
    min_players: 2,
    max_players: 3,
    score_rows: &[row("steps", "Steps taken"), row("bonus", "Bonus")],
    variants: &["plain", "doubled"],
    counters: &[],
    bots: &[],
    pool_bots: &[],
    capabilities: Capabilities {
        trust_report: false,
        step_form: false,
        outcome_stats: false,
        recorder: false,
        board_view: false,
        analysis: false,
    },
};

impl GameKind {
    /// Every game, in a fixed order.
    #[cfg(not(feature = "toy"))]
    pub const ALL: &'static [GameKind] = &[GameKind::Caverna, GameKind::Village, GameKind::AboveAndBelow];
    /// Every game, in a fixed order.
    #[cfg(feature = "toy")]
    pub const ALL: &'static [GameKind] =
        &[GameKind::Caverna, GameKind::Village, GameKind::AboveAndBelow, GameKind::Toy];

    pub const fn spec(self) -> &'static GameSpec {
        match self {
            GameKind::Caverna => &CAVERNA,
            GameKind::Village => &VILLAGE,
            GameKind::AboveAndBelow => &ABOVE_AND_BELOW,
            #[cfg(feature = "toy")]
            GameKind::Toy => &TOY,
        }
    }

    /// The stable id (`caverna`, `village`, `above-and-below`).
    pub const fn id(self) -> &'static str {
        self.spec().id
    }

    pub const fn format(self) -> &'static str {
        self.spec().format
    }

    pub fn from_id(id: &str) -> Option<GameKind> {
        GameKind::ALL.iter().copied().find(|k| k.id() == id)
    }

    /// The game a log of this `format` records.
    pub fn from_format(format: &str) -> Option<GameKind> {
        GameKind::ALL.iter().copied().find(|k| k.format() == format)
    }
}

impl std::fmt::Display for GameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_formats_round_trip() {
        for &k in GameKind::ALL {
            assert_eq!(GameKind::from_id(k.id()), Some(k));
            assert_eq!(GameKind::from_format(k.format()), Some(k));
            assert_eq!(k.spec().kind, k);
        }
        assert_eq!(GameKind::from_format("caverna-log/2"), None);
        assert_eq!(GameKind::from_id("Caverna"), None);
    }

    #[test]
    fn specs_are_well_formed() {
        for &k in GameKind::ALL {
            let s = k.spec();
            assert!(s.min_players >= 1 && s.min_players <= s.max_players, "{k}");
            assert!(!s.score_rows.is_empty(), "{k}");
            let mut ids: Vec<_> = s.score_rows.iter().map(|r| r.id).collect();
            ids.sort_unstable();
            ids.dedup();
            assert_eq!(ids.len(), s.score_rows.len(), "{k}: score row ids are unique");
            assert!(!ids.contains(&"total"), "{k}: the total is not a row");
            let mut counters: Vec<_> = s.counters.iter().map(|c| c.id).collect();
            counters.sort_unstable();
            counters.dedup();
            assert_eq!(counters.len(), s.counters.len(), "{k}: counter ids are unique");
            assert!(!s.capabilities.outcome_stats || !s.counters.is_empty(), "{k}: outcome statistics need counters");
        }
    }
}
