//! A ring of shadow round a patch of bare table is a box whose top passes for the table.
//!
//! Conventions: `labels` is a row-major label image `width` pixels wide, `mm_per_px` millimetres
//! a pixel (a fine region or the coarse view, see [`super::labels`]); rings and holes are
//! 4-connected. Used only where some piece in play passes for the table when as dim as it
//! ([`super::region::CoarseInputs::rims`]): elsewhere a box's top shows.
//!
//! Why: a brown chest on warm wood of its shade shows its lit top as the table's colour and its
//! shaded sides, with the contact shadow at their feet, as shadow. Pixel by pixel nothing tells
//! it from the table, and [`super::caster`] leaves it a shadow: the ring has no core of its own
//! and its lit face, read as a piece, may stand as a caster for part of it. But a box's ring is
//! closed round a patch of table the size of a treasure's top, and most of it has no caster on
//! its light side. A cast shadow rings bare table only where its caster's thin part lets light
//! through (a goblet's stem), and then the caster lies just past the ring.
//!
//! The ring may be open: the box's sides towards the light pass for the table like its top, and
//! only two or three sides show shaded. A shadow patch that closes round no hole then stands for
//! its convex hull, the bare table inside being the top, when shadow borders most of that table.

use super::caster::{Joined, ShadowFall, cast_shadows, patches, patches_joined};
use super::labels::Label;
use super::scale::count_px;
use super::solid::convex_hull;
use crate::table::{PointMm, PolygonMm};

/// Least enclosed table for a rim (mm²): a treasure's top seen inside its rim (a chest's is
/// ~200). Below it, the grain's dark streaks and gaps in a shadow enclose flecks of table.
pub const RIM_HOLE_MIN_MM2: f64 = 60.0;
/// Most enclosed table for a rim (mm²): about the largest treasure's top seen from above with
/// some margin; larger holes are table between pieces.
pub const RIM_HOLE_MAX_MM2: f64 = 700.0;
/// Least share of the ring round a hole (its pixels touching the hole) that is shadow: a piece's
/// lit face may close the ring, but pieces laid round a patch of table (tentacles curling) are no
/// box.
pub const RIM_MIN_SHADOW_SHARE: f64 = 0.6;
/// Least share of the ring's shadow pixels no caster explains ([`cast_shadows`]): a cast
/// shadow may ring a patch of table (a goblet's cup beyond its thin stem), but its caster lies
/// on its light side; a box's rim is its own.
pub const RIM_MIN_CASTERLESS_SHARE: f64 = 0.5;
/// An open rim: least share of the pixels round the bare table inside a shadow patch's convex
/// hull (their 4-neighbours outside it, bare table included) that is shadow. A brown chest's
/// shaded sides and contact shadow may show on two or three sides only, its lit sides passing
/// for the table; the opening then borders the hole with bare table. Over the bench's eleven
/// sets of 30 scenes (`--seed 1` to `1001`) open rims found 19 more chests (`--seed 301`: 6
/// missed to 1, `--seed 501`: 14 to 9) and read one shadow more as a chest (`--seed 801`).
pub const OPEN_RIM_MIN_SHADOW_SHARE: f64 = 0.6;
/// Widest gap in a ring that still closes it, pixels (even): the open table reaches a hole only
/// through bare table one pixel wider.
pub const RIM_GAP_PX: usize = 2;
/// Shadow pixels within this distance of the hole (mm, a square) are the rim; beyond it they
/// belong to shadows the rim touches (a neighbour's, the box's own cast shadow).
pub const RIM_WIDTH_MM: f64 = 5.0;

