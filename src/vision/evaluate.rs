//! Scoring a reading against the renderer's ground truth: what `octoref bench` reports and the
//! vision tests assert.
//!
//! - **Matching**: a detected piece matches a true piece of the same identity (kind, treasure
//!   type, player colour) whose footprint centre is within [`MATCH_RADIUS_MM`], closest pairs
//!   first. Unmatched detections are false positives, unmatched visible true pieces false
//!   negatives; a detection of a piece the camera cannot see (pushed out of view, or hidden
//!   behind taller pieces: `TruthPiece::visible`) counts neither.
//! - **Position error**: distance between matched footprint centres, mm.
//! - **Rulings**: the referee rules on the true pieces and on the detected ones with the same
//!   game. Per player: when the true margin (runner-up gap minus closest gap) is at least
//!   [`CLOSEST_MARGIN_MM`], the detected closest treasure must be the true one; when it is at
//!   least [`CLEAR_MARGIN_MM`], *too close to call* must not be said. In/out of the ocean is
//!   compared on every matched piece except the crab (always on the string).

use crate::referee::{FrameReport, GameContext};
use crate::synth::FrameTruth;
use crate::table::{OceanReport, PieceKind, PieceReport};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// A detection this close to a true piece of its identity matches it, mm.
pub const MATCH_RADIUS_MM: f64 = 20.0;
/// The closest treasure must be right when the true margin is at least this, mm.
pub const CLOSEST_MARGIN_MM: f64 = 3.0;
/// *Too close to call* must not be said when the true margin is at least this, mm.
pub const CLEAR_MARGIN_MM: f64 = 8.0;

/// Detection counts of one kind of piece.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct KindCounts {
    pub true_positive: usize,
    pub false_positive: usize,
    pub false_negative: usize,
}

impl KindCounts {
    pub fn precision(&self) -> f64 {
        let d = self.true_positive + self.false_positive;
        if d == 0 {
            1.0
        } else {
            self.true_positive as f64 / d as f64
        }
    }
    pub fn recall(&self) -> f64 {
        let d = self.true_positive + self.false_negative;
        if d == 0 {
            1.0
        } else {
            self.true_positive as f64 / d as f64
        }
    }
}

/// How the rulings on the detections compare with the rulings on the truth.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct RulingCounts {
    /// Players whose true margin is at least [`CLOSEST_MARGIN_MM`]...
    pub closest_checked: usize,
    /// ...and whose detected closest treasure is the true one.
    pub closest_right: usize,
    /// Players whose true margin is at least [`CLEAR_MARGIN_MM`]...
    pub clear_checked: usize,
    /// ...but for whom *too close to call* was said.
    pub clear_called_tie: usize,
    /// Matched pieces (not the crab) whose in/out of the ocean was compared...
    pub ocean_checked: usize,
    /// ...and agreed.
    pub ocean_right: usize,
    /// Matched treasures whose `loaded_on` was compared (mapped to true ids), and agreed.
    pub loaded_checked: usize,
    pub loaded_right: usize,
    /// Frames whose crab position on the counter was compared, and agreed.
    pub counter_checked: usize,
    pub counter_right: usize,
    /// Ink dies whose top colour was compared, and agreed.
    pub die_checked: usize,
    pub die_right: usize,
}

impl RulingCounts {
    pub fn add(&mut self, o: &RulingCounts) {
        self.closest_checked += o.closest_checked;
        self.closest_right += o.closest_right;
        self.clear_checked += o.clear_checked;
        self.clear_called_tie += o.clear_called_tie;
        self.ocean_checked += o.ocean_checked;
        self.ocean_right += o.ocean_right;
        self.loaded_checked += o.loaded_checked;
        self.loaded_right += o.loaded_right;
        self.counter_checked += o.counter_checked;
        self.counter_right += o.counter_right;
        self.die_checked += o.die_checked;
        self.die_right += o.die_right;
    }
}

/// One miss or false alarm, for reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Miss {
    pub identity: String,
    pub id: String,
    pub center_mm: [f64; 2],
    /// "missed" (a true piece not found) or "extra" (a detection of nothing).
    pub what: &'static str,
}

/// One wrong closest-treasure call, for reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WrongCall {
    pub player: String,
    pub true_closest: String,
    pub detected_closest: Option<String>,
    pub true_margin_mm: f64,
    pub too_close_to_call: bool,
}

