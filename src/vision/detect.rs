//! Which pieces explain a region's changed pixels, and where they stand.
//!
//! Every catalog entry is a [`Model`]: its solid, its colours, how its footprint may turn. In a
//! region, the changed pixels not yet explained fall into connected **seeds**; every model whose
//! colours a seed shows is fitted there (`fit.rs`), and the fit that explains most pixels is
//! accepted, its pixels marked as explained, and the search goes on with what is left. Touching
//! pieces of different colours separate by colour; touching pieces of one colour (an anchor at
//! its ship) separate because a model of fixed size cannot cover both, and the remainder seeds
//! the next piece. Last, every piece is fitted again with the other pieces' pixels neither for
//! nor against it (a loaded treasure hides part of its ship).
//!
//! Conventions: table frame, millimetres, radians; region pixels as `region.rs`.

use super::colour::ColourSet;
use super::fit::{Fit, fit_pose, refine_pose};
use super::labels::Label;
use super::raster::{ScoreScratch, WeightMap};
use super::region::Region;
use super::solid::Solid;
use super::view::{Pose2, Viewpoint};
use crate::games::crash_octopus::{DieTop, PlayerColor, TreasureType};
use crate::table::{CatalogEntry, PieceKind, PointMm, PolygonMm, Shape};
use std::collections::HashMap;

/// Weight of a pixel that shows one of the model's colours as its best match.
const W_OWN_BEST: f32 = 1.0;
/// Weight of a pixel merely compatible with the model's colours.
const W_OWN_COMPATIBLE: f32 = 0.6;
/// Weight of bare table under the silhouette.
const W_TABLE: f32 = -1.0;
/// ...for pieces whose colour is close to the table's (a white captain on a white table).
const W_TABLE_LIKE: f32 = -0.25;
/// Weight of a shadow under the silhouette (the piece's own shaded side may look like one).
const W_SHADOW: f32 = -0.1;
/// Weight of a changed pixel of another colour that no piece explains yet.
const W_OTHER: f32 = -0.6;
/// Seeds smaller than this (fine pixels of the model's colours) are not fitted.
const MIN_SEED_OWN_PX: usize = 12;
/// A fit is accepted when its gain per silhouette pixel is at least this...
pub const MIN_QUALITY: f64 = 0.3;
/// ...and it explains at least this many pixels.
pub const MIN_GAIN_PX: f64 = 25.0;
/// A footprint whose principal second moments differ by less than this ratio is turned through
/// evenly spaced start angles rather than from the pixels' orientation.
const ISOTROPY_RATIO: f64 = 1.35;
/// Evenly spaced start angles per symmetry period for near-isotropic footprints.
const ISOTROPIC_STARTS: usize = 6;
/// The die's top face is read inside this fraction of its outline (away from the edges).
const DIE_TOP_SHRINK: f64 = 0.7;
/// Most pieces one region may hold (a guard against runaway loops).
const MAX_PIECES_PER_REGION: usize = 64;

/// A catalog entry ready for fitting.
#[derive(Debug, Clone)]
pub struct Model {
    /// Index in the catalog.
    pub entry: usize,
    pub name: String,
    pub kind: PieceKind,
    pub treasure: Option<TreasureType>,
    pub color: Option<PlayerColor>,
    pub shape: Shape,
    pub solid: Solid,
    pub colours: ColourSet,
    /// The palette bits of its main colour and of its second colour.
    pub primary: ColourSet,
    pub secondary: ColourSet,
    /// Footprint does not change when turned.
    pub round: bool,
    /// Smallest turn that leaves the footprint unchanged, radians.
    pub period: f64,
    /// The footprint's principal moments are nearly equal (start angles are spread evenly).
    pub isotropic: bool,
    pub footprint_area_mm2: f64,
    /// How much bare table under the silhouette counts against a fit.
    pub table_weight: f32,
    /// Size relative to the catalog's (taught; 1 by default).
    pub scale: f64,
}

