//! Pieces as solids: what a catalog entry looks like in 3D, as stacks of horizontal sections.
//!
//! Conventions:
//! - The piece's own frame: millimetres, centre at the origin, angle 0 (the catalog footprint's
//!   frame, `Shape::local_footprint`), `z_mm` is the height above the surface the piece stands
//!   on (0 = its base).
//! - A solid is a union of [`Part`]s; a part is a list of convex [`Section`]s in rising `z_mm`.
//!   Between two consecutive sections the part is taken to be their convex hull (a frustum, a
//!   prism, a ring of a dome), so a part's outline seen from any viewpoint is the union of the
//!   hulls of consecutive section pairs. Non-convex footprints (anchor, tentacle, bottle) are cut
//!   into convex parts.
//!
//! The sections follow the catalog's description of each shape (table.md): a half sphere is a
//! dome, a "figure on a disc base" a base disc with a narrower body and a hat, a cup on a round
//! foot a foot, a stem and a cup widening to the top. Small ornaments (eyes, suckers, latches)
//! are left out: they change a silhouette by less than a millimetre.

use crate::table::{CatalogEntry, PointMm, Shape};

/// Vertices of a round section.
const ROUND_VERTICES: usize = 24;
/// Latitude steps of a dome.
const DOME_STEPS: usize = 6;
/// Tentacle band: inward bow of the chord (as `table::catalog`).
const TENTACLE_SAGITTA_RATIO: f64 = 0.2;
/// Tentacle band: segments along the arc (each a convex part).
const TENTACLE_SEGMENTS: usize = 6;
/// A cup's rim radius, as a share of its foot's (table.md: a cup widening to the top).
const CUP_RIM: f64 = 0.95;
/// Thickness of a cup's wall at its rim, mm: the mouth is the rim's outline this much inside.
const CUP_WALL_MM: f64 = 1.0;

/// The island's palm (its second colour), as the default set has it: the trunk stands at this
/// share of the island's diameter from its centre (x, y in the island's frame)...
const PALM_BASE_SHARE: (f64, f64) = (-0.22, 0.05);
/// ...its crown sits this far (mm) from the trunk's foot...
const PALM_CROWN_OFFSET_MM: (f64, f64) = (6.0, 3.0);
/// ...between these heights above the sand (mm), leaves spreading this far round it. Leaning
/// off the island on a tilted camera's view, the crown is part of the island, not a green
/// piece beside it.
const PALM_CROWN_Z_MM: (f64, f64) = (33.0, 37.0);
const PALM_CROWN_RADIUS_MM: f64 = 20.0;

/// One horizontal slice of a part: a convex outline at a height.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    pub z_mm: f64,
    /// Convex outline in the piece's frame, mm.
    pub outline: Vec<PointMm>,
}

/// A convex-sectioned part of a solid.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Part {
    pub sections: Vec<Section>,
    /// The part is the convex hull of all its sections (a dome, a sphere, a frustum), so its
    /// outline from any viewpoint is one convex polygon: the hull of every section's image.
    /// Set by [`Part::new`]; uniform scaling keeps it.
    pub convex_body: bool,
}

/// A piece as a union of parts.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Solid {
    pub parts: Vec<Part>,
    /// Total height, mm.
    pub height_mm: f64,
    /// The open top of a hollow piece (the goblet's cup). Through it the camera sees the
    /// piece's own inside in its own shade, which may look like bare table or a shadow: a fit
    /// does not count bare table or shadow there against the piece, while the piece's colour
    /// seen there still counts for it (see `raster::WeightMap::score_silhouette`).
    pub mouth: Option<Section>,
}

impl Part {
    /// A part of `sections` in rising `z_mm`.
    pub fn new(sections: Vec<Section>) -> Self {
        let convex_body = is_convex_body(&sections);
        Self {
            sections,
            convex_body,
        }
    }

    fn prism(outline: Vec<PointMm>, z0: f64, z1: f64) -> Self {
        Self::new(vec![
            Section {
                z_mm: z0,
                outline: outline.clone(),
            },
            Section { z_mm: z1, outline },
        ])
    }

    /// A solid of revolution from `(z, radius)` pairs, optionally stretched to an ellipse.
    fn revolved(profile: &[(f64, f64)], stretch: (f64, f64)) -> Self {
        Self::new(
            profile
                .iter()
                .map(|&(z, r)| Section {
                    z_mm: z,
                    outline: ellipse(r * stretch.0, r * stretch.1),
                })
                .collect(),
        )
    }
}