/// The score of one frame.
#[derive(Debug, Clone, Default, Serialize)]
pub struct FrameScore {
    /// Per identity row (`"ship"`, `"treasure/gold"`...).
    pub kinds: BTreeMap<String, KindCounts>,
    /// Position error of every matched piece, mm, with its row.
    pub errors_mm: Vec<(String, f64)>,
    pub rulings: RulingCounts,
    pub misses: Vec<Miss>,
    pub wrong_calls: Vec<WrongCall>,
    pub obstructed_right: bool,
    pub view_moved_right: bool,
}

/// The bench row a piece is counted in.
pub fn row(p: &PieceReport) -> String {
    match (p.piece, p.treasure) {
        (PieceKind::Treasure, Some(t)) => format!("treasure/{}", t.as_str()),
        (k, _) => k.as_str().to_string(),
    }
}

/// The identity a detection must share with a true piece to match it.
fn identity(p: &PieceReport) -> String {
    match p.color {
        Some(c) => format!("{}/{}", row(p), c.as_str()),
        None => row(p),
    }
}

/// Matches detections to true pieces; returns (truth index, detection index, distance).
fn match_pieces(truth: &[(PieceReport, bool)], detected: &[PieceReport]) -> Vec<(usize, usize, f64)> {
    let mut pairs: Vec<(f64, usize, usize)> = Vec::new();
    for (ti, (t, _)) in truth.iter().enumerate() {
        let id = identity(t);
        for (di, d) in detected.iter().enumerate() {
            if identity(d) != id {
                continue;
            }
            let dist = t.center_mm.distance(d.center_mm);
            if dist <= MATCH_RADIUS_MM {
                pairs.push((dist, ti, di));
            }
        }
    }
    pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut used_t = vec![false; truth.len()];
    let mut used_d = vec![false; detected.len()];
    let mut out = Vec::new();
    for (dist, ti, di) in pairs {
        if used_t[ti] || used_d[di] {
            continue;
        }
        used_t[ti] = true;
        used_d[di] = true;
        out.push((ti, di, dist));
    }
    out
}

/// The true frame as the referee would see it (visible pieces only), ruled with `ctx`.
pub fn truth_report(
    truth: &FrameTruth,
    ctx: &GameContext,
) -> Result<FrameReport, crate::referee::RefereeError> {
    let mut report = FrameReport {
        image: truth.image.clone(),
        ocean: OceanReport::new(truth.ocean.polygon_mm.clone()),
        pieces: truth
            .pieces
            .iter()
            .filter(|p| p.visible)
            .map(|p| p.report.clone())
            .collect(),
        counter: Some(truth.counter.clone()),
        obstructed: truth.obstructed,
        view_moved: truth.view_moved,
        rulings: None,
    };
    report.rule(ctx)?;
    Ok(report)
}

