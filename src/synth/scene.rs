//! A scene: the table, the camera, the light and the string loop, sampled together from the seed
//! so that the whole ocean is in view and the calibration board lies inside it.
//!
//! Conventions: the printed board defines the table frame (origin at the board's top-left corner
//! as drawn, x along its 7 squares, y along its 5, z into the table). The board is printed
//! centred on an A4 sheet ([`Paper`]) that lies flat in the ocean for the board capture.

use super::SynthError;
use super::counter::{CounterLayout, lay_counter};
use super::light::Light;
use super::random::{Purpose, chance, stream, uniform};
use super::rig::{
    self, BOARD_MIN_SQUARE_PX, DISTORTION_PROBABILITY, FULL_HD_PROBABILITY, HEIGHT_RANGE_MM, HFOV_RANGE_DEG,
    K1_RANGE, K2_RANGE, OCEAN_VIEW_MARGIN_MM, TANGENTIAL_MAX, TILT_RANGE_DEG, VIEW_MARGIN_FRACTION,
};
use super::sensor::Sensor;
use super::spec::{Resolution, SceneSpec};
use super::string_loop::{LoopShape, StringLoop};
use super::surface::Surface;
use crate::calibrate::board::BoardSpec;
use crate::games::crash_octopus::{BeadSequence, PlayerColor, TreasureType};
use crate::table::{Camera, Catalog, Intrinsics, PieceKind, PointMm, PointMm3, PolygonMm};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Scene samples tried before giving up (each is cheap: no rendering).
pub const MAX_SCENE_ATTEMPTS: u64 = 400;
/// The board's paper keeps at least this distance from the string's centre line, mm.
pub const BOARD_CLEARANCE_MM: f64 = 25.0;
/// Largest offset of the loop's centre from the board's centre, mm (x, y).
pub const LOOP_OFFSET_MAX_MM: (f64, f64) = (170.0, 120.0);
/// A4 paper, landscape, mm.
pub const A4_MM: (f64, f64) = (297.0, 210.0);

/// The sheet the board is printed on: the board area centred on it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Paper {
    /// Table-frame corner of the sheet (the board's origin is at (0, 0)).
    pub origin_mm: PointMm,
    pub size_mm: [f64; 2],
    /// Paper colour, sRGB.
    pub srgb: [u8; 3],
}

impl Paper {
    fn centred_on(board: &BoardSpec) -> Self {
        let (w, h) = board.size_mm();
        Self {
            origin_mm: PointMm::new(-(A4_MM.0 - w) / 2.0, -(A4_MM.1 - h) / 2.0),
            size_mm: [A4_MM.0, A4_MM.1],
            srgb: [0xF4, 0xF3, 0xEE],
        }
    }

    pub fn polygon(&self) -> PolygonMm {
        let o = self.origin_mm;
        let [w, h] = self.size_mm;
        PolygonMm(vec![
            o,
            o + PointMm::new(w, 0.0),
            o + PointMm::new(w, h),
            o + PointMm::new(0.0, h),
        ])
    }

    pub fn contains(&self, p: PointMm) -> bool {
        let d = p - self.origin_mm;
        d.x >= 0.0 && d.y >= 0.0 && d.x <= self.size_mm[0] && d.y <= self.size_mm[1]
    }
}

/// One piece of the box with its stable id (`"p1"`...), the same in every frame of a scene.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BoxPiece {
    pub id: String,
    /// Catalog entry name (`"ship_orange"`, `"gold"`...).
    pub entry: String,
    pub kind: PieceKind,
    pub treasure: Option<TreasureType>,
    pub color: Option<PlayerColor>,
}

/// A generated scene. Cheap to clone (render caches are shared).
#[derive(Debug, Clone)]
pub struct Scene {
    pub spec: SceneSpec,
    pub camera: Camera,
    /// Camera height above the table, tilt from vertical and yaw, as sampled (degrees, mm).
    pub rig: RigParams,
    pub light: Light,
    pub surface: Surface,
    pub sensor: Sensor,
    pub string: StringLoop,
    /// Arc length where the Octo-Counter starts (its blue end).
    pub counter_start_mm: f64,
    pub beads: BeadSequence,
    pub board: BoardSpec,
    pub paper: Paper,
    pub catalog: Catalog,
    /// Every piece in play, in id order.
    pub pieces: Vec<BoxPiece>,
    pub(crate) cache: Arc<super::render::RenderCache>,
}

