//! Seeds: the connected patches of changed pixels no piece explains yet, and the points fits
//! start from inside them (their centres, largest patches, deepest pixels).

use super::Detection;
use super::marks::for_each_inside;
use super::model::Model;
use super::weights::Window;
use crate::table::PointMm;
use crate::vision::colour::ColourSet;
use crate::vision::labels::Label;
use crate::vision::region::Region;
use crate::vision::scale::count_px;

/// Seeds smaller than this (mm² of the model's colours) are not fitted (see [`min_seed_own_px`]).
pub(super) const MIN_SEED_OWN_MM2: f64 = 12.0;

/// [`MIN_SEED_OWN_MM2`] in pixels of `region`.
pub(super) fn min_seed_own_px(region: &Region) -> usize {
    count_px(MIN_SEED_OWN_MM2, region.mm_per_px)
}
/// The centre of the largest connected patch of unexplained pixels showing `model`'s colours
/// best in `win`.
pub(super) fn largest_patch_centre(
    region: &Region,
    model: &Model,
    explained: &[u16],
    win: Window,
) -> Option<PointMm> {
    largest_patch_centre_of(region, model.colours, explained, win)
}

/// The centre of the largest patch of unexplained pixels in `win` that show `colours` best.
pub(super) fn largest_patch_centre_of(
    region: &Region,
    colours: ColourSet,
    explained: &[u16],
    win: Window,
) -> Option<PointMm> {
    let mut pixels = Vec::new();
    for j in win.y0..win.y1 {
        for i in win.x0..win.x1 {
            let p = j * region.width + i;
            if explained[p] == 0
                && region.labels[p] == Label::Piece
                && colours.contains_any(region.colours[p].best)
            {
                pixels.push(p);
            }
        }
    }
    largest_patch(region, &pixels, explained).map(|patch| mean_mm(&patch))
}

/// The table points of the largest 8-connected patch of a seed's unexplained pixels that show
/// `colours` best.
pub(super) fn largest_seed_patch(
    region: &Region,
    colours: ColourSet,
    explained: &[u16],
    seed: &[usize],
) -> Option<Vec<PointMm>> {
    let pixels: Vec<usize> = seed
        .iter()
        .copied()
        .filter(|&p| explained[p] == 0 && colours.contains_any(region.colours[p].best))
        .collect();
    largest_patch(region, &pixels, explained)
}

/// The table points of the largest 8-connected patch of the unexplained ones of `pixels`.
fn largest_patch(region: &Region, pixels: &[usize], explained: &[u16]) -> Option<Vec<PointMm>> {
    let patch = split(region, pixels, explained)
        .into_iter()
        .max_by_key(|c| c.len())?;
    Some(
        patch
            .iter()
            .map(|&p| region.px_to_mm((p % region.width) as f64, (p / region.width) as f64))
            .collect(),
    )
}

/// The pixel of `pixels` (indices into an image `width` wide) farthest from any pixel not among
/// them, by the 3-4 chamfer distance (within 8 % of the Euclidean one); the first such in row
/// order on a tie. The centre of the largest disc a seed holds: where a round piece among
/// others stands.
pub(super) fn deepest_pixel(width: usize, pixels: &[usize]) -> Option<usize> {
    if pixels.is_empty() || width == 0 {
        return None;
    }
    let (x0, y0, x1, y1) = bbox_in(width, pixels);
    // One pixel of margin all round, never a member, so no neighbour lookup leaves the grid.
    let (w, h) = (x1 - x0 + 3, y1 - y0 + 3);
    let mut d = vec![0u32; w * h];
    for &p in pixels {
        d[(p / width - y0 + 1) * w + (p % width - x0 + 1)] = u32::MAX / 2;
    }
    for j in 1..h - 1 {
        for i in 1..w - 1 {
            let k = j * w + i;
            if d[k] != 0 {
                let n = (d[k - 1] + 3)
                    .min(d[k - w] + 3)
                    .min(d[k - w - 1] + 4)
                    .min(d[k - w + 1] + 4);
                d[k] = d[k].min(n);
            }
        }
    }
    let mut best: Option<(u32, usize)> = None;
    for j in (1..h - 1).rev() {
        for i in (1..w - 1).rev() {
            let k = j * w + i;
            if d[k] != 0 {
                let n = (d[k + 1] + 3)
                    .min(d[k + w] + 3)
                    .min(d[k + w + 1] + 4)
                    .min(d[k + w - 1] + 4);
                d[k] = d[k].min(n);
                if best.is_none_or(|(b, _)| d[k] >= b) {
                    best = Some((d[k], k));
                }
            }
        }
    }
    best.map(|(_, k)| (k / w - 1 + y0) * width + (k % w - 1 + x0))
}

