//! A shadow has a caster on its light side: a shadow-labelled patch with none is a dark piece.
//!
//! Conventions: `labels` is a row-major label image `width` pixels wide, `mm_per_px` millimetres a
//! pixel (a fine region or the coarse view, see [`super::labels`]; both share the table's axes:
//! x along columns, y along rows). A [`ShadowFall`] is the unit vector, in those axes, from a
//! piece to the shadow its key light casts.
//!
//! Why: pixel by pixel a black or dark grey piece (the Octo-Canon, the ink die) on a grey table is
//! as dark and as neutral as a shadow, and a brown chest on warm wood as dark and nearly of its
//! hue, so [`super::labels`] calls them [`Label::Shadow`]. But a cast
//! shadow runs from its caster away from the light: walking from a shadow pixel towards the light
//! one meets only shadow until the caster. From a dark piece's pixels (and from its own shadow)
//! one meets bare table instead. The frame's light direction is read off the frame itself
//! ([`shadow_fall`]): the side of pieces their shadows lie on more often than the other side.

use super::labels::Label;
use super::rims::{Enclosure, grown_box, neighbours4};
use std::collections::HashMap;

/// Directions tried for the fall of shadows (evenly spread over the circle).
const FALL_DIRECTIONS: usize = 24;
/// A shadow pixel counts for a direction when a piece lies within this far the other way (mm).
const FALL_PROBE_MM: f64 = 6.0;
/// The best direction must lead its opposite by this share of the shadow pixels seen; contact
/// shadows ring pieces evenly and count for both (an overhead light gives no direction).
const FALL_MIN_LEAD: f64 = 0.15;
/// Every n-th shadow pixel is enough to read the direction.
const FALL_SAMPLE_STRIDE: usize = 2;
/// Shadow pixels needed before a direction is read.
const FALL_MIN_SHADOW_MM2: f64 = 400.0;
/// Furthest a shadow reaches from its caster (mm): the island's palm, ~40 mm, under a lamp 35
/// degrees up.
const SHADOW_REACH_MM: f64 = 60.0;
/// Longest run of bare table a walk to the caster may cross (mm): a goblet's cup casts its
/// shadow beyond that of its thin stem, which the blurred view shows as table, so the cup's
/// shadow lies a few millimetres off the goblet (seen: 1-6 mm).
const CASTER_GAP_MM: f64 = 4.0;
/// Walks towards the light start turned by these angles (radians): the fall is read in steps,
/// off by up to ~25 degrees where pieces lean in the view, and a lamp is not a point.
const WALK_TURNS_RAD: [f64; 5] = [-0.5, -0.25, 0.0, 0.25, 0.5];
/// Piece patches smaller than this (mm^2) are not casters: a dark piece's own rim, darker than
/// any shadow in its contact shadow, is labelled piece in flecks.
const CASTER_MIN_MM2: f64 = 40.0;
/// Piece patches up to this size (mm^2) with shadow round at least [`SMALL_CASTER_SHADOW_SHARE`]
/// of their border are no casters: a brown chest's lit face, read as a piece, inside its own
/// shaded top and sides.
const SMALL_CASTER_MAX_MM2: f64 = 100.0;
const SMALL_CASTER_SHADOW_SHARE: f64 = 0.75;
/// An unexplained patch is a piece when it has at least this much core (mm^2): pixels with no
/// bare table within [`CORE_RADIUS_MM`] (a square of that half-width). The Octo-Canon (24 mm
/// across) and the ink die (18 mm) have some; contact shadows on a piece's light side,
/// penumbrae and a standing captain's shadow (as wide as the captain, ~12 mm, where the white
/// captain itself reads as table and casts it unseen) have none.
const CASTERLESS_MIN_CORE_MM2: f64 = 20.0;
const CORE_RADIUS_MM: f64 = 6.0;
/// With [`ShadowLengths::Shown`], a caster explains shadow pixels this many times as far from
/// it as its shadow reaches across the fall (see [`SHADOW_LENGTH_QUANTILE`]), plus
/// [`SHADOW_LENGTH_MARGIN_MM`].
/// A caster's shadow is about as long wherever it falls (its height is much the same), so a
/// dark piece standing against it (the Octo-Canon against the pirate ship, where the rules keep
/// it) shows beyond that length, while the far end of a low lamp's long shadow does not.
/// Over the bench's three sets, 2.5 with 3 or 4 mm found the three canons of `--seed 101`'s
/// scene 108 and changed nothing else; 2.2 read a shadow as a second canon, and 3, or 2.5
/// with 6 mm, found two of the three.
const SHADOW_LENGTH_SLACK: f64 = 2.5;
const SHADOW_LENGTH_MARGIN_MM: f64 = 4.0;
/// Which of a caster's band lengths is its shadow's length (see [`shown_reach`]): above the
/// median, as a shorter piece in its shadow cuts some bands short, and below the share of
/// bands a dark piece against it may lengthen.
const SHADOW_LENGTH_QUANTILE: f64 = 0.6;

/// How far a caster explains the shadow pixels behind it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShadowLengths {
    /// Up to [`SHADOW_REACH_MM`], for any caster: the coarse view, and fine regions where no
    /// dark piece may read as a shadow.
    Any,
    /// Up to what its own shadow shows elsewhere ([`SHADOW_LENGTH_SLACK`]): fine regions of a
    /// view where a dark piece looks like a shadow of the table
    /// ([`super::detect::Model::shadow_like`]).
    Shown,
}

/// Which way this frame's shadows fall (see the module's conventions).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShadowFall {
    /// Unit vector from a caster towards its shadow, pixel axes.
    pub dir: [f64; 2],
}

/// Whether `labels` is a whole number of rows `width` wide at a usable scale.
fn is_image(labels: &[Label], width: usize, mm_per_px: f64) -> bool {
    width > 0 && labels.len().is_multiple_of(width) && mm_per_px.is_finite() && mm_per_px > 0.0
}

