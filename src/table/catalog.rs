//! The piece catalog: what each piece looks like on the table (footprint, height, colours).
//!
//! The default catalog is data (`assets/catalog.toml`, the table in `../shared/spec/table.md`);
//! a user may load another one to match a real set. Sizes are millimetres, colours sRGB.
//! A piece's **footprint** is its outline where it touches the table, in the table frame, placed
//! at a centre and turned by an angle (radians, from the table's +x axis towards +y).

use super::polygon::PolygonMm;
use super::units::PointMm;
use crate::games::crash_octopus::{PlayerColor, TreasureType};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The default catalog, compiled in so the program works from any directory.
pub const DEFAULT_CATALOG_TOML: &str = include_str!("../../assets/catalog.toml");

/// Vertices used to outline a round footprint.
const ROUND_VERTICES: usize = 32;
/// Inward bow of a tentacle's curved band, as a fraction of its chord.
const TENTACLE_SAGITTA_RATIO: f64 = 0.2;

/// The kind of a piece, as the `piece` field of `analyze` and `truth.json` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PieceKind {
    OctopusHead,
    LittleOctopus,
    Tentacle,
    Ship,
    Anchor,
    PirateShip,
    OctoCanon,
    Island,
    Treasure,
    InkDie,
    Crab,
    /// A bead of the Octo-Counter (part of the string, not a game piece in `analyze`).
    Bead,
}

impl PieceKind {
    pub const ALL: [PieceKind; 12] = [
        PieceKind::OctopusHead,
        PieceKind::LittleOctopus,
        PieceKind::Tentacle,
        PieceKind::Ship,
        PieceKind::Anchor,
        PieceKind::PirateShip,
        PieceKind::OctoCanon,
        PieceKind::Island,
        PieceKind::Treasure,
        PieceKind::InkDie,
        PieceKind::Crab,
        PieceKind::Bead,
    ];

    /// The snake_case name used in files and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            PieceKind::OctopusHead => "octopus_head",
            PieceKind::LittleOctopus => "little_octopus",
            PieceKind::Tentacle => "tentacle",
            PieceKind::Ship => "ship",
            PieceKind::Anchor => "anchor",
            PieceKind::PirateShip => "pirate_ship",
            PieceKind::OctoCanon => "octo_canon",
            PieceKind::Island => "island",
            PieceKind::Treasure => "treasure",
            PieceKind::InkDie => "ink_die",
            PieceKind::Crab => "crab",
            PieceKind::Bead => "bead",
        }
    }
}

impl std::fmt::Display for PieceKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for PieceKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        PieceKind::ALL
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| {
                let names: Vec<_> = PieceKind::ALL.iter().map(|k| k.as_str()).collect();
                format!("unknown piece kind {s:?}; expected one of {}", names.join(", "))
            })
    }
}

/// The plan shape of a piece, with its sizes in millimetres. The footprint is derived from it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Shape {
    /// Half sphere standing on its flat face.
    HalfSphere { diameter_mm: f64 },
    /// Sphere (beads).
    Sphere { diameter_mm: f64 },
    /// Upright curved band: chord length and band thickness.
    CurvedBand { chord_mm: f64, thickness_mm: f64 },
    /// Boat hull: pointed bow at +x, square stern at -x.
    Hull { length_mm: f64, beam_mm: f64 },
    /// Anchor outline inside a `length x width` box, crown at +x.
    AnchorOutline { length_mm: f64, width_mm: f64 },
    /// Flat disc / cylinder.
    Disc { diameter_mm: f64 },
    /// Irregular rounded blob of about this diameter (the island).
    Blob { diameter_mm: f64 },
    /// Figure on a round base (captain), the base gives the footprint.
    FigureOnDisc { base_diameter_mm: f64 },
    /// Cup on a round foot (goblet).
    Cup { foot_diameter_mm: f64 },
    /// Trapezoid bar: base `length x width`, top narrower by `top_inset_mm` on each side.
    Trapezoid {
        length_mm: f64,
        width_mm: f64,
        top_inset_mm: f64,
    },
    /// Hexagonal prism standing on a hexagon.
    HexPrism { across_flats_mm: f64 },
    /// Rectangular box.
    Box { length_mm: f64, width_mm: f64 },
    /// Bottle lying on its side: overall length and diameter; the neck is at +x.
    LyingBottle { length_mm: f64, diameter_mm: f64 },
    /// Cube (the die).
    Cube { side_mm: f64 },
    /// Oval (the crab).
    Oval { length_mm: f64, width_mm: f64 },
}

