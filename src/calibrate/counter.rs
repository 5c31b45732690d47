//! The Octo-Counter read off the string: the bead sequence (blue / black) from the start (blue)
//! end, and the crab's position (how many beads lie on its start side).
//!
//! Conventions: the string is the ocean polygon (the cord's centre line, table frame, mm); arc
//! length `s` runs from vertex 0 in vertex order (`curve.rs`). The view is a table-plane rectified
//! frame (`rectify.rs`). Beads are 10 mm spheres threaded on the cord, their centres
//! [`BEAD_CENTRE_HEIGHT_MM`] above the table on the centre line; the crab stands on the string.
//!
//! How: along the string, every [`SAMPLE_STEP_MM`], three points at bead-centre height are looked
//! up — on the centre line and [`SIDE_OFFSET_MM`] to either side. A point inside a bead projects
//! onto that bead whatever the camera angle, so a bead shows its colour at all three, while the
//! 4 mm cord shows blue at the centre only. With a camera pose each 3D point is projected
//! exactly; without one (four-point calibration) the table point itself is used. The longest run
//! of beads and crab is the counter; colour changes split it into blocks, and each block gets
//! its share of the known number of beads by length. The start is the blue end of the run.

use super::colour::{self, ColourClass, WhiteBalance};
use super::curve::ClosedCurve;
use super::profile::{CounterLayout, Profile};
use super::rectify::Rectified;
use crate::games::crash_octopus::{Bead, BeadSequence};
use crate::table::{CounterReport, PointMm, PointMm3, PolygonMm};
use std::sync::Mutex;

/// The number of beads on the Octo-Counter (table.md).
pub const DEFAULT_BEAD_COUNT: usize = 16;
/// The default sequence, used only to pick a direction when both ends of the run look alike.
pub const DEFAULT_SEQUENCE: &str = "BBBKBBBKBBKBBKKK";
/// Bead diameter, and where its centre sits above the table.
pub const BEAD_DIAMETER_MM: f64 = 10.0;
pub const BEAD_CENTRE_HEIGHT_MM: f64 = 5.0;
/// Nominal bead-to-bead spacing when the count is unknown (touching or nearly).
const NOMINAL_PITCH_MM: f64 = 10.6;
/// Sampling along the string.
pub const SAMPLE_STEP_MM: f64 = 0.5;
/// The side samples, across the string: inside a bead, outside the 4 mm cord.
pub const SIDE_OFFSET_MM: f64 = 3.5;
/// A bead shows at all three samples only within this half-length of its centre
/// (sqrt(5^2 - 3.5^2)); beyond it only its centre sample is on it. The ends of a group of beads
/// are extended by the difference.
const BEAD_EDGE_MM: f64 = BEAD_DIAMETER_MM / 2.0 - 3.57;
/// Within the counter, stretches of anything else up to this long do not break the run (contact
/// points between beads, the cord showing next to the crab).
const MAX_INNER_GAP_MM: f64 = 12.0;
/// Same-colour samples further apart than this are not one block: a contact between two beads
/// shows as a dip of about 3 mm, a stray sample beside the crab lies further off.
const MAX_SAME_COLOUR_GAP_MM: f64 = 4.0;
/// A colour block shorter than this is noise: a bead shows over about 7 mm.
const MIN_BLOCK_MM: f64 = 3.0;
/// A counter shorter than this fraction of the expected length is not the counter.
const MIN_RUN_FRACTION: f64 = 0.6;
/// On the string line, anything darker than this fraction of the table beside it (and neither
/// blue nor red) is a black bead.
const CENTRE_DARK_REL: f64 = 0.6;
/// The string line's colour is the median of samples this far either side of it and on it.
const CENTRE_SPREAD_MM: f64 = 1.5;
/// A colour this far (in balanced chromaticity) from the table beside the string is not the
/// table (a neutral black bead on a brown table is no darker than the table's own shadows).
const NOT_TABLE_CHROMA: f64 = 0.08;
/// The table beside the string is looked at this far from its centre line (beyond a bead and
/// the crab's half-width).
const LOCAL_TABLE_OFFSET_MM: f64 = 16.0;
/// Around the profile's bead run, how far beyond its ends the crab may be looked for.
const CRAB_SEARCH_MARGIN_MM: f64 = 40.0;
/// Fewer crab samples than this (mm of string) is "no crab seen".
const MIN_CRAB_MM: f64 = 6.0;
/// How far beyond its read samples the crab's outline may read as nothing the counter knows
/// (neither bead, cord nor crab: its shaded rim, the shadow it casts on the string), mm. Those
/// samples are the crab's, so that the gap between it and the beads it stepped over is the
/// cord alone (see [`with_crab_rims`]).
const CRAB_RIM_MM: f64 = 5.0;
/// How far from the count the share of bead length gives [`known_split`] may move it, beads.
const KNOWN_SPLIT_REACH: usize = 1;
/// Colour blocks on each side of the crab [`known_split`] compares with the sequence.
const NEAR_BLOCKS: usize = 2;
/// How far a block's length may be off its beads' nominal length for [`known_split`], mm.
const MAX_BLOCK_OFF_MM: f64 = NOMINAL_PITCH_MM / 2.0;
/// A stretch of black and nothing samples at least this long holding a few black ones is a
/// black bead read dimly (see [`dim_bead`]).
const MIN_DIM_BEAD_MM: f64 = 6.0;
/// A block shorter than [`MIN_BLOCK_MM`] but at least this long, the last before the crab or
/// the first after it, may be a bead the crab hides (its lean, its shadow) and
/// [`known_split`] weighs it as one: a black bead next to the crab that reads as 1.5 mm of
/// black and 3.5 mm of nothing (`bench --seed 101`, scene 122).
const MIN_HIDDEN_BLOCK_MM: f64 = 1.0;

