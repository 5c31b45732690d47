//! Which region pixels each found piece explains (`explained`: the piece's id, 0 for none).

use super::decks::share_on;
use super::model::{Model, is_solid};
use super::{Detection, KEPT};
use crate::table::{PieceKind, PointMm, PolygonMm};
use crate::vision::colour::ColourSet;
use crate::vision::labels::Label;
use crate::vision::region::Region;
use crate::vision::view::Silhouette;

/// A treasure with more than this share of its footprint inside a piece no treasure rides on
/// is not there (see [`drop_treasures_inside_pieces`]). A captain's base (18 mm across) touching
/// the octopus's head with both fits 2.6 mm off (the bench's p95 position error) overlaps it by
/// 0.09; at this share the two would overlap 5.6 mm. A captain read on the head's eye stood
/// 0.5 mm outside the head's outline, 0.44 inside it, and was kept at 0.5: the box's count then
/// dropped a real one (`--seed 501` scene 504).
const MAX_SHARE_INSIDE_PIECE: f64 = 0.3;
/// ...and more than this share inside an anchor's.
const MAX_SHARE_INSIDE_ANCHOR: f64 = 0.6;
/// `explained` marked afresh from the detections' silhouettes, in the order they were found.
pub(super) fn remarked(
    region: &Region,
    models: &[Model],
    detections: &[Detection],
    kept_marks: &[u16],
) -> Vec<u16> {
    let mut explained = kept_marks.to_vec();
    for (k, d) in detections.iter().enumerate() {
        mark_detection(region, &models[d.model], d, &mut explained, k as u16 + 1);
    }
    explained
}

/// Marks the pixels inside a fit's silhouette that show the model's colours best as explained
/// by `k` (a brown chest on an orange deck stays for the chest); returns how many were newly
/// marked.
pub(super) fn mark_explained(
    region: &Region,
    model: &Model,
    sil: &Silhouette,
    explained: &mut [u16],
    k: u16,
    on_shadows: bool,
) -> usize {
    mark_explained_with(region, model, ColourSet(0), sil, explained, k, on_shadows)
}

/// [`mark_explained`] for a detection: the pixels of the colours it also explains
/// ([`Detection::also_explains`]) are its own too.
pub(super) fn mark_detection(
    region: &Region,
    model: &Model,
    d: &Detection,
    explained: &mut [u16],
    k: u16,
) -> usize {
    mark_explained_with(
        region,
        model,
        d.also_explains,
        &d.fit.silhouette,
        explained,
        k,
        d.on_shadows,
    )
}

/// [`mark_explained`], the pixels showing `also` as their best counting as the model's own.
fn mark_explained_with(
    region: &Region,
    model: &Model,
    also: ColourSet,
    sil: &Silhouette,
    explained: &mut [u16],
    k: u16,
    on_shadows: bool,
) -> usize {
    let shadows_count = on_shadows && model.shadow_like;
    let colours = ColourSet(model.colours.0 | also.0);
    let mut n = 0;
    for_each_inside(region, &sil.polygons, |p| {
        let own = match region.labels[p] {
            Label::Piece => colours.contains_any(region.colours[p].best),
            Label::Shadow => shadows_count && model.primary.contains_any(region.colours[p].best),
            Label::Table | Label::Outside => false,
        };
        if explained[p] == 0 && own {
            explained[p] = k;
            n += 1;
        }
    });
    n
}

/// Marks of the pixels `others` explain (piece `k` as `k + 1`), for fitting one more piece among them.
pub(super) fn explained_by(region: &Region, models: &[Model], others: &[&Detection]) -> Vec<u16> {
    let mut explained = vec![0u16; region.len()];
    for (k, d) in others.iter().enumerate() {
        if let Some(o) = models.get(d.model) {
            let mark = u16::try_from(k + 1).unwrap_or(KEPT - 2);
            mark_detection(region, o, d, &mut explained, mark);
        }
    }
    explained
}

/// Drops the treasures standing more than [`MAX_SHARE_INSIDE_PIECE`] inside the footprint of a
/// round piece no treasure rides on (the octopus's head, the little octopus, the Octo-Canon):
/// two pieces cannot stand in one place, and the head's white eyes with their dark pupils,
/// leaning past its outline, look like a captain. The footprints of round pieces are sure,
/// where a tentacle's or an anchor's fitted a little off may overlap a treasure that touches
/// it; but a treasure standing more than [`MAX_SHARE_INSIDE_ANCHOR`] inside an anchor is no
/// treasure touching it: a green anchor's rim, blended with brown wood, reads as gold, and a
/// gold bar laid along its shaft took a slot of the box's gold and green's closest call
/// (`--seed 701` scene 713). Pieces `kept` from an earlier look count as found.
pub(super) fn drop_treasures_inside_pieces(
    models: &[Model],
    detections: &mut Vec<Detection>,
    kept: &[Detection],
) {
    let footprints = |keep: &dyn Fn(&Model) -> bool| -> Vec<PolygonMm> {
        detections
            .iter()
            .chain(kept)
            .filter(|d| keep(&models[d.model]))
            .map(|d| models[d.model].footprint(&d.fit.pose))
            .collect()
    };
    let solid = footprints(&is_solid);
    let anchors = footprints(&|m: &Model| m.kind == PieceKind::Anchor);
    if solid.is_empty() && anchors.is_empty() {
        return;
    }
    detections.retain(|d| {
        let m = &models[d.model];
        if m.kind != PieceKind::Treasure {
            return true;
        }
        let fp = m.footprint(&d.fit.pose);
        share_on(&fp, &solid) <= MAX_SHARE_INSIDE_PIECE && share_on(&fp, &anchors) <= MAX_SHARE_INSIDE_ANCHOR
    });
}

/// Calls `f` with every region pixel whose centre lies inside the union of `polygons`, once
/// each, row by row from the top and left to right along a row.
pub fn for_each_inside(region: &Region, polygons: &[Vec<PointMm>], mut f: impl FnMut(usize)) {
    // Per polygon and row, the run of columns whose centres lie inside: (row, first, last).
    let mut runs: Vec<(usize, usize, usize)> = Vec::new();
    let mut px: Vec<(f64, f64)> = Vec::new();
    for poly in polygons {
        px.clear();
        px.extend(poly.iter().map(|&q| region.mm_to_px(q)));
        let (ymin, ymax) = px.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
            (a.min(p.1), b.max(p.1))
        });
        if !(ymin.is_finite() && ymax.is_finite()) {
            continue;
        }
        let j0 = ymin.ceil().max(0.0) as usize;
        let j1 = (ymax.floor()).min(region.height as f64 - 1.0);
        if j1 < 0.0 {
            continue;
        }
        let j1 = j1 as usize;
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
            if i1 < 0.0 || i0 > i1 as usize {
                continue;
            }
            runs.push((j, i0, i1 as usize));
        }
    }
    // The polygons' runs merged row by row: each pixel once, without a mark per region pixel.
    if polygons.len() > 1 {
        runs.sort_unstable();
    }
    let mut k = 0;
    while k < runs.len() {
        let (j, first, mut last) = runs[k];
        k += 1;
        while k < runs.len() && runs[k].0 == j && runs[k].1 <= last + 1 {
            last = last.max(runs[k].2);
            k += 1;
        }
        for i in first..=last {
            f(j * region.width + i);
        }
    }
}
