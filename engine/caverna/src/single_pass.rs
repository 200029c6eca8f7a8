//! The single pass over a log that every valid, well-written log takes: the whole document read
//! straight into its typed form (each entry by [`crate::tag_first`]'s reading, in the same scan
//! as the envelope), then the entries applied.
//!
//! It only ever answers a success. Anything else — a part that does not read strictly (a
//! repeated member, a tag further on, an unknown field), an invalid setup, an illegal entry —
//! makes it step aside, and the caller replays the log the member-by-member way
//! ([`crate::replay::replay_until`]), which words every error as before. A log it reads is read
//! identically by that way too: both read every part with the same typed readings, only from
//! one scan instead of three, so verdicts never depend on which path a log took.

use std::borrow::Cow;

use serde::Deserialize;

use crate::game::Game;
use crate::notation::{Claimed, Entry, Meta, SetupNotation};
use crate::replay::{finish, results, start, Replay, Status, FORMAT, MAX_ENTRIES, MAX_LOG_BYTES};
use crate::tag_first::TagFirst;

/// A whole `caverna-log/1` document read strictly in one scan.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Strict<'a> {
    #[serde(borrow)]
    format: Cow<'a, str>,
    meta: Option<Meta>,
    setup: SetupNotation,
    entries: Vec<TagFirst>,
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

/// The replay of a log that reads in one scan and whose every entry is legal.
pub(crate) fn replay(input: &[u8]) -> Option<Replay> {
    let log = strict(input)?;
    let mut game: Game = start(&log.setup, log.claimed.as_ref()).ok()?;
    for TagFirst(entry) in &log.entries {
        play(&mut game, entry)?;
    }
    finish(&mut game);
    let complete = game.is_over();
    let (scores, winners, claimed_mismatches) =
        if complete { results(&game, log.claimed.as_ref()) } else { (None, vec![], vec![]) };
    Some(Replay {
        status: if complete { Status::Complete } else { Status::Incomplete },
        error: None,
        meta: log.meta.unwrap_or_default(),
        game: Some(game),
        scores,
        winners,
        claimed_mismatches,
        claimed: log.claimed.map(|c| c.scores),
        entries_applied: log.entries.len(),
    })
}

fn play(game: &mut Game, entry: &Entry) -> Option<()> {
    game.play_entry(entry).ok()
}
