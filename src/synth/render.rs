//! Rendering a scene: the board capture, the empty set-up capture and game frames.
//!
//! Every function returns an OpenCV `Mat`, BGR, 8-bit, 3 channels, of the camera's resolution.
//! The geometry is exact: a table point appears where `scene.camera.project` (distortion
//! included) puts it, to within the interpolation of the final remap.

use super::SynthError;
use super::counter::CounterLayout;
use super::faults::Hand;
use super::layout::Layout;
use super::light::{Light, Rgb, mix, rgb8, srgb_to_linear};
use super::mesh::{Material, Part, V3};
use super::pieces::{bead, piece_parts};
use super::random::{Purpose, mix64};
use super::raster::{self, CanvasGeometry, Raster, Shading, View};
use super::scene::Scene;
use super::sensor::{self, DistortionMaps};
use crate::calibrate::aruco;
use crate::games::crash_octopus::Bead;
use crate::table::{Camera, PolygonMm, Shape};
use opencv::core::{self, Mat, Size};
use opencv::imgproc;
use opencv::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// Resolution of the board texture, pixels per millimetre (a 40 mm square = 320 texels).
const BOARD_TEXELS_PER_MM: f64 = 8.0;
/// Albedo of the printer's black ink relative to the paper.
const INK_ALBEDO: f32 = 0.045;
/// Width of the soft edge of the table shadows, mm (the lamp is not a point).
const SHADOW_SOFTNESS_MM: f64 = 1.8;
/// Reach of the contact shadows around a piece's base, mm (Gaussian sigma).
const CONTACT_SHADOW_MM: f64 = 3.0;
/// Height of the string's centre above the table, mm (it lies on the table).
const STRING_LIFT_MM: f64 = 2.0;
/// Sides of the string's tube.
const STRING_SIDES: usize = 6;
/// Noise stream index of the board and the empty capture (frames use their index).
const BOARD_NOISE_INDEX: u64 = 1 << 40;
const EMPTY_NOISE_INDEX: u64 = (1 << 40) + 1;
/// The counter's small random gaps in the board and empty captures (frames use their index).
pub(crate) const EMPTY_COUNTER_VARIANT: u64 = 1 << 40;

/// Per-frame rendering knobs. The default renders the scene's camera and light with no hand and
/// no sensor noise.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct RenderOptions {
    /// The camera for this frame (a nudged camera); `None` = the scene's.
    #[serde(default)]
    pub camera: Option<Camera>,
    /// The light for this frame (a lighting change); `None` = the scene's.
    #[serde(default)]
    pub light: Option<Light>,
    #[serde(default)]
    pub hand: Option<Hand>,
    /// Seed of the sensor noise; `None` renders without noise.
    #[serde(default)]
    pub noise_seed: Option<u64>,
}

/// Things computed once per scene and shared by its renders.
#[derive(Debug, Default)]
pub(crate) struct RenderCache {
    board: OnceLock<Result<BoardTexture, String>>,
    maps: OnceLock<(CanvasGeometry, Option<DistortionMaps>)>,
}

#[derive(Debug)]
struct BoardTexture {
    width: usize,
    height: usize,
    texels: Vec<u8>,
}

impl BoardTexture {
    fn draw(scene: &Scene) -> Result<Self, String> {
        let mat = aruco::draw_board(&scene.board, BOARD_TEXELS_PER_MM, 0).map_err(|e| e.to_string())?;
        let width = mat.cols() as usize;
        let height = mat.rows() as usize;
        let texels = mat.data_bytes().map_err(|e| e.to_string())?.to_vec();
        if texels.len() != width * height {
            return Err("the drawn board is not an 8-bit grey image".into());
        }
        Ok(Self {
            width,
            height,
            texels,
        })
    }

