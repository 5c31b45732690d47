//! The per-frame pipeline: a raw camera frame in, every piece on the table out.
//!
//! [`Analyzer::new`] does once everything that depends only on the profile (warp maps, the
//! blurred reference at both scales, masks, colour models, solids). [`Analyzer::analyze`] then
//! runs, per frame: rectify (coarse view) -> foreground (white balance, labels) -> blobs (changed
//! regions, fine views) -> classify (which pieces explain each region) -> footprint (deck and
//! island heights, footprints, in/out) -> counter (the crab on the string). The referee runs on
//! top ([`Analyzer::report`]). Every stage is timed.
//!
//! The changed regions and the counter are independent of each other: they are looked at on
//! several threads ([`Analyzer::with_threads`]; `parallel.rs`), and their findings gathered in
//! region order, so a frame's reading is the same on any number of threads.
//!
//! Conventions: table frame, millimetres (spec/table.md). Piece ids are `"p1"`, `"p2"`... in
//! the order pieces are found; they are stable within a frame only (tracking gives them a life
//! across frames).

use super::VisionError;
use super::colour::{
    ColourModel, ColourSet, DARK_MAX_BRIGHTNESS, PALER_MIN, Palette, dot, entry_colours, norm,
};
use super::counter::CounterBand;
use super::detect::{Detection, Detector, Model, die_top, refit_as, repose};
use super::fit::Fit;
use super::in_play::InPlay;
use super::labels::Label;
use super::parallel::{default_threads, run_tasks};
use super::rectify::{COARSE_STEP, Rectification};
use super::region::{self, CoarseInputs, FineInputs};
use super::stacked::{Placed, stacked_duplicates};
use super::taught::TaughtModels;
use super::view::Viewpoint;
use crate::calibrate::profile::Profile;
use crate::referee::{self, FrameReport, GameContext};
use crate::table::catalog::Srgb;
use crate::table::{Catalog, CounterReport, OceanReport, PieceKind, PieceReport, PointMm, PolygonMm};
use opencv::core::{self, Mat, Scalar};
use opencv::prelude::*;
use serde::Serialize;
use std::time::Instant;

/// Unexplained changed area (mm²) in one region that means something other than a piece is
/// there (a hand, an arm).
pub const OBSTRUCTION_MIN_MM2: f64 = 1800.0;
/// ...when it also spans at least this far.
pub const OBSTRUCTION_MIN_SPAN_MM: f64 = 60.0;
/// A changed patch at least this large (mm², coarse) that reaches the edge of what the camera
/// sees is an arm reaching in: pieces do not come in from outside, and no piece but the
/// octopus's head (in the middle of the ocean) is that big. An arm held high shows little of
/// itself on the table's plane: the demo's dropping arm covers 2700 mm² there.
pub const ARM_MIN_MM2: f64 = 2500.0;
/// Share of the string (outside the counter) that must look changed for the view to have moved.
pub const VIEW_MOVED_STRING_SHARE: f64 = 0.5;
/// The frame's table is this much brighter or darker than the reference's (white-balance gain
/// averaged over the channels, either way): the room's light changed since calibration.
pub const LIGHTING_CHANGED_GAIN: f32 = 1.12;
/// ...or its channels' gains differ by this ratio (a colour cast: a lamp, daylight).
pub const LIGHTING_CHANGED_CAST: f32 = 1.06;
/// A piece's catalog colour at least this many times as light as the table (both next to white
/// paper) stands out from it even where its colour looks like the table's (a white captain on a
/// grey table): such a piece may be placed by its body when its top does not show. On a pale
/// grey table (three quarters as light as the paper) the captain's navy hat, small and greyed by
/// its highlights, reads as shadow, and only the lit side of its white body shows, a fifth
/// lighter than the table: enough. On a table nearly as light as the paper the body does not
/// show.
pub const BODY_STANDS_OUT_RATIO: f32 = 1.15;
/// A piece colour this close to the table's chroma looks like the table (see [`table_like`],
/// [`lighter_of_table_hue`]).
const TABLE_LIKE_CHROMA: f32 = 0.05;
/// ...when it is never darker than this share of the table's brightness (see [`light`]).
const TABLE_LIKE_MIN_BRIGHTNESS: f32 = 0.5;
/// Two chromatic colours whose chromas point within this cosine of each other are one hue...
const SAME_HUE_COS: f32 = 0.98;
/// A treasure whose catalog colour's chroma points within this cosine of a ship's is of the
/// ship's hue: on its lit deck the two read alike (orange and gold: 0.980, goblets' yellow
/// 0.960, the brown chest 0.999; the next nearest, the blue ship and the gem, 0.86).
const DECK_KIN_COS: f32 = 0.95;
/// ...and the lighter one tells a piece of the darker apart when it is at least this many times
/// as light (orange against brown: 1.52; the island's sand against the gold bar, 1.45, does not:
/// gold's highlights light a bar as much as the sand).
const TWIN_MIN_LIGHTNESS_RATIO: f32 = 1.5;
/// Points sampled along the string for that test.
const STRING_SAMPLES: usize = 400;
/// The level (8-bit, per channel) white paper is taken to read when [`passes_for_table`] asks
/// whether a piece passes for the table: a webcam's automatic exposure puts the paper at 180-240.
const LIKENESS_PAPER_LEVEL: f32 = 200.0;
/// How far (chroma units) the table's chroma may lie off a piece colour's for the table to be
/// a paler shade of it (see [`paler_table`]): light wood is a washed-out gold to within ~0.01;
/// a peach wood (bench scene 19) lies 0.027 off gold, and a gold bar's lit top still washes out
/// to it.
const PALER_TABLE_MAX_OFF: f32 = 0.03;
/// Confidence of a fit from its quality (gain per silhouette pixel): `quality / this`, capped.
const CONFIDENT_QUALITY: f64 = 0.75;
/// Lowest confidence reported for an accepted piece.
const MIN_CONFIDENCE: f64 = 0.2;
/// A piece over its kind's count reads as another model sharing its colour ([`within_counts`])
/// when that model fits it at least this well...
const TURN_MIN_QUALITY: f64 = 0.5;
/// ...and a kept piece is turned into it only when it keeps at least this share of its score
/// (gain times quality) as first read. On warm wood a canon's rim blends with the table and its
/// own model keeps 0.62-0.66 of the die's score there (scene 208 of `bench --seed 201`); a real
/// die read as a canon keeps about half.
const TURN_MIN_SHARE: f64 = 0.6;
/// A kept piece that scores at least this share of its first reading as another model of its
/// colour is that model, whatever the piece over the count reads as ([`within_counts`]).
const TURN_BETTER_SHARE: f64 = 1.0;
/// A piece fitted below this quality is doubtful: when its kind's count is reached, a region
/// looked at again for a piece over another kind's count may still find one of its kind (see
/// [`Analyzer::analyze`]), and the better of the two stays.
const DOUBTFUL_QUALITY: f64 = 0.5;
/// A ship whose fit explains at least this share of its silhouette is taken as settled alone...
const SETTLED_HULL_QUALITY: f64 = 0.8;
/// ...and with its anchor when it explains at least this share and the anchor at least
/// [`SETTLED_ANCHOR_QUALITY`] ([`Analyzer::settle_ships`] fits the pair again together only
/// below: it costs several fits of the anchor all the way round, and over the bench's scenes a
/// fourth of the pairs refitted so, all of the ones that moved by more than a millimetre, fell below).
const SETTLED_PAIR_HULL_QUALITY: f64 = 0.5;
const SETTLED_ANCHOR_QUALITY: f64 = 0.72;

/// Milliseconds spent per stage on one frame. Stages run on several threads at once (blobs,
/// classify and counter: see the module's documentation) count each thread's time, so they may
/// add up to more than the frame took; `analysis_ms` is the time the frame took, start to end.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct StageTimes {
    pub rectify_ms: f64,
    pub foreground_ms: f64,
    pub blobs_ms: f64,
    pub classify_ms: f64,
    pub footprint_ms: f64,
    pub counter_ms: f64,
    pub referee_ms: f64,
    /// Wall-clock time of [`Analyzer::analyze`] (every stage but the referee's).
    pub analysis_ms: f64,
}

impl StageTimes {
    /// Wall-clock time of the frame: its analysis and the referee's rulings on it.
    pub fn total_ms(&self) -> f64 {
        self.analysis_ms + self.referee_ms
    }

    /// The stages' times added up (thread time: more than [`StageTimes::total_ms`] when the
    /// frame was looked at on several threads).
    pub fn thread_ms(&self) -> f64 {
        self.rectify_ms
            + self.foreground_ms
            + self.blobs_ms
            + self.classify_ms
            + self.footprint_ms
            + self.counter_ms
            + self.referee_ms
    }

    pub fn add(&mut self, o: &StageTimes) {
        self.rectify_ms += o.rectify_ms;
        self.foreground_ms += o.foreground_ms;
        self.blobs_ms += o.blobs_ms;
        self.classify_ms += o.classify_ms;
        self.footprint_ms += o.footprint_ms;
        self.counter_ms += o.counter_ms;
        self.referee_ms += o.referee_ms;
        self.analysis_ms += o.analysis_ms;
    }

    pub fn scaled(&self, k: f64) -> StageTimes {
        StageTimes {
            rectify_ms: self.rectify_ms * k,
            foreground_ms: self.foreground_ms * k,
            blobs_ms: self.blobs_ms * k,
            classify_ms: self.classify_ms * k,
            footprint_ms: self.footprint_ms * k,
            counter_ms: self.counter_ms * k,
            referee_ms: self.referee_ms * k,
            analysis_ms: self.analysis_ms * k,
        }
    }
}

/// One region looked at: its fine view, what it held, and the time each stage took there.
struct RegionLook {
    region: region::Region,
    result: super::detect::RegionResult,
    blobs_ms: f64,
    classify_ms: f64,
}

/// A task of a frame's parallel part and what it gave.
enum Looked {
    Region(Result<RegionLook, VisionError>),
    Counter(Result<Option<super::counter::CounterReading>, VisionError>, f64),
}

/// What vision saw in one frame (before the referee).
#[derive(Debug, Clone)]
pub struct FrameAnalysis {
    pub pieces: Vec<PieceReport>,
    pub counter: Option<CounterReport>,
    pub obstructed: bool,
    pub view_moved: bool,
    /// The light differs from the calibration's (brighter, darker, another colour). Vision has
    /// already adapted (every frame is white-balanced against the empty table's reference); the
    /// flag says the reference may be stale and calibrating again would help.
    pub lighting_changed: bool,
    /// The per-channel gains `[b, g, r]` that brought this frame's table to the reference's.
    pub balance_gains: [f32; 3],
    /// Heights of the surfaces the pieces stand on, by piece index (0, a deck, the island).
    pub base_mm: Vec<f64>,
    pub times: StageTimes,
}

