//! The single pass over a log that every valid, well-written log takes: the whole document read
//! straight into its typed form by the strict cursor ([`chronicle_game::cursor`]; entries by
//! [`crate::plain_entries`], the parts read once per log by their own `Deserialize`), then the
//! entries applied.
//!
//! It only ever answers a success. Anything else — a part that does not read strictly (a
//! repeated member, a tag further on, an unknown field), an invalid setup, an illegal entry —
//! makes it step aside, and the caller replays the log the member-by-member way
//! ([`crate::replay::replay_until`]), which words every error as before. A log it reads is read
//! identically by that way too: the parts read once per log with the same typed readings, the
//! entries by a reader that mirrors `Entry`'s own reading (the tests compare the two on every
//! golden, simulated and mutated log), so verdicts never depend on which path a log took.

use chronicle_game::single_pass::{play, read, Shape, Utf8};

use crate::game::Game;
use crate::notation::{Claimed, SetupNotation};
use crate::plain_entries::entry;
use crate::replay::{finish, results, start, Housed, Replay, Status, FORMAT, MAX_ENTRIES, MAX_LOG_BYTES};

/// What the single pass reads: the envelope every game shares, with this engine's limits.
const SHAPE: Shape =
    Shape { format: FORMAT, max_bytes: MAX_LOG_BYTES, max_entries: MAX_ENTRIES, utf8: Utf8::TakenStrings };

/// The number of entries of a log whose notation reads in one scan (`parse_only`'s answer).
pub(crate) fn parse_only(input: &[u8]) -> Option<usize> {
    read::<SetupNotation, Claimed, _>(input, &SHAPE, entry, |_, _| Some(())).map(|log| log.entries)
}

/// The replay of a log that reads in one scan and whose every entry is legal.
pub(crate) fn replay(input: &[u8]) -> Option<Replay> {
    let start = |setup: &SetupNotation| start(setup, None).ok();
    let mut housed = Housed::default();
    let (mut game, log) =
        play::<SetupNotation, Claimed, _, _>(input, &SHAPE, entry, start, |game: &mut Game, entry| {
            game.play_entry_housed(entry, &mut housed).ok()
        })?;
    // The claimed scores are counted here: the game starts before `claimed` may have been read.
    if log.claimed.as_ref().is_some_and(|c| c.scores.len() != game.players().len()) {
        return None;
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
        entries_applied: log.entries,
    })
}

#[cfg(test)]
mod tests {
    use chronicle_game::GameEngine;

    use super::*;
    use crate::bots::{self, BotChoice};
    use crate::notation::FurnishingSet;
    use crate::replay::replay_until;
    use crate::Caverna;

    fn simulated(players: usize, i: u64) -> String {
        let seed = bots::game_seed(5, i);
        let kinds = bots::seat_kinds(BotChoice::Mixed, players, seed);
        let setup = bots::simulated_setup(&kinds, FurnishingSet::Full, seed);
        bots::simulate(&setup, &kinds, seed).unwrap().log_json()
    }

    /// Edits of a whole log's envelope: members repeated, reordered, escaped, `null`, junk.
    fn edits(log: &str) -> Vec<String> {
        let once = |from: &str, to: &str| log.replacen(from, to, 1);
        let end = log.len() - 1;
        vec![
            log.to_owned(),
            once("{", r#"{"meta":{"id":"a"},"#),
            once("{", r#"{"meta":null,"#),
            once("{", r#"{"meta":{"id":"a"},"meta":{"id":"b"},"#),
            once("{", r#"{"claimed":null,"#),
            once("{", r#"{"claimed":{"scores":[1]},"#),
            once(r#""format":"caverna-log/1""#, r#""format":"caverna-log\/1""#),
            once(r#""format":"caverna-log/1""#, r#""format":"caverna-log/2""#),
            once(r#""format":"caverna-log/1","#, ""),
            format!("{} \n", log),
            format!("{}x", log),
            format!("{},\"x\":1}}", &log[..end]),
            format!("{},\"format\":\"caverna-log/1\"}}", &log[..end]),
            format!("{},\"entries\":[]}}", &log[..end]),
            once(r#""entries":["#, r#""entries":[{"type":"free","player":0,"actions":[]},"#),
            once(r#""entries":["#, r#""entries":[{"type":"free","player":9,"actions":[]},"#),
            log.replace(':', ": "),
            log.replacen(r#""setup":"#, r#""setup" :"#, 1),
        ]
    }

    /// Whatever the single pass answers is what the member-by-member reading answers: the same
    /// verdict and the same final state.
    #[test]
    fn the_single_pass_answers_as_the_usual_reading() {
        let (mut fast, mut usual) = (0, 0);
        for (players, i) in [(1, 0), (2, 1), (4, 2), (6, 3)] {
            let log = simulated(players, i);
            assert!(replay(log.as_bytes()).is_some(), "a simulated log takes the single pass");
            for edit in edits(&log) {
                let slow = replay_until(edit.as_bytes(), None);
                match replay(edit.as_bytes()) {
                    Some(r) => {
                        fast += 1;
                        assert_eq!(Caverna::verdict(&r), Caverna::verdict(&slow), "{edit}");
                        assert_eq!(Caverna::state_view(&r), Caverna::state_view(&slow), "{edit}");
                        assert_eq!(parse_only(edit.as_bytes()), Some(r.entries_applied));
                    }
                    None => usual += 1,
                }
            }
        }
        assert!(fast >= 20 && usual >= 20, "single pass {fast}, usual reading {usual}");
    }

    /// The single pass checks UTF-8 only in the strings whose text it takes (`Utf8::TakenStrings`):
    /// a byte that is not UTF-8 anywhere in a string — an id, a member name, meta — still sends
    /// the log to the usual reading, and text beyond ASCII where text is allowed is read.
    #[test]
    fn a_log_that_is_not_utf8_is_left_to_the_usual_reading() {
        let log = simulated(2, 4);
        let with = |after: &str, bytes: &[u8]| chronicle_game::cursor::inserted_after(&log, after, bytes);
        let bad = [0xffu8];
        for edit in [
            with(r#""space":""#, &bad),
            with(r#""type":""#, &bad),
            with(r#""do":""#, &bad),
            with(r#","player"#, &bad),
            with(r#""format":""#, &bad),
            with(r#""source":""#, &bad),
        ] {
            assert!(replay(&edit).is_none() && parse_only(&edit).is_none(), "{}", String::from_utf8_lossy(&edit));
            assert_eq!(
                Caverna::verdict(&replay_until(&edit, None)).error.map(|e| e.code),
                Some("malformed_json".into())
            );
        }
        let accented = with(r#""source":""#, "é☃".as_bytes());
        let r = replay(&accented).expect("read by the single pass");
        assert_eq!(Caverna::verdict(&r), Caverna::verdict(&replay_until(&accented, None)));
    }
}
