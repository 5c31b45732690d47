//! From a frame to the regions worth a close look.
//!
//! The coarse pass labels the whole coarse view (`labels.rs`), keeps what changed in colour or
//! beyond any shadow's depth ([`Label::Piece`]), and turns each connected change into a
//! rectangle of the fine view, grown by how far a piece's base can lie from the part of it that
//! stands out (a captain's white body may not, its navy hat always does). Changes are looked at
//! together when one's rectangle holds some of the other's pixels ([`RegionPlan`]): a piece
//! fitted there must see its neighbour's pixels. Changes whose rectangles merely overlap are
//! looked at apart, each blind to the other's changed pixels (a ring of tentacles round the
//! head would otherwise make one region of most of the ocean, whose pieces are fitted one after
//! the other). Each plan is then rectified finely and labelled pixel by pixel, with the colour
//! models each piece pixel matches: a [`Region`].
//!
//! Conventions: fine pixel coordinates as `rectify.rs`; a region's pixel `(i, j)` is fine
//! pixel `(rect.x + i, rect.y + j)` and shows table point `origin_mm + (i, j) * mm_per_px`.

use super::VisionError;
use super::caster::{EnclosedTable, ShadowLengths, patches, relabel_casterless_shadows, shadow_fall};
use super::colour::{ColourSet, Palette, PixelColours};
use super::faint::{faint_candidate, faint_change, relabel_faint_patches};
use super::labels::{Balance, Label, PreparedReference, relabel_warm_patches, shadow_warmth};
use super::parallel::{WorkerLost, run_tasks};
use super::rectify::{COARSE_STEP, Rectification};
use super::rims::relabel_rims;
use super::scale::count_px;
use super::view::Viewpoint;
use crate::calibrate::rectify::RectifyGrid;
use crate::table::{PointMm, PointPx};
use opencv::core::{self, Mat, Point, Rect, Size, Vec3b};
use opencv::imgproc;
use opencv::prelude::*;
use std::sync::Arc;

/// Coarse changes smaller than this (mm²) are noise.
pub const MIN_COARSE_AREA_MM2: f64 = 12.0;
/// Fine margin around every change, mm.
pub const REGION_MARGIN_MM: f64 = 8.0;
/// A piece may show only its top: the region reaches this far up towards the nadir, as the
/// lean of a point this high (the captain's hat).
pub const REACH_HEIGHT_MM: f64 = 32.0;
/// Least size (mm²) of a patch of shadow pixels of a top's colour that is a piece's top (see
/// [`relabel_top_patches`]): a captain's hat shows 20-30 mm² of such pixels on a pale grey table.
const TOP_PATCH_MIN_MM2: f64 = 12.0;
/// Blur applied to both views before labelling (noise), Gaussian kernel side in pixels.
const BLUR_KSIZE: i32 = 3;
/// The coarse view is labelled in bands of at least this many rows (fewer would cost more in
/// starting threads than they save).
pub(crate) const MIN_BAND_ROWS: i32 = 32;
/// On several threads, the coarse view is cut into this many bands per thread, taken as threads
/// come free: rows cost unevenly (unseen rows are cheap, rows of pieces dear), and one band per
/// thread left one thread waiting on the other.
const BANDS_PER_THREAD: usize = 4;

/// A rectangle of the fine view, labelled.
#[derive(Debug, Clone)]
pub struct Region {
    pub rect: Rect,
    pub width: usize,
    pub height: usize,
    pub origin_mm: PointMm,
    pub mm_per_px: f64,
    pub labels: Vec<Label>,
    pub colours: Vec<PixelColours>,
    /// The balanced frame, `[b, g, r]`.
    pub bgr: Vec<[f32; 3]>,
    /// The reference's `b + g + r` (the table's brightness there).
    pub ref_sum: Vec<f32>,
    /// The calibration board's white paper, when known: how light a pixel is.
    pub white: Option<WhitePaper>,
    /// What reads the colour of a pixel the labelling left unread (see [`Region::read_colours`]).
    pub reader: Option<ColourReader>,
}

/// The palette and white paper's gains a region's pixels were read with, kept to read more of
/// them when detection asks.
#[derive(Debug, Clone)]
pub struct ColourReader {
    pub palette: Arc<Palette>,
    pub white: [f32; 3],
}

/// What white paper shows in the calibration's light.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WhitePaper {
    /// Per-channel gains `[b, g, r]` that make it neutral ([`FineInputs::white`]).
    pub gains: [f32; 3],
    /// Its `b + g + r` once so balanced ([`super::colour::Palette::white_sum`]).
    pub sum: f32,
}

impl Region {
    pub fn px_to_mm(&self, i: f64, j: f64) -> PointMm {
        PointMm::new(
            self.origin_mm.x + i * self.mm_per_px,
            self.origin_mm.y + j * self.mm_per_px,
        )
    }

    pub fn mm_to_px(&self, p: PointMm) -> (f64, f64) {
        (
            (p.x - self.origin_mm.x) / self.mm_per_px,
            (p.y - self.origin_mm.y) / self.mm_per_px,
        )
    }

    /// Pixel `p`'s lightness: its white-balanced `b + g + r` over white paper's, when known
    /// (as [`super::colour::Palette::classify`] reads it).
    pub fn lightness(&self, p: usize) -> Option<f32> {
        let w = self.white?;
        let c = self.bgr.get(p)?;
        Some((c[0] * w.gains[0] + c[1] * w.gains[1] + c[2] * w.gains[2]) / w.sum)
    }

    /// Pixel `p`'s colours, read now where the labelling left them unread (bare table, and
    /// shadows unless some piece looks like one): on a ship's deck, no table lies under a pixel,
    /// and one that reads as the table's or its shadow may show a load. Default (no colour) when
    /// the region has no [`ColourReader`] or `p` lies outside it.
    pub fn read_colours(&self, p: usize) -> PixelColours {
        match (self.labels.get(p), &self.reader) {
            (Some(Label::Piece), _) | (_, None) => self.colours.get(p).copied().unwrap_or_default(),
            (Some(_), Some(r)) => match (self.bgr.get(p), self.ref_sum.get(p)) {
                (Some(&bgr), Some(&rs)) => palette_reading(&r.palette, r.white, bgr, rs),
                _ => PixelColours::default(),
            },
            (None, _) => PixelColours::default(),
        }
    }

