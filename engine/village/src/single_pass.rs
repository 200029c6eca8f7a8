//! The single pass over a log that every valid, well-written log takes: the whole document read
//! straight into its typed form by the strict cursor ([`chronicle_game::cursor`]; entries by
//! [`crate::plain_entries`], the parts read once per log by their own `Deserialize`) and, for a
//! replay, each entry applied as soon as it is read, so that no list of entries is built.
//!
//! It only ever answers a success. Anything else — a part that does not read strictly (a
//! repeated member, a tag further on, an unknown field, entries before the setup), an invalid
//! setup, an illegal entry, a failure at the end of the log — makes it step aside, and the
//! caller replays the log the member-by-member way ([`crate::replay::replay_until`]), which
//! words every error as before. A log it reads is read identically by that way too: the parts
//! read once per log with the same typed readings, the entries by a reader that mirrors
//! `Entry`'s own reading (the tests compare the two on simulated and edited entries and logs),
//! so verdicts never depend on which path a log took.

use chronicle_game::single_pass::{play, read, Shape, Utf8};

use crate::game::Game;
use crate::notation::{Claimed, SetupNotation};
use crate::plain_entries::entry;
use crate::replay::{begin, scored, Replay, FORMAT, MAX_ENTRIES, MAX_LOG_BYTES};
use crate::rules;

/// What the single pass reads: the envelope every game shares, with this engine's limits.
const SHAPE: Shape =
    Shape { format: FORMAT, max_bytes: MAX_LOG_BYTES, max_entries: MAX_ENTRIES, utf8: Utf8::TakenStrings };

/// The number of entries of a log whose notation reads in one scan (`parse`'s answer).
pub(crate) fn parse(input: &[u8]) -> Option<usize> {
    read::<SetupNotation, Claimed, _>(input, &SHAPE, entry, |_, _| Some(())).map(|log| log.entries)
}

/// The replay of a log that reads in one scan, whose every entry is legal and whose end
/// applies and scores without error.
pub(crate) fn replay(input: &[u8]) -> Option<Replay> {
    let begin = |setup: &SetupNotation| begin(setup, None).ok();
    let (mut game, log) =
        play::<SetupNotation, Claimed, _, _>(input, &SHAPE, entry, begin, |game: &mut Game, entry| {
            rules::apply(game, entry).ok()
        })?;
    // The claimed scores are counted here: the game starts before `claimed` may have been read.
    if log.claimed.as_ref().is_some_and(|c| c.scores.len() != game.player_count()) {
        return None;
    }
    game.finish().ok()?;
    let result = Replay::unscored(log.meta.unwrap_or_default(), log.claimed.map(|c| c.scores), log.entries);
    scored(game, result).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plain_entries::tests::edits as entry_edits;
    use crate::replay::{parse_usual, replay_until};

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

    /// Edits of a whole log's envelope: members repeated, reordered, escaped, `null`, junk.
    fn envelope_edits(log: &str) -> Vec<String> {
        let once = |from: &str, to: &str| log.replacen(from, to, 1);
        let end = log.len() - 1;
        vec![
            once("{", r#"{"meta":{"id":"a"},"#),
            once("{", r#"{"meta":null,"#),
            once("{", r#"{"meta":{"id":"a"},"meta":{"id":"b"},"#),
            once("{", r#"{"claimed":null,"#),
            once("{", r#"{"claimed":{"scores":[1]},"#),
            once(r#""format":"village-log/1""#, r#""format":"village-log\/1""#),
            once(r#""format":"village-log/1""#, r#""format":"village-log/2""#),
            once(r#""format":"village-log/1","#, ""),
            format!("{log} \n"),
            format!("{log}x"),
            format!("{},\"x\":1}}", &log[..end]),
            format!("{},\"format\":\"village-log/1\"}}", &log[..end]),
            format!("{},\"entries\":[]}}", &log[..end]),
            once(r#""entries":["#, r#""entries":[{"type":"pass","player":0},"#),
            once(r#""entries":["#, r#""entries":[{"type":"pass","player":9},"#),
            log.replace(':', ": "),
            log.replacen(r#""setup":"#, r#""setup" :"#, 1),
        ]
    }

    /// A log and its answers agree: the single pass's, when it answers, are the usual
    /// reading's to the last field of the final state, and so are the crate's.
    fn agree(log: &[u8]) -> bool {
        let usual = replay_until(log, None);
        let fast = replay(log);
        if let Some(fast) = &fast {
            assert_eq!(format!("{fast:?}"), format!("{usual:?}"), "{}", String::from_utf8_lossy(log));
        }
        if let Some(n) = parse(log) {
            assert_eq!(parse_usual(log).ok(), Some(n), "{}", String::from_utf8_lossy(log));
        }
        assert_eq!(format!("{:?}", crate::replay(log)), format!("{usual:?}"));
        fast.is_some()
    }

    /// Whatever the single pass answers, the member-by-member reading answers too, on the
    /// fixtures, simulated logs and their edits (the envelope's, and every fifth entry's).
    #[test]
    fn the_single_pass_agrees_with_the_member_by_member_reading() {
        let (mut taken, mut stepped_aside) = (0, 0);
        for log in logs() {
            let text = String::from_utf8(log.clone()).expect("UTF-8");
            let entries: Vec<String> = serde_json::from_str::<serde_json::Value>(&text)
                .ok()
                .and_then(|v| v["entries"].as_array().cloned())
                .unwrap_or_default()
                .iter()
                .map(serde_json::Value::to_string)
                .collect();
            let mut edited = envelope_edits(&text);
            for entry in entries.iter().step_by(12).filter(|e| text.contains(e.as_str())) {
                edited.extend(entry_edits(entry).iter().step_by(7).map(|edit| text.replacen(entry, edit, 1)));
            }
            agree(&log);
            for edit in edited {
                if agree(edit.as_bytes()) {
                    taken += 1;
                } else {
                    stepped_aside += 1;
                }
            }
        }
        assert!(taken > 600 && stepped_aside > 3000, "single pass {taken}, usual reading {stepped_aside}");
    }

    #[test]
    fn simulated_logs_take_the_single_pass() {
        for players in 1..=5 {
            let log = crate::bots::simulate(3, players).expect("a simulated game").to_string();
            assert!(replay(log.as_bytes()).is_some());
            assert!(parse(log.as_bytes()).is_some());
        }
    }

    /// UTF-8 is checked only in the strings whose text is taken (`Utf8::TakenStrings`): a byte
    /// that is not UTF-8 in an id, a tag, a member name, the format or meta still sends the log
    /// to the usual reading, and text beyond ASCII where text is allowed is read.
    #[test]
    fn a_log_that_is_not_utf8_steps_aside() {
        let log = crate::bots::simulate(1, 3).expect("a simulated game").to_string();
        let with = |after: &str, bytes: &[u8]| chronicle_game::cursor::inserted_after(&log, after, bytes);
        let bad = [0xffu8];
        for edit in [
            with(r#""space":""#, &bad),
            with(r#""type":""#, &bad),
            with(r#""do":""#, &bad),
            with(r#""cube":""#, &bad),
            with(r#","player"#, &bad),
            with(r#""format":""#, &bad),
            with(r#""source":""#, &bad),
        ] {
            assert!(!agree(&edit) && parse(&edit).is_none(), "{}", String::from_utf8_lossy(&edit));
        }
        assert!(agree(&with(r#""source":""#, "é☃".as_bytes())), "read by the single pass");
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