/// How far outside a section an interpolated point may lie and the stack still count as one
/// convex body, mm.
const CONVEX_BODY_TOLERANCE_MM: f64 = 0.05;

/// Whether the convex hull of all `sections` adds nothing to the union of the hulls of
/// consecutive pairs. The hull's cut at a section's height is the hull of where the segments
/// between vertices below and above cross that height; each of those points must lie in the
/// section (which is convex).
fn is_convex_body(sections: &[Section]) -> bool {
    if sections.len() <= 2 {
        return true;
    }
    for (i, mid) in sections.iter().enumerate().skip(1).take(sections.len() - 2) {
        for below in &sections[..i] {
            for above in &sections[i + 1..] {
                let span = above.z_mm - below.z_mm;
                if span <= 0.0 {
                    continue;
                }
                let t = (mid.z_mm - below.z_mm) / span;
                for &v in &below.outline {
                    for &w in &above.outline {
                        let p = v + (w - v) * t;
                        if outside_convex(&mid.outline, p) > CONVEX_BODY_TOLERANCE_MM {
                            return false;
                        }
                    }
                }
            }
        }
    }
    true
}

/// How far `p` lies outside a convex polygon (either winding), mm; 0 or less inside.
fn outside_convex(poly: &[PointMm], p: PointMm) -> f64 {
    let n = poly.len();
    if n < 3 {
        return f64::INFINITY;
    }
    let area2: f64 = (0..n)
        .map(|k| {
            let (a, b) = (poly[k], poly[(k + 1) % n]);
            a.x * b.y - b.x * a.y
        })
        .sum();
    let sign = if area2 >= 0.0 { 1.0 } else { -1.0 };
    (0..n)
        .map(|k| {
            let (a, b) = (poly[k], poly[(k + 1) % n]);
            let e = b - a;
            let len = e.norm();
            if len <= 0.0 {
                return f64::NEG_INFINITY;
            }
            // Positive to the right of an anticlockwise edge: outside.
            -sign * (e.x * (p.y - a.y) - e.y * (p.x - a.x)) / len
        })
        .fold(f64::NEG_INFINITY, f64::max)
}

fn ellipse(rx: f64, ry: f64) -> Vec<PointMm> {
    (0..ROUND_VERTICES)
        .map(|i| {
            let a = i as f64 / ROUND_VERTICES as f64 * std::f64::consts::TAU;
            PointMm::new(rx * a.cos(), ry * a.sin())
        })
        .collect()
}

fn rectangle(length: f64, width: f64) -> Vec<PointMm> {
    let (l, w) = (length / 2.0, width / 2.0);
    vec![
        PointMm::new(-l, -w),
        PointMm::new(l, -w),
        PointMm::new(l, w),
        PointMm::new(-l, w),
    ]
}

/// The outline scaled about its vertex mean (a uniform inset of a symmetric convex outline).
fn shrunk(outline: &[PointMm], factor: f64) -> Vec<PointMm> {
    let n = outline.len().max(1) as f64;
    let c = outline.iter().fold(PointMm::default(), |a, &p| a + p) * (1.0 / n);
    outline.iter().map(|&p| c + (p - c) * factor).collect()
}

/// A dome of semi-axes `(rx, ry)` and height `h` standing on `z0`.
fn dome(rx: f64, ry: f64, z0: f64, h: f64) -> Part {
    let sections = (0..=DOME_STEPS)
        .map(|k| {
            let phi = k as f64 / DOME_STEPS as f64 * std::f64::consts::FRAC_PI_2;
            // The top ring is a small disc rather than a point, so hulls stay well formed.
            let c = phi.cos().max(0.08);
            Section {
                z_mm: z0 + h * phi.sin(),
                outline: ellipse(rx * c, ry * c),
            }
        })
        .collect();
    Part::new(sections)
}

/// The island's palm crown: a flat disc of leaves above the sand (see [`PALM_BASE_SHARE`]).
fn palm_crown(diameter_mm: f64, sand_mm: f64) -> Part {
    let centre = PointMm::new(
        PALM_BASE_SHARE.0 * diameter_mm + PALM_CROWN_OFFSET_MM.0,
        PALM_BASE_SHARE.1 * diameter_mm + PALM_CROWN_OFFSET_MM.1,
    );
    let leaves: Vec<PointMm> = ellipse(PALM_CROWN_RADIUS_MM, PALM_CROWN_RADIUS_MM)
        .into_iter()
        .map(|p| p + centre)
        .collect();
    Part::new(vec![
        Section {
            z_mm: sand_mm + PALM_CROWN_Z_MM.0,
            outline: leaves.clone(),
        },
        Section {
            z_mm: sand_mm + PALM_CROWN_Z_MM.1,
            outline: leaves,
        },
    ])
}