/// Everything vision needs from a profile, prepared once.
#[derive(Debug)]
pub struct Analyzer {
    rect: Rectification,
    view: Viewpoint,
    ref_fine: Mat,
    ref_coarse: Mat,
    usable_fine: Mat,
    usable_coarse: Mat,
    palette: Palette,
    /// Gains that make the calibration board's white paper neutral (see `FineInputs::white`).
    white: [f32; 3],
    models: Vec<Model>,
    ocean: Option<OceanReport>,
    /// The ocean's outline as coarse pixel samples (away from the counter), for `view_moved`.
    string_samples: Vec<(i32, i32)>,
    /// Coarse pixels on the edge of what the camera sees, for arms reaching in.
    view_edge: Vec<(i32, i32)>,
    counter: Option<CounterBand>,
    /// Per model: not tried in the main regions. The crab lives on the counter and is read
    /// there on its own; elsewhere a crab-like patch is some other piece.
    off_counter: Vec<bool>,
    /// Per model: how many the box holds (the catalog's or taught count), before
    /// [`Analyzer::set_in_play`] narrows it to a game.
    box_counts: Vec<u32>,
    /// Per model: not tried anywhere; the crab off the counter, and every piece the game does not
    /// put on the table.
    excluded: Vec<bool>,
    profile: Profile,
    /// Threads a frame is looked at on (see the module's documentation).
    threads: usize,
}

/// The colour model of a table whose median pixel is `bgr`, to know which pieces look like it.
fn table_model(bgr: [f32; 3]) -> ColourModel {
    ColourModel {
        chroma: super::colour::chroma_of(bgr),
        chroma_sigma: 0.0,
        brightness: [0.9, 1.1],
        lightness: None,
    }
}

/// Whether a colour looks like the table (so bare table under a piece tells little).
fn table_like(model: &ColourModel, table: &ColourModel) -> bool {
    chroma_distance(model, table) < TABLE_LIKE_CHROMA && light(model)
}

/// Whether a colour shows at least [`TABLE_LIKE_MIN_BRIGHTNESS`] of the table's brightness
/// wherever it is seen: only such a colour can look like the table (a white captain, not a
/// black die nor a chromatic piece's shaded side).
fn light(model: &ColourModel) -> bool {
    model.brightness[0] > TABLE_LIKE_MIN_BRIGHTNESS
}

/// Whether a chromatic piece colour is the table's hue, and lighter than it (the island's sand
/// on light wood): its silhouette's pixels differ from the table's by less than a grain's
/// noise, so many read as bare table. Lightness as in [`body_stands_out`].
fn lighter_of_table_hue(colour: Srgb, table: &ColourModel, table_bgr: [f32; 3], white_sum: f32) -> bool {
    let model = ColourModel::of_srgb(colour);
    let Lightness {
        piece: piece_lightness,
        table: table_lightness,
    } = Lightness::of(colour, table_bgr, white_sum);
    !model.is_neutral()
        && chroma_distance(&model, table) < TABLE_LIKE_CHROMA
        && piece_lightness >= table_lightness
}

/// The catalog lightness of the lightest other piece colour of `colour`'s hue at least
/// [`TWIN_MIN_LIGHTNESS_RATIO`] times as light (orange for brown), if any.
fn lighter_twin(colour: Srgb, catalog: &Catalog) -> Option<f32> {
    let m = ColourModel::of_srgb(colour);
    if m.is_neutral() {
        return None;
    }
    let l = srgb_lightness(colour);
    catalog
        .pieces
        .iter()
        .filter(|e| e.piece != PieceKind::Bead)
        .flat_map(|e| std::iter::once(e.colour).chain(e.secondary_colour))
        .filter(|&c| {
            let o = ColourModel::of_srgb(c);
            !o.is_neutral() && same_hue(&m, &o) && srgb_lightness(c) >= TWIN_MIN_LIGHTNESS_RATIO * l
        })
        .map(srgb_lightness)
        .min_by(f32::total_cmp)
}

/// A catalog colour's lightness: its share of white.
fn srgb_lightness(c: Srgb) -> f32 {
    c.0.iter().map(|&v| v as f32).sum::<f32>() / (3.0 * 255.0)
}

/// The main colours of the treasures of `ship`'s hue ([`DECK_KIN_COS`]); none for a piece that
/// is no ship, and none of a neutral colour (white, black), whose chroma has no hue to share.
fn deck_kin(ship: &Model, models: &[Model], catalog: &Catalog) -> ColourSet {
    let catalog_colour = |m: &Model| {
        catalog
            .pieces
            .get(m.entry)
            .map(|e| ColourModel::of_srgb(e.colour))
    };
    let hull = match catalog_colour(ship) {
        Some(c) if matches!(ship.kind, PieceKind::Ship | PieceKind::PirateShip) && !c.is_neutral() => c,
        _ => return ColourSet(0),
    };
    models
        .iter()
        .filter(|t| t.kind == PieceKind::Treasure)
        .filter(|t| {
            catalog_colour(t).is_some_and(|c| !c.is_neutral() && hues_within(&hull, &c, DECK_KIN_COS))
        })
        .fold(ColourSet(0), |acc, t| ColourSet(acc.0 | t.primary.0))
}

fn same_hue(a: &ColourModel, b: &ColourModel) -> bool {
    hues_within(a, b, SAME_HUE_COS)
}

/// Whether the chromas of `a` and `b` point within cosine `cos` of each other.
fn hues_within(a: &ColourModel, b: &ColourModel, cos: f32) -> bool {
    dot(a.chroma, b.chroma) >= cos * norm(a.chroma) * norm(b.chroma)
}

/// How light a piece's catalog colour and the table are, each as a share of white (the table
/// next to white paper reading `white_sum`, `b + g + r`).
struct Lightness {
    piece: f32,
    table: f32,
}

impl Lightness {
    fn of(colour: Srgb, table_bgr: [f32; 3], white_sum: f32) -> Self {
        Self {
            piece: srgb_lightness(colour),
            table: (table_bgr[0] + table_bgr[1] + table_bgr[2]) / white_sum,
        }
    }
}

fn chroma_distance(a: &ColourModel, b: &ColourModel) -> f32 {
    (0..3)
        .map(|c| (a.chroma[c] - b.chroma[c]).powi(2))
        .sum::<f32>()
        .sqrt()
}

/// Whether the table's colour is a paler shade of a chromatic piece colour (light wood and a
/// gold bar): its chroma lies along the piece's, shorter, within [`PALER_TABLE_MAX_OFF`].
fn paler_table(model: &ColourModel, table: &ColourModel) -> bool {
    if model.is_neutral() || table.is_neutral() {
        return false;
    }
    let mm: f32 = model.chroma.iter().map(|c| c * c).sum();
    let t = (0..3).map(|c| model.chroma[c] * table.chroma[c]).sum::<f32>() / mm;
    let off: f32 = (0..3)
        .map(|c| (table.chroma[c] - t * model.chroma[c]).powi(2))
        .sum::<f32>()
        .sqrt();
    (PALER_MIN..=1.0).contains(&t) && off < PALER_TABLE_MAX_OFF
}

/// Whether a chromatic piece colour, as dim as the table, passes for it (a chest or a gold bar
/// on dark warm wood): the piece's faces turned from the light then look like bare table, and
/// only its lit faces show. The colour is taken as white paper `white_bgr` shows it in the same
/// light, scaled to the table's level, and labelled against the table as a frame pixel would be
/// (on a dark table the labeller's noise margins span more of the colour).
fn shaded_like_table(colour: Srgb, table_bgr: [f32; 3], white_bgr: Option<[f64; 3]>) -> bool {
    !ColourModel::of_srgb(colour).is_neutral() && passes_for_table(colour, table_bgr, white_bgr)
}

/// Whether a piece colour, scaled to the table's level, is labelled bare table against it as a
/// frame pixel would be. A white piece on a table nearly as light as the paper, a cream wood or a
/// pale grey (a captain), passes for it though its chroma is off the table's: on such a table
/// only its second colour tells it. Both are taken relative to white paper `white_bgr` in the
/// same light, exposed at [`LIKENESS_PAPER_LEVEL`], so the answer does not change with the room's
/// light (the live referee relights the paper with the reference).
fn passes_for_table(colour: Srgb, table_bgr: [f32; 3], white_bgr: Option<[f64; 3]>) -> bool {
    // Without a usable paper reading, the frame's own levels, the paper taken as full scale.
    let (table, paper) = match white_bgr.filter(|w| w.iter().all(|v| v.is_finite() && *v > 1.0)) {
        Some(w) => (
            [0, 1, 2].map(|c| table_bgr[c] / w[c] as f32 * LIKENESS_PAPER_LEVEL),
            LIKENESS_PAPER_LEVEL,
        ),
        None => (table_bgr, 255.0),
    };
    let seen = [2, 1, 0].map(|c| colour.0[c] as f32 / 255.0 * paper);
    let seen_sum = seen[0] + seen[1] + seen[2];
    if seen_sum <= 0.0 {
        return false;
    }
    let k = (table[0] + table[1] + table[2]) / seen_sum;
    let dimmed = seen.map(|v| v * k);
    super::labels::label(dimmed, table) == Label::Table
}

/// Whether a piece of this colour looks like a shadow of the table: dark and neutral on a
/// neutral table (a shadow on a coloured table keeps its colour; a black piece does not).
fn shadow_like(model: &ColourModel, table: &ColourModel) -> bool {
    table.is_neutral() && model.is_neutral() && model.brightness[1] <= DARK_MAX_BRIGHTNESS
}