impl Model {
    pub fn new(entry_index: usize, entry: &CatalogEntry, primary: ColourSet, secondary: ColourSet, table_like: bool) -> Self {
        let fp = entry.shape.local_footprint();
        let (period, round) = match entry.shape {
            Shape::HalfSphere { .. }
            | Shape::Sphere { .. }
            | Shape::Disc { .. }
            | Shape::FigureOnDisc { .. }
            | Shape::Cup { .. } => (std::f64::consts::TAU, true),
            Shape::Box { .. } | Shape::Trapezoid { .. } | Shape::Oval { .. } => (std::f64::consts::PI, false),
            Shape::Cube { .. } => (std::f64::consts::FRAC_PI_2, false),
            Shape::HexPrism { .. } => (std::f64::consts::FRAC_PI_3, false),
            _ => (std::f64::consts::TAU, false),
        };
        let m = moments(&fp);
        Self {
            entry: entry_index,
            name: entry.name.clone(),
            kind: entry.piece,
            treasure: entry.treasure,
            color: entry.color,
            shape: entry.shape.clone(),
            solid: Solid::of(entry),
            colours: ColourSet(primary.0 | secondary.0),
            primary,
            secondary,
            round,
            period,
            isotropic: m.ratio() < ISOTROPY_RATIO,
            footprint_area_mm2: PolygonMm::new(fp).area(),
            table_weight: if table_like { W_TABLE_LIKE } else { W_TABLE },
            scale: 1.0,
        }
    }

    /// Makes the piece `scale` times the catalog's size (a real set's piece, taught).
    pub fn apply_size(&mut self, scale: f64) {
        if !(scale.is_finite() && scale > 0.2 && scale < 5.0) {
            return;
        }
        let k = scale / self.scale;
        for part in &mut self.solid.parts {
            for sec in &mut part.sections {
                sec.z_mm *= k;
                for p in &mut sec.outline {
                    *p = *p * k;
                }
            }
        }
        self.solid.height_mm *= k;
        self.footprint_area_mm2 *= k * k;
        self.scale = scale;
    }

    /// The footprint at `pose` (catalog outline at the model's size).
    pub fn footprint(&self, pose: &Pose2) -> PolygonMm {
        let (s, c) = pose.angle_rad.sin_cos();
        PolygonMm::new(
            self.shape
                .local_footprint()
                .into_iter()
                .map(|q| {
                    let q = q * self.scale;
                    PointMm::new(c * q.x - s * q.y, s * q.x + c * q.y) + pose.center_mm
                })
                .collect(),
        )
    }
}

/// Second moments of a point set (or polygon vertices) about its mean.
#[derive(Debug, Clone, Copy, Default)]
struct Moments {
    xx: f64,
    xy: f64,
    yy: f64,
}

impl Moments {
    fn ratio(&self) -> f64 {
        let tr = self.xx + self.yy;
        let det = self.xx * self.yy - self.xy * self.xy;
        let disc = (tr * tr / 4.0 - det).max(0.0).sqrt();
        let (l1, l2) = (tr / 2.0 + disc, (tr / 2.0 - disc).max(1e-9));
        l1 / l2
    }

    fn orientation(&self) -> f64 {
        0.5 * (2.0 * self.xy).atan2(self.xx - self.yy)
    }
}

fn moments(points: &[PointMm]) -> Moments {
    let n = points.len().max(1) as f64;
    let c = points.iter().fold(PointMm::default(), |a, &p| a + p) * (1.0 / n);
    let mut m = Moments::default();
    for &p in points {
        let d = p - c;
        m.xx += d.x * d.x / n;
        m.xy += d.x * d.y / n;
        m.yy += d.y * d.y / n;
    }
    m
}

/// A piece found in a region.
#[derive(Debug, Clone)]
pub struct Detection {
    /// Index into the models.
    pub model: usize,
    pub fit: Fit,
    /// The ink die's top colour.
    pub top: Option<DieTop>,
}

/// Reusable state for one frame's detection.
#[derive(Debug, Default)]
pub struct Detector {
    scratch: ScoreScratch,
}

/// What a region held.
#[derive(Debug, Clone, Default)]
pub struct RegionResult {
    pub detections: Vec<Detection>,
    /// Changed pixels no accepted piece's silhouette covers.
    pub unexplained_px: usize,
    /// Their bounding box in region pixels, when any.
    pub unexplained_box: Option<(usize, usize, usize, usize)>,
}