/// The counter could not be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CounterError {
    #[error("the ocean line is degenerate (fewer than 3 distinct points)")]
    NoString,
    #[error(
        "no bead run found on the string (longest run of beads {found_mm:.0} mm, expected about {expected_mm:.0} mm)"
    )]
    NoBeads { found_mm: f64, expected_mm: f64 },
    #[error("the crab was not found on the string next to the beads")]
    NoCrab,
}

/// What one sample along the string shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Label {
    Blue,
    Black,
    Crab,
    Cord,
    Nothing,
}

impl Label {
    fn is_counter(self) -> bool {
        matches!(self, Label::Blue | Label::Black | Label::Crab)
    }
    fn bead(self) -> Option<Bead> {
        match self {
            Label::Blue => Some(Bead::Blue),
            Label::Black => Some(Bead::Black),
            _ => None,
        }
    }
}

/// The counter as read from one view.
#[derive(Debug, Clone, PartialEq)]
pub struct CounterReading {
    pub beads: BeadSequence,
    /// Beads on the crab's start side.
    pub crab: usize,
    /// Bead centres as arc length along the string (vertex order), start to finish.
    pub bead_arc_mm: Vec<f64>,
    pub crab_arc_mm: f64,
    /// Whether start -> finish runs in the string's vertex order.
    pub forward: bool,
    /// False when both ends of the run have the same colour.
    pub start_certain: bool,
}

impl CounterReading {
    /// The profile's record of this reading on `string` (positions from the arcs).
    pub fn layout(&self, string: &PolygonMm) -> Option<CounterLayout> {
        let line = ClosedCurve::from_polygon(string)?;
        Some(CounterLayout {
            report: CounterReport::new(self.beads.clone(), self.crab),
            bead_positions_mm: self.bead_arc_mm.iter().map(|&s| line.point_at(s)).collect(),
            bead_arc_mm: self.bead_arc_mm.clone(),
            crab_arc_mm: Some(self.crab_arc_mm),
            crab_mm: Some(line.point_at(self.crab_arc_mm)),
            start_certain: self.start_certain,
        })
    }

    /// The same reading on the string with its vertex order reversed (vertex 0 kept): every
    /// arc `s` becomes `perimeter - s`.
    pub fn on_reversed_string(&self, perimeter_mm: f64) -> Self {
        let flip = |s: f64| (perimeter_mm - s).rem_euclid(perimeter_mm);
        Self {
            bead_arc_mm: self.bead_arc_mm.iter().map(|&s| flip(s)).collect(),
            crab_arc_mm: flip(self.crab_arc_mm),
            forward: !self.forward,
            ..self.clone()
        }
    }
}

/// Looks up colours of raised table points in a rectified view.
struct Sampler<'a> {
    view: &'a Rectified,
    profile: &'a Profile,
    wb: &'a WhiteBalance,
    memo: &'a SpotsMemo,
}

/// Where one sample along the string looks, as seen on the table plane (`None`: the camera
/// does not see it there): the table [`LOCAL_TABLE_OFFSET_MM`] to either side, three points
/// across the line [`CENTRE_SPREAD_MM`] apart and the two sides [`SIDE_OFFSET_MM`] out, these
/// five at bead-centre height.
#[derive(Debug, Clone, Copy)]
struct Spots {
    table: [Option<PointMm>; 2],
    centre: [Option<PointMm>; 3],
    sides: [Option<PointMm>; 2],
}

/// The spots of every sample along the string, kept across frames: they lie at the same table
/// points in every frame, and each costs a projection and an undistortion. A memo holds for the
/// one profile and string it was filled with.
#[derive(Debug, Default)]
pub struct SpotsMemo {
    spots: Mutex<Vec<Spots>>,
}

impl Spots {
    /// The spots of the sample at arc length `s` along `line`, as `profile`'s camera sees them.
    fn at(profile: &Profile, line: &ClosedCurve, s: f64) -> Self {
        let c = line.point_at(s);
        let n = line.normal_at(s, 2.0);
        let h = BEAD_CENTRE_HEIGHT_MM;
        let seen = |d: f64, height_mm: f64| seen_on_table(profile, c + n * d, height_mm);
        Spots {
            table: [LOCAL_TABLE_OFFSET_MM, -LOCAL_TABLE_OFFSET_MM].map(|d| seen(d, 0.0)),
            centre: [-CENTRE_SPREAD_MM, 0.0, CENTRE_SPREAD_MM].map(|d| seen(d, h)),
            sides: [SIDE_OFFSET_MM, -SIDE_OFFSET_MM].map(|d| seen(d, h)),
        }
    }
}

/// Table point `p` seen from `height_mm` above it, on the table plane (itself without a camera
/// pose).
fn seen_on_table(profile: &Profile, p: PointMm, height_mm: f64) -> Option<PointMm> {
    match &profile.camera {
        Some(cam) => {
            let px = cam.project(PointMm3::above(p, height_mm))?;
            profile.px_to_mm(px)
        }
        None => Some(p),
    }
}

impl SpotsMemo {
    /// The memo of `profile`'s counter along `string`, filled now (an empty one fills on its
    /// first reading).
    pub fn of_string(profile: &Profile, string: &PolygonMm) -> Self {
        let spots = ClosedCurve::from_polygon(string)
            .map(|line| sample_spots(profile, &line))
            .unwrap_or_default();
        Self {
            spots: Mutex::new(spots),
        }
    }
}

/// The spots of every sample along `line`, [`SAMPLE_STEP_MM`] apart from arc length 0.
fn sample_spots(profile: &Profile, line: &ClosedCurve) -> Vec<Spots> {
    let n = (line.perimeter() / SAMPLE_STEP_MM).floor() as usize;
    (0..n)
        .map(|i| Spots::at(profile, line, i as f64 * SAMPLE_STEP_MM))
        .collect()
}

/// The table just beside the string: what "looks like the table" means at this spot.
#[derive(Debug, Clone, Copy)]
struct LocalTable {
    bgr: [f64; 3],
    /// Its brightness relative to the whole view's table (shadows make it lower).
    level: f64,
}

