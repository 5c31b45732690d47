//! Game frames: a scene's layouts in game order, and a frame = one layout plus the rendering knobs
//! and faults of that moment.

use super::SynthError;
use super::arrange::{Arranger, Spot};
use super::faults::{Faults, Hand, hand_covers_ocean};
use super::layout::Layout;
use super::play;
use super::random::{Purpose, mix64, stream, uniform};
use super::render::RenderOptions;
use super::scene::Scene;
use super::sensor::Sensor;
use super::setup;
use crate::table::{PieceKind, PointMm};
use serde::{Deserialize, Serialize};

/// One game frame ready to render: its layout (faults applied), render options and what the
/// truth must say about it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Frame {
    pub index: usize,
    pub layout: Layout,
    pub options: RenderOptions,
    /// Quality the frame is written with (`write_scene`), or to pass to `jpeg_round_trip`.
    pub jpeg_quality: u8,
    pub faults: Faults,
    /// Ids of the pieces a fault pushed out of the camera's view.
    pub pushed_out: Vec<String>,
    /// A hand covers part of the ocean.
    pub obstructed: bool,
    /// The camera no longer matches the scene's calibration.
    pub view_moved: bool,
}

impl Scene {
    /// The layouts of frames `0..count`, in game order (each follows from the one before).
    pub fn layouts(&self, count: usize) -> Result<Vec<Layout>, SynthError> {
        let mut out: Vec<Layout> = Vec::with_capacity(count);
        for k in 0..count {
            let next = match out.last() {
                None => setup::first_frame(self)?,
                Some(prev) => play::next_frame(self, prev, k)?,
            };
            out.push(next);
        }
        Ok(out)
    }

    /// The layout of frame `frame` (replays the game from frame 0).
    pub fn layout(&self, frame: usize) -> Result<Layout, SynthError> {
        let mut all = self.layouts(frame + 1)?;
        all.pop().ok_or(SynthError::Layout {
            seed: self.spec.seed,
            frame,
            reason: "no layout".into(),
        })
    }

    /// Frame `index` with `faults` (replays the game to get its layout).
    pub fn frame(&self, index: usize, faults: &Faults) -> Result<Frame, SynthError> {
        let layout = self.layout(index)?;
        self.frame_from(layout, faults)
    }

    /// The frame showing `layout` (its `frame` field is the index) with `faults`.
    pub fn frame_from(&self, layout: Layout, faults: &Faults) -> Result<Frame, SynthError> {
        let index = layout.frame;
        let seed = self.spec.seed;
        let mut options = RenderOptions {
            noise_seed: Some(mix64(seed ^ mix64(Purpose::Noise as u64) ^ index as u64)),
            ..RenderOptions::default()
        };
        let mut view_moved = false;
        if let Some(nudge) = &faults.camera_nudge {
            options.camera = Some(nudge.apply(&self.camera, seed, index as u64));
            view_moved = nudge.rotation_deg != 0.0 || nudge.translation_mm != 0.0;
        }
        if let Some(change) = &faults.lighting {
            options.light = Some(change.apply(&self.light));
        }
        let mut obstructed = false;
        if faults.hand {
            let hand = Hand::sample(seed, index as u64, &self.string);
            let camera = options.camera.as_ref().unwrap_or(&self.camera);
            obstructed = hand_covers_ocean(&hand.parts(), camera, self.ocean());
            options.hand = Some(hand);
        }
        let (layout, pushed_out) = if faults.pushed_out > 0 {
            push_out(self, layout, faults.pushed_out)
        } else {
            (layout, Vec::new())
        };
        Ok(Frame {
            index,
            layout,
            options,
            jpeg_quality: Sensor::jpeg_quality(seed, index as u64),
            faults: faults.clone(),
            pushed_out,
            obstructed,
            view_moved,
        })
    }
}