impl Detector {
    /// Finds the pieces in `region`.
    pub fn detect(&mut self, region: &Region, models: &[Model], view: &Viewpoint) -> RegionResult {
        let n = region.len();
        // 0 = unexplained; k + 1 = explained by detection k.
        let mut explained: Vec<u16> = vec![0; n];
        let mut detections: Vec<Detection> = Vec::new();
        let mut cache: HashMap<(u64, usize), Option<Fit>> = HashMap::new();
        while detections.len() < MAX_PIECES_PER_REGION {
            let seeds = seeds(region, &explained);
            if seeds.is_empty() {
                break;
            }
            let mut maps: HashMap<(u32, u32), WeightMap> = HashMap::new();
            let mut best: Option<(f64, usize, Fit, (u64, usize))> = None;
            for seed in &seeds {
                for (mi, model) in models.iter().enumerate() {
                    let own: Vec<usize> = seed
                        .pixels
                        .iter()
                        .copied()
                        .filter(|&p| model.colours.contains_any(region.colours[p].compatible))
                        .collect();
                    if own.len() < MIN_SEED_OWN_PX {
                        continue;
                    }
                    let key = (seed.key, mi);
                    let fit = match cache.get(&key) {
                        Some(f) => f.clone(),
                        None => {
                            let map = maps
                                .entry((model.colours.0, model.table_weight.to_bits()))
                                .or_insert_with(|| weight_map(region, model, &explained, None));
                            let f = self.fit_seed(region, model, map, view, &own);
                            cache.insert(key, f.clone());
                            f
                        }
                    };
                    let Some(fit) = fit else { continue };
                    if fit.quality() < MIN_QUALITY || fit.gain < MIN_GAIN_PX {
                        continue;
                    }
                    if best.as_ref().is_none_or(|b| fit.gain > b.0) {
                        best = Some((fit.gain, mi, fit, key));
                    }
                }
            }
            let Some((_, mi, fit, key)) = best else { break };
            let k = detections.len() as u16 + 1;
            let marked = mark_explained(region, &models[mi], &fit, &mut explained, k);
            // Fits cached before this one was accepted may count its pixels: fit them again.
            let bounds = fit.silhouette.bounds();
            cache.retain(|_, f| match (f, bounds) {
                (Some(f), Some((lo, hi))) => f.silhouette.bounds().is_none_or(|(a, b)| {
                    b.x < lo.x || a.x > hi.x || b.y < lo.y || a.y > hi.y
                }),
                _ => true,
            });
            if (marked as f64) < MIN_GAIN_PX {
                // Nothing new explained: never accept this fit again.
                cache.insert(key, None);
                continue;
            }
            detections.push(Detection {
                model: mi,
                fit,
                top: None,
            });
        }
        // Fit every piece again with the others' pixels counting neither way.
        for (k, d) in detections.iter_mut().enumerate() {
            let model = &models[d.model];
            let map = weight_map(region, model, &explained, Some(k as u16 + 1));
            if let Some(f) = refine_pose(&model.solid, &map, view, d.fit.pose, model.round, &mut self.scratch) {
                d.fit = f;
            }
        }
        self.rebase(region, models, view, &mut detections, &explained);
        for d in &mut detections {
            if models[d.model].kind == PieceKind::InkDie {
                d.top = die_top(region, &models[d.model], &d.fit, view);
            }
        }
        let (unexplained_px, unexplained_box) = unexplained(region, &detections);
        RegionResult {
            detections,
            unexplained_px,
            unexplained_box,
        }
    }

    /// Treasures standing on a ship's deck or on the island: fitted again at that height (a
    /// treasure's base on the table cannot overlap a ship's).
    fn rebase(
        &mut self,
        region: &Region,
        models: &[Model],
        view: &Viewpoint,
        detections: &mut [Detection],
        explained: &[u16],
    ) {
        let hosts: Vec<(PolygonMm, f64, bool)> = detections
            .iter()
            .filter_map(|d| {
                let m = &models[d.model];
                match m.kind {
                    PieceKind::Ship | PieceKind::PirateShip => Some((m.footprint(&d.fit.pose), m.solid.height_mm, true)),
                    PieceKind::Island => Some((m.footprint(&d.fit.pose), m.solid.height_mm, false)),
                    _ => None,
                }
            })
            .collect();
        for (k, d) in detections.iter_mut().enumerate() {
            let model = &models[d.model];
            if model.kind != PieceKind::Treasure {
                continue;
            }
            let fp = model.footprint(&d.fit.pose);
            let host = hosts.iter().find(|(hull, _, ship)| {
                if *ship {
                    hull.contains(d.fit.pose.center_mm) || hull.gap(&fp) <= 0.0
                } else {
                    hull.contains(d.fit.pose.center_mm)
                }
            });
            let Some((hull, height, _)) = host else { continue };
            // Keep the treasure's middle where it was seen, now standing `height` up.
            let mid = model.solid.height_mm / 2.0;
            let seen = view.apparent(d.fit.pose.center_mm, mid);
            let start = Pose2 {
                center_mm: view.below(seen, mid + height),
                base_mm: *height,
                ..d.fit.pose
            };
            let map = weight_map(region, model, explained, Some(k as u16 + 1));
            if let Some(f) = refine_pose(&model.solid, &map, view, start, model.round, &mut self.scratch)
                && hull.contains(f.pose.center_mm)
            {
                d.fit = f;
            }
        }
    }

