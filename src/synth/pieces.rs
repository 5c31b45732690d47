//! What each piece looks like as a solid: built from its catalog entry (shape, height, colours)
//! in its local frame (see `mesh.rs`), then placed on the table.
//!
//! Every solid stands exactly on its catalog footprint: nothing reaches outside the footprint at
//! table level, so the footprint in `truth.json` is where the rendered piece touches the table.

use super::light::{Rgb, mix, rgb8, scale, srgb_to_linear};
use super::mesh::{Material, Part, Prism, V3, inset};
use crate::table::report::DieTop;
use crate::table::{CatalogEntry, PieceKind, PointMm, Shape};

/// Facets around round solids.
const ROUND_SEGMENTS: usize = 28;
/// Latitude rings of domes.
const DOME_RINGS: usize = 10;

/// The solids of one piece placed at `center`, turned by `angle` radians, standing `base_mm`
/// above the table (on a ship's deck, on the island).
pub(crate) fn piece_parts(
    entry: &CatalogEntry,
    center: PointMm,
    angle: f64,
    base_mm: f64,
    top: Option<DieTop>,
) -> Vec<Part> {
    let colour = srgb_to_linear(entry.colour);
    let second = entry.secondary_colour.map(srgb_to_linear);
    let h = entry.height_mm;
    let local = match (&entry.shape, entry.piece) {
        (Shape::HalfSphere { diameter_mm }, _) => octopus_head(*diameter_mm, h, colour),
        (Shape::CurvedBand { .. }, _) => tentacle(entry, colour),
        (Shape::Hull { .. }, _) => hull(entry, colour),
        (Shape::AnchorOutline { .. }, _) => extruded(entry, colour, Material::PLASTIC, 0.6),
        (Shape::Disc { diameter_mm }, PieceKind::Treasure) => rose(*diameter_mm, h, colour),
        (Shape::Disc { diameter_mm }, _) => canon(*diameter_mm, h, colour),
        (Shape::Blob { diameter_mm }, _) => island(entry, *diameter_mm, colour, second),
        (Shape::FigureOnDisc { base_diameter_mm }, _) => captain(*base_diameter_mm, h, colour, second),
        (Shape::Cup { foot_diameter_mm }, _) => goblet(*foot_diameter_mm, h, colour),
        (Shape::Trapezoid { top_inset_mm, .. }, _) => gold_bar(entry, *top_inset_mm, colour),
        (Shape::HexPrism { .. }, _) => gem(entry, colour),
        (Shape::Box { .. }, _) => chest(entry, colour),
        (
            Shape::LyingBottle {
                length_mm,
                diameter_mm,
            },
            _,
        ) => bottle(*length_mm, *diameter_mm, colour),
        (Shape::Cube { side_mm }, _) => die(*side_mm, colour, second, top.unwrap_or(DieTop::Black)),
        (Shape::Oval { length_mm, width_mm }, _) => crab(*length_mm, *width_mm, h, colour),
        (Shape::Sphere { diameter_mm }, _) => bead(*diameter_mm, colour),
    };
    local
        .into_iter()
        .map(|p| p.placed(center, angle, base_mm))
        .collect()
}

/// A bead of the Octo-Counter (its own colour: blue or black).
pub(crate) fn bead(diameter: f64, colour: Rgb) -> Vec<Part> {
    let r = diameter / 2.0;
    let mut p = Part::new(Material::PLASTIC.receiving());
    p.ellipsoid(V3::new(0.0, 0.0, r), V3::new(r, r, r), colour, 8, 14);
    vec![p]
}

fn extruded(entry: &CatalogEntry, colour: Rgb, material: Material, top_inset: f64) -> Vec<Part> {
    let outline = entry.shape.local_footprint();
    let top = inset(&outline, top_inset);
    let mut p = Part::new(material);
    p.prism(&Prism {
        outline: &outline,
        top_outline: Some(&top),
        h0: 0.0,
        h1: entry.height_mm,
        side: colour,
        top: Some(scale(colour, 1.05)),
        smooth: false,
    });
    vec![p]
}

