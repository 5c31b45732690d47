//! Scoring a silhouette against a weight image, with sub-pixel precision.
//!
//! Conventions: a [`WeightMap`] covers a rectangle of the fine view; pixel `(i, j)` (column,
//! row, from the map's corner) covers `[i - 0.5, i + 0.5] x [j - 0.5, j + 0.5]` in map pixel
//! coordinates and shows table point `origin_mm + (i, j) * mm_per_px`. A silhouette is a union
//! of convex polygons in table mm. Its score is the integral of the weights over its area,
//! sampled on [`SUB_ROWS`] lines per pixel row and integrated exactly along each (partial
//! pixels count in proportion). The score moves smoothly as the silhouette moves across by a
//! fraction of a pixel, and up or down wherever its edges slant; a level edge moves it in steps
//! of a sub-row.

use super::view::Silhouette;
use crate::table::PointMm;

/// Sub-rows per pixel row, spread evenly over it: one, through the row's centre. Two (a quarter
/// pixel either side of it) cost 17 % more instructions per analysis, integrating spans being
/// a quarter of one, for positions 0.02 mm nearer at the median; over the bench's three sets of
/// 30 scenes, detections and rulings came out within one or two pieces either way.
const SUB_ROWS: usize = 1;
/// Slack of [`WeightMap::score_bound`] per unit of the magnitudes a score sums: far more than
/// the `f64` rounding of those sums, far less than a pixel.
const SCORE_BOUND_SLACK: f64 = 1e-9;
/// Per column, the share of a row's absolute weight [`WeightMap::score_bound`] adds for the
/// `f32` rounding of the row's sums: 4 x 2^-24.
const ROW_ROUNDING: f64 = 4.0 / 16_777_216.0;

/// Weights over a rectangle of the fine view, with row prefix sums.
#[derive(Debug, Clone, PartialEq)]
pub struct WeightMap {
    pub width: usize,
    pub height: usize,
    pub origin_mm: PointMm,
    pub mm_per_px: f64,
    /// Per row: `width + 1` cells, each a prefix sum and the weight that follows it
    /// (`cells[j][i]` = sum of weights `0..i`, then weight `i`, 0 past the row's end), side by
    /// side so that a span's end reads one cell.
    cells: Vec<[f32; 2]>,
    /// See [`WeightMap::score_bound`].
    score_bound: f64,
    /// What a cup's inside may show, when silhouettes with a mouth are scored on this map.
    mouths: Option<Box<MouthLayers>>,
    /// 1 where another piece already explains the pixel, when the map is told (see
    /// [`WeightMap::with_held`]).
    held: Option<Box<WeightMap>>,
    /// The largest share of a silhouette's area its held pixels may take out of it.
    held_max_share: f64,
}

/// The layers of a [`WeightMap`] that leave a cup's mouth neutral.
#[derive(Debug, Clone, PartialEq)]
struct MouthLayers {
    /// The weights of the pixels that show bare table or shadow, 0 elsewhere.
    losses: WeightMap,
    /// 1 where a pixel shows bare table or shadow, 0 elsewhere.
    neutral_px: WeightMap,
}

/// Reusable buffers for [`WeightMap::score`].
#[derive(Debug, Default, Clone)]
pub struct ScoreScratch {
    lo: Vec<f64>,
    hi: Vec<f64>,
    intervals: Vec<Vec<(f64, f64)>>,
    px: Vec<(f64, f64)>,
    spans: Spans,
}

impl WeightMap {
    pub fn new(width: usize, height: usize, origin_mm: PointMm, mm_per_px: f64, weights: &[f32]) -> Self {
        // Every cell is written below, row by row, so none is zeroed first: a map is made per
        // fit window, about a thousand a frame, and zeroing them took 2 % of an analysis.
        let mut cells: Vec<[f32; 2]> = Vec::with_capacity(height * (width + 1));
        // See [`WeightMap::score_bound`]: a score integrates merged, disjoint spans per
        // sub-row, each the difference of the row's integral function ([`Row::up_to`]) at its
        // ends, so over a sub-row they sum to at most the function's rise along the row: its
        // positive weights, plus the `f32` rounding of the prefix sums where it steps at whole
        // columns (each step at most 2^-24 of a prefix, so of the row's absolute sum). The
        // rows' sums are `f32` too, off by at most `width` times 2^-24 of that absolute sum:
        // [`ROW_ROUNDING`] per column covers both twice over. A score is its sub-rows' mean.
        let (mut bound, mut magnitude) = (0.0f64, 0.0f64);
        for j in 0..height {
            let row = &weights[j * width..(j + 1) * width];
            let (mut acc, mut positive, mut absolute) = (0.0f32, 0.0f32, 0.0f32);
            cells.extend(row.iter().map(|&w| {
                let cell = [acc, w];
                acc += w;
                positive += w.max(0.0);
                absolute += w.abs();
                cell
            }));
            cells.push([acc, 0.0]);
            bound += f64::from(positive) + ROW_ROUNDING * width as f64 * f64::from(absolute);
            magnitude += f64::from(absolute);
        }
        Self {
            width,
            height,
            origin_mm,
            mm_per_px,
            cells,
            score_bound: bound + SCORE_BOUND_SLACK * (1.0 + magnitude),
            mouths: None,
            held: None,
            held_max_share: 1.0,
        }
    }

