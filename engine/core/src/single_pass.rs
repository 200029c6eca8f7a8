//! The envelope every game's log shares (`format`, `meta`, `setup`, `entries`, `claimed`), read
//! in one scan by the engines' single passes with the strict [`Cursor`].
//!
//! Like the cursor, [`read`] only answers for a log it reads exactly as the usual reading
//! would; anything else (a repeated or unknown member, another format, entries before the
//! setup, more entries than allowed, a part that does not read) gives `None`, and the engine
//! reads the log the usual way, which words every error.

use serde::Deserialize;

use crate::cursor::{Cursor, Seen};
use crate::verdict::Meta;

/// What a game's log must be for its single pass.
pub struct Shape {
    /// The log's `format`.
    pub format: &'static str,
    /// The largest log accepted, in bytes.
    pub max_bytes: usize,
    /// The most entries accepted.
    pub max_entries: usize,
    /// How the log's UTF-8 is checked: the whole log once, or only the strings whose text the
    /// engine's readers take ([`Cursor::from_bytes`]; for readers whose strings are nearly all
    /// member names and ids found in tables).
    pub utf8: Utf8,
}

/// How a single pass checks that a log is UTF-8 (as JSON must be); either way a log that is
/// not is left to the usual reading, which words the error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Utf8 {
    /// The whole log, once, before the scan.
    Whole,
    /// Each string whose text is taken, when it is taken.
    TakenStrings,
}

/// Everything of a log but its entries, which were handed on one by one as they were read.
pub struct Envelope<S, C> {
    pub meta: Option<Meta>,
    pub setup: S,
    pub claimed: Option<C>,
    /// How many entries the log has.
    pub entries: usize,
}

/// The top-level members of a log (`format` first: [`Seen`] bit 0, `entries` bit 3).
const MEMBERS: [&str; 5] = ["format", "meta", "setup", "entries", "claimed"];

/// Reads a log of `shape` in one scan: each entry is read by `entry` and handed with the setup
/// to `take` as soon as it is read (so `setup` must come before `entries`, as every writer puts
/// them). `None` when the usual reading must judge the log, or `take` refused an entry.
pub fn read<'a, S, C, E>(
    input: &'a [u8],
    shape: &Shape,
    mut entry: impl FnMut(&mut Cursor<'a>) -> Option<E>,
    mut take: impl FnMut(&S, &E) -> Option<()>,
) -> Option<Envelope<S, C>>
where
    S: Deserialize<'a>,
    C: Deserialize<'a>,
{
    if input.len() > shape.max_bytes {
        return None;
    }
    let mut c = match shape.utf8 {
        Utf8::Whole => Cursor::new(std::str::from_utf8(input).ok()?),
        Utf8::TakenStrings => Cursor::from_bytes(input),
    };
    let mut seen = Seen::default();
    let (mut meta, mut setup, mut claimed, mut entries) = (None, None, None, 0);
    c.object(|c, name| {
        let index = MEMBERS.iter().position(|m| *m == name)?;
        // A repeated member is left to the usual reading (which reads the last copy).
        seen.first(u32::try_from(index).ok()?)?;
        match name {
            "format" => (c.str()? == shape.format).then_some(())?,
            "meta" => meta = c.deserialized()?,
            "setup" => setup = Some(c.deserialized()?),
            "entries" => {
                let setup = setup.as_ref()?;
                c.array(|c| {
                    entries += 1;
                    if entries > shape.max_entries {
                        return None;
                    }
                    // Handed by reference: an entry is read in place and never moved again.
                    take(setup, &entry(c)?)
                })?;
            }
            _ => claimed = c.deserialized()?,
        }
        Some(())
    })?;
    c.end()?;
    (seen.has(0) && seen.has(3)).then_some(Envelope { meta, setup: setup?, claimed, entries })
}

