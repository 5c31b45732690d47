//! A piece's smoothed pose on the table and whether it has moved.
//!
//! Conventions: table frame, millimetres; angles in radians from the table's +x axis towards +y
//! (degrees only in `PieceReport::angle_deg`). A footprint with `k`-fold rotational symmetry
//! (a chest: 2, a hexagonal gem: 6) looks the same turned by `2π/k`, so vision may report its
//! angle modulo that: angles are averaged as unit vectors of `k·angle`, which makes a 180° flip
//! of a chest's reported angle no movement at all. Round footprints have no angle.

use super::config::TrackerConfig;
use crate::table::{PointMm, Shape};
use std::f64::consts::{PI, TAU};

/// How a footprint repeats when turned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Symmetry {
    /// Every turn leaves it unchanged: the angle means nothing.
    Round,
    /// Unchanged by turns of `2π / k` (k = 1: only a full turn).
    Fold(u32),
}

impl Symmetry {
    /// The symmetry of a catalog shape's footprint. Unknown shapes are taken as asymmetric,
    /// which is safe: a reported flip then counts as a turn.
    pub fn of(shape: Option<&Shape>) -> Self {
        match shape {
            None => Symmetry::Fold(1),
            Some(s) if s.is_round() => Symmetry::Round,
            Some(Shape::Cube { .. }) => Symmetry::Fold(4),
            Some(Shape::HexPrism { .. }) => Symmetry::Fold(6),
            Some(Shape::Box { .. } | Shape::Trapezoid { .. } | Shape::Oval { .. }) => Symmetry::Fold(2),
            Some(_) => Symmetry::Fold(1),
        }
    }

    fn fold(self) -> Option<f64> {
        match self {
            Symmetry::Round => None,
            Symmetry::Fold(k) => Some(f64::from(k.max(1))),
        }
    }

    /// The smallest turn, radians (0..=π/k), that takes angle `a` to angle `b` under this symmetry.
    pub fn turn_between(self, a: f64, b: f64) -> f64 {
        match self.fold() {
            None => 0.0,
            Some(k) => wrap_pi(k * (b - a)).abs() / k,
        }
    }
}

/// An angle taken into -π..π.
fn wrap_pi(a: f64) -> f64 {
    let r = (a + PI).rem_euclid(TAU) - PI;
    if r.is_finite() { r } else { 0.0 }
}

/// Where a piece is, smoothed over its sightings since it last moved.
#[derive(Debug, Clone, PartialEq)]
pub struct SmoothedPose {
    pub center: PointMm,
    /// `None` for round pieces and until vision has given an angle.
    pub angle: Option<f64>,
    symmetry: Symmetry,
    /// Footprint's farthest point from its centre, mm: turns are measured as its travel.
    reach_mm: f64,
    /// Sum of the unit vectors of `k·angle` weighted as the centre is (only the direction is used).
    angle_vector: Option<PointMm>,
    /// Sightings averaged since the last snap.
    samples: u32,
    /// The previous sighting's centre, when it was beyond the snap distance (and left out).
    far_sighting: Option<PointMm>,
    /// Where the piece came to rest; movement is measured from here.
    rest_center: PointMm,
    rest_angle: Option<f64>,
}

/// What one sighting did to the pose.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PoseUpdate {
    /// The piece has moved beyond the still tolerance since it came to rest: how far, mm.
    pub moved_mm: Option<f64>,
}

impl SmoothedPose {
    pub fn new(center: PointMm, angle: Option<f64>, symmetry: Symmetry, reach_mm: f64) -> Self {
        let angle = angle.filter(|_| symmetry != Symmetry::Round);
        Self {
            center,
            angle,
            symmetry,
            reach_mm: reach_mm.max(0.0),
            angle_vector: angle.zip(symmetry.fold()).map(|(a, k)| unit(k * a)),
            samples: 1,
            far_sighting: None,
            rest_center: center,
            rest_angle: angle,
        }
    }

    /// The latest sighting was far from the pose and left out: a glitch, or the start of a move.
    pub fn in_doubt(&self) -> bool {
        self.far_sighting.is_some()
    }

    /// How far a centre is from the piece: from the smoothed centre, or from the sighting left
    /// out last frame if that is nearer (the piece may have moved there), mm.
    pub fn association_distance_mm(&self, center: PointMm) -> f64 {
        let d = self.center.distance(center);
        self.far_sighting.map_or(d, |f| d.min(f.distance(center)))
    }