impl Sampler<'_> {
    fn bgr_at(&self, seen: Option<PointMm>) -> Option<[f64; 3]> {
        let q = self.view.grid.mm_to_px(seen?);
        colour::sample_bgr(&self.view.image, q.x, q.y)
    }

    /// The table beside the string: the brighter of the two table spots that are not blue (the
    /// whole view's table when neither is usable).
    fn local_table(&self, spots: &Spots) -> LocalTable {
        let mut best: Option<LocalTable> = None;
        for seen in spots.table {
            let Some(bgr) = self.bgr_at(seen) else {
                continue;
            };
            if self.wb.blueness(bgr) > colour::BLUE_MIN {
                continue;
            }
            let level = self.wb.relative_brightness(bgr);
            if best.is_none_or(|b| level > b.level) {
                best = Some(LocalTable { bgr, level });
            }
        }
        best.map(|b| LocalTable {
            level: b.level.min(1.0),
            ..b
        })
        .unwrap_or(LocalTable {
            bgr: self.wb.table_bgr,
            level: 1.0,
        })
    }

    /// Blue (cord, blue bead), red (crab), black (a black bead: not blue or red, and unlike the
    /// table beside it, by its hue or by being clearly darker), or table.
    fn class_of(&self, bgr: [f64; 3], table: &LocalTable) -> ColourClass {
        match self.wb.classify(bgr) {
            ColourClass::Blue => ColourClass::Blue,
            ColourClass::Red if self.wb.chroma_distance(bgr, table.bgr) > NOT_TABLE_CHROMA => {
                ColourClass::Red
            }
            _ if self.wb.relative_brightness(bgr) < CENTRE_DARK_REL * table.level
                || self.wb.chroma_distance(bgr, table.bgr) > NOT_TABLE_CHROMA =>
            {
                ColourClass::Black
            }
            _ => ColourClass::Table,
        }
    }

    fn class_at(&self, seen: Option<PointMm>, table: &LocalTable) -> Option<ColourClass> {
        Some(self.class_of(self.bgr_at(seen)?, table))
    }

    /// The colour on the string line: the per-channel median of the three centre spots, so
    /// that one specular highlight or a stray pixel does not decide.
    fn centre_class(&self, spots: &Spots, table: &LocalTable) -> Option<ColourClass> {
        let samples: Vec<[f64; 3]> = spots
            .centre
            .iter()
            .filter_map(|&seen| self.bgr_at(seen))
            .collect();
        if samples.is_empty() {
            return None;
        }
        let mut median = [0.0; 3];
        for (ch, m) in median.iter_mut().enumerate() {
            let mut v: Vec<f64> = samples.iter().map(|s| s[ch]).collect();
            v.sort_by(f64::total_cmp);
            *m = v[v.len() / 2];
        }
        Some(self.class_of(median, table))
    }

    fn label_of(&self, spots: &Spots) -> Label {
        let table = self.local_table(spots);
        let centre = self.centre_class(spots, &table);
        let left = self.class_at(spots.sides[0], &table);
        let right = self.class_at(spots.sides[1], &table);
        let both = |k: ColourClass| left == Some(k) && right == Some(k);
        match centre {
            Some(ColourClass::Red) if left == Some(ColourClass::Red) || right == Some(ColourClass::Red) => {
                Label::Crab
            }
            Some(ColourClass::Black) if both(ColourClass::Black) => Label::Black,
            Some(ColourClass::Blue) if both(ColourClass::Blue) => Label::Blue,
            Some(ColourClass::Blue) => Label::Cord,
            _ => Label::Nothing,
        }
    }

    fn label_at(&self, line: &ClosedCurve, s: f64) -> Label {
        self.label_of(&Spots::at(self.profile, line, s))
    }
}

/// A stretch of samples `[start, end)` (sample indices, may exceed n to wrap).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Span {
    start: usize,
    end: usize,
}

impl Span {
    fn len(&self) -> usize {
        self.end - self.start
    }
}

/// The labels along the whole string, one per [`SAMPLE_STEP_MM`].
fn labels(sampler: &Sampler, line: &ClosedCurve) -> Vec<Label> {
    let n = (line.perimeter() / SAMPLE_STEP_MM).floor() as usize;
    // A poisoned memo still holds only whole lists.
    let mut memo = sampler.memo.spots.lock().unwrap_or_else(|e| e.into_inner());
    if memo.len() != n {
        *memo = sample_spots(sampler.profile, line);
    }
    memo.iter().map(|spots| sampler.label_of(spots)).collect()
}

/// `labels` (circular, as the string) with the [`Label::Nothing`] samples that run on from a
/// crab sample, up to [`CRAB_RIM_MM`], read as the crab: what the counter's run is found on.
/// Unread, the crab's rims and the cord between it and the beads behind it made a gap wider
/// than [`MAX_INNER_GAP_MM`]: the run then began at the crab, and a crab four beads along was
/// read at the start.
fn with_crab_rims(labels: &[Label]) -> Vec<Label> {
    let n = labels.len();
    let reach = (CRAB_RIM_MM / SAMPLE_STEP_MM).round() as usize;
    let mut out = labels.to_vec();
    for (i, _) in labels.iter().enumerate().filter(|&(_, &l)| l == Label::Crab) {
        // Outwards from the crab sample, either way round the string (n - 1 steps on is one
        // step back), while nothing is read.
        for toward in [1, n.saturating_sub(1)] {
            for d in 1..=reach.min(n) {
                let j = (i + d * toward) % n;
                if labels[j] != Label::Nothing {
                    break;
                }
                out[j] = Label::Crab;
            }
        }
    }
    out
}

