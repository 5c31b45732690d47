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
//!
//! Parts: how each catalog piece looks on the profile's table, read once by [`Analyzer::new`]
//! (`looks.rs`); the box's counts, kept over a frame's pieces (`counts.rs`).

mod counts;
mod looks;

use super::VisionError;
use super::colour::{ColourModel, ColourSet, Palette, entry_colours};
use super::counter::CounterBand;
use super::detect::{Detection, Detector, Model, SeenBy, die_top, refit_as, repose};
use super::in_play::InPlay;
use super::labels::{Balance, Label};
use super::parallel::{default_threads, run_tasks};
use super::rectify::{COARSE_STEP, Rectification};
use super::region::{self, CoarseInputs, FineInputs, Tops};
use super::stacked::{Placed, stacked_duplicates};
use super::taught::TaughtModels;
use super::view::Viewpoint;
use crate::calibrate::profile::Profile;
use crate::games::crash_octopus::PlayerColor;
use crate::referee::{self, FrameReport, GameContext};
use crate::table::{Catalog, CounterReport, OceanReport, PieceKind, PieceReport, PointMm, PolygonMm};
use counts::{Found, swap_look_alikes, within_counts};
pub use looks::BODY_STANDS_OUT_RATIO;
use looks::{
    body_stands_out, dark, deck_kin, light, lighter_of_table_hue, lighter_twin, paler_table,
    passes_for_table, shaded_like_table, shadow_like, table_like, table_model,
};
use opencv::core::{self, Mat, Scalar};
use opencv::prelude::*;
use serde::Serialize;
use std::sync::Arc;
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
/// Points sampled along the string for that test.
const STRING_SAMPLES: usize = 400;
/// Confidence of a fit from its quality (gain per silhouette pixel): `quality / this`, capped.
const CONFIDENT_QUALITY: f64 = 0.75;
/// Lowest confidence reported for an accepted piece.
const MIN_CONFIDENCE: f64 = 0.2;
/// A piece fitted below this quality is doubtful: when its kind's count is reached, a region
/// looked at again for a piece over another kind's count may still find one of its kind (see
/// [`Analyzer::analyze`]), and the better of the two stays.
const DOUBTFUL_QUALITY: f64 = 0.5;
/// A ship whose fit explains at least this share of its silhouette is taken as settled alone...
const SETTLED_HULL_QUALITY: f64 = 0.8;
/// ...and with its anchor when it explains at least this share and the anchor at least
/// [`SETTLED_ANCHOR_QUALITY`] ([`Analyzer::settle_ships`] fits the pair again together only
/// below: it costs several fits of the anchor all the way round). A pair may be untangled
/// wrong while the ship's load still counts for the ship: `--seed 801` scene 811, the orange
/// ship turned end for end over its anchor and the anchor read past its other end explained
/// more pixels than the true pair until the goblet on the deck was found. Fitted there, they
/// still explain 0.81 and 0.91 of themselves (the true pair 0.95 and 0.99). 0.5 left them so;
/// 0.85 and 0.9 refit them where they lie and changed nothing else over eleven sets of 30
/// scenes (`octoref bench --seed 1, 101, ... 1001`) but a few hundredths of a millimetre; the
/// pairs fitted again cost classify 2.5 % more thread time (`speed_probe 8 3 1`, fastest of
/// three passes: 42.5 → 43.6 ms a frame).
const SETTLED_PAIR_HULL_QUALITY: f64 = 0.85;
const SETTLED_ANCHOR_QUALITY: f64 = 0.72;