/// Reads a log of `shape` in one scan and plays it: the game is started from the setup by
/// `start` when the first entry has been read (after the scan, for a log without entries), and
/// each entry is played by `play` as soon as it is read. `None` as for [`read`], or when `start`
/// or `play` refused.
pub fn play<'a, S, C, E, G>(
    input: &'a [u8],
    shape: &Shape,
    entry: impl FnMut(&mut Cursor<'a>) -> Option<E>,
    start: impl Fn(&S) -> Option<G>,
    mut play: impl FnMut(&mut G, &E) -> Option<()>,
) -> Option<(G, Envelope<S, C>)>
where
    S: Deserialize<'a>,
    C: Deserialize<'a>,
{
    let mut game: Option<G> = None;
    let log = read(input, shape, entry, |setup, e| {
        let game = match &mut game {
            Some(game) => game,
            None => game.insert(start(setup)?),
        };
        play(game, e)
    })?;
    let game = match game {
        Some(game) => game,
        None => start(&log.setup)?,
    };
    Some((game, log))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHAPE: Shape = Shape { format: "toy/1", max_bytes: 1000, max_entries: 2, utf8: Utf8::Whole };

    #[derive(Deserialize, Debug, PartialEq)]
    struct Setup {
        players: u32,
    }

    #[derive(Deserialize, Debug, PartialEq)]
    struct Claimed {
        scores: Vec<i64>,
    }

    /// The entries taken (`u32`s, plus the setup's players) and the envelope, or `None`.
    fn scan(log: &str) -> Option<(Vec<u32>, Envelope<Setup, Claimed>)> {
        let mut taken = Vec::new();
        let envelope = read(log.as_bytes(), &SHAPE, Cursor::u32, |s: &Setup, e| {
            taken.push(*e + s.players);
            Some(())
        })?;
        Some((taken, envelope))
    }

    #[test]
    fn a_plain_envelope_is_read_and_anything_else_left_to_the_usual_reading() {
        let log =
            r#"{"format":"toy/1","meta":{"id":"a"},"setup":{"players":10},"entries":[1,2],"claimed":{"scores":[3]}}"#;
        let (taken, envelope) = scan(log).unwrap();
        assert_eq!((taken, envelope.setup.players, envelope.entries), (vec![11, 12], 10, 2));
        assert_eq!(envelope.claimed, Some(Claimed { scores: vec![3] }));
        assert_eq!(envelope.meta.and_then(|m| m.id).as_deref(), Some("a"));
        assert!(scan(r#"{"format":"toy/1","setup":{"players":1},"entries":[],"meta":null}"#).is_some());
        for refused in [
            r#"{"format":"toy/2","setup":{"players":1},"entries":[]}"#,
            r#"{"setup":{"players":1},"entries":[]}"#,
            r#"{"format":"toy/1","setup":{"players":1}}"#,
            r#"{"format":"toy/1","entries":[],"setup":{"players":1}}"#,
            r#"{"format":"toy/1","setup":{"players":1},"entries":[1,2,3]}"#,
            r#"{"format":"toy/1","setup":{"players":1},"entries":[],"x":1}"#,
            r#"{"format":"toy/1","setup":{"players":1},"setup":{"players":1},"entries":[]}"#,
            r#"{"format":"toy/1","setup":{"players":1},"entries":[-1]}"#,
            r#"{"format":"toy/1","setup":{"players":1,"players":2},"entries":[]}"#,
            r#"{"format":"toy/1","setup":{"players":1},"entries":[]} x"#,
        ] {
            assert!(scan(refused).is_none(), "{refused}");
        }
        let played = |log: &str| {
            play(
                log.as_bytes(),
                &SHAPE,
                Cursor::u32,
                |s: &Setup| Some(vec![s.players]),
                |g, e| {
                    g.push(*e);
                    (*e != 9).then_some(())
                },
            )
            .map(|(g, log): (Vec<u32>, Envelope<Setup, Claimed>)| (g, log.entries))
        };
        assert_eq!(played(r#"{"format":"toy/1","setup":{"players":4},"entries":[1,2]}"#), Some((vec![4, 1, 2], 2)));
        assert_eq!(played(r#"{"format":"toy/1","setup":{"players":4},"entries":[]}"#), Some((vec![4], 0)));
        assert_eq!(played(r#"{"format":"toy/1","setup":{"players":4},"entries":[9]}"#), None, "a refused entry");
        let long = format!(
            r#"{{"format":"toy/1","setup":{{"players":1}},"entries":[],"meta":{{"id":"{}"}}}}"#,
            "x".repeat(1000)
        );
        assert!(scan(&long).is_none(), "larger than max_bytes");
    }

    /// JSON is UTF-8 (RFC 8259 §8.1): whichever way a single pass checks it, a log whose bytes
    /// are not is left to the usual reading, and one that is (beyond ASCII too) is read.
    #[test]
    fn a_log_that_is_not_utf8_is_left_to_the_usual_reading_either_way() {
        let log = |id: &[u8]| {
            [&br#"{"format":"toy/1","meta":{"id":""#[..], id, br#""},"setup":{"players":1},"entries":[2]}"#].concat()
        };
        for utf8 in [Utf8::Whole, Utf8::TakenStrings] {
            let shape = Shape { utf8, ..SHAPE };
            let id = |bytes: &[u8]| {
                let envelope: Envelope<Setup, Claimed> = read(&log(bytes), &shape, Cursor::u32, |_, _| Some(()))?;
                envelope.meta.and_then(|m| m.id)
            };
            assert_eq!(id("é☃".as_bytes()).as_deref(), Some("é☃"), "{utf8:?}");
            for bad in [&[0xffu8][..], &[0xc3], &[0xed, 0xa0, 0x80], &[b'a', 0xc3, b'(']] {
                assert_eq!(id(bad), None, "{utf8:?} {bad:?}");
            }
        }
    }
}