    /// How far a sighting is from the smoothed pose, mm (a turn counts as the travel of the
    /// footprint's farthest point).
    pub fn distance_mm(&self, center: PointMm, angle: Option<f64>) -> f64 {
        let turn = match (self.angle, angle) {
            (Some(a), Some(b)) => self.symmetry.turn_between(a, b) * self.reach_mm,
            _ => 0.0,
        };
        self.center.distance(center).max(turn)
    }

    /// Adds one sighting. Two sightings in a row farther than `snap_distance_mm` restart the
    /// average at the second (the piece moved); a single one is left out (a glitch). Nearer
    /// sightings join the running mean, weighted at least `min_smoothing_weight`.
    pub fn observe(&mut self, center: PointMm, angle: Option<f64>, config: &TrackerConfig) -> PoseUpdate {
        let angle = angle.filter(|_| self.symmetry != Symmetry::Round);
        if self.distance_mm(center, angle) > config.snap_distance_mm {
            if self.far_sighting.is_none() {
                // One far sighting is a glitch until the next one agrees.
                self.far_sighting = Some(center);
                return PoseUpdate { moved_mm: None };
            }
            let moved = self.distance_from_rest_mm(center, angle);
            self.restart(center, angle);
            self.rest_center = self.center;
            self.rest_angle = self.angle;
            return PoseUpdate {
                moved_mm: (moved > config.still_tolerance_mm).then_some(moved),
            };
        }
        self.far_sighting = None;
        self.samples = self.samples.saturating_add(1);
        let w = (1.0 / f64::from(self.samples)).max(config.min_smoothing_weight);
        self.center = self.center * (1.0 - w) + center * w;
        if let (Some(a), Some(k)) = (angle, self.symmetry.fold()) {
            let v = match self.angle_vector {
                Some(v) => v * (1.0 - w) + unit(k * a) * w,
                None => unit(k * a),
            };
            // Opposite sightings can cancel; keep the previous direction then.
            if v.norm() > f64::EPSILON {
                self.angle_vector = Some(v);
                self.angle = Some(v.y.atan2(v.x) / k);
            }
        }
        if 1.0 / f64::from(self.samples) > config.min_smoothing_weight {
            // Still a plain mean of a few sightings: that is where the piece rests (only a snap
            // counts as movement until then). Measuring from one noisy sighting would take
            // jitter for movement.
            self.rest_center = self.center;
            self.rest_angle = self.angle;
            return PoseUpdate { moved_mm: None };
        }
        let moved = self.distance_from_rest_mm(self.center, self.angle);
        if moved > config.still_tolerance_mm {
            // Moving: the average restarts at this sighting, so a piece pushed along is not
            // drawn behind where it is, and comes to rest on a fresh mean.
            self.restart(center, angle);
            self.rest_center = self.center;
            self.rest_angle = self.angle;
            return PoseUpdate {
                moved_mm: Some(moved),
            };
        }
        if self.rest_angle.is_none() {
            // A first angle is no movement.
            self.rest_angle = self.angle;
        }
        PoseUpdate { moved_mm: None }
    }
}

impl SmoothedPose {
    /// How far a pose is from where the piece came to rest, mm (turns as the travel of the
    /// footprint's farthest point).
    fn distance_from_rest_mm(&self, center: PointMm, angle: Option<f64>) -> f64 {
        let turn = match (self.rest_angle, angle) {
            (Some(a), Some(b)) => self.symmetry.turn_between(a, b) * self.reach_mm,
            _ => 0.0,
        };
        self.rest_center.distance(center).max(turn)
    }

    /// Starts the average afresh at one sighting.
    fn restart(&mut self, center: PointMm, angle: Option<f64>) {
        self.center = center;
        self.angle = angle.or(self.angle);
        self.angle_vector = self.angle.zip(self.symmetry.fold()).map(|(a, k)| unit(k * a));
        self.samples = 1;
        self.far_sighting = None;
    }
}

