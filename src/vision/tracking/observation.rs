//! What the tracker is fed: one analysed frame, and where on the table pieces can be seen at all.
//!
//! Conventions: table frame, millimetres (`../shared/spec/table.md`). Piece ids in an
//! observation are vision's per-frame labels: they need not be the same from one frame to the
//! next (the tracker gives the stable ones), only unique within the frame, and a treasure's
//! `loaded_on` names the ship by that frame's label.

use crate::calibrate::profile::Profile;
use crate::table::{CounterReport, PieceReport, PointMm, PointPx, PolygonMm};

/// Points sampled along each side of the image when its outline is carried onto the table
/// (lens distortion bends straight image edges).
const IMAGE_EDGE_SAMPLES: u32 = 8;

/// One analysed frame.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FrameObservation {
    /// Grows from frame to frame (frames may be skipped; a repeat or a step back is refused).
    pub seq: u64,
    /// Where the frame came from (an image file's name; empty for a live camera).
    pub image: String,
    pub pieces: Vec<PieceReport>,
    /// Something that is not a game piece (a hand, an arm) covers part of the ocean.
    pub obstructed: bool,
    /// The camera or the table no longer matches the calibration profile.
    pub view_moved: bool,
    /// The light changed suddenly across the whole frame (a lamp, a cloud, a door): colours
    /// and outlines of this frame cannot be trusted until vision has adapted.
    pub lighting_changed: bool,
    /// The Octo-Counter as read in this frame; passed on unchanged.
    pub counter: Option<CounterReport>,
}

/// Where pieces can be seen: used to tell a piece pushed out of view from one taken away.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TrackArea {
    /// Table regions the analysis covers (the camera image carried onto the table, the rectified
    /// area); a piece is seen only inside all of them. Empty: not known.
    pub view_mm: Vec<PolygonMm>,
    /// The ocean (the string's centre line); empty when not known.
    pub ocean_mm: PolygonMm,
}

impl TrackArea {
    /// The image's outline on the table and the ocean, from a calibration profile. Image points
    /// beyond the table's horizon (a steep tilt) are left out of the outline.
    pub fn from_profile(profile: &Profile) -> Self {
        let (w, h) = (
            f64::from(profile.image_size.width),
            f64::from(profile.image_size.height),
        );
        let corners = [
            PointPx::new(0.0, 0.0),
            PointPx::new(w, 0.0),
            PointPx::new(w, h),
            PointPx::new(0.0, h),
        ];
        let mut outline = Vec::new();
        for (i, &a) in corners.iter().enumerate() {
            let b = corners[(i + 1) % corners.len()];
            for s in 0..IMAGE_EDGE_SAMPLES {
                let t = f64::from(s) / f64::from(IMAGE_EDGE_SAMPLES);
                let p = PointPx::new(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
                if let Some(mm) = profile.px_to_mm(p).filter(|p| p.is_finite()) {
                    outline.push(mm);
                }
            }
        }
        let mut view_mm = Vec::new();
        if outline.len() >= 3 {
            view_mm.push(PolygonMm::new(outline));
        }
        if let Some(r) = &profile.reference {
            let (min, max) = r.grid.bounds_mm();
            view_mm.push(PolygonMm::new(vec![
                min,
                PointMm::new(max.x, min.y),
                max,
                PointMm::new(min.x, max.y),
            ]));
        }
        Self {
            view_mm,
            ocean_mm: profile
                .ocean
                .as_ref()
                .map(|o| o.polygon_mm.clone())
                .unwrap_or_default(),
        }
    }

    /// Whether a piece last seen at `center` was at the edge of what can be seen: within
    /// `margin_mm` of (or beyond) the outline of a view region or of the ocean. With neither
    /// known, every place counts as the edge: a piece is never silently taken off the table.
    pub fn at_edge(&self, center: PointMm, margin_mm: f64) -> bool {
        let near = |p: &PolygonMm| !p.contains(center) || p.distance_to_outline(center) <= margin_mm;
        let views: Vec<&PolygonMm> = self.view_mm.iter().filter(|p| p.len() >= 3).collect();
        let ocean = (self.ocean_mm.len() >= 3).then_some(&self.ocean_mm);
        if views.is_empty() && ocean.is_none() {
            return true;
        }
        views.into_iter().chain(ocean).any(near)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(lo: f64, hi: f64) -> PolygonMm {
        PolygonMm::new(vec![
            PointMm::new(lo, lo),
            PointMm::new(hi, lo),
            PointMm::new(hi, hi),
            PointMm::new(lo, hi),
        ])
    }

    #[test]
    fn a_profile_gives_the_image_outline_the_rectified_area_and_the_ocean() {
        let profile = crate::calibrate::profile::tests::sample_profile();
        let area = TrackArea::from_profile(&profile);
        assert_eq!(area.view_mm.len(), 2);
        let image = &area.view_mm[0];
        assert_eq!(image.len(), 4 * IMAGE_EDGE_SAMPLES as usize);
        // The camera looks at (140, 100): inside the image's outline, far from its edge.
        let target = PointMm::new(140.0, 100.0);
        assert!(image.contains(target) && image.distance_to_outline(target) > 200.0);
        // Each outline point is where the image border is seen.
        for p in image.points() {
            let px = profile.mm_to_px(*p).unwrap();
            let on_border = px.x.abs() < 1e-3
                || px.y.abs() < 1e-3
                || (px.x - 1280.0).abs() < 1e-3
                || (px.y - 720.0).abs() < 1e-3;
            assert!(on_border, "{px:?}");
        }
        assert_eq!(area.view_mm[1].points()[0], PointMm::new(-100.0, -50.0));
        assert_eq!(area.ocean_mm.len(), 3);
        assert!(area.at_edge(PointMm::new(5000.0, 5000.0), 40.0));
    }

    #[test]
    fn the_edge_is_near_the_view_or_the_ocean_outline() {
        let area = TrackArea {
            view_mm: vec![square(0.0, 1000.0)],
            ocean_mm: square(200.0, 800.0),
        };
        assert!(!area.at_edge(PointMm::new(500.0, 500.0), 40.0));
        assert!(area.at_edge(PointMm::new(500.0, 770.0), 40.0), "near the string");
        assert!(
            area.at_edge(PointMm::new(500.0, 900.0), 40.0),
            "outside the ocean"
        );
        assert!(
            area.at_edge(PointMm::new(500.0, 1200.0), 40.0),
            "outside the view"
        );
        let unknown = TrackArea::default();
        assert!(unknown.at_edge(PointMm::new(500.0, 500.0), 40.0));
        let view_only = TrackArea {
            view_mm: vec![square(0.0, 1000.0)],
            ocean_mm: PolygonMm::default(),
        };
        assert!(!view_only.at_edge(PointMm::new(500.0, 500.0), 40.0));
        assert!(view_only.at_edge(PointMm::new(980.0, 500.0), 40.0));
    }
}