/// Turns every rim into [`Label::Piece`]: the enclosed table and the shadow pixels within
/// [`RIM_WIDTH_MM`] of it. A rim is [`RIM_HOLE_MIN_MM2`] to [`RIM_HOLE_MAX_MM2`] of table
/// enclosed by non-table pixels, at least [`RIM_MIN_SHADOW_SHARE`] of them shadow and at least
/// [`RIM_MIN_CASTERLESS_SHARE`] of those with no caster when shadows fall along `fall`; for a
/// shadow patch round no such hole, the bare table inside its convex hull, bordered at least
/// [`OPEN_RIM_MIN_SHADOW_SHARE`] by shadow, of the same size and as casterless. Bare
/// table touching the image's edge or the unseen table ([`Label::Outside`]) is never enclosed.
/// Returns the pixels relabelled, in order.
pub fn relabel_rims(labels: &mut [Label], width: usize, fall: ShadowFall, mm_per_px: f64) -> Vec<usize> {
    if width == 0 || !labels.len().is_multiple_of(width) || !(mm_per_px.is_finite() && mm_per_px > 0.0) {
        return Vec::new();
    }
    let height = labels.len() / width;
    let min_px = count_px(RIM_HOLE_MIN_MM2, mm_per_px);
    let max_px = count_px(RIM_HOLE_MAX_MM2, mm_per_px);
    let reach = (RIM_WIDTH_MM / mm_per_px).round().max(1.0) as usize;
    // Holes of a treasure's size ringed mostly by shadow, with their rings' shadow pixels: looked
    // for round each shadow patch that could ring the least of them.
    let least_ring = 4.0 * (min_px as f64).sqrt();
    let mut seen_holes = std::collections::HashSet::new();
    let mut rims: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
    for patch in patches(width, height, |p| labels[p] == Label::Shadow) {
        if (patch.len() as f64) < RIM_MIN_SHADOW_SHARE * least_ring {
            continue;
        }
        let (x0, y0, x1, y1) = grown_box(&patch, width, reach);
        let mut closed = false;
        for hole in Enclosure::of_box(labels, width, x0, y0, x1, y1).holes(width) {
            if hole.len() < min_px || hole.len() > max_px || !seen_holes.insert(hole[0]) {
                continue;
            }
            let ring = ring_of(&hole, labels, width, height);
            let shadow: Vec<usize> = ring
                .iter()
                .copied()
                .filter(|&q| labels[q] == Label::Shadow)
                .collect();
            if (shadow.len() as f64) < RIM_MIN_SHADOW_SHARE * ring.len() as f64 {
                continue;
            }
            rims.push((hole, shadow));
            closed = true;
        }
        if closed {
            continue;
        }
        let hole = hull_hole(&patch, labels, width);
        if hole.len() < min_px || hole.len() > max_px || !seen_holes.insert(hole[0]) {
            continue;
        }
        let around = around_of(&hole, width, height);
        let on_edge = |p: usize| {
            p.is_multiple_of(width) || p % width + 1 == width || p < width || p + width >= labels.len()
        };
        if hole.iter().any(|&p| on_edge(p)) || around.iter().any(|&q| labels[q] == Label::Outside) {
            continue;
        }
        let shadow: Vec<usize> = around
            .iter()
            .copied()
            .filter(|&q| labels[q] == Label::Shadow)
            .collect();
        if (shadow.len() as f64) >= OPEN_RIM_MIN_SHADOW_SHARE * around.len() as f64 {
            rims.push((hole, shadow));
        }
    }
    if rims.is_empty() {
        return Vec::new();
    }
    let all: Vec<usize> = rims.iter().flat_map(|r| r.1.iter().copied()).collect();
    let cast = cast_shadows(labels, width, fall, mm_per_px, &all);
    let mut at = 0;
    let mut changed = Vec::new();
    for (hole, shadow) in rims {
        let casterless = cast[at..at + shadow.len()].iter().filter(|&&c| !c).count();
        at += shadow.len();
        if (casterless as f64) < RIM_MIN_CASTERLESS_SHARE * shadow.len() as f64 {
            continue;
        }
        changed.extend(rim_and_hole(labels, width, height, &hole, reach));
    }
    changed.sort_unstable();
    changed.dedup();
    for &p in &changed {
        labels[p] = Label::Piece;
    }
    changed
}

/// The bare table inside the convex hull of `patch` (pixel centres), in raster order: the lit
/// top of a box whose shaded sides show on two or three sides only.
fn hull_hole(patch: &[usize], labels: &[Label], width: usize) -> Vec<usize> {
    let at = |p: usize| PointMm::new((p % width) as f64, (p / width) as f64);
    let hull = PolygonMm::new(convex_hull(&patch.iter().map(|&p| at(p)).collect::<Vec<_>>()));
    let (x0, y0, x1, y1) = grown_box(patch, width, 0);
    (y0..=y1)
        .flat_map(|y| (x0..=x1).map(move |x| y * width + x))
        .filter(|&p| labels[p] == Label::Table && hull.contains(at(p)))
        .collect()
}

/// The pixels 4-adjacent to `hole` (sorted) outside it, whatever their label.
fn around_of(hole: &[usize], width: usize, height: usize) -> Vec<usize> {
    let mut around: Vec<usize> = hole
        .iter()
        .flat_map(|&p| neighbours4(p, width, height))
        .flatten()
        .filter(|q| hole.binary_search(q).is_err())
        .collect();
    around.sort_unstable();
    around.dedup();
    around
}