    /// Bilinear ink coverage (1 = paper white, 0 = ink) at a board point in mm.
    fn sample(&self, x_mm: f64, y_mm: f64) -> f32 {
        let u = x_mm * BOARD_TEXELS_PER_MM - 0.5;
        let v = y_mm * BOARD_TEXELS_PER_MM - 0.5;
        let (u0, v0) = (u.floor(), v.floor());
        let (fu, fv) = ((u - u0) as f32, (v - v0) as f32);
        let at = |x: f64, y: f64| -> f32 {
            let xi = (x as i64).clamp(0, self.width as i64 - 1) as usize;
            let yi = (y as i64).clamp(0, self.height as i64 - 1) as usize;
            self.texels[yi * self.width + xi] as f32 / 255.0
        };
        let a = at(u0, v0);
        let b = at(u0 + 1.0, v0);
        let c = at(u0, v0 + 1.0);
        let d = at(u0 + 1.0, v0 + 1.0);
        let top = a + (b - a) * fu;
        let bottom = c + (d - c) * fu;
        top + (bottom - top) * fv
    }
}

/// The board capture: the printed board flat in the ocean, the string with its beads and the
/// crab at the start, no pieces.
pub fn render_board(scene: &Scene) -> Result<Mat, SynthError> {
    let counter = scene.counter(0, EMPTY_COUNTER_VARIANT)?;
    let parts = counter_parts(scene, &counter, true)?;
    let bases = counter_bases(scene, &counter)?;
    let noise = mix64(scene.spec.seed ^ mix64(Purpose::Noise as u64) ^ BOARD_NOISE_INDEX);
    render_parts(
        scene,
        &scene.camera,
        &scene.light,
        &parts,
        &bases,
        true,
        Some(noise),
    )
}

/// The empty set-up capture: the string, the beads and the crab before the first bead.
pub fn render_empty(scene: &Scene) -> Result<Mat, SynthError> {
    let counter = scene.counter(0, EMPTY_COUNTER_VARIANT)?;
    let parts = counter_parts(scene, &counter, true)?;
    let bases = counter_bases(scene, &counter)?;
    let noise = mix64(scene.spec.seed ^ mix64(Purpose::Noise as u64) ^ EMPTY_NOISE_INDEX);
    render_parts(
        scene,
        &scene.camera,
        &scene.light,
        &parts,
        &bases,
        false,
        Some(noise),
    )
}

/// A game frame: every piece of `layout` (its crab and beads included), with `options`' camera,
/// light, hand and noise.
pub fn render_frame(scene: &Scene, layout: &Layout, options: &RenderOptions) -> Result<Mat, SynthError> {
    let FrameParts {
        counter: mut parts,
        pieces,
        hand,
        bases,
    } = frame_parts(scene, layout, options)?;
    parts.extend(pieces.into_iter().flatten());
    parts.extend(hand);
    let camera = options.camera.as_ref().unwrap_or(&scene.camera);
    let light = options.light.as_ref().unwrap_or(&scene.light);
    render_parts(scene, camera, light, &parts, &bases, false, options.noise_seed)
}

/// What share of each of `layout`'s pieces the camera of `options` sees, in layout order: the
/// rest is hidden behind taller pieces, the counter or the hand (see [`raster::seen_shares`]).
pub fn seen_shares(scene: &Scene, layout: &Layout, options: &RenderOptions) -> Result<Vec<f64>, SynthError> {
    let FrameParts {
        counter: mut occluders,
        pieces,
        hand,
        ..
    } = frame_parts(scene, layout, options)?;
    occluders.extend(hand);
    let camera = options.camera.as_ref().unwrap_or(&scene.camera);
    let canvas = sensor::canvas_for(camera);
    let view = View::new(camera, canvas);
    Ok(raster::seen_shares(
        &view,
        canvas.width,
        canvas.height,
        &occluders,
        &pieces,
    ))
}