impl Analyzer {
    /// Prepares the analysis of frames for `profile`, whose rectified empty-table reference is
    /// `reference`. `taught` models replace the catalog's colours of the pieces they name.
    pub fn new(
        profile: &Profile,
        reference: &Mat,
        catalog: &Catalog,
        taught: &TaughtModels,
    ) -> Result<Self, VisionError> {
        let grid = profile.reference.as_ref().ok_or(VisionError::NoReference)?.grid;
        if reference.cols() != grid.width as i32 || reference.rows() != grid.height as i32 {
            return Err(VisionError::ReferenceSize {
                width: reference.cols(),
                height: reference.rows(),
                expected_width: grid.width,
                expected_height: grid.height,
            });
        }
        if reference.typ() != core::CV_8UC3 {
            return Err(VisionError::FrameType);
        }
        let rect = Rectification::new(profile, grid)?;
        let view = profile
            .camera
            .as_ref()
            .and_then(Viewpoint::of)
            .unwrap_or_else(Viewpoint::orthographic);
        let counter = CounterBand::new(profile, &rect)?;
        let mut usable_fine = rect.fine_valid.clone();
        if let Some(band) = &counter {
            band.clear_from(&mut usable_fine)?;
        }
        // Coarse masks and reference: every COARSE_STEP-th fine pixel, as the coarse view.
        let crows = rect.coarse.height as i32;
        let ccols = rect.coarse.width as i32;
        let mut usable_coarse =
            Mat::new_rows_cols_with_default(crows, ccols, core::CV_8UC1, Scalar::all(0.0))?;
        let mut ref_sub = Mat::new_rows_cols_with_default(crows, ccols, core::CV_8UC3, Scalar::all(0.0))?;
        for j in 0..crows {
            let src = usable_fine.at_row::<u8>(j * COARSE_STEP)?.to_vec();
            let srcr = reference.at_row::<core::Vec3b>(j * COARSE_STEP)?.to_vec();
            let dst = usable_coarse.at_row_mut::<u8>(j)?;
            for (i, d) in dst.iter_mut().enumerate() {
                *d = src[i * COARSE_STEP as usize];
            }
            let dstr = ref_sub.at_row_mut::<core::Vec3b>(j)?;
            for (i, d) in dstr.iter_mut().enumerate() {
                *d = srcr[i * COARSE_STEP as usize];
            }
        }
        let ref_coarse = region::blur(&ref_sub)?;
        let ref_fine = region::blur(reference)?;

        // The table's own colour, to know which pieces look like it.
        let table_bgr = median_bgr(reference, &rect.fine_valid)?;
        let table_colour = table_model(table_bgr);
        let mut palette = Palette::with_white_sum(
            profile
                .white_bgr
                .map(|w| (w[0] + w[1] + w[2]) as f32)
                .filter(|s| s.is_finite() && *s > 1.0),
        );
        let mut models = Vec::new();
        for (i, e) in catalog.pieces.iter().enumerate() {
            if e.piece == PieceKind::Bead {
                continue;
            }
            let taught_models = taught.colours(&e.name);
            let colours = entry_colours(&mut palette, e, taught_models);
            let catalog_model = ColourModel::of_srgb(e.colour);
            let like = match taught_models {
                Some(ms) => ms.iter().all(|m| table_like(m, &table_colour)),
                None => {
                    table_like(&catalog_model, &table_colour)
                        || (catalog_model.is_neutral()
                            && light(&catalog_model)
                            && passes_for_table(e.colour, table_bgr, profile.white_bgr))
                }
            };
            let stands_out = taught_models.is_none()
                && palette
                    .white_sum
                    .is_some_and(|w| body_stands_out(e.colour, table_bgr, w));
            let table_hue = taught_models.is_none()
                && palette
                    .white_sum
                    .is_some_and(|w| lighter_of_table_hue(e.colour, &table_colour, table_bgr, w));
            let dark = match taught_models {
                Some(ms) => !ms.is_empty() && ms.iter().all(|m| shadow_like(m, &table_colour)),
                None => shadow_like(&catalog_model, &table_colour),
            };
            // A taught piece's colours are those it shows on this table, washed-out faces
            // included.
            let paler = taught_models.is_none()
                && (paler_table(&catalog_model, &table_colour)
                    || shaded_like_table(e.colour, table_bgr, profile.white_bgr));
            let mut model = Model::new(i, e, colours.primary, colours.secondary, like)
                .with_body_standing_out(stands_out)
                .with_shadow_like(dark)
                .with_table_hue(table_hue)
                .with_paler_table(paler)
                .with_lighter_twin(if taught_models.is_none() {
                    lighter_twin(e.colour, catalog)
                } else {
                    None
                });
            if let Some(size) = taught.size(&e.name) {
                model.apply_size(size);
            }
            models.push(model);
        }
        let kin: Vec<ColourSet> = models.iter().map(|m| deck_kin(m, &models, catalog)).collect();
        for (m, k) in models.iter_mut().zip(kin) {
            m.deck_kin = k;
        }
        let ocean = profile.ocean.clone();
        let string_samples = match &ocean {
            Some(o) => string_samples(&o.polygon_mm, &rect, &usable_coarse)?,
            None => Vec::new(),
        };
        let mut valid_coarse =
            Mat::new_rows_cols_with_default(crows, ccols, core::CV_8UC1, Scalar::all(0.0))?;
        for j in 0..crows {
            let src = rect.fine_valid.at_row::<u8>(j * COARSE_STEP)?.to_vec();
            let dst = valid_coarse.at_row_mut::<u8>(j)?;
            for (i, d) in dst.iter_mut().enumerate() {
                *d = src[i * COARSE_STEP as usize];
            }
        }
        let view_edge = region::view_edge(&valid_coarse)?;
        let off_counter: Vec<bool> = models
            .iter()
            .map(|m| counter.is_some() && m.kind == PieceKind::Crab)
            .collect();
        let box_counts: Vec<u32> = models.iter().map(|m| m.count).collect();
        Ok(Self {
            excluded: off_counter.clone(),
            off_counter,
            box_counts,
            white: white_gains(profile.white_bgr),
            rect,
            view,
            view_edge,
            ref_fine,
            ref_coarse,
            usable_fine,
            usable_coarse,
            palette,
            models,
            ocean,
            string_samples,
            counter,
            profile: profile.clone(),
            threads: default_threads(),
        })
    }