    fn fit_seed(
        &mut self,
        region: &Region,
        model: &Model,
        map: &WeightMap,
        view: &Viewpoint,
        own: &[usize],
    ) -> Option<Fit> {
        let pts: Vec<PointMm> = own
            .iter()
            .map(|&p| region.px_to_mm((p % region.width) as f64, (p / region.width) as f64))
            .collect();
        let n = pts.len() as f64;
        let centre = pts.iter().fold(PointMm::default(), |a, &p| a + p) * (1.0 / n);
        let angles = start_angles(model, &pts, centre, view);
        fit_pose(&model.solid, map, view, centre, &angles, 0.0, model.round, &mut self.scratch)
    }
}

/// Start angles for a model over a seed's pixels: the pixels' orientation with the lean's
/// stretch taken out, in every quarter turn the footprint may be in; evenly spread for
/// near-isotropic footprints.
fn start_angles(model: &Model, pts: &[PointMm], centre: PointMm, view: &Viewpoint) -> Vec<f64> {
    if model.round {
        return vec![0.0];
    }
    if model.isotropic {
        return (0..ISOTROPIC_STARTS)
            .map(|k| k as f64 * model.period / ISOTROPIC_STARTS as f64)
            .collect();
    }
    let mut m = moments(pts);
    // The silhouette is the footprint swept along the lean: remove the sweep's spread.
    let top = view.apparent(centre, model.solid.height_mm * 0.6);
    let lean = top - centre;
    let l2 = lean.dot(lean);
    if l2 > 1e-9 {
        let d = lean * (1.0 / l2.sqrt());
        let var = l2 / 12.0;
        m.xx = (m.xx - var * d.x * d.x).max(1e-6);
        m.xy -= var * d.x * d.y;
        m.yy = (m.yy - var * d.y * d.y).max(1e-6);
    }
    let phi = m.orientation();
    let mut out = Vec::new();
    let mut k = 0.0;
    while k * std::f64::consts::FRAC_PI_2 < model.period - 1e-9 {
        out.push(phi + k * std::f64::consts::FRAC_PI_2);
        k += 1.0;
    }
    out
}

/// The model's weights over the region. `own` = the detection being refitted: its own pixels
/// count for it, every other detection's pixels count neither way.
fn weight_map(region: &Region, model: &Model, explained: &[u16], own: Option<u16>) -> WeightMap {
    let mut w = Vec::with_capacity(region.len());
    for p in 0..region.len() {
        let e = explained[p];
        let by_other = e != 0 && Some(e) != own;
        let v = match region.labels[p] {
            Label::Piece => {
                let c = region.colours[p];
                if by_other {
                    0.0
                } else if model.colours.contains_any(c.best) {
                    W_OWN_BEST
                } else if model.colours.contains_any(c.compatible) {
                    W_OWN_COMPATIBLE
                } else if own.is_some() && e == 0 {
                    // Refitting: an unexplained pixel of another colour is still not this piece.
                    W_OTHER
                } else if e == 0 {
                    W_OTHER
                } else {
                    0.0
                }
            }
            Label::Table => model.table_weight,
            Label::Shadow => W_SHADOW,
            Label::Outside => 0.0,
        };
        w.push(v);
    }
    WeightMap::new(region.width, region.height, region.origin_mm, region.mm_per_px, w)
}

/// Marks the model-coloured pixels inside a fit's silhouette as explained by `k`; returns how
/// many were newly marked.
fn mark_explained(region: &Region, model: &Model, fit: &Fit, explained: &mut [u16], k: u16) -> usize {
    let mut n = 0;
    for_each_inside(region, &fit.silhouette.polygons, |p| {
        if explained[p] == 0
            && region.labels[p] == Label::Piece
            && model.colours.contains_any(region.colours[p].compatible)
        {
            explained[p] = k;
            n += 1;
        }
    });
    n
}