/// Moves up to `count` pieces (loose treasures first, then the die, then anchors) out of the
/// camera's view. Near ties that lose a piece are dropped from the layout.
fn push_out(scene: &Scene, layout: Layout, count: usize) -> (Layout, Vec<String>) {
    let rng = stream(scene.spec.seed, Purpose::Faults, 4096 + layout.frame as u64);
    let mut a = Arranger::from_layout(scene, &layout, rng);
    let ocean_c = scene.ocean().centroid();
    let mut order: Vec<usize> = (0..a.pieces.len())
        .filter(|&i| {
            a.pieces[i].kind == PieceKind::Treasure
                && a.pieces[i].loaded_on.is_none()
                && !a.pieces[i].on_island
        })
        .collect();
    order.extend(a.of_kind(PieceKind::InkDie));
    order.extend(a.of_kind(PieceKind::Anchor));
    let mut moved = Vec::new();
    for i in order {
        if moved.len() >= count {
            break;
        }
        for _ in 0..24 {
            let th = uniform(&mut a.rng, 0.0, std::f64::consts::TAU);
            let dir = PointMm::new(th.cos(), th.sin());
            let mut d = setup::ray_reach(&a, ocean_c, dir) + 60.0;
            let mut done = false;
            while d < 4000.0 {
                let cand = a.on_table(i, ocean_c + dir * d, th);
                if a.try_put(i, cand, Spot::OutOfView) {
                    done = true;
                    break;
                }
                d += 40.0;
            }
            if done {
                moved.push(a.pieces[i].id.clone());
                break;
            }
        }
    }
    let counter = layout.counter.clone();
    let mut out = a.into_layout(layout.frame, counter);
    out.near_ties = layout
        .near_ties
        .into_iter()
        .filter(|t| !moved.contains(&t.closest) && !moved.contains(&t.runner_up))
        .collect();
    (out, moved)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth::placement::{MIN_GAP_MM, STRING_CLEARANCE_MM, Table};
    use crate::synth::play::{NEAR_TIE_CLEARANCE_MM, NEAR_TIE_MARGIN_MAX_MM};
    use crate::synth::spec::{Modules, SceneSpec};

    fn specs() -> Vec<SceneSpec> {
        let mut out = Vec::new();
        for seed in 0..6u64 {
            let mut s = SceneSpec::new(seed, 2 + (seed % 3) as u8);
            s.modules = Modules {
                pink_pirate: seed % 2 == 1,
                little_octopus: seed % 3 == 0,
                island: seed % 2 == 0,
            };
            out.push(s);
        }
        out
    }

    /// Every rule the layouts promise, checked on several scenes and frames.
    #[test]
    fn layouts_keep_their_promises() {
        for spec in specs() {
            let scene = Scene::generate(&spec).unwrap();
            let table = Table::new(&scene);
            let ocean = scene.ocean();
            let layouts = scene.layouts(4).unwrap();
            let mut crab_before = 0;
            for l in &layouts {
                let tag = format!("seed {} frame {}", spec.seed, l.frame);
                assert_eq!(
                    l.pieces.len(),
                    scene.pieces.len(),
                    "{tag}: every piece is on the table"
                );
                let fps: Vec<_> = l.pieces.iter().map(|p| table.footprint(p)).collect();
                let surface = |p: &crate::synth::PlacedPiece| (p.loaded_on.clone(), p.on_island);
                for (i, p) in l.pieces.iter().enumerate() {
                    assert!(
                        table.visible(&scene.camera, p, &fps[i]),
                        "{tag}: {} out of view",
                        p.id
                    );
                    for (j, q) in l.pieces.iter().enumerate().skip(i + 1) {
                        if surface(p) == surface(q) {
                            let g = fps[i].exact_gap(&fps[j]);
                            assert!(
                                g >= MIN_GAP_MM - 1e-6,
                                "{tag}: {} and {} overlap ({g:.2} mm)",
                                p.id,
                                q.id
                            );
                        }
                    }
                    match p.kind {
                        PieceKind::OctopusHead
                        | PieceKind::Tentacle
                        | PieceKind::Ship
                        | PieceKind::Anchor
                        | PieceKind::PirateShip
                        | PieceKind::OctoCanon
                        | PieceKind::Island
                        | PieceKind::LittleOctopus => {
                            assert!(
                                ocean.contains(p.center_mm),
                                "{tag}: {} ({}) outside the ocean",
                                p.id,
                                p.kind
                            );
                            assert!(
                                table.string_distance(&fps[i]) >= STRING_CLEARANCE_MM - 1e-9,
                                "{tag}: {} on the string",
                                p.id
                            );
                        }
                        _ => {}
                    }
                    if let Some(ship) = &p.loaded_on {
                        let s = l.piece(ship).unwrap();
                        let sfp = table.footprint(s);
                        assert!(
                            sfp.poly.contains(p.center_mm),
                            "{tag}: {} not on its ship's deck",
                            p.id
                        );
                        let deck = scene.catalog.entry(&s.entry).unwrap().height_mm;
                        assert_eq!(p.base_mm, deck, "{tag}: {} stands at the deck's height", p.id);
                        assert!(matches!(s.kind, PieceKind::Ship | PieceKind::PirateShip));
                    }
                    if p.on_island {
                        let isl = l.pieces.iter().find(|q| q.kind == PieceKind::Island).unwrap();
                        assert!(
                            table.footprint(isl).poly.contains(p.center_mm),
                            "{tag}: {} off the island",
                            p.id
                        );
                    }
                }
                // Loaded types are distinct per ship, and the crab counts the ship players' loads.
                for s in l.pieces.iter().filter(|p| p.kind == PieceKind::Ship) {
                    let mut types: Vec<_> = l
                        .pieces
                        .iter()
                        .filter(|p| p.loaded_on.as_deref() == Some(s.id.as_str()))
                        .filter_map(|p| p.treasure)
                        .collect();
                    let n = types.len();
                    types.sort();
                    types.dedup();
                    assert_eq!(types.len(), n, "{tag}: {} holds a type twice", s.id);
                }
                assert!(l.counter.crab >= crab_before, "{tag}: the crab never walks back");
                crab_before = l.counter.crab;
                let crab = l.pieces.iter().find(|p| p.kind == PieceKind::Crab).unwrap();
                assert!(crab.center_mm.distance(l.counter.crab_center_mm) < 1e-9);
                // Near ties: the two closest candidates, within the margin, the rest clearly farther.
                assert!(!l.near_ties.is_empty() || l.frame > 0, "{tag}: no near tie");
                for t in &l.near_ties {
                    let sfp = table.footprint(l.piece(&t.ship).unwrap());
                    let gap = |id: &str| table.footprint(l.piece(id).unwrap()).exact_gap(&sfp);
                    let (g1, g2) = (gap(&t.closest), gap(&t.runner_up));
                    assert!((g1 - t.closest_gap_mm).abs() < 1e-6 && (g2 - t.runner_up_gap_mm).abs() < 1e-6);
                    assert!(
                        (-1e-6..=NEAR_TIE_MARGIN_MAX_MM + 1e-6).contains(&(g2 - g1)),
                        "{tag}: margin {}",
                        g2 - g1
                    );
                    for (k, p) in l.pieces.iter().enumerate() {
                        let candidate = p.kind == PieceKind::Treasure
                            && p.loaded_on.is_none()
                            && !p.on_island
                            && ocean.contains(p.center_mm);
                        if candidate && p.id != t.closest && p.id != t.runner_up {
                            let g = fps[k].exact_gap(&sfp);
                            assert!(
                                g > g2 + NEAR_TIE_CLEARANCE_MM - 1e-6,
                                "{tag}: {} at {g:.1} mm beats the tie at {g2:.1}",
                                p.id
                            );
                        }
                    }
                }
            }
            // Set-up: each anchor beside its ship in frame 0.
            let l0 = &layouts[0];
            for a in l0.pieces.iter().filter(|p| p.kind == PieceKind::Anchor) {
                let s = l0
                    .pieces
                    .iter()
                    .find(|p| p.kind == PieceKind::Ship && p.color == a.color)
                    .unwrap();
                let g = table.footprint(a).exact_gap(&table.footprint(s));
                assert!(
                    g <= crate::synth::setup::ADJACENT_GAP_RANGE_MM.1 + 1e-6,
                    "anchor {} is {g:.1} mm from its ship",
                    a.id
                );
            }
        }
    }

    #[test]
    fn frames_change_as_a_game_goes_on() {
        let scene = Scene::generate(&SceneSpec::new(2, 4)).unwrap();
        let layouts = scene.layouts(5).unwrap();
        let moved = |a: &Layout, b: &Layout| {
            a.pieces
                .iter()
                .zip(&b.pieces)
                .filter(|(p, q)| p.center_mm.distance(q.center_mm) > 1.0)
                .count()
        };
        for w in layouts.windows(2) {
            assert!(
                moved(&w[0], &w[1]) >= 1,
                "frame {} is a copy of the one before",
                w[1].frame
            );
        }
        let loaded = |l: &Layout| l.pieces.iter().filter(|p| p.loaded_on.is_some()).count();
        assert!(loaded(&layouts[4]) > loaded(&layouts[0]), "loads accumulate");
        assert_eq!(
            scene.layout(3).unwrap(),
            layouts[3],
            "a frame's layout does not depend on how it is asked for"
        );
    }

    #[test]
    fn faults_are_applied_and_reported() {
        let scene = Scene::generate(&SceneSpec::new(4, 3)).unwrap();
        let faults = Faults {
            hand: true,
            lighting: Some(crate::synth::LightingChange::random(4, 1)),
            camera_nudge: Some(crate::synth::CameraNudge::default()),
            pushed_out: 2,
        };
        let f = scene.frame(1, &faults).unwrap();
        assert!(f.obstructed && f.view_moved);
        assert_eq!(f.pushed_out.len(), 2);
        let table = Table::new(&scene);
        for id in &f.pushed_out {
            let p = f.layout.piece(id).unwrap();
            assert!(table.out_of_view(&scene.camera, p, &table.footprint(p)));
        }
        assert!(f.options.camera.as_ref().is_some_and(|c| *c != scene.camera));
        assert!(f.options.light.as_ref().is_some_and(|l| *l != scene.light));
        let clean = scene.frame(1, &Faults::none()).unwrap();
        assert!(!clean.obstructed && !clean.view_moved && clean.options.hand.is_none());
    }
}