/// `v.round() as isize` (halves away from zero), without the libm call `round` is on a baseline
/// x86-64: the walks below round a few million points a frame. Exact: below 2^52 the fraction
/// `v - trunc(v)` is computed without rounding, and above it `v` is whole.
fn nearest(v: f64) -> isize {
    let whole = v as isize;
    let frac = v - whole as f64;
    // Saturating, as the conversion of a rounded `v` beyond isize's range is.
    if frac >= 0.5 {
        whole.saturating_add(1)
    } else if frac <= -0.5 {
        whole.saturating_sub(1)
    } else {
        whole
    }
}

fn index(width: usize, height: usize, x: isize, y: isize) -> Option<usize> {
    (x >= 0 && y >= 0 && (x as usize) < width && (y as usize) < height)
        .then(|| y as usize * width + x as usize)
}

/// The direction shadows fall in this label image, or `None` when too few shadows show or they
/// lie all round their pieces alike.
pub fn shadow_fall(labels: &[Label], width: usize, mm_per_px: f64) -> Option<ShadowFall> {
    if !is_image(labels, width, mm_per_px) {
        return None;
    }
    let height = labels.len() / width;
    let shadows: Vec<usize> = (0..labels.len())
        .filter(|&p| labels[p] == Label::Shadow)
        .step_by(FALL_SAMPLE_STRIDE)
        .collect();
    let shadow_mm2 = (shadows.len() * FALL_SAMPLE_STRIDE) as f64 * mm_per_px * mm_per_px;
    if shadow_mm2 < FALL_MIN_SHADOW_MM2 {
        return None;
    }
    let steps = (FALL_PROBE_MM / mm_per_px).ceil().max(1.0) as usize;
    let dirs: Vec<[f64; 2]> = (0..FALL_DIRECTIONS)
        .map(|k| {
            let a = k as f64 * std::f64::consts::TAU / FALL_DIRECTIONS as f64;
            [a.cos(), a.sin()]
        })
        .collect();
    // Back from the shadow, against the fall.
    let counts: Vec<usize> = dirs
        .iter()
        .map(|d| {
            let walk = Walk::new([-d[0], -d[1]], steps).on_rows_of(width);
            shadows
                .iter()
                .filter(|&&p| {
                    walk.cells(p, width, height)
                        .any(|q| q.is_some_and(|q| labels[q] == Label::Piece))
                })
                .count()
        })
        .collect();
    let half = FALL_DIRECTIONS / 2;
    let (best, lead) = (0..FALL_DIRECTIONS)
        .map(|k| (k, counts[k] as f64 - counts[(k + half) % FALL_DIRECTIONS] as f64))
        .fold((0, f64::MIN), |a, b| if b.1 > a.1 { b } else { a });
    (lead >= FALL_MIN_LEAD * shadows.len() as f64).then(|| ShadowFall { dir: dirs[best] })
}

/// Turns every shadow-labelled patch no caster explains into [`Label::Piece`]: a shadow pixel is
/// explained when a walk from it towards the light (turned by each of [`WALK_TURNS_RAD`]), over
/// shadow pixels and runs of bare table no longer than [`CASTER_GAP_MM`], and at most
/// [`SHADOW_REACH_MM`], reaches a piece patch of
/// [`CASTER_MIN_MM2`] or more, or leaves the image or the seen table before it meets one (its
/// caster may lie out of sight). With [`ShadowLengths::Shown`] the walk goes on past a caster
/// (a taller one behind may cast the shadow), and a caster explains the pixel only within the
/// length its shadow shows elsewhere. The unexplained pixels are taken in 8-connected patches; a
/// patch with less than [`CASTERLESS_MIN_CORE_MM2`] of core is left a shadow; bare table enclosed
/// by other labels near a patch counts towards its core as `enclosed` says. Returns the pixels
/// relabelled.
pub fn relabel_casterless_shadows(
    labels: &mut [Label],
    width: usize,
    fall: ShadowFall,
    mm_per_px: f64,
    lengths: ShadowLengths,
    enclosed: EnclosedTable,
) -> Vec<usize> {
    relabel_casterless_shadows_by(labels, width, fall, mm_per_px, lengths, enclosed, Walk::new)
}

/// What bare table enclosed by other labels near a patch (an [`Enclosure`] of the box round it)
/// is to the patch's core.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnclosedTable {
    /// Bare table like any other.
    Bare,
    /// Part of the patch: a box whose lit top passes for the table shows flecks of it through
    /// its shaded look ([`crate::vision::rims`]).
    Patch,
}

