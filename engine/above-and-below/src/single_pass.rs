//! The single pass over a log that every valid, well-written log takes: the whole document read
//! straight into its typed form — the catalogue and every entry by [`crate::tag_first`]'s
//! reading, in the same scan as the envelope — then the entries applied.
//!
//! It only ever answers a success. Anything else — a part that does not read strictly (a
//! repeated member, a tag further on, an unknown field, a catalogue that is not an object), an
//! invalid setup, an illegal entry — makes it step aside, and the caller replays the log the
//! member-by-member way ([`crate::replay::run`]), which words every error as before. A log
//! it reads is read identically by that way too: both read every part with the same typed
//! readings, only from one scan instead of one per part, and both apply the entries, locate
//! their warnings and finish the log with the same functions, so a replay never depends on
//! which path a log took.

use std::borrow::Cow;

use chronicle_game::cursor::Cursor;
use serde::Deserialize;

use crate::board::{Board, BoardSetting};
use crate::error::RuleResult;
use crate::notation::{BoardNotation, CatalogueNotation, Claimed, Entry, Meta, SetupNotation};
use crate::replay::{begin, finish, play_at, Replay, FORMAT, MAX_ENTRIES, MAX_LOG_BYTES};
use crate::tag_first::{tag_first, TagFirst};

/// A whole `above-and-below-log/1` document read strictly in one scan.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Strict<'a> {
    #[serde(borrow)]
    format: Cow<'a, str>,
    meta: Option<Meta>,
    setup: SetupNotation<TagFirst<CatalogueNotation>, BoardRead>,
    #[serde(deserialize_with = "tag_first")]
    entries: Vec<Entry>,
    claimed: Option<Claimed>,
}

/// `setup.board` as the single pass reads it. The strict cursor reads an object straight into
/// its notation, as `Board::from_setup` reads the object's JSON value (a tree built only to be
/// read again cost a twentieth of a parse); anything else, and serde's reading, keep the value.
#[derive(Debug)]
enum BoardRead {
    Object(BoardNotation),
    Value(serde_json::Value),
}

impl<'de> Deserialize<'de> for BoardRead {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<BoardRead, D::Error> {
        serde_json::Value::deserialize(d).map(BoardRead::Value)
    }
}

impl BoardSetting for BoardRead {
    fn board(&self) -> RuleResult<Board> {
        match self {
            BoardRead::Object(n) => Board::from_notation(n.clone()),
            BoardRead::Value(v) => v.board(),
        }
    }
}

/// `setup.board` by the strict cursor: an object by [`crate::plain::board`], anything else
/// (`null`, a name) by [`BoardRead`]'s `Deserialize`.
fn plain_board(c: &mut Cursor) -> Option<Option<BoardRead>> {
    if c.peek() == Some(b'{') {
        return Some(Some(BoardRead::Object(crate::plain::board(c)?)));
    }
    c.deserialized()
}

/// The log read in one scan, or `None` when the usual reading must judge it: by the strict
/// cursor when the log is plain JSON (every writer's), else by serde's tag-first reading (a
/// string with an escape, say).
fn strict(input: &[u8]) -> Option<Strict<'_>> {
    if input.len() > MAX_LOG_BYTES {
        return None;
    }
    // UTF-8 checked once for the whole log, not string by string as the scan meets them.
    let text = std::str::from_utf8(input).ok()?;
    let log: Strict = plain(text).or_else(|| serde_json::from_str(text).ok())?;
    (log.format == FORMAT && log.entries.len() <= MAX_ENTRIES).then_some(log)
}

/// Room for a whole game's entries from the start: a simulated game of 2 to 4 players logs
/// 48 to 120 of them (240 bytes each), a list that grown by doubling was copied five times.
const ENTRIES: usize = 128;

/// Stores a member's value, refusing a repeated member ([`Strict`] and [`SetupNotation`] refuse
/// one).
fn set<T>(slot: &mut Option<T>, value: T) -> Option<()> {
    slot.replace(value).is_none().then_some(())
}

/// [`Strict`] read by the strict cursor: the catalogue and the entries (nearly all of a log's
/// bytes) by [`crate::plain`], the rest by its own `Deserialize`. Members as [`Strict`]'s:
/// `format`, `setup` and `entries` required, no other, none repeated.
fn plain(text: &str) -> Option<Strict<'_>> {
    let mut c = Cursor::new(text);
    let (mut format, mut meta, mut setup, mut entries, mut claimed) = (None, None, None, None, None);
    c.object(|c, name| match name {
        "format" => set(&mut format, Cow::Borrowed(c.str()?)),
        "meta" => set(&mut meta, c.deserialized()?),
        "setup" => set(&mut setup, plain_setup(c)?),
        "entries" => set(&mut entries, crate::plain::sized(ENTRIES, crate::plain::entry)(c)?),
        "claimed" => set(&mut claimed, c.deserialized()?),
        _ => None,
    })?;
    c.end()?;
    Some(Strict { format: format?, meta: meta.flatten(), setup: setup?, entries: entries?, claimed: claimed.flatten() })
}