    pub fn len(&self) -> usize {
        self.width * self.height
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The whole coarse view of a frame, labelled.
#[derive(Debug)]
pub struct CoarsePass {
    pub balance: Balance,
    /// `Label as u8` per coarse pixel.
    pub labels: Mat,
    /// The regions to look at (pieces, hands), on the fine grid.
    pub plans: Vec<RegionPlan>,
    /// Per coarse pixel, its connected change's label (0: none); component `k` of `components`
    /// has label `component_labels[k]`.
    pub component_map: Mat,
    pub component_labels: Vec<i32>,
    /// Coarse connected components of changes: bounding box (coarse px) and area (coarse px).
    pub components: Vec<(Rect, i32)>,
    /// Per component (same order): it reaches the edge of what the camera sees (an arm coming
    /// in from outside the view).
    pub at_view_edge: Vec<bool>,
}

/// What the coarse pass needs that depends on the profile only.
#[derive(Debug)]
pub struct CoarseInputs<'a> {
    pub rect: &'a Rectification,
    /// The reference on the coarse grid, blurred like the frame will be.
    pub reference: &'a Mat,
    /// 255 where coarse pixels may be used (seen, not the counter's stretch of string).
    pub usable: &'a Mat,
    /// 255 where the table is used for the white balance (usable, away from the string).
    pub balance_mask: &'a Mat,
    pub view: &'a Viewpoint,
    /// Coarse pixels `(x, y)` at the edge of what the camera sees.
    pub view_edge: &'a [(i32, i32)],
    /// Threads the labelling may use (the labels are the same on any number).
    pub threads: usize,
    /// Rims of shadow round table are boxes ([`relabel_rims`]): some piece in play passes for the
    /// table when as dim as it.
    pub rims: bool,
    /// The pieces placed by their tops, whose tops may read as shadow ([`relabel_top_patches`]).
    pub tops: Option<Tops<'a>>,
}

/// What the coarse pass needs to read a shadow pixel's colour: the palette, the white paper's
/// gains (as [`FineInputs::white`]), and the top colours of the pieces placed by their tops.
#[derive(Debug, Clone, Copy)]
pub struct Tops<'a> {
    pub palette: &'a Palette,
    pub white: [f32; 3],
    pub colours: ColourSet,
}

/// What table enclosed by other labels is to a casterless shadow's core: part of it where rims
/// are boxes ([`CoarseInputs::rims`]).
fn enclosed_table(rims: bool) -> EnclosedTable {
    if rims {
        EnclosedTable::Patch
    } else {
        EnclosedTable::Bare
    }
}

/// Blurs an 8-bit image the way both views are blurred before labelling.
pub fn blur(src: &Mat) -> Result<Mat, VisionError> {
    let mut out = Mat::default();
    imgproc::gaussian_blur(
        src,
        &mut out,
        Size::new(BLUR_KSIZE, BLUR_KSIZE),
        0.0,
        0.0,
        core::BORDER_REPLICATE,
    )?;
    Ok(out)
}

/// Splits `rows` into at most `most` bands `(first, end)` of consecutive rows, in order, none
/// shorter than [`MIN_BAND_ROWS`] unless it is the only one.
fn row_bands(rows: i32, most: usize) -> Vec<(i32, i32)> {
    let rows = rows.max(0);
    let by_rows = (rows / MIN_BAND_ROWS).max(1) as usize;
    let n = most.clamp(1, by_rows) as i32;
    (0..n).map(|k| (rows * k / n, rows * (k + 1) / n)).collect()
}

/// The labels of rows `y0..y1` of the blurred coarse `view`, row by row: each pixel against
/// the reference about it ([`ReferenceRows::label_near`]), unusable pixels outside.
fn label_rows(
    view: &Mat,
    input: &CoarseInputs,
    balance: &Balance,
    y0: i32,
    y1: i32,
) -> Result<Vec<Label>, VisionError> {
    let cols = view.cols();
    let mut labelled = Vec::with_capacity(((y1 - y0) * cols).max(0) as usize);
    let mut near = ReferenceRows::at(input.reference, y0, 0, cols, balance.shadow_tint)?;
    for y in y0..y1 {
        if y > y0 {
            near.down()?;
        }
        let f = view.at_row::<Vec3b>(y)?;
        let u = input.usable.at_row::<u8>(y)?;
        for x in 0..f.len() {
            labelled.push(if u[x] == 0 {
                Label::Outside
            } else {
                near.label_near(balance.apply(f[x]), x as i32)
            });
        }
    }
    Ok(labelled)
}

/// Labels a frame's coarse view (from `Rectification::coarse_view`) and finds the fine
/// rectangles to look at: [`coarse_labels`], then [`coarse_regions`].
pub fn coarse_pass_on(coarse_view: &Mat, input: &CoarseInputs) -> Result<CoarsePass, VisionError> {
    coarse_regions(coarse_labels(coarse_view, input)?, input)
}

/// The first half of the coarse pass: the frame's [`Balance`] (gains, shadow tint, the way
/// shadows fall), final once this returns, and each coarse pixel's label against the
/// reference. What reads the frame with that balance (the counter) need not wait for the
/// second half.
#[derive(Debug, Clone)]
pub struct CoarseLabels {
    pub balance: Balance,
    /// The blurred coarse view.
    view: Mat,
    labelled: Vec<Label>,
}

/// The first half of the coarse pass on a coarse view ([`CoarseLabels`]).
pub fn coarse_labels(coarse_view: &Mat, input: &CoarseInputs) -> Result<CoarseLabels, VisionError> {
    let view = blur(coarse_view)?;
    let mut balance = Balance::estimate(&view, input.reference, input.balance_mask)
        .unwrap_or_default()
        .with_shadow_tint(&view, input.reference, input.balance_mask);
    let rows = view.rows();
    let cols = view.cols();
    // The view is labelled in bands of rows, one task each: the frame's regions wait for it.
    let most = if input.threads > 1 {
        input.threads * BANDS_PER_THREAD
    } else {
        1
    };
    let bands = row_bands(rows, most);
    let order: Vec<usize> = (0..bands.len()).collect();
    let looked = run_tasks(
        bands.len(),
        &order,
        input.threads,
        || (),
        |_, b| {
            let (y0, y1) = bands[b];
            label_rows(&view, input, &balance, y0, y1)
        },
    )?;
    let mut labelled = Vec::with_capacity((rows * cols).max(0) as usize);
    for band in looked {
        labelled.extend(band.ok_or(WorkerLost)??);
    }
    let width = cols.max(0) as usize;
    balance.shadow_fall = shadow_fall(&labelled, width, input.rect.coarse.mm_per_px);
    Ok(CoarseLabels {
        balance,
        view,
        labelled,
    })
}