fn octopus_head(diameter: f64, height: f64, colour: Rgb) -> Vec<Part> {
    let r = diameter / 2.0;
    let mut body = Part::new(Material::PLASTIC);
    body.dome(
        V3::new(r, r, height),
        0.0,
        colour,
        (DOME_RINGS, ROUND_SEGMENTS + 4),
    );
    let mut eyes = Part::new(Material::PLASTIC);
    let white = rgb8(0xF4, 0xF1, 0xEA);
    let black = rgb8(0x10, 0x10, 0x14);
    for side in [-1.0, 1.0] {
        let az: f64 = side * 0.42;
        let el: f64 = 0.55;
        let dir = V3::new(el.cos() * az.cos(), el.cos() * az.sin(), el.sin());
        let surface = V3::new(dir.x * r, dir.y * r, dir.z * height);
        let er = 0.14 * diameter;
        eyes.ellipsoid(surface, V3::new(er * 0.6, er, er), white, 6, 12);
        let pupil = surface + dir * (er * 0.55);
        eyes.ellipsoid(pupil, V3::new(er * 0.3, er * 0.45, er * 0.45), black, 5, 10);
    }
    vec![body, eyes]
}

fn tentacle(entry: &CatalogEntry, colour: Rgb) -> Vec<Part> {
    let outline = entry.shape.local_footprint();
    let h = entry.height_mm;
    let top = inset(&outline, 1.5);
    let mut p = Part::new(Material::PLASTIC);
    p.prism(&Prism {
        outline: &outline,
        top_outline: Some(&top),
        h0: 0.0,
        h1: h,
        side: colour,
        top: Some(scale(colour, 1.08)),
        smooth: true,
    });
    // Suckers: pale discs along the concave side, just proud of the band.
    let mut suckers = Part::new(Material::PLASTIC);
    let pale = mix(colour, rgb8(0xFF, 0xE6, 0xEE), 0.55);
    if let Shape::CurvedBand {
        chord_mm,
        thickness_mm,
    } = entry.shape
    {
        let sagitta = chord_mm * 0.2;
        let radius = (chord_mm * chord_mm / 4.0 + sagitta * sagitta) / (2.0 * sagitta);
        let centre_y = radius - sagitta / 2.0;
        let ri = radius - thickness_mm / 2.0;
        for (k, hh) in [(-0.5, 0.3), (0.0, 0.55), (0.5, 0.8), (-0.25, 0.75), (0.3, 0.35)] {
            let a: f64 = k * (chord_mm / 2.0 / radius).asin() * 0.8;
            let (s, c) = a.sin_cos();
            let p0 = V3::new((ri - 0.3) * s, centre_y - (ri - 0.3) * c, hh * h);
            suckers.ellipsoid(p0, V3::new(2.5, 2.5, 2.5), pale, 4, 8);
        }
    }
    vec![p, suckers]
}

fn hull(entry: &CatalogEntry, colour: Rgb) -> Vec<Part> {
    let outline = entry.shape.local_footprint();
    let h = entry.height_mm;
    let mut p = Part::new(Material::PLASTIC);
    // Sides in the player's colour, a slightly paler deck (loaded treasures stand on it).
    p.prism(&Prism {
        outline: &outline,
        top_outline: None,
        h0: 0.0,
        h1: h,
        side: colour,
        top: Some(mix(colour, rgb8(0xFF, 0xFF, 0xFF), 0.18)),
        smooth: false,
    });
    // A darker stripe along the hull, just below the deck.
    let mut stripe = Part::new(Material::PLASTIC);
    let band: Vec<PointMm> = outline.iter().map(|&q| q * 1.004).collect();
    stripe.prism(&Prism {
        outline: &band,
        top_outline: None,
        h0: h * 0.72,
        h1: h * 0.86,
        side: scale(colour, 0.55),
        top: None,
        smooth: false,
    });
    vec![p, stripe]
}

fn canon(diameter: f64, h: f64, colour: Rgb) -> Vec<Part> {
    let r = diameter / 2.0;
    let mut p = Part::new(Material::PLASTIC);
    p.frustum(
        (r, r * 0.94),
        (0.0, h * 0.8),
        colour,
        Some(scale(colour, 1.3)),
        ROUND_SEGMENTS,
    );
    p.frustum(
        (r * 0.45, r * 0.45),
        (h * 0.8, h),
        scale(colour, 0.7),
        Some(scale(colour, 0.5)),
        16,
    );
    vec![p]
}

fn rose(diameter: f64, h: f64, colour: Rgb) -> Vec<Part> {
    let r = diameter / 2.0;
    let mut p = Part::new(Material::PLASTIC);
    p.frustum((r, r * 0.92), (0.0, h * 0.6), colour, None, ROUND_SEGMENTS);
    p.dome(
        V3::new(r * 0.92, r * 0.92, h * 0.4),
        h * 0.6,
        scale(colour, 1.1),
        (6, ROUND_SEGMENTS),
    );
    vec![p]
}