impl Solid {
    /// Height of its highest point, mm (above `height_mm` where a part stands on the piece: the
    /// island's palm).
    pub fn top_mm(&self) -> f64 {
        self.parts
            .iter()
            .flat_map(|p| p.sections.iter().map(|s| s.z_mm))
            .fold(self.height_mm, f64::max)
    }

    /// The solid of a catalog entry.
    pub fn of(entry: &CatalogEntry) -> Solid {
        let h = entry.height_mm;
        let mut mouth = None;
        let parts = match entry.shape {
            Shape::HalfSphere { diameter_mm } => vec![dome(diameter_mm / 2.0, diameter_mm / 2.0, 0.0, h)],
            Shape::Sphere { diameter_mm } => {
                let r = diameter_mm / 2.0;
                vec![Part::revolved(
                    &[
                        (0.0, 0.3 * r),
                        (0.5 * r, 0.87 * r),
                        (r, r),
                        (1.5 * r, 0.87 * r),
                        (2.0 * r, 0.3 * r),
                    ],
                    (1.0, 1.0),
                )]
            }
            Shape::CurvedBand {
                chord_mm,
                thickness_mm,
            } => curved_band(chord_mm, thickness_mm, h),
            Shape::Hull { .. } | Shape::Box { .. } | Shape::Cube { .. } | Shape::HexPrism { .. } => {
                vec![Part::prism(entry.shape.local_footprint(), 0.0, h)]
            }
            Shape::Trapezoid {
                length_mm,
                width_mm,
                top_inset_mm,
            } => vec![Part::new(vec![
                Section {
                    z_mm: 0.0,
                    outline: rectangle(length_mm, width_mm),
                },
                Section {
                    z_mm: h,
                    outline: rectangle(
                        (length_mm - 2.0 * top_inset_mm).max(1.0),
                        (width_mm - 2.0 * top_inset_mm).max(1.0),
                    ),
                },
            ])],
            Shape::AnchorOutline { length_mm, width_mm } => anchor(length_mm, width_mm, h),
            Shape::Disc { diameter_mm } => {
                let r = diameter_mm / 2.0;
                vec![Part::revolved(
                    &[(0.0, r), (0.8 * h, 0.94 * r), (h, 0.6 * r)],
                    (1.0, 1.0),
                )]
            }
            Shape::Blob { diameter_mm } => {
                let outline = entry.shape.local_footprint();
                let sand = Part::new(vec![
                    Section {
                        z_mm: 0.0,
                        outline: convex_hull(&outline),
                    },
                    Section {
                        z_mm: h,
                        outline: shrunk(&convex_hull(&outline), 0.94),
                    },
                ]);
                match entry.secondary_colour {
                    Some(_) => vec![sand, palm_crown(diameter_mm, h)],
                    None => vec![sand],
                }
            }
            Shape::FigureOnDisc { base_diameter_mm } => {
                let r = base_diameter_mm / 2.0;
                // Base disc, body, head, hat brim, hat crown (fractions of the height).
                vec![
                    Part::revolved(&[(0.0, r), (0.09 * h, 0.95 * r)], (1.0, 1.0)),
                    Part::revolved(
                        &[
                            (0.09 * h, 0.62 * r),
                            (0.62 * h, 0.5 * r),
                            (0.72 * h, 0.5 * r),
                            (0.80 * h, 0.45 * r),
                        ],
                        (1.0, 1.0),
                    ),
                    Part::revolved(
                        &[
                            (0.80 * h, 0.68 * r),
                            (0.84 * h, 0.68 * r),
                            (0.84 * h, 0.46 * r),
                            (h, 0.42 * r),
                        ],
                        (1.0, 1.0),
                    ),
                ]
            }
            Shape::Cup { foot_diameter_mm } => {
                let r = foot_diameter_mm / 2.0;
                let rim = (CUP_RIM * r - CUP_WALL_MM).max(0.5 * CUP_RIM * r);
                mouth = Some(Section {
                    z_mm: h,
                    outline: ellipse(rim, rim),
                });
                vec![
                    Part::revolved(&[(0.0, r), (0.08 * h, 0.75 * r)], (1.0, 1.0)),
                    Part::revolved(&[(0.08 * h, 0.22 * r), (0.45 * h, 0.22 * r)], (1.0, 1.0)),
                    Part::revolved(&[(0.45 * h, 0.35 * r), (h, CUP_RIM * r)], (1.0, 1.0)),
                ]
            }
            Shape::LyingBottle {
                length_mm,
                diameter_mm,
            } => bottle(length_mm, diameter_mm),
            Shape::Oval { length_mm, width_mm } => {
                let (a, b) = (length_mm / 2.0, width_mm / 2.0);
                vec![
                    Part::revolved(&[(0.0, 1.0), (0.3 * h, 0.8)], (a, b)),
                    dome(0.78 * a, 0.82 * b, 0.3 * h, 0.7 * h),
                ]
            }
        };
        Solid {
            parts,
            height_mm: h,
            mouth,
        }
    }