/// The sampled camera placement.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RigParams {
    pub height_mm: f64,
    pub tilt_deg: f64,
    pub yaw_deg: f64,
    pub hfov_deg: f64,
}

impl Scene {
    /// Samples a scene with the default catalog.
    pub fn generate(spec: &SceneSpec) -> Result<Scene, SynthError> {
        Self::generate_with(spec, Catalog::default_catalog())
    }

    /// Samples a scene whose pieces look as `catalog` says.
    pub fn generate_with(spec: &SceneSpec, catalog: Catalog) -> Result<Scene, SynthError> {
        spec.validate()?;
        let beads = match &spec.beads {
            Some(b) => b.clone(),
            None => default_beads()?,
        };
        let board = BoardSpec::default();
        let paper = Paper::centred_on(&board);
        let string_thickness = catalog.string.thickness_mm;
        for attempt in 0..MAX_SCENE_ATTEMPTS {
            let Some((camera, rig, string)) = sample_rig(spec, &board, &paper, string_thickness, attempt)
            else {
                continue;
            };
            let mut rng = stream(spec.seed, Purpose::Counter, attempt);
            let counter_start_mm = uniform(&mut rng, 0.0, string.perimeter_mm);
            let centre = string.ocean().centroid();
            let light = Light::sample(spec.seed, [centre.x, centre.y]);
            let pieces = box_pieces(spec, &catalog)?;
            return Ok(Scene {
                spec: spec.clone(),
                camera,
                rig,
                light,
                surface: Surface::sample(spec.seed),
                sensor: Sensor::sample(spec.seed),
                string,
                counter_start_mm,
                beads,
                board,
                paper,
                catalog,
                pieces,
                cache: Arc::new(super::render::RenderCache::default()),
            });
        }
        Err(SynthError::NoFit {
            seed: spec.seed,
            attempts: MAX_SCENE_ATTEMPTS,
        })
    }

    /// The ocean: inside the string's centre line.
    pub fn ocean(&self) -> &PolygonMm {
        self.string.ocean()
    }

    /// The catalog entry of a piece by entry name.
    pub(crate) fn entry(&self, name: &str) -> Result<&crate::table::CatalogEntry, SynthError> {
        self.catalog
            .entry(name)
            .ok_or_else(|| SynthError::Catalog(format!("no catalog entry named {name:?}")))
    }

    /// The Octo-Counter with the crab after `crab` beads; `variant` picks the small random gaps
    /// between beads (each frame has its own).
    pub fn counter(&self, crab: usize, variant: u64) -> Result<CounterLayout, SynthError> {
        let crab_entry = self
            .catalog
            .piece(PieceKind::Crab, None)
            .ok_or_else(|| SynthError::Catalog("the catalog has no crab".into()))?;
        let crab_along = match crab_entry.shape {
            crate::table::Shape::Oval { length_mm, .. } => length_mm,
            _ => 2.0 * crab_entry.shape.bounding_radius_mm(),
        };
        let mut rng = stream(self.spec.seed, Purpose::Counter, 1000 + variant);
        Ok(lay_counter(
            &self.string,
            self.counter_start_mm,
            &self.beads,
            crab,
            self.catalog.string.bead_diameter_mm,
            crab_along,
            &mut rng,
        ))
    }
}