    /// The map, also told which of its pixels other pieces already explain (`held[p]`), so
    /// that [`WeightMap::held_px`] can leave them out of a silhouette's area: a ship carrying
    /// four treasures shows its colours on half its silhouette at best, and is judged on the
    /// rest.
    /// At most `max_share` of a silhouette's area is left out ([`WeightMap::held_max_share`]).
    pub fn with_held(mut self, held: &[bool], max_share: f64) -> Self {
        self.held_max_share = max_share;
        let count: Vec<f32> = (0..self.width * self.height)
            .map(|i| {
                if held.get(i).copied().unwrap_or(false) {
                    1.0
                } else {
                    0.0
                }
            })
            .collect();
        self.held = Some(Box::new(Self::new(
            self.width,
            self.height,
            self.origin_mm,
            self.mm_per_px,
            &count,
        )));
        self
    }

    /// See [`WeightMap::with_held`].
    pub fn held_max_share(&self) -> f64 {
        self.held_max_share
    }

    /// Pixels inside the silhouette that other pieces explain; 0 when the map was not told
    /// ([`WeightMap::with_held`]).
    pub fn held_px(&self, sil: &Silhouette, scratch: &mut ScoreScratch) -> f64 {
        self.held
            .as_ref()
            .map_or(0.0, |h| h.score(&sil.polygons, PointMm::default(), scratch))
    }

    /// The map, also told which of its pixels a cup's inside could show (`neutral[p]` is 1
    /// where pixel `p` shows bare table or a shadow, 0 elsewhere), so that those pixels count
    /// neither way inside a silhouette's mouth ([`WeightMap::score_silhouette`]).
    pub fn with_neutral_mouths(mut self, neutral: &[bool]) -> Self {
        let at = |i: usize| neutral.get(i).copied().unwrap_or(false);
        let losses: Vec<f32> = self
            .weights()
            .enumerate()
            .map(|(i, w)| if at(i) { w } else { 0.0 })
            .collect();
        let count: Vec<f32> = (0..self.width * self.height)
            .map(|i| if at(i) { 1.0 } else { 0.0 })
            .collect();
        let layer = |w: &[f32]| Self::new(self.width, self.height, self.origin_mm, self.mm_per_px, w);
        self.mouths = Some(Box::new(MouthLayers {
            losses: layer(&losses),
            neutral_px: layer(&count),
        }));
        self
    }

    /// The score of a silhouette moved by `offset`: [`WeightMap::score`] of its polygons, less
    /// what bare table and shadow inside its mouth cost when the map knows them. Inside a cup's
    /// mouth the camera sees the cup's own shaded inside: table or shadow there is no evidence
    /// against the cup, while the piece's colour seen there still counts for it.
    pub fn score_silhouette(&self, sil: &Silhouette, offset: PointMm, scratch: &mut ScoreScratch) -> f64 {
        let body = self.score(&sil.polygons, offset, scratch);
        match (&sil.mouth, &self.mouths) {
            (Some(mouth), Some(layers)) => {
                body - layers.losses.score(std::slice::from_ref(mouth), offset, scratch)
            }
            _ => body,
        }
    }

    /// Pixels inside the silhouette's mouth that count neither way (see
    /// [`WeightMap::score_silhouette`]); 0 when the map does not know them.
    pub fn neutral_mouth_px(&self, sil: &Silhouette, scratch: &mut ScoreScratch) -> f64 {
        match (&sil.mouth, &self.mouths) {
            (Some(mouth), Some(layers)) => {
                layers
                    .neutral_px
                    .score(std::slice::from_ref(mouth), PointMm::default(), scratch)
            }
            _ => 0.0,
        }
    }

    /// An upper bound on [`WeightMap::score`] of any polygons at any offset (and so on
    /// [`WeightMap::score_silhouette`] of a silhouette without a mouth), as computed, rounding
    /// included: a detector skips fitting a model that could not win with its best fit.
    pub fn score_bound(&self) -> f64 {
        self.score_bound
    }

    pub fn weight(&self, i: usize, j: usize) -> f32 {
        self.cells[j * (self.width + 1) + i][1]
    }