/// [`relabel_casterless_shadows`] with its walks made by `walk` (from a direction and a reach):
/// the tests compare [`Walk::new`] with walks rounding every step from the pixel.
fn relabel_casterless_shadows_by(
    labels: &mut [Label],
    width: usize,
    fall: ShadowFall,
    mm_per_px: f64,
    lengths: ShadowLengths,
    enclosed: EnclosedTable,
    walk: impl Fn([f64; 2], usize) -> Walk,
) -> Vec<usize> {
    if !is_image(labels, width, mm_per_px) {
        return Vec::new();
    }
    let boxes = enclosed == EnclosedTable::Patch;
    let walker = Walker::new(labels, width, fall, mm_per_px, boxes, walk);
    let height = walker.height;
    let walks = &walker.walks;
    let reach = walker.reach;
    // Per shadow pixel, where its walks end: the first that meets a caster or leaves the seen
    // table; to measure shadows ([`ShadowLengths::Shown`]), the nearest caster any walk meets,
    // unless one leaves the seen table first.
    let first_end = |p: usize| match lengths {
        ShadowLengths::Any => walker.first_end(p),
        ShadowLengths::Shown => {
            // Each later walk only as far as the nearest caster yet: beyond it, a walk that
            // leaves the seen table is found again below, should the pixel be looked at again.
            let mut nearest = WalkEnd::Nothing;
            for w in walks {
                let steps = match nearest {
                    WalkEnd::Caster(_, k) => k - 1,
                    _ => reach,
                };
                match walker.walk_from(w, p, steps, false, &mut |_, _| {}) {
                    WalkEnd::OutOfSight => return WalkEnd::OutOfSight,
                    end @ WalkEnd::Caster(..) => nearest = end,
                    WalkEnd::Nothing => {}
                }
            }
            nearest
        }
    };
    let unexplained: Vec<bool> = match lengths {
        ShadowLengths::Any => (0..labels.len())
            .map(|p| labels[p] == Label::Shadow && first_end(p) == WalkEnd::Nothing)
            .collect(),
        ShadowLengths::Shown => {
            let ends: Vec<WalkEnd> = (0..labels.len())
                .map(|p| {
                    if labels[p] == Label::Shadow {
                        first_end(p)
                    } else {
                        WalkEnd::Nothing
                    }
                })
                .collect();
            let reach_of = shown_reach(&ends, width, fall, mm_per_px);
            let within =
                |caster: u32, steps: usize| reach_of.get(&caster).is_some_and(|&r| steps as f64 <= r);
            // Beyond its nearest caster's reach, a pixel is looked at again: every walk, past
            // every caster, for one whose shadow reaches it (a taller piece behind a shorter one).
            let explained = |p: usize| match ends[p] {
                WalkEnd::OutOfSight => true,
                WalkEnd::Nothing => false,
                WalkEnd::Caster(caster, steps) if within(caster, steps) => true,
                WalkEnd::Caster(_, _) => walks.iter().any(|w| {
                    let mut reached = false;
                    let end = walker.walk_from(w, p, reach, true, &mut |c, k| reached |= within(c, k));
                    reached || end == WalkEnd::OutOfSight
                }),
            };
            (0..labels.len())
                .map(|p| labels[p] == Label::Shadow && !explained(p))
                .collect()
        }
    };
    let r = (CORE_RADIUS_MM / mm_per_px).round().max(1.0) as isize;
    let min_core = (CASTERLESS_MIN_CORE_MM2 / (mm_per_px * mm_per_px)).ceil() as usize;
    // A patch's core, its enclosed table counting as it or as bare table (`enclosed`).
    let core_of = |patch: &[usize]| {
        let inside = (enclosed == EnclosedTable::Patch).then(|| {
            let (x0, y0, x1, y1) = grown_box(patch, width, r as usize + 1);
            Enclosure::of_box(labels, width, x0, y0, x1, y1)
        });
        let bare =
            |q: usize| labels[q] == Label::Table && inside.as_ref().is_none_or(|e| !e.contains(q, width));
        let core = |p: usize| {
            let (x, y) = ((p % width) as isize, (p / width) as isize);
            (-r..=r)
                .all(|dy| (-r..=r).all(|dx| index(width, height, x + dx, y + dy).is_some_and(|q| !bare(q))))
        };
        patch.iter().filter(|&&p| core(p)).take(min_core).count()
    };
    let changed: Vec<usize> = patches(width, height, |p| unexplained[p])
        .into_iter()
        .filter(|patch| patch.len() >= min_core && core_of(patch) >= min_core)
        .flatten()
        .collect();
    for &p in &changed {
        labels[p] = Label::Piece;
    }
    changed
}

/// For each shadow pixel of `pixels` (others: `false`), whether a walk towards the light meets a
/// caster or leaves the seen table, as [`relabel_casterless_shadows`] walks with
/// [`ShadowLengths::Any`].
pub fn cast_shadows(
    labels: &[Label],
    width: usize,
    fall: ShadowFall,
    mm_per_px: f64,
    pixels: &[usize],
) -> Vec<bool> {
    if !is_image(labels, width, mm_per_px) {
        return vec![false; pixels.len()];
    }
    let walker = Walker::new(labels, width, fall, mm_per_px, true, Walk::new);
    pixels
        .iter()
        .map(|&p| labels.get(p) == Some(&Label::Shadow) && walker.first_end(p) != WalkEnd::Nothing)
        .collect()
}

/// The walks towards the light over one label image, and the casters they may meet.
struct Walker<'a> {
    labels: &'a [Label],
    width: usize,
    height: usize,
    /// Per pixel, its caster's id (see [`large_piece_ids`]).
    casters: Vec<u32>,
    /// One per turn of [`WALK_TURNS_RAD`].
    walks: Vec<Walk>,
    /// Steps of a walk: [`SHADOW_REACH_MM`].
    reach: usize,
    /// Longest run of bare table crossed, pixels: [`CASTER_GAP_MM`].
    gap: usize,
}

impl<'a> Walker<'a> {
    fn new(
        labels: &'a [Label],
        width: usize,
        fall: ShadowFall,
        mm_per_px: f64,
        boxes: bool,
        walk: impl Fn([f64; 2], usize) -> Walk,
    ) -> Self {
        let height = labels.len() / width;
        let casters = large_piece_ids(
            labels,
            width,
            height,
            CASTER_MIN_MM2 / (mm_per_px * mm_per_px),
            if boxes {
                SMALL_CASTER_MAX_MM2 / (mm_per_px * mm_per_px)
            } else {
                0.0
            },
        );
        let reach = (SHADOW_REACH_MM / mm_per_px).ceil() as usize;
        let gap = (CASTER_GAP_MM / mm_per_px).round() as usize;
        let walks = WALK_TURNS_RAD
            .iter()
            .map(|t| {
                let (s, c) = t.sin_cos();
                let [dx, dy] = fall.dir;
                walk([-(dx * c - dy * s), -(dx * s + dy * c)], reach).on_rows_of(width)
            })
            .collect();
        Self {
            labels,
            width,
            height,
            casters,
            walks,
            reach,
            gap,
        }
    }

    /// A walk from shadow pixel `p`: where it ends. With `past`, it goes on past the casters it
    /// meets and `seen` hears of each (its id and the walk's length to it, in steps); without,
    /// it ends at the first.
    fn walk_from(
        &self,
        walk: &Walk,
        p: usize,
        steps: usize,
        past: bool,
        seen: &mut dyn FnMut(u32, usize),
    ) -> WalkEnd {
        let (width, height, labels, casters) = (self.width, self.height, self.labels, &self.casters);
        let mut table_run = 0;
        let mut on = 0u32;
        for (q, k) in walk.cells(p, width, height).zip(1..).take(steps) {
            match q.map(|q| (labels[q], q)) {
                None | Some((Label::Outside, _)) if on == 0 => return WalkEnd::OutOfSight,
                None | Some((Label::Outside, _)) => break,
                Some((Label::Piece, q)) if casters[q] != 0 => {
                    table_run = 0;
                    if casters[q] != on {
                        on = casters[q];
                        seen(on, k);
                        if !past {
                            return WalkEnd::Caster(on, k);
                        }
                    }
                }
                Some((Label::Table, _)) => {
                    table_run += 1;
                    if table_run > self.gap {
                        break;
                    }
                }
                // Small piece flecks are crossed like the shadow they lie in.
                Some((Label::Shadow | Label::Piece, _)) => table_run = 0,
            }
        }
        WalkEnd::Nothing
    }