fn island(entry: &CatalogEntry, diameter: f64, sand: Rgb, palm: Option<Rgb>) -> Vec<Part> {
    let mut parts = extruded(entry, sand, Material::MATTE, 2.5);
    let h = entry.height_mm;
    let trunk_at = palm_base(diameter);
    let green = palm.unwrap_or(rgb8(0x2E, 0x8B, 0x3A));
    let brown = rgb8(0x7A, 0x55, 0x30);
    let mut tree = Part::new(Material::MATTE);
    let base = V3::new(trunk_at.x, trunk_at.y, h);
    let crown = V3::new(trunk_at.x + 6.0, trunk_at.y + 3.0, h + 38.0);
    tree.capsule(base, crown, PALM_TRUNK_RADIUS_MM, brown, 10);
    let mut leaves = Part::new(Material::MATTE.two_sided());
    for k in 0..6 {
        let a = std::f64::consts::TAU * k as f64 / 6.0 + 0.3;
        let d = V3::new(a.cos(), a.sin(), 0.0);
        let mid = crown + d * 11.0 - V3::new(0.0, 0.0, 3.0);
        let r = V3::new(
            12.0 * a.cos().abs() + 3.0 * a.sin().abs(),
            12.0 * a.sin().abs() + 3.0 * a.cos().abs(),
            1.5,
        );
        leaves.ellipsoid(mid, r, green, 4, 10);
    }
    tree.extend(leaves);
    parts.push(tree);
    parts
}

/// Radius of the island palm's trunk, mm.
pub(crate) const PALM_TRUNK_RADIUS_MM: f64 = 2.5;

/// Where the island's palm stands, in the island's local frame.
pub(crate) fn palm_base(diameter: f64) -> PointMm {
    PointMm::new(-0.22 * diameter, 0.05 * diameter)
}

fn captain(base_d: f64, h: f64, colour: Rgb, hat: Option<Rgb>) -> Vec<Part> {
    let r = base_d / 2.0;
    let hat = hat.unwrap_or(rgb8(0x1F, 0x2A, 0x4D));
    let mut p = Part::new(Material::PLASTIC);
    p.frustum(
        (r, r * 0.95),
        (0.0, 0.09 * h),
        colour,
        Some(colour),
        ROUND_SEGMENTS,
    );
    p.frustum(
        (r * 0.62, r * 0.5),
        (0.09 * h, 0.62 * h),
        colour,
        Some(colour),
        20,
    );
    p.ellipsoid(
        V3::new(0.0, 0.0, 0.72 * h),
        V3::new(r * 0.5, r * 0.5, r * 0.5),
        colour,
        8,
        16,
    );
    let mut cap = Part::new(Material::PLASTIC);
    cap.frustum((r * 0.68, r * 0.68), (0.80 * h, 0.84 * h), hat, Some(hat), 20);
    cap.frustum(
        (r * 0.46, r * 0.42),
        (0.84 * h, h),
        hat,
        Some(scale(hat, 1.2)),
        20,
    );
    vec![p, cap]
}

fn goblet(foot_d: f64, h: f64, colour: Rgb) -> Vec<Part> {
    let r = foot_d / 2.0;
    let mut p = Part::new(Material::PLASTIC);
    p.frustum(
        (r, r * 0.75),
        (0.0, 0.08 * h),
        colour,
        Some(colour),
        ROUND_SEGMENTS,
    );
    p.frustum((r * 0.22, r * 0.22), (0.08 * h, 0.45 * h), colour, None, 12);
    p.frustum(
        (r * 0.35, r * 0.95),
        (0.45 * h, h),
        colour,
        Some(scale(colour, 0.45)),
        ROUND_SEGMENTS,
    );
    vec![p]
}

fn gold_bar(entry: &CatalogEntry, top_inset: f64, colour: Rgb) -> Vec<Part> {
    let outline = entry.shape.local_footprint();
    let top: Vec<PointMm> = outline
        .iter()
        .map(|q| PointMm::new(q.x - q.x.signum() * top_inset, q.y - q.y.signum() * top_inset))
        .collect();
    let mut p = Part::new(Material {
        specular: 0.45,
        shininess: 30,
        ..Material::PLASTIC
    });
    p.prism(&Prism {
        outline: &outline,
        top_outline: Some(&top),
        h0: 0.0,
        h1: entry.height_mm,
        side: colour,
        top: Some(scale(colour, 1.12)),
        smooth: false,
    });
    vec![p]
}

