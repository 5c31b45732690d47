//! Plain words for families: how pieces, players and lengths are named in messages.

use crate::games::crash_octopus::{PlayerColor, TreasureType};
use crate::table::PieceKind;

/// "the gem (p4)"; "the treasure (p4)" when its type is not known.
pub fn treasure(id: &str, t: Option<TreasureType>) -> String {
    match t {
        Some(t) => format!("the {t} ({id})"),
        None => format!("the treasure ({id})"),
    }
}

/// "a gem"; "an ..." is never needed by the treasure names.
pub fn a_treasure(t: TreasureType) -> String {
    format!("a {t}")
}

/// "the orange ship (p2)", "the pirate ship (p3)", "the tentacle (p5)", ...
pub fn piece(kind: PieceKind, color: Option<PlayerColor>, id: &str) -> String {
    let name = match (kind, color) {
        (PieceKind::Ship, Some(c)) => format!("{c} ship"),
        (PieceKind::Anchor, Some(c)) => format!("{c} anchor"),
        (PieceKind::OctopusHead, _) => "octopus head".into(),
        (PieceKind::LittleOctopus, _) => "Little Octopus".into(),
        (PieceKind::PirateShip, _) => "pirate ship".into(),
        (PieceKind::OctoCanon, _) => "Octo-Canon".into(),
        (PieceKind::Island, _) => "Nameless Island".into(),
        (PieceKind::InkDie, _) => "ink die".into(),
        (kind, _) => kind.as_str().replace('_', " "),
    };
    format!("the {name} ({id})")
}

/// A player's colour at the start of a sentence: "Orange".
pub fn player_cap(p: PlayerColor) -> String {
    capitalise(p.as_str())
}

pub fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A length to 0.1 mm without the unit: "12.3".
pub fn mm(v: f64) -> String {
    format!("{v:.1}")
}

/// "a", "a and b", "a, b and c".
pub fn and_list<S: AsRef<str>>(items: &[S]) -> String {
    join(items, "and")
}

/// "a", "a or b", "a, b or c".
pub fn or_list<S: AsRef<str>>(items: &[S]) -> String {
    join(items, "or")
}

/// "a", "a then b", "a, b, then c": an order.
pub fn then_list<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [init @ .., last] if init.len() >= 2 => {
            let init: Vec<&str> = init.iter().map(|s| s.as_ref()).collect();
            format!("{}, then {}", init.join(", "), last.as_ref())
        }
        _ => join(items, "then"),
    }
}

fn join<S: AsRef<str>>(items: &[S], word: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [init @ .., last] => {
            let init: Vec<&str> = init.iter().map(|s| s.as_ref()).collect();
            format!("{} {word} {}", init.join(", "), last.as_ref())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_naturally() {
        assert_eq!(treasure("p4", Some(TreasureType::Gem)), "the gem (p4)");
        assert_eq!(treasure("p4", None), "the treasure (p4)");
        assert_eq!(
            piece(PieceKind::Ship, Some(PlayerColor::Green), "p2"),
            "the green ship (p2)"
        );
        assert_eq!(piece(PieceKind::Tentacle, None, "p5"), "the tentacle (p5)");
        assert_eq!(piece(PieceKind::InkDie, None, "p9"), "the ink die (p9)");
        assert_eq!(and_list(&["a", "b", "c"]), "a, b and c");
        assert_eq!(or_list(&["a", "b"]), "a or b");
        assert_eq!(then_list(&["a", "b", "c"]), "a, b, then c");
        assert_eq!(then_list(&["a", "b"]), "a then b");
        assert_eq!(and_list::<&str>(&[]), "");
        assert_eq!(player_cap(PlayerColor::Orange), "Orange");
        assert_eq!(mm(14.06), "14.1");
    }
}