/// Calls `f` with every region pixel whose centre lies inside the union of `polygons`.
pub fn for_each_inside(region: &Region, polygons: &[Vec<PointMm>], mut f: impl FnMut(usize)) {
    let mut inside = vec![false; 0];
    for poly in polygons {
        let px: Vec<(f64, f64)> = poly.iter().map(|&q| region.mm_to_px(q)).collect();
        let (ymin, ymax) = px
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(p.1), b.max(p.1)));
        if !(ymin.is_finite() && ymax.is_finite()) {
            continue;
        }
        let j0 = ymin.ceil().max(0.0) as usize;
        let j1 = (ymax.floor()).min(region.height as f64 - 1.0);
        if j1 < 0.0 {
            continue;
        }
        let j1 = j1 as usize;
        if inside.is_empty() {
            inside = vec![false; region.len()];
        }
        for j in j0..=j1 {
            let y = j as f64;
            let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
            let m = px.len();
            for e in 0..m {
                let (a, b) = (px[e], px[(e + 1) % m]);
                if (a.1 <= y) != (b.1 <= y) {
                    let x = a.0 + (y - a.1) * (b.0 - a.0) / (b.1 - a.1);
                    lo = lo.min(x);
                    hi = hi.max(x);
                }
            }
            if lo > hi {
                continue;
            }
            let i0 = lo.ceil().max(0.0) as usize;
            let i1 = hi.floor().min(region.width as f64 - 1.0);
            if i1 < 0.0 {
                continue;
            }
            for i in i0..=(i1 as usize) {
                let p = j * region.width + i;
                if !inside[p] {
                    inside[p] = true;
                    f(p);
                }
            }
        }
    }
}

/// The ink die's top colour: the colour most pixels of its top face show (the top face is
/// never hidden from a camera above).
fn die_top(region: &Region, model: &Model, fit: &Fit, view: &Viewpoint) -> Option<DieTop> {
    let top = model.solid.parts.first()?.sections.last()?;
    let pose = fit.pose;
    let (s, c) = pose.angle_rad.sin_cos();
    let pts: Vec<PointMm> = top
        .outline
        .iter()
        .map(|&q| {
            let q = q * DIE_TOP_SHRINK;
            let p = PointMm::new(c * q.x - s * q.y, s * q.x + c * q.y) + pose.center_mm;
            view.apparent(p, pose.base_mm + top.z_mm)
        })
        .collect();
    let (mut first, mut second) = (0usize, 0usize);
    for_each_inside(region, &[pts], |p| {
        if region.labels[p] != Label::Piece {
            return;
        }
        let b = region.colours[p].best;
        if model.primary.contains_any(b) {
            first += 1;
        } else if model.secondary.contains_any(b) {
            second += 1;
        }
    });
    if first + second == 0 {
        return None;
    }
    Some(if first >= second { DieTop::Black } else { DieTop::Red })
}

/// A connected set of unexplained changed pixels.
#[derive(Debug)]
struct Seed {
    pixels: Vec<usize>,
    /// Identifies the pixel set (for caching fits across rounds).
    key: u64,
}

fn seeds(region: &Region, explained: &[u16]) -> Vec<Seed> {
    let (w, h) = (region.width, region.height);
    let mut seen = vec![false; region.len()];
    let mut out = Vec::new();
    let free = |p: usize| region.labels[p] == Label::Piece && explained[p] == 0;
    let mut stack = Vec::new();
    for start in 0..region.len() {
        if seen[start] || !free(start) {
            continue;
        }
        let mut pixels = Vec::new();
        seen[start] = true;
        stack.push(start);
        while let Some(p) = stack.pop() {
            pixels.push(p);
            let (i, j) = (p % w, p / w);
            for dj in -1i64..=1 {
                for di in -1i64..=1 {
                    let (ni, nj) = (i as i64 + di, j as i64 + dj);
                    if ni < 0 || nj < 0 || ni >= w as i64 || nj >= h as i64 {
                        continue;
                    }
                    let q = nj as usize * w + ni as usize;
                    if !seen[q] && free(q) {
                        seen[q] = true;
                        stack.push(q);
                    }
                }
            }
        }
        if pixels.len() >= MIN_SEED_OWN_PX {
            pixels.sort_unstable();
            let mut key: u64 = 0xcbf2_9ce4_8422_2325;
            for &p in &pixels {
                key = (key ^ p as u64).wrapping_mul(0x0100_0000_01b3);
            }
            out.push(Seed { pixels, key });
        }
    }
    out
}

/// Changed pixels outside every detection's silhouette.
fn unexplained(region: &Region, detections: &[Detection]) -> (usize, Option<(usize, usize, usize, usize)>) {
    let mut covered = vec![false; region.len()];
    for d in detections {
        for_each_inside(region, &d.fit.silhouette.polygons, |p| covered[p] = true);
    }
    let mut count = 0;
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for p in 0..region.len() {
        if region.labels[p] == Label::Piece && !covered[p] {
            count += 1;
            let (i, j) = (p % region.width, p / region.width);
            x0 = x0.min(i);
            y0 = y0.min(j);
            x1 = x1.max(i);
            y1 = y1.max(j);
        }
    }
    (count, (count > 0).then_some((x0, y0, x1, y1)))
}