    /// Every pixel's weight, row by row.
    fn weights(&self) -> impl Iterator<Item = f32> + '_ {
        self.cells
            .chunks_exact(self.width + 1)
            .flat_map(|row| row[..self.width].iter().map(|c| c[1]))
    }

    /// Row `j`'s cells, for [`Row::integral`].
    fn row(&self, j: usize) -> Row<'_> {
        let w = self.width;
        Row {
            cells: &self.cells[j * (w + 1)..(j + 1) * (w + 1)],
            width: w,
        }
    }

    /// Map pixel coordinates of a table point.
    pub fn to_px(&self, p: PointMm) -> (f64, f64) {
        (
            (p.x - self.origin_mm.x) / self.mm_per_px,
            (p.y - self.origin_mm.y) / self.mm_per_px,
        )
    }

    /// The integral of the weights over the union of `polygons` moved by `offset` (table mm),
    /// in pixels (one fully covered pixel of weight 1 scores 1).
    ///
    /// Pose searches call this tens of thousands of times a frame: it walks each edge once over
    /// the sub-rows it spans and reads each span's ends from the row prefix sums, with no
    /// libm rounding calls (see [`floor_exact`]). Its result is bit for bit that of integrating
    /// every sub-row span with a plain floor-based row integral (the tests check so).
    pub fn score(&self, polygons: &[Vec<PointMm>], offset: PointMm, scratch: &mut ScoreScratch) -> f64 {
        let mut spans = std::mem::take(&mut scratch.spans);
        self.find_spans(polygons, offset, scratch, &mut spans);
        let total = self.integrate(&spans, 0.0, 0);
        scratch.spans = spans;
        total
    }

    /// The spans of `sil` at `offset`, for [`WeightMap::score_moved`].
    pub fn spans_of(&self, sil: &Silhouette, offset: PointMm, scratch: &mut ScoreScratch) -> MovedSpans {
        MovedSpans {
            phases: vec![self.phase_at(sil, offset, scratch)],
        }
    }

    /// `sil`'s spans found at `offset`: its body on the map, its mouth on the losses layer.
    fn phase_at(&self, sil: &Silhouette, offset: PointMm, scratch: &mut ScoreScratch) -> Phase {
        let mut body = Spans::default();
        self.find_spans(&sil.polygons, offset, scratch, &mut body);
        let mouth = match (&sil.mouth, &self.mouths) {
            (Some(mouth), Some(layers)) => {
                let mut spans = Spans::default();
                layers
                    .losses
                    .find_spans(std::slice::from_ref(mouth), offset, scratch, &mut spans);
                Some(spans)
            }
            _ => None,
        };
        Phase { body, mouth }
    }

    /// [`WeightMap::score_silhouette`] of `sil` at `offset`, from its spans found nearby
    /// ([`WeightMap::spans_of`]) when the move keeps them on the map's sub-rows (any move
    /// across, a move up or down by whole sub-rows): a translation search then integrates the
    /// same spans again instead of walking the silhouette's edges. A move up or down by a
    /// fraction of a sub-row finds the spans afresh and keeps them beside the others (up to
    /// [`MAX_PHASES`] sets), so a search stepping a quarter of a pixel walks the edges once per
    /// fraction, not once per step. The result equals a fresh score to rounding (the spans' ends
    /// are moved rather than found at the moved edges), and is a fresh score bit for bit where
    /// the spans are found afresh.
    pub fn score_moved(
        &self,
        sil: &Silhouette,
        spans: &mut MovedSpans,
        offset: PointMm,
        scratch: &mut ScoreScratch,
    ) -> f64 {
        for phase in &spans.phases {
            if let Some(score) = self.score_phase(phase, offset) {
                return score;
            }
        }
        if spans.phases.len() >= MAX_PHASES {
            return self.score_silhouette(sil, offset, scratch);
        }
        let phase = self.phase_at(sil, offset, scratch);
        let score = self.score_phase(&phase, offset);
        spans.phases.push(phase);
        score.unwrap_or_else(|| self.score_silhouette(sil, offset, scratch))
    }

    /// The score of `phase`'s spans moved to `offset`, when they can make the move.
    fn score_phase(&self, phase: &Phase, offset: PointMm) -> Option<f64> {
        let (dx, shift) = phase.body.move_to(self, offset)?;
        let body = self.integrate(&phase.body, dx, shift);
        match (&phase.mouth, &self.mouths) {
            (Some(mouth), Some(layers)) => {
                let (dx, shift) = mouth.move_to(&layers.losses, offset)?;
                Some(body - layers.losses.integrate(mouth, dx, shift))
            }
            _ => Some(body),
        }
    }

    /// The union of `polygons` moved by `offset`, as merged spans per sub-row, into `out`.
    fn find_spans(
        &self,
        polygons: &[Vec<PointMm>],
        offset: PointMm,
        scratch: &mut ScoreScratch,
        out: &mut Spans,
    ) {
        out.clear(offset);
        let n_sub = self.height * SUB_ROWS;
        if n_sub == 0 || polygons.is_empty() {
            return;
        }
        // One polygon needs no union: its spans are kept as they are found.
        let single = polygons.len() == 1;
        if !single && scratch.intervals.len() < n_sub {
            scratch.intervals.resize(n_sub, Vec::new());
        }
        let inv = 1.0 / self.mm_per_px;
        let (ox, oy) = (
            (offset.x - self.origin_mm.x) * inv,
            (offset.y - self.origin_mm.y) * inv,
        );
        let mut k_min = n_sub;
        let mut k_max = 0usize;
        for poly in polygons {
            scratch.px.clear();
            scratch
                .px
                .extend(poly.iter().map(|&q| (q.x * inv + ox, q.y * inv + oy)));
            let (ymin, ymax) = scratch
                .px
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
                    (a.min(p.1), b.max(p.1))
                });
            if !(ymin.is_finite() && ymax.is_finite()) {
                continue;
            }
            // Sub-row -1 sits a sub-row above the map, sub-row `n_sub` a sub-row below it.
            if ymin <= sub_row_y(0) - SUB_ROW_DY || ymax >= sub_row_y(n_sub) {
                out.clipped = true;
            }
            let Some((k0, k1)) = sub_row_range(ymin, ymax, n_sub) else {
                continue;
            };
            let len = k1 - k0 + 1;
            scratch.lo.clear();
            scratch.lo.resize(len, f64::INFINITY);
            scratch.hi.clear();
            scratch.hi.resize(len, f64::NEG_INFINITY);
            let Some(&last) = scratch.px.last() else {
                continue;
            };
            // Each edge runs from the previous vertex to this one (the last closes the ring).
            let mut from = last;
            for &to in &scratch.px {
                let ((x0, y0), (x1, y1)) = (from, to);
                from = to;
                let (ya, yb) = if y0 < y1 { (y0, y1) } else { (y1, y0) };
                let Some((ka, kb)) = sub_row_range(ya, yb, n_sub) else {
                    continue;
                };
                let ka = ka.max(k0);
                let kb = kb.min(k1);
                if ka > kb {
                    continue;
                }
                let lo = &mut scratch.lo[ka - k0..=kb - k0];
                let hi = &mut scratch.hi[ka - k0..=kb - k0];
                let dy = y1 - y0;
                if dy.abs() < 1e-12 {
                    let (a, b) = (x0.min(x1), x0.max(x1));
                    for (l, h) in lo.iter_mut().zip(hi.iter_mut()) {
                        *l = l.min(a);
                        *h = h.max(b);
                    }
                    continue;
                }
                let slope = (x1 - x0) / dy;
                // Sub-row ys are multiples of 1 / (2 SUB_ROWS) pixel: stepping them is exact.
                let mut y = sub_row_y(ka);
                for (l, h) in lo.iter_mut().zip(hi.iter_mut()) {
                    let x = x0 + (y - y0) * slope;
                    if x < *l {
                        *l = x;
                    }
                    if x > *h {
                        *h = x;
                    }
                    y += SUB_ROW_DY;
                }
            }
            if single {
                out.k0 = k0;
                out.ends.reserve(len);
                out.spans.reserve(len);
                for (&a, &b) in scratch.lo.iter().zip(&scratch.hi) {
                    if a < b {
                        out.spans.push((a, b));
                    }
                    out.ends.push(out.spans.len());
                }
                return;
            }
            for (k, (&a, &b)) in (k0..=k1).zip(scratch.lo.iter().zip(&scratch.hi)) {
                if a < b {
                    scratch.intervals[k].push((a, b));
                }
            }
            k_min = k_min.min(k0);
            k_max = k_max.max(k1);
        }
        if k_min > k_max {
            return;
        }
        out.k0 = k_min;
        out.ends.reserve(k_max - k_min + 1);
        out.spans.reserve(k_max - k_min + 1);
        for k in k_min..=k_max {
            let iv = &mut scratch.intervals[k];
            if !iv.is_empty() {
                if iv.len() > 1 {
                    iv.sort_by(|a, b| a.0.total_cmp(&b.0));
                }
                let (mut a, mut b) = iv[0];
                for &(c, d) in iv.iter().skip(1) {
                    if c <= b {
                        b = b.max(d);
                    } else {
                        out.spans.push((a, b));
                        a = c;
                        b = d;
                    }
                }
                out.spans.push((a, b));
                iv.clear();
            }
            out.ends.push(out.spans.len());
        }
    }

    /// The integral of the weights over `spans` moved `dx` pixels across and `shift` sub-rows
    /// down (rows moved off the map count nothing), in pixels.
    fn integrate(&self, spans: &Spans, dx: f64, shift: i64) -> f64 {
        let n_sub = (self.height * SUB_ROWS) as i64;
        let mut total = 0.0;
        let mut start = 0;
        for (i, &end) in spans.ends.iter().enumerate() {
            let k = spans.k0 as i64 + i as i64 + shift;
            let row_spans = &spans.spans[start..end];
            start = end;
            if row_spans.is_empty() || !(0..n_sub).contains(&k) {
                continue;
            }
            let row = self.row(k as usize / SUB_ROWS);
            for &(a, b) in row_spans {
                total += row.integral(a + dx, b + dx);
            }
        }
        total / SUB_ROWS as f64
    }
}