    /// Makes the solid `k` times larger in every direction (a taught size).
    pub fn scale(&mut self, k: f64) {
        let sections = self.parts.iter_mut().flat_map(|p| p.sections.iter_mut());
        for sec in sections.chain(self.mouth.iter_mut()) {
            sec.z_mm *= k;
            for p in &mut sec.outline {
                *p = *p * k;
            }
        }
        self.height_mm *= k;
    }
}

fn curved_band(chord: f64, thickness: f64, h: f64) -> Vec<Part> {
    let sagitta = chord * TENTACLE_SAGITTA_RATIO;
    let radius = (chord * chord / 4.0 + sagitta * sagitta) / (2.0 * sagitta);
    let half_angle = (chord / 2.0 / radius).asin();
    let centre_y = radius - sagitta / 2.0;
    let (ro, ri) = (radius + thickness / 2.0, radius - thickness / 2.0);
    let at = |r: f64, a: f64| {
        let (s, c) = a.sin_cos();
        PointMm::new(r * s, centre_y - r * c)
    };
    (0..TENTACLE_SEGMENTS)
        .map(|i| {
            let a0 = -half_angle + 2.0 * half_angle * i as f64 / TENTACLE_SEGMENTS as f64;
            let a1 = -half_angle + 2.0 * half_angle * (i + 1) as f64 / TENTACLE_SEGMENTS as f64;
            let quad = vec![at(ro, a0), at(ro, a1), at(ri, a1), at(ri, a0)];
            Part::prism(quad, 0.0, h)
        })
        .collect()
}

fn anchor(length: f64, width: f64, h: f64) -> Vec<Part> {
    // The catalog's anchor outline (ring bar, shank, crown with two flukes) in convex pieces.
    let (l, w) = (length / 2.0, width / 2.0);
    let shank = width * 0.18;
    let p = PointMm::new;
    let ring = vec![
        p(-l, -w * 0.35),
        p(-l + 0.25 * length, -w * 0.35),
        p(-l + 0.25 * length, w * 0.35),
        p(-l, w * 0.35),
    ];
    let shaft = vec![
        p(-l + 0.25 * length, -shank),
        p(l - 0.3 * length, -shank),
        p(l - 0.3 * length, shank),
        p(-l + 0.25 * length, shank),
    ];
    let crown = vec![
        p(l - 0.3 * length, -shank),
        p(l, -w * 0.4),
        p(l, w * 0.4),
        p(l - 0.3 * length, shank),
    ];
    let fluke_a = vec![
        p(l - 0.3 * length, -shank),
        p(l - 0.45 * length, -w),
        p(l, -w * 0.4),
    ];
    let fluke_b = vec![p(l - 0.3 * length, shank), p(l, w * 0.4), p(l - 0.45 * length, w)];
    [ring, shaft, crown, fluke_a, fluke_b]
        .into_iter()
        .map(|o| Part::prism(o, 0.0, h))
        .collect()
}

fn bottle(length: f64, diameter: f64) -> Vec<Part> {
    // Lying on its side: full width at mid height, narrowing to its contact line below and its
    // ridge above.
    let (l, r) = (length / 2.0, diameter / 2.0);
    let neck = r * 0.45;
    let shoulder = l - 0.35 * length;
    let body_at = |k: f64| {
        let mut pts = Vec::new();
        for i in 0..=8 {
            let a = std::f64::consts::FRAC_PI_2 + std::f64::consts::PI * i as f64 / 8.0;
            pts.push(PointMm::new(-l + r + r * a.cos(), -r * k * a.sin()));
        }
        pts.push(PointMm::new(shoulder, -r * k));
        pts.push(PointMm::new(shoulder, r * k));
        pts.reverse();
        convex_hull(&pts)
    };
    let neck_at = |k: f64| {
        convex_hull(&[
            PointMm::new(shoulder, r * k),
            PointMm::new(shoulder + 0.15 * length, neck * k),
            PointMm::new(l, neck * k),
            PointMm::new(l, -neck * k),
            PointMm::new(shoulder + 0.15 * length, -neck * k),
            PointMm::new(shoulder, -r * k),
        ])
    };
    let levels = [
        (0.0, 0.25),
        (0.5 * r, 0.87),
        (r, 1.0),
        (1.5 * r, 0.87),
        (2.0 * r, 0.25),
    ];
    let body = Part::new(
        levels
            .iter()
            .map(|&(z, k)| Section {
                z_mm: z,
                outline: body_at(k),
            })
            .collect(),
    );
    let neck_part = Part::new(
        levels
            .iter()
            .map(|&(z, k)| Section {
                z_mm: z,
                outline: neck_at(k),
            })
            .collect(),
    );
    vec![body, neck_part]
}