/// Samples resolution, lens, camera placement and loop until the ocean is in view, the board
/// lies inside the ocean, and the board is legible. `None` when this attempt does not fit.
fn sample_rig(
    spec: &SceneSpec,
    board: &BoardSpec,
    paper: &Paper,
    string_thickness: f64,
    attempt: u64,
) -> Option<(Camera, RigParams, StringLoop)> {
    let mut rng = stream(spec.seed, Purpose::Camera, attempt);
    let res = spec
        .resolution
        .unwrap_or(if chance(&mut rng, FULL_HD_PROBABILITY) {
            Resolution::FULL_HD
        } else {
            Resolution::HD
        });
    let hfov = uniform(&mut rng, HFOV_RANGE_DEG.0, HFOV_RANGE_DEG.1);
    let mut intrinsics = Intrinsics::from_hfov(res.width, res.height, hfov);
    let distorted = spec
        .distortion
        .unwrap_or_else(|| chance(&mut rng, DISTORTION_PROBABILITY));
    if distorted {
        intrinsics.distortion = [
            uniform(&mut rng, K1_RANGE.0, K1_RANGE.1),
            uniform(&mut rng, K2_RANGE.0, K2_RANGE.1),
            uniform(&mut rng, -TANGENTIAL_MAX, TANGENTIAL_MAX),
            uniform(&mut rng, -TANGENTIAL_MAX, TANGENTIAL_MAX),
            0.0,
        ];
    }
    let tilt = spec
        .tilt_deg
        .unwrap_or_else(|| uniform(&mut rng, TILT_RANGE_DEG.0, TILT_RANGE_DEG.1));
    let yaw = uniform(&mut rng, 0.0, 360.0);

    let mut lrng = stream(spec.seed, Purpose::StringLoop, attempt);
    let shape = LoopShape::sample(&mut lrng);
    let (bw, bh) = board.size_mm();
    let offset = PointMm::new(
        uniform(&mut lrng, -LOOP_OFFSET_MAX_MM.0, LOOP_OFFSET_MAX_MM.0),
        uniform(&mut lrng, -LOOP_OFFSET_MAX_MM.1, LOOP_OFFSET_MAX_MM.1),
    );
    let string = StringLoop::from_shape(
        &shape,
        PointMm::new(bw / 2.0, bh / 2.0) + offset,
        string_thickness,
    );
    let ocean = string.ocean();
    let sheet = paper.polygon();
    if !sheet.points().iter().all(|&p| ocean.contains(p))
        || sheet
            .points()
            .iter()
            .any(|&p| ocean.distance_to_outline(p) < BOARD_CLEARANCE_MM)
        || sheet.intersects_outline(ocean)
    {
        return None;
    }
    // The band just outside the string must be in view too.
    let n = ocean.len();
    let guard: Vec<PointMm3> = (0..n)
        .map(|i| {
            let s = string.perimeter_mm * i as f64 / n as f64;
            let p = string.point_at(s) + string.outward_normal_at(s) * OCEAN_VIEW_MARGIN_MM;
            PointMm3::above(p, 0.0)
        })
        .collect();
    let target = ocean.centroid();
    let margin_px = VIEW_MARGIN_FRACTION * res.width as f64;
    let fits = |h: f64| match rig::camera_looking_at(intrinsics.clone(), target, h, tilt, yaw) {
        Some(cam) => guard.iter().all(|&p| rig::in_view(&cam, p, margin_px)),
        None => false,
    };
    let height = match spec.height_mm {
        Some(h) => {
            if !fits(h) {
                return None;
            }
            h
        }
        None => {
            let lowest = rig::lowest_fitting_height(HEIGHT_RANGE_MM, fits)?;
            uniform(&mut rng, lowest, HEIGHT_RANGE_MM.1)
        }
    };
    let camera = rig::camera_looking_at(intrinsics, target, height, tilt, yaw)?;
    if !guard.iter().all(|&p| rig::in_view(&camera, p, margin_px)) {
        return None;
    }
    if rig::board_square_px(&camera, bw, bh, board.square_mm) < BOARD_MIN_SQUARE_PX {
        return None;
    }
    Some((
        camera,
        RigParams {
            height_mm: height,
            tilt_deg: tilt,
            yaw_deg: yaw,
            hfov_deg: hfov,
        },
        string,
    ))
}

