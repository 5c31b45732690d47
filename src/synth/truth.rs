//! Ground truth in `analyze`'s vocabulary (`../shared/spec/cli.md`): `truth.json`.
//!
//! Every frame has `image`, `ocean`, `pieces` (each a `PieceReport`, plus the renderer's extra
//! fields `height_mm`, `base_mm`, `visible`), `counter`, `obstructed`, `view_moved`. The top level
//! holds the camera, the board, the scene's parameters, the string's centre line and the beads
//! of the empty set-up. There are no `rulings`: the referee computes them from the true pieces.
//!
//! Readings: `center_mm` is the point the catalog footprint is placed at (`Shape::footprint`'s
//! centre); `angle_deg` is left out for round pieces; the crab, which sits on the string, has
//! `on_string: true` and `in_ocean: true` (the referee never lists it out of the ocean); a loaded
//! treasure's `footprint_mm` is where it stands on the deck, in table coordinates.

use super::counter::BeadPlacement;
use super::faults::Faults;
use super::frame::Frame;
use super::layout::{Layout, NearTie, PlacedPiece};
use super::light::Light;
use super::placement::Table;
use super::render::seen_shares;
use super::scene::{Paper, RigParams, Scene};
use super::sensor::Sensor;
use super::spec::{Modules, Resolution};
use super::surface::Surface;
use crate::calibrate::board::BoardSpec;
use crate::games::crash_octopus::PlayerColor;
use crate::table::{Camera, CounterReport, OceanReport, PieceKind, PieceReport, PointMm, PolygonMm};
use serde::{Deserialize, Serialize};

/// Version of the `truth.json` layout.
pub const TRUTH_VERSION: u32 = 1;

/// One piece in `truth.json`: the `analyze` report plus what only the renderer knows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TruthPiece {
    #[serde(flatten)]
    pub report: PieceReport,
    /// The piece's height (catalog), mm.
    pub height_mm: f64,
    /// Height of the surface it stands on (ship deck, island), mm.
    pub base_mm: f64,
    /// Whether the camera sees it: false for a piece a fault pushed out of view, and for one
    /// whose [`seen_share`](Self::seen_share) is below [`MIN_SEEN_SHARE`].
    pub visible: bool,
    /// Share of the piece's image the camera sees (the rest is behind taller pieces, the counter
    /// or a hand), 0..=1.
    #[serde(default = "all_seen")]
    pub seen_share: f64,
}

/// A piece counts as seen (`visible`) when at least this share of its image shows. With less,
/// what shows is a sliver beside the taller piece that hides it (a treasure behind a tentacle or
/// under the island's palm), too little for a camera to tell what it is; a referee at the
/// table would have to look from another side.
pub const MIN_SEEN_SHARE: f64 = 0.25;

fn all_seen() -> f64 {
    1.0
}

/// One game frame in `truth.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FrameTruth {
    pub image: String,
    pub ocean: OceanReport,
    pub pieces: Vec<TruthPiece>,
    pub counter: CounterReport,
    pub obstructed: bool,
    pub view_moved: bool,
    pub beads: Vec<BeadPlacement>,
    /// Deliberate near ties: two treasures at nearly equal gaps from a ship.
    pub near_ties: Vec<NearTie>,
    pub jpeg_quality: u8,
    /// The camera of this frame when a fault moved it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub camera: Option<Camera>,
    /// The light of this frame when a fault changed it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub light: Option<Light>,
    #[serde(default, skip_serializing_if = "Faults::is_empty")]
    pub faults: Faults,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pushed_out: Vec<String>,
}

/// The scene's parameters as written to `truth.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SceneParams {
    pub seed: u64,
    pub players: Vec<PlayerColor>,
    pub modules: Modules,
    pub resolution: Resolution,
    pub rig: RigParams,
    pub surface: Surface,
    pub light: Light,
    pub sensor: Sensor,
}

/// The string in `truth.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StringTruth {
    /// Closed centre line (the ocean's outline), table frame.
    pub centre_line_mm: PolygonMm,
    pub perimeter_mm: f64,
    pub thickness_mm: f64,
    /// Arc length of the counter's start (blue end) along the centre line.
    pub counter_start_mm: f64,
}

/// The empty set-up capture's truth.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SetupTruth {
    pub image: String,
    pub counter: CounterReport,
    pub beads: Vec<BeadPlacement>,
    pub crab: TruthPiece,
}

/// The whole `truth.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Truth {
    pub version: u32,
    pub scene: SceneParams,
    pub camera: Camera,
    pub board: BoardSpec,
    pub paper: Paper,
    pub board_image: String,
    pub string: StringTruth,
    pub ocean: OceanReport,
    /// The empty set-up (also the board capture's string, beads and crab).
    pub empty: SetupTruth,
    /// Bead positions of the empty set-up (= `empty.beads`).
    pub beads: Vec<BeadPlacement>,
    pub frames: Vec<FrameTruth>,
}

