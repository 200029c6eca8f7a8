//! The deck model (`docs/rules/above-and-below.md` G.1.1, D.8.3, H.29) in explicit mode, over the 25 basic houses of
//! the synthetic set: a draw names an unseen card while any is left, then the known tail in the
//! order it went under the deck; anything else is `E_DRAW`.

use serde_json::{json, Value};

use crate::common::*;

fn houses(ids: &[u32]) -> Value {
    json!(ids.iter().map(|i| format!("house_{i:02}")).collect::<Vec<_>>())
}

/// Six refreshes of the house row over round 1, one per turn, each drawing `draws[i]`.
fn refreshes(draws: [Value; 6]) -> String {
    let who = ["start_hammer", "start_hammer", "start_quill", "start_quill", "start_explorer", "start_explorer"];
    let e = draws
        .into_iter()
        .enumerate()
        .map(|(i, drawn)| {
            json!({"type": "turn", "player": i % 2, "free": [{"do": "refresh", "row": "houses", "drawn": drawn}],
                   "action": {"do": "labor", "villagers": [who[i]]}})
        })
        .collect();
    log(2, e)
}

fn legal() -> [Value; 6] {
    [
        houses(&[5, 6, 7, 8]),
        houses(&[9, 10, 11, 12]),
        houses(&[13, 14, 15, 16]),
        houses(&[17, 18, 19, 20]),
        houses(&[21, 22, 23, 24]),
        houses(&[25, 1, 2, 3]),
    ]
}

/// The unseen part runs out at the sixth refresh: its last card, then the tail from slot 0 of
/// the first refreshed row (H.29).
#[test]
fn g1_1_unseen_cards_first_then_the_tail_in_order() {
    let st = state(&refreshes(legal()));
    assert_eq!(st["rows"]["houses"], houses(&[25, 1, 2, 3]));
    assert_eq!(st["decks"]["houses"], 21, "the tail: house_04 … house_24");
}

/// Impossible draws: a card already drawn, a tail card while unseen cards remain, the tail out
/// of order.
#[test]
fn g1_1_impossible_draws_are_e_draw() {
    let cases: [(usize, Value); 4] = [
        (1, houses(&[9, 9, 10, 11])),
        (0, houses(&[5, 6, 7, 1])),
        (5, houses(&[1, 25, 2, 3])),
        (5, houses(&[25, 2, 1, 3])),
    ];
    for (at, drawn) in cases {
        let mut draws = legal();
        draws[at] = drawn.clone();
        assert_error(&refreshes(draws), Some(at), "E_DRAW");
    }
}