/// `hole` and the shadow pixels within `reach` of it (a square).
fn rim_and_hole(labels: &[Label], width: usize, height: usize, hole: &[usize], reach: usize) -> Vec<usize> {
    if hole.is_empty() {
        return Vec::new();
    }
    let (bx0, by0, bx1, by1) = grown_box(hole, width, reach);
    let (bx1, by1) = (bx1.min(width - 1), by1.min(height - 1));
    let bw = bx1 - bx0 + 1;
    let mut near = vec![false; bw * (by1 - by0 + 1)];
    for &p in hole {
        let (x, y) = (p % width, p / width);
        for yy in y.saturating_sub(reach).max(by0)..=(y + reach).min(by1) {
            for xx in x.saturating_sub(reach).max(bx0)..=(x + reach).min(bx1) {
                near[(yy - by0) * bw + xx - bx0] = true;
            }
        }
    }
    let mut out: Vec<usize> = near
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n)
        .map(|(k, _)| (k / bw + by0) * width + k % bw + bx0)
        .filter(|&p| labels[p] == Label::Shadow)
        .collect();
    out.extend_from_slice(hole);
    out
}

/// The bare table a box of the image encloses: table pixels of the box that no path of deep
/// table (bare table with only bare or unseen table within [`RIM_GAP_PX`] / 2) within the box joins to the
/// box's edge or to unseen table, nor lies within [`RIM_GAP_PX`] / 2 of such a path. A gap of up to [`RIM_GAP_PX`]
/// pixels in a ring lets no deep table through. Table joined to the box's edge counts as open
/// even where the whole image would enclose it: the box is taken wide enough round what may
/// enclose it.
pub(crate) struct Enclosure {
    x0: usize,
    y0: usize,
    w: usize,
    h: usize,
    enclosed: Vec<bool>,
}

impl Enclosure {
    /// The enclosure of box `[x0, x1] x [y0, y1]` (inclusive, clipped to the image) of the
    /// `width`-wide `labels`.
    pub(crate) fn of_box(labels: &[Label], width: usize, x0: usize, y0: usize, x1: usize, y1: usize) -> Self {
        let height = labels.len() / width.max(1);
        let (x1, y1) = (x1.min(width.saturating_sub(1)), y1.min(height.saturating_sub(1)));
        if width == 0 || height == 0 || x0 > x1 || y0 > y1 {
            return Self {
                x0,
                y0,
                w: 0,
                h: 0,
                enclosed: Vec::new(),
            };
        }
        let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
        let label = |x: isize, y: isize| {
            (x >= 0 && y >= 0 && (x as usize) < width && (y as usize) < height)
                .then(|| labels[y as usize * width + x as usize])
        };
        let clear = |l: Option<Label>| matches!(l, None | Some(Label::Table | Label::Outside));
        // Bare table with no other label within `d` (a square) lies in a gap wider than 2 d.
        let d = (RIM_GAP_PX / 2) as isize;
        let deep: Vec<bool> = (0..w * h)
            .map(|k| {
                let (x, y) = ((k % w + x0) as isize, (k / w + y0) as isize);
                label(x, y) == Some(Label::Table)
                    && (-d..=d).all(|dy| (-d..=d).all(|dx| clear(label(x + dx, y + dy))))
            })
            .collect();
        let mut reached = vec![false; w * h];
        let mut stack: Vec<usize> = Vec::new();
        for k in 0..w * h {
            let (i, j) = (k % w, k / w);
            let by_unseen = || {
                neighbours4(k, w, h)
                    .into_iter()
                    .flatten()
                    .any(|q| labels[(q / w + y0) * width + q % w + x0] == Label::Outside)
            };
            if deep[k] && (i == 0 || j == 0 || i + 1 == w || j + 1 == h || by_unseen()) {
                reached[k] = true;
                stack.push(k);
            }
        }
        while let Some(k) = stack.pop() {
            for q in neighbours4(k, w, h).into_iter().flatten() {
                if !reached[q] && deep[q] {
                    reached[q] = true;
                    stack.push(q);
                }
            }
        }
        let enclosed = (0..w * h)
            .map(|k| {
                let (i, j) = (k % w, k / w);
                let on_edge = i == 0 || j == 0 || i + 1 == w || j + 1 == h;
                let d = d as usize;
                let (rows, cols) = (
                    j.saturating_sub(d)..=(j + d).min(h - 1),
                    i.saturating_sub(d)..=(i + d).min(w - 1),
                );
                labels[(j + y0) * width + i + x0] == Label::Table
                    && !on_edge
                    && !rows
                        .into_iter()
                        .any(|jj| cols.clone().any(|ii| reached[jj * w + ii]))
            })
            .collect();
        Self {
            x0,
            y0,
            w,
            h,
            enclosed,
        }
    }