    /// Where the first of the walks from `p` that meets a caster or leaves the seen table ends
    /// ([`ShadowLengths::Any`]).
    fn first_end(&self, p: usize) -> WalkEnd {
        self.walks
            .iter()
            .map(|w| self.walk_from(w, p, self.reach, false, &mut |_, _| {}))
            .find(|end| *end != WalkEnd::Nothing)
            .unwrap_or(WalkEnd::Nothing)
    }
}

/// Where a walk towards the light from a shadow pixel ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum WalkEnd {
    /// At a caster (its id), this many steps on.
    Caster(u32, usize),
    /// Off the image or the seen table, before any caster: its caster may lie out of sight.
    OutOfSight,
    /// Past its reach, or on too much bare table.
    Nothing,
}

/// Per caster, how far (in walk steps) it explains shadow pixels ([`ShadowLengths::Shown`]):
/// [`SHADOW_LENGTH_SLACK`] times the length of its shadow, plus [`SHADOW_LENGTH_MARGIN_MM`].
/// The length is read across the fall: in each one-pixel band the walk to the caster from its
/// furthest shadow pixel there, and the [`SHADOW_LENGTH_QUANTILE`] of those over the bands. A
/// pixel counts for its nearest caster (the shortest of its walks): a dark piece against the
/// caster lengthens a few of its bands, and a shorter piece standing in its shadow shortens a
/// few.
fn shown_reach(ends: &[WalkEnd], width: usize, fall: ShadowFall, mm_per_px: f64) -> HashMap<u32, f64> {
    let mut furthest: HashMap<(u32, i64), usize> = HashMap::new();
    for (p, end) in ends.iter().enumerate() {
        let WalkEnd::Caster(caster, steps) = *end else {
            continue;
        };
        let (x, y) = ((p % width) as f64, (p / width) as f64);
        let band = (fall.dir[0] * y - fall.dir[1] * x).floor() as i64;
        let f = furthest.entry((caster, band)).or_insert(0);
        *f = (*f).max(steps);
    }
    let mut bands: HashMap<u32, Vec<usize>> = HashMap::new();
    for ((caster, _), steps) in furthest {
        bands.entry(caster).or_default().push(steps);
    }
    let margin = SHADOW_LENGTH_MARGIN_MM / mm_per_px;
    bands
        .into_iter()
        .map(|(caster, mut lengths)| {
            let at = ((lengths.len() as f64 * SHADOW_LENGTH_QUANTILE) as usize).min(lengths.len() - 1);
            let (_, length, _) = lengths.select_nth_unstable(at);
            (caster, SHADOW_LENGTH_SLACK * *length as f64 + margin)
        })
        .collect()
}

/// A walk towards the light: its direction (pixels per step) and, per step `k` (from 1), the
/// whole-pixel offset it lands on from any pixel.
///
/// Rounding `x + k * dir` for a whole `x` gives `x` plus the rounded `k * dir`, unless `k * dir`
/// lies within a rounding error of a half (where the sum's own rounding, or halves going away
/// from zero, can tip it): those steps keep `None` and are rounded from the pixel, as the walk
/// always did. So every step lands on the same pixel, without two roundings per step.
struct Walk {
    dir: [f64; 2],
    steps: Vec<Option<(isize, isize)>>,
    /// The steps as offsets of a pixel's index in an image of known width, when every step
    /// has its offset ([`Walk::on_rows_of`]).
    rows: Option<RowOffsets>,
}

/// A [`Walk`]'s steps as index offsets in an image `width` wide, and the box of `(x, y)`
/// offsets they span: from a pixel whose box lies inside the image, every step lands inside
/// it, at the pixel's index plus the step's offset, with no check per step. (Finding, per
/// pixel, how many first steps stay inside cost more than it saved: most walks end early.)
#[derive(Debug, Clone)]
struct RowOffsets {
    width: usize,
    offsets: Vec<isize>,
    x: (isize, isize),
    y: (isize, isize),
}

/// The pixels a walk lands on from one pixel, step by step: each one's index, `None` off the
/// image.
struct Cells<'w> {
    walk: &'w Walk,
    /// The steps' index offsets, when they all land inside the image from this pixel.
    inside: Option<&'w [isize]>,
    p: usize,
    x: isize,
    y: isize,
    width: usize,
    height: usize,
    /// The next step, from 0.
    k: usize,
}

impl Iterator for Cells<'_> {
    type Item = Option<usize>;

    #[inline]
    fn next(&mut self) -> Option<Option<usize>> {
        let k = self.k;
        if let Some(offsets) = self.inside {
            let off = *offsets.get(k)?;
            self.k += 1;
            return Some(Some(self.p.wrapping_add_signed(off)));
        }
        let step = *self.walk.steps.get(k)?;
        self.k += 1;
        let (qx, qy) = match step {
            Some((ox, oy)) => (self.x + ox, self.y + oy),
            None => {
                let n = (k + 1) as f64;
                (
                    nearest(self.x as f64 + self.walk.dir[0] * n),
                    nearest(self.y as f64 + self.walk.dir[1] * n),
                )
            }
        };
        Some(index(self.width, self.height, qx, qy))
    }
}

/// Offsets this close to a half pixel are rounded from the pixel itself ([`Walk`]): far wider
/// than the rounding of a pixel's coordinate plus an offset (both well below 2^20).
const HALF_PIXEL_SLACK: f64 = 1e-6;

