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