fn gem(entry: &CatalogEntry, colour: Rgb) -> Vec<Part> {
    let outline = entry.shape.local_footprint();
    let h = entry.height_mm;
    let crown: Vec<PointMm> = outline.iter().map(|&q| q * 0.55).collect();
    let mut p = Part::new(Material {
        specular: 0.5,
        shininess: 40,
        ..Material::PLASTIC
    });
    p.prism(&Prism::new(&outline, 0.0, 0.65 * h, colour));
    p.prism(&Prism {
        outline: &outline,
        top_outline: Some(&crown),
        h0: 0.65 * h,
        h1: h,
        side: scale(colour, 1.1),
        top: Some(scale(colour, 1.25)),
        smooth: false,
    });
    vec![p]
}

fn chest(entry: &CatalogEntry, colour: Rgb) -> Vec<Part> {
    let outline = entry.shape.local_footprint();
    let h = entry.height_mm;
    let mut p = Part::new(Material::MATTE);
    p.prism(&Prism {
        outline: &outline,
        top_outline: None,
        h0: 0.0,
        h1: 0.62 * h,
        side: colour,
        top: None,
        smooth: false,
    });
    let lid = inset(&outline, 0.4);
    p.prism(&Prism {
        outline: &lid,
        top_outline: Some(&inset(&outline, 1.6)),
        h0: 0.62 * h,
        h1: h,
        side: scale(colour, 1.15),
        top: Some(scale(colour, 1.2)),
        smooth: false,
    });
    // Metal bands and latch.
    let mut metal = Part::new(Material {
        specular: 0.4,
        shininess: 25,
        ..Material::PLASTIC
    });
    let brass = rgb8(0xC8, 0xA2, 0x48);
    if let Shape::Box { length_mm, width_mm } = entry.shape {
        let latch = [
            PointMm::new(-2.0, width_mm / 2.0 - 0.2),
            PointMm::new(2.0, width_mm / 2.0 - 0.2),
            PointMm::new(2.0, width_mm / 2.0 + 0.3),
            PointMm::new(-2.0, width_mm / 2.0 + 0.3),
        ];
        metal.prism(&Prism::new(&latch, 0.45 * h, 0.75 * h, brass));
        for x in [-length_mm / 3.0, length_mm / 3.0] {
            let band: Vec<PointMm> = [
                PointMm::new(x - 1.0, -width_mm / 2.0 - 0.15),
                PointMm::new(x + 1.0, -width_mm / 2.0 - 0.15),
                PointMm::new(x + 1.0, width_mm / 2.0 + 0.15),
                PointMm::new(x - 1.0, width_mm / 2.0 + 0.15),
            ]
            .to_vec();
            metal.prism(&Prism::new(&band, 0.0, 0.62 * h + 0.1, scale(brass, 0.8)));
        }
    }
    vec![p, metal]
}

fn bottle(length: f64, diameter: f64, colour: Rgb) -> Vec<Part> {
    let (l, r) = (length / 2.0, diameter / 2.0);
    let neck = r * 0.45;
    let shoulder = l - 0.35 * length;
    let profile = [
        (-l, 0.0),
        (-l, r * 0.85),
        (-l + 1.0, r),
        (shoulder, r),
        (shoulder + 0.08 * length, r * 0.75),
        (shoulder + 0.15 * length, neck),
        (l - 1.0, neck),
        (l, neck * 0.9),
        (l, 0.0),
    ];
    let mut p = Part::new(Material {
        specular: 0.55,
        shininess: 40,
        ..Material::PLASTIC
    });
    p.lathe_x(&profile, r, colour, 16);
    vec![p]
}

