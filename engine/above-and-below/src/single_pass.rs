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

use serde::Deserialize;

use crate::notation::{CatalogueNotation, Claimed, Entry, Meta, SetupNotation};
use crate::replay::{begin, finish, play_at, Replay, FORMAT, MAX_ENTRIES, MAX_LOG_BYTES};
use crate::tag_first::{tag_first, TagFirst};

/// A whole `above-and-below-log/1` document read strictly in one scan.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Strict<'a> {
    #[serde(borrow)]
    format: Cow<'a, str>,
    meta: Option<Meta>,
    setup: SetupNotation<TagFirst<CatalogueNotation>>,
    #[serde(deserialize_with = "tag_first")]
    entries: Vec<Entry>,
    claimed: Option<Claimed>,
}

/// The log read in one scan, or `None` when the usual reading must judge it.
fn strict(input: &[u8]) -> Option<Strict<'_>> {
    if input.len() > MAX_LOG_BYTES {
        return None;
    }
    // UTF-8 checked once for the whole log, not string by string as the scan meets them.
    let text = std::str::from_utf8(input).ok()?;
    let log: Strict = serde_json::from_str(text).ok()?;
    (log.format == FORMAT && log.entries.len() <= MAX_ENTRIES).then_some(log)
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