/// Milliseconds spent per stage on one frame. Stages run on several threads at once (blobs,
/// classify and counter: see the module's documentation) count each thread's time, so they may
/// add up to more than the frame took; `analysis_ms` is the time the frame took, start to end.
///
/// The three `*_regions_ms` split `analysis_ms` on the wall clock where the frame's changed
/// regions are looked at on all its threads: what runs before (rectifying, the coarse pass,
/// finding the regions, with the counter read beside them on a second thread) and after (the
/// box's counts, a second look at regions that held too many of a piece, settling the ships,
/// the reports) mostly keeps one thread busy, and bounds what more threads can gain.
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
    /// Wall clock, from the analysis's start until the regions are looked at.
    pub before_regions_ms: f64,
    /// Wall clock, while the regions (and the counter, unless read before) are looked at.
    pub regions_ms: f64,
    /// Wall clock, from then to the analysis's end.
    pub after_regions_ms: f64,
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
        self.before_regions_ms += o.before_regions_ms;
        self.regions_ms += o.regions_ms;
        self.after_regions_ms += o.after_regions_ms;
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
            before_regions_ms: self.before_regions_ms * k,
            regions_ms: self.regions_ms * k,
            after_regions_ms: self.after_regions_ms * k,
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
    palette: Arc<Palette>,
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
            // Judged on the colours the piece shows: those taught, else the catalog's.
            let shown: &[ColourModel] = taught_models.unwrap_or(std::slice::from_ref(&catalog_model));
            let shown_all = |f: &dyn Fn(&ColourModel) -> bool| !shown.is_empty() && shown.iter().all(f);
            let shadowy = shown_all(&|m| shadow_like(m, &table_colour));
            let is_dark = shown_all(&|m| dark(m));
            // A taught piece's colours are those it shows on this table, washed-out faces
            // included.
            let shaded = taught_models.is_none() && shaded_like_table(e.colour, table_bgr, profile.white_bgr);
            let paler = taught_models.is_none() && (paler_table(&catalog_model, &table_colour) || shaded);
            let mut model = Model::new(i, e, colours.primary, colours.secondary, like)
                .with_body_standing_out(stands_out)
                .with_shadow_like(shadowy)
                .with_dark(is_dark)
                .with_table_hue(table_hue)
                .with_paler_table(paler)
                .with_shaded_like_table(shaded)
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
            palette: Arc::new(palette),
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
        let coarse_inputs = self.coarse_inputs();
        let labelled = region::coarse_labels(&coarse_view, &coarse_inputs)?;
        times.foreground_ms += ms(t);
        let fine_inputs = self.fine_inputs();
        let find_regions = |labelled| {
            let t = Instant::now();
            (region::coarse_regions(labelled, &coarse_inputs), ms(t))
        };
        // The counter needs only the balance: on several threads it is read on a second one
        // while the coarse pass finds the regions, and is then no task of the regions'.
        let ((coarse, regions_ms), early_counter) = if self.threads > 1 && self.counter.is_some() {
            let balance = labelled.balance;
            std::thread::scope(|scope| {
                let counter = scope.spawn(|| self.read_counter(frame, &fine_inputs, &balance));
                let coarse = find_regions(labelled);
                (
                    coarse,
                    Some(counter.join().map_err(|_| super::parallel::WorkerLost)),
                )
            })
        } else {
            (find_regions(labelled), None)
        };
        times.foreground_ms += regions_ms;
        let coarse = coarse?;
        let early_counter = early_counter.transpose()?;
        let view_moved = self.view_moved(&coarse.labels)?;
        let coarse_px_mm2 = self.rect.coarse.mm_per_px * self.rect.coarse.mm_per_px;
        let arm = coarse
            .components
            .iter()
            .zip(&coarse.at_view_edge)
            .any(|((_, area), &edge)| edge && *area as f64 * coarse_px_mm2 >= ARM_MIN_MM2);

        // The regions and the counter (the last task, unless read already), costliest (largest)
        // first.
        let n_regions = coarse.plans.len();
        let mut order: Vec<usize> = (0..n_regions).collect();
        if self.counter.is_some() && early_counter.is_none() {
            order.push(n_regions);
        }
        let task_area = |i: usize| match coarse.plans.get(i) {
            Some(p) => p.rect.area(),
            None => self.counter.as_ref().map_or(0, |b| b.rect().area()),
        };
        order.sort_by_key(|&i| std::cmp::Reverse(task_area(i)));
        times.before_regions_ms = ms(started);
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
                    let (reading, took) = self.read_counter(frame, &fine_inputs, &coarse.balance);
                    Looked::Counter(reading, took)
                }
            },
        )?;
        times.regions_ms = ms(started) - times.before_regions_ms;
        let mut looks = Vec::with_capacity(n_regions);
        let mut counter_reading = None;
        if let Some((reading, took)) = early_counter {
            counter_reading = reading?;
            times.counter_ms += took;
        }
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
        // Piece `k` fitted afresh as `model`, the others found in its region explaining their
        // pixels.
        let refit_seen = |found: &[Found], k: usize, model: usize, seen: SeenBy| {
            let at = &found[k];
            let others: Vec<&Detection> = found
                .iter()
                .enumerate()
                .filter(|&(o, f)| o != k && f.region == at.region)
                .map(|(_, f)| &f.detection)
                .collect();
            let region = regions.get(at.region)?;
            refit_as(
                region,
                &self.models,
                &self.view,
                model,
                &at.detection,
                &others,
                seen,
            )
        };
        self.drop_stacked(&mut found);
        let dropped = within_counts(&mut found, &self.models, refit_seen);
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
        within_counts(&mut found, &self.models, refit_seen);
        swap_look_alikes(&mut found, &self.models, refit_seen);
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
        times.after_regions_ms = times.analysis_ms - times.before_regions_ms - times.regions_ms;
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
        region::coarse_pass_on(coarse_view, &self.coarse_inputs())
    }

    fn coarse_inputs(&self) -> CoarseInputs<'_> {
        CoarseInputs {
            rect: &self.rect,
            reference: &self.ref_coarse,
            usable: &self.usable_coarse,
            balance_mask: &self.usable_coarse,
            view: &self.view,
            view_edge: &self.view_edge,
            threads: self.threads,
            rims: self.rims(),
            tops: Some(Tops {
                palette: &self.palette,
                white: self.white,
                colours: self.top_colours(),
            }),
        }
    }

    /// The counter read in `frame` with the frame's `balance`, and the time it took (ms);
    /// `None` without a counter.
    fn read_counter(
        &self,
        frame: &Mat,
        fine_inputs: &FineInputs<'_>,
        balance: &Balance,
    ) -> (Result<Option<super::counter::CounterReading>, VisionError>, f64) {
        let t = Instant::now();
        let reading = self
            .counter
            .as_ref()
            .map(|band| {
                band.read(
                    frame,
                    fine_inputs,
                    &self.profile,
                    &self.models,
                    &self.view,
                    balance,
                )
            })
            .transpose();
        (reading, ms(t))
    }

    /// The top colours of the pieces in play placed by their tops ([`Model::seen_by_top`]).
    fn top_colours(&self) -> ColourSet {
        ColourSet(
            self.models
                .iter()
                .filter(|m| m.seen_by_top && m.in_play)
                .fold(0, |bits, m| bits | m.secondary.0),
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
            top_colours: self.top_colours(),
            faint_pieces: self
                .models
                .iter()
                .any(|m| m.in_play && (m.paler_table || m.table_like || m.table_hue)),
            rims: self.rims(),
            rim_colours: ColourSet(
                self.models
                    .iter()
                    .filter(|m| m.in_play && m.shaded_like_table)
                    .fold(0, |bits, m| bits | m.primary.0),
            ),
        }
    }

    /// Whether rims of shadow round table are boxes ([`crate::vision::rims`]): some piece in play
    /// passes for the table when as dim as it.
    fn rims(&self) -> bool {
        self.models.iter().any(|m| m.in_play && m.shaded_like_table)
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

impl Analyzer {
    /// Ships fitted again once all the pieces around them are found, in turn, each with the
    /// others' latest poses (the rulings are measured from the ships): a ship with its anchor
    /// ([`Detector::repose_pair`]) when either fits poorly ([`SETTLED_PAIR_HULL_QUALITY`],
    /// [`SETTLED_ANCHOR_QUALITY`]); a ship whose anchor is in play and found nowhere, freed from
    /// it ([`Detector::free_partner`]: it may have held all of it while its loads counted for
    /// it); then a ship alone ([`repose`]) below [`SETTLED_HULL_QUALITY`], and the pirate ship
    /// always.
    fn settle_ships(&self, found: &mut Vec<Found>, regions: &[region::Region]) {
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
            let Some(hl) = ids.iter().position(|&o| o == h) else {
                continue;
            };
            let Some(a) = ids.iter().position(|&o| {
                let m = &self.models[found[o].detection.model];
                m.kind == PieceKind::Anchor && m.color == colour
            }) else {
                // Its anchor found nowhere: the ship may hold all of it.
                let Some(mi) = self.missing_anchor(found, colour) else {
                    continue;
                };
                let local: Vec<Detection> = ids.iter().map(|&o| found[o].detection.clone()).collect();
                if let Some((ship, anchor)) =
                    detector.free_partner(region, &self.models, &self.view, &local, hl, mi)
                {
                    found[h].detection.fit = ship;
                    found.push(Found {
                        detection: Detection {
                            model: mi,
                            fit: anchor,
                            top: None,
                            runner_up: None,
                            on_shadows: false,
                            also_explains: ColourSet(0),
                        },
                        region: ri,
                    });
                }
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

    /// The model of the anchor of `colour` when it is in play and no piece found is one.
    fn missing_anchor(&self, found: &[Found], colour: Option<PlayerColor>) -> Option<usize> {
        let mi = self
            .models
            .iter()
            .position(|m| m.kind == PieceKind::Anchor && m.color == colour)?;
        let excluded = self.excluded.get(mi).copied().unwrap_or(true);
        (!excluded && !found.iter().any(|f| f.detection.model == mi)).then_some(mi)
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
pub fn lighting_changed(balance: &Balance) -> bool {
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
    pub fn balance_of(&self, frame: &Mat) -> Result<Balance, VisionError> {
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

    use crate::vision::evaluate::{score_frame, truth_report};
    use crate::vision::synthetic::{SyntheticScene, prepare};

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
    fn a_piece_is_dark_by_the_colours_it_shows_its_taught_ones_when_taught() {
        use crate::table::catalog::Srgb;
        use crate::vision::taught::TaughtPiece;
        let (sc, an) = scene(3, 22.0, |_| Faults::none(), 1);
        let dark_of = |an: &Analyzer, name: &str| an.models().iter().find(|m| m.name == name).unwrap().dark;
        assert!(dark_of(&an, "ink_die") && dark_of(&an, "octo_canon"));
        assert!(!dark_of(&an, "crab"));
        // A set whose die is a pale grey: taught so, it is no dark piece; its canon still is.
        let mut taught = TaughtModels::default();
        taught.pieces.insert(
            "ink_die".to_string(),
            TaughtPiece {
                colours: vec![ColourModel::of_srgb(Srgb([0xC8, 0xC8, 0xC8]))],
                scale: 1.0,
                area_mm2: 0.0,
                frames: 1,
                taught: String::new(),
            },
        );
        let an = Analyzer::new(&sc.profile, &sc.reference, &Catalog::default_catalog(), &taught).unwrap();
        assert!(!dark_of(&an, "ink_die") && dark_of(&an, "octo_canon"));
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
        // On several threads the counter is read beside the coarse pass: the same reading.
        assert!(one.counter.is_some() && three.times.counter_ms > 0.0);
        assert_eq!(one.counter, three.counter);
        assert_eq!(one.base_mm, three.base_mm);
        assert_eq!(
            (one.obstructed, one.view_moved),
            (three.obstructed, three.view_moved)
        );
        // The frame's time is its wall-clock time; the stages count each thread's.
        assert!(three.times.analysis_ms > 0.0);
        assert!(three.times.total_ms() >= three.times.analysis_ms);
        // ...and splits on the wall clock at the regions, which take time on any number.
        for t in [&one.times, &three.times] {
            let phases = [t.before_regions_ms, t.regions_ms, t.after_regions_ms];
            assert!(phases.iter().all(|&p| p >= 0.0) && t.regions_ms > 0.0, "{t:?}");
            assert!((phases.iter().sum::<f64>() - t.analysis_ms).abs() < 1e-6, "{t:?}");
        }
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