fn unit(a: f64) -> PointMm {
    PointMm::new(a.cos(), a.sin())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Catalog;

    fn cfg() -> TrackerConfig {
        TrackerConfig::default()
    }

    #[test]
    fn symmetry_follows_the_catalog_shape() {
        let c = Catalog::default_catalog();
        let shape = |name: &str| c.entry(name).map(|e| &e.shape);
        assert_eq!(Symmetry::of(shape("chest")), Symmetry::Fold(2));
        assert_eq!(Symmetry::of(shape("gem")), Symmetry::Fold(6));
        assert_eq!(Symmetry::of(shape("goblet")), Symmetry::Round);
        assert_eq!(Symmetry::of(shape("ship_blue")), Symmetry::Fold(1));
        assert_eq!(Symmetry::of(None), Symmetry::Fold(1));
    }

    #[test]
    fn a_flipped_chest_has_not_turned_but_a_flipped_ship_has() {
        let a = 0.3;
        assert!(Symmetry::Fold(2).turn_between(a, a + PI) < 1e-9);
        assert!((Symmetry::Fold(1).turn_between(a, a + PI) - PI).abs() < 1e-9);
        assert!((Symmetry::Fold(2).turn_between(0.1, -0.1) - 0.2).abs() < 1e-9);
        assert_eq!(Symmetry::Round.turn_between(0.0, 2.0), 0.0);
    }

    #[test]
    fn jitter_averages_out_and_does_not_count_as_movement() {
        let mut p = SmoothedPose::new(PointMm::new(100.0, 100.0), Some(0.5), Symmetry::Fold(1), 35.0);
        for i in 0..50 {
            let s = if i % 2 == 0 { 1.0 } else { -1.0 };
            let u = p.observe(
                PointMm::new(100.0 + 1.5 * s, 100.0 - 1.5 * s),
                Some(0.5 + 0.02 * s),
                &cfg(),
            );
            assert_eq!(u.moved_mm, None, "frame {i}");
        }
        assert!(
            p.center.distance(PointMm::new(100.0, 100.0)) < 0.5,
            "{:?}",
            p.center
        );
        assert!((p.angle.unwrap() - 0.5).abs() < 0.01);
    }

    #[test]
    fn a_real_move_snaps_and_counts_once() {
        let mut p = SmoothedPose::new(PointMm::new(0.0, 0.0), None, Symmetry::Round, 10.0);
        assert_eq!(p.observe(PointMm::new(39.0, 0.0), None, &cfg()).moved_mm, None);
        let u = p.observe(PointMm::new(40.0, 0.0), None, &cfg());
        assert!((u.moved_mm.unwrap() - 40.0).abs() < 1e-9);
        assert_eq!(p.center, PointMm::new(40.0, 0.0));
        assert_eq!(p.observe(PointMm::new(40.5, 0.0), None, &cfg()).moved_mm, None);
    }

    #[test]
    fn a_slow_creep_is_caught_by_the_rest_anchor() {
        let mut p = SmoothedPose::new(PointMm::new(0.0, 0.0), None, Symmetry::Round, 10.0);
        let mut moved_at = None;
        for i in 1..40 {
            let u = p.observe(PointMm::new(0.5 * f64::from(i), 0.0), None, &cfg());
            if u.moved_mm.is_some() {
                moved_at = Some(i);
                break;
            }
        }
        let i = moved_at.expect("a creep of 0.5 mm per frame must count as movement");
        assert!(i < 30, "{i}");
    }

    #[test]
    fn a_one_frame_glitch_is_left_out() {
        let mut p = SmoothedPose::new(PointMm::new(0.0, 0.0), Some(0.0), Symmetry::Fold(1), 35.0);
        for _ in 0..20 {
            p.observe(PointMm::new(0.0, 0.0), Some(0.0), &cfg());
        }
        // Ten millimetres off, then a flipped ship: each for one frame.
        assert_eq!(
            p.observe(PointMm::new(10.0, 0.0), Some(0.0), &cfg()).moved_mm,
            None
        );
        assert_eq!(
            p.observe(PointMm::new(0.0, 0.0), Some(0.0), &cfg()).moved_mm,
            None
        );
        assert_eq!(p.observe(PointMm::new(0.0, 0.0), Some(PI), &cfg()).moved_mm, None);
        assert_eq!(
            p.observe(PointMm::new(0.0, 0.0), Some(0.0), &cfg()).moved_mm,
            None
        );
        assert_eq!(p.center, PointMm::new(0.0, 0.0));
        assert_eq!(p.angle, Some(0.0));
    }

    #[test]
    fn a_turn_counts_as_the_travel_of_the_farthest_point() {
        let mut p = SmoothedPose::new(PointMm::new(0.0, 0.0), Some(0.0), Symmetry::Fold(1), 35.0);
        // 20 degrees at 35 mm is about 12 mm: beyond the snap distance.
        p.observe(PointMm::new(0.0, 0.0), Some(20f64.to_radians()), &cfg());
        let u = p.observe(PointMm::new(0.0, 0.0), Some(20f64.to_radians()), &cfg());
        assert!(u.moved_mm.unwrap() > 10.0);
        assert!((p.angle.unwrap() - 20f64.to_radians()).abs() < 1e-9);
    }
}
