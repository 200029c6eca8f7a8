//! Why a log is invalid: one enum of stable error codes (documented in `docs/errors.md`).

chronicle_game::error_codes! {
    // --- the document ---
    /// The input is not JSON.
    MalformedJson = "malformed_json",
    /// The input is larger than the engine accepts.
    LogTooLarge = "log_too_large",
    /// `format` is missing or not `caverna-log/1`.
    BadFormat = "bad_format",
    /// A field that the format does not define.
    UnknownField = "unknown_field",
    /// A field has the wrong type or shape, or a required field is missing.
    Malformed = "malformed",
    /// An id (space, tile, good, loot item, …) that does not exist.
    UnknownId = "unknown_id",
    /// A coordinate outside the board (or the Office-room ring when that is not open).
    CellOffBoard = "cell_off_board",
    // --- setup ---
    /// Not 1–7 players.
    PlayerCount = "setup_player_count",
    /// `round_cards` breaks the stage structure of `docs/rules/caverna-reference.md` B.3 / B.7 / B.8.
    RoundCards = "setup_round_cards",
    /// `harvest_tokens` has the wrong number or mix of tokens.
    HarvestTokens = "setup_harvest_tokens",
    /// Neither the round cards / harvest tokens nor a seed to derive them.
    MissingSeed = "setup_missing_seed",
    /// `claimed.scores` does not have one score per player.
    ClaimedScores = "claimed_scores",
    // --- whose turn, which entry ---
    /// `player` is not a seat of this game.
    UnknownPlayer = "unknown_player",
    /// A `place` entry by a player who is not to move.
    NotYourTurn = "not_your_turn",
    /// An entry type that is not allowed at this point of the game.
    UnexpectedEntry = "unexpected_entry",
    /// A second decision of the same kind by the same player in one window.
    DuplicateEntry = "duplicate_entry",
    /// An entry applied (through the library API) after final scoring; in a replay an entry
    /// after the last harvest that is not `free` is `unexpected_entry`.
    GameOver = "game_over",
    // --- placing a dwarf ---
    /// The space does not exist in this game or is not revealed yet.
    SpaceNotAvailable = "space_not_available",
    /// The space already holds a dwarf this round.
    SpaceOccupied = "space_occupied",
    /// The named dwarf does not exist or is not at home.
    DwarfNotAvailable = "dwarf_not_available",
    /// The dwarf breaks the weapon order without paying a ruby (`docs/rules/caverna-reference.md` B.6).
    DwarfOrder = "dwarf_order",
    /// The action is not part of this space, or breaks its connector.
    ActionNotAllowed = "action_not_allowed",
    /// The placement carries out none of the space's actions.
    NoAction = "no_action",
    /// Not enough goods to pay.
    InsufficientGoods = "insufficient_goods",
    /// An Imitation target that may not be imitated (`docs/rules/caverna-reference.md` B.5, H.7).
    ImitationTarget = "imitation_target",
    // --- tiles on the board ---
    /// The cell already holds a tile (or a stable where none may stand).
    CellOccupied = "cell_occupied",
    /// The cell is on the wrong side or holds the wrong tile for this placement.
    WrongTerrain = "wrong_terrain",
    /// The tile does not touch what it must touch (`docs/rules/caverna-reference.md` A.2).
    NotAdjacent = "not_adjacent",
    /// The `kinds` of a twin tile are not a tile that this action places.
    BadTileKinds = "bad_tile_kinds",
    /// A fourth stable, or a stable on a field or in the mountain.
    StableNotAllowed = "stable_not_allowed",
    /// The furnishing tile is already built, not in this game's set, or not allowed here.
    FurnishingUnavailable = "furnishing_unavailable",
    /// The cell cannot take a furnishing tile.
    FurnishingCell = "furnishing_cell",
    // --- dwarfs, crops, weapons ---
    /// Family growth without a free dwelling room or a dwarf left in supply.
    NoRoom = "no_room",
    /// An illegal sowing (not an empty field, too many fields, no crop in supply).
    SowInvalid = "sow_invalid",
    /// Forging for an armed dwarf, or an expedition for an unarmed one.
    WeaponRequired = "weapon_state",
    /// A weapon strength outside 1–8, or a count outside its range.
    OutOfRange = "out_of_range",
    // --- expeditions ---
    /// A loot item above the dwarf's strength, repeated, or more items than the level.
    LootNotAllowed = "loot_not_allowed",
    // --- harvest ---
    /// A `breed` entry asking for a newborn that cannot be born or housed.
    BreedInvalid = "breed_invalid",
    /// A `keep` entry naming a space that is not being cleared.
    KeepInvalid = "keep_invalid",
    // --- animals, conversions, tiles ---
    /// After the entry, no arrangement houses all of the player's animals (`docs/rules/caverna-reference.md` F.1).
    AnimalsUnhoused = "animals_unhoused",
    /// A conversion or trade the rules do not offer.
    ConversionInvalid = "conversion_invalid",
    /// Using a furnishing tile the player does not own, or outside its timing window.
    TileNotUsable = "tile_not_usable",
}

/// A broken rule: a code of this engine and a message for people (the shared machinery,
/// `chronicle_game::error`); the replay adds where it happened.
pub type RuleError = chronicle_game::error::RuleError<ErrorCode>;

/// What a rule returns.
pub type RuleResult<T = ()> = chronicle_game::error::RuleResult<T, ErrorCode>;

pub(crate) use chronicle_game::error::{ensure, fail};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_snake_case() {
        let mut seen = std::collections::HashSet::new();
        for c in ErrorCode::ALL {
            assert!(seen.insert(c.as_str()), "duplicate {}", c.as_str());
            assert!(c.as_str().chars().all(|ch| ch.is_ascii_lowercase() || ch == '_'));
        }
    }
}