/// The second half of the coarse pass: shadows no caster explains, changes and the regions to
/// look at. The balance is left as [`coarse_labels`] found it.
pub fn coarse_regions(coarse: CoarseLabels, input: &CoarseInputs) -> Result<CoarsePass, VisionError> {
    let CoarseLabels {
        balance,
        view,
        mut labelled,
    } = coarse;
    let (rows, cols) = (view.rows(), view.cols());
    let width = cols.max(0) as usize;
    if let Some(fall) = balance.shadow_fall.filter(|_| input.rims) {
        relabel_rims(&mut labelled, width, fall, input.rect.coarse.mm_per_px);
    }
    if let Some(fall) = balance.shadow_fall {
        relabel_casterless_shadows(
            &mut labelled,
            width,
            fall,
            input.rect.coarse.mm_per_px,
            ShadowLengths::Any,
            enclosed_table(input.rims),
        );
    }
    if let Some(tops) = input.tops.filter(|t| t.colours.0 != 0) {
        // A hat seen as shadow at the fine scale is one at the coarse scale too: without a
        // change there, no region would look at it.
        let mut colours = vec![PixelColours::default(); labelled.len()];
        for (p, c) in colours.iter_mut().enumerate() {
            if labelled[p] != Label::Shadow {
                continue;
            }
            let (x, y) = ((p % width) as i32, (p / width) as i32);
            let fp = balance.apply(*view.at_2d::<Vec3b>(y, x)?);
            let r = input.reference.at_2d::<Vec3b>(y, x)?;
            let rs = r[0] as f32 + r[1] as f32 + r[2] as f32;
            *c = palette_reading(tops.palette, tops.white, fp, rs);
        }
        let min_px = count_px(TOP_PATCH_MIN_MM2, input.rect.coarse.mm_per_px);
        relabel_top_patches_of(&mut labelled, &colours, width, tops.colours, min_px);
    }
    let mut labels = Mat::new_rows_cols_with_default(rows, cols, core::CV_8UC1, core::Scalar::all(0.0))?;
    let mut change = Mat::new_rows_cols_with_default(rows, cols, core::CV_8UC1, core::Scalar::all(0.0))?;
    for (y, row) in labelled.chunks(width.max(1)).enumerate() {
        let l = labels.at_row_mut::<u8>(y as i32)?;
        for (d, s) in l.iter_mut().zip(row) {
            *d = *s as u8;
        }
        let c = change.at_row_mut::<u8>(y as i32)?;
        for (d, s) in c.iter_mut().zip(row) {
            *d = if *s == Label::Piece { 255 } else { 0 };
        }
    }
    // Close one-pixel gaps so a piece is one component.
    let kernel = imgproc::get_structuring_element(imgproc::MORPH_RECT, Size::new(3, 3), Point::new(-1, -1))?;
    let mut closed = Mat::default();
    imgproc::morphology_ex(
        &change,
        &mut closed,
        imgproc::MORPH_CLOSE,
        &kernel,
        Point::new(-1, -1),
        1,
        core::BORDER_CONSTANT,
        imgproc::morphology_default_border_value()?,
    )?;
    let mut cc_labels = Mat::default();
    let mut stats = Mat::default();
    let mut centroids = Mat::default();
    let n = imgproc::connected_components_with_stats(
        &closed,
        &mut cc_labels,
        &mut stats,
        &mut centroids,
        8,
        core::CV_32S,
    )?;
    let mut edge_ids = vec![false; n.max(0) as usize];
    for &(x, y) in input.view_edge {
        if x >= 0 && y >= 0 && x < cols && y < rows {
            let id = *cc_labels.at_2d::<i32>(y, x)?;
            if let Some(e) = usize::try_from(id).ok().and_then(|i| edge_ids.get_mut(i)) {
                *e = true;
            }
        }
    }
    let mut components = Vec::new();
    let mut ids = Vec::new();
    let mut at_view_edge = Vec::new();
    let min_area_px = count_px(MIN_COARSE_AREA_MM2, input.rect.coarse.mm_per_px);
    for k in 1..n {
        let area = *stats.at_2d::<i32>(k, imgproc::CC_STAT_AREA)?;
        if usize::try_from(area).unwrap_or(0) < min_area_px {
            continue;
        }
        let r = Rect::new(
            *stats.at_2d::<i32>(k, imgproc::CC_STAT_LEFT)?,
            *stats.at_2d::<i32>(k, imgproc::CC_STAT_TOP)?,
            *stats.at_2d::<i32>(k, imgproc::CC_STAT_WIDTH)?,
            *stats.at_2d::<i32>(k, imgproc::CC_STAT_HEIGHT)?,
        );
        components.push((r, area));
        ids.push(k);
        at_view_edge.push(edge_ids.get(k as usize).copied().unwrap_or(false));
    }
    let rects = fine_rects(&components, &input.rect.coarse, &input.rect.fine, input.view);
    let plans = plan_regions(&components, &ids, &rects, &cc_labels)?;
    Ok(CoarsePass {
        balance,
        labels,
        plans,
        component_map: cc_labels,
        component_labels: ids,
        components,
        at_view_edge,
    })
}

/// A reference row and its neighbours above and below (where the image has them), for
/// labelling along a row without a checked pixel access per neighbour. Each reference pixel is
/// prepared for labelling ([`PreparedReference`]) once per pass, as its row comes into reach:
/// moving down ([`ReferenceRows::down`]) keeps the two rows still in reach and prepares the new
/// one whole. Preparing rows whole rather than each pixel when first needed labelled the coarse
/// view 22 % faster and the fine regions 14 % (`speed_probe 8 4`), the same labels.
struct ReferenceRows<'a> {
    reference: &'a Mat,
    tint: Option<[f32; 3]>,
    /// The middle row.
    y: i32,
    /// The first column held (one left of the first labelled).
    x0: i32,
    /// Rows `y - 1`, `y`, `y + 1`.
    rows: [Option<&'a [Vec3b]>; 3],
    /// Per row, its pixels from column `x0`, prepared (`None`: outside the image).
    prepared: [Vec<Option<PreparedReference>>; 3],
}

impl<'a> ReferenceRows<'a> {
    /// Rows about `y`, for labelling columns `x0..x1` against `tint`.
    fn at(reference: &'a Mat, y: i32, x0: i32, x1: i32, tint: Option<[f32; 3]>) -> Result<Self, VisionError> {
        let held = (x1 - x0 + 2).max(0) as usize;
        let mut rows = Self {
            reference,
            tint,
            y,
            x0: x0 - 1,
            rows: [None; 3],
            prepared: [vec![None; held], vec![None; held], vec![None; held]],
        };
        rows.rows = [rows.row(y - 1)?, rows.row(y)?, rows.row(y + 1)?];
        for i in 0..3 {
            rows.prepare(i);
        }
        Ok(rows)
    }

    /// Prepares every pixel held of row `i` (0: above, 1: middle, 2: below).
    fn prepare(&mut self, i: usize) {
        let tint = self.tint;
        let x0 = self.x0;
        let row = self.rows[i];
        for (k, slot) in self.prepared[i].iter_mut().enumerate() {
            *slot = row
                .and_then(|r| r.get(usize::try_from(x0 + k as i32).ok()?))
                .map(|r| PreparedReference::new([r[0] as f32, r[1] as f32, r[2] as f32], tint));
        }
    }