    /// The same analysis on `threads` threads (at least one; by default the machine's cores,
    /// see [`default_threads`]). The readings do not depend on it; the time a frame takes does.
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads.clamp(1, super::parallel::MAX_THREADS);
        self
    }

    /// The same analysis for a game that puts only `in_play`'s pieces on the table.
    pub fn with_in_play(mut self, in_play: &InPlay) -> Self {
        self.set_in_play(in_play);
        self
    }

    /// Looks only for the pieces a game puts on the table, as many as it puts there: a piece
    /// left in the box is never reported, and no more of a kind than the game has (three gold
    /// bars with two players). [`InPlay::everything`] restores the box's pieces and counts.
    pub fn set_in_play(&mut self, in_play: &InPlay) {
        for (i, m) in self.models.iter_mut().enumerate() {
            let box_count = self.box_counts.get(i).copied().unwrap_or(m.count);
            m.count = in_play.count(m.kind, m.treasure, box_count);
            m.in_play = m.count > 0 || box_count == 0;
        }
        self.excluded = self
            .models
            .iter()
            .zip(&self.off_counter)
            .map(|(m, &off)| off || !m.in_play)
            .collect();
    }

    /// Threads a frame is looked at on.
    pub fn threads(&self) -> usize {
        self.threads
    }

    pub fn viewpoint(&self) -> &Viewpoint {
        &self.view
    }

    /// The colour models pixels are matched against.
    pub fn palette(&self) -> &Palette {
        &self.palette
    }

    pub fn models(&self) -> &[Model] {
        &self.models
    }

    pub fn rectification(&self) -> &Rectification {
        &self.rect
    }

    /// Finds every piece in a raw BGR frame of the profile's resolution.
    pub fn analyze(&self, frame: &Mat) -> Result<FrameAnalysis, VisionError> {
        let started = Instant::now();
        let mut times = StageTimes::default();
        let t = Instant::now();
        let coarse_view = self.rect.coarse_view(frame)?;
        times.rectify_ms += ms(t);

        let t = Instant::now();
        let coarse = self.coarse_pass(&coarse_view)?;
        times.foreground_ms += ms(t);
        let view_moved = self.view_moved(&coarse.labels)?;
        let coarse_px_mm2 = self.rect.coarse.mm_per_px * self.rect.coarse.mm_per_px;
        let arm = coarse
            .components
            .iter()
            .zip(&coarse.at_view_edge)
            .any(|((_, area), &edge)| edge && *area as f64 * coarse_px_mm2 >= ARM_MIN_MM2);

        let fine_inputs = self.fine_inputs();
        // The regions and the counter (the last task), costliest (largest) first.
        let n_regions = coarse.plans.len();
        let mut order: Vec<usize> = (0..n_regions).collect();
        if self.counter.is_some() {
            order.push(n_regions);
        }
        let task_area = |i: usize| match coarse.plans.get(i) {
            Some(p) => p.rect.area(),
            None => self.counter.as_ref().map_or(0, |b| b.rect().area()),
        };
        order.sort_by_key(|&i| std::cmp::Reverse(task_area(i)));
        let looked = run_tasks(
            n_regions + 1,
            &order,
            self.threads,
            Detector::default,
            |detector, i| match coarse.plans.get(i) {
                Some(plan) => Looked::Region((|| {
                    let t = Instant::now();
                    let rect = self.rect.clip(plan.rect);
                    let hidden = coarse.hidden_in(plan, rect)?;
                    let region = region::fine_region(frame, rect, &hidden, &coarse.balance, &fine_inputs)?;
                    let blobs_ms = ms(t);
                    let t = Instant::now();
                    let result = detector.detect_excluding(&region, &self.models, &self.view, &self.excluded);
                    Ok(RegionLook {
                        region,
                        result,
                        blobs_ms,
                        classify_ms: ms(t),
                    })
                })()),
                None => {
                    let t = Instant::now();
                    let reading = self
                        .counter
                        .as_ref()
                        .map(|band| {
                            band.read(
                                frame,
                                &fine_inputs,
                                &self.profile,
                                &self.models,
                                &self.view,
                                &coarse.balance,
                            )
                        })
                        .transpose();
                    Looked::Counter(reading, ms(t))
                }
            },
        )?;
        let mut looks = Vec::with_capacity(n_regions);
        let mut counter_reading = None;
        // Every region has its look, in region order (a missing one would shift the rest).
        for (i, l) in looked.into_iter().enumerate() {
            match l {
                Some(Looked::Region(r)) => looks.push(r?),
                Some(Looked::Counter(reading, t)) => {
                    counter_reading = reading?;
                    times.counter_ms += t;
                }
                None if i < n_regions => return Err(super::parallel::WorkerLost.into()),
                None => {}
            }
        }

        let mut found: Vec<Found> = Vec::new();
        let mut obstructed = arm;
        let mut regions = Vec::with_capacity(n_regions);
        for (ri, look) in looks.into_iter().enumerate() {
            let RegionLook {
                region,
                result,
                blobs_ms,
                classify_ms,
            } = look;
            times.blobs_ms += blobs_ms;
            times.classify_ms += classify_ms;
            let t = Instant::now();
            let mm2 = result.unexplained_px as f64 * region.mm_per_px * region.mm_per_px;
            if let Some((x0, y0, x1, y1)) = result.unexplained_box {
                let span = ((x1 - x0).max(y1 - y0) as f64) * region.mm_per_px;
                if mm2 >= OBSTRUCTION_MIN_MM2 && span >= OBSTRUCTION_MIN_SPAN_MM {
                    obstructed = true;
                }
            }
            found.extend(result.detections.into_iter().map(|detection| Found {
                detection,
                region: ri,
            }));
            regions.push(region);
            times.footprint_ms += ms(t);
        }

        // More of a piece than the box holds: the best ones stay, and the regions of the others
        // are looked at again without that piece (a bottle first taken for a second green
        // anchor is then found as a bottle). A kept one in the same region stays as it was and the
        // second look fits around it (a region may hold the real orange ship and two chests first
        // taken for a second one).
        let t = Instant::now();
        let mut detector = Detector::default();
        let refit = |found: &[Found], k: usize, model: usize| {
            let at = &found[k];
            let others: Vec<&Detection> = found
                .iter()
                .enumerate()
                .filter(|&(o, f)| o != k && f.region == at.region)
                .map(|(_, f)| &f.detection)
                .collect();
            let region = regions.get(at.region)?;
            refit_as(region, &self.models, &self.view, model, &at.detection, &others)
        };
        self.drop_stacked(&mut found);
        let dropped = within_counts(&mut found, &self.models, refit);
        self.read_die_tops(&mut found, &regions);
        let mut again: Vec<usize> = dropped.iter().map(|f| f.region).collect();
        again.sort_unstable();
        again.dedup();
        for ri in again {
            let full: Vec<bool> = self
                .models
                .iter()
                .enumerate()
                .map(|(mi, m)| {
                    found.iter().filter(|f| f.detection.model == mi).count() as u32 >= m.count.max(1)
                })
                .collect();
            // A full model whose weakest piece is doubtful ([`DOUBTFUL_QUALITY`]) and scores
            // less than what was dropped here stays open: a gold bar first read as a fifth
            // goblet is found as a gold bar, and the faint gold read among an orange ship's
            // pixels goes instead ([`within_counts`] again, below).
            let dropped_here = dropped
                .iter()
                .filter(|f| f.region == ri)
                .map(|f| f.detection.fit.score())
                .fold(f64::NEG_INFINITY, f64::max);
            let weakest = |mi: usize| {
                found
                    .iter()
                    .filter(|f| f.detection.model == mi)
                    .map(|f| &f.detection.fit)
                    .min_by(|a, b| a.score().total_cmp(&b.score()))
            };
            let closed: Vec<bool> = full
                .iter()
                .enumerate()
                .map(|(mi, &f)| {
                    f && weakest(mi)
                        .is_none_or(|w| w.quality() >= DOUBTFUL_QUALITY || w.score() >= dropped_here)
                })
                .collect();
            let excluded: Vec<bool> = closed.iter().zip(&self.excluded).map(|(&f, &o)| f || o).collect();
            if excluded == self.excluded {
                continue;
            }
            let stay: Vec<Found> = found
                .iter()
                .filter(|f| f.region == ri && full[f.detection.model])
                .cloned()
                .collect();
            let held: Vec<Detection> = stay.iter().map(|f| f.detection.clone()).collect();
            detector.set_dropped(
                &self.models,
                dropped.iter().filter(|f| f.region == ri).map(|f| &f.detection),
            );
            let result = detector.detect_around(&regions[ri], &self.models, &self.view, &excluded, &held);
            found.retain(|f| f.region != ri);
            found.extend(stay);
            found.extend(result.detections.into_iter().map(|detection| Found {
                detection,
                region: ri,
            }));
        }
        self.drop_stacked(&mut found);
        within_counts(&mut found, &self.models, refit);
        self.read_die_tops(&mut found, &regions);
        self.settle_ships(&mut found, &regions);
        times.classify_ms += ms(t);

        let t = Instant::now();
        let mut pieces = Vec::with_capacity(found.len() + 1);
        let mut base_mm = Vec::with_capacity(found.len() + 1);
        for f in &found {
            pieces.push(self.report_of(&f.detection, pieces.len() + 1));
            base_mm.push(f.detection.fit.pose.base_mm);
        }
        times.footprint_ms += ms(t);

        let mut counter = None;
        if let Some(reading) = counter_reading {
            counter = reading.counter;
            if let Some(d) = reading.crab {
                pieces.push(self.report_of(&d, pieces.len() + 1));
                base_mm.push(0.0);
            }
        }

        let t = Instant::now();
        referee::assign_loads(&mut pieces);
        if let Some(o) = &self.ocean {
            referee::classify_pieces(&mut pieces, &o.polygon_mm);
        }
        for p in pieces.iter_mut().filter(|p| p.piece == PieceKind::Crab) {
            // The crab sits on the string (cli.md: never listed out of the ocean).
            p.in_ocean = true;
            p.on_string = true;
        }
        times.footprint_ms += ms(t);
        times.analysis_ms = ms(started);
        Ok(FrameAnalysis {
            pieces,
            counter,
            obstructed,
            view_moved,
            lighting_changed: lighting_changed(&coarse.balance),
            balance_gains: coarse.balance.gains,
            base_mm,
            times,
        })
    }

    /// Drops every treasure found where another that explains more stands, or seen only where
    /// it is seen ([`super::stacked`]): one piece read twice, as a goblet also read as a gold
    /// bar on its foot or on its leaning cup.
    fn drop_stacked(&self, found: &mut Vec<Found>) {
        let treasures: Vec<usize> = (0..found.len())
            .filter(|&i| self.models[found[i].detection.model].kind == PieceKind::Treasure)
            .collect();
        let placed: Vec<Placed> = treasures
            .iter()
            .map(|&i| {
                let d = &found[i].detection;
                Placed {
                    footprint: self.models[d.model].footprint(&d.fit.pose),
                    silhouette: d
                        .fit
                        .silhouette
                        .polygons
                        .iter()
                        .cloned()
                        .map(PolygonMm::new)
                        .collect(),
                    score: d.fit.score(),
                }
            })
            .collect();
        let dropped = stacked_duplicates(&placed);
        let mut drop = vec![false; found.len()];
        for (&i, &d) in treasures.iter().zip(&dropped) {
            drop[i] = d;
        }
        let mut k = 0;
        found.retain(|_| {
            k += 1;
            !drop[k - 1]
        });
    }

    /// Analyses a frame and rules on it: `analyze`'s per-frame report.
    pub fn report(
        &self,
        frame: &Mat,
        image: &str,
        ctx: &GameContext,
    ) -> Result<(FrameReport, FrameAnalysis), VisionError> {
        let mut analysis = self.analyze(frame)?;
        let t = Instant::now();
        let mut report = FrameReport {
            image: image.to_string(),
            ocean: self
                .ocean
                .clone()
                .unwrap_or_else(|| OceanReport::new(PolygonMm::default())),
            pieces: analysis.pieces.clone(),
            counter: analysis.counter.clone(),
            obstructed: analysis.obstructed,
            view_moved: analysis.view_moved,
            rulings: None,
        };
        report.rule(ctx)?;
        analysis.times.referee_ms += ms(t);
        Ok((report, analysis))
    }

    fn report_of(&self, d: &Detection, n: usize) -> PieceReport {
        let model = &self.models[d.model];
        let pose = d.fit.pose;
        let angle_deg = (!model.round).then(|| {
            let a = pose.angle_rad.rem_euclid(model.period).to_degrees();
            if a >= 180.0 { a - 360.0 } else { a }
        });
        let confidence = (d.fit.quality() / CONFIDENT_QUALITY).clamp(MIN_CONFIDENCE, 1.0);
        PieceReport {
            id: format!("p{n}"),
            piece: model.kind,
            treasure: model.treasure,
            color: model.color,
            center_mm: pose.center_mm,
            footprint_mm: model.footprint(&pose),
            angle_deg,
            in_ocean: false,
            on_string: false,
            loaded_on: None,
            on_island: false,
            top: d.top,
            confidence,
        }
    }

    /// The coarse pass (balance, shadow tint, labels, changed regions) on a coarse view.
    fn coarse_pass(&self, coarse_view: &Mat) -> Result<region::CoarsePass, VisionError> {
        region::coarse_pass_on(
            coarse_view,
            &CoarseInputs {
                rect: &self.rect,
                reference: &self.ref_coarse,
                usable: &self.usable_coarse,
                balance_mask: &self.usable_coarse,
                view: &self.view,
                view_edge: &self.view_edge,
                threads: self.threads,
            },
        )
    }

    fn fine_inputs(&self) -> FineInputs<'_> {
        FineInputs {
            rect: &self.rect,
            reference: &self.ref_fine,
            usable: &self.usable_fine,
            palette: &self.palette,
            white: self.white,
            shadow_colours: self.models.iter().any(|m| m.shadow_like),
            faint_pieces: self
                .models
                .iter()
                .any(|m| m.in_play && (m.paler_table || m.table_like || m.table_hue)),
        }
    }

    /// Whether the string no longer lies where the profile says.
    fn view_moved(&self, coarse_labels: &Mat) -> Result<bool, VisionError> {
        if self.string_samples.is_empty() {
            return Ok(false);
        }
        let mut changed = 0usize;
        let mut used = 0usize;
        for &(x, y) in &self.string_samples {
            let l = *coarse_labels.at_2d::<u8>(y, x)?;
            if l == Label::Outside as u8 {
                continue;
            }
            used += 1;
            if l == Label::Piece as u8 {
                changed += 1;
            }
        }
        Ok(used > 0 && changed as f64 / used as f64 > VIEW_MOVED_STRING_SHARE)
    }
}

/// Gains (mean 1) that make `white` (a white surface's `[b, g, r]`, e.g. the calibration paper's
/// `Profile::white_bgr`) neutral; none without it. Teaching applies the same gains.
pub fn white_gains(white: Option<[f64; 3]>) -> [f32; 3] {
    let Some(w) = white.filter(|w| w.iter().all(|&c| c.is_finite() && c > 1.0)) else {
        return [1.0; 3];
    };
    let mean = (w[0] + w[1] + w[2]) / 3.0;
    [(mean / w[0]) as f32, (mean / w[1]) as f32, (mean / w[2]) as f32]
}

/// A piece found in one of a frame's regions (by index).
#[derive(Debug, Clone)]
struct Found {
    detection: Detection,
    region: usize,
}

