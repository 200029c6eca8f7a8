//! The stable error codes of a replay (`docs/log-format-village.md` "Replay result", each from a check of
//! `docs/rules/village.md` G) and the error a rule returns.

chronicle_game::error_codes! {
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

/// A broken rule: a code of this engine and a message for people (the shared machinery,
/// `chronicle_game::error`); the replay adds where it happened.
pub type RuleError = chronicle_game::error::RuleError<ErrorCode>;

/// What a rule returns.
pub type RuleResult<T = ()> = chronicle_game::error::RuleResult<T, ErrorCode>;

pub use chronicle_game::error::fail;

/// `missing_component_data` for a key of `setup.components` (`docs/rules/village.md` G.1.5).
pub fn missing<T>(key: &str, why: &str) -> RuleResult<T> {
    fail(
        ErrorCode::MissingComponentData,
        format!("setup.components lacks `{key}`, needed {why} (RULES.md A.11: the rulebook text does not give it)"),
    )
}