    fn row(&self, yy: i32) -> Result<Option<&'a [Vec3b]>, VisionError> {
        if yy < 0 || yy >= self.reference.rows() {
            return Ok(None);
        }
        Ok(Some(self.reference.at_row::<Vec3b>(yy)?))
    }

    /// Moves one row down.
    fn down(&mut self) -> Result<(), VisionError> {
        self.y += 1;
        self.rows.rotate_left(1);
        self.prepared.rotate_left(1);
        self.rows[2] = self.row(self.y + 1)?;
        self.prepare(2);
        Ok(())
    }

    /// The reference pixel at column `x` of row `y + dy`, prepared; `None` outside the image.
    // Inlined into `label_near`: a call per neighbour would cost more than the lookup.
    #[inline(always)]
    fn prepared(&self, x: i32, dy: i32) -> Option<PreparedReference> {
        *self.prepared[(dy + 1) as usize].get(usize::try_from(x - self.x0).ok()?)?
    }

    /// The label of a balanced frame pixel `f` at column `x` of the middle row: as
    /// [`super::labels::label_tinted`] against the reference pixel there, but a change that a neighbouring
    /// reference pixel explains is no change. A frame never lies exactly on the calibration's
    /// pixels (the camera shakes, refocuses, is scaled): without this, every sharp edge of the
    /// empty table (the string, the beads, the planks) would turn into a thin line of "pieces".
    /// A column outside the image is [`Label::Outside`].
    // Always inlined: left to the compiler, it stopped inlining it into the coarse labeller once
    // an unrelated file changed, and the foreground stage took 6.5 -> 8.4 ms a frame.
    #[inline(always)]
    fn label_near(&self, f: [f32; 3], x: i32) -> Label {
        let Some(here) = self.prepared(x, 0) else {
            return Label::Outside;
        };
        let here = here.label(f);
        if here != Label::Piece {
            return here;
        }
        for (dx, dy) in NEIGHBOURS {
            if let Some(r) = self.prepared(x + dx, dy) {
                let l = r.label(f);
                if l != Label::Piece {
                    return l;
                }
            }
        }
        Label::Piece
    }
}

/// The eight neighbours of a pixel, nearest first.
const NEIGHBOURS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, -1),
    (1, -1),
    (-1, 1),
];

/// The coarse pixels on the edge of what the camera sees: seen pixels next to unseen ones or
/// to the image border (`valid` is 255 where seen).
pub fn view_edge(valid: &Mat) -> Result<Vec<(i32, i32)>, VisionError> {
    let (rows, cols) = (valid.rows(), valid.cols());
    let seen = |x: i32, y: i32| -> Result<bool, VisionError> {
        Ok(x >= 0 && y >= 0 && x < cols && y < rows && *valid.at_2d::<u8>(y, x)? != 0)
    };
    let mut out = Vec::new();
    for y in 0..rows {
        for x in 0..cols {
            if seen(x, y)? && !(seen(x - 1, y)? && seen(x + 1, y)? && seen(x, y - 1)? && seen(x, y + 1)?) {
                out.push((x, y));
            }
        }
    }
    Ok(out)
}

/// Each coarse component as a fine rectangle, grown by the margin and towards the nadir (empty
/// where none of it lies on the fine grid).
fn fine_rects(
    components: &[(Rect, i32)],
    coarse: &RectifyGrid,
    fine: &RectifyGrid,
    view: &Viewpoint,
) -> Vec<Rect> {
    components
        .iter()
        .map(|(r, _)| {
            let lo = coarse.px_to_mm(PointPx::new(r.x as f64 - 0.5, r.y as f64 - 0.5));
            let hi = coarse.px_to_mm(PointPx::new(
                (r.x + r.width) as f64 - 0.5,
                (r.y + r.height) as f64 - 0.5,
            ));
            let centre = (lo + hi) * 0.5;
            // The base of something seen at `centre` as the top of a piece this tall.
            let base = view.below(centre, REACH_HEIGHT_MM);
            let reach = base - centre;
            let m = REGION_MARGIN_MM;
            let x0 = lo.x.min(lo.x + reach.x) - m;
            let y0 = lo.y.min(lo.y + reach.y) - m;
            let x1 = hi.x.max(hi.x + reach.x) + m;
            let y1 = hi.y.max(hi.y + reach.y) + m;
            let a = fine.mm_to_px(PointMm::new(x0, y0));
            let b = fine.mm_to_px(PointMm::new(x1, y1));
            let (xa, ya) = (a.x.floor() as i32, a.y.floor() as i32);
            let (xb, yb) = (b.x.ceil() as i32, b.y.ceil() as i32);
            let w = fine.width as i32;
            let h = fine.height as i32;
            let (xa, ya) = (xa.clamp(0, w), ya.clamp(0, h));
            let (xb, yb) = (xb.clamp(xa, w), yb.clamp(ya, h));
            Rect::new(xa, ya, xb - xa, yb - ya)
        })
        .collect()
}

/// Changes looked at together: the rectangle they are labelled in (the union of their grown
/// rectangles), and which they are (indices into [`CoarsePass::components`]). The rectangle may
/// show changes of other plans too: those are left out ([`CoarsePass::hidden_in`]).
#[derive(Debug, Clone, PartialEq)]
pub struct RegionPlan {
    /// Fine pixels.
    pub rect: Rect,
    pub components: Vec<usize>,
}

/// Groups the coarse components (`ids[k]` is component `k`'s label in `cc_labels`, `rects[k]`
/// its grown fine rectangle) into plans: two components go together when either one's
/// rectangle holds a pixel of the other (transitively). Plans come in the order of their first
/// component.
fn plan_regions(
    components: &[(Rect, i32)],
    ids: &[i32],
    rects: &[Rect],
    cc_labels: &Mat,
) -> Result<Vec<RegionPlan>, VisionError> {
    let n = components.len().min(ids.len()).min(rects.len());
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut k: usize) -> usize {
        while parent[k] != k {
            parent[k] = parent[parent[k]];
            k = parent[k];
        }
        k
    }
    let step = COARSE_STEP;
    for (k, &r) in rects.iter().enumerate().take(n) {
        if r.width <= 0 || r.height <= 0 {
            continue;
        }
        // The coarse pixels whose fine sample (every COARSE_STEP-th fine pixel) lies in `r`.
        let cx0 = (r.x + step - 1).div_euclid(step);
        let cy0 = (r.y + step - 1).div_euclid(step);
        let cx1 = (r.x + r.width - 1).div_euclid(step) + 1;
        let cy1 = (r.y + r.height - 1).div_euclid(step) + 1;
        for j in 0..n {
            if j == k || root(&mut parent, j) == root(&mut parent, k) {
                continue;
            }
            let b = components[j].0;
            let (x0, x1) = (cx0.max(b.x), cx1.min(b.x + b.width));
            let (y0, y1) = (cy0.max(b.y), cy1.min(b.y + b.height));
            if x0 >= x1 || y0 >= y1 {
                continue;
            }
            let mut holds = false;
            'rows: for y in y0..y1 {
                let row = cc_labels.at_row::<i32>(y)?;
                for x in x0..x1 {
                    if row.get(x as usize) == Some(&ids[j]) {
                        holds = true;
                        break 'rows;
                    }
                }
            }
            if holds {
                let (a, b) = (root(&mut parent, j), root(&mut parent, k));
                parent[a] = b;
            }
        }
    }
    let mut plans: Vec<RegionPlan> = Vec::new();
    let mut plan_of_root: Vec<Option<usize>> = vec![None; n];
    for (k, &r) in rects.iter().enumerate().take(n) {
        if r.width <= 0 || r.height <= 0 {
            continue;
        }
        let g = root(&mut parent, k);
        match plan_of_root[g] {
            Some(p) => {
                let plan = &mut plans[p];
                plan.rect = union(&plan.rect, &r);
                plan.components.push(k);
            }
            None => {
                plan_of_root[g] = Some(plans.len());
                plans.push(RegionPlan {
                    rect: r,
                    components: vec![k],
                });
            }
        }
    }
    Ok(plans)
}

