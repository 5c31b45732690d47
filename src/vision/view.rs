//! Parallax: where a raised point appears in a table-plane (top-down) rectification.
//!
//! Conventions: table frame, millimetres (spec/table.md); heights are millimetres above the
//! table (positive up). A rectified frame shows, at each table point, whatever the camera ray
//! through that table point hits first. A point `h` mm above table point `p` is therefore seen
//! where its ray meets the table: `nadir + (p - nadir) * H / (H - h)`, `H` the camera's height and
//! `nadir` the table point straight below the camera. This holds for any pinhole camera, lens
//! distortion included (the rectification undoes it). A tall piece thus leans away from the nadir
//! in the rectified view, and its footprint is where it touches the table, not the top of its
//! silhouette.

use super::solid::{Solid, convex_hull_of_rings};
use crate::table::{Camera, PointMm};

/// A camera must be at least this high above anything it looks at, mm.
pub const MIN_CLEARANCE_MM: f64 = 50.0;

/// The camera's position over the table, all parallax depends on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Viewpoint {
    /// The table point straight below the camera centre.
    pub nadir_mm: PointMm,
    /// Height of the camera centre above the table, mm (positive).
    pub height_mm: f64,
}

impl Viewpoint {
    /// The viewpoint of a calibrated camera; `None` when the camera is not above the table.
    pub fn of(camera: &Camera) -> Option<Self> {
        let c = camera.pose.camera_centre();
        let height_mm = -c.z;
        (height_mm.is_finite() && height_mm > MIN_CLEARANCE_MM && c.x.is_finite() && c.y.is_finite())
            .then_some(Self {
                nadir_mm: c.on_table(),
                height_mm,
            })
    }

    /// A camera infinitely far above (no parallax): for profiles without a camera pose.
    pub fn orthographic() -> Self {
        Self {
            nadir_mm: PointMm::default(),
            height_mm: f64::INFINITY,
        }
    }

    /// How much a point `h` mm up is pushed away from the nadir: `H / (H - h)`.
    pub fn lean_factor(&self, h_mm: f64) -> f64 {
        if !self.height_mm.is_finite() {
            return 1.0;
        }
        let clearance = (self.height_mm - h_mm).max(MIN_CLEARANCE_MM);
        self.height_mm / clearance
    }

    /// Where the point `h_mm` above table point `p` appears on the table plane.
    pub fn apparent(&self, p: PointMm, h_mm: f64) -> PointMm {
        self.nadir_mm + (p - self.nadir_mm) * self.lean_factor(h_mm)
    }

    /// The table point below a point seen at `apparent` that is `h_mm` up (inverse of
    /// [`Self::apparent`]).
    pub fn below(&self, apparent: PointMm, h_mm: f64) -> PointMm {
        self.nadir_mm + (apparent - self.nadir_mm) * (1.0 / self.lean_factor(h_mm))
    }
}

/// A pose of a piece on the table: footprint centre, angle (radians from +x towards +y) and the
/// height of the surface it stands on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pose2 {
    pub center_mm: PointMm,
    pub angle_rad: f64,
    pub base_mm: f64,
}

/// The silhouette of a solid in the rectified view: a union of convex polygons (table mm).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Silhouette {
    pub polygons: Vec<Vec<PointMm>>,
    /// The apparent outline of the solid's open top ([`Solid::mouth`]), inside the polygons.
    pub mouth: Option<Vec<PointMm>>,
}

impl Silhouette {
    /// The silhouette of `solid` at `pose` seen from `view`.
    pub fn of(solid: &Solid, pose: &Pose2, view: &Viewpoint) -> Self {
        let (s, c) = pose.angle_rad.sin_cos();
        let place = |q: PointMm, z: f64| {
            let p = PointMm::new(c * q.x - s * q.y, s * q.x + c * q.y) + pose.center_mm;
            view.apparent(p, pose.base_mm + z)
        };
        let mut polygons = Vec::new();
        let mut buf: Vec<PointMm> = Vec::with_capacity(64);
        // Where each placed section ends in `buf`: placed by a rotation, a lean and a shift, a
        // convex section stays convex, and the hull merges them ([`convex_hull_of_rings`]).
        let mut ends: Vec<usize> = Vec::with_capacity(8);
        for part in &solid.parts {
            if part.convex_body && part.sections.len() > 2 {
                buf.clear();
                ends.clear();
                for sec in &part.sections {
                    buf.extend(sec.outline.iter().map(|&q| place(q, sec.z_mm)));
                    ends.push(buf.len());
                }
                let hull = convex_hull_of_rings(&buf, &ends);
                if hull.len() >= 3 {
                    polygons.push(hull);
                }
                continue;
            }
            for pair in part.sections.windows(2) {
                buf.clear();
                ends.clear();
                for sec in pair {
                    buf.extend(sec.outline.iter().map(|&q| place(q, sec.z_mm)));
                    ends.push(buf.len());
                }
                let hull = convex_hull_of_rings(&buf, &ends);
                if hull.len() >= 3 {
                    polygons.push(hull);
                }
            }
        }
        let mouth = solid
            .mouth
            .as_ref()
            .map(|sec| sec.outline.iter().map(|&q| place(q, sec.z_mm)).collect());
        Self { polygons, mouth }
    }