impl Walk {
    fn new(dir: [f64; 2], reach: usize) -> Self {
        let offset = |v: f64| {
            let frac = (v - v.trunc()).abs();
            ((frac - 0.5).abs() > HALF_PIXEL_SLACK).then(|| nearest(v))
        };
        let steps = (1..=reach)
            .map(|k| {
                let (fx, fy) = (dir[0] * k as f64, dir[1] * k as f64);
                offset(fx).zip(offset(fy))
            })
            .collect();
        Self {
            dir,
            steps,
            rows: None,
        }
    }

    /// The walk with its steps as index offsets in images `width` wide (see [`Walk::cells`]):
    /// unchanged when some step is rounded from the pixel.
    fn on_rows_of(mut self, width: usize) -> Self {
        let offsets: Option<Vec<(isize, isize)>> = self.steps.iter().copied().collect();
        self.rows = offsets.map(|steps| {
            let span = |f: fn(&(isize, isize)) -> isize| {
                steps
                    .iter()
                    .map(f)
                    .fold((0, 0), |(lo, hi), v| (lo.min(v), hi.max(v)))
            };
            RowOffsets {
                width,
                offsets: steps.iter().map(|&(ox, oy)| oy * width as isize + ox).collect(),
                x: span(|s| s.0),
                y: span(|s| s.1),
            }
        });
        self
    }

    /// The pixels the walk lands on from pixel `p` of a `width x height` image, step by step
    /// ([`Cells`]): step `k` at the pixel plus its offset, or rounded from the pixel where it
    /// has none.
    fn cells(&self, p: usize, width: usize, height: usize) -> Cells<'_> {
        let (x, y) = ((p % width.max(1)) as isize, (p / width.max(1)) as isize);
        let (w, h) = (width as isize, height as isize);
        let inside = self
            .rows
            .as_ref()
            .filter(|r| {
                r.width == width && x + r.x.0 >= 0 && x + r.x.1 < w && y + r.y.0 >= 0 && y + r.y.1 < h
            })
            .map(|r| r.offsets.as_slice());
        Cells {
            walk: self,
            inside,
            p,
            x,
            y,
            width,
            height,
            k: 0,
        }
    }
}

/// Per pixel: the id (from 1) of the 8-connected piece patch of at least `min_px` pixels it
/// lies in, 0 for none.
fn large_piece_ids(
    labels: &[Label],
    width: usize,
    height: usize,
    min_px: f64,
    enclosed_max_px: f64,
) -> Vec<u32> {
    let mut ids = vec![0u32; labels.len()];
    let mut next = 0u32;
    let in_shadow = |patch: &[usize]| {
        let mut border: Vec<usize> = patch
            .iter()
            .flat_map(|&p| neighbours4(p, width, height))
            .flatten()
            .filter(|&q| labels[q] != Label::Piece)
            .collect();
        border.sort_unstable();
        border.dedup();
        let shadow = border.iter().filter(|&&q| labels[q] == Label::Shadow).count();
        shadow as f64 >= SMALL_CASTER_SHADOW_SHARE * border.len() as f64
    };
    for patch in patches(width, height, |p| labels[p] == Label::Piece) {
        if patch.len() as f64 >= min_px && !(patch.len() as f64 <= enclosed_max_px && in_shadow(&patch)) {
            next += 1;
            for p in patch {
                ids[p] = next;
            }
        }
    }
    ids
}

/// The 8-connected patches of the pixels of a `width x height` image that are `member`.
pub(crate) fn patches(width: usize, height: usize, member: impl Fn(usize) -> bool) -> Vec<Vec<usize>> {
    patches_joined(width, height, Joined::Eight, member)
}

/// Which neighbours join a pixel to its patch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Joined {
    /// Left, right, above, below.
    Four,
    /// And the diagonals.
    Eight,
}