/// Convex hull (Andrew's monotone chain), counter-clockwise in a y-up frame, no repeated point.
///
/// Every pose a fit tries takes a few hulls: the points are sorted unstably (two points that
/// compare equal on both coordinates by `total_cmp` are the same bits, so the order is the
/// stable sort's) and both chains are built in one buffer (the test's plain routine builds
/// them apart; the hulls are the same, point for point).
pub fn convex_hull(points: &[PointMm]) -> Vec<PointMm> {
    let mut pts: Vec<PointMm> = points.iter().copied().filter(|p| p.is_finite()).collect();
    pts.sort_unstable_by(lexical);
    hull_of_sorted(pts)
}

/// Points in the order [`convex_hull`] sorts them: by x, then y (`total_cmp`).
fn lexical(a: &PointMm, b: &PointMm) -> std::cmp::Ordering {
    a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y))
}

/// [`convex_hull`] of `points` laid out as consecutive rings, ring `k` ending before
/// `ring_ends[k]`, each ring a convex polygon in either orientation (a section's outline placed
/// by a rotation, a lean and a shift): the same hull, point for point, with fewer comparisons.
/// Split at its least and greatest points, a convex ring is two runs already in
/// [`convex_hull`]'s order; the runs and rings are merged. Merged points that come out of order
/// (rounding bent a ring, or it is not convex) are sorted after all: a sorted list of the same
/// points is the same list. A point that is not finite, or ends that do not cover `points`,
/// fall back to [`convex_hull`].
pub fn convex_hull_of_rings(points: &[PointMm], ring_ends: &[usize]) -> Vec<PointMm> {
    let whole =
        ring_ends.last().copied().unwrap_or(0) == points.len() && ring_ends.windows(2).all(|w| w[0] <= w[1]);
    if !whole || !points.iter().all(|p| p.is_finite()) {
        return convex_hull(points);
    }
    let mut pts: Vec<PointMm> = Vec::with_capacity(points.len());
    MERGE_SCRATCH.with_borrow_mut(|(ring_sorted, merged)| {
        let mut start = 0;
        for &end in ring_ends {
            let ring = &points[start..end];
            start = end;
            if pts.is_empty() {
                merge_runs(ring, &mut pts);
                continue;
            }
            ring_sorted.clear();
            merge_runs(ring, ring_sorted);
            merged.clear();
            merge_into(&pts, ring_sorted, merged);
            pts.clear();
            pts.extend_from_slice(merged);
        }
    });
    // The merges compare numerically; `lexical` tells -0 from +0 as well.
    if pts
        .windows(2)
        .any(|w| lexical(&w[0], &w[1]) == std::cmp::Ordering::Greater)
    {
        pts.sort_unstable_by(lexical);
    }
    hull_of_sorted(pts)
}

thread_local! {
    /// [`convex_hull_of_rings`]'s buffers, kept between calls (a fit takes hundreds of hulls).
    static MERGE_SCRATCH: std::cell::RefCell<(Vec<PointMm>, Vec<PointMm>)> =
        const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
}

/// `a` comes before `b` in x, then y (finite points; [`lexical`] but for the sign of zero).
#[inline(always)]
fn before(a: PointMm, b: PointMm) -> bool {
    a.x < b.x || (a.x == b.x && a.y < b.y)
}