impl Shape {
    /// The footprint outline in the piece's own frame (centre at the origin, angle 0).
    pub fn local_footprint(&self) -> Vec<PointMm> {
        match *self {
            Shape::HalfSphere { diameter_mm }
            | Shape::Disc { diameter_mm }
            | Shape::FigureOnDisc {
                base_diameter_mm: diameter_mm,
            }
            | Shape::Cup {
                foot_diameter_mm: diameter_mm,
            } => ellipse(diameter_mm, diameter_mm),
            // A sphere touches the table in a point; its shadow-free plan is its disc.
            Shape::Sphere { diameter_mm } => ellipse(diameter_mm, diameter_mm),
            Shape::Oval { length_mm, width_mm } => ellipse(length_mm, width_mm),
            Shape::Blob { diameter_mm } => blob(diameter_mm),
            Shape::CurvedBand {
                chord_mm,
                thickness_mm,
            } => curved_band(chord_mm, thickness_mm),
            Shape::Hull { length_mm, beam_mm } => hull(length_mm, beam_mm),
            Shape::AnchorOutline { length_mm, width_mm } => anchor(length_mm, width_mm),
            Shape::Trapezoid {
                length_mm, width_mm, ..
            }
            | Shape::Box { length_mm, width_mm } => rectangle(length_mm, width_mm),
            Shape::HexPrism { across_flats_mm } => hexagon(across_flats_mm),
            Shape::LyingBottle {
                length_mm,
                diameter_mm,
            } => bottle(length_mm, diameter_mm),
            Shape::Cube { side_mm } => rectangle(side_mm, side_mm),
        }
    }

    /// The footprint placed at `center` and turned by `angle` radians.
    pub fn footprint(&self, center: PointMm, angle: f64) -> PolygonMm {
        PolygonMm(
            self.local_footprint()
                .into_iter()
                .map(|p| p.rotated(angle) + center)
                .collect(),
        )
    }

    /// Radius of the smallest circle around the centre that holds the footprint.
    pub fn bounding_radius_mm(&self) -> f64 {
        self.local_footprint()
            .iter()
            .map(|p| p.norm())
            .fold(0.0, f64::max)
    }

    /// Whether turning the piece changes nothing about its footprint.
    pub fn is_round(&self) -> bool {
        matches!(
            self,
            Shape::HalfSphere { .. }
                | Shape::Sphere { .. }
                | Shape::Disc { .. }
                | Shape::FigureOnDisc { .. }
                | Shape::Cup { .. }
        )
    }
}