/// The truth of one piece as `camera` sees it.
/// `seen_share` is the share of its image the camera sees.
pub(crate) fn piece_truth(
    scene: &Scene,
    table: &Table<'_>,
    camera: &Camera,
    p: &PlacedPiece,
    seen_share: f64,
) -> TruthPiece {
    let fp = table.footprint(p);
    let entry = scene.catalog.entry(&p.entry);
    let round = entry.is_none_or(|e| e.shape.is_round());
    let ocean = scene.ocean();
    let crab = p.kind == PieceKind::Crab;
    let angle_deg = (!round).then(|| {
        let d = p.angle_rad.to_degrees().rem_euclid(360.0);
        if d >= 180.0 { d - 360.0 } else { d }
    });
    TruthPiece {
        report: PieceReport {
            id: p.id.clone(),
            piece: p.kind,
            treasure: p.treasure,
            color: p.color,
            center_mm: p.center_mm,
            footprint_mm: fp.poly.clone(),
            angle_deg,
            in_ocean: crab || ocean.contains(p.center_mm),
            on_string: crab || (p.loaded_on.is_none() && !p.on_island && fp.poly.intersects_outline(ocean)),
            loaded_on: p.loaded_on.clone(),
            on_island: p.on_island,
            top: p.top,
            confidence: 1.0,
        },
        height_mm: entry.map(|e| e.height_mm).unwrap_or(0.0),
        base_mm: p.base_mm,
        visible: seen_share >= MIN_SEEN_SHARE
            && !table.out_of_view(camera, p, &fp)
            && camera.project_table(p.center_mm).is_some_and(|px| {
                px.x >= 0.0
                    && px.y >= 0.0
                    && px.x <= camera.intrinsics.width as f64 - 1.0
                    && px.y <= camera.intrinsics.height as f64 - 1.0
            }),
        seen_share,
    }
}

/// The true report of every piece of `layout`, whatever the camera sees of it (for rulings on
/// the game itself rather than on a frame).
pub fn layout_reports(scene: &Scene, layout: &Layout) -> Vec<PieceReport> {
    let table = Table::new(scene);
    layout
        .pieces
        .iter()
        .map(|p| piece_truth(scene, &table, &scene.camera, p, all_seen()).report)
        .collect()
}

/// The truth of one rendered frame, whose image is written as `image`.
pub fn frame_truth(scene: &Scene, frame: &Frame, image: &str) -> Result<FrameTruth, super::SynthError> {
    let table = Table::new(scene);
    let camera = frame.options.camera.as_ref().unwrap_or(&scene.camera);
    let shares = seen_shares(scene, &frame.layout, &frame.options)?;
    Ok(FrameTruth {
        image: image.to_string(),
        ocean: OceanReport::new(scene.ocean().clone()),
        pieces: frame
            .layout
            .pieces
            .iter()
            .zip(shares)
            .map(|(p, share)| piece_truth(scene, &table, camera, p, share))
            .collect(),
        counter: CounterReport::new(scene.beads.clone(), frame.layout.counter.crab),
        obstructed: frame.obstructed,
        view_moved: frame.view_moved,
        beads: frame.layout.counter.beads.clone(),
        near_ties: frame.layout.near_ties.clone(),
        jpeg_quality: frame.jpeg_quality,
        camera: frame.options.camera.clone(),
        light: frame.options.light.clone(),
        faults: frame.faults.clone(),
        pushed_out: frame.pushed_out.clone(),
    })
}

/// The whole truth of a scene whose board and empty captures are written as `board_image` and
/// `empty_image`, and whose frames are `frames` (with their image names).
pub fn truth(
    scene: &Scene,
    board_image: &str,
    empty_image: &str,
    frames: &[(Frame, String)],
) -> Result<Truth, super::SynthError> {
    let table = Table::new(scene);
    let empty = scene.counter(0, super::render::EMPTY_COUNTER_VARIANT)?;
    let crab_piece = scene
        .pieces
        .iter()
        .find(|p| p.kind == PieceKind::Crab)
        .ok_or_else(|| super::SynthError::Catalog("the scene has no crab".into()))?;
    let crab = PlacedPiece {
        id: crab_piece.id.clone(),
        entry: crab_piece.entry.clone(),
        kind: PieceKind::Crab,
        treasure: None,
        color: None,
        center_mm: empty.crab_center_mm,
        angle_rad: empty.crab_angle_rad,
        base_mm: 0.0,
        loaded_on: None,
        on_island: false,
        top: None,
    };
    let k = &scene.camera.intrinsics;
    Ok(Truth {
        version: TRUTH_VERSION,
        scene: SceneParams {
            seed: scene.spec.seed,
            players: scene.spec.player_colours(),
            modules: scene.spec.modules,
            resolution: Resolution {
                width: k.width,
                height: k.height,
            },
            rig: scene.rig.clone(),
            surface: scene.surface.clone(),
            light: scene.light.clone(),
            sensor: scene.sensor.clone(),
        },
        camera: scene.camera.clone(),
        board: scene.board.clone(),
        paper: scene.paper.clone(),
        board_image: board_image.to_string(),
        string: StringTruth {
            centre_line_mm: scene.string.centre_line_mm.clone(),
            perimeter_mm: scene.string.perimeter_mm,
            thickness_mm: scene.string.thickness_mm,
            counter_start_mm: scene.counter_start_mm,
        },
        ocean: OceanReport::new(scene.ocean().clone()),
        empty: SetupTruth {
            image: empty_image.to_string(),
            counter: CounterReport::new(scene.beads.clone(), 0),
            beads: empty.beads.clone(),
            crab: piece_truth(scene, &table, &scene.camera, &crab, all_seen()),
        },
        beads: empty.beads,
        frames: frames
            .iter()
            .map(|(f, name)| frame_truth(scene, f, name))
            .collect::<Result<_, _>>()?,
    })
}

