//! The deck model of `docs/rules/above-and-below.md` G.1.1: an **unseen part** (cards never seen, in unknown order)
//! followed by a **known tail** (cards put at the bottom, in order). A draw names a card of the
//! unseen part while it is not empty, and then the first card of the tail. In seeded mode the
//! unseen part's order is known (the setup shuffle), so draws are derived instead.

use std::collections::{BTreeSet, VecDeque};

use crate::error::{ensure, fail, ErrorCode, RuleResult};

/// One deck (basic houses, outposts, regular villagers or caves).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deck {
    /// For messages: "house", "outpost", "villager", "cave".
    pub name: &'static str,
    /// H.1: the deck's size, cards in rows included.
    pub size: usize,
    /// Explicit mode: every card seen so far (rows, draws), so that a draw from the unseen
    /// part can be checked to be new. Seeded mode knows the unseen part's order and keeps no
    /// such set (a copy of each drawn id into a tree was a fiftieth of a replay).
    pub seen: BTreeSet<String>,
    /// Seeded mode: the unseen cards in draw order (top first).
    pub order: Option<VecDeque<String>>,
    /// Cards put at the bottom, in the order they went there.
    pub tail: VecDeque<String>,
}

impl Deck {
    pub fn new(name: &'static str, size: usize, order: Option<VecDeque<String>>) -> Deck {
        Deck { name, size, seen: BTreeSet::new(), order, tail: VecDeque::new() }
    }

    /// The number of cards in the unseen part.
    pub fn unseen(&self) -> usize {
        match &self.order {
            Some(o) => o.len(),
            None => self.size.saturating_sub(self.seen.len()),
        }
    }

    /// Cards left to draw.
    pub fn len(&self) -> usize {
        self.unseen() + self.tail.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Marks a card seen at setup (explicit mode; see [`Deck::seen`]).
    pub fn see(&mut self, id: &str) {
        if self.order.is_none() {
            self.seen.insert(id.to_owned());
        }
    }

    /// Puts a card at the bottom (a refreshed row, a failed cave).
    pub fn put_bottom(&mut self, id: String) {
        self.tail.push_back(id);
    }

    /// The card the next draw gives, when it is known (seeded mode, or the tail).
    pub fn peek_known(&self) -> Option<&str> {
        match &self.order {
            Some(o) if !o.is_empty() => o.front().map(String::as_str),
            _ if self.unseen() > 0 => None,
            _ => self.tail.front().map(String::as_str),
        }
    }

    /// Draws one card. `written` is the logged card; `new_ok` checks a card new to the unseen
    /// part is declared and of this deck's kind. Returns `None` exactly when the deck is empty
    /// (and then `written` must be absent).
    pub fn draw(&mut self, written: Option<&str>, new_ok: impl Fn(&str) -> RuleResult) -> RuleResult<Option<String>> {
        if self.is_empty() {
            return match written {
                None => Ok(None),
                Some(w) => {
                    fail(ErrorCode::Draw, format!("{w} cannot be drawn: the {} deck is empty (G.1.1)", self.name))
                }
            };
        }
        if let Some(order) = self.order.as_mut() {
            let derived = match order.pop_front() {
                Some(c) => c,
                None => self.tail.pop_front().unwrap_or_default(),
            };
            if let Some(w) = written {
                ensure(w == derived, ErrorCode::RandomMismatch, || {
                    format!("the {} drawn is {derived} by the seed, not {w}", self.name)
                })?;
            }
            return Ok(Some(derived));
        }
        let Some(w) = written else {
            return fail(ErrorCode::RandomMissing, format!("the {} drawn is not written (explicit mode)", self.name));
        };
        if self.unseen() > 0 {
            ensure(!self.seen.contains(w), ErrorCode::Draw, || {
                format!("{w} was already seen; the unseen part of the {} deck is not empty, so the draw is a new card (G.1.1)", self.name)
            })?;
            new_ok(w)?;
            self.seen.insert(w.to_owned());
            return Ok(Some(w.to_owned()));
        }
        match self.tail.front() {
            Some(first) if first == w => Ok(self.tail.pop_front()),
            Some(first) => {
                fail(ErrorCode::Draw, format!("the next {} of the deck is {first}, not {w} (G.1.1)", self.name))
            }
            None => fail(ErrorCode::Draw, format!("the {} deck is empty", self.name)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// G.1.1: once the unseen part is empty, draws follow the known tail in order.
    #[test]
    fn the_tail_is_drawn_in_order_after_the_unseen_part() {
        let mut d = Deck::new("cave", 1, None);
        assert_eq!(d.draw(Some("a"), |_| Ok(())), Ok(Some("a".into())));
        d.put_bottom("a".into());
        d.put_bottom("b".into());
        assert_eq!(d.draw(Some("b"), |_| Ok(())).map_err(|e| e.code), Err(ErrorCode::Draw));
        assert_eq!(d.draw(Some("a"), |_| Ok(())), Ok(Some("a".into())));
        assert_eq!(d.draw(None, |_| Ok(())).map_err(|e| e.code), Err(ErrorCode::RandomMissing));
    }

    #[test]
    fn an_empty_deck_draws_nothing() {
        let mut d = Deck::new("house", 0, None);
        assert_eq!(d.draw(None, |_| Ok(())), Ok(None));
        assert_eq!(d.draw(Some("x"), |_| Ok(())).map_err(|e| e.code), Err(ErrorCode::Draw));
    }
}