fn ellipse(length: f64, width: f64) -> Vec<PointMm> {
    (0..ROUND_VERTICES)
        .map(|i| {
            let a = i as f64 / ROUND_VERTICES as f64 * std::f64::consts::TAU;
            PointMm::new(length / 2.0 * a.cos(), width / 2.0 * a.sin())
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

fn hexagon(across_flats: f64) -> Vec<PointMm> {
    let r = across_flats / 3f64.sqrt();
    (0..6)
        .map(|i| {
            let a = i as f64 * std::f64::consts::FRAC_PI_3;
            PointMm::new(r * a.cos(), r * a.sin())
        })
        .collect()
}

/// A soft, slightly irregular outline: the same for every island so a footprint is reproducible.
fn blob(diameter: f64) -> Vec<PointMm> {
    (0..ROUND_VERTICES)
        .map(|i| {
            let a = i as f64 / ROUND_VERTICES as f64 * std::f64::consts::TAU;
            let r = diameter / 2.0 * (1.0 + 0.08 * (2.0 * a).sin() + 0.05 * (3.0 * a + 1.0).cos());
            PointMm::new(r * a.cos(), r * 0.85 * a.sin())
        })
        .collect()
}

fn curved_band(chord: f64, thickness: f64) -> Vec<PointMm> {
    // An arc whose chord lies along x; the bow points to -y. Outer and inner edges.
    let sagitta = chord * TENTACLE_SAGITTA_RATIO;
    let radius = (chord * chord / 4.0 + sagitta * sagitta) / (2.0 * sagitta);
    let half_angle = (chord / 2.0 / radius).asin();
    let centre_y = radius - sagitta / 2.0;
    let steps = 12;
    let mut outer = Vec::with_capacity(steps + 1);
    let mut inner = Vec::with_capacity(steps + 1);
    for i in 0..=steps {
        let a = -half_angle + 2.0 * half_angle * i as f64 / steps as f64;
        let (s, c) = a.sin_cos();
        let ro = radius + thickness / 2.0;
        let ri = radius - thickness / 2.0;
        outer.push(PointMm::new(ro * s, centre_y - ro * c));
        inner.push(PointMm::new(ri * s, centre_y - ri * c));
    }
    inner.reverse();
    outer.extend(inner);
    outer
}

fn hull(length: f64, beam: f64) -> Vec<PointMm> {
    let (l, w) = (length / 2.0, beam / 2.0);
    let bow_start = l - 0.3 * length;
    let mut pts = vec![PointMm::new(-l, -w * 0.85), PointMm::new(bow_start, -w)];
    // Curved bow from the port side to the point.
    for i in 1..6 {
        let t = i as f64 / 6.0;
        pts.push(PointMm::new(bow_start + (l - bow_start) * t, -w * (1.0 - t * t)));
    }
    pts.push(PointMm::new(l, 0.0));
    for i in (1..6).rev() {
        let t = i as f64 / 6.0;
        pts.push(PointMm::new(bow_start + (l - bow_start) * t, w * (1.0 - t * t)));
    }
    pts.push(PointMm::new(bow_start, w));
    pts.push(PointMm::new(-l, w * 0.85));
    pts
}

fn anchor(length: f64, width: f64) -> Vec<PointMm> {
    // Ring at -x, shank along x, crown with two flukes at +x. Kept simple and convex enough
    // to be robust: an arrow-like outline.
    let (l, w) = (length / 2.0, width / 2.0);
    let shank = width * 0.18;
    vec![
        PointMm::new(-l, -w * 0.35),
        PointMm::new(-l + 0.25 * length, -w * 0.35),
        PointMm::new(-l + 0.25 * length, -shank),
        PointMm::new(l - 0.3 * length, -shank),
        PointMm::new(l - 0.45 * length, -w),
        PointMm::new(l, -w * 0.4),
        PointMm::new(l, w * 0.4),
        PointMm::new(l - 0.45 * length, w),
        PointMm::new(l - 0.3 * length, shank),
        PointMm::new(-l + 0.25 * length, shank),
        PointMm::new(-l + 0.25 * length, w * 0.35),
        PointMm::new(-l, w * 0.35),
    ]
}

fn bottle(length: f64, diameter: f64) -> Vec<PointMm> {
    let (l, r) = (length / 2.0, diameter / 2.0);
    let neck = r * 0.45;
    let shoulder = l - 0.35 * length;
    let mut pts = Vec::new();
    // Rounded base at -x.
    for i in 0..=8 {
        let a = std::f64::consts::FRAC_PI_2 + std::f64::consts::PI * i as f64 / 8.0;
        pts.push(PointMm::new(-l + r + r * a.cos(), -r * a.sin()));
    }
    pts.extend([
        PointMm::new(shoulder, r),
        PointMm::new(shoulder + 0.15 * length, neck),
        PointMm::new(l, neck),
        PointMm::new(l, -neck),
        PointMm::new(shoulder + 0.15 * length, -neck),
        PointMm::new(shoulder, -r),
    ]);
    pts
}

/// An sRGB colour, written `"#RRGGBB"` in files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Srgb(pub [u8; 3]);

impl TryFrom<String> for Srgb {
    type Error = String;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        let hex = s.strip_prefix('#').unwrap_or(&s);
        let bad = || format!("expected a colour like \"#E0569A\", got {s:?}");
        if hex.len() != 6 || !hex.is_ascii() {
            return Err(bad());
        }
        let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).map_err(|_| bad());
        Ok(Srgb([byte(0)?, byte(2)?, byte(4)?]))
    }
}

impl From<Srgb> for String {
    fn from(c: Srgb) -> Self {
        format!("#{:02X}{:02X}{:02X}", c.0[0], c.0[1], c.0[2])
    }
}

/// One kind of piece in the catalog (one row of `table.md`'s table; ships and anchors have one
/// entry per player colour, treasures one per type).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CatalogEntry {
    /// Unique key, e.g. `"ship_orange"`, `"gold"`, `"tentacle"`.
    pub name: String,
    pub piece: PieceKind,
    /// Treasure type, for `piece = "treasure"`.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub treasure: Option<TreasureType>,
    /// Player colour, for ships and anchors (and the pirate ship: pink).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<PlayerColor>,
    /// How many of this piece the box holds.
    pub count: u32,
    pub shape: Shape,
    pub height_mm: f64,
    /// Main body colour.
    pub colour: Srgb,
    /// A second colour: the captain's hat, the island's palm, the die's other faces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secondary_colour: Option<Srgb>,
}