/// The box's pieces for this spec, in id order: head, 8 tentacles, little octopus, each ship with
/// its anchor, pirate ship and Octo-Canon, island, treasures, ink die, crab.
fn box_pieces(spec: &SceneSpec, catalog: &Catalog) -> Result<Vec<BoxPiece>, SynthError> {
    let mut out = Vec::new();
    let mut push = |entry: &crate::table::CatalogEntry| {
        out.push(BoxPiece {
            id: format!("p{}", out.len() + 1),
            entry: entry.name.clone(),
            kind: entry.piece,
            treasure: entry.treasure,
            color: entry.color,
        });
    };
    let need = |kind: PieceKind, color: Option<PlayerColor>| {
        catalog.piece(kind, color).ok_or_else(|| {
            SynthError::Catalog(format!(
                "the catalog has no {kind} piece{}",
                match color {
                    Some(c) => format!(" in {c}"),
                    None => String::new(),
                }
            ))
        })
    };
    push(need(PieceKind::OctopusHead, None)?);
    for _ in 0..8 {
        push(need(PieceKind::Tentacle, None)?);
    }
    if spec.modules.little_octopus {
        push(need(PieceKind::LittleOctopus, None)?);
    }
    for c in spec.player_colours() {
        if c.is_pirate() {
            push(need(PieceKind::PirateShip, None)?);
            push(need(PieceKind::OctoCanon, None)?);
        } else {
            push(need(PieceKind::Ship, Some(c))?);
            push(need(PieceKind::Anchor, Some(c))?);
        }
    }
    if spec.modules.island {
        push(need(PieceKind::Island, None)?);
    }
    for t in spec.treasure_set() {
        let e = catalog
            .treasure(t)
            .ok_or_else(|| SynthError::Catalog(format!("the catalog has no {t} treasure")))?;
        push(e);
    }
    push(need(PieceKind::InkDie, None)?);
    push(need(PieceKind::Crab, None)?);
    Ok(out)
}

/// The game's default bead sequence, from `assets/crash_octopus.toml` (the one the rules use).
fn default_beads() -> Result<BeadSequence, SynthError> {
    crate::games::crash_octopus::rules_data::RulesData::builtin()
        .map(|d| d.counter.beads)
        .map_err(|e| SynthError::Spec {
            field: "beads",
            expected: e.to_string(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenes_fit_and_hold_the_board() {
        for seed in 0..12 {
            let scene = Scene::generate(&SceneSpec::new(seed, 4)).unwrap();
            let ocean = scene.ocean();
            for p in scene.paper.polygon().points() {
                assert!(ocean.contains(*p));
                assert!(ocean.distance_to_outline(*p) >= BOARD_CLEARANCE_MM - 1e-9);
            }
            let margin = VIEW_MARGIN_FRACTION * scene.camera.intrinsics.width as f64;
            for p in ocean.points() {
                assert!(rig::in_view(&scene.camera, PointMm3::above(*p, 0.0), margin));
            }
            let r = &scene.rig;
            assert!((HEIGHT_RANGE_MM.0..=HEIGHT_RANGE_MM.1).contains(&r.height_mm));
            assert!((TILT_RANGE_DEG.0..=TILT_RANGE_DEG.1).contains(&r.tilt_deg));
            let p = scene.string.perimeter_mm;
            assert!((1890.0..=2410.0).contains(&p), "{p}");
        }
    }

    #[test]
    fn fixed_height_and_tilt_are_kept() {
        let mut spec = SceneSpec::new(3, 2);
        spec.height_mm = Some(1050.0);
        spec.tilt_deg = Some(20.0);
        let scene = Scene::generate(&spec).unwrap();
        assert!((scene.rig.height_mm - 1050.0).abs() < 1e-9);
        assert!((scene.camera.pose.camera_centre().z + 1050.0).abs() < 1e-6);
    }

    #[test]
    fn box_holds_the_rulebook_set() {
        let mut spec = SceneSpec::new(1, 4);
        spec.modules.pink_pirate = true;
        spec.modules.island = true;
        spec.modules.little_octopus = true;
        let scene = Scene::generate(&spec).unwrap();
        let count = |k: PieceKind| scene.pieces.iter().filter(|p| p.kind == k).count();
        assert_eq!(count(PieceKind::Tentacle), 8);
        assert_eq!(count(PieceKind::Ship), 4);
        assert_eq!(count(PieceKind::PirateShip), 1);
        assert_eq!(count(PieceKind::Treasure), 24);
        assert_eq!(scene.pieces[0].id, "p1");
        let ids: std::collections::HashSet<_> = scene.pieces.iter().map(|p| &p.id).collect();
        assert_eq!(ids.len(), scene.pieces.len());
    }
}
