//! Two treasures found in one place: one of them is the other seen twice.
//!
//! Conventions: footprints are table-frame polygons in millimetres (`table.md`), where a piece
//! touches the table or the deck it stands on. A `score` is what the detector weighs pieces by
//! (gain times quality): higher explains more pixels better.
//!
//! Why: a treasure's footprint is where it stands, and two treasures cannot stand on the same
//! spot of a table or a deck. A goblet, its dull cup over its foot, was found both as a goblet
//! and as a gold bar 1-3 mm from it, and a gem on a deck twice, 2 mm apart; an extra treasure
//! beside a ship may be named its closest. Of two treasures whose footprints share at least
//! [`STACKED_MIN_SHARE`] of the smaller one, the one that scores less is dropped.

use crate::table::{PointMm, PolygonMm};

/// Share of the smaller footprint two treasures' footprints must share to be one piece seen
/// twice. Treasures side by side share nothing; one leaning on another shares a sliver.
pub const STACKED_MIN_SHARE: f64 = 0.5;
/// Grid step over which the shared area is measured (mm): a treasure is 12-24 mm across.
const SAMPLE_STEP_MM: f64 = 0.5;

/// Which of `footprints` (treasures' footprints with their `scores`, same length) to drop: for
/// every pair sharing at least [`STACKED_MIN_SHARE`] of the smaller footprint, the one with the
/// lower score (the later one on a tie), unless it has already been dropped for another.
pub fn stacked_duplicates(footprints: &[PolygonMm], scores: &[f64]) -> Vec<bool> {
    let n = footprints.len().min(scores.len());
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
    let mut dropped = vec![false; footprints.len()];
    for (k, &keep) in order.iter().enumerate() {
        if dropped[keep] {
            continue;
        }
        for &other in &order[k + 1..] {
            if !dropped[other] && shared_share(&footprints[keep], &footprints[other]) >= STACKED_MIN_SHARE {
                dropped[other] = true;
            }
        }
    }
    dropped
}

/// The share of the smaller of `a` and `b` (by area) that lies inside the other, measured on a
/// [`SAMPLE_STEP_MM`] grid over the smaller one; 0 for footprints that do not overlap or are
/// degenerate.
pub fn shared_share(a: &PolygonMm, b: &PolygonMm) -> f64 {
    let (small, large) = if a.area() <= b.area() { (a, b) } else { (b, a) };
    let (Some((lo, hi)), Some((llo, lhi))) = (small.bounds(), large.bounds()) else {
        return 0.0;
    };
    if hi.x < llo.x || lhi.x < lo.x || hi.y < llo.y || lhi.y < lo.y || !small.is_finite() {
        return 0.0;
    }
    let (mut inside, mut shared) = (0usize, 0usize);
    let mut y = lo.y + SAMPLE_STEP_MM / 2.0;
    while y < hi.y {
        let mut x = lo.x + SAMPLE_STEP_MM / 2.0;
        while x < hi.x {
            let p = PointMm::new(x, y);
            if small.contains(p) {
                inside += 1;
                shared += usize::from(large.contains(p));
            }
            x += SAMPLE_STEP_MM;
        }
        y += SAMPLE_STEP_MM;
    }
    if inside == 0 {
        0.0
    } else {
        shared as f64 / inside as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(cx: f64, cy: f64, w: f64, h: f64) -> PolygonMm {
        PolygonMm::new(vec![
            PointMm::new(cx - w / 2.0, cy - h / 2.0),
            PointMm::new(cx + w / 2.0, cy - h / 2.0),
            PointMm::new(cx + w / 2.0, cy + h / 2.0),
            PointMm::new(cx - w / 2.0, cy + h / 2.0),
        ])
    }

    /// A goblet's foot: a 22 mm disc as a 24-gon.
    fn foot(cx: f64, cy: f64) -> PolygonMm {
        PolygonMm::new(
            (0..24)
                .map(|k| {
                    let a = k as f64 * std::f64::consts::TAU / 24.0;
                    PointMm::new(cx + 11.0 * a.cos(), cy + 11.0 * a.sin())
                })
                .collect(),
        )
    }

    #[test]
    fn the_share_is_of_the_smaller_footprint() {
        let big = rect(0.0, 0.0, 20.0, 20.0);
        assert!((shared_share(&big, &rect(0.0, 0.0, 10.0, 10.0)) - 1.0).abs() < 1e-9);
        // Half of a 10 mm square inside the big one.
        assert!((shared_share(&rect(10.0, 0.0, 10.0, 10.0), &big) - 0.5).abs() < 0.02);
        assert_eq!(shared_share(&big, &rect(30.0, 0.0, 10.0, 10.0)), 0.0);
        assert_eq!(shared_share(&big, &PolygonMm::new(Vec::new())), 0.0);
    }

    #[test]
    fn a_gold_bar_over_a_goblets_foot_is_dropped_and_treasures_side_by_side_stay() {
        let goblet = foot(0.0, 0.0);
        let bar_over_it = rect(2.0, 1.0, 20.0, 10.0);
        let bar_beside = rect(22.0, 0.0, 20.0, 10.0);
        let bar_touching = rect(-16.0, 0.0, 20.0, 10.0);
        assert_eq!(
            stacked_duplicates(&[goblet.clone(), bar_over_it.clone()], &[300.0, 120.0]),
            vec![false, true]
        );
        // The one that scores less goes, whichever kind it is.
        assert_eq!(
            stacked_duplicates(&[goblet.clone(), bar_over_it], &[100.0, 120.0]),
            vec![true, false]
        );
        assert_eq!(
            stacked_duplicates(
                &[goblet.clone(), bar_beside, bar_touching],
                &[300.0, 120.0, 110.0]
            ),
            vec![false, false, false]
        );
    }

    #[test]
    fn a_piece_dropped_for_one_does_not_drop_a_third() {
        // B overlaps both A and C; A outscores B, which outscores C; A and C are apart.
        let a = rect(0.0, 0.0, 16.0, 16.0);
        let b = rect(6.0, 0.0, 16.0, 16.0);
        let c = rect(12.0, 0.0, 16.0, 16.0);
        assert_eq!(
            stacked_duplicates(&[a, b, c], &[3.0, 2.0, 1.0]),
            vec![false, true, false]
        );
    }
}