/// Scores a detected (and ruled) frame against its truth, both ruled with the same game.
pub fn score_frame(truth: &FrameTruth, truth_ruled: &FrameReport, detected: &FrameReport) -> FrameScore {
    let mut score = FrameScore {
        obstructed_right: truth.obstructed == detected.obstructed,
        view_moved_right: truth.view_moved == detected.view_moved,
        ..FrameScore::default()
    };
    let tp: Vec<(PieceReport, bool)> = truth
        .pieces
        .iter()
        .filter(|p| p.report.piece != PieceKind::Bead)
        .map(|p| (p.report.clone(), p.visible))
        .collect();
    let matches = match_pieces(&tp, &detected.pieces);
    let mut matched_t = vec![false; tp.len()];
    let mut matched_d = vec![false; detected.pieces.len()];
    let mut truth_id_of: HashMap<String, String> = HashMap::new();
    for &(ti, di, dist) in &matches {
        matched_t[ti] = true;
        matched_d[di] = true;
        let (t, visible) = &tp[ti];
        truth_id_of.insert(detected.pieces[di].id.clone(), t.id.clone());
        if !visible {
            continue;
        }
        let r = row(t);
        score.kinds.entry(r.clone()).or_default().true_positive += 1;
        score.errors_mm.push((r, dist));
    }
    for (ti, (t, visible)) in tp.iter().enumerate() {
        if !matched_t[ti] && *visible {
            score.kinds.entry(row(t)).or_default().false_negative += 1;
            score.misses.push(Miss {
                identity: identity(t),
                id: t.id.clone(),
                center_mm: [t.center_mm.x, t.center_mm.y],
                what: "missed",
            });
        }
    }
    for (di, d) in detected.pieces.iter().enumerate() {
        if !matched_d[di] {
            score.kinds.entry(row(d)).or_default().false_positive += 1;
            score.misses.push(Miss {
                identity: identity(d),
                id: d.id.clone(),
                center_mm: [d.center_mm.x, d.center_mm.y],
                what: "extra",
            });
        }
    }

    let r = &mut score.rulings;
    let truth_by_id: HashMap<&str, &PieceReport> =
        truth_ruled.pieces.iter().map(|p| (p.id.as_str(), p)).collect();
    for &(ti, di, _) in &matches {
        let (t, visible) = &tp[ti];
        let d = &detected.pieces[di];
        if !visible {
            continue;
        }
        if t.piece != PieceKind::Crab
            && let Some(tr) = truth_by_id.get(t.id.as_str())
        {
            r.ocean_checked += 1;
            if tr.in_ocean == d.in_ocean {
                r.ocean_right += 1;
            }
        }
        if t.piece == PieceKind::Treasure {
            r.loaded_checked += 1;
            let mapped = d.loaded_on.as_ref().and_then(|id| truth_id_of.get(id));
            if mapped == t.loaded_on.as_ref() {
                r.loaded_right += 1;
            }
        }
        if t.piece == PieceKind::InkDie && t.top.is_some() {
            r.die_checked += 1;
            if t.top == d.top {
                r.die_right += 1;
            }
        }
    }
    if !truth.obstructed && !truth.view_moved {
        r.counter_checked += 1;
        if detected.counter.as_ref().map(|c| c.crab) == Some(truth.counter.crab) {
            r.counter_right += 1;
        }
    }

    if let (Some(tr), Some(dr)) = (&truth_ruled.rulings, &detected.rulings) {
        for (color, tp_rulings) in &tr.players {
            let Some(true_closest) = &tp_rulings.closest else {
                continue;
            };
            let margin = tp_rulings.margin_mm().unwrap_or(f64::INFINITY);
            let dp = dr.players.get(color);
            let detected_closest = dp
                .and_then(|p| p.closest.as_ref())
                .and_then(|id| truth_id_of.get(id))
                .cloned();
            let too_close = dp.is_some_and(|p| p.too_close_to_call);
            if margin >= CLOSEST_MARGIN_MM {
                r.closest_checked += 1;
                if detected_closest.as_ref() == Some(true_closest) {
                    r.closest_right += 1;
                } else {
                    score.wrong_calls.push(WrongCall {
                        player: color.as_str().to_string(),
                        true_closest: true_closest.clone(),
                        detected_closest: detected_closest.clone(),
                        true_margin_mm: margin,
                        too_close_to_call: too_close,
                    });
                }
            }
            if margin >= CLEAR_MARGIN_MM {
                r.clear_checked += 1;
                if too_close {
                    r.clear_called_tie += 1;
                }
            }
        }
    }
    score
}

/// Scores accumulated over many frames.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Summary {
    pub frames: usize,
    pub kinds: BTreeMap<String, KindCounts>,
    pub errors_mm: Vec<f64>,
    pub rulings: RulingCounts,
    pub obstructed_right: usize,
    pub view_moved_right: usize,
}

impl Summary {
    pub fn add(&mut self, s: &FrameScore) {
        self.frames += 1;
        for (k, c) in &s.kinds {
            let e = self.kinds.entry(k.clone()).or_default();
            e.true_positive += c.true_positive;
            e.false_positive += c.false_positive;
            e.false_negative += c.false_negative;
        }
        self.errors_mm.extend(s.errors_mm.iter().map(|(_, e)| *e));
        self.rulings.add(&s.rulings);
        self.obstructed_right += usize::from(s.obstructed_right);
        self.view_moved_right += usize::from(s.view_moved_right);
    }

    /// The `q`-quantile (0..1) of the position errors, mm (`NaN` when none).
    pub fn error_quantile(&self, q: f64) -> f64 {
        quantile(&self.errors_mm, q)
    }
}

/// The `q`-quantile of values (nearest rank), `NaN` when empty.
pub fn quantile(values: &[f64], q: f64) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    let mut v = values.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    let k = ((q.clamp(0.0, 1.0) * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1;
    v[k]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_by_nearest_rank() {
        let v = [5.0, 1.0, 3.0, 2.0, 4.0];
        assert_eq!(quantile(&v, 0.5), 3.0);
        assert_eq!(quantile(&v, 0.95), 5.0);
        assert!(quantile(&[], 0.5).is_nan());
    }

    #[test]
    fn counts_give_precision_and_recall() {
        let c = KindCounts {
            true_positive: 9,
            false_positive: 1,
            false_negative: 3,
        };
        assert!((c.precision() - 0.9).abs() < 1e-12);
        assert!((c.recall() - 0.75).abs() < 1e-12);
    }
}
