//! Where a piece is, by table.md's definitions — shared by vision (on what it sees) and the
//! renderer (on its ground truth), so both speak of "in the ocean" the same way.
//!
//! Conventions: table frame, millimetres. The ocean is the polygon of the string's centre line.
//! - **in the ocean**: the piece's footprint centre (`center_mm`) is inside the ocean polygon.
//! - **on the string**: the piece's footprint outline crosses the string's centre line.
//! - **loaded** (a treasure): its footprint centre lies inside a ship's (or the pirate ship's)
//!   footprint. A loaded treasure stands about 18 mm up on the deck: its centre must already be
//!   corrected for that height (vision's job) before it is judged here.
//! - **on the island** (a treasure): its footprint centre lies inside the island's footprint.

use super::gap::point_segment_distance_sq;
use crate::table::polygon::segments_intersect;
use crate::table::{PieceKind, PieceReport, PointMm, PolygonMm};

/// Fewest vertices an ocean polygon needs to enclose anything.
pub const MIN_OCEAN_VERTICES: usize = 3;

/// Whether a footprint centre lies in the ocean. An ocean with fewer than three vertices holds
/// nothing.
pub fn in_ocean(center: PointMm, ocean: &PolygonMm) -> bool {
    ocean.len() >= MIN_OCEAN_VERTICES && ocean.contains(center)
}

/// Whether a footprint crosses the string (the ocean polygon's outline). Only the stretches of
/// string within the footprint's reach around `center` are tested edge by edge, so a piece far
/// from the string costs one pass over the string and no crossing test.
pub fn on_string(footprint: &PolygonMm, center: PointMm, ocean: &PolygonMm) -> bool {
    if footprint.is_empty() || ocean.len() < MIN_OCEAN_VERTICES {
        return false;
    }
    let reach_sq = footprint
        .points()
        .iter()
        .map(|&p| (p - center).dot(p - center))
        .fold(0.0, f64::max);
    let string = ocean.points();
    let mut a = string[string.len() - 1];
    for &b in string {
        if point_segment_distance_sq(center, a, b) <= reach_sq
            && footprint.edges().any(|(c, d)| segments_intersect(a, b, c, d))
        {
            return true;
        }
        a = b;
    }
    false
}

/// Sets `in_ocean` and `on_string` on every piece from the ocean polygon.
pub fn classify_pieces(pieces: &mut [PieceReport], ocean: &PolygonMm) {
    for p in pieces.iter_mut() {
        p.in_ocean = in_ocean(p.center_mm, ocean);
        p.on_string = on_string(&p.footprint_mm, p.center_mm, ocean);
    }
}

/// Sets `loaded_on` (the id of the ship whose footprint holds the treasure's centre) and
/// `on_island` on every treasure, from the footprints alone; other pieces are left untouched.
/// Centres must already be corrected for the deck's height (see the module's conventions).
pub fn assign_loads(pieces: &mut [PieceReport]) {
    let ships: Vec<(String, PolygonMm)> = pieces
        .iter()
        .filter(|p| matches!(p.piece, PieceKind::Ship | PieceKind::PirateShip))
        .map(|p| (p.id.clone(), p.footprint_mm.clone()))
        .collect();
    let islands: Vec<PolygonMm> = pieces
        .iter()
        .filter(|p| p.piece == PieceKind::Island)
        .map(|p| p.footprint_mm.clone())
        .collect();
    for p in pieces.iter_mut().filter(|p| p.piece == PieceKind::Treasure) {
        p.loaded_on = ships
            .iter()
            .find(|(_, hull)| hull.contains(p.center_mm))
            .map(|(id, _)| id.clone());
        p.on_island = p.loaded_on.is_none() && islands.iter().any(|i| i.contains(p.center_mm));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::crash_octopus::TreasureType;

    fn square(cx: f64, cy: f64, half: f64) -> PolygonMm {
        PolygonMm::new(vec![
            PointMm::new(cx - half, cy - half),
            PointMm::new(cx + half, cy - half),
            PointMm::new(cx + half, cy + half),
            PointMm::new(cx - half, cy + half),
        ])
    }

    fn piece(id: &str, kind: PieceKind, cx: f64, cy: f64, half: f64) -> PieceReport {
        PieceReport {
            treasure: (kind == PieceKind::Treasure).then_some(TreasureType::Gold),
            ..PieceReport::placed(id, kind, PointMm::new(cx, cy), square(cx, cy, half))
        }
    }

    #[test]
    fn the_centre_decides_in_or_out_and_the_outline_decides_on_the_string() {
        let ocean = square(0.0, 0.0, 100.0);
        let mut pieces = vec![
            piece("inside", PieceKind::Treasure, 0.0, 0.0, 10.0),
            piece("straddling_in", PieceKind::Treasure, 95.0, 0.0, 10.0),
            piece("straddling_out", PieceKind::Treasure, 105.0, 0.0, 10.0),
            piece("outside", PieceKind::Treasure, 150.0, 0.0, 10.0),
        ];
        classify_pieces(&mut pieces, &ocean);
        let flags: Vec<(bool, bool)> = pieces.iter().map(|p| (p.in_ocean, p.on_string)).collect();
        assert_eq!(
            flags,
            vec![(true, false), (true, true), (false, true), (false, false)]
        );
        assert!(!in_ocean(PointMm::default(), &PolygonMm::default()));
    }

    proptest::proptest! {
        #[test]
        fn on_string_is_the_outline_crossing(
            cx in -150.0..150.0f64, cy in -150.0..150.0f64,
            radii in proptest::collection::vec(1.0..40.0f64, 3..10),
        ) {
            let ocean = square(0.0, 0.0, 100.0);
            let n = radii.len() as f64;
            let footprint = PolygonMm::new(
                radii.iter().enumerate().map(|(i, r)| {
                    let a = i as f64 / n * std::f64::consts::TAU;
                    PointMm::new(cx + r * a.cos(), cy + r * a.sin())
                }).collect(),
            );
            let center = PointMm::new(cx, cy);
            proptest::prop_assert_eq!(
                on_string(&footprint, center, &ocean),
                footprint.intersects_outline(&ocean)
            );
        }
    }

    #[test]
    fn treasures_on_a_deck_or_the_island_are_found_by_their_centre() {
        let mut pieces = vec![
            piece("ship", PieceKind::Ship, 0.0, 0.0, 30.0),
            piece("isle", PieceKind::Island, 200.0, 0.0, 40.0),
            piece("on_deck", PieceKind::Treasure, 20.0, 0.0, 8.0),
            piece("on_isle", PieceKind::Treasure, 210.0, 10.0, 8.0),
            piece("touching_hull", PieceKind::Treasure, 36.0, 0.0, 8.0),
        ];
        assign_loads(&mut pieces);
        assert_eq!(pieces[2].loaded_on.as_deref(), Some("ship"));
        assert!(!pieces[2].on_island);
        assert!(pieces[3].on_island && pieces[3].loaded_on.is_none());
        assert!(pieces[4].loaded_on.is_none() && !pieces[4].on_island);
        assert!(pieces[0].loaded_on.is_none());
    }
}