impl CatalogEntry {
    pub fn footprint(&self, center: PointMm, angle: f64) -> PolygonMm {
        self.shape.footprint(center, angle)
    }
}

/// Everything about the string and the Octo-Counter beads that is not a piece.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StringSpec {
    pub thickness_mm: f64,
    pub length_mm: f64,
    pub colour: Srgb,
    pub bead_diameter_mm: f64,
    pub bead_blue: Srgb,
    pub bead_black: Srgb,
}

/// The whole catalog.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Catalog {
    pub string: StringSpec,
    #[serde(rename = "piece")]
    pub pieces: Vec<CatalogEntry>,
}

/// A catalog that cannot be read or does not make sense.
#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    #[error("{path}: cannot read the catalog: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Parse { path: String, message: String },
    #[error("{path}: piece {name:?}: field `{field}`: {expected}")]
    Invalid {
        path: String,
        name: String,
        field: &'static str,
        expected: String,
    },
}

impl Catalog {
    /// The default catalog shipped in `assets/catalog.toml`.
    pub fn default_catalog() -> Catalog {
        match Catalog::from_toml_str(DEFAULT_CATALOG_TOML, "assets/catalog.toml") {
            Ok(c) => c,
            // The shipped asset is checked by a unit test; an empty catalog keeps callers alive.
            Err(e) => {
                tracing::error!("built-in catalog is invalid: {e}");
                Catalog {
                    string: StringSpec {
                        thickness_mm: 4.0,
                        length_mm: 2400.0,
                        colour: Srgb([0x2C, 0x6F, 0xD6]),
                        bead_diameter_mm: 10.0,
                        bead_blue: Srgb([0x1F, 0x4F, 0xBF]),
                        bead_black: Srgb([0x15, 0x15, 0x15]),
                    },
                    pieces: Vec::new(),
                }
            }
        }
    }

    /// Reads a catalog file. Directories, devices (`/dev/zero`) and files over
    /// [`crate::fsutil::MAX_INPUT_BYTES`] are refused before reading, so a wrong path can never
    /// hang or fill memory.
    pub fn load(path: &Path) -> Result<Catalog, CatalogError> {
        let name = path.display().to_string();
        let bytes = crate::fsutil::read_input(path).map_err(|e| CatalogError::Io {
            path: name.clone(),
            source: std::io::Error::other(match e {
                crate::fsutil::FileError::Io { message, .. } => message,
                other => other.to_string(),
            }),
        })?;
        let text = String::from_utf8(bytes).map_err(|e| CatalogError::Parse {
            path: name.clone(),
            message: format!(
                "not UTF-8 text (invalid byte at offset {}); expected a TOML file",
                e.utf8_error().valid_up_to()
            ),
        })?;
        Catalog::from_toml_str(&text, &name)
    }