/// A ring's points appended to `out`: its run forwards from its least point to its greatest,
/// merged with its run backwards from the point before the least; in order ([`before`]) when
/// the ring is convex.
fn merge_runs(ring: &[PointMm], out: &mut Vec<PointMm>) {
    let n = ring.len();
    if n == 0 {
        return;
    }
    let (mut least, mut greatest) = (0, 0);
    for (i, &p) in ring.iter().enumerate().skip(1) {
        if before(p, ring[least]) {
            least = i;
        }
        if before(ring[greatest], p) {
            greatest = i;
        }
    }
    let forward_len = (greatest + n - least) % n + 1;
    let backward_len = n - forward_len;
    let next = |i: usize| if i + 1 == n { 0 } else { i + 1 };
    let previous = |i: usize| if i == 0 { n - 1 } else { i - 1 };
    let (mut f, mut taken_f) = (least, 0);
    let (mut b, mut taken_b) = (previous(least), 0);
    while taken_f < forward_len && taken_b < backward_len {
        let (pf, pb) = (ring[f], ring[b]);
        if before(pb, pf) {
            out.push(pb);
            b = previous(b);
            taken_b += 1;
        } else {
            out.push(pf);
            f = next(f);
            taken_f += 1;
        }
    }
    for _ in taken_f..forward_len {
        out.push(ring[f]);
        f = next(f);
    }
    for _ in taken_b..backward_len {
        out.push(ring[b]);
        b = previous(b);
    }
}