    /// The bounding box (min, max), or `None` when empty.
    pub fn bounds(&self) -> Option<(PointMm, PointMm)> {
        crate::table::polygon::bounds_of(self.polygons.iter().flatten())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{Intrinsics, PointMm3, Pose};
    use nalgebra::Vector3;

    fn camera() -> Camera {
        Camera {
            intrinsics: Intrinsics::from_hfov(1280, 720, 70.0),
            pose: Pose::look_at(
                PointMm3::new(100.0, -500.0, -800.0),
                PointMm3::new(150.0, 100.0, 0.0),
                Vector3::new(0.0, -1.0, 0.0),
            )
            .unwrap(),
        }
    }

    #[test]
    fn apparent_position_is_where_the_ray_meets_the_table() {
        let cam = camera();
        let view = Viewpoint::of(&cam).unwrap();
        for &(x, y, h) in &[(0.0, 0.0, 20.0), (400.0, 300.0, 45.0), (-200.0, 50.0, 18.0)] {
            let p = PointMm::new(x, y);
            let expect = cam.apparent_table_position(p, h).unwrap();
            let got = view.apparent(p, h);
            assert!(got.distance(expect) < 1e-6, "{got:?} vs {expect:?}");
            assert!(view.below(got, h).distance(p) < 1e-9);
        }
    }

    #[test]
    fn design_example_leans_about_ten_mm() {
        // DESIGN.md: a 20 mm tall piece 400 mm off-centre under a camera at 800 mm.
        let view = Viewpoint {
            nadir_mm: PointMm::new(0.0, 0.0),
            height_mm: 800.0,
        };
        let lean = view.apparent(PointMm::new(400.0, 0.0), 20.0).x - 400.0;
        assert!((lean - 10.26).abs() < 0.01, "{lean}");
    }

    #[test]
    fn silhouettes_stretch_away_from_the_nadir() {
        let cat = crate::table::Catalog::default_catalog();
        let goblet = cat.entry("goblet").unwrap();
        let solid = Solid::of(goblet);
        let view = Viewpoint {
            nadir_mm: PointMm::new(0.0, 0.0),
            height_mm: 900.0,
        };
        let pose = Pose2 {
            center_mm: PointMm::new(500.0, 0.0),
            angle_rad: 0.0,
            base_mm: 0.0,
        };
        let (lo, hi) = Silhouette::of(&solid, &pose, &view).bounds().unwrap();
        // Foot at 489..511; the cup's rim (r 10.45 at 30 mm) reaches 510.45 * 900/870.
        assert!((lo.x - 489.0).abs() < 0.1, "{lo:?}");
        assert!((hi.x - 510.45 * 900.0 / 870.0).abs() < 0.2, "{hi:?}");
    }

    /// A part taken as one convex body must cover exactly what its consecutive section pairs
    /// cover (the plain reading of a part), from near and oblique viewpoints alike.
    #[test]
    fn one_hull_per_convex_part_covers_what_the_section_pairs_cover() {
        use crate::vision::fit::union_area_mm2;
        let cat = crate::table::Catalog::default_catalog();
        let views = [
            Viewpoint {
                nadir_mm: PointMm::new(0.0, 0.0),
                height_mm: 900.0,
            },
            Viewpoint {
                nadir_mm: PointMm::new(-300.0, -700.0),
                height_mm: 500.0,
            },
        ];
        let mut merged_parts = 0;
        for entry in &cat.pieces {
            let solid = Solid::of(entry);
            let mut pairs = solid.clone();
            for part in &mut pairs.parts {
                merged_parts += usize::from(part.convex_body && part.sections.len() > 2);
                part.convex_body = false;
            }
            for view in &views {
                for angle in [0.0, 0.9, 2.2] {
                    let pose = Pose2 {
                        center_mm: PointMm::new(420.0, 130.0),
                        angle_rad: angle,
                        base_mm: 0.0,
                    };
                    let one = union_area_mm2(&Silhouette::of(&solid, &pose, view).polygons);
                    let reference = union_area_mm2(&Silhouette::of(&pairs, &pose, view).polygons);
                    assert!(
                        (one - reference).abs() <= 0.01 * reference + 1.0,
                        "{}: {one} mm² as one hull vs {reference} mm² as pairs",
                        entry.name
                    );
                }
            }
        }
        // Domes and spheres (octopus heads, the crab, beads) are merged.
        assert!(merged_parts >= 3, "{merged_parts}");
    }
}