/// The solids of a game frame, drawn in this order: the counter, the pieces, the hand.
struct FrameParts {
    /// The string and its beads.
    counter: Vec<Part>,
    /// Each piece's solids, in layout order.
    pieces: Vec<Vec<Part>>,
    hand: Vec<Part>,
    /// Where the beads, the crab and the pieces standing on the table touch it.
    bases: Vec<PolygonMm>,
}

fn frame_parts(scene: &Scene, layout: &Layout, options: &RenderOptions) -> Result<FrameParts, SynthError> {
    let counter = counter_parts(scene, &layout.counter, false)?;
    let mut bases = counter_bases(scene, &layout.counter)?;
    bases.truncate(layout.counter.beads.len());
    let mut pieces = Vec::with_capacity(layout.pieces.len());
    for p in &layout.pieces {
        let entry = scene.entry(&p.entry)?;
        pieces.push(piece_parts(entry, p.center_mm, p.angle_rad, p.base_mm, p.top));
        if p.base_mm == 0.0 {
            bases.push(entry.footprint(p.center_mm, p.angle_rad));
        }
    }
    let hand = options.hand.as_ref().map(|h| h.parts()).unwrap_or_default();
    Ok(FrameParts {
        counter,
        pieces,
        hand,
        bases,
    })
}

/// The string, the beads and (with `with_crab`) the crab of a counter layout.
/// Where the beads and the crab touch the table (for their contact shadows); the crab last.
fn counter_bases(scene: &Scene, counter: &CounterLayout) -> Result<Vec<PolygonMm>, SynthError> {
    let r = scene.catalog.string.bead_diameter_mm / 2.0;
    let mut out: Vec<PolygonMm> = counter
        .beads
        .iter()
        .map(|b| Shape::Disc { diameter_mm: 2.0 * r }.footprint(b.center_mm, 0.0))
        .collect();
    let crab = scene
        .catalog
        .piece(crate::table::PieceKind::Crab, None)
        .ok_or_else(|| SynthError::Catalog("the catalog has no crab".into()))?;
    out.push(crab.footprint(counter.crab_center_mm, counter.crab_angle_rad));
    Ok(out)
}

fn counter_parts(scene: &Scene, counter: &CounterLayout, with_crab: bool) -> Result<Vec<Part>, SynthError> {
    let spec = &scene.catalog.string;
    let mut parts = Vec::with_capacity(counter.beads.len() + 2);
    let path: Vec<V3> = scene
        .string
        .centre_line_mm
        .points()
        .iter()
        .map(|p| V3::new(p.x, p.y, -STRING_LIFT_MM))
        .collect();
    let mut cord = Part::new(Material::MATTE.receiving());
    cord.closed_tube(
        &path,
        spec.thickness_mm / 2.0,
        srgb_to_linear(spec.colour),
        STRING_SIDES,
    );
    parts.push(cord);
    for b in &counter.beads {
        let colour = match b.bead {
            Bead::Blue => srgb_to_linear(spec.bead_blue),
            Bead::Black => srgb_to_linear(spec.bead_black),
        };
        for part in bead(spec.bead_diameter_mm, colour) {
            parts.push(part.placed(b.center_mm, 0.0, 0.0));
        }
    }
    if with_crab {
        let crab = scene
            .catalog
            .piece(crate::table::PieceKind::Crab, None)
            .ok_or_else(|| SynthError::Catalog("the catalog has no crab".into()))?;
        parts.extend(piece_parts(
            crab,
            counter.crab_center_mm,
            counter.crab_angle_rad,
            0.0,
            None,
        ));
    }
    Ok(parts)
}