/// The patches of the pixels of a `width x height` image that are `member`, pixels joined as
/// `joined` says. Each patch starts with its first pixel in row order.
pub(crate) fn patches_joined(
    width: usize,
    height: usize,
    joined: Joined,
    member: impl Fn(usize) -> bool,
) -> Vec<Vec<usize>> {
    let mut seen = vec![false; width * height];
    let mut out = Vec::new();
    let mut stack = Vec::new();
    for start in 0..width * height {
        if seen[start] || !member(start) {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        let mut patch = Vec::new();
        while let Some(p) = stack.pop() {
            patch.push(p);
            let (x, y) = ((p % width) as isize, (p / width) as isize);
            for dy in -1..=1 {
                for dx in -1..=1 {
                    if joined == Joined::Four && dx != 0 && dy != 0 {
                        continue;
                    }
                    if let Some(q) = index(width, height, x + dx, y + dy)
                        && !seen[q]
                        && member(q)
                    {
                        seen[q] = true;
                        stack.push(q);
                    }
                }
            }
        }
        out.push(patch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rounds_as_round_does() {
        let mut v: Vec<f64> = vec![
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.5,
            -1.5,
            2.5,
            -2.5,
            0.49999999999999994,
            -0.49999999999999994,
            4503599627370495.5,
            4503599627370497.0,
            -4503599627370495.5,
            1e300,
            -1e300,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            v.push(((x >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 4000.0);
            v.push(((x >> 11) % 4000) as f64 / 2.0 - 1000.0);
        }
        for t in v {
            assert_eq!(nearest(t), t.round() as isize, "{t}");
        }
    }

    impl Walk {
        /// The walk as first written: both coordinates of every step rounded from the pixel.
        fn rounded_every_step(dir: [f64; 2], reach: usize) -> Self {
            Self {
                dir,
                steps: vec![None; reach],
                rows: None,
            }
        }
    }

    /// Random label images (discs of piece with their shadows, loose dark discs, flecks) lit
    /// from every direction the fall is read in and from random ones, at two scales, with
    /// either [`ShadowLengths`]: `Shown` measures each caster's shadow by the same walks.
    /// Numbers in `[0, 1)` from an xorshift generator started at `seed` (not 0).
    fn uniform(seed: u64) -> impl FnMut() -> f64 {
        let mut x = seed;
        move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    #[test]
    fn casterless_shadows_are_relabelled_as_when_every_step_was_rounded_from_its_pixel() {
        let mut next = uniform(0x9e37_79b9_7f4a_7c15);
        let mut relabelled = [0; 2];
        for case in 0..96 {
            let (w, h) = (60 + (next() * 80.0) as usize, 50 + (next() * 70.0) as usize);
            let mut labels = vec![Label::Table; w * h];
            // Half the cases lit from one of the directions the fall is read in (their sines and
            // cosines put steps on halves), half from anywhere.
            let a = if case % 2 == 0 {
                (case / 2 % FALL_DIRECTIONS) as f64 * std::f64::consts::TAU / FALL_DIRECTIONS as f64
            } else {
                next() * std::f64::consts::TAU
            };
            let fall = ShadowFall {
                dir: [a.cos(), a.sin()],
            };
            for _ in 0..(2 + (next() * 6.0) as usize) {
                let dark = next() < 0.4;
                let (cx, cy) = (next() * w as f64, next() * h as f64);
                let r = if dark {
                    5.0 + next() * 17.0
                } else {
                    2.0 + next() * 12.0
                };
                let cast = next() * 15.0;
                for y in 0..h {
                    for xx in 0..w {
                        let (fx, fy) = (xx as f64, y as f64);
                        let p = y * w + xx;
                        if (fx - cx).hypot(fy - cy) <= r {
                            labels[p] = if dark { Label::Shadow } else { Label::Piece };
                        } else if !dark
                            && labels[p] == Label::Table
                            && (fx - cx - fall.dir[0] * cast).hypot(fy - cy - fall.dir[1] * cast) <= r
                        {
                            labels[p] = Label::Shadow;
                        }
                    }
                }
            }
            for _ in 0..(w * h / 50) {
                let p = (next() * (w * h) as f64) as usize % (w * h);
                labels[p] =
                    [Label::Shadow, Label::Piece, Label::Table, Label::Outside][(next() * 4.0) as usize % 4];
            }
            let mm_per_px = if case % 3 == 0 { 0.5 } else { 1.0 };
            for (k, lengths) in [ShadowLengths::Any, ShadowLengths::Shown].into_iter().enumerate() {
                let (mut fast, mut plain) = (labels.clone(), labels.clone());
                let got =
                    relabel_casterless_shadows(&mut fast, w, fall, mm_per_px, lengths, EnclosedTable::Bare);
                let want = relabel_casterless_shadows_by(
                    &mut plain,
                    w,
                    fall,
                    mm_per_px,
                    lengths,
                    EnclosedTable::Bare,
                    Walk::rounded_every_step,
                );
                assert_eq!(got, want, "case {case} {lengths:?}");
                assert_eq!(fast, plain, "case {case} {lengths:?}");
                relabelled[k] += want.len();
            }
        }
        // Both ways do relabel dark pieces, or the comparison would prove little.
        assert!(relabelled.iter().all(|&n| n > 1000), "{relabelled:?}");
    }

    /// Every walk's cells from every pixel of small images, with index offsets where they apply,
    /// as rounded from the pixel at every step and checked against the image's edges.
    #[test]
    fn a_walks_cells_are_its_steps_rounded_from_the_pixel_inside_the_image_and_across_its_edges() {
        let mut next = uniform(0x2545_f491_4f6c_dd1d);
        let (mut fast, mut all) = (0, 0);
        for case in 0..200 {
            // Every fall direction (steps on halves), then random ones.
            let a = if case < FALL_DIRECTIONS {
                case as f64 * std::f64::consts::TAU / FALL_DIRECTIONS as f64
            } else {
                next() * std::f64::consts::TAU
            };
            let dir = [a.cos() * (0.5 + next()), a.sin() * (0.5 + next())];
            let reach = 1 + (next() * 12.0) as usize;
            let (w, h) = (1 + (next() * 30.0) as usize, 1 + (next() * 30.0) as usize);
            let walk = Walk::new(dir, reach).on_rows_of(w);
            let plain = Walk::rounded_every_step(dir, reach);
            for p in 0..w * h {
                let cells = walk.cells(p, w, h);
                fast += usize::from(cells.inside.is_some());
                all += 1;
                let got: Vec<Option<usize>> = cells.collect();
                let want: Vec<Option<usize>> = plain.cells(p, w, h).collect();
                assert_eq!(
                    got, want,
                    "case {case} dir {dir:?} reach {reach} {w}x{h} pixel {p}"
                );
            }
        }
        // Both ways are taken often, or the comparison would prove little.
        assert!(fast > all / 4 && fast < all * 3 / 4, "{fast} of {all}");
    }

    #[test]
    fn a_walk_rounds_from_the_pixel_only_the_steps_that_land_near_a_half() {
        let walk = Walk::new([0.5, -0.2], 4);
        // 0.5 and 1.5 across are halves: rounded from the pixel; 1.0 and 2.0 are whole.
        assert_eq!(walk.steps, vec![None, Some((1, 0)), None, Some((2, -1))]);
        let walk = Walk::new([0.3, 0.7], 3);
        assert_eq!(walk.steps, vec![Some((0, 1)), Some((1, 1)), Some((1, 2))]);
    }

    /// A `w x h` table (1 mm/px) with `shadow` and `piece` pixels.
    fn image(
        w: usize,
        h: usize,
        shadow: impl Fn(usize, usize) -> bool,
        piece: impl Fn(usize, usize) -> bool,
    ) -> Vec<Label> {
        (0..w * h)
            .map(|p| {
                let (x, y) = (p % w, p / w);
                if piece(x, y) {
                    Label::Piece
                } else if shadow(x, y) {
                    Label::Shadow
                } else {
                    Label::Table
                }
            })
            .collect()
    }

    fn disc(cx: f64, cy: f64, r: f64) -> impl Fn(usize, usize) -> bool {
        move |x, y| (x as f64 - cx).hypot(y as f64 - cy) <= r
    }

    /// Blocks with their shadows cast towards +x (light towards -x), plus a thin contact shadow
    /// all round each.
    fn lit_blocks(w: usize, h: usize) -> Vec<Label> {
        let blocks = [
            (10usize, 10usize, 30usize, 20usize),
            (10, 50, 20, 15),
            (70, 40, 25, 25),
        ];
        image(
            w,
            h,
            move |x, y| {
                blocks.iter().any(|&(x0, y0, bw, bh)| {
                    let cast = (x0 + bw..x0 + bw + 14).contains(&x) && (y0 + 2..y0 + bh + 2).contains(&y);
                    let ring = (x0.saturating_sub(1)..x0 + bw + 1).contains(&x)
                        && (y0.saturating_sub(1)..y0 + bh + 1).contains(&y);
                    cast || ring
                })
            },
            move |x, y| {
                blocks
                    .iter()
                    .any(|&(x0, y0, bw, bh)| (x0..x0 + bw).contains(&x) && (y0..y0 + bh).contains(&y))
            },
        )
    }

    #[test]
    fn the_fall_of_shadows_is_read_from_the_side_they_lie_on() {
        let (w, h) = (120, 90);
        let fall = shadow_fall(&lit_blocks(w, h), w, 1.0).unwrap();
        assert!(fall.dir[0] > 0.95, "{:?}", fall.dir);
        // Contact shadows alone, all round: no direction.
        let ringed = image(w, h, disc(50.0, 45.0, 16.0), disc(50.0, 45.0, 12.0));
        assert_eq!(shadow_fall(&ringed, w, 1.0), None);
    }

    #[test]
    fn a_dark_disc_without_a_caster_is_a_piece_and_cast_shadows_stay() {
        let (w, h) = (160, 90);
        let mut labels = lit_blocks(w, h);
        // A dark disc (labelled shadow) with its own shadow towards +x and a fleck of piece on
        // its rim, on the light side.
        let dark = disc(130.0, 25.0, 12.0);
        let own = disc(134.0, 25.0, 12.0);
        for (p, l) in labels.iter_mut().enumerate() {
            let (x, y) = (p % w, p / w);
            if dark(x, y) || own(x, y) {
                *l = Label::Shadow;
            }
        }
        labels[25 * w + 119] = Label::Piece;
        let cast_before = labels.iter().filter(|&&l| l == Label::Shadow).count();
        let fall = ShadowFall { dir: [1.0, 0.0] };
        let changed =
            relabel_casterless_shadows(&mut labels, w, fall, 1.0, ShadowLengths::Any, EnclosedTable::Bare);
        assert!(changed.iter().all(|&p| p % w >= 117), "only the disc changes");
        assert!(dark(130, 25) && labels[25 * w + 130] == Label::Piece);
        assert!(changed.len() >= 440, "{}", changed.len());
        let left = labels.iter().filter(|&&l| l == Label::Shadow).count();
        assert_eq!(left, cast_before - changed.len());
        // The blocks' cast shadows are all still shadows.
        assert_eq!(labels[20 * w + 45], Label::Shadow);
        assert_eq!(labels[60 * w + 100], Label::Shadow);
    }

    /// A tall block whose shadow falls 5 px towards +x along its whole side, and a dark disc
    /// (24 px across, read as shadow whole, its own shadow 4 px further) standing against that
    /// side: the Octo-Canon against the pirate ship on a grey table.
    fn disc_against_a_short_shadow(w: usize, h: usize) -> (Vec<Label>, impl Fn(usize, usize) -> bool) {
        let block = |x: usize, y: usize| (20..50).contains(&x) && (10..90).contains(&y);
        let band = |x: usize, y: usize| (50..55).contains(&x) && (10..90).contains(&y);
        let dark = disc(62.0, 50.0, 12.0);
        let own = disc(66.0, 50.0, 12.0);
        let labels = image(w, h, |x, y| band(x, y) || dark(x, y) || own(x, y), block);
        (labels, move |x, y| dark(x, y) || own(x, y))
    }

    #[test]
    fn a_dark_disc_against_a_caster_is_a_piece_where_the_casters_shadow_does_not_reach() {
        let (w, h) = (110, 100);
        let fall = ShadowFall { dir: [1.0, 0.0] };
        let (mut any, in_disc) = disc_against_a_short_shadow(w, h);
        assert!(
            relabel_casterless_shadows(&mut any, w, fall, 1.0, ShadowLengths::Any, EnclosedTable::Bare)
                .is_empty(),
            "any caster explains its shadow to 60 mm"
        );
        let (mut shown, _) = disc_against_a_short_shadow(w, h);
        let changed = relabel_casterless_shadows(
            &mut shown,
            w,
            fall,
            1.0,
            ShadowLengths::Shown,
            EnclosedTable::Bare,
        );
        // The block's shadow is 5 steps long (to its last column, 49): 2.5 times that and 4 mm
        // more reach 16.5 steps.
        assert!(
            changed.iter().all(|&p| in_disc(p % w, p / w)),
            "only the disc changes"
        );
        assert!(changed.iter().all(|&p| p % w >= 49 + 17), "beyond the reach only");
        assert!(changed.len() >= 150, "{}", changed.len());
        for y in 10..90 {
            assert!((50..55).all(|x| shown[y * w + x] == Label::Shadow), "row {y}");
        }
    }

    #[test]
    fn a_long_shadow_is_its_casters_to_its_far_end() {
        // A low lamp: the block's shadow reaches 30 px along its whole side, and a dark disc
        // stands in it.
        let (w, h) = (110, 100);
        let block = |x: usize, y: usize| (20..50).contains(&x) && (10..90).contains(&y);
        let band = |x: usize, y: usize| (50..80).contains(&x) && (12..92).contains(&y);
        let mut labels = image(w, h, band, block);
        let fall = ShadowFall { dir: [1.0, 0.0] };
        assert!(
            relabel_casterless_shadows(
                &mut labels,
                w,
                fall,
                1.0,
                ShadowLengths::Shown,
                EnclosedTable::Bare
            )
            .is_empty()
        );
    }

    #[test]
    fn a_shorter_piece_standing_in_a_long_shadow_leaves_it_a_shadow() {
        // A tall block casts 40 px of shadow. A short block stands half in it: where it stands
        // free it casts 3 px. The long shadow on either side of it and behind it stays a
        // shadow.
        let (w, h) = (110, 110);
        let tall = |x: usize, y: usize| (10..40).contains(&x) && (10..60).contains(&y);
        let short = |x: usize, y: usize| (44..52).contains(&x) && (35..105).contains(&y);
        let cast = |x: usize, y: usize| {
            ((40..80).contains(&x) && (10..60).contains(&y))
                || ((52..55).contains(&x) && (60..105).contains(&y))
        };
        let mut labels = image(w, h, cast, |x, y| tall(x, y) || short(x, y));
        let fall = ShadowFall { dir: [1.0, 0.0] };
        let changed = relabel_casterless_shadows(
            &mut labels,
            w,
            fall,
            1.0,
            ShadowLengths::Shown,
            EnclosedTable::Bare,
        );
        assert!(
            changed.is_empty(),
            "{:?}",
            changed.iter().map(|p| (p % w, p / w)).collect::<Vec<_>>()
        );
    }

    #[test]
    fn a_small_or_thin_patch_stays_a_shadow() {
        let (w, h) = (60, 60);
        let fall = ShadowFall { dir: [1.0, 0.0] };
        let mut small = image(w, h, disc(30.0, 30.0, 3.5), |_, _| false);
        assert!(
            relabel_casterless_shadows(&mut small, w, fall, 1.0, ShadowLengths::Any, EnclosedTable::Bare)
                .is_empty()
        );
        let mut thin = image(
            w,
            h,
            |x, y| (10..50).contains(&x) && (29..31).contains(&y),
            |_, _| false,
        );
        assert!(
            relabel_casterless_shadows(&mut thin, w, fall, 1.0, ShadowLengths::Any, EnclosedTable::Bare)
                .is_empty()
        );
    }

    #[test]
    fn a_shadow_a_stems_width_off_its_caster_stays_a_shadow_and_one_further_off_does_not() {
        let (w, h) = (110, 60);
        let fall = ShadowFall { dir: [1.0, 0.0] };
        // A goblet's cup (a piece block, as seen from above) and the cup's shadow beyond its
        // stem's, which reads as table: `gap` pixels of table between the two.
        let cup_shadow_off = |gap: usize| {
            let cup = |x: usize, y: usize| (8..34).contains(&x) && (18..43).contains(&y);
            let shadow = move |x: usize, y: usize| (34 + gap..64 + gap).contains(&x) && (18..43).contains(&y);
            let mut labels = image(w, h, shadow, cup);
            relabel_casterless_shadows(&mut labels, w, fall, 1.0, ShadowLengths::Any, EnclosedTable::Bare)
                .len()
        };
        assert_eq!(cup_shadow_off(0), 0);
        assert_eq!(cup_shadow_off(3), 0);
        assert_eq!(cup_shadow_off(12), 30 * 25);
    }

    #[test]
    fn a_boxs_lit_face_inside_its_shaded_top_casts_nothing_where_boxes_may_pass_for_table() {
        // A 22 x 16 mm box reading as shadow, light from -x; its face towards the light, lit,
        // reads as a piece 4 x 14 mm just inside its edge, shadow all round it.
        let (w, h) = (60, 50);
        let fall = ShadowFall { dir: [1.0, 0.0] };
        let in_box = |x: usize, y: usize| (15..37).contains(&x) && (15..31).contains(&y);
        let boxed = |face: &dyn Fn(usize, usize) -> bool| image(w, h, in_box, face);
        let face = |x: usize, y: usize| (16..20).contains(&x) && (16..30).contains(&y);
        let relabel = |labels: &mut Vec<Label>, enclosed| {
            relabel_casterless_shadows(labels, w, fall, 1.0, ShadowLengths::Any, enclosed)
        };
        // Where no box may pass for the table, the face casts the shadow behind it.
        let mut bare = boxed(&face);
        assert!(relabel(&mut bare, EnclosedTable::Bare).len() < 30);
        // Where one may, the face is the box's own: its top is a piece.
        let mut boxes = boxed(&face);
        let changed = relabel(&mut boxes, EnclosedTable::Patch);
        assert!(changed.contains(&(22 * w + 30)), "{changed:?}");
        // A piece that large (12 x 14 mm), or one of that size with table on its light side,
        // casts the shadow behind it.
        let large = |x: usize, y: usize| (16..28).contains(&x) && (16..30).contains(&y);
        assert!(!relabel(&mut boxed(&large), EnclosedTable::Patch).contains(&(22 * w + 30)));
        let outside = |x: usize, y: usize| (12..16).contains(&x) && (16..30).contains(&y);
        assert!(!relabel(&mut boxed(&outside), EnclosedTable::Patch).contains(&(22 * w + 30)));
    }

    #[test]
    fn flecks_of_table_a_shadow_encloses_count_for_its_core_only_where_boxes_may_pass_for_table() {
        // A box whose top passes for the table, 22 x 16 mm, no caster near: its top reads
        // shadow with flecks of table every 5 mm (no 13 x 13 square free of them).
        let (w, h) = (60, 50);
        let fall = ShadowFall { dir: [1.0, 0.0] };
        let boxed = || {
            let mut labels = image(
                w,
                h,
                |x, y| (15..37).contains(&x) && (15..31).contains(&y),
                |_, _| false,
            );
            for y in (17..30).step_by(5) {
                for x in (17..36).step_by(5) {
                    labels[y * w + x] = Label::Table;
                }
            }
            labels
        };
        let mut bare = boxed();
        let flecks = (0..w * h)
            .filter(|&p| {
                (15..37).contains(&(p % w)) && (15..31).contains(&(p / w)) && bare[p] == Label::Table
            })
            .count();
        assert_eq!(flecks, 12);
        assert!(
            relabel_casterless_shadows(&mut bare, w, fall, 1.0, ShadowLengths::Any, EnclosedTable::Bare)
                .is_empty()
        );
        let mut patch = boxed();
        let changed =
            relabel_casterless_shadows(&mut patch, w, fall, 1.0, ShadowLengths::Any, EnclosedTable::Patch);
        assert_eq!(changed.len(), 22 * 16 - flecks);
        // Table the shadow does not enclose is bare either way: a notch open to the table.
        let mut notched = boxed();
        for y in 15..31 {
            for x in 24..27 {
                notched[y * w + x] = Label::Table;
            }
        }
        assert!(
            relabel_casterless_shadows(
                &mut notched,
                w,
                fall,
                1.0,
                ShadowLengths::Any,
                EnclosedTable::Patch
            )
            .is_empty()
        );
    }
}