/// [`SetupNotation`] with its catalogue object read by [`crate::plain`] (as `TagFirst` reads
/// it), its other members by their own `Deserialize`.
fn plain_setup(c: &mut Cursor) -> Option<SetupNotation<TagFirst<CatalogueNotation>, BoardRead>> {
    let (mut players, mut catalogue, mut board, mut random, mut seed) = (None, None, None, None, None);
    let (mut key_houses, mut star_houses, mut house_row, mut outpost_row, mut villager_row) =
        (None, None, None, None, None);
    c.object(|c, name| match name {
        "players" => set(&mut players, c.deserialized()?),
        "catalogue" => set(&mut catalogue, crate::plain::catalogue(c)?),
        "board" => set(&mut board, plain_board(c)?),
        "random" => set(&mut random, c.deserialized()?),
        "seed" => set(&mut seed, c.deserialized()?),
        "key_houses" => set(&mut key_houses, c.deserialized()?),
        "star_houses" => set(&mut star_houses, c.deserialized()?),
        "house_row" => set(&mut house_row, c.deserialized()?),
        "outpost_row" => set(&mut outpost_row, c.deserialized()?),
        "villager_row" => set(&mut villager_row, c.deserialized()?),
        _ => None,
    })?;
    Some(SetupNotation {
        players: players?,
        catalogue: TagFirst(catalogue?),
        board: board.flatten(),
        random: random.flatten(),
        seed: seed.flatten(),
        key_houses: key_houses.flatten(),
        star_houses: star_houses.flatten(),
        house_row: house_row.flatten(),
        outpost_row: outpost_row.flatten(),
        villager_row: villager_row.flatten(),
    })
}

/// The number of entries of a log whose notation reads in one scan (`parse_only`'s answer).
pub(crate) fn parse_only(input: &[u8]) -> Option<usize> {
    strict(input).map(|log| log.entries.len())
}