/// Rasterises `parts` (and the board when `board` is set) with `camera` and `light`, then develops
/// the canvas through the scene's optics and sensor.
fn render_parts(
    scene: &Scene,
    camera: &Camera,
    light: &Light,
    parts: &[Part],
    bases: &[PolygonMm],
    board: bool,
    noise_seed: Option<u64>,
) -> Result<Mat, SynthError> {
    let (canvas, maps) = scene.cache.maps.get_or_init(|| {
        let canvas = sensor::canvas_for(&scene.camera);
        let maps = scene
            .camera
            .intrinsics
            .has_distortion()
            .then(|| sensor::distortion_maps(&scene.camera, canvas));
        (canvas, maps)
    });
    let (canvas, maps) = if camera.intrinsics == scene.camera.intrinsics {
        (*canvas, maps.as_ref())
    } else {
        (sensor::canvas_for(camera), None)
    };
    let owned_maps;
    let maps = match maps {
        Some(m) => Some(m),
        None if camera.intrinsics.has_distortion() => {
            owned_maps = sensor::distortion_maps(camera, canvas);
            Some(&owned_maps)
        }
        None => None,
    };
    let view = View::new(camera, canvas);
    let shading = Shading::new(light);
    let mut raster = Raster::new(canvas.width, canvas.height);
    raster.cast_shadows(&view, &shading.to_light, parts);
    let softness_px = SHADOW_SOFTNESS_MM * view.px_per_mm_at(scene.ocean().centroid());
    blur_mask(&mut raster.shadow, canvas.width, canvas.height, softness_px)?;
    raster.occlude(&view, bases);
    let contact_px = CONTACT_SHADOW_MM * view.px_per_mm_at(scene.ocean().centroid());
    blur_mask(&mut raster.occlusion, canvas.width, canvas.height, contact_px)?;
    let strength = light.contact_shadow.clamp(0.0, 1.0) as f32;
    for o in &mut raster.occlusion {
        *o *= strength;
    }
    for p in parts {
        raster.draw_part(&view, &shading, p);
    }
    let texture = if board {
        match scene.cache.board.get_or_init(|| BoardTexture::draw(scene)) {
            Ok(t) => Some(t),
            Err(e) => return Err(SynthError::Board(e.clone())),
        }
    } else {
        None
    };
    let paper = &scene.paper;
    let paper_colour: Rgb = rgb8(paper.srgb[0], paper.srgb[1], paper.srgb[2]);
    let ink = mix([0.0; 3], paper_colour, INK_ALBEDO);
    let (bw, bh) = scene.board.size_mm();
    let table = scene.surface.texture();
    let albedo = |x: f64, y: f64, mm_per_px: f64| -> Rgb {
        if let Some(t) = texture
            && paper.contains(crate::table::PointMm::new(x, y))
        {
            if x >= 0.0 && y >= 0.0 && x <= bw && y <= bh {
                return mix(ink, paper_colour, t.sample(x, y));
            }
            return paper_colour;
        }
        table.albedo(x, y, mm_per_px)
    };
    let near_paper = |x: f64, y: f64| {
        texture.is_some() && {
            let o = paper.origin_mm;
            x >= o.x - 2.0
                && y >= o.y - 2.0
                && x <= o.x + paper.size_mm[0] + 2.0
                && y <= o.y + paper.size_mm[1] + 2.0
        }
    };
    raster.draw_table(&view, &shading, &albedo, &near_paper);
    sensor::develop(&raster, camera, canvas, &scene.sensor, maps, noise_seed)
}

/// Softens the shadow mask with a Gaussian of `sigma_px`.
fn blur_mask(mask: &mut [f32], width: usize, height: usize, sigma_px: f64) -> Result<(), SynthError> {
    if sigma_px < 0.3 {
        return Ok(());
    }
    let src = Mat::new_rows_cols_with_data(height as i32, width as i32, mask)?.try_clone()?;
    let mut dst = Mat::default();
    imgproc::gaussian_blur(
        &src,
        &mut dst,
        Size::new(0, 0),
        sigma_px,
        sigma_px,
        core::BORDER_REPLICATE,
    )?;
    let out = dst.data_typed::<f32>()?;
    if out.len() == mask.len() {
        mask.copy_from_slice(out);
    }
    Ok(())
}