    /// Whether image pixel `p` of the `width`-wide image is enclosed table.
    pub(crate) fn contains(&self, p: usize, width: usize) -> bool {
        let (x, y) = (p % width, p / width);
        x >= self.x0
            && y >= self.y0
            && x < self.x0 + self.w
            && y < self.y0 + self.h
            && self.enclosed[(y - self.y0) * self.w + x - self.x0]
    }

    /// The enclosed pixels' 4-connected patches, as image pixels.
    fn holes(&self, width: usize) -> Vec<Vec<usize>> {
        patches_joined(self.w, self.h, Joined::Four, |k| self.enclosed[k])
            .into_iter()
            .map(|hole| {
                hole.into_iter()
                    .map(|k| (k / self.w + self.y0) * width + k % self.w + self.x0)
                    .collect()
            })
            .collect()
    }
}

/// The box round `pixels` of the `width`-wide image, grown by `margin` (clipped at 0; the
/// far sides are clipped by [`Enclosure::of_box`]): `(x0, y0, x1, y1)`, inclusive.
pub(crate) fn grown_box(pixels: &[usize], width: usize, margin: usize) -> (usize, usize, usize, usize) {
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for &p in pixels {
        let (x, y) = (p % width, p / width);
        (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
    }
    (
        x0.saturating_sub(margin),
        y0.saturating_sub(margin),
        x1 + margin,
        y1 + margin,
    )
}

/// The pixels next to `hole` (4-connected) that are not in it: all of them non-table.
fn ring_of(hole: &[usize], labels: &[Label], width: usize, height: usize) -> Vec<usize> {
    let mut ring: Vec<usize> = hole
        .iter()
        .flat_map(|&p| neighbours4(p, width, height))
        .flatten()
        .filter(|&q| labels[q] != Label::Table)
        .collect();
    ring.sort_unstable();
    ring.dedup();
    ring
}

/// The 4 neighbours of `p` inside the image.
pub(crate) fn neighbours4(p: usize, width: usize, height: usize) -> [Option<usize>; 4] {
    let (x, y) = (p % width, p / width);
    [
        (x > 0).then(|| p - 1),
        (x + 1 < width).then(|| p + 1),
        (y > 0).then(|| p - width),
        (y + 1 < height).then(|| p + width),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: usize = 60;
    const H: usize = 50;
    /// Shadows fall along +x: the light is towards -x.
    const FALL: ShadowFall = ShadowFall { dir: [1.0, 0.0] };

    /// A `W` x `H` table with a rectangle's rim (`t` pixels thick, of `rim`) round the table
    /// inside it: `[x0, x1) x [y0, y1)` outside measures.
    fn ringed(x0: usize, y0: usize, x1: usize, y1: usize, t: usize, rim: Label) -> Vec<Label> {
        let mut labels = vec![Label::Table; W * H];
        for y in y0..y1 {
            for x in x0..x1 {
                let inner = x >= x0 + t && x + t < x1 && y >= y0 + t && y + t < y1;
                if !inner {
                    labels[y * W + x] = rim;
                }
            }
        }
        labels
    }

    #[test]
    fn a_shadow_ring_round_table_is_a_box() {
        // A 22 x 16 mm chest at 1 mm a pixel: its top (18 x 12 = 216 mm²) reads as table.
        let mut labels = ringed(10, 10, 32, 26, 2, Label::Shadow);
        let changed = relabel_rims(&mut labels, W, FALL, 1.0);
        assert_eq!(changed.len(), 22 * 16);
        for y in 10..26 {
            for x in 10..32 {
                assert_eq!(labels[y * W + x], Label::Piece, "({x}, {y})");
            }
        }
        assert_eq!(labels.iter().filter(|&&l| l == Label::Piece).count(), 22 * 16);
    }

    #[test]
    fn a_lit_face_may_close_the_ring() {
        let mut labels = ringed(10, 10, 32, 26, 2, Label::Shadow);
        // The face towards the camera, lit, reads as a piece: a quarter of the ring.
        for y in 10..26 {
            for x in 10..12 {
                labels[y * W + x] = Label::Piece;
            }
        }
        assert!(!relabel_rims(&mut labels, W, FALL, 1.0).is_empty());
        assert_eq!(labels[18 * W + 20], Label::Piece);
    }

    #[test]
    fn a_ring_open_on_a_side_is_a_box_and_a_shallow_tray_is_none() {
        // The chest's lit sides pass for the table: its shaded sides and contact shadow ring
        // its top on three sides, or on three and part of the fourth.
        let open = |x0: usize, x1: usize| {
            let mut labels = ringed(10, 10, 32, 26, 2, Label::Shadow);
            for x in x0..x1 {
                labels[10 * W + x] = Label::Table;
                labels[11 * W + x] = Label::Table;
            }
            labels
        };
        let mut gap = open(20, 20 + RIM_GAP_PX + 1);
        assert_eq!(relabel_rims(&mut gap, W, FALL, 1.0).len(), 22 * 16);
        let mut side = open(10, 32);
        let changed = relabel_rims(&mut side, W, FALL, 1.0);
        assert!(changed.contains(&(18 * W + 20)), "{changed:?}");
        // One side with stubs at its ends: a tray of shadow round a 26 mm wide strip of table.
        // Four rows deep, bare table is over 0.4 of what borders the strip; eight deep, less.
        let tray = |depth: usize| {
            let mut labels = ringed(10, 10, 40, 30, 2, Label::Shadow);
            for y in 12 + depth..30 {
                for x in 10..40 {
                    labels[y * W + x] = Label::Table;
                }
            }
            labels
        };
        assert!(relabel_rims(&mut tray(4), W, FALL, 1.0).is_empty());
        assert!(!relabel_rims(&mut tray(8), W, FALL, 1.0).is_empty());
    }

    #[test]
    fn pieces_round_table_or_a_fleck_is_no_box() {
        // Pieces laid round table (tentacles curling), with a little shadow.
        let mut pieces = ringed(10, 10, 32, 26, 2, Label::Piece);
        for x in 10..20 {
            pieces[10 * W + x] = Label::Shadow;
        }
        assert!(relabel_rims(&mut pieces, W, FALL, 1.0).is_empty());
        // A fleck of table in a shadow: 4 x 4 mm.
        let mut fleck = ringed(10, 10, 18, 18, 2, Label::Shadow);
        assert!(relabel_rims(&mut fleck, W, FALL, 1.0).is_empty());
        // Table between large pieces: more than any treasure's top.
        let mut wide = ringed(2, 2, 58, 48, 2, Label::Shadow);
        assert!(relabel_rims(&mut wide, W, FALL, 1.0).is_empty());
    }

    #[test]
    fn table_by_the_unseen_table_is_not_enclosed() {
        let mut labels = ringed(10, 10, 32, 26, 2, Label::Shadow);
        labels[18 * W + 20] = Label::Outside;
        assert!(relabel_rims(&mut labels, W, FALL, 1.0).is_empty());
    }

    #[test]
    fn a_rim_is_measured_on_the_table_not_in_pixels() {
        // The same 22 x 16 mm chest at 2 mm a pixel: 11 x 8 pixels, its top 9 x 6 = 216 mm².
        let mut chest = ringed(10, 10, 21, 18, 1, Label::Shadow);
        assert_eq!(relabel_rims(&mut chest, W, FALL, 2.0).len(), 11 * 8);
        // A fleck of 3 x 2 pixels inside at 2 mm a pixel: 24 mm².
        let mut fleck = ringed(10, 10, 15, 14, 1, Label::Shadow);
        assert!(relabel_rims(&mut fleck, W, FALL, 2.0).is_empty());
        // A hole of 49 pixels: 49 mm² at 1 mm a pixel, too small; 196 mm² at 2 mm.
        let mut hole = ringed(10, 10, 19, 19, 1, Label::Shadow);
        assert!(relabel_rims(&mut hole.clone(), W, FALL, 1.0).is_empty());
        assert!(!relabel_rims(&mut hole, W, FALL, 2.0).is_empty());
    }

    #[test]
    fn table_seen_through_a_cast_shadow_is_no_box() {
        // A piece casts its shadow along +x; a thin part of it lets light through onto a strip
        // of table 3 mm wide inside the shadow (78 mm²).
        let fill = |labels: &mut [Label], x0: usize, x1: usize, y0: usize, y1: usize, l: Label| {
            for y in y0..y1 {
                for x in x0..x1 {
                    labels[y * W + x] = l;
                }
            }
        };
        let mut uncast = vec![Label::Table; W * H];
        fill(&mut uncast, 10, 34, 8, 42, Label::Shadow);
        fill(&mut uncast, 18, 21, 12, 38, Label::Table);
        let mut labels = uncast.clone();
        fill(&mut labels, 2, 10, 5, 45, Label::Piece);
        assert!(relabel_rims(&mut labels, W, FALL, 1.0).is_empty());
        // Without its caster the same ring is a box's.
        assert!(!relabel_rims(&mut uncast, W, FALL, 1.0).is_empty());
    }
}