/// Keeps at most the catalog's count of each piece (the box holds one ink die, four captains),
/// the ones that explain most pixels best, or one of them read as another model: the one it
/// fitted nearly as well ([`Detection::runner_up`]), or one sharing its main colour fitted there
/// afresh (`refit(found, piece, model)`: see [`crate::vision::detect::refit_as`]); returns the
/// others.
fn within_counts(
    found: &mut Vec<Found>,
    models: &[Model],
    refit: impl Fn(&[Found], usize, usize) -> Option<Fit>,
) -> Vec<Found> {
    let score = |f: &Found| f.detection.fit.score();
    let mut order: Vec<usize> = (0..found.len()).collect();
    order.sort_by(|&a, &b| score(&found[b]).total_cmp(&score(&found[a])));
    let mut used: std::collections::HashMap<usize, u32> = std::collections::HashMap::new();
    let mut keep = vec![false; found.len()];
    for &i in &order {
        let m = &models[found[i].detection.model];
        let n = used.entry(m.entry).or_insert(0);
        if *n < m.count.max(1) {
            *n += 1;
            keep[i] = true;
        }
    }
    // A piece over its kind's count stays when it, or a kept one of its kind, fitted another
    // model nearly as well whose count is not reached, and the two so read score more than the
    // kept one alone: the one whose other reading scores more becomes that model (a black
    // Octo-Canon first taken for the ink die, the real die found elsewhere with fewer pixels).
    // Before any runner-up, a kept one that, fitted afresh as a model sharing its main colour,
    // scores at least as much as it did as its kind becomes that model ([`TURN_BETTER_SHARE`]):
    // whatever the one over the count fitted nearly as well, the kept one is the better read.
    // Failing both, the models sharing their main colour are fitted afresh to both, and the
    // kept one becomes such a model when it reads well as one ([`TURN_MIN_QUALITY`],
    // [`TURN_MIN_SHARE`]) and the one over the count fits none of them well: beside a pink
    // ship the die's model, pink faces and all, may score more on the canon than on the die,
    // while the canon's model scores far less on the die. A die so made has its top read
    // afterwards ([`Analyzer::read_die_tops`]).
    let spare = |used: &std::collections::HashMap<usize, u32>, other: usize| {
        models[other].in_play
            && used.get(&models[other].entry).copied().unwrap_or(0) < models[other].count.max(1)
    };
    for &i in &order {
        if keep[i] {
            continue;
        }
        let kind = found[i].detection.model;
        let kept: Vec<usize> = (0..found.len())
            .filter(|&j| keep[j] && found[j].detection.model == kind)
            .collect();
        let readings = |k: usize| {
            let own = score(&found[k]);
            same_colour_readings(found, k, models, &|o| spare(&used, o), &refit)
                .into_iter()
                .map(|(other, fit)| {
                    let share = if own > 0.0 { fit.score() / own } else { 0.0 };
                    Reading { share, other, fit }
                })
                .filter(|r| r.fit.quality() >= TURN_MIN_QUALITY)
                .max_by(|a, b| a.share.total_cmp(&b.share))
        };
        let kept_readings: Vec<(usize, Option<Reading>)> = kept.iter().map(|&j| (j, readings(j))).collect();
        // (turned, other model, its fit, rank)
        let mut best: Option<(usize, usize, Fit, f64)> = None;
        // A kept one that, fitted afresh, scores more as another model of its colour than as
        // its own kind is that model: the detector's first reading of a black piece may differ
        // from its settled one (an Octo-Canon first read as the die scores more as a canon).
        for (j, reading) in &kept_readings {
            if let Some(r) = reading
                && r.share >= TURN_BETTER_SHARE
                && best.as_ref().is_none_or(|b| r.share > b.3)
            {
                best = Some((*j, r.other, r.fit.clone(), r.share));
            }
        }
        if best.is_none() {
            for &j in &kept {
                // Read as the other model: `j` itself (with `i` kept as the kind) or `i`.
                for (turned, rest) in [(j, i), (i, j)] {
                    let Some((other, fit)) = found[turned].detection.runner_up.as_ref() else {
                        continue;
                    };
                    let total = fit.score() + score(&found[rest]);
                    if spare(&used, *other)
                        && total > score(&found[j])
                        && best.as_ref().is_none_or(|b| total > b.3)
                    {
                        best = Some((turned, *other, fit.clone(), total));
                    }
                }
            }
        }
        // Only the kept one is turned, and only when the other fits no such model well: a
        // piece over the count that does is dropped, and its region looked at again without
        // the full model finds it as what it is.
        if best.is_none() && readings(i).is_none() {
            for (j, reading) in kept_readings {
                if let Some(r) = reading
                    && r.share >= TURN_MIN_SHARE
                    && r.fit.score() + score(&found[i]) > score(&found[j])
                    && best.as_ref().is_none_or(|b| r.share > b.3)
                {
                    best = Some((j, r.other, r.fit, r.share));
                }
            }
        }
        if let Some((turned, other, fit, _)) = best {
            *used.entry(models[other].entry).or_insert(0) += 1;
            read_as(&mut found[turned].detection, other, fit);
            keep[i] = true;
        }
    }
    // A kept piece whose look-alike (a model sharing its main colour, in play) was not found at
    // all is that look-alike when, fitted afresh as it, it scores at least as much as it did
    // as its kind ([`TURN_BETTER_SHARE`]): the Octo-Canon read as the ink die while the die,
    // its pink face up on a pink tentacle, is read as part of the tentacle. Not a ship or an
    // anchor: they are fitted as a pair ([`Analyzer::settle_ships`]), and a ship turned into
    // its anchor leaves its player without a ruling.
    let paired = |m: usize| matches!(models[m].kind, PieceKind::Ship | PieceKind::Anchor);
    let none_found = |used: &std::collections::HashMap<usize, u32>, other: usize| {
        models[other].in_play && !paired(other) && used.get(&models[other].entry).copied().unwrap_or(0) == 0
    };
    for &k in &order {
        if !keep[k] || paired(found[k].detection.model) {
            continue;
        }
        let own = score(&found[k]);
        if own <= 0.0 {
            continue;
        }
        let best = same_colour_readings(found, k, models, &|o| none_found(&used, o), &refit)
            .into_iter()
            .filter(|(_, fit)| fit.quality() >= TURN_MIN_QUALITY && fit.score() >= TURN_BETTER_SHARE * own)
            .max_by(|a, b| a.1.score().total_cmp(&b.1.score()));
        if let Some((other, fit)) = best {
            let entry = models[found[k].detection.model].entry;
            if let Some(n) = used.get_mut(&entry) {
                *n = n.saturating_sub(1);
            }
            *used.entry(models[other].entry).or_insert(0) += 1;
            read_as(&mut found[k].detection, other, fit);
        }
    }
    let mut dropped = Vec::new();
    let mut kept = Vec::with_capacity(found.len());
    for (f, k) in found.drain(..).zip(keep) {
        if k { kept.push(f) } else { dropped.push(f) }
    }
    *found = kept;
    dropped
}

/// `detection` read as `model`, fitted so: its die top (read again afterwards) and runner-up
/// belonged to the model it was read as before.
fn read_as(detection: &mut Detection, model: usize, fit: Fit) {
    detection.model = model;
    detection.fit = fit;
    detection.top = None;
    detection.runner_up = None;
}

/// A piece fitted afresh as another model of its colour ([`within_counts`]).
struct Reading {
    /// Its score so read over its score as first read.
    share: f64,
    /// The other model.
    other: usize,
    fit: Fit,
}

/// Piece `k` of `found` fitted afresh by `refit` as each model sharing its main colour that
/// `spare` leaves room for.
fn same_colour_readings(
    found: &[Found],
    k: usize,
    models: &[Model],
    spare: &impl Fn(usize) -> bool,
    refit: &impl Fn(&[Found], usize, usize) -> Option<Fit>,
) -> Vec<(usize, Fit)> {
    let own = &models[found[k].detection.model];
    models
        .iter()
        .enumerate()
        .filter(|(other, m)| m.entry != own.entry && m.primary.contains_any(own.primary.0) && spare(*other))
        .filter_map(|(other, _)| refit(found, k, other).map(|fit| (other, fit)))
        .collect()
}

impl Analyzer {
    /// Ships fitted again once all the pieces around them are found, in turn, each with the
    /// others' latest poses (the rulings are measured from the ships): a ship with its anchor
    /// ([`Detector::repose_pair`]) when either fits poorly ([`SETTLED_PAIR_HULL_QUALITY`],
    /// [`SETTLED_ANCHOR_QUALITY`]), then a ship alone ([`repose`]) below
    /// [`SETTLED_HULL_QUALITY`], and the pirate ship always.
    fn settle_ships(&self, found: &mut [Found], regions: &[region::Region]) {
        let mut detector = Detector::default();
        for h in 0..found.len() {
            if self.models[found[h].detection.model].kind != PieceKind::Ship {
                continue;
            }
            let ri = found[h].region;
            let Some(region) = regions.get(ri) else {
                continue;
            };
            let colour = self.models[found[h].detection.model].color;
            let ids: Vec<usize> = (0..found.len()).filter(|&o| found[o].region == ri).collect();
            let Some(a) = ids.iter().position(|&o| {
                let m = &self.models[found[o].detection.model];
                m.kind == PieceKind::Anchor && m.color == colour
            }) else {
                continue;
            };
            let Some(hl) = ids.iter().position(|&o| o == h) else {
                continue;
            };
            if found[h].detection.fit.quality() >= SETTLED_PAIR_HULL_QUALITY
                && found[ids[a]].detection.fit.quality() >= SETTLED_ANCHOR_QUALITY
            {
                continue;
            }
            let local: Vec<Detection> = ids.iter().map(|&o| found[o].detection.clone()).collect();
            let r = detector.repose_pair(region, &self.models, &self.view, &local, hl, a);
            if let Some((ship, anchor)) = r {
                found[h].detection.fit = ship;
                found[ids[a]].detection.fit = anchor;
            }
        }
        for k in 0..found.len() {
            let at = &found[k];
            let settled = match self.models[at.detection.model].kind {
                PieceKind::Ship => at.detection.fit.quality() >= SETTLED_HULL_QUALITY,
                // Its two ends look alike: turned end for end it may still explain most of itself.
                PieceKind::PirateShip => false,
                _ => true,
            };
            if settled {
                continue;
            }
            let Some(region) = regions.get(at.region) else {
                continue;
            };
            let others: Vec<&Detection> = found
                .iter()
                .enumerate()
                .filter(|&(o, f)| o != k && f.region == at.region)
                .map(|(_, f)| &f.detection)
                .collect();
            if let Some(fit) = repose(region, &self.models, &self.view, &at.detection, &others) {
                found[k].detection.fit = fit;
            }
        }
    }

    /// Reads the top of every ink die found without one: [`within_counts`] may make a piece
    /// first read as another model the die.
    fn read_die_tops(&self, found: &mut [Found], regions: &[region::Region]) {
        for f in found.iter_mut() {
            let model = &self.models[f.detection.model];
            if model.kind == PieceKind::InkDie
                && f.detection.top.is_none()
                && let Some(region) = regions.get(f.region)
            {
                f.detection.top = die_top(region, model, &f.detection.fit, &self.view);
            }
        }
    }
}