/// Two lists merged into `out`, the lesser head first ([`before`]; in order when both are).
fn merge_into(a: &[PointMm], b: &[PointMm], out: &mut Vec<PointMm>) {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if before(b[j], a[i]) {
            out.push(b[j]);
            j += 1;
        } else {
            out.push(a[i]);
            i += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
}

/// Andrew's monotone chain over points already in [`lexical`] order.
fn hull_of_sorted(mut pts: Vec<PointMm>) -> Vec<PointMm> {
    pts.dedup_by(|a, b| (a.x - b.x).abs() < 1e-12 && (a.y - b.y).abs() < 1e-12);
    if pts.len() < 3 {
        return pts;
    }
    let cross = |o: PointMm, a: PointMm, b: PointMm| (a - o).cross(b - o);
    let n = pts.len();
    let mut hull: Vec<PointMm> = Vec::with_capacity(2 * n);
    for &p in &pts {
        while hull.len() >= 2 && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0 {
            hull.pop();
        }
        hull.push(p);
    }
    // The upper chain starts at the lower chain's last point, which it never pops.
    let lower = hull.len();
    for &p in pts[..n - 1].iter().rev() {
        while hull.len() > lower && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0 {
            hull.pop();
        }
        hull.push(p);
    }
    // Its last point is the first point again.
    hull.pop();
    hull
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{Catalog, PolygonMm};

    /// [`convex_hull`] as first written: a stable sort and the two chains built apart.
    fn plain_convex_hull(points: &[PointMm]) -> Vec<PointMm> {
        let mut pts: Vec<PointMm> = points.iter().copied().filter(|p| p.is_finite()).collect();
        pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
        pts.dedup_by(|a, b| (a.x - b.x).abs() < 1e-12 && (a.y - b.y).abs() < 1e-12);
        if pts.len() < 3 {
            return pts;
        }
        let cross = |o: PointMm, a: PointMm, b: PointMm| (a - o).cross(b - o);
        let mut lower: Vec<PointMm> = Vec::with_capacity(pts.len());
        for &p in &pts {
            while lower.len() >= 2 && cross(lower[lower.len() - 2], lower[lower.len() - 1], p) <= 0.0 {
                lower.pop();
            }
            lower.push(p);
        }
        let mut upper: Vec<PointMm> = Vec::with_capacity(pts.len());
        for &p in pts.iter().rev() {
            while upper.len() >= 2 && cross(upper[upper.len() - 2], upper[upper.len() - 1], p) <= 0.0 {
                upper.pop();
            }
            upper.push(p);
        }
        lower.pop();
        upper.pop();
        lower.extend(upper);
        lower
    }

    proptest::proptest! {
        #[test]
        fn the_hull_is_point_for_point_the_plain_routine(
            points in proptest::collection::vec(
                (-50.0..50.0f64, -50.0..50.0f64, proptest::bool::ANY),
                0..40,
            ),
        ) {
            // Snapped to a coarse grid half the time: repeated points, collinear runs, ties.
            let points: Vec<PointMm> = points
                .into_iter()
                .map(|(x, y, snap)| if snap { PointMm::new(x.round() / 8.0, y.round() / 8.0) } else { PointMm::new(x, y) })
                .collect();
            let fast = convex_hull(&points);
            let plain = plain_convex_hull(&points);
            let bits = |h: &[PointMm]| h.iter().map(|p| (p.x.to_bits(), p.y.to_bits())).collect::<Vec<_>>();
            proptest::prop_assert_eq!(bits(&fast), bits(&plain));
        }
    }

    /// A convex ring of up to 24 points (some on a coarse grid: ties and collinear runs), in
    /// either orientation, starting anywhere round it.
    fn ring() -> impl proptest::strategy::Strategy<Value = Vec<PointMm>> {
        use proptest::prelude::*;
        (
            proptest::collection::vec((-30.0..30.0f64, -30.0..30.0f64), 0..24),
            proptest::bool::ANY,
            proptest::bool::ANY,
            0..24usize,
            (
                -40.0..40.0f64,
                -40.0..40.0f64,
                0.0..std::f64::consts::TAU,
                0.5..2.0f64,
            ),
        )
            .prop_map(|(pts, snap, reverse, start, (dx, dy, angle, scale))| {
                let pts: Vec<PointMm> = pts
                    .into_iter()
                    .map(|(x, y)| {
                        if snap {
                            PointMm::new(x.round() / 4.0, y.round() / 4.0)
                        } else {
                            PointMm::new(x, y)
                        }
                    })
                    .collect();
                let (s, c) = angle.sin_cos();
                let mut ring: Vec<PointMm> = convex_hull(&pts)
                    .into_iter()
                    .map(|p| {
                        PointMm::new(c * p.x - s * p.y, s * p.x + c * p.y) * scale + PointMm::new(dx, dy)
                    })
                    .collect();
                if reverse {
                    ring.reverse();
                }
                if !ring.is_empty() {
                    let k = start % ring.len();
                    ring.rotate_left(k);
                }
                ring
            })
    }

    proptest::proptest! {
        #[test]
        fn the_hull_of_convex_rings_is_point_for_point_the_hull_of_their_points(
            rings in proptest::collection::vec(ring(), 1..5),
            bent in proptest::option::of((0..100usize, -5.0..5.0f64, -5.0..5.0f64)),
        ) {
            let mut points: Vec<PointMm> = Vec::new();
            let mut ends = Vec::new();
            for r in &rings {
                points.extend(r);
                ends.push(points.len());
            }
            // Now and then a point moved off its ring: a ring that is no longer convex.
            if let Some((k, dx, dy)) = bent.filter(|_| !points.is_empty()) {
                let k = k % points.len();
                points[k] = points[k] + PointMm::new(dx, dy);
            }
            let bits = |h: &[PointMm]| h.iter().map(|p| (p.x.to_bits(), p.y.to_bits())).collect::<Vec<_>>();
            proptest::prop_assert_eq!(bits(&convex_hull_of_rings(&points, &ends)), bits(&convex_hull(&points)));
        }
    }

    #[test]
    fn convex_rings_are_merged_and_the_rest_falls_back_to_sorting() {
        let square = |x: f64, y: f64| {
            vec![
                PointMm::new(x, y),
                PointMm::new(x + 2.0, y),
                PointMm::new(x + 2.0, y + 2.0),
                PointMm::new(x, y + 2.0),
            ]
        };
        let mut two = square(0.0, 0.0);
        two.extend(square(1.0, 1.0).into_iter().rev());
        let mut runs = Vec::new();
        merge_runs(&two[4..], &mut runs);
        let p = PointMm::new;
        assert_eq!(
            runs,
            vec![p(1.0, 1.0), p(1.0, 3.0), p(3.0, 1.0), p(3.0, 3.0)],
            "in order"
        );
        let hull = convex_hull_of_rings(&two, &[4, 8]);
        assert_eq!(hull, convex_hull(&two));
        assert_eq!(hull.len(), 6);
        // A ring that is not convex, ends that miss points, a point at infinity: as sorted.
        let dent = vec![
            PointMm::new(0.0, 0.0),
            PointMm::new(4.0, 0.0),
            PointMm::new(2.0, 1.0),
            PointMm::new(4.0, 4.0),
            PointMm::new(0.0, 4.0),
        ];
        let mut runs = Vec::new();
        merge_runs(&dent, &mut runs);
        assert!(
            runs.windows(2)
                .any(|w| lexical(&w[0], &w[1]) == std::cmp::Ordering::Greater)
        );
        assert_eq!(convex_hull_of_rings(&dent, &[5]), convex_hull(&dent));
        assert_eq!(convex_hull_of_rings(&two, &[4]), convex_hull(&two));
        let mut far = two.clone();
        far[2] = PointMm::new(f64::INFINITY, 0.0);
        assert_eq!(convex_hull_of_rings(&far, &[4, 8]), convex_hull(&far));
    }

    #[test]
    fn the_island_carries_its_palm_crown_off_centre_above_the_sand_and_only_it_rises_past_its_height() {
        let cat = Catalog::default_catalog();
        for e in &cat.pieces {
            let solid = Solid::of(e);
            let past = solid.top_mm() > solid.height_mm;
            assert_eq!(past, matches!(e.shape, Shape::Blob { .. }), "{}", e.name);
        }
        let island = cat.entry("island").unwrap();
        let solid = Solid::of(island);
        let crown = solid.parts.last().unwrap();
        let z: Vec<f64> = crown.sections.iter().map(|s| s.z_mm).collect();
        assert_eq!(
            z,
            vec![
                island.height_mm + PALM_CROWN_Z_MM.0,
                island.height_mm + PALM_CROWN_Z_MM.1
            ]
        );
        let centre = PolygonMm::new(crown.sections[0].outline.clone()).centroid();
        // The trunk stands left of the island's centre (x < 0): the crown is not centred on it.
        assert!(
            centre.x < -10.0 && centre.distance(PointMm::new(0.0, 0.0)) > 10.0,
            "{centre:?}"
        );
        // Without a second colour there is no palm.
        let mut bare = island.clone();
        bare.secondary_colour = None;
        assert_eq!(Solid::of(&bare).parts.len(), 1);
    }

    #[test]
    fn only_the_cup_is_open_at_the_top_inside_its_rim_and_scaling_keeps_it_so() {
        let cat = Catalog::default_catalog();
        for e in &cat.pieces {
            let solid = Solid::of(e);
            assert_eq!(
                solid.mouth.is_some(),
                matches!(e.shape, Shape::Cup { .. }),
                "{}",
                e.name
            );
        }
        let goblet = cat.entry("goblet").unwrap();
        let mut cup = Solid::of(goblet);
        let mouth = cup.mouth.clone().unwrap();
        let rim = cup.parts.last().unwrap().sections.last().unwrap().clone();
        assert_eq!(mouth.z_mm, goblet.height_mm);
        assert_eq!(rim.z_mm, goblet.height_mm);
        let rim_poly = PolygonMm::new(rim.outline.clone());
        for &p in &mouth.outline {
            assert!(rim_poly.contains(p), "{p:?} outside the rim");
            assert!(
                (rim_poly.distance_to_outline(p) - CUP_WALL_MM).abs() < 0.1,
                "{p:?}"
            );
        }
        cup.scale(2.0);
        let scaled = cup.mouth.unwrap();
        assert_eq!(scaled.z_mm, 2.0 * mouth.z_mm);
        assert_eq!(scaled.outline[0], mouth.outline[0] * 2.0);
        assert_eq!(cup.height_mm, 2.0 * goblet.height_mm);
    }

    #[test]
    fn every_solid_stands_on_its_footprint() {
        let cat = Catalog::default_catalog();
        for e in &cat.pieces {
            let solid = Solid::of(e);
            assert!(!solid.parts.is_empty(), "{}", e.name);
            let fp = PolygonMm::new(e.shape.local_footprint());
            let mut top: f64 = 0.0;
            for part in &solid.parts {
                assert!(part.sections.len() >= 2, "{}", e.name);
                for w in part.sections.windows(2) {
                    assert!(w[0].z_mm <= w[1].z_mm, "{}: sections must rise", e.name);
                }
                for s in &part.sections {
                    top = top.max(s.z_mm);
                    for &p in &s.outline {
                        assert!(
                            fp.contains(p) || fp.distance_to_outline(p) < 0.8,
                            "{}: {p:?} outside the footprint",
                            e.name
                        );
                    }
                }
            }
            assert!((top - solid.top_mm()).abs() < 1e-9, "{}: top {top}", e.name);
            // Every piece rises to its catalog height; only the island's palm rises past it
            // (see the palm's own test).
            if !matches!(e.shape, Shape::Blob { .. }) {
                assert!((top - e.height_mm).abs() < 1e-9, "{}: top {top}", e.name);
            }
        }
    }

    #[test]
    fn hull_of_a_square_with_an_inner_point() {
        let h = convex_hull(&[
            PointMm::new(0.0, 0.0),
            PointMm::new(1.0, 0.0),
            PointMm::new(0.5, 0.5),
            PointMm::new(1.0, 1.0),
            PointMm::new(0.0, 1.0),
        ]);
        assert_eq!(h.len(), 4);
        assert!((PolygonMm::new(h).area() - 1.0).abs() < 1e-12);
    }
}