/// The board's ChArUco corners projected by the scene's camera: where a detector must find them.
pub fn board_corners_px(scene: &Scene) -> Vec<(usize, crate::table::PointPx)> {
    (0..scene.board.corner_count())
        .filter_map(|id| {
            let p: PointMm = scene.board.corner_mm(id);
            scene.camera.project_table(p).map(|px| (id, px))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth::faults::Faults;
    use crate::synth::spec::SceneSpec;

    #[test]
    fn pieces_are_reported_in_the_analyze_vocabulary() {
        let scene = Scene::generate(&SceneSpec::new(6, 4)).unwrap();
        let faults = Faults {
            pushed_out: 1,
            ..Faults::none()
        };
        let frame = scene.frame(1, &faults).unwrap();
        let t = frame_truth(&scene, &frame, "frame_001.jpg").unwrap();
        assert_eq!(t.image, "frame_001.jpg");
        assert_eq!(t.pieces.len(), scene.pieces.len());
        for p in &t.pieces {
            let r = &p.report;
            let placed = frame.layout.piece(&r.id).unwrap();
            let round = scene.catalog.entry(&placed.entry).unwrap().shape.is_round();
            assert_eq!(r.angle_deg.is_none(), round, "{}", r.id);
            if let Some(a) = r.angle_deg {
                assert!((-180.0..180.0).contains(&a));
            }
            match r.piece {
                PieceKind::Crab => assert!(r.in_ocean && r.on_string),
                PieceKind::InkDie => assert!(r.top.is_some()),
                PieceKind::Ship | PieceKind::Anchor => assert!(r.color.is_some()),
                PieceKind::Treasure => assert!(r.treasure.is_some()),
                _ => {}
            }
            if r.loaded_on.is_some() {
                assert!(!r.on_string && r.in_ocean && p.base_mm > 0.0);
            }
            assert!((0.0..=1.0).contains(&p.seen_share), "{}: {}", r.id, p.seen_share);
            assert_eq!(
                p.visible,
                !frame.pushed_out.contains(&r.id) && p.seen_share >= MIN_SEEN_SHARE,
                "{}",
                r.id
            );
            assert_eq!(
                r.in_ocean,
                r.piece == PieceKind::Crab || scene.ocean().contains(r.center_mm)
            );
        }
        assert_eq!(t.counter.crab, frame.layout.counter.crab);
        assert_eq!(t.counter.next, scene.beads.get(frame.layout.counter.crab));
    }

    #[test]
    fn a_captain_hidden_behind_a_tentacle_is_not_counted_as_seen_and_a_lone_piece_is_seen_whole() {
        // Scene 28 of `octoref bench --seed 201`: in frame 0 captain p16 stands behind tentacle
        // p5, which leans over it in the camera's view (0.05 of it shows); treasure p15 is alone.
        let config = crate::vision::bench::BenchConfig {
            seed: 201,
            ..Default::default()
        };
        let spec = crate::vision::bench::scene_specs(&config)[27].clone();
        assert_eq!(spec.seed, 228);
        let scene = Scene::generate(&spec).unwrap();
        let frame = scene.frame(0, &Faults::none()).unwrap();
        let t = frame_truth(&scene, &frame, "").unwrap();
        let piece = |id: &str| t.pieces.iter().find(|p| p.report.id == id).unwrap();
        let captain = piece("p16");
        assert_eq!(
            captain.report.treasure,
            Some(crate::games::crash_octopus::TreasureType::Captain)
        );
        assert!(captain.seen_share < 0.1, "{}", captain.seen_share);
        assert!(!captain.visible);
        let tentacle = piece("p5");
        assert_eq!(tentacle.report.piece, PieceKind::Tentacle);
        assert!(
            tentacle.seen_share > 0.95 && tentacle.visible,
            "{}",
            tentacle.seen_share
        );
        let hidden = t.pieces.iter().filter(|p| !p.visible).count();
        assert_eq!(hidden, 1, "only the captain is hidden");
    }

    #[test]
    fn board_corners_are_inside_the_image() {
        let scene = Scene::generate(&SceneSpec::new(2, 2)).unwrap();
        let corners = board_corners_px(&scene);
        assert_eq!(corners.len(), 24);
        let k = &scene.camera.intrinsics;
        for (_, p) in corners {
            assert!(p.x > 0.0 && p.y > 0.0 && p.x < k.width as f64 && p.y < k.height as f64);
        }
    }
}
