//! The reputation track (`docs/rules/above-and-below.md` A.6, H.16): gaining moves the cube down (+1 per point),
//! losing moves it up; the cube is clamped at the track's ends and the excess is lost.

use crate::game::Game;

/// Moves a player's cube by `delta`; returns how far it really moved.
pub fn gain(game: &mut Game, p: usize, delta: i64) -> i64 {
    let before = game.players[p].reputation;
    let after = game.setup.board.clamp(i64::from(before).saturating_add(delta));
    game.players[p].reputation = after;
    i64::from(after) - i64::from(before)
}

#[cfg(test)]
mod tests {
    use crate::board::Board;

    /// H.16: the cube is clamped at the ends of the track.
    #[test]
    fn reputation_is_clamped_at_the_track_ends() {
        let b = Board {
            source: None,
            base_income: 4,
            spaces: vec![],
            track: vec![(-2, -2), (-1, 0), (0, 0), (1, 0)],
            train_costs: [2; 5],
        };
        assert_eq!(b.clamp(-9), -2);
        assert_eq!(b.clamp(5), 1);
        assert_eq!(b.clamp(0), 0);
    }
}