/// A union of polygons as merged spans on a map's sub-rows (map pixel columns), found at one
/// offset.
#[derive(Debug, Default, Clone)]
pub struct Spans {
    /// The offset they were found at (table mm).
    at: PointMm,
    /// The first sub-row with an entry in `ends`.
    k0: usize,
    /// Per sub-row from `k0`, the end of its spans in `spans` (each starts where the last ended).
    ends: Vec<usize>,
    spans: Vec<(f64, f64)>,
    /// The map's top or bottom edge cut the polygons: moved up or down, they would cover rows
    /// these spans lack.
    clipped: bool,
}

impl Spans {
    fn clear(&mut self, at: PointMm) {
        self.at = at;
        self.k0 = 0;
        self.ends.clear();
        self.spans.clear();
        self.clipped = false;
    }

    /// The move to `offset` in map pixels across and whole sub-rows down, when the spans can
    /// make it: `None` for a move up or down by a fraction of a sub-row, or any move up or
    /// down of clipped spans.
    fn move_to(&self, map: &WeightMap, offset: PointMm) -> Option<(f64, i64)> {
        let inv = 1.0 / map.mm_per_px;
        let dx = (offset.x - self.at.x) * inv;
        let sub = (offset.y - self.at.y) * inv * SUB_ROWS as f64;
        let shift = floor_exact(sub + 0.5);
        if (sub - shift).abs() > WHOLE_SUB_ROW_TOLERANCE || (shift != 0.0 && self.clipped) {
            return None;
        }
        Some((dx, shift as i64))
    }
}

