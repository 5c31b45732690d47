//! What a piece is, as vision names it: kind, treasure type, player colour. Look-alikes (a gold
//! bar and a goblet, two ship colours under odd light) differ only here, so this is what the
//! tracker votes on over frames.

use crate::games::crash_octopus::{PlayerColor, TreasureType};
use crate::table::{Catalog, PieceKind, PieceReport, Shape};
use serde::{Deserialize, Serialize};

/// The class of a piece: the fields of a [`PieceReport`] that say what it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PieceClass {
    pub piece: PieceKind,
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub treasure: Option<TreasureType>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<PlayerColor>,
}

/// Kinds vision may mistake for one another, so a track of one may be fed a detection of the
/// other (and vote it away). Kinds in different families never share a track: a treasure
/// standing on a ship is never taken for the ship.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// Ships of every colour and the pirate ship: the same hull, a little bigger for the pirate.
    Hull,
    /// The octopus head and the little octopus: pink domes of two sizes.
    Dome,
    /// Every other kind is its own family (treasures of all types form one).
    Kind(PieceKind),
}

impl PieceClass {
    pub fn of(report: &PieceReport) -> Self {
        Self {
            piece: report.piece,
            treasure: report.treasure,
            color: report.color,
        }
    }

    pub fn family(self) -> Family {
        match self.piece {
            PieceKind::Ship | PieceKind::PirateShip => Family::Hull,
            PieceKind::OctopusHead | PieceKind::LittleOctopus => Family::Dome,
            other => Family::Kind(other),
        }
    }

    /// The catalog's plan shape of this class; `None` when the catalog has no such piece or the
    /// class does not say enough to pick one (a treasure of unknown type).
    pub fn shape(self, catalog: &Catalog) -> Option<&Shape> {
        let entry = match (self.piece, self.treasure) {
            (PieceKind::Treasure, Some(t)) => catalog.treasure(t),
            (PieceKind::Treasure, None) => None,
            (kind, _) => catalog
                .piece(kind, self.color)
                .or_else(|| catalog.piece(kind, None)),
        };
        entry.map(|e| &e.shape)
    }

    /// Writes this class into a report.
    pub fn apply(self, report: &mut PieceReport) {
        report.piece = self.piece;
        report.treasure = self.treasure;
        report.color = self.color;
    }
}

impl std::fmt::Display for PieceClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(c) = self.color {
            write!(f, "{c} ")?;
        }
        match self.treasure {
            Some(t) => write!(f, "{t}"),
            None => write!(f, "{}", self.piece.as_str().replace('_', " ")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(piece: PieceKind, treasure: Option<TreasureType>, color: Option<PlayerColor>) -> PieceClass {
        PieceClass {
            piece,
            treasure,
            color,
        }
    }

    #[test]
    fn look_alike_kinds_share_a_family_and_others_do_not() {
        let ship = class(PieceKind::Ship, None, Some(PlayerColor::Blue));
        let pirate = class(PieceKind::PirateShip, None, Some(PlayerColor::Pink));
        let gold = class(PieceKind::Treasure, Some(TreasureType::Gold), None);
        let goblet = class(PieceKind::Treasure, Some(TreasureType::Goblet), None);
        assert_eq!(ship.family(), pirate.family());
        assert_eq!(gold.family(), goblet.family());
        assert_ne!(gold.family(), ship.family());
        assert_ne!(
            class(PieceKind::Crab, None, None).family(),
            class(PieceKind::InkDie, None, None).family()
        );
    }

    #[test]
    fn the_shape_comes_from_the_catalog_entry_of_the_class() {
        let catalog = Catalog::default_catalog();
        let gold = class(PieceKind::Treasure, Some(TreasureType::Gold), None);
        assert!(matches!(gold.shape(&catalog), Some(Shape::Trapezoid { .. })));
        let ship = class(PieceKind::Ship, None, Some(PlayerColor::Green));
        assert!(matches!(ship.shape(&catalog), Some(Shape::Hull { .. })));
        assert_eq!(class(PieceKind::Treasure, None, None).shape(&catalog), None);
    }
}