/// Circular stretches of `is_in` labels, merged across gaps of at most `max_gap` samples.
fn merged_runs(labels: &[Label], is_in: impl Fn(Label) -> bool, max_gap: usize) -> Vec<Span> {
    let n = labels.len();
    let Some(first_out) = labels.iter().position(|&l| !is_in(l)) else {
        return vec![Span { start: 0, end: n }];
    };
    // Walk once around, starting just after a sample that is out.
    let mut runs: Vec<Span> = Vec::new();
    let mut i = first_out + 1;
    let end = first_out + 1 + n;
    while i < end {
        if is_in(labels[i % n]) {
            let start = i;
            while i < end && is_in(labels[i % n]) {
                i += 1;
            }
            runs.push(Span { start, end: i });
        } else {
            i += 1;
        }
    }
    let mut merged: Vec<Span> = Vec::new();
    for r in runs {
        match merged.last_mut() {
            Some(m) if r.start - m.end <= max_gap => m.end = r.end,
            _ => merged.push(r),
        }
    }
    if merged.len() > 1 {
        let (first, last) = (merged[0], merged[merged.len() - 1]);
        if first.start + n - last.end <= max_gap {
            let joined = Span {
                start: last.start,
                end: first.end + n,
            };
            merged.pop();
            merged[0] = joined;
        }
    }
    merged
}

/// One colour block of beads: `[start_mm, end_mm)` along the run (relative to the run start).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Block {
    bead: Bead,
    start_mm: f64,
    end_mm: f64,
    count: usize,
    /// Shorter than [`MIN_BLOCK_MM`]: kept only as a bead the crab may hide
    /// ([`MIN_HIDDEN_BLOCK_MM`]).
    hidden: bool,
}

/// Whether bead samples at `from..=last` and at `next` may be one bead's: no more than a bead
/// diameter apart end to end, with nothing between them but samples that read as nothing (no
/// cord, no other bead). A black bead's lit top reads as neither black nor table, and splits
/// its samples into two short stretches either side of it.
fn one_bead_apart(run_labels: &[Label], from: usize, last: usize, next: usize) -> bool {
    (next + 1 - from) as f64 * SAMPLE_STEP_MM <= BEAD_DIAMETER_MM
        && run_labels
            .get(last + 1..next)
            .is_some_and(|between| between.iter().all(|&l| l == Label::Nothing))
}

/// The stretch `[lo, hi]` of black and nothing samples around black samples `from..=last`
/// (within `[a, b)`), when it is bead-sized (at least [`MIN_DIM_BEAD_MM`]).
fn dim_bead(run_labels: &[Label], a: usize, b: usize, from: usize, last: usize) -> Option<(usize, usize)> {
    let dark = |i: usize| matches!(run_labels.get(i), Some(Label::Black | Label::Nothing));
    let mut lo = from;
    while lo > a && dark(lo - 1) {
        lo -= 1;
    }
    let mut hi = last;
    while hi + 1 < b && dark(hi + 1) {
        hi += 1;
    }
    // Bounded by the cord or a bead on both sides: beside the crab, its shaded rim reads as
    // nothing, and a stray black sample there is no bead.
    (lo > a && hi + 1 < b && (hi + 1 - lo) as f64 * SAMPLE_STEP_MM >= MIN_DIM_BEAD_MM).then_some((lo, hi))
}

/// Which end of a group of bead labels touches the crab.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CrabEnd {
    /// The group lies before the crab: its last block is next to it.
    Last,
    /// The group lies after the crab: its first block is next to it.
    First,
}

/// Splits a group of bead labels (run-relative indices `[a, b)`) into colour blocks with
/// boundaries midway between colour changes; the outer ends are extended to the beads' edges.
/// Blocks shorter than [`MIN_BLOCK_MM`] are dropped, but for one at the `hidden_at` end of at
/// least [`MIN_HIDDEN_BLOCK_MM`], kept as [`Block::hidden`].
fn blocks(run_labels: &[Label], a: usize, b: usize, hidden_at: Option<CrabEnd>) -> Vec<Block> {
    let mut marks: Vec<(usize, Bead)> = Vec::new();
    for (i, l) in run_labels.iter().enumerate().take(b).skip(a) {
        if let Some(bead) = l.bead() {
            marks.push((i, bead));
        }
    }
    let mut out: Vec<Block> = Vec::new();
    let mut k = 0;
    let mut first = true;
    while k < marks.len() {
        let bead = marks[k].1;
        let from = marks[k].0;
        let mut last = from;
        while k < marks.len()
            && marks[k].1 == bead
            && ((marks[k].0 - last) as f64 * SAMPLE_STEP_MM <= MAX_SAME_COLOUR_GAP_MM
                || one_bead_apart(run_labels, from, last, marks[k].0))
        {
            last = marks[k].0;
            k += 1;
        }
        let at_crab = match hidden_at {
            Some(CrabEnd::First) => first,
            Some(CrabEnd::Last) => k == marks.len(),
            None => false,
        };
        first = false;
        let len = (last + 1 - from) as f64 * SAMPLE_STEP_MM;
        let dim = (bead == Bead::Black && len < MIN_BLOCK_MM)
            .then(|| dim_bead(run_labels, a, b, from, last))
            .flatten();
        // A dim bead spans its whole dark stretch.
        let (lo, hi) = dim.unwrap_or((from, last));
        let block = Block {
            bead,
            start_mm: lo as f64 * SAMPLE_STEP_MM,
            end_mm: (hi + 1) as f64 * SAMPLE_STEP_MM,
            count: 0,
            hidden: len < MIN_BLOCK_MM && dim.is_none(),
        };
        // A few stray samples (the crab's blurred edge over the cord) are not a bead.
        if len >= MIN_BLOCK_MM || dim.is_some() || (at_crab && len >= MIN_HIDDEN_BLOCK_MM) {
            match out.last_mut() {
                Some(prev) if prev.bead == bead => prev.end_mm = block.end_mm,
                _ => out.push(block),
            }
        }
    }
    for j in 1..out.len() {
        let mid = (out[j - 1].end_mm + out[j].start_mm) / 2.0;
        out[j - 1].end_mm = mid;
        out[j].start_mm = mid;
    }
    if let Some(f) = out.first_mut() {
        f.start_mm -= BEAD_EDGE_MM;
    }
    if let Some(l) = out.last_mut() {
        l.end_mm += BEAD_EDGE_MM;
    }
    out
}

