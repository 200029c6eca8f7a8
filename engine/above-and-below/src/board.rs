//! The board profile (`docs/rules/above-and-below.md` A.5, A.6, A.8): storage track, reputation track and training
//! costs. The built-in profile `standard` holds only the cells the rulebook gives (base income
//! 4, storage space 3 = `[2, 6]`, the top track space −2 VP, positions −1…+2 worth 0); a log
//! supplies the rest in `setup.board` (H.27). An incomplete or insane profile is `E_SETUP_BOARD`.

use serde::Deserialize;
use serde_json::Value;

use crate::error::{ensure, fail, ErrorCode, RuleResult};
use crate::notation::BoardNotation;

/// The base income with nothing stored (A.5, IT p.10–11).
pub const BASE_INCOME: u32 = 4;

/// A complete, sane board profile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub source: Option<String>,
    pub base_income: u32,
    /// `[vp, income]` per storage space, left to right (3 to 8).
    pub spaces: Vec<(u32, u32)>,
    /// `[position, vp]` from the top (surface) to the bottom.
    pub track: Vec<(i32, i32)>,
    /// Training cost of villager-row slots 0…4.
    pub train_costs: [u32; 5],
}

/// A reading of `setup.board` that a [`Board`] is made from: the JSON value, as the usual
/// reading keeps it, or the single pass's reading of an object straight into its notation.
pub trait BoardSetting {
    fn board(&self) -> RuleResult<Board>;
}

impl BoardSetting for Value {
    fn board(&self) -> RuleResult<Board> {
        Board::from_setup(Some(self))
    }
}

impl Board {
    /// Reads `setup.board` (`"standard"`, an object merged over it, or absent = standard).
    pub fn from_setup(value: Option<&Value>) -> RuleResult<Board> {
        let n: BoardNotation = match value {
            None => BoardNotation::default(),
            Some(Value::String(s)) if s == "standard" => BoardNotation::default(),
            Some(Value::String(s)) => {
                return fail(ErrorCode::SetupBoard, format!("board \"{s}\" is not \"standard\" or an object"))
            }
            Some(v @ Value::Object(_)) => {
                BoardNotation::deserialize(v).map_err(|e| crate::replay::notation_error(&e, "setup.board"))?
            }
            Some(other) => {
                return fail(ErrorCode::Format, format!("setup.board is {other}, not \"standard\" or an object"))
            }
        };
        Board::from_notation(n)
    }

    /// The profile a `setup.board` object reads as (merged over `standard`), checked.
    pub fn from_notation(n: BoardNotation) -> RuleResult<Board> {
        let storage = n.storage.unwrap_or_default();
        let base_income = storage.base_income.unwrap_or(BASE_INCOME);
        let missing = |cell: &str| {
            crate::error::RuleError::new(
                ErrorCode::SetupBoard,
                format!("the board profile has no {cell}: the built-in `standard` profile lacks it until it is read from the printed board (RULES.md A.8); give it in setup.board"),
            )
        };
        let spaces = storage.spaces.ok_or_else(|| missing("storage.spaces"))?;
        let track = n.reputation.and_then(|r| r.track).ok_or_else(|| missing("reputation.track"))?;
        let costs = n.train_costs.ok_or_else(|| missing("train_costs"))?;
        let train_costs: [u32; 5] = <[u32; 5]>::try_from(costs.as_slice()).map_err(|_| {
            crate::error::RuleError::new(
                ErrorCode::SetupBoard,
                format!("train_costs has {} values, not 5", costs.len()),
            )
        })?;
        let board = Board { source: n.source, base_income, spaces, track, train_costs };
        board.check()?;
        Ok(board)
    }

    /// The sanity checks of A.8.
    fn check(&self) -> RuleResult {
        let e = ErrorCode::SetupBoard;
        ensure(self.base_income == BASE_INCOME, e, || {
            format!("base income {} is not 4 (IT p.10–11)", self.base_income)
        })?;
        ensure((3..=8).contains(&self.spaces.len()), e, || {
            format!("{} storage spaces, not 3 to 8 (A.5)", self.spaces.len())
        })?;
        ensure(self.spaces.get(2) == Some(&(2, 6)), e, || "storage space 3 must be [2, 6] (IT p.11–12)".into())?;
        ensure(self.spaces.windows(2).all(|w| w[0].0 <= w[1].0 && w[0].1 <= w[1].1), e, || {
            "storage VP and income must never decrease from left to right".into()
        })?;
        ensure(self.spaces.iter().all(|s| s.1 >= BASE_INCOME), e, || {
            "no storage space's income may be below 4".into()
        })?;
        ensure(!self.track.is_empty(), e, || "the reputation track is empty".into())?;
        ensure(self.track.windows(2).all(|w| w[1].0 == w[0].0 + 1), e, || {
            "reputation positions must be consecutive, top to bottom".into()
        })?;
        ensure(self.track.iter().any(|t| t.0 == 0), e, || {
            "the reputation track must include position 0 (the torch)".into()
        })?;
        ensure(self.track.first().map(|t| t.1) == Some(-2), e, || {
            "the top reputation space must be worth −2 VP (IT p.13)".into()
        })?;
        ensure(self.track.iter().filter(|t| (-1..=2).contains(&t.0)).all(|t| t.1 == 0), e, || {
            "reputation positions −1 to +2 are worth 0 VP (RULES.md A.6)".into()
        })?;
        ensure(self.train_costs.windows(2).all(|w| w[0] <= w[1]), e, || {
            "train costs must never decrease from slot 0 to 4".into()
        })?;
        Ok(())
    }

    /// A.5: the income level with `types` goods types stored.
    pub fn income_level(&self, types: usize) -> u32 {
        types.checked_sub(1).and_then(|i| self.spaces.get(i)).map_or(self.base_income, |s| s.1)
    }

    /// H.16: a position clamped to the track's ends.
    pub fn clamp(&self, position: i64) -> i32 {
        let top = self.track.first().map_or(0, |t| t.0);
        let bottom = self.track.last().map_or(0, |t| t.0);
        i32::try_from(position.clamp(i64::from(top), i64::from(bottom))).unwrap_or(0)
    }

    /// A.6: the VP printed at a position.
    pub fn track_vp(&self, position: i32) -> i32 {
        self.track.iter().find(|t| t.0 == position).map_or(0, |t| t.1)
    }
}