/// How far from a whole number of sub-rows a move up or down may be and still reuse spans, in
/// sub-rows: moves of whole steps land within rounding of it (a millionth of a sub-row moves a
/// span's ends by far less than the rounding of the weights).
const WHOLE_SUB_ROW_TOLERANCE: f64 = 1e-6;

/// Most sets of spans a [`MovedSpans`] keeps, each found at its own fraction of a sub-row: a
/// search down to an eighth of a millimetre on a one-millimetre map steps through eight.
const MAX_PHASES: usize = 8;

/// A silhouette's spans, for [`WeightMap::score_moved`]: one set per fraction of a sub-row it
/// was found at.
#[derive(Debug, Clone)]
pub struct MovedSpans {
    phases: Vec<Phase>,
}

/// A silhouette's spans found at one offset: its body on the map, its mouth on the map's losses
/// layer when the map has one.
#[derive(Debug, Clone)]
struct Phase {
    body: Spans,
    mouth: Option<Spans>,
}

/// One row of a [`WeightMap`]: its `width + 1` cells (prefix sum, weight).
#[derive(Clone, Copy)]
struct Row<'a> {
    cells: &'a [[f32; 2]],
    width: usize,
}

impl Row<'_> {
    /// The integral of the row's weights from `a` to `b` (pixel columns, `a <= b`).
    #[inline(always)]
    fn integral(self, a: f64, b: f64) -> f64 {
        self.up_to(b) - self.up_to(a)
    }

    /// The integral from `t = -0.5` (the row's left edge) to `t`, clipped to the row.
    #[inline(always)]
    fn up_to(self, t: f64) -> f64 {
        let w = self.width;
        // `t + 0.5` clipped to [0, w]: as `t.clamp(-0.5, w - 0.5) + 0.5` to the bit (both add
        // 0.5 to `t` inside the row and give the ends exactly), without `clamp`'s check of its
        // bounds; a NaN `t` gives 0 (the row's left edge).
        let u = (t + 0.5).max(0.0).min(w as f64);
        // `u` lies in [0, w]: the conversion is its floor, without a libm call.
        let k = u as i64;
        let frac = u - k as f64;
        let k = (k as usize).min(w);
        // Past the row's end the cell's weight is 0 (and `frac` is 0 there too).
        let [base, wk] = self.cells.get(k).copied().unwrap_or([0.0; 2]);
        base as f64 + frac * wk as f64
    }
}

/// The distance between neighbouring sub-rows, pixels.
const SUB_ROW_DY: f64 = 1.0 / SUB_ROWS as f64;

/// The y of sub-row `k`: pixel row `k / SUB_ROWS`, whose sub-rows split it evenly (one sits on
/// the row's centre; two, at -0.25 and +0.25 from it).
fn sub_row_y(k: usize) -> f64 {
    (k as f64 + 0.5) / SUB_ROWS as f64 - 0.5
}

/// The sub-rows whose y lies in `[ya, yb]`, clipped to the map.
fn sub_row_range(ya: f64, yb: f64, n_sub: usize) -> Option<(usize, usize)> {
    // Sub-row k sits at y = (k + 0.5) / SUB_ROWS - 0.5.
    let s = SUB_ROWS as f64;
    let ka = -floor_exact(-((ya + 0.5) * s - 0.5));
    let ka = ka.max(0.0);
    let kb = floor_exact((yb + 0.5) * s - 0.5).min(n_sub as f64 - 1.0);
    (ka <= kb && ka.is_finite() && kb.is_finite()).then_some((ka as usize, kb as usize))
}

/// Floats this large or larger are whole numbers already.
const WHOLE_FROM: f64 = 4_503_599_627_370_496.0; // 2^52

