//! The Octo-Counter: what the next load does, and who then drops the ink die.
//!
//! "Move it forward by one ... If the crab steps over a blue bead, the turn ends. If it steps over
//! a black bead, Octopus Attack begins." "Starting from the player after the one who has loaded a
//! treasure and moved the crab, each player gets to drop the Ink Die ... The Octopus Attack ends
//! when the last player (who moved the crab and triggered the attack) has finished." "In a 2
//! player-game, players alternate dropping one die on their turn, until they have each dropped the
//! die twice." The Pirate's steals and island treasures never move the crab (Pink Pirates).

use super::rulings::NextLoad;
use super::words;
use crate::games::crash_octopus::{Bead, PlayerColor};
use crate::table::CounterReport;

/// Drops each player makes in a two-player attack.
pub const TWO_PLAYER_DROPS_EACH: usize = 2;

/// What a load does now: the bead after the crab decides.
pub fn next_load(counter: &CounterReport) -> NextLoad {
    match counter.beads.get(counter.crab) {
        Some(Bead::Blue) => NextLoad::TurnEnds,
        Some(Bead::Black) => NextLoad::OctopusAttack,
        None => NextLoad::CounterAtEnd,
    }
}

/// Who drops the ink die, in order, when `loader` triggers an attack. Empty when the loader does
/// not move the crab (the Pirate) or is not among `players`.
pub fn attack_order(players: &[PlayerColor], loader: PlayerColor) -> Vec<PlayerColor> {
    if loader.is_pirate() {
        return Vec::new();
    }
    let Some(i) = players.iter().position(|&p| p == loader) else {
        return Vec::new();
    };
    let n = players.len();
    let round: Vec<PlayerColor> = (1..=n).map(|k| players[(i + k) % n]).collect();
    if n == 2 {
        round.repeat(TWO_PLAYER_DROPS_EACH)
    } else {
        round
    }
}

/// The counter in plain words.
pub fn counter_message(
    next: NextLoad,
    order: &[PlayerColor],
    active: Option<PlayerColor>,
    pirate_plays: bool,
) -> String {
    let mut text = match next {
        NextLoad::TurnEnds => {
            "Octo-Counter: a load now steps the crab onto a blue bead: the turn ends.".to_string()
        }
        NextLoad::OctopusAttack => {
            let mut t =
                "Octo-Counter: a load now steps the crab onto a black bead: the octopus attacks".to_string();
            if !order.is_empty() {
                let names: Vec<&str> = order.iter().map(|p| p.as_str()).collect();
                t.push_str(&format!(" — {} drop the ink die", words::then_list(&names)));
            }
            t.push('.');
            t
        }
        NextLoad::CounterAtEnd => "Octo-Counter: the crab has stepped over the last bead. The game \
             ends once the final octopus attack is played; then the most treasure types wins."
            .to_string(),
    };
    if pirate_plays && next != NextLoad::CounterAtEnd {
        if active.is_some_and(PlayerColor::is_pirate) {
            text.push_str(" The Pirate's steals and island treasures never move the crab.");
        } else {
            text.push_str(" (Not for the Pirate: its steals and island treasures never move the crab.)");
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use PlayerColor::*;

    fn counter(crab: usize) -> CounterReport {
        CounterReport::new("BBBKBBBKBBKBBKKK".parse().unwrap(), crab)
    }

    #[test]
    fn the_bead_after_the_crab_decides() {
        assert_eq!(next_load(&counter(0)), NextLoad::TurnEnds);
        assert_eq!(next_load(&counter(3)), NextLoad::OctopusAttack);
        assert_eq!(next_load(&counter(16)), NextLoad::CounterAtEnd);
        let msg = counter_message(NextLoad::OctopusAttack, &[], None, false);
        assert!(msg.contains("a load now steps the crab onto a black bead: the octopus attacks"));
    }

    #[test]
    fn the_attack_starts_after_the_loader_and_ends_with_them() {
        // "Once all players from A→D finish dropping the Ink Die, A resumes": B loaded here.
        assert_eq!(
            attack_order(&[Orange, Green, Blue, Purple], Green),
            vec![Blue, Purple, Orange, Green]
        );
        assert_eq!(
            attack_order(&[Orange, Green], Orange),
            vec![Green, Orange, Green, Orange]
        );
        // The Pirate takes part in the normal attack, but its own loads never move the crab.
        assert_eq!(
            attack_order(&[Orange, Green, Blue, Pink], Blue),
            vec![Pink, Orange, Green, Blue]
        );
        assert!(attack_order(&[Orange, Green, Pink], Pink).is_empty());
        assert!(attack_order(&[Orange, Green], Blue).is_empty());
        let msg = counter_message(
            NextLoad::OctopusAttack,
            &[Blue, Orange, Green],
            Some(Green),
            false,
        );
        assert!(
            msg.ends_with("the octopus attacks — blue, orange, then green drop the ink die."),
            "{msg}"
        );
    }
}
