//! The stable error codes of a replay (`docs/log-format-village.md` "Replay result", each from a check of
//! `docs/rules/village.md` G) and the error a rule returns.

use serde::Serialize;

macro_rules! codes {
    ($($variant:ident = $id:literal),+ $(,)?) => {
        /// A stable error code.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
        #[serde(rename_all = "snake_case")]
        pub enum ErrorCode { $($variant),+ }

        impl ErrorCode {
            /// Every code, for documentation tests.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant),+];

            pub const fn as_str(self) -> &'static str {
                match self { $(ErrorCode::$variant => $id),+ }
            }
        }
    };
}

codes! {
    // The envelope (shared with the other engines, `chronicle_game::envelope::codes`).
    LogTooLarge = "log_too_large",
    MalformedJson = "malformed_json",
    Malformed = "malformed",
    // docs/rules/village.md G.1 – G.14.
    BadFormat = "bad_format",
    UnknownField = "unknown_field",
    BadSetup = "bad_setup",
    MissingComponentData = "missing_component_data",
    UnknownId = "unknown_id",
    BadComponents = "bad_components",
    ExpectedPopulate = "expected_populate",
    UnexpectedPopulate = "unexpected_populate",
    PopulateCount = "populate_count",
    PopulateNotInBag = "populate_not_in_bag",
    NotYourTurn = "not_your_turn",
    BadTurn = "bad_turn",
    CubeNotOnSpace = "cube_not_on_space",
    WrongAction = "wrong_action",
    MarketMustBeHeld = "market_must_be_held",
    WellBoardEmpty = "well_board_empty",
    WellNeedsAction = "well_needs_action",
    FreeNotAllowed = "free_not_allowed",
    GameOver = "game_over",
    ExpectedEntry = "expected_entry",
    CannotPay = "cannot_pay",
    BadCoinSubstitution = "bad_coin_substitution",
    SupplyEmpty = "supply_empty",
    NoMemberOnFarm = "no_member_on_farm",
    ReserveEmpty = "reserve_empty",
    MemberNotFound = "member_not_found",
    BadGood = "bad_good",
    NotTrained = "not_trained",
    BadCraft = "bad_craft",
    NoMarketDay = "no_market_day",
    NotYourMarketTurn = "not_your_market_turn",
    AlreadyPassed = "already_passed",
    CustomerNotAvailable = "customer_not_available",
    CarlaSaleWrong = "carla_sale_wrong",
    RefillCount = "refill_count",
    CustomerNotInPile = "customer_not_in_pile",
    CouncilStageMax = "council_stage_max",
    PrivilegeTooHigh = "privilege_too_high",
    NoCouncilMember = "no_council_member",
    BadPrivilege = "bad_privilege",
    NotAdjacent = "not_adjacent",
    BadReward = "bad_reward",
    DeathNotDue = "death_not_due",
    NotOldest = "not_oldest",
    DeathExpected = "death_expected",
    ExpectedMass = "expected_mass",
    UnexpectedMass = "unexpected_mass",
    MassBuy = "mass_buy",
    DrawCount = "draw_count",
    DrawNotInBag = "draw_not_in_bag",
    PromoteInvalid = "promote_invalid",
    CarlaTakeWrong = "carla_take_wrong",
    CarlaNotDue = "carla_not_due",
    CarlaRollWrong = "carla_roll_wrong",
    FateInconsistent = "fate_inconsistent",
    SeedMismatch = "seed_mismatch",
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A broken rule: a code and a message for people.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct RuleError {
    pub code: ErrorCode,
    pub message: String,
}

impl RuleError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> RuleError {
        RuleError { code, message: message.into() }
    }
}

pub type RuleResult<T = ()> = Result<T, RuleError>;

/// Fails with a code and message.
pub fn fail<T>(code: ErrorCode, message: impl Into<String>) -> RuleResult<T> {
    Err(RuleError::new(code, message))
}

/// `missing_component_data` for a key of `setup.components` (`docs/rules/village.md` G.1.5).
pub fn missing<T>(key: &str, why: &str) -> RuleResult<T> {
    fail(
        ErrorCode::MissingComponentData,
        format!("setup.components lacks `{key}`, needed {why} (RULES.md A.11: the rulebook text does not give it)"),
    )
}
