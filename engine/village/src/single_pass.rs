//! The single pass over a log that every valid, well-written log takes: the whole document read
//! straight into its typed form in one scan (each entry by [`crate::tag_first`]'s reading), and,
//! for a replay, each entry applied as soon as it is read, so that no list of entries is built.
//!
//! It only ever answers a success. Anything else — a part that does not read strictly (a
//! repeated member, a tag further on, an unknown field, entries before the setup), an invalid
//! setup, an illegal entry, a failure at the end of the log — makes it step aside, and the
//! caller replays the log the member-by-member way ([`crate::replay::replay_until`]), which
//! words every error as before. A log it reads is read identically by that way too: both read
//! every part with the same typed readings, only from one scan instead of one per part, so
//! verdicts never depend on which path a log took.

use serde::de::{DeserializeSeed, Error, MapAccess, SeqAccess, Visitor};
use serde::Deserializer;

use crate::game::Game;
use crate::notation::{Claimed, Meta, SetupNotation};
use crate::replay::{begin, scored, Replay, FORMAT, MAX_ENTRIES, MAX_LOG_BYTES};
use crate::rules;
use crate::tag_first::Then;

/// What a strict reading of a log found; `game` (replays only) is after its last entry.
#[derive(Default)]
struct Read {
    format: bool,
    meta: Option<Meta>,
    setup: Option<SetupNotation>,
    game: Option<Game>,
    entries: Option<usize>,
    claimed: Option<Claimed>,
}

/// The top-level members, each read at most once.
#[derive(Default)]
struct Seen {
    meta: bool,
    claimed: bool,
}

/// A strict reading of a whole document; with `replay`, the entries are applied as they come.
struct Document {
    replay: bool,
}

fn refuse<E: Error>() -> E {
    E::custom("not read in one scan")
}

impl<'de> Visitor<'de> for Document {
    type Value = Read;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a log")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Read, A::Error> {
        let mut read = Read::default();
        let mut seen = Seen::default();
        while let Some(key) = map.next_key::<&'de str>()? {
            match key {
                "format" if !read.format => {
                    if map.next_value::<&'de str>()? != FORMAT {
                        return Err(refuse());
                    }
                    read.format = true;
                }
                "meta" if !seen.meta => (seen.meta, read.meta) = (true, map.next_value()?),
                "setup" if read.setup.is_none() => {
                    let setup: SetupNotation = map.next_value()?;
                    if self.replay && read.entries.is_none() {
                        read.game = Some(begin(&setup, None).map_err(|_| refuse::<A::Error>())?);
                    }
                    read.setup = Some(setup);
                }
                "entries" if read.entries.is_none() => {
                    if self.replay && read.game.is_none() {
                        return Err(refuse());
                    }
                    read.entries = Some(map.next_value_seed(Entries { game: read.game.as_mut() })?);
                }
                "claimed" if !seen.claimed => (seen.claimed, read.claimed) = (true, map.next_value()?),
                _ => return Err(refuse()),
            }
        }
        Ok(read)
    }
}

/// `entries`, each read tag first and, given a game, applied to it at once; their number.
struct Entries<'g> {
    game: Option<&'g mut Game>,
}

impl<'de> DeserializeSeed<'de> for Entries<'_> {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Entries<'_> {
    type Value = usize;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a list of entries")
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<usize, A::Error> {
        let mut count = 0;
        loop {
            let game = self.game.as_deref_mut();
            let applied = seq.next_element_seed(Then(|entry| match game {
                Some(game) => rules::apply(game, &entry).map_err(|e| e.message),
                None => Ok(()),
            }))?;
            if applied.is_none() {
                return Ok(count);
            }
            count += 1;
            if count > MAX_ENTRIES {
                return Err(refuse());
            }
        }
    }
}

/// The log read in one scan (the entries applied when `replay`), or `None` when the usual
/// reading must judge it.
fn strict(input: &[u8], replay: bool) -> Option<Read> {
    if input.len() > MAX_LOG_BYTES {
        return None;
    }
    // UTF-8 checked once for the whole log, not string by string as the scan meets them.
    let text = std::str::from_utf8(input).ok()?;
    let mut de = serde_json::Deserializer::from_str(text);
    let read = de.deserialize_map(Document { replay }).ok()?;
    de.end().ok()?;
    (read.format && read.setup.is_some() && read.entries.is_some()).then_some(read)
}

/// The number of entries of a log whose notation reads in one scan (`parse`'s answer).
pub(crate) fn parse(input: &[u8]) -> Option<usize> {
    strict(input, false)?.entries
}

/// The replay of a log that reads in one scan, whose every entry is legal and whose end
/// applies and scores without error.
pub(crate) fn replay(input: &[u8]) -> Option<Replay> {
    let read = strict(input, true)?;
    let mut game = read.game?;
    if read.claimed.as_ref().is_some_and(|c| c.scores.len() != game.player_count()) {
        return None;
    }
    game.finish().ok()?;
    let result = Replay::unscored(
        read.meta.unwrap_or_default(),
        read.claimed.map(|c| c.scores),
        read.entries.unwrap_or_default(),
    );
    scored(game, result).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::replay_until;

    /// The logs of the crate's fixtures and a few simulated games of every player count.
    fn logs() -> Vec<Vec<u8>> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
        let mut logs: Vec<Vec<u8>> = std::fs::read_dir(dir)
            .expect("fixtures")
            .filter_map(|f| f.ok().map(|f| f.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .filter_map(|p| std::fs::read(p).ok())
            .collect();
        for players in 1..=5 {
            for seed in 0..2 {
                let log = crate::bots::simulate(seed, players).expect("a simulated game");
                logs.push(log.to_string().into_bytes());
            }
        }
        logs
    }

    /// Whatever the single pass answers, the member-by-member reading answers too, to the
    /// last field of the final state; and a refused log reads as that reading reads it.
    #[test]
    fn the_single_pass_agrees_with_the_member_by_member_reading() {
        let mut taken = 0;
        for log in logs() {
            let usual = replay_until(&log, None);
            if let Some(fast) = replay(&log) {
                taken += 1;
                assert_eq!(format!("{fast:?}"), format!("{usual:?}"));
                assert_eq!(parse(&log), crate::parse(&log).ok());
            }
            assert_eq!(format!("{:?}", crate::replay(&log)), format!("{usual:?}"));
        }
        assert!(taken >= 10, "every simulated game takes the single pass");
    }

    #[test]
    fn unusual_logs_step_aside() {
        let log = crate::bots::simulate(0, 2).expect("a simulated game").to_string();
        let tag_later = log.replacen(r#"{"type":"turn","player":0,"#, r#"{"player":0,"type":"turn","#, 1);
        let setup_last = {
            let v: serde_json::Value = serde_json::from_str(&log).expect("json");
            format!(r#"{{"entries":{},"format":"village-log/1","setup":{}}}"#, v["entries"], v["setup"])
        };
        let unknown = log.replacen(r#"{"type":"pass""#, r#"{"type":"pass","x":1"#, 1);
        for text in [tag_later, setup_last, unknown, log.replacen("village-log/1", "caverna-log/1", 1)] {
            assert!(replay(text.as_bytes()).is_none());
            let usual = replay_until(text.as_bytes(), None);
            assert_eq!(format!("{:?}", crate::replay(text.as_bytes())), format!("{usual:?}"));
        }
    }
}