fn die(side: f64, black: Rgb, red: Option<Rgb>, top: DieTop) -> Vec<Part> {
    let red = red.unwrap_or(rgb8(0xE0, 0x45, 0x7B));
    let s = side / 2.0;
    // Three faces of each colour meeting at opposite corners: the top, +x and +y share the top's
    // colour, the bottom, -x and -y the other.
    let (first, second) = match top {
        DieTop::Black => (black, red),
        DieTop::Red => (red, black),
    };
    let mut p = Part::new(Material::PLASTIC);
    let c = |x: f64, y: f64, z: f64| V3::new(x, y, z);
    let faces: [([V3; 4], V3, Rgb); 5] = [
        (
            [c(-s, -s, side), c(s, -s, side), c(s, s, side), c(-s, s, side)],
            c(0.0, 0.0, 1.0),
            first,
        ),
        (
            [c(s, -s, 0.0), c(s, s, 0.0), c(s, s, side), c(s, -s, side)],
            c(1.0, 0.0, 0.0),
            first,
        ),
        (
            [c(-s, s, 0.0), c(s, s, 0.0), c(s, s, side), c(-s, s, side)],
            c(0.0, 1.0, 0.0),
            first,
        ),
        (
            [c(-s, -s, 0.0), c(-s, s, 0.0), c(-s, s, side), c(-s, -s, side)],
            c(-1.0, 0.0, 0.0),
            second,
        ),
        (
            [c(-s, -s, 0.0), c(s, -s, 0.0), c(s, -s, side), c(-s, -s, side)],
            c(0.0, -1.0, 0.0),
            second,
        ),
    ];
    for (q, n, col) in faces {
        p.quad(q, [n; 4], col);
    }
    // A paler symbol on the top face (an ink splash).
    let mut mark = Part::new(Material::PLASTIC);
    let splash = mix(first, rgb8(0xFF, 0xFF, 0xFF), 0.35);
    mark.dome(V3::new(s * 0.45, s * 0.35, 0.2), side, splash, (2, 12));
    vec![p, mark]
}

fn crab(length: f64, width: f64, h: f64, colour: Rgb) -> Vec<Part> {
    let (a, b) = (length / 2.0, width / 2.0);
    let mut body = Part::new(Material::PLASTIC.receiving());
    // Legs under the shell's rim, inside the footprint.
    let leg_colour = scale(colour, 0.8);
    for side in [-1.0, 1.0] {
        for k in [-0.45, 0.0, 0.45] {
            let x = side * a * 0.5;
            let y = k * b;
            body.capsule(
                V3::new(x, y, 0.35 * h),
                V3::new(side * a * 0.74, y, 1.2),
                1.2,
                leg_colour,
                6,
            );
        }
    }
    body.dome(
        V3::new(a * 0.78, b * 0.82, h * 0.55),
        0.3 * h,
        colour,
        (8, ROUND_SEGMENTS),
    );
    // The shell's underside, down to the legs.
    body.frustum(
        (a * 0.5, a * 0.5),
        (0.2 * h, 0.3 * h),
        scale(colour, 0.7),
        None,
        16,
    );
    // Claws at the front (+y), eyes on top.
    for side in [-1.0, 1.0] {
        body.ellipsoid(
            V3::new(side * a * 0.42, b * 0.72, 0.45 * h),
            V3::new(3.2, 2.6, 2.4),
            scale(colour, 1.1),
            5,
            10,
        );
        let eye = V3::new(side * a * 0.2, b * 0.55, 0.88 * h);
        body.capsule(V3::new(side * a * 0.18, b * 0.45, 0.7 * h), eye, 0.7, colour, 6);
        body.ellipsoid(eye, V3::new(1.3, 1.3, 1.3), rgb8(0x12, 0x12, 0x12), 4, 8);
    }
    vec![body]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Catalog;

    #[test]
    fn solids_stay_inside_their_footprint_at_table_level() {
        let cat = Catalog::default_catalog();
        for e in &cat.pieces {
            let centre = PointMm::new(50.0, -20.0);
            let fp = e.footprint(centre, 0.7);
            let parts = piece_parts(e, centre, 0.7, 0.0, Some(DieTop::Red));
            assert!(!parts.is_empty(), "{}", e.name);
            let mut lowest = 0;
            for p in &parts {
                for t in &p.tris {
                    for v in &t.p {
                        assert!(v.z <= 1e-9, "{}: below the table", e.name);
                        let height = -v.z;
                        assert!(
                            height <= e.height_mm + 15.0 || e.piece == PieceKind::Island,
                            "{}: {height}",
                            e.name
                        );
                        if height < 0.5 {
                            lowest += 1;
                            let q = PointMm::new(v.x, v.y);
                            assert!(
                                fp.contains(q) || fp.distance_to_outline(q) < 0.6,
                                "{}: base vertex {q:?} outside the footprint",
                                e.name
                            );
                        }
                    }
                }
            }
            if e.piece != PieceKind::Bead {
                assert!(lowest > 0, "{} does not touch the table", e.name);
            }
        }
    }
}