/// How many beads lie before the crab, from the sequence the beads are `known` to follow (start
/// to finish, the run's order) rather than from the share of bead length before it alone:
/// among the counts within [`KNOWN_SPLIT_REACH`] of that share's `estimate`, those whose colour
/// runs nearest the crab ([`NEAR_BLOCKS`] on each side) are the blocks seen there, in colour and
/// each within [`MAX_BLOCK_OFF_MM`] of its beads' nominal length, the one off least in all.
/// Only the blocks near the crab are asked: the far ends of the run may be cut short (the last
/// black beads unread). `None` when no count shows them (a bead next to the crab unread), and
/// the share stands. Shared by length, a crab five beads along (`BBBK B | BB K ...`) whose first
/// stretch read long was counted at six, and one two along whose run lost its last blacks at
/// three. A [`Block::hidden`] block next to the crab matches a colour run of its colour whatever
/// its length up to the run's nominal one (the crab hides the rest) and is off by what it
/// exceeds that alone.
fn known_split(before: &[Block], after: &[Block], known: &[Bead], estimate: usize) -> Option<usize> {
    // How far `blocks` are off `runs`, both from the crab outwards; `None` unless they match.
    let off = |blocks: Vec<&Block>, runs: Vec<(Bead, usize)>| {
        if blocks.is_empty() != runs.is_empty() {
            return None;
        }
        let mut total = 0.0;
        for (b, r) in blocks.iter().zip(&runs).take(NEAR_BLOCKS) {
            let excess = b.end_mm - b.start_mm - r.1 as f64 * NOMINAL_PITCH_MM;
            let off = if b.hidden { excess.max(0.0) } else { excess.abs() };
            if b.bead != r.0 || off > MAX_BLOCK_OFF_MM {
                return None;
            }
            total += off;
        }
        Some(total)
    };
    let lo = estimate.saturating_sub(KNOWN_SPLIT_REACH);
    let hi = (estimate + KNOWN_SPLIT_REACH).min(known.len());
    (lo..=hi)
        .filter_map(|k| {
            let mut behind = colour_runs(&known[..k]);
            behind.reverse();
            let ahead = colour_runs(&known[k..]);
            Some((
                k,
                off(before.iter().rev().collect(), behind)? + off(after.iter().collect(), ahead)?,
            ))
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(k, _)| k)
}

/// `beads` as runs of one colour: each run's colour and length, in order.
fn colour_runs(beads: &[Bead]) -> Vec<(Bead, usize)> {
    let mut runs: Vec<(Bead, usize)> = Vec::new();
    for &b in beads {
        match runs.last_mut() {
            Some(r) if r.0 == b => r.1 += 1,
            _ => runs.push((b, 1)),
        }
    }
    runs
}

/// Shares `total` beads among blocks in proportion to their lengths (largest remainder), at
/// least one each when there are enough beads.
fn allocate(blocks: &mut [Block], total: usize) {
    if blocks.is_empty() {
        return;
    }
    let length: f64 = blocks.iter().map(|b| b.end_mm - b.start_mm).sum();
    let pitch = length / total.max(1) as f64;
    let exact: Vec<f64> = blocks
        .iter()
        .map(|b| (b.end_mm - b.start_mm) / pitch.max(1e-9))
        .collect();
    for (b, e) in blocks.iter_mut().zip(&exact) {
        b.count = (e.floor() as usize).max(usize::from(total >= exact.len()));
    }
    loop {
        let sum: usize = blocks.iter().map(|b| b.count).sum();
        if sum == total {
            break;
        }
        if sum < total {
            // Give one to the block furthest below its share.
            let (i, _) = blocks
                .iter()
                .zip(&exact)
                .enumerate()
                .map(|(i, (b, e))| (i, e - b.count as f64))
                .fold((0, f64::NEG_INFINITY), |acc, x| if x.1 > acc.1 { x } else { acc });
            blocks[i].count += 1;
        } else {
            // Take one from the block furthest above its share that can spare it.
            let pick = blocks
                .iter()
                .zip(&exact)
                .enumerate()
                .filter(|(_, (b, _))| b.count > 1)
                .map(|(i, (b, e))| (i, b.count as f64 - e))
                .fold(None, |acc: Option<(usize, f64)>, x| match acc {
                    Some(a) if a.1 >= x.1 => Some(a),
                    _ => Some(x),
                });
            match pick {
                Some((i, _)) => blocks[i].count -= 1,
                None => break,
            }
        }
    }
}

/// Reads the beads and the crab along `string` in a table-plane rectified view of the set-up.
/// `bead_count` is how many beads the counter has (16 in the box).
pub fn read_counter(
    view: &Rectified,
    string: &PolygonMm,
    profile: &Profile,
    wb: &WhiteBalance,
    bead_count: usize,
) -> Result<CounterReading, CounterError> {
    read_counter_remembering(view, string, profile, wb, bead_count, None, &SpotsMemo::default())
}

/// As [`read_counter`], with where the samples look remembered in `memo` (for this `profile`
/// and `string`), and the sequence the beads are known to follow along `string`, start to
/// finish, when it is known (see [`known_split`]).
fn read_counter_remembering(
    view: &Rectified,
    string: &PolygonMm,
    profile: &Profile,
    wb: &WhiteBalance,
    bead_count: usize,
    known: Option<&BeadSequence>,
    memo: &SpotsMemo,
) -> Result<CounterReading, CounterError> {
    let line = ClosedCurve::from_polygon(string).ok_or(CounterError::NoString)?;
    let sampler = Sampler {
        view,
        profile,
        wb,
        memo,
    };
    let labels = labels(&sampler, &line);
    let n = labels.len();
    if n == 0 {
        return Err(CounterError::NoString);
    }
    let gap = (MAX_INNER_GAP_MM / SAMPLE_STEP_MM) as usize;
    // The run is found with the crab's rims read as the crab; the crab and the beads are then
    // read on the samples as they are (the rims would move the crab's middle towards its
    // shadow).
    let runs = merged_runs(&with_crab_rims(&labels), Label::is_counter, gap);
    let expected_mm = bead_count as f64 * NOMINAL_PITCH_MM;
    let run = runs
        .iter()
        .copied()
        .max_by_key(|r| r.len())
        .filter(|r| r.len() as f64 * SAMPLE_STEP_MM >= MIN_RUN_FRACTION * expected_mm)
        .ok_or(CounterError::NoBeads {
            found_mm: runs.iter().map(|r| r.len()).max().unwrap_or(0) as f64 * SAMPLE_STEP_MM,
            expected_mm,
        })?;
    let run_labels: Vec<Label> = (run.start..run.end).map(|i| labels[i % n]).collect();
    let run_start_mm = run.start as f64 * SAMPLE_STEP_MM;

    // The crab: the longest stretch of crab samples inside the run.
    let crab_runs = merged_runs_linear(&run_labels, |l| l == Label::Crab, 2);
    let crab = crab_runs
        .iter()
        .copied()
        .max_by_key(|r| r.len())
        .filter(|r| r.len() as f64 * SAMPLE_STEP_MM >= MIN_CRAB_MM)
        .ok_or(CounterError::NoCrab)?;
    let mut before = blocks(&run_labels, 0, crab.start, None);
    let mut after = blocks(&run_labels, crab.end, run_labels.len(), None);
    let len_before: f64 = before.iter().map(|b| b.end_mm - b.start_mm).sum();
    let len_after: f64 = after.iter().map(|b| b.end_mm - b.start_mm).sum();
    let total_len = len_before + len_after;
    if total_len <= 0.0 {
        return Err(CounterError::NoBeads {
            found_mm: 0.0,
            expected_mm,
        });
    }
    let count = if bead_count > 0 {
        bead_count
    } else {
        ((total_len / NOMINAL_PITCH_MM).round() as usize).max(1)
    };
    let mut n_before = ((len_before / total_len) * count as f64).round() as usize;
    n_before = n_before
        .max(usize::from(!before.is_empty()))
        .min(count - usize::from(!after.is_empty()));
    if let Some(seq) = known.filter(|seq| seq.0.len() == count) {
        // A bead the crab may hide is what the sequence is asked about first: the counts it
        // allows explain what was seen next to the crab, and its blocks are shared out.
        let before_hidden = blocks(&run_labels, 0, crab.start, Some(CrabEnd::Last));
        let after_hidden = blocks(&run_labels, crab.end, run_labels.len(), Some(CrabEnd::First));
        let hidden_seen = before_hidden != before || after_hidden != after;
        if let Some(k) = known_split(&before_hidden, &after_hidden, &seq.0, n_before).filter(|_| hidden_seen)
        {
            n_before = k;
            (before, after) = (before_hidden, after_hidden);
        } else if let Some(k) = known_split(&before, &after, &seq.0, n_before) {
            n_before = k;
        }
    }
    allocate(&mut before, n_before);
    allocate(&mut after, count - n_before);

    // Beads in run order, with their centres.
    let mut seq: Vec<(Bead, f64)> = Vec::with_capacity(count);
    for b in before.iter().chain(after.iter()) {
        let w = (b.end_mm - b.start_mm) / b.count.max(1) as f64;
        for k in 0..b.count {
            seq.push((b.bead, run_start_mm + b.start_mm + (k as f64 + 0.5) * w));
        }
    }
    let crab_mid = run_start_mm + (crab.start + crab.end) as f64 / 2.0 * SAMPLE_STEP_MM;
    let first = seq.first().map(|b| b.0);
    let last = seq.last().map(|b| b.0);
    let start_certain = first != last;
    let forward = match (first, last) {
        (Some(Bead::Blue), Some(Bead::Black)) => true,
        (Some(Bead::Black), Some(Bead::Blue)) => false,
        _ => {
            // Same colour at both ends: prefer the direction that reads closer to the default.
            let reference: BeadSequence = DEFAULT_SEQUENCE.parse().unwrap_or_default();
            let fwd: Vec<Bead> = seq.iter().map(|b| b.0).collect();
            let mut back = fwd.clone();
            back.reverse();
            let score = |v: &[Bead]| v.iter().zip(&reference.0).filter(|(a, b)| a == b).count();
            score(&fwd) >= score(&back)
        }
    };
    let crab_count = if forward { n_before } else { count - n_before };
    if !forward {
        seq.reverse();
    }
    Ok(CounterReading {
        beads: BeadSequence(seq.iter().map(|b| b.0).collect()),
        crab: crab_count,
        bead_arc_mm: seq.iter().map(|b| line.wrap(b.1)).collect(),
        crab_arc_mm: line.wrap(crab_mid),
        forward,
        start_certain,
    })
}

/// Stretches of `is_in` in a linear (not circular) sequence, merged across short gaps.
fn merged_runs_linear(labels: &[Label], is_in: impl Fn(Label) -> bool, max_gap: usize) -> Vec<Span> {
    let mut out: Vec<Span> = Vec::new();
    let mut i = 0;
    while i < labels.len() {
        if is_in(labels[i]) {
            let start = i;
            while i < labels.len() && is_in(labels[i]) {
                i += 1;
            }
            match out.last_mut() {
                Some(m) if start - m.end <= max_gap => m.end = i,
                _ => out.push(Span { start, end: i }),
            }
        } else {
            i += 1;
        }
    }
    out
}

/// Where the crab stands now, given the counter's layout from the profile. The counter is read
/// afresh (the crab's move shifts the beads it passed), with the profile's bead count and
/// direction; when the run cannot be read (a hand or a piece over it), the crab alone is looked
/// for around the profile's beads and counted against their profile positions.
/// `string` must be the profile's ocean polygon, whose vertex order runs from start to finish.
pub fn locate_crab(
    view: &Rectified,
    string: &PolygonMm,
    profile: &Profile,
    wb: &WhiteBalance,
    layout: &CounterLayout,
) -> Result<CounterReport, CounterError> {
    locate_crab_on_string(view, string, profile, wb, layout, &SpotsMemo::default()).map(|p| p.report)
}

/// Where [`locate_crab`] found the crab: the counter's report and the crab's centre along the
/// string.
#[derive(Debug, Clone, PartialEq)]
pub struct CrabPlace {
    pub report: CounterReport,
    /// The crab's centre as arc length along the string (vertex order, modulo the perimeter).
    pub crab_arc_mm: f64,
}

/// As [`locate_crab`], with the crab's place along the string; where the samples are seen is
/// remembered in `memo`, which must have been filled with this `profile` and `string` only.
pub fn locate_crab_on_string(
    view: &Rectified,
    string: &PolygonMm,
    profile: &Profile,
    wb: &WhiteBalance,
    layout: &CounterLayout,
    memo: &SpotsMemo,
) -> Result<CrabPlace, CounterError> {
    let count = layout.report.beads.len();
    let known = Some(&layout.report.beads);
    if let Ok(reading) = read_counter_remembering(view, string, profile, wb, count, known, memo) {
        // The profile's polygon runs start -> finish, so a reading that runs the other way
        // counted its crab from the finish.
        let crab = if reading.forward {
            reading.crab
        } else {
            count - reading.crab
        };
        return Ok(CrabPlace {
            report: CounterReport::new(layout.report.beads.clone(), crab),
            crab_arc_mm: reading.crab_arc_mm,
        });
    }
    let line = ClosedCurve::from_polygon(string).ok_or(CounterError::NoString)?;
    let (Some(&first), Some(&last)) = (layout.bead_arc_mm.first(), layout.bead_arc_mm.last()) else {
        return Err(CounterError::NoBeads {
            found_mm: 0.0,
            expected_mm: 0.0,
        });
    };
    let span = line.wrap(last - first);
    let from = first - CRAB_SEARCH_MARGIN_MM;
    let n = ((span + 2.0 * CRAB_SEARCH_MARGIN_MM) / SAMPLE_STEP_MM) as usize;
    let sampler = Sampler {
        view,
        profile,
        wb,
        memo,
    };
    let labels: Vec<Label> = (0..n)
        .map(|i| sampler.label_at(&line, from + i as f64 * SAMPLE_STEP_MM))
        .collect();
    let crab = merged_runs_linear(&labels, |l| l == Label::Crab, 2)
        .into_iter()
        .max_by_key(|r| r.len())
        .filter(|r| r.len() as f64 * SAMPLE_STEP_MM >= MIN_CRAB_MM)
        .ok_or(CounterError::NoCrab)?;
    let crab_rel = (crab.start + crab.end) as f64 / 2.0 * SAMPLE_STEP_MM - CRAB_SEARCH_MARGIN_MM;
    let behind = layout
        .bead_arc_mm
        .iter()
        .filter(|&&s| line.wrap(s - first) < crab_rel)
        .count();
    Ok(CrabPlace {
        report: CounterReport::new(layout.report.beads.clone(), behind),
        crab_arc_mm: line.wrap(first + crab_rel),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(bead: Bead, a: f64, b: f64) -> Block {
        Block {
            bead,
            start_mm: a,
            end_mm: b,
            count: 0,
            hidden: false,
        }
    }

    #[test]
    fn beads_are_shared_by_length() {
        // BBB K BBB K BB K BB KKK at a 10.5 mm pitch.
        let lens = [3, 1, 3, 1, 2, 1, 2, 3];
        let mut s = 0.0;
        let mut v: Vec<Block> = lens
            .iter()
            .enumerate()
            .map(|(i, &k)| {
                let bead = if i % 2 == 0 { Bead::Blue } else { Bead::Black };
                let b = block(bead, s, s + k as f64 * 10.5 + if i == 0 { 0.8 } else { -0.4 });
                s = b.end_mm;
                b
            })
            .collect();
        allocate(&mut v, 16);
        let got: Vec<usize> = v.iter().map(|b| b.count).collect();
        assert_eq!(got, lens);
    }

    #[test]
    fn runs_merge_across_short_gaps_and_wrap() {
        use Label::*;
        let l = [
            Blue, Blue, Nothing, Blue, Nothing, Nothing, Nothing, Black, Black, Nothing,
        ];
        let r = merged_runs(&l, Label::is_counter, 1);
        // [7, 9) and [0, 4) join across the wrap (one Nothing at index 9).
        assert!(r.contains(&Span { start: 7, end: 14 }), "{r:?}");
    }

    #[test]
    fn the_known_sequence_counts_the_beads_before_the_crab_by_their_blocks() {
        use Bead::{Black as K, Blue as B};
        let known: BeadSequence = DEFAULT_SEQUENCE.parse().unwrap();
        // Scene 126 of `octoref bench --seed 101`, third frame (run mm): BBBK B, the crab,
        // BB K BB K BB K KK, the last blacks partly unread. By length, 5.5 of 16 beads lie
        // before the crab; by the sequence's blocks, 5.
        let before = [block(B, -1.0, 32.0), block(K, 32.0, 41.0), block(B, 41.0, 52.0)];
        let after = [
            block(B, 84.0, 106.0),
            block(K, 106.0, 114.0),
            block(B, 114.0, 137.0),
            block(K, 137.0, 146.0),
            block(B, 146.0, 169.0),
            block(K, 169.0, 187.0),
        ];
        assert_eq!(known_split(&before, &after, &known.0, 6), Some(5));
        // Only counts near the length's estimate are looked at.
        assert_eq!(known_split(&before, &after, &known.0, 3), None);
        // Blocks no count of the sequence shows (a black bead unread) leave the estimate be.
        let unread = [block(B, -1.0, 32.0), block(B, 41.0, 52.0)];
        assert_eq!(known_split(&unread, &after, &known.0, 5), None);
        assert_eq!(colour_runs(&known.0[..5]), vec![(B, 3), (K, 1), (B, 1)]);
        // Scene 327 of `octoref bench --seed 301`, second frame: BB, the crab, B K BBB K ...,
        // the run cut short after 11 of the 14 beads ahead (a black bead read as 1 mm dropped,
        // the last blacks unread). By length, 2.8 beads lie before the crab; by the blocks
        // next to it, 2 (three blues before it would be 32 mm, not 24).
        let before = [block(B, -1.0, 23.0)];
        let after = [
            block(B, 50.0, 64.0),
            block(K, 64.0, 72.0),
            block(B, 72.0, 106.0),
            block(K, 106.0, 112.0),
            block(B, 112.0, 166.0),
        ];
        assert_eq!(known_split(&before, &after, &known.0, 3), Some(2));
    }

    #[test]
    fn a_black_bead_read_dimly_is_a_block_and_a_stray_sample_beside_the_crab_is_not() {
        use Bead::{Black as K, Blue as B};
        let colours = |l: &[Label], hidden_at| {
            blocks(l, 0, l.len(), hidden_at)
                .iter()
                .map(|b| (b.bead, b.hidden))
                .collect::<Vec<_>>()
        };
        let blue = "b".repeat(18);
        // Scene 325 of `bench --seed 301`: two 1.5 mm stretches either side of the lit top.
        let split = read(&format!("{blue}---kkk........kkk..----{blue}"));
        assert_eq!(colours(&split, None), vec![(B, false), (K, false), (B, false)]);
        // Scene 606 of `bench --seed 601`: 2.5 mm of black in a bead-long stretch of nothing.
        let dim = read(&format!("{blue}---............kkkkk..---{blue}"));
        assert_eq!(colours(&dim, None), vec![(B, false), (K, false), (B, false)]);
        // Beside the crab (the group's end), a stray black sample in its shaded rim is no bead...
        let rim = read(&format!("{blue}---...........k"));
        assert_eq!(colours(&rim, None), vec![(B, false)]);
        // ...unless the sequence is asked whether the crab hides a bead there.
        let hidden = read(&format!("{blue}-------kkk.......-------..."));
        assert_eq!(colours(&hidden, None), vec![(B, false)]);
        assert_eq!(colours(&hidden, Some(CrabEnd::Last)), vec![(B, false), (K, true)]);
    }

    #[test]
    fn a_bead_the_crab_hides_matches_the_sequence_whatever_it_shows_of_it() {
        use Bead::{Black as K, Blue as B};
        let known: BeadSequence = DEFAULT_SEQUENCE.parse().unwrap();
        // Scene 122 of `bench --seed 101`, third frame: BBB, a black bead read as 1.5 mm, the
        // crab, then BBB K BB K BB KKK. Without the black bead no count fits; with it, 4.
        let after = [
            block(B, 70.0, 104.0),
            block(K, 104.0, 113.0),
            block(B, 113.0, 136.0),
            block(K, 136.0, 144.0),
            block(B, 144.0, 170.0),
            block(K, 170.0, 195.0),
        ];
        let before = [block(B, -1.4, 31.8)];
        assert_eq!(known_split(&before, &after, &known.0, 3), None);
        let hidden = Block {
            hidden: true,
            ..block(K, 31.8, 36.7)
        };
        let before = [block(B, -1.4, 31.8), hidden];
        assert_eq!(known_split(&before, &after, &known.0, 3), Some(4));
        // Seen whole, a block that short is no black bead.
        let seen = [block(B, -1.4, 31.8), block(K, 31.8, 36.7)];
        assert_eq!(known_split(&seen, &after, &known.0, 3), None);
    }

    /// `b`, `k`, `X`, `-`, `.`: blue, black, crab, cord, nothing.
    fn read(s: &str) -> Vec<Label> {
        s.chars()
            .map(|c| match c {
                'b' => Label::Blue,
                'k' => Label::Black,
                'X' => Label::Crab,
                '-' => Label::Cord,
                _ => Label::Nothing,
            })
            .collect()
    }

    #[test]
    fn the_crabs_rims_are_the_crabs_up_to_their_reach_and_no_further() {
        let reach = (CRAB_RIM_MM / SAMPLE_STEP_MM).round() as usize;
        let far = ".".repeat(reach + 3);
        let l = read(&format!("k..-{far}XXXX{far}-b"));
        let rimmed = with_crab_rims(&l);
        let crab = rimmed.iter().filter(|&&c| c == Label::Crab).count();
        assert_eq!(crab, 4 + 2 * reach);
        // Beyond the reach, and past the cord, nothing is the crab's.
        assert_eq!(&rimmed[..4], &l[..4]);
        assert_eq!(rimmed.last(), Some(&Label::Blue));
        // Round the end of the (circular) string too.
        let round = with_crab_rims(&read("XX...-bbbb-..."));
        assert_eq!(round, read("XXXXX-bbbb-XXX"));
    }

    #[test]
    fn a_crab_a_cord_apart_from_the_beads_behind_it_stays_in_the_counters_run() {
        // Scene 9 of the bench, second frame (each sample half a millimetre): a black bead, a
        // cord's length, the crab's shaded rim, the crab, its other rim, the beads ahead.
        let behind = format!(
            "{}-------{}....{}{}",
            "b".repeat(20),
            "k".repeat(16),
            "-".repeat(13),
            ".".repeat(8)
        );
        let ahead = format!("{}-------{}{}", ".".repeat(7), "b".repeat(40), "-".repeat(30));
        let l = read(&format!("{}{behind}{}{ahead}", "-".repeat(30), "X".repeat(30)));
        let gap = (MAX_INNER_GAP_MM / SAMPLE_STEP_MM) as usize;
        let longest = |runs: Vec<Span>| runs.into_iter().max_by_key(Span::len).unwrap();
        // As read, the run began at the crab; with its rims, it holds the beads behind it.
        assert_eq!(
            longest(merged_runs(&l, Label::is_counter, gap)).start,
            30 + behind.len()
        );
        assert_eq!(
            longest(merged_runs(&with_crab_rims(&l), Label::is_counter, gap)).start,
            30
        );
    }
}