/// The replay of a log that reads in one scan, whose setup is valid and whose every entry is
/// legal.
pub(crate) fn replay(input: &[u8]) -> Option<Replay> {
    let log = strict(input)?;
    let setup = crate::setup::validate_read(log.setup).ok()?;
    let mut game = begin(setup, log.claimed.as_ref()).ok()?;
    for (i, entry) in log.entries.iter().enumerate() {
        play_at(&mut game, i, entry).ok()?;
    }
    let claimed = log.claimed.map(|c| c.scores);
    Some(finish(game, log.meta.unwrap_or_default(), claimed, true, log.entries.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::{parse_members, run};

    /// The usual reading's answers for a log, and the single pass's, side by side: the whole
    /// replay and its trust report (as text: a replay has no equality) and `parse_only`.
    fn agree(log: &[u8]) {
        let usual = run(log, None);
        let fast = replay(log).expect("the single pass reads a well-written valid log");
        assert_eq!(format!("{fast:?}"), format!("{usual:?}"));
        assert_eq!(crate::trust::report(&fast), crate::trust::report(&usual));
        assert_eq!(parse_only(log).map(Ok), Some(parse_members(log)));
    }

    fn fixtures() -> Vec<(String, Vec<u8>)> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
        let mut logs: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
            .expect("fixtures")
            .map(|f| f.expect("fixture").path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .map(|p| (p.display().to_string(), std::fs::read(&p).expect("fixture")))
            .collect();
        logs.sort();
        logs
    }

    fn simulated(seed: u64, players: u8) -> Vec<u8> {
        serde_json::to_vec(&crate::bots::simulate(seed, players).expect("simulate")).expect("serialise")
    }

    /// Every valid fixture and simulated games of 2–4 players take the single pass, with the
    /// usual reading's replay; the invalid fixtures step aside.
    #[test]
    fn the_single_pass_replays_as_the_usual_reading() {
        let mut valid = 0;
        for (name, log) in fixtures() {
            if run(&log, None).error.is_none() {
                agree(&log);
                valid += 1;
            } else {
                assert!(replay(&log).is_none(), "{name}");
            }
        }
        assert!(valid >= 7, "{valid} valid fixtures");
        for players in 2..=4 {
            for seed in 0..3 {
                agree(&simulated(seed, players));
            }
        }
    }

    /// A board's reading as its notation, the way `Board::from_setup` reads a value.
    fn board_notation(board: &BoardRead) -> Result<BoardNotation, String> {
        match board {
            BoardRead::Object(n) => Ok(n.clone()),
            BoardRead::Value(v) => BoardNotation::deserialize(v).map_err(|e| e.to_string()),
        }
    }

    /// A log's reading as text (a setup has no equality).
    fn described(log: &Strict) -> String {
        let s = &log.setup;
        format!(
            "{:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
            log.format,
            log.meta,
            s.players,
            s.catalogue.0,
            s.board.as_ref().map(board_notation),
            s.random,
            s.seed,
            s.key_houses,
            s.star_houses,
            s.house_row,
            s.outpost_row,
            s.villager_row,
            log.entries,
            log.claimed
        )
    }

    /// The strict cursor's reading of a log, when it reads one, is serde's (tag-first) reading:
    /// on every fixture it reads and every simulated log (all of which it reads), and on edits
    /// of a log's envelope and setup, token by token and member by member.
    #[test]
    fn the_plain_reading_of_a_log_is_serdes() {
        let same = |text: &str| match plain(text) {
            Some(log) => {
                let serde: Strict = serde_json::from_str(text).expect("serde reads what the cursor reads");
                assert_eq!(described(&log), described(&serde), "{text}");
                true
            }
            None => false,
        };
        let mut read = 0;
        for (_, log) in fixtures() {
            read += usize::from(std::str::from_utf8(&log).is_ok_and(same));
        }
        assert!(read >= 7, "{read} fixtures read");
        for players in 2..=4 {
            for seed in 0..3 {
                assert!(same(&String::from_utf8(simulated(seed, players)).expect("utf-8")));
            }
        }
        // A small log (two entries, a catalogue of a few parts), every member of every part.
        let mut small: serde_json::Value = serde_json::from_slice(&simulated(2, 3)).expect("json");
        small["entries"] = serde_json::Value::Array(small["entries"].as_array().expect("entries")[..2].to_vec());
        let catalogue = &mut small["setup"]["catalogue"];
        for list in ["cards", "villagers", "caves"] {
            catalogue[list] = serde_json::Value::Array(catalogue[list].as_array().expect("list")[..1].to_vec());
        }
        small["meta"] = serde_json::json!({"tournament": "test"});
        small["setup"]["board"] = serde_json::json!({"source": "test", "storage": {"base_income": 4,
            "spaces": [[1, 4], [2, 6]]}, "reputation": {"track": [[-2, -2], [0, 0]]}, "train_costs": [2, 3]});
        assert!(same(&small.to_string()));
        let (mut read, mut refused) = (0, 0);
        for edit in crate::plain::tests::edits(&small.to_string()) {
            if same(&edit) {
                read += 1;
            } else {
                refused += 1;
            }
        }
        assert!(read > 200 && refused > 400, "edits read {read}, refused {refused}");
    }

    /// A log the single pass cannot read strictly steps aside, and the replay is the usual one.
    #[test]
    fn refused_logs_fall_back_to_the_usual_reading() {
        let log = String::from_utf8(simulated(1, 3)).expect("utf-8");
        let edits = [
            // an entry's tag further on
            (r#"{"type":"pass","player":"#, r#"{"player":0,"type":"pass","x":"#),
            // an action's tag further on
            (r#"{"do":"#, r#"{"cat_rolls":[],"do":"#),
            // an effect's tag further on, and a unit effect with a member (the usual reading
            // ignores it)
            (r#"{"effect":"beds","n":"#, r#"{"n":1,"effect":"beds","n":"#),
            (r#"{"effect":"#, r#"{"effect":"train_to_ready","n":1},{"effect":"#),
            // an escaped key, a repeated member
            (r#"{"type":"pass""#, r#"{"typ\u0065":"pass""#),
            (r#""setup":"#, r#""meta":null,"meta":null,"setup":"#),
        ];
        for (from, to) in edits {
            assert!(log.contains(from), "{from}");
            let edited = log.replacen(from, to, 1);
            assert!(replay(edited.as_bytes()).is_none(), "{to}");
            assert!(parse_only(edited.as_bytes()).is_none(), "{to}");
            let usual = run(edited.as_bytes(), None);
            assert_eq!(format!("{:?}", crate::replay::replay(edited.as_bytes())), format!("{usual:?}"), "{to}");
        }
    }
}
