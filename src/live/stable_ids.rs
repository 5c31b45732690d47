//! The newest frame's reading under the tracker's stable ids, for what is drawn over the picture.
//!
//! Vision numbers the pieces afresh in every frame (`p1`, `p2`, ... in the order it found them),
//! while the settled rulings name them by the tracker's stable ids. Drawn as vision named them,
//! the picture's labels and the rulings beside it would call different pieces by one id (the
//! rulings' "captain (p16)" over an ink die labelled p16). So the frame's pieces are renamed with
//! the tracker's [`TrackedState::sightings`] and ruled again: the labels, the gaps, the closest
//! ring, the forbidden crosses and the out-of-ocean marks then all name pieces as the rulings do.
//!
//! [`TrackedState::sightings`]: crate::vision::tracking::TrackedState::sightings

use crate::referee::{FrameReport, GameContext, RefereeError};
use std::collections::BTreeMap;

/// The id of a piece vision sees that the tracker has not confirmed yet: `new1`, `new2`, ... in
/// the frame's order. Never a stable id's shape (`p<n>`), so it cannot be read as another piece.
pub const NEW_PIECE_PREFIX: &str = "new";

/// `report` with every piece renamed by `sightings` (vision's id -> stable id; a piece not in it
/// is named `new<k>`), ships named the same way in `loaded_on`, and ruled again for `ctx` when it
/// was ruled (a frame vision could not rule on stays unruled).
pub fn with_stable_ids(
    report: &FrameReport,
    sightings: &BTreeMap<String, String>,
    ctx: &GameContext,
) -> Result<FrameReport, RefereeError> {
    let mut names: BTreeMap<&str, String> = BTreeMap::new();
    let mut new = 0;
    for p in &report.pieces {
        let name = match sightings.get(&p.id) {
            Some(stable) => stable.clone(),
            None => {
                new += 1;
                format!("{NEW_PIECE_PREFIX}{new}")
            }
        };
        names.insert(p.id.as_str(), name);
    }
    let rename = |id: &str| names.get(id).cloned().unwrap_or_else(|| id.to_string());
    let mut out = report.clone();
    for p in &mut out.pieces {
        p.id = rename(&p.id);
        p.loaded_on = p.loaded_on.as_deref().map(rename);
    }
    if out.rulings.is_some() {
        out.rulings = None;
        out.rule(ctx)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::crash_octopus::TreasureType;
    use crate::table::{OceanReport, PieceKind, PieceReport, PointMm, PolygonMm};

    fn piece(id: &str, kind: PieceKind, treasure: Option<TreasureType>, x: f64) -> PieceReport {
        let footprint = PolygonMm::new(vec![
            PointMm::new(x - 5.0, -5.0),
            PointMm::new(x + 5.0, -5.0),
            PointMm::new(x + 5.0, 5.0),
            PointMm::new(x - 5.0, 5.0),
        ]);
        PieceReport {
            treasure,
            confidence: 0.9,
            ..PieceReport::placed(id, kind, PointMm::new(x, 0.0), footprint)
        }
    }

    fn frame(pieces: Vec<PieceReport>) -> FrameReport {
        let ocean = PolygonMm::new(vec![
            PointMm::new(-300.0, -300.0),
            PointMm::new(300.0, -300.0),
            PointMm::new(300.0, 300.0),
            PointMm::new(-300.0, 300.0),
        ]);
        FrameReport {
            image: "f".into(),
            ocean: OceanReport::new(ocean),
            pieces,
            counter: None,
            obstructed: false,
            view_moved: false,
            rulings: None,
        }
    }

    #[test]
    fn pieces_take_their_stable_ids_and_unconfirmed_ones_cannot_pass_for_another() {
        // Vision's p1 is the tracker's p2 and the other way round; vision's p3 is not confirmed
        // yet, and its own name is a stable id the tracker gave to another piece.
        let mut gold = piece("p1", PieceKind::Treasure, Some(TreasureType::Gold), 0.0);
        gold.loaded_on = Some("p2".into());
        let report = frame(vec![
            gold,
            piece("p2", PieceKind::Ship, None, 10.0),
            piece("p3", PieceKind::InkDie, None, 100.0),
        ]);
        let sightings = BTreeMap::from([("p1".to_string(), "p2".to_string()), ("p2".into(), "p1".into())]);
        let out = with_stable_ids(&report, &sightings, &GameContext::default()).unwrap();
        let ids: Vec<&str> = out.pieces.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["p2", "p1", "new1"]);
        assert_eq!(
            out.pieces[0].loaded_on.as_deref(),
            Some("p1"),
            "the ship by its stable id"
        );
        assert_eq!(out.pieces[2].piece, PieceKind::InkDie);
        assert!(out.rulings.is_none(), "an unruled frame stays unruled");
    }

    #[test]
    fn the_rulings_are_made_again_under_the_stable_ids() {
        let outside = piece("p1", PieceKind::Treasure, Some(TreasureType::Gold), 500.0);
        let mut report = frame(vec![
            outside,
            piece("p2", PieceKind::Treasure, Some(TreasureType::Gold), 0.0),
        ]);
        report.rule(&GameContext::default()).unwrap();
        let before = report.rulings.as_ref().unwrap();
        assert_eq!(before.out_of_ocean, ["p1"]);
        let sightings = BTreeMap::from([("p1".to_string(), "p7".to_string())]);
        let out = with_stable_ids(&report, &sightings, &GameContext::default()).unwrap();
        let after = out.rulings.as_ref().unwrap();
        assert_eq!(
            after.out_of_ocean,
            ["p7"],
            "the out-of-ocean mark names the stable id"
        );
        assert!(out.pieces.iter().any(|p| p.id == "p7" && !p.in_ocean));
    }
}