    pub fn from_toml_str(text: &str, path: &str) -> Result<Catalog, CatalogError> {
        let catalog: Catalog = toml::from_str(text).map_err(|e| CatalogError::Parse {
            path: path.to_string(),
            message: e.to_string(),
        })?;
        catalog.validate(path)?;
        Ok(catalog)
    }

    fn validate(&self, path: &str) -> Result<(), CatalogError> {
        let invalid = |name: &str, field: &'static str, expected: &str| CatalogError::Invalid {
            path: path.to_string(),
            name: name.to_string(),
            field,
            expected: expected.to_string(),
        };
        let mut seen = std::collections::HashSet::new();
        for e in &self.pieces {
            if !seen.insert(e.name.as_str()) {
                return Err(invalid(&e.name, "name", "a name used by no other piece"));
            }
            if !(e.height_mm.is_finite() && e.height_mm > 0.0 && e.height_mm < 500.0) {
                return Err(invalid(&e.name, "height_mm", "a height between 0 and 500 mm"));
            }
            let r = e.shape.bounding_radius_mm();
            if !(r.is_finite() && r > 0.5 && r < 500.0) {
                return Err(invalid(&e.name, "shape", "sizes between 1 and 1000 mm"));
            }
            if (e.piece == PieceKind::Treasure) != e.treasure.is_some() {
                return Err(invalid(&e.name, "type", "a treasure type exactly on treasures"));
            }
        }
        Ok(())
    }

    /// The entry with this unique name.
    pub fn entry(&self, name: &str) -> Option<&CatalogEntry> {
        self.pieces.iter().find(|e| e.name == name)
    }

    /// The entry for a treasure type.
    pub fn treasure(&self, t: TreasureType) -> Option<&CatalogEntry> {
        self.pieces.iter().find(|e| e.treasure == Some(t))
    }

    /// The entry for a piece kind, with the player's colour where the kind has one.
    pub fn piece(&self, kind: PieceKind, color: Option<PlayerColor>) -> Option<&CatalogEntry> {
        self.pieces
            .iter()
            .find(|e| e.piece == kind && (color.is_none() || e.color == color))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_catalog_parses_and_has_every_piece() {
        let c = Catalog::from_toml_str(DEFAULT_CATALOG_TOML, "assets/catalog.toml").unwrap();
        for kind in PieceKind::ALL {
            assert!(c.piece(kind, None).is_some(), "{kind} missing");
        }
        for t in TreasureType::ALL {
            assert!(c.treasure(t).is_some(), "{t:?} missing");
        }
        for col in [
            PlayerColor::Orange,
            PlayerColor::Green,
            PlayerColor::Blue,
            PlayerColor::Purple,
        ] {
            assert!(c.piece(PieceKind::Ship, Some(col)).is_some());
            assert!(c.piece(PieceKind::Anchor, Some(col)).is_some());
        }
        let goblet = c.treasure(TreasureType::Goblet).unwrap();
        assert_eq!(goblet.height_mm, 30.0);
    }

    #[test]
    fn footprints_have_their_nominal_size() {
        let c = Catalog::default_catalog();
        let ship = c.piece(PieceKind::Ship, Some(PlayerColor::Blue)).unwrap();
        let fp = ship.footprint(PointMm::new(100.0, 100.0), 0.0);
        let xs: Vec<f64> = fp.points().iter().map(|p| p.x).collect();
        let span = xs.iter().cloned().fold(f64::MIN, f64::max) - xs.iter().cloned().fold(f64::MAX, f64::min);
        assert!((span - 70.0).abs() < 1e-9);
        let head = c.piece(PieceKind::OctopusHead, None).unwrap();
        let area = head.footprint(PointMm::default(), 0.0).area();
        assert!((area - std::f64::consts::PI * 40.0 * 40.0).abs() / area < 0.01);
    }

    #[test]
    fn bad_catalog_names_the_field() {
        let bad = DEFAULT_CATALOG_TOML.replacen("height_mm = 40", "height_mm = -4", 1);
        let err = Catalog::from_toml_str(&bad, "x.toml").unwrap_err().to_string();
        assert!(err.contains("height_mm") && err.contains("x.toml"), "{err}");
    }
}