fn union(a: &Rect, b: &Rect) -> Rect {
    let x0 = a.x.min(b.x);
    let y0 = a.y.min(b.y);
    let x1 = (a.x + a.width).max(b.x + b.width);
    let y1 = (a.y + a.height).max(b.y + b.height);
    Rect::new(x0, y0, x1 - x0, y1 - y0)
}

/// What the fine labelling needs that depends on the profile only.
#[derive(Debug)]
pub struct FineInputs<'a> {
    pub rect: &'a Rectification,
    /// The reference on the fine grid, blurred.
    pub reference: &'a Mat,
    /// 255 where fine pixels may be used.
    pub usable: &'a Mat,
    pub palette: &'a Arc<Palette>,
    /// Per-channel gains `[b, g, r]` that make white paper under the calibration's light
    /// neutral: applied before a pixel's colour is judged, so a warm or cool light does not
    /// shift every piece's hue towards another's.
    pub white: [f32; 3],
    /// Shadow pixels are given the palette's reading too: some piece looks like a shadow of
    /// this table ([`super::detect::Model::shadow_like`]).
    pub shadow_colours: bool,
    /// Table pixels are read again in patches ([`relabel_faint_patches`]): some piece's colour
    /// may lie within a pixel's noise of this table's (paler, table-like, or of its hue).
    pub faint_pieces: bool,
    /// As [`CoarseInputs::rims`].
    pub rims: bool,
    /// The main colours of the pieces a rim may be ([`super::detect::Model::shaded_like_table`]):
    /// a rim's pixels read as those of these they are nearest, or as all of them. Its lit top
    /// shows the table's colour, which on orange wood is an orange piece's, and an orange
    /// anchor would otherwise take the box.
    pub rim_colours: ColourSet,
    /// The top colours of the pieces placed by their tops ([`super::detect::Model::seen_by_top`]):
    /// shadow pixels are given the palette's reading, and patches of them that read best as
    /// these colours alone are pieces ([`relabel_top_patches`]).
    pub top_colours: ColourSet,
}

impl CoarsePass {
    /// The pixels of `plan`'s rectangle (clipped to the fine grid as `fine_region` clips it)
    /// that show another plan's changes, row by row: the coarse pixels of every other
    /// component, grown by [`HIDDEN_GROW_COARSE_PX`] (a change's fine edge reaches past its
    /// coarse pixels).
    pub fn hidden_in(&self, plan: &RegionPlan, fine_rect: Rect) -> Result<Vec<bool>, VisionError> {
        let (w, h) = (fine_rect.width.max(0), fine_rect.height.max(0));
        let mut hidden = vec![false; (w * h) as usize];
        let g = HIDDEN_GROW_COARSE_PX;
        let step = COARSE_STEP;
        for (k, (b, _)) in self.components.iter().enumerate() {
            if plan.components.contains(&k) {
                continue;
            }
            let Some(&id) = self.component_labels.get(k) else {
                continue;
            };
            // The component's coarse box, in fine pixels, grown: skip it when clear of the rect.
            let fx0 = (b.x - g) * step - step;
            let fy0 = (b.y - g) * step - step;
            let fx1 = (b.x + b.width + g) * step + step;
            let fy1 = (b.y + b.height + g) * step + step;
            if fx1 <= fine_rect.x || fy1 <= fine_rect.y || fx0 >= fine_rect.x + w || fy0 >= fine_rect.y + h {
                continue;
            }
            for cy in b.y..b.y + b.height {
                let row = self.component_map.at_row::<i32>(cy)?;
                for cx in b.x..b.x + b.width {
                    if row.get(cx as usize) != Some(&id) {
                        continue;
                    }
                    // Fine pixels within `g` coarse pixels (and half a step) of this one.
                    let x0 = ((cx - g) * step - step / 2 - fine_rect.x).clamp(0, w);
                    let x1 = ((cx + g) * step + step / 2 + 1 - fine_rect.x).clamp(0, w);
                    let y0 = ((cy - g) * step - step / 2 - fine_rect.y).clamp(0, h);
                    let y1 = ((cy + g) * step + step / 2 + 1 - fine_rect.y).clamp(0, h);
                    for y in y0..y1 {
                        let at = (y * w) as usize;
                        if let Some(cells) = hidden.get_mut(at + x0 as usize..at + x1 as usize) {
                            cells.fill(true);
                        }
                    }
                }
            }
        }
        Ok(hidden)
    }
}

/// Another plan's change is hidden this far (coarse pixels) beyond its own coarse pixels.
pub const HIDDEN_GROW_COARSE_PX: i32 = 1;

/// The palette's reading of a balanced pixel `fp` (reference level sum `rs`), under the white
/// paper's gains `white`.
fn palette_reading(palette: &Palette, white: [f32; 3], fp: [f32; 3], rs: f32) -> PixelColours {
    palette.classify([fp[0] * white[0], fp[1] * white[1], fp[2] * white[2]], rs)
}

/// A piece placed by its top on a pale table (a white captain) may show its dark top (the navy
/// hat) as dark as a shadow: its pixels are labelled shadow, yet read best as the top's colour,
/// where the table's own shadows read as another. Every 8-connected patch of at least
/// [`TOP_PATCH_MIN_MM2`] of shadow pixels that read best as `top_colours` and as nothing else
/// becomes [`Label::Piece`] (a shadow pixel as near another colour, as the hat's own cast shadow
/// is to the purple ship's, is not part of it).
fn relabel_top_patches(
    labels: &mut [Label],
    colours: &[PixelColours],
    width: usize,
    top_colours: ColourSet,
    mm_per_px: f64,
) {
    relabel_top_patches_of(
        labels,
        colours,
        width,
        top_colours,
        count_px(TOP_PATCH_MIN_MM2, mm_per_px),
    );
}