/// `x.floor()` without a libm call (the build targets plain x86-64, where `floor` is one): the
/// same value for every `x`, NaN and infinities included (a zero may lose its sign).
#[inline(always)]
fn floor_exact(x: f64) -> f64 {
    if x.is_nan() || x.abs() >= WHOLE_FROM {
        return x;
    }
    let t = x as i64 as f64;
    if t > x { t - 1.0 } else { t }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// [`WeightMap::score`] as first written: every edge walked with `%`, sub-rows found with
    /// `ceil`/`floor`, each span end integrated from its own floor-based index.
    fn plain_score(map: &WeightMap, polygons: &[Vec<PointMm>], offset: PointMm) -> f64 {
        let s = SUB_ROWS as f64;
        let n_sub = map.height * SUB_ROWS;
        let w = map.width;
        let row_integral = |j: usize, t: f64| {
            let u = t.clamp(-0.5, w as f64 - 0.5) + 0.5;
            let k = (u.floor() as usize).min(w);
            let frac = u - k as f64;
            let base = map.cells[j * (w + 1) + k][0] as f64;
            if k < w {
                base + frac * map.weight(k, j) as f64
            } else {
                base
            }
        };
        let range = |ya: f64, yb: f64| {
            let ka = ((ya + 0.5) * s - 0.5).ceil().max(0.0);
            let kb = ((yb + 0.5) * s - 0.5).floor().min(n_sub as f64 - 1.0);
            (ka <= kb && ka.is_finite() && kb.is_finite()).then_some((ka as usize, kb as usize))
        };
        // Row and place in it, as first written (with one sub-row a row, the place is 0).
        #[allow(clippy::modulo_one)]
        let y_of = |k: usize| (k / SUB_ROWS) as f64 + ((k % SUB_ROWS) as f64 + 0.5) / s - 0.5;
        if n_sub == 0 || polygons.is_empty() {
            return 0.0;
        }
        let inv = 1.0 / map.mm_per_px;
        let (ox, oy) = (
            (offset.x - map.origin_mm.x) * inv,
            (offset.y - map.origin_mm.y) * inv,
        );
        let mut intervals: Vec<Vec<(f64, f64)>> = vec![Vec::new(); n_sub];
        for poly in polygons {
            let px: Vec<(f64, f64)> = poly.iter().map(|&q| (q.x * inv + ox, q.y * inv + oy)).collect();
            let ymin = px.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
            let ymax = px.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
            if !(ymin.is_finite() && ymax.is_finite()) {
                continue;
            }
            let Some((k0, k1)) = range(ymin, ymax) else {
                continue;
            };
            let mut lo = vec![f64::INFINITY; k1 - k0 + 1];
            let mut hi = vec![f64::NEG_INFINITY; k1 - k0 + 1];
            let m = px.len();
            for e in 0..m {
                let (x0, y0) = px[e];
                let (x1, y1) = px[(e + 1) % m];
                let Some((ka, kb)) = range(y0.min(y1), y0.max(y1)) else {
                    continue;
                };
                for k in ka.max(k0)..=kb.min(k1) {
                    let dy = y1 - y0;
                    let (a, b) = if dy.abs() < 1e-12 {
                        (x0.min(x1), x0.max(x1))
                    } else {
                        let x = x0 + (y_of(k) - y0) * ((x1 - x0) / dy);
                        (x, x)
                    };
                    lo[k - k0] = lo[k - k0].min(a);
                    hi[k - k0] = hi[k - k0].max(b);
                }
            }
            for k in k0..=k1 {
                if lo[k - k0] < hi[k - k0] {
                    intervals[k].push((lo[k - k0], hi[k - k0]));
                }
            }
        }
        let mut total = 0.0;
        for (k, iv) in intervals.iter_mut().enumerate() {
            if iv.is_empty() {
                continue;
            }
            let j = k / SUB_ROWS;
            iv.sort_by(|a, b| a.0.total_cmp(&b.0));
            let (mut a, mut b) = iv[0];
            for &(c, d) in iv.iter().skip(1) {
                if c <= b {
                    b = b.max(d);
                } else {
                    total += row_integral(j, b) - row_integral(j, a);
                    (a, b) = (c, d);
                }
            }
            total += row_integral(j, b) - row_integral(j, a);
        }
        total / s
    }

    /// A vertex, on a quarter-millimetre grid when `snap` (so that edges run level and vertices
    /// sit on sub-rows and pixel edges).
    fn vertex(snap: bool) -> impl Strategy<Value = PointMm> {
        (-8.0..48.0f64, -8.0..48.0f64).prop_map(move |(x, y)| {
            let q = |v: f64| if snap { (v * 4.0).round() / 4.0 } else { v };
            PointMm::new(q(x), q(y))
        })
    }

    fn polygons() -> impl Strategy<Value = Vec<Vec<PointMm>>> {
        any::<bool>()
            .prop_flat_map(|snap| prop::collection::vec(prop::collection::vec(vertex(snap), 3..10), 1..4))
    }

    proptest! {
        #[test]
        fn a_moved_silhouette_scores_from_its_spans_as_afresh(
            (w, h, weights) in (1usize..40, 1usize..40).prop_flat_map(|(w, h)| {
                (Just(w), Just(h), prop::collection::vec(-1.0f32..1.0, w * h))
            }),
            polys in polygons(),
            mouth in prop::option::of(prop::collection::vec(vertex(false), 3..8)),
            scale in prop::sample::select(vec![0.5, 1.0, 0.7]),
            (dx, dy) in (-3.0..3.0f64, -3.0..3.0f64),
            (mx, sub_rows, fraction) in (-4.0..4.0f64, -6i32..6, any::<bool>()),
        ) {
            let neutral: Vec<bool> = weights.iter().map(|&v| v < 0.0).collect();
            let map = WeightMap::new(w, h, PointMm::new(-1.5, 2.0), scale, &weights)
                .with_neutral_mouths(&neutral);
            let sil = Silhouette {
                polygons: polys.iter().map(|p| crate::vision::solid::convex_hull(p)).collect(),
                mouth: mouth.map(|m| crate::vision::solid::convex_hull(&m)),
            };
            let at = PointMm::new(dx, dy);
            let mut s = ScoreScratch::default();
            let mut spans = map.spans_of(&sil, at, &mut s);
            // Where they were found, the spans score exactly as the silhouette does.
            let here = map.score_moved(&sil, &mut spans, at, &mut s);
            prop_assert_eq!(here.to_bits(), map.score_silhouette(&sil, at, &mut s).to_bits());
            // Moved across, by whole sub-rows up or down, or by a fraction of one.
            let down = sub_rows as f64 * scale / SUB_ROWS as f64 + if fraction { 0.1 * scale } else { 0.0 };
            let to = at + PointMm::new(mx, down);
            let moved = map.score_moved(&sil, &mut spans, to, &mut s);
            let fresh = map.score_silhouette(&sil, to, &mut s);
            prop_assert!((moved - fresh).abs() <= 1e-9 * (1.0 + fresh.abs()), "{} vs {}", moved, fresh);
            // Moves by fractions of a sub-row keep spans of their own, up to MAX_PHASES sets
            // (after a move by a tenth, these fractions overflow them and are scored afresh), and
            // later moves by the same fractions reuse them: every score is still a fresh one's.
            let fractions = MAX_PHASES as f64;
            for k in 1..=MAX_PHASES + 3 {
                let step = k as f64 * scale / (fractions * SUB_ROWS as f64);
                let to = at + PointMm::new(mx * 0.5 - k as f64 * 0.3, down + step);
                let moved = map.score_moved(&sil, &mut spans, to, &mut s);
                let fresh = map.score_silhouette(&sil, to, &mut s);
                prop_assert!((moved - fresh).abs() <= 1e-9 * (1.0 + fresh.abs()), "{} vs {} at {}", moved, fresh, k);
            }
            prop_assert!(spans.phases.len() <= MAX_PHASES);
        }

        #[test]
        fn no_score_exceeds_the_bound(
            (w, h, weights) in (1usize..40, 1usize..40).prop_flat_map(|(w, h)| {
                (Just(w), Just(h), prop::collection::vec(-1.0f32..1.0, w * h))
            }),
            polys in polygons(),
            scale in prop::sample::select(vec![0.5, 1.0, 0.7]),
            (dx, dy) in (-3.0..3.0f64, -3.0..3.0f64),
            (mx, sub_rows) in (-4.0..4.0f64, -6i32..6),
        ) {
            let map = WeightMap::new(w, h, PointMm::new(-1.5, 2.0), scale, &weights);
            let bound = map.score_bound();
            let sil = Silhouette {
                polygons: polys.iter().map(|p| crate::vision::solid::convex_hull(p)).collect(),
                mouth: None,
            };
            let at = PointMm::new(dx, dy);
            let mut s = ScoreScratch::default();
            // Freshly, raw rings and hulls alike, and moved from spans found nearby.
            prop_assert!(map.score(&polys, at, &mut s) <= bound);
            prop_assert!(map.score_silhouette(&sil, at, &mut s) <= bound);
            let mut spans = map.spans_of(&sil, at, &mut s);
            let to = at + PointMm::new(mx, sub_rows as f64 * scale / SUB_ROWS as f64);
            prop_assert!(map.score_moved(&sil, &mut spans, to, &mut s) <= bound);
            // The bound is tight: all of a map's positive weight is one silhouette's reach.
            let positive: f64 = map.weights().map(|v| f64::from(v.max(0.0))).sum();
            let absolute: f64 = map.weights().map(|v| f64::from(v.abs())).sum();
            prop_assert!(bound <= positive + 1e-4 * (1.0 + absolute), "{} vs {}", bound, positive);
        }

        #[test]
        fn score_is_bit_for_bit_the_plain_routine(
            (w, h, weights) in (1usize..40, 1usize..40).prop_flat_map(|(w, h)| {
                (Just(w), Just(h), prop::collection::vec(-1.0f32..1.0, w * h))
            }),
            polys in polygons(),
            scale in prop::sample::select(vec![0.5, 1.0, 0.7]),
            (dx, dy) in (-3.0..3.0f64, -3.0..3.0f64),
        ) {
            let map = WeightMap::new(w, h, PointMm::new(-1.5, 2.0), scale, &weights);
            let offset = PointMm::new(dx, dy);
            let mut s = ScoreScratch::default();
            // Convex hulls (what silhouettes are) and the raw vertex rings alike.
            let hulls: Vec<Vec<PointMm>> = polys.iter().map(|p| crate::vision::solid::convex_hull(p)).collect();
            for set in [&polys, &hulls] {
                let fast = map.score(set, offset, &mut s);
                let plain = plain_score(&map, set, offset);
                prop_assert_eq!(fast.to_bits(), plain.to_bits(), "{} vs {}", fast, plain);
                let one = map.score(&set[..1], offset, &mut s);
                prop_assert_eq!(one.to_bits(), plain_score(&map, &set[..1], offset).to_bits());
            }
        }
    }

    fn ones(w: usize, h: usize) -> WeightMap {
        WeightMap::new(w, h, PointMm::new(0.0, 0.0), 1.0, &vec![1.0; w * h])
    }

    fn square(x: f64, y: f64, s: f64) -> Vec<PointMm> {
        vec![
            PointMm::new(x, y),
            PointMm::new(x + s, y),
            PointMm::new(x + s, y + s),
            PointMm::new(x, y + s),
        ]
    }

    #[test]
    fn areas_of_polygons_inside_the_map() {
        let m = ones(40, 40);
        let mut s = ScoreScratch::default();
        // Level edges off the sub-rows (one lying on a sub-row would count it whole).
        let a = m.score(&[square(10.0, 10.1, 8.0)], PointMm::default(), &mut s);
        assert!((a - 64.0).abs() < 1e-6, "{a}");
        // Sub-pixel moves change the score smoothly (0.8 px outside the map edge at -0.5).
        let b = m.score(&[square(-1.3, 10.1, 10.0)], PointMm::new(0.0, 0.0), &mut s);
        assert!((b - 92.0).abs() < 1e-6, "{b}");
        // A triangle, its level edge on a pixel edge: each sub-row's span is as much too short
        // below its middle as too long above it.
        let tri = vec![
            PointMm::new(5.0, 4.5),
            PointMm::new(25.0, 4.5),
            PointMm::new(5.0, 24.5),
        ];
        let t = m.score(&[tri], PointMm::default(), &mut s);
        assert!((t - 200.0).abs() < 1e-6, "{t}");
        // A union counts overlaps once.
        let u = m.score(
            &[square(10.0, 10.1, 8.0), square(14.0, 10.1, 8.0)],
            PointMm::default(),
            &mut s,
        );
        assert!((u - 96.0).abs() < 1e-6, "{u}");
    }

    #[test]
    fn weights_are_integrated() {
        let mut w = vec![0.0f32; 20 * 20];
        for j in 0..20 {
            for i in 10..20 {
                w[j * 20 + i] = 1.0;
            }
        }
        let m = WeightMap::new(20, 20, PointMm::new(0.0, 0.0), 1.0, &w);
        let mut s = ScoreScratch::default();
        // Covers columns 7.5..11.5 on rows 4.5..8.5: 2 columns (9.5..11.5) of weight 1.
        let v = m.score(&[square(7.5, 4.5, 4.0)], PointMm::default(), &mut s);
        assert!((v - 8.0).abs() < 1e-6, "{v}");
        let v2 = m.score(&[square(7.5, 4.5, 4.0)], PointMm::new(0.25, 0.0), &mut s);
        assert!((v2 - 9.0).abs() < 1e-6, "{v2}");
    }

    #[test]
    fn bare_table_in_a_mouth_counts_neither_way_and_the_piece_seen_there_still_counts() {
        // Bare table (-1) everywhere but a 4 x 4 patch of the piece's colour (+1) at 8..12.
        let (w, h) = (20, 20);
        let piece = |i: usize, j: usize| (8..12).contains(&i) && (8..12).contains(&j);
        let weights: Vec<f32> = (0..w * h)
            .map(|p| if piece(p % w, p / w) { 1.0 } else { -1.0 })
            .collect();
        let neutral: Vec<bool> = (0..w * h).map(|p| !piece(p % w, p / w)).collect();
        let plain = WeightMap::new(w, h, PointMm::new(0.0, 0.0), 1.0, &weights);
        let cup = plain.clone().with_neutral_mouths(&neutral);
        // Pixel (i, j) covers [i - 0.5, i + 0.5]: the body covers pixels 2..18, the mouth 6..14.
        let sil = Silhouette {
            polygons: vec![square(1.5, 1.5, 16.0)],
            mouth: Some(square(5.5, 5.5, 8.0)),
        };
        let mut s = ScoreScratch::default();
        // Body: 16 piece pixels, 240 table. Mouth: the same 16 piece pixels, 48 table.
        let body = plain.score_silhouette(&sil, PointMm::default(), &mut s);
        assert!((body - (16.0 - 240.0)).abs() < 1e-6, "{body}");
        let with_mouth = cup.score_silhouette(&sil, PointMm::default(), &mut s);
        assert!((with_mouth - (16.0 - 192.0)).abs() < 1e-6, "{with_mouth}");
        assert!((cup.neutral_mouth_px(&sil, &mut s) - 48.0).abs() < 1e-6);
        assert_eq!(plain.neutral_mouth_px(&sil, &mut s), 0.0);
        // Without a mouth the silhouette scores as its polygons on either map.
        let solid = Silhouette {
            mouth: None,
            ..sil.clone()
        };
        let v = cup.score_silhouette(&solid, PointMm::default(), &mut s);
        assert!((v - body).abs() < 1e-6, "{v}");
    }

    #[test]
    fn held_pixels_are_counted_inside_a_silhouette_and_leave_the_score_alone() {
        // A 6 x 6 patch other pieces explain (weight 0 there, as the detector weighs it), at 4..10.
        let (w, h) = (20, 20);
        let held: Vec<bool> = (0..w * h)
            .map(|p| (4..10).contains(&(p % w)) && (4..10).contains(&(p / w)))
            .collect();
        let weights: Vec<f32> = held.iter().map(|&x| if x { 0.0 } else { 1.0 }).collect();
        let plain = WeightMap::new(w, h, PointMm::new(0.0, 0.0), 1.0, &weights);
        let ship = plain.clone().with_held(&held, 1.0);
        // Pixels 7..15 square: 3 x 3 of the held patch inside (pixels 7, 8, 9).
        let sil = Silhouette {
            polygons: vec![square(6.5, 6.5, 8.0)],
            mouth: None,
        };
        let mut s = ScoreScratch::default();
        assert!((ship.held_px(&sil, &mut s) - 9.0).abs() < 1e-6);
        assert_eq!(plain.held_px(&sil, &mut s), 0.0);
        let (a, b) = (
            plain.score_silhouette(&sil, PointMm::default(), &mut s),
            ship.score_silhouette(&sil, PointMm::default(), &mut s),
        );
        assert!((a - 55.0).abs() < 1e-6 && (a - b).abs() < 1e-9, "{a} {b}");
    }
}