/// Whether white-balance gains mean the light changed since calibration.
pub fn lighting_changed(balance: &super::labels::Balance) -> bool {
    let g = balance.gains;
    let mean = (g[0] + g[1] + g[2]) / 3.0;
    let (lo, hi) = (g[0].min(g[1]).min(g[2]), g[0].max(g[1]).max(g[2]));
    if !(mean > 0.0 && lo > 0.0) {
        return false;
    }
    mean.max(1.0 / mean) >= LIGHTING_CHANGED_GAIN || hi / lo >= LIGHTING_CHANGED_CAST
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

/// Whether a piece of catalog colour `colour` shows clearly brighter than a table of median
/// `table_bgr`, white paper showing `white_sum` (`b + g + r`) in the same light.
fn body_stands_out(colour: Srgb, table_bgr: [f32; 3], white_sum: f32) -> bool {
    let Lightness {
        piece: piece_lightness,
        table: table_lightness,
    } = Lightness::of(colour, table_bgr, white_sum);
    piece_lightness >= BODY_STANDS_OUT_RATIO * table_lightness
}

/// Median colour of the valid pixels of `image` (every fourth row and column), `[b, g, r]`.
fn median_bgr(image: &Mat, valid: &Mat) -> Result<[f32; 3], VisionError> {
    let mut ch: [Vec<u8>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    for y in (0..image.rows()).step_by(4) {
        let r = image.at_row::<core::Vec3b>(y)?;
        let v = valid.at_row::<u8>(y)?;
        for x in (0..r.len()).step_by(4) {
            if v[x] != 0 {
                for c in 0..3 {
                    ch[c].push(r[x][c]);
                }
            }
        }
    }
    let mut med = [128.0f32; 3];
    for c in 0..3 {
        if !ch[c].is_empty() {
            let mid = ch[c].len() / 2;
            let (_, m, _) = ch[c].select_nth_unstable(mid);
            med[c] = *m as f32;
        }
    }
    Ok(med)
}

/// Coarse pixels along the ocean's outline that are usable (away from the counter).
fn string_samples(
    ocean: &PolygonMm,
    rect: &Rectification,
    usable: &Mat,
) -> Result<Vec<(i32, i32)>, VisionError> {
    let perimeter = ocean.perimeter();
    let mut out = Vec::new();
    if perimeter <= 0.0 || ocean.len() < 3 {
        return Ok(out);
    }
    let pts = ocean.points();
    let step = perimeter / STRING_SAMPLES as f64;
    let mut s_next = 0.0;
    let mut s = 0.0;
    for (a, b) in ocean.edges() {
        let len = a.distance(b);
        while s_next <= s + len && len > 0.0 {
            let p = a + (b - a) * ((s_next - s) / len);
            let px = rect.coarse.mm_to_px(p);
            let (x, y) = (px.x.round() as i32, px.y.round() as i32);
            if x >= 0
                && y >= 0
                && x < rect.coarse.width as i32
                && y < rect.coarse.height as i32
                && *usable.at_2d::<u8>(y, x)? != 0
            {
                out.push((x, y));
            }
            s_next += step;
        }
        s += len;
    }
    let _ = pts;
    Ok(out)
}

/// The centre of a point set.
pub fn mean(points: &[PointMm]) -> PointMm {
    let n = points.len().max(1) as f64;
    points.iter().fold(PointMm::default(), |a, &p| a + p) * (1.0 / n)
}

impl Analyzer {
    /// The frame's white balance and shadow tint (diagnostics).
    pub fn balance_of(&self, frame: &Mat) -> Result<super::labels::Balance, VisionError> {
        Ok(self.coarse_pass(&self.rect.coarse_view(frame)?)?.balance)
    }

    /// The whole fine view of a frame, labelled and coloured as the detector sees it (for
    /// diagnostics: `examples/vision_probe.rs`).
    pub fn full_region(&self, frame: &Mat) -> Result<region::Region, VisionError> {
        let g = &self.rect.fine;
        let full = core::Rect::new(0, 0, g.width as i32, g.height as i32);
        region::fine_region(frame, full, &[], &self.balance_of(frame)?, &self.fine_inputs())
    }

    /// A picture of what vision saw, for people: the fine top-down view of the whole ocean with
    /// changed pixels tinted (pieces magenta, shadows blue), every found piece's silhouette in
    /// green and its footprint in red. For `octoref bench --dump` and debugging.
    pub fn debug_view(&self, frame: &Mat, analysis: &FrameAnalysis) -> Result<Mat, VisionError> {
        let g = &self.rect.fine;
        let full = core::Rect::new(0, 0, g.width as i32, g.height as i32);
        let reg = self.full_region(frame)?;
        let mut out = self.rect.fine_view(frame, full)?;
        for y in 0..reg.height {
            let row = out.at_row_mut::<core::Vec3b>(y as i32)?;
            let labels = &reg.labels[y * reg.width..(y + 1) * reg.width];
            for (px, label) in row.iter_mut().zip(labels) {
                match label {
                    Label::Piece => {
                        px[0] = ((px[0] as u16 + 255) / 2) as u8;
                        px[2] = ((px[2] as u16 + 255) / 2) as u8;
                    }
                    Label::Shadow => {
                        px[0] = ((px[0] as u16 + 200) / 2) as u8;
                    }
                    _ => {}
                }
            }
        }
        let to_pt = |q: PointMm| {
            let p = g.mm_to_px(q);
            core::Point::new(p.x.round() as i32, p.y.round() as i32)
        };
        for p in &analysis.pieces {
            let pts: core::Vector<core::Point> = p.footprint_mm.points().iter().map(|&q| to_pt(q)).collect();
            let mut v: core::Vector<core::Vector<core::Point>> = core::Vector::new();
            v.push(pts);
            opencv::imgproc::polylines(
                &mut out,
                &v,
                true,
                Scalar::new(0.0, 0.0, 255.0, 0.0),
                1,
                opencv::imgproc::LINE_8,
                0,
            )?;
            let c = to_pt(p.center_mm);
            opencv::imgproc::put_text(
                &mut out,
                &p.id,
                c,
                opencv::imgproc::FONT_HERSHEY_PLAIN,
                0.7,
                Scalar::new(0.0, 0.0, 0.0, 0.0),
                1,
                opencv::imgproc::LINE_8,
                false,
            )?;
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth::{CameraNudge, Faults, LightingChange, Resolution, SceneSpec};
    use crate::vision::view::{Pose2, Silhouette};

    /// The ink die and the Octo-Canon of the default catalog, their main colour one palette
    /// bit (as the palette has it: both near black), the die's pink another; and a cup of
    /// another colour.
    fn die_canon_goblet() -> Vec<Model> {
        let cat = Catalog::default_catalog();
        let model = |name: &str, primary: u32, secondary: u32| {
            let i = cat.pieces.iter().position(|e| e.name == name).unwrap();
            Model::new(i, &cat.pieces[i], ColourSet(primary), ColourSet(secondary), false)
        };
        vec![
            model("ink_die", 1, 2),
            model("octo_canon", 1, 0),
            model("goblet", 4, 0),
        ]
    }

    fn fit_at(x: f64, gain: f64, quality: f64) -> Fit {
        Fit {
            pose: Pose2 {
                center_mm: PointMm::new(x, 0.0),
                angle_rad: 0.0,
                base_mm: 0.0,
            },
            gain,
            area_px: gain / quality,
            silhouette: Silhouette::default(),
        }
    }

    fn found(model: usize, fit: Fit, region: usize) -> Found {
        Found {
            detection: Detection {
                model,
                fit,
                top: None,
                runner_up: None,
                on_shadows: false,
            },
            region,
        }
    }

    /// What each piece (by its x) fits as when fitted afresh as `model`: (gain, quality).
    fn refits(table: &[(f64, usize, f64, f64)]) -> impl Fn(&[Found], usize, usize) -> Option<Fit> + '_ {
        move |found, k, model| {
            let x = found[k].detection.fit.pose.center_mm.x;
            table
                .iter()
                .find(|&&(tx, tm, _, _)| tx == x && tm == model)
                .map(|&(_, _, g, q)| fit_at(x, g, q))
        }
    }

    #[test]
    fn a_canon_taken_for_the_die_becomes_the_canon_when_the_real_die_reads_as_no_canon() {
        let models = die_canon_goblet();
        // Beside a pink ship the die's model scores more on the canon (x = 0) than the real
        // die (x = 100) does; the canon's model fits the canon well, and the die badly.
        let mut found = vec![
            found(0, fit_at(0.0, 408.0, 0.77), 0),
            found(0, fit_at(100.0, 267.0, 0.6), 1),
        ];
        let table = [(0.0, 1, 379.0, 0.71), (100.0, 1, 120.0, 0.3)];
        let dropped = within_counts(&mut found, &models, refits(&table));
        assert!(dropped.is_empty());
        let at = |x: f64| {
            found
                .iter()
                .find(|f| f.detection.fit.pose.center_mm.x == x)
                .unwrap()
        };
        assert_eq!(at(0.0).detection.model, 1);
        assert_eq!(at(0.0).detection.fit.gain, 379.0);
        assert_eq!(at(100.0).detection.model, 0);
    }

    #[test]
    fn a_piece_whose_look_alike_was_not_found_becomes_it_when_it_scores_at_least_as_much_so() {
        let models = die_canon_goblet();
        let model_after = |found: Vec<Found>, table: &[(f64, usize, f64, f64)]| {
            let mut found = found;
            assert!(within_counts(&mut found, &models, refits(table)).is_empty());
            found
                .iter()
                .map(|f| (f.detection.model, f.detection.fit.gain))
                .collect::<Vec<_>>()
        };
        // The canon (x = 0) read as the die, the real die missed (on a pink tentacle): fitted
        // afresh as the canon, which nothing else is, it scores more.
        let canon_as_die = vec![found(0, fit_at(0.0, 400.0, 0.7), 0)];
        assert_eq!(
            model_after(canon_as_die.clone(), &[(0.0, 1, 430.0, 0.8)]),
            [(1, 430.0)]
        );
        // It scores less as the canon (gain times quality): it is the die.
        assert_eq!(model_after(canon_as_die, &[(0.0, 1, 380.0, 0.7)]), [(0, 400.0)]);
        // It scores more, but fits the canon poorly: it stays the die.
        let poor_die = vec![found(0, fit_at(0.0, 400.0, 0.3), 0)];
        assert_eq!(model_after(poor_die, &[(0.0, 1, 430.0, 0.45)]), [(0, 400.0)]);
        // A canon was found elsewhere (x = 100): the die stays the die.
        let both = vec![
            found(0, fit_at(0.0, 400.0, 0.7), 0),
            found(1, fit_at(100.0, 300.0, 0.7), 1),
        ];
        assert_eq!(
            model_after(both, &[(0.0, 1, 430.0, 0.8)]),
            [(0, 400.0), (1, 300.0)]
        );
    }

    #[test]
    fn a_piece_over_the_count_that_reads_as_the_other_model_is_dropped_to_be_looked_at_again() {
        let models = die_canon_goblet();
        // The real die (x = 0) fits as a canon too, and so does the one over the count: which
        // is which is not clear, and the second look at the dropped one's region decides.
        let mut found = vec![
            found(0, fit_at(0.0, 641.0, 0.86), 0),
            found(0, fit_at(100.0, 402.0, 0.8), 1),
        ];
        let table = [(0.0, 1, 558.0, 0.89), (100.0, 1, 351.0, 0.69)];
        let dropped = within_counts(&mut found, &models, refits(&table));
        assert_eq!(dropped.len(), 1);
        assert_eq!(dropped[0].detection.fit.pose.center_mm.x, 100.0);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].detection.model, 0);
    }

    #[test]
    fn a_kept_piece_that_scores_more_as_the_other_model_is_turned_before_the_runner_up() {
        let models = die_canon_goblet();
        // The canon (x = 0) first read as the die, the real die (x = 100) over the count with
        // the canon as its runner-up by a hair: fitted afresh, the kept one scores more as the
        // canon than it did as the die, so it is the canon and the die stays the die.
        let mut real_die = found(0, fit_at(100.0, 394.0, 0.57), 1);
        real_die.detection.runner_up = Some((1, fit_at(100.0, 369.0, 0.61)));
        let mut found = vec![found(0, fit_at(0.0, 470.0, 0.83), 0), real_die];
        let table = [(0.0, 1, 481.0, 0.88), (100.0, 1, 369.0, 0.61)];
        assert!(within_counts(&mut found, &models, refits(&table)).is_empty());
        let model_at = |x: f64| {
            found
                .iter()
                .find(|f| f.detection.fit.pose.center_mm.x == x)
                .unwrap()
                .detection
                .model
        };
        assert_eq!(model_at(0.0), 1);
        assert_eq!(model_at(100.0), 0);
    }

    #[test]
    fn a_model_the_game_leaves_in_the_box_is_never_turned_into() {
        let mut models = die_canon_goblet();
        models[1].in_play = false;
        let mut real_die = found(0, fit_at(100.0, 394.0, 0.57), 1);
        real_die.detection.runner_up = Some((1, fit_at(100.0, 369.0, 0.61)));
        let mut found = vec![found(0, fit_at(0.0, 470.0, 0.83), 0), real_die];
        let table = [(0.0, 1, 481.0, 0.88), (100.0, 1, 369.0, 0.61)];
        assert_eq!(within_counts(&mut found, &models, refits(&table)).len(), 1);
        assert!(found.iter().all(|f| f.detection.model == 0));
    }

    #[test]
    fn a_kept_piece_is_turned_only_into_a_model_of_its_colour_that_keeps_most_of_its_score() {
        let models = die_canon_goblet();
        // As a canon the kept die would keep 0.5 of its score: not enough.
        let mut found_die = vec![
            found(0, fit_at(0.0, 400.0, 0.8), 0),
            found(0, fit_at(100.0, 300.0, 0.7), 1),
        ];
        let weak = [(0.0, 1, 250.0, 0.64)];
        assert_eq!(within_counts(&mut found_die, &models, refits(&weak)).len(), 1);
        assert_eq!(found_die[0].detection.model, 0);
        // A goblet (another colour) is never asked, however well it would fit; the canon is
        // not asked either once one is found.
        let asked = std::cell::RefCell::new(Vec::new());
        let mut found_all = vec![
            found(0, fit_at(0.0, 400.0, 0.8), 0),
            found(0, fit_at(100.0, 300.0, 0.7), 1),
            found(1, fit_at(200.0, 450.0, 0.9), 2),
        ];
        let spy = |found: &[Found], k: usize, model: usize| {
            asked
                .borrow_mut()
                .push((found[k].detection.fit.pose.center_mm.x, model));
            None
        };
        within_counts(&mut found_all, &models, spy);
        assert!(asked.borrow().is_empty(), "{asked:?}");
    }

    #[test]
    fn the_orange_ship_carries_gold_goblets_and_chests_of_its_hue_and_no_other_piece_any() {
        let catalog = Catalog::default_catalog();
        let mut palette = Palette::default();
        let models: Vec<Model> = catalog
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, e)| e.piece != PieceKind::Bead)
            .map(|(i, e)| {
                let c = entry_colours(&mut palette, e, None);
                Model::new(i, e, c.primary, c.secondary, false)
            })
            .collect();
        let kin_of = |name: &str| {
            let ship = models.iter().find(|m| m.name == name).unwrap();
            let kin = deck_kin(ship, &models, &catalog);
            let mut names: Vec<&str> = models
                .iter()
                .filter(|t| t.kind == PieceKind::Treasure && kin.contains_any(t.primary.0))
                .map(|t| t.name.as_str())
                .collect();
            names.sort_unstable();
            names
        };
        assert_eq!(kin_of("ship_orange"), ["chest", "goblet", "gold"]);
        // No other hull shares a treasure's hue (the blue ship and the gem are 0.86 apart); an
        // anchor, the island and the crab carry nothing that way.
        for other in [
            "ship_green",
            "ship_blue",
            "ship_purple",
            "pirate_ship",
            "anchor_orange",
            "island",
            "crab",
        ] {
            assert!(kin_of(other).is_empty(), "{other}: {:?}", kin_of(other));
        }
    }

    #[test]
    fn a_white_body_stands_out_from_a_grey_table_but_not_from_a_pale_one() {
        let captain = Srgb([0xF2, 0xEF, 0xE6]);
        // Table medians and white paper read off bench scenes: a mid-grey table, a pale one.
        assert!(body_stands_out(captain, [131.0, 126.0, 132.0], 668.0));
        assert!(!body_stands_out(captain, [170.0, 188.0, 190.0], 624.0));
        // A pale grey table, three quarters as light as the paper: the body's lit side shows.
        assert!(body_stands_out(captain, [164.0, 170.0, 177.0], 661.0));
        // A dark piece never does.
        assert!(!body_stands_out(
            Srgb([0x2A, 0x2A, 0x2A]),
            [84.0, 84.0, 75.0],
            708.0
        ));
    }
    use crate::vision::evaluate::{score_frame, truth_report};
    use crate::vision::synthetic::{SyntheticScene, prepare};

    #[test]
    fn a_chest_or_gold_bar_as_dim_as_dark_wood_passes_for_it_but_not_for_grey() {
        // Table medians and white paper read off bench scenes: dark warm wood, mid-grey.
        let dark_wood = [30.0, 61.0, 98.0];
        let grey = [131.0, 126.0, 132.0];
        let white = Some([178.0, 182.0, 186.0]);
        let chest = Srgb([0x8B, 0x5A, 0x2B]);
        let gold = Srgb([0xC9, 0x96, 0x2B]);
        assert!(shaded_like_table(chest, dark_wood, white));
        assert!(shaded_like_table(gold, dark_wood, white));
        assert!(!shaded_like_table(chest, grey, white));
        assert!(!shaded_like_table(gold, grey, white));
        // Other hues stand apart from the wood however dim; neutral pieces are never asked.
        assert!(!shaded_like_table(Srgb([0x27, 0xC2, 0xD6]), dark_wood, white));
        assert!(!shaded_like_table(Srgb([0x3F, 0xA3, 0x4D]), dark_wood, white));
        assert!(!shaded_like_table(Srgb([0x2A, 0x2A, 0x2A]), grey, white));
    }

    #[test]
    fn a_white_captain_passes_for_cream_wood_but_not_for_mid_or_dark_wood() {
        // Table medians and white paper read off bench scenes.
        let captain = Srgb([0xF2, 0xEF, 0xE6]);
        let white = Some([190.0, 195.0, 200.0]);
        assert!(passes_for_table(captain, [159.0, 183.0, 213.0], white));
        assert!(!passes_for_table(captain, [91.0, 125.0, 177.0], white));
        assert!(!passes_for_table(captain, [30.0, 61.0, 98.0], white));
    }

    #[test]
    fn whether_a_piece_passes_for_the_table_does_not_change_with_the_light() {
        let gold = Srgb([0xC9, 0x96, 0x2B]);
        let captain = Srgb([0xF2, 0xEF, 0xE6]);
        let tables = [[30.0, 61.0, 98.0], [47.0, 66.0, 99.0], [159.0, 183.0, 213.0]];
        let white = [178.0, 182.0, 186.0];
        for table in tables {
            for colour in [gold, captain] {
                let before = passes_for_table(colour, table, Some(white));
                // Half the light, and a warm lamp: table and paper change alike.
                for gains in [[0.5f32, 0.5, 0.5], [0.8, 1.0, 1.25]] {
                    let lit_table = [0, 1, 2].map(|c| table[c] * gains[c]);
                    let lit_white = [0, 1, 2].map(|c| white[c] * f64::from(gains[c]));
                    assert_eq!(
                        passes_for_table(colour, lit_table, Some(lit_white)),
                        before,
                        "{colour:?} on {table:?} under gains {gains:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_black_piece_looks_like_a_shadow_on_a_grey_table_only() {
        // Table medians read off bench scenes: mid-grey, warm wood.
        let grey = table_model([131.0, 127.0, 132.0]);
        let wood = table_model([36.0, 61.0, 94.0]);
        let canon = ColourModel::of_srgb(Srgb([0x2A, 0x2A, 0x2A]));
        let die = ColourModel::of_srgb(Srgb([0x1C, 0x1C, 0x1C]));
        assert!(shadow_like(&canon, &grey) && shadow_like(&die, &grey));
        assert!(!shadow_like(&canon, &wood) && !shadow_like(&die, &wood));
        // Neither a white piece nor a coloured one.
        assert!(!shadow_like(
            &ColourModel::of_srgb(Srgb([0xF2, 0xEF, 0xE6])),
            &grey
        ));
        assert!(!shadow_like(
            &ColourModel::of_srgb(Srgb([0x5A, 0x2E, 0x1C])),
            &grey
        ));
    }

    #[test]
    fn the_brown_chest_has_orange_for_its_lighter_twin_and_no_other_piece_has_one() {
        let catalog = Catalog::default_catalog();
        let twin = |name: &str| {
            let e = catalog.pieces.iter().find(|e| e.name == name).unwrap();
            lighter_twin(e.colour, &catalog)
        };
        let orange = srgb_lightness(Srgb([0xF0, 0x8A, 0x24]));
        assert_eq!(twin("chest"), Some(orange));
        // Gold's nearest lighter colour of its hue, the island's sand, is too close in lightness;
        // orange has none lighter; white has no hue.
        for name in [
            "gold",
            "goblet",
            "ship_orange",
            "anchor_orange",
            "captain",
            "ink_die",
            "island",
        ] {
            assert_eq!(twin(name), None, "{name}");
        }
    }

    #[test]
    fn light_and_peach_wood_are_a_paler_gold_but_no_paler_green_and_grey_is_no_paler_anything() {
        // Table medians read off bench scenes: light wood (scene 1), mid-grey, dark warm wood.
        let light_wood = table_model([92.0, 146.0, 177.0]);
        let grey = table_model([131.0, 127.0, 132.0]);
        let dark_wood = table_model([36.0, 61.0, 94.0]);
        let gold = ColourModel::of_srgb(Srgb([0xC9, 0x96, 0x2B]));
        let goblet = ColourModel::of_srgb(Srgb([0xF2, 0xC2, 0x30]));
        let green = ColourModel::of_srgb(Srgb([0x2E, 0x8B, 0x3A]));
        let captain = ColourModel::of_srgb(Srgb([0xF2, 0xEF, 0xE6]));
        assert!(paler_table(&gold, &light_wood) && paler_table(&goblet, &light_wood));
        assert!(!paler_table(&green, &light_wood) && !paler_table(&captain, &light_wood));
        for m in [&gold, &goblet, &green, &captain] {
            assert!(!paler_table(m, &grey), "{m:?}");
        }
        // Dark wood is redder than gold, not a paler gold.
        assert!(!paler_table(&gold, &dark_wood));
        // A peach wood (bench scene 19) lies 0.027 off gold: a gold bar's lit top washes out to
        // it all the same.
        let peach_wood = table_model([125.0, 160.0, 201.0]);
        assert!(paler_table(&gold, &peach_wood));
    }

    #[test]
    fn the_islands_sand_is_of_light_woods_hue_and_lighter_but_no_gold_is() {
        // Light wood as bench scene 19's reference shows it, white paper reading 240 a channel.
        let wood_bgr = [131.0, 156.0, 189.0];
        let wood = table_model(wood_bgr);
        let white_sum = 720.0;
        let sand = Srgb([0xE8, 0xC9, 0x8A]);
        assert!(lighter_of_table_hue(sand, &wood, wood_bgr, white_sum));
        // Gold is far richer than the wood; the captain's white has no hue.
        for other in [Srgb([0xC9, 0x96, 0x2B]), Srgb([0xF2, 0xEF, 0xE6])] {
            assert!(
                !lighter_of_table_hue(other, &wood, wood_bgr, white_sum),
                "{other:?}"
            );
        }
        // The same wood under brighter light than the paper's: the sand is no lighter.
        assert!(!lighter_of_table_hue(sand, &wood, wood_bgr, 600.0));
        // Sand on grey is not the table's hue.
        let grey_bgr = [131.0, 127.0, 132.0];
        assert!(!lighter_of_table_hue(
            sand,
            &table_model(grey_bgr),
            grey_bgr,
            white_sum
        ));
    }

    fn scene(
        seed: u64,
        tilt_deg: f64,
        faults: impl Fn(usize) -> Faults,
        frames: usize,
    ) -> (SyntheticScene, Analyzer) {
        let mut spec = SceneSpec::new(seed, 4);
        spec.resolution = Some(Resolution::HD);
        spec.tilt_deg = Some(tilt_deg);
        spec.distortion = Some(false);
        let sc = prepare(&spec, frames, faults).unwrap();
        let an = Analyzer::new(
            &sc.profile,
            &sc.reference,
            &Catalog::default_catalog(),
            &TaughtModels::default(),
        )
        .unwrap();
        (sc, an)
    }

    #[test]
    fn told_the_game_vision_looks_for_its_pieces_only_and_for_the_whole_box_again_when_told_so() {
        use crate::games::crash_octopus::{PlayerColor, RulesData};
        let (_, mut an) = scene(3, 22.0, |_| Faults::none(), 1);
        let of = |an: &Analyzer, name: &str| {
            let m = an.models().iter().find(|m| m.name == name).unwrap();
            (m.in_play, m.count)
        };
        let rules = RulesData::builtin().unwrap();
        an.set_in_play(&InPlay::of_players(
            &[PlayerColor::Orange, PlayerColor::Green],
            &rules,
        ));
        assert_eq!(of(&an, "octo_canon"), (false, 0));
        assert_eq!(of(&an, "ship_blue"), (true, 1));
        assert_eq!(of(&an, "ship_orange"), (true, 1));
        assert_eq!(of(&an, "gold"), (true, 3));
        assert_eq!(of(&an, "ink_die"), (true, 1));
        for (i, m) in an.models().iter().enumerate() {
            assert_eq!(an.excluded[i], an.off_counter[i] || !m.in_play, "{}", m.name);
        }
        an.set_in_play(&InPlay::everything());
        assert_eq!(of(&an, "octo_canon"), (true, 1));
        assert_eq!(of(&an, "gold"), (true, 4));
        assert!(an.excluded == an.off_counter);
    }

    #[test]
    fn a_clear_scene_is_read_with_its_rulings() {
        use crate::vision::evaluate::Summary;
        let (sc, an) = scene(3, 22.0, |_| Faults::none(), 2);
        let ctx = GameContext::with_players(sc.scene.spec.player_colours());
        let mut summary = Summary::default();
        for f in &sc.frames {
            let (report, a) = an.report(&f.image, &f.truth.image, &ctx).unwrap();
            assert!(
                !a.obstructed && !a.view_moved && !a.lighting_changed,
                "{}",
                f.truth.image
            );
            let truth = truth_report(&f.truth, &ctx).unwrap();
            summary.add(&score_frame(&f.truth, &truth, &report));
        }
        let (mut tp, mut fp, mut fn_) = (0, 0, 0);
        for c in summary.kinds.values() {
            tp += c.true_positive;
            fp += c.false_positive;
            fn_ += c.false_negative;
        }
        assert!(
            tp as f64 >= 0.9 * (tp + fn_) as f64,
            "recall: {:?}",
            summary.kinds
        );
        assert!(
            tp as f64 >= 0.92 * (tp + fp) as f64,
            "precision: {:?}",
            summary.kinds
        );
        for kind in [
            "octopus_head",
            "tentacle",
            "ship",
            "treasure/goblet",
            "treasure/gem",
        ] {
            let c = summary.kinds[kind];
            assert_eq!((c.false_positive, c.false_negative), (0, 0), "{kind}: {c:?}");
        }
        assert!(
            summary.error_quantile(0.5) <= 2.0,
            "median {}",
            summary.error_quantile(0.5)
        );
        assert!(
            summary.error_quantile(0.95) <= 5.0,
            "p95 {}",
            summary.error_quantile(0.95)
        );
        let r = summary.rulings;
        assert_eq!(r.ocean_right, r.ocean_checked);
        assert_eq!(r.counter_right, r.counter_checked);
        assert_eq!(r.clear_called_tie, 0);
        // An orange anchor against its ship is still read as a chest here (issue 5's bar is not
        // met yet): at most three of the seven calls may be wrong.
        assert!(
            r.closest_checked > 0 && r.closest_right + 3 >= r.closest_checked,
            "{r:?}"
        );
    }

    #[test]
    fn a_frame_reads_the_same_on_any_number_of_threads() {
        let (sc, an) = scene(3, 22.0, |_| Faults::none(), 1);
        let frame = &sc.frames[0].image;
        let one = an.analyze(frame).unwrap();
        let an = an.with_threads(3);
        assert_eq!(an.threads(), 3);
        let three = an.analyze(frame).unwrap();
        assert!(one.pieces.len() >= 10, "{} pieces", one.pieces.len());
        assert_eq!(one.pieces, three.pieces);
        assert_eq!(one.counter, three.counter);
        assert_eq!(one.base_mm, three.base_mm);
        assert_eq!(
            (one.obstructed, one.view_moved),
            (three.obstructed, three.view_moved)
        );
        // The frame's time is its wall-clock time; the stages count each thread's.
        assert!(three.times.analysis_ms > 0.0);
        assert!(three.times.total_ms() >= three.times.analysis_ms);
    }

    #[test]
    fn the_coarse_pass_labels_the_same_on_any_number_of_threads() {
        let (sc, an) = scene(3, 22.0, |_| Faults::none(), 1);
        let view = an.rect.coarse_view(&sc.frames[0].image).unwrap();
        let one = an.coarse_pass(&view).unwrap();
        let an = an.with_threads(3);
        let three = an.coarse_pass(&view).unwrap();
        assert!(
            view.rows() >= 3 * region::MIN_BAND_ROWS,
            "{} rows: too few to be split",
            view.rows()
        );
        assert_eq!(
            one.labels.data_bytes().unwrap(),
            three.labels.data_bytes().unwrap()
        );
        assert!(!one.plans.is_empty());
        assert_eq!(one.plans, three.plans);
        assert_eq!(one.components, three.components);
    }

    #[test]
    fn gains_far_from_one_mean_the_light_changed() {
        use crate::vision::labels::Balance;
        assert!(!lighting_changed(&Balance {
            gains: [1.02, 0.99, 1.01],
            shadow_tint: None,
            shadow_fall: None,
        }));
        assert!(lighting_changed(&Balance {
            gains: [1.3, 1.3, 1.3],
            shadow_tint: None,
            shadow_fall: None,
        }));
        assert!(lighting_changed(&Balance {
            gains: [0.7, 0.7, 0.7],
            shadow_tint: None,
            shadow_fall: None,
        }));
        assert!(lighting_changed(&Balance {
            gains: [1.1, 1.0, 0.92],
            shadow_tint: None,
            shadow_fall: None,
        }));
    }

    #[test]
    fn a_hand_over_the_ocean_obstructs_and_a_clear_table_does_not() {
        // Frame 0 clear, frames 1 and 2 with a hand.
        let (sc, an) = scene(
            7,
            12.0,
            |i| Faults {
                hand: i > 0,
                ..Faults::none()
            },
            3,
        );
        for f in &sc.frames {
            let a = an.analyze(&f.image).unwrap();
            assert_eq!(a.obstructed, f.truth.obstructed, "{}", f.truth.image);
            assert!(!a.view_moved, "{}", f.truth.image);
        }
        assert!(sc.frames.iter().any(|f| f.truth.obstructed));
    }

    #[test]
    fn a_bumped_camera_is_seen_as_moved() {
        let nudge = |i: usize| Faults {
            camera_nudge: (i > 0).then(CameraNudge::default),
            ..Faults::none()
        };
        let (sc, an) = scene(9, 20.0, nudge, 2);
        assert!(!an.analyze(&sc.frames[0].image).unwrap().view_moved);
        assert!(an.analyze(&sc.frames[1].image).unwrap().view_moved);
    }

    #[test]
    fn a_lighting_change_is_flagged_and_adapted_to() {
        let change = |i: usize| Faults {
            lighting: (i > 0).then(|| LightingChange::random(11, i as u64)),
            ..Faults::none()
        };
        let (sc, an) = scene(11, 15.0, change, 3);
        let ctx = GameContext::with_players(sc.scene.spec.player_colours());
        for (i, f) in sc.frames.iter().enumerate() {
            let (report, a) = an.report(&f.image, &f.truth.image, &ctx).unwrap();
            assert_eq!(
                a.lighting_changed,
                i > 0,
                "{} gains {:?}",
                f.truth.image,
                a.balance_gains
            );
            // Adapted: the pieces found are still the right ones.
            let truth = truth_report(&f.truth, &ctx).unwrap();
            let score = score_frame(&f.truth, &truth, &report);
            let (tp, fp) = score
                .kinds
                .values()
                .fold((0, 0), |(t, p), c| (t + c.true_positive, p + c.false_positive));
            assert!(
                fp as f64 <= 0.1 * (tp + fp) as f64,
                "{}: {tp} right, {fp} wrong: {:?}",
                f.truth.image,
                score.misses
            );
        }
    }
}