/// [`relabel_top_patches`] with patches of at least `min_px` pixels (the coarse view's are a
/// quarter of the fine view's).
fn relabel_top_patches_of(
    labels: &mut [Label],
    colours: &[PixelColours],
    width: usize,
    top_colours: ColourSet,
    min_px: usize,
) {
    if top_colours.0 == 0 || width == 0 || labels.len() != colours.len() {
        return;
    }
    let height = labels.len() / width;
    let top = |p: usize| {
        let best = colours[p].best;
        labels[p] == Label::Shadow && best != 0 && best & !top_colours.0 == 0
    };
    for patch in patches(width, height, top) {
        if patch.len() >= min_px {
            for p in patch {
                labels[p] = Label::Piece;
            }
        }
    }
}

/// Rectifies and labels one fine rectangle of a frame. Pixels marked in `hidden` (row by row
/// over the rectangle as clipped to the fine grid, see [`Rectification::clip`]; none when it is
/// empty) are [`Label::Outside`]: another region looks at them.
pub fn fine_region(
    frame: &Mat,
    rect: Rect,
    hidden: &[bool],
    balance: &Balance,
    input: &FineInputs,
) -> Result<Region, VisionError> {
    let rect = input.rect.clip(rect);
    let view = blur(&input.rect.fine_view(frame, rect)?)?;
    let reference = Mat::roi(input.reference, rect)?;
    let usable = Mat::roi(input.usable, rect)?;
    let (w, h) = (rect.width as usize, rect.height as usize);
    let mut labels = Vec::with_capacity(w * h);
    let mut colours = Vec::with_capacity(w * h);
    let mut bgr = Vec::with_capacity(w * h);
    let mut ref_sum = Vec::with_capacity(w * h);
    let mut warmth = Vec::with_capacity(w * h);
    let mut faint_candidates = Vec::with_capacity(if input.faint_pieces { w * h } else { 0 });
    let colours_of = |fp: [f32; 3], rs: f32| palette_reading(input.palette, input.white, fp, rs);
    let mut near = ReferenceRows::at(
        input.reference,
        rect.y,
        rect.x,
        rect.x + rect.width,
        balance.shadow_tint,
    )?;
    for y in 0..rect.height {
        if y > 0 {
            near.down()?;
        }
        let f = view.at_row::<Vec3b>(y)?;
        let r = reference.at_row::<Vec3b>(y)?;
        let u = usable.at_row::<u8>(y)?;
        let hid = hidden.get(y as usize * w..(y as usize + 1) * w).unwrap_or(&[]);
        for x in 0..w {
            let fp = balance.apply(f[x]);
            let rp = [r[x][0] as f32, r[x][1] as f32, r[x][2] as f32];
            let rs = rp[0] + rp[1] + rp[2];
            let l = if u[x] == 0 || hid.get(x) == Some(&true) {
                Label::Outside
            } else {
                near.label_near(fp, rect.x + x as i32)
            };
            let c = if l == Label::Piece
                || (l == Label::Shadow && (input.shadow_colours || input.top_colours.0 != 0))
            {
                colours_of(fp, rs)
            } else {
                PixelColours::default()
            };
            warmth.push(if l == Label::Shadow {
                shadow_warmth(fp, rp, balance.shadow_tint).unwrap_or(f32::NAN)
            } else {
                f32::NAN
            });
            if input.faint_pieces {
                faint_candidates.push(l == Label::Table && faint_candidate(fp, rp));
            }
            labels.push(l);
            colours.push(c);
            bgr.push(fp);
            ref_sum.push(rs);
        }
    }
    let warm = relabel_warm_patches(&mut labels, &warmth, w, input.rect.fine.mm_per_px);
    let faint = if input.faint_pieces {
        relabel_faint_patches(
            &mut labels,
            &faint_candidates,
            w,
            input.rect.fine.mm_per_px,
            |p| {
                let (x, y) = ((p % w) as i32, (p / w) as i32);
                let r = reference.at_2d::<Vec3b>(y, x).ok()?;
                faint_change(bgr[p], [r[0] as f32, r[1] as f32, r[2] as f32])
            },
        )
    } else {
        Vec::new()
    };
    let rims = match balance.shadow_fall.filter(|_| input.rims) {
        Some(fall) => relabel_rims(&mut labels, w, fall, input.rect.fine.mm_per_px),
        None => Vec::new(),
    };
    let casterless = match balance.shadow_fall {
        Some(fall) => {
            // A dark piece may read as a shadow only where some piece is shadow-like.
            let lengths = if input.shadow_colours {
                ShadowLengths::Shown
            } else {
                ShadowLengths::Any
            };
            relabel_casterless_shadows(
                &mut labels,
                w,
                fall,
                input.rect.fine.mm_per_px,
                lengths,
                enclosed_table(input.rims),
            )
        }
        None => Vec::new(),
    };
    for p in warm.into_iter().chain(faint).chain(casterless) {
        colours[p] = colours_of(bgr[p], ref_sum[p]);
    }
    let rim = input.rim_colours.0;
    for p in rims {
        let read = colours_of(bgr[p], ref_sum[p]);
        let within = |bits: u32, or: u32| if bits & rim != 0 { bits & rim } else { or };
        let compatible = within(read.compatible, rim);
        colours[p] = PixelColours {
            best: within(read.best, compatible),
            compatible,
        };
    }
    relabel_top_patches(
        &mut labels,
        &colours,
        w,
        input.top_colours,
        input.rect.fine.mm_per_px,
    );
    let fine = &input.rect.fine;
    Ok(Region {
        rect,
        width: w,
        height: h,
        origin_mm: fine.px_to_mm(PointPx::new(rect.x as f64, rect.y as f64)),
        mm_per_px: fine.mm_per_px,
        labels,
        colours,
        bgr,
        ref_sum,
        white: input.palette.white_sum.map(|sum| WhitePaper {
            gains: input.white,
            sum,
        }),
        reader: Some(ColourReader {
            palette: Arc::clone(input.palette),
            white: input.white,
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Catalog;
    use crate::vision::colour::catalog_palette;
    use crate::vision::labels::label_tinted;

    /// [`ReferenceRows::label_near`] as the rule reads: the label against the reference pixel
    /// itself, else against the first of [`NEIGHBOURS`] inside the image that is not a piece;
    /// a column outside the image is [`Label::Outside`].
    fn plain_label_near(
        reference: &[Vec<[u8; 3]>],
        f: [f32; 3],
        x: i32,
        y: i32,
        tint: Option<[f32; 3]>,
    ) -> Label {
        let at = |x: i32, y: i32| -> Option<[f32; 3]> {
            let r = reference
                .get(usize::try_from(y).ok()?)?
                .get(usize::try_from(x).ok()?)?;
            Some([r[0] as f32, r[1] as f32, r[2] as f32])
        };
        let Some(here) = at(x, y) else {
            return Label::Outside;
        };
        let l = label_tinted(f, here, tint);
        if l != Label::Piece {
            return l;
        }
        NEIGHBOURS
            .iter()
            .filter_map(|&(dx, dy)| at(x + dx, y + dy))
            .map(|r| label_tinted(f, r, tint))
            .find(|&l| l != Label::Piece)
            .unwrap_or(Label::Piece)
    }

    proptest::proptest! {
        /// Random references (plain, edged, dark), frames and tints, labelled over any band of
        /// rows and columns (the image's edges included): the rows prepared as they come into
        /// reach label every pixel as the rule does.
        #[test]
        fn reference_rows_label_as_the_rule_reads(
            w in 1usize..9,
            h in 1usize..7,
            seed in proptest::prelude::any::<u64>(),
            tinted in 0u8..3,
            cols in (0i32..10, 0i32..10),
            rows in (0i32..8, 1i32..8),
        ) {
            let mut state = seed | 1;
            let mut next = move || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state
            };
            let reference: Vec<Vec<[u8; 3]>> = (0..h)
                .map(|_| (0..w).map(|_| {
                    let base = (next() % 200) as u8;
                    [base, base.saturating_add((next() % 40) as u8), base.saturating_add((next() % 60) as u8)]
                }).collect())
                .collect();
            let mut mat = Mat::new_rows_cols_with_default(h as i32, w as i32, core::CV_8UC3, core::Scalar::all(0.0)).unwrap();
            for (y, row) in reference.iter().enumerate() {
                for (x, r) in row.iter().enumerate() {
                    *mat.at_2d_mut::<Vec3b>(y as i32, x as i32).unwrap() = Vec3b::from(*r);
                }
            }
            let tint = match tinted {
                0 => None,
                1 => Some([1.0, 1.0, 1.0]),
                _ => Some([0.92, 1.0, 1.08]),
            };
            let (x0, x1) = (cols.0.min(w as i32), (cols.0 + cols.1).min(w as i32 + 1));
            let (y0, y1) = (rows.0.min(h as i32 - 1), (rows.0 + rows.1).min(h as i32));
            let mut near = ReferenceRows::at(&mat, y0, x0, x1, tint).unwrap();
            for y in y0..y1 {
                if y > y0 {
                    near.down().unwrap();
                }
                for x in x0..x1 {
                    // A frame pixel near the reference here or a neighbour's (table or shadow), or
                    // anything at all.
                    let (sx, sy) = (x + (next() % 3) as i32 - 1, y + (next() % 3) as i32 - 1);
                    let source = usize::try_from(sy).ok().and_then(|sy| reference.get(sy));
                    let f = match source.and_then(|r| r.get(usize::try_from(sx).ok()?)) {
                        Some(r) if next() % 2 == 0 => {
                            let k = [1.0, 0.6, 0.97][(next() % 3) as usize];
                            [r[0] as f32 * k, r[1] as f32 * k, r[2] as f32 * k]
                        }
                        _ => [(next() % 256) as f32, (next() % 256) as f32, (next() % 256) as f32],
                    };
                    proptest::prop_assert_eq!(
                        near.label_near(f, x),
                        plain_label_near(&reference, f, x, y, tint),
                        "pixel ({}, {})", x, y
                    );
                }
            }
        }
    }

    /// A pixel the labelling left unread (bare table, a shadow) is read with the region's palette
    /// when asked, as a piece pixel was; a piece pixel keeps its reading; without a reader,
    /// nothing is read.
    #[test]
    fn pixels_left_unread_are_read_on_demand_with_the_regions_palette() {
        let catalog = Catalog::default_catalog();
        let (palette, _) = catalog_palette(&catalog);
        let chest = catalog.pieces.iter().find(|e| e.name == "chest").unwrap();
        let [r, g, b] = chest.colour.0;
        let brown = [b as f32, g as f32, r as f32];
        let stored = PixelColours {
            best: 1,
            compatible: 1,
        };
        let mut region = Region {
            rect: Rect::new(0, 0, 3, 1),
            width: 3,
            height: 1,
            origin_mm: PointMm::new(0.0, 0.0),
            mm_per_px: 1.0,
            labels: vec![Label::Table, Label::Shadow, Label::Piece],
            colours: vec![PixelColours::default(), PixelColours::default(), stored],
            bgr: vec![brown; 3],
            ref_sum: vec![300.0; 3],
            white: None,
            reader: Some(ColourReader {
                palette: Arc::new(palette.clone()),
                white: [1.0; 3],
            }),
        };
        let read = palette.classify(brown, 300.0);
        assert_ne!(read.best, 0);
        assert_eq!(region.read_colours(0), read);
        assert_eq!(region.read_colours(1), read);
        assert_eq!(region.read_colours(2), stored);
        assert_eq!(region.read_colours(3), PixelColours::default());
        region.reader = None;
        assert_eq!(region.read_colours(0), PixelColours::default());
        assert_eq!(region.read_colours(2), stored);
    }

    /// Coarse labels with components painted in as `(id, x0, y0, x1, y1)` (exclusive ends).
    fn labels(w: i32, h: i32, boxes: &[(i32, i32, i32, i32, i32)]) -> Mat {
        let mut m = Mat::new_rows_cols_with_default(h, w, core::CV_32S, core::Scalar::all(0.0)).unwrap();
        for &(id, x0, y0, x1, y1) in boxes {
            for y in y0..y1 {
                for x in x0..x1 {
                    *m.at_2d_mut::<i32>(y, x).unwrap() = id;
                }
            }
        }
        m
    }

    /// A component's coarse box and the fine rectangle it grows to (`grow` fine pixels each way).
    fn component(x0: i32, y0: i32, x1: i32, y1: i32, grow: i32) -> ((Rect, i32), Rect) {
        let b = Rect::new(x0, y0, x1 - x0, y1 - y0);
        let fine = Rect::new(
            x0 * COARSE_STEP - grow,
            y0 * COARSE_STEP - grow,
            (x1 - x0) * COARSE_STEP + 2 * grow,
            (y1 - y0) * COARSE_STEP + 2 * grow,
        );
        ((b, b.width * b.height), fine)
    }

    #[test]
    fn row_bands_cover_every_row_once_in_order() {
        for (rows, threads) in [(0, 2), (10, 4), (31, 2), (64, 2), (100, 3), (360, 8), (361, 1)] {
            let bands = row_bands(rows, threads);
            assert!(
                !bands.is_empty() && bands.len() <= threads.max(1),
                "{rows} {threads}: {bands:?}"
            );
            assert_eq!(bands.first().map(|b| b.0), Some(0));
            assert_eq!(bands.last().map(|b| b.1), Some(rows));
            for w in bands.windows(2) {
                assert_eq!(w[0].1, w[1].0, "{rows} {threads}: {bands:?}");
            }
            if bands.len() > 1 {
                assert!(
                    bands.iter().all(|b| b.1 - b.0 >= MIN_BAND_ROWS),
                    "{rows} {threads}: {bands:?}"
                );
            }
        }
        assert_eq!(row_bands(100, 3).len(), 3);
        assert_eq!(row_bands(63, 2).len(), 1);
    }

    #[test]
    fn changes_go_together_when_a_rectangle_holds_the_others_pixels_transitively() {
        // 1 and 2 are 3 coarse pixels apart (within 1's grown rectangle); 3 is near 2; 4 is far.
        let (c1, r1) = component(10, 10, 15, 15, 8);
        let (c2, r2) = component(18, 10, 22, 15, 8);
        let (c3, r3) = component(25, 10, 28, 14, 8);
        let (c4, r4) = component(60, 40, 64, 44, 8);
        let cc = labels(
            80,
            60,
            &[
                (1, 10, 10, 15, 15),
                (2, 18, 10, 22, 15),
                (3, 25, 10, 28, 14),
                (4, 60, 40, 64, 44),
            ],
        );
        let plans = plan_regions(&[c1, c2, c3, c4], &[1, 2, 3, 4], &[r1, r2, r3, r4], &cc).unwrap();
        assert_eq!(plans.len(), 2);
        assert_eq!(plans[0].components, vec![0, 1, 2]);
        assert_eq!(plans[0].rect, union(&union(&r1, &r2), &r3));
        assert_eq!(plans[1].components, vec![3]);
    }

    #[test]
    fn changes_whose_rectangles_only_overlap_are_looked_at_apart() {
        // Two diagonal strokes: their grown rectangles overlap at a corner, neither holds a pixel
        // of the other. The old rule (merge overlapping rectangles) made them one region.
        let mut boxes = Vec::new();
        for i in 0..10 {
            boxes.push((1, 10 + i, 10 + i, 11 + i, 11 + i));
            boxes.push((2, 30 + i, 27 - i, 31 + i, 28 - i));
        }
        let cc = labels(60, 50, &boxes);
        let (c1, r1) = component(10, 10, 20, 20, 4);
        let (c2, r2) = component(30, 18, 40, 28, 4);
        let (_, wide) = component(10, 10, 20, 20, 26);
        // Grown by 4 fine pixels they are apart; grown by 26 the first holds the second's pixels.
        assert_eq!(plan_regions(&[c1, c2], &[1, 2], &[r1, r2], &cc).unwrap().len(), 2);
        assert_eq!(
            plan_regions(&[c1, c2], &[1, 2], &[wide, r2], &cc).unwrap().len(),
            1
        );
        // Overlapping rectangles but no pixel of one in the other's: apart.
        let overlapping = Rect::new(r1.x, r1.y, r2.x + 6 - r1.x, r1.height);
        assert!(overlapping.x + overlapping.width > r2.x);
        assert_eq!(
            plan_regions(&[c1, c2], &[1, 2], &[overlapping, r2], &cc)
                .unwrap()
                .len(),
            2
        );
    }

    #[test]
    fn a_plan_is_blind_to_the_other_plans_changes_and_sees_the_rest() {
        // Component 1 (plan 0) and component 2 (plan 1); a plan's rectangle spanning both.
        let cc = labels(40, 30, &[(1, 5, 5, 8, 8), (2, 20, 5, 24, 9)]);
        let components = vec![(Rect::new(5, 5, 3, 3), 9), (Rect::new(20, 5, 4, 4), 16)];
        let pass = CoarsePass {
            balance: Balance::default(),
            labels: Mat::default(),
            plans: Vec::new(),
            component_map: cc,
            component_labels: vec![1, 2],
            components,
            at_view_edge: vec![false, false],
        };
        let plan = RegionPlan {
            rect: Rect::new(0, 0, 60, 30),
            components: vec![0],
        };
        let hidden = pass.hidden_in(&plan, plan.rect).unwrap();
        let at = |x: i32, y: i32| hidden[(y * 60 + x) as usize];
        // Component 2's coarse pixels (fine 40..47, 10..17) and one coarse pixel round them.
        assert!(at(40, 10) && at(46, 16) && at(37, 8) && at(49, 19));
        assert!(!at(34, 12) && !at(52, 12) && !at(44, 4) && !at(44, 22));
        // The plan's own component and the bare table elsewhere stay in view.
        assert!(!at(12, 12) && !at(5, 25) && !at(59, 0));
        // Seen from a plan holding both, nothing is hidden.
        let both = RegionPlan {
            rect: plan.rect,
            components: vec![0, 1],
        };
        assert!(pass.hidden_in(&both, both.rect).unwrap().iter().all(|&h| !h));
    }

    #[test]
    fn a_patch_of_shadow_read_only_as_a_tops_colour_is_a_piece_and_shadows_of_other_readings_stay() {
        const HAT: u32 = 0b0100;
        const PURPLE: u32 = 0b0010;
        let width = 20;
        let mut labels = vec![Label::Table; width * 10];
        let mut colours = vec![PixelColours::default(); width * 10];
        let mut paint = |x0: usize, x1: usize, y0: usize, y1: usize, best: u32| {
            for y in y0..y1 {
                for x in x0..x1 {
                    labels[y * width + x] = Label::Shadow;
                    colours[y * width + x] = PixelColours {
                        best,
                        compatible: best,
                    };
                }
            }
        };
        // A hat of 4x4 shadow pixels read as its colour alone, in a cast shadow read as purple.
        paint(0, 8, 0, 8, PURPLE);
        paint(2, 6, 2, 6, HAT);
        // A patch of 3x3 (fewer than a hat shows), and one read as the hat's colour and purple.
        paint(10, 13, 0, 3, HAT);
        paint(14, 18, 4, 8, HAT | PURPLE);
        let before = labels.clone();
        relabel_top_patches(&mut labels, &colours, width, ColourSet(HAT), 1.0);
        for (p, (&now, &was)) in labels.iter().zip(&before).enumerate() {
            let (x, y) = (p % width, p / width);
            let hat = (2..6).contains(&x) && (2..6).contains(&y);
            assert_eq!(now, if hat { Label::Piece } else { was }, "pixel ({x}, {y})");
        }
        // Nothing is a top where no piece is placed by its top.
        let mut unchanged = before.clone();
        relabel_top_patches(&mut unchanged, &colours, width, ColourSet(0), 1.0);
        assert_eq!(unchanged, before);
    }

    #[test]
    fn a_hat_is_as_large_on_the_table_at_any_scale() {
        const HAT: u32 = 0b0100;
        // A hat of 16 mm² and a fleck of 8 mm², both seen at 2 mm a pixel: 4 pixels and 2 (a
        // hat needs 12 mm², 3 pixels). Counted in pixels, the hat would need 12 of them too.
        let width = 12;
        let mut labels = vec![Label::Table; width * 4];
        let mut colours = vec![PixelColours::default(); width * 4];
        for p in [0, 1, width, width + 1, 6, 7] {
            labels[p] = Label::Shadow;
            colours[p] = PixelColours {
                best: HAT,
                compatible: HAT,
            };
        }
        relabel_top_patches(&mut labels, &colours, width, ColourSet(HAT), 2.0);
        for p in [0, 1, width, width + 1] {
            assert_eq!(labels[p], Label::Piece, "hat pixel {p}");
        }
        for p in [6, 7] {
            assert_eq!(labels[p], Label::Shadow, "fleck pixel {p}");
        }
    }
}