/// The mean of some points (the origin for none).
pub(super) fn mean_mm(points: &[PointMm]) -> PointMm {
    let sum = points.iter().fold(PointMm::default(), |a, &p| a + p);
    sum * (1.0 / points.len().max(1) as f64)
}

/// Bounding box (inclusive) of region pixels.
pub(super) fn bbox(region: &Region, pixels: &[usize]) -> (usize, usize, usize, usize) {
    bbox_in(region.width, pixels)
}

/// Bounding box (inclusive) of pixels of an image `width` wide (not 0).
fn bbox_in(width: usize, pixels: &[usize]) -> (usize, usize, usize, usize) {
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for &p in pixels {
        let (i, j) = (p % width, p / width);
        x0 = x0.min(i);
        y0 = y0.min(j);
        x1 = x1.max(i);
        y1 = y1.max(j);
    }
    (x0, y0, x1, y1)
}

/// The unexplained pixels of `pixels` (region indices), in 8-connected pieces of at least
/// [`MIN_SEED_OWN_MM2`].
pub(super) fn split(region: &Region, pixels: &[usize], explained: &[u16]) -> Vec<Vec<usize>> {
    let w = region.width;
    // Marks over the pixels' bounding box only: a seed is small beside its region.
    let Some((bx0, by0, bx1, by1)) =
        pixels
            .iter()
            .fold(None, |b: Option<(usize, usize, usize, usize)>, &p| {
                let (i, j) = (p % w, p / w);
                Some(b.map_or((i, j, i, j), |(x0, y0, x1, y1)| {
                    (x0.min(i), y0.min(j), x1.max(i), y1.max(j))
                }))
            })
    else {
        return Vec::new();
    };
    let (bw, bh) = (bx1 - bx0 + 1, by1 - by0 + 1);
    let slot = |p: usize| (p / w - by0) * bw + (p % w - bx0);
    let mut member = vec![false; bw * bh];
    for &p in pixels {
        if explained[p] == 0 {
            member[slot(p)] = true;
        }
    }
    let mut out = Vec::new();
    // Box coordinates on the stack: the fill divides by no width.
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for &start in pixels {
        let s = slot(start);
        if !member[s] {
            continue;
        }
        let mut comp = Vec::new();
        member[s] = false;
        stack.push((start % w - bx0, start / w - by0));
        while let Some((i, j)) = stack.pop() {
            comp.push((by0 + j) * w + bx0 + i);
            for nj in j.saturating_sub(1)..=(j + 1).min(bh - 1) {
                for ni in i.saturating_sub(1)..=(i + 1).min(bw - 1) {
                    let q = nj * bw + ni;
                    if member[q] {
                        member[q] = false;
                        stack.push((ni, nj));
                    }
                }
            }
        }
        if comp.len() >= min_seed_own_px(region) {
            out.push(comp);
        }
    }
    out
}

/// The largest 8-connected patch of changed pixels outside every detection's silhouette: its
/// size in pixels and its bounding box. Scattered leftovers (a piece's rim, a shadow's dark
/// core) stay small; a hand or an arm is one large patch.
pub(super) fn unexplained<'a>(
    region: &Region,
    detections: impl Iterator<Item = &'a Detection>,
) -> (usize, Option<(usize, usize, usize, usize)>) {
    let mut covered = vec![false; region.len()];
    for d in detections {
        for_each_inside(region, &d.fit.silhouette.polygons, |p| covered[p] = true);
    }
    let pixels: Vec<usize> = (0..region.len())
        .filter(|&p| region.labels[p] == Label::Piece && !covered[p])
        .collect();
    let none = vec![0u16; region.len()];
    let Some(largest) = split(region, &pixels, &none).into_iter().max_by_key(|c| c.len()) else {
        return (0, None);
    };
    let (x0, y0, x1, y1) = bbox(region, &largest);
    (largest.len(), Some((x0, y0, x1, y1)))
}
