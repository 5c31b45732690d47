//! The box's counts: a frame holds at most the catalog's count of each piece (one ink die, four
//! captains). Pieces over a count are dropped, or read as the look-alike they fit nearly as well.

use crate::table::PieceKind;
use crate::vision::colour::ColourSet;
use crate::vision::detect::{Detection, Model, SeenBy};
use crate::vision::fit::Fit;

/// A piece over its kind's count reads as another model sharing its colour ([`within_counts`])
/// when that model fits it at least this well...
const TURN_MIN_QUALITY: f64 = 0.5;
/// ...and a kept piece is turned into it only when it keeps at least this share of its score
/// (gain times quality) as first read. On warm wood a canon's rim blends with the table and its
/// own model keeps 0.62-0.66 of the die's score there (scene 208 of `bench --seed 201`); a real
/// die read as a canon keeps about half.
const TURN_MIN_SHARE: f64 = 0.6;
/// A kept piece that scores at least this share of its first reading as another model of its
/// colour is that model, whatever the piece over the count reads as ([`within_counts`]).
const TURN_BETTER_SHARE: f64 = 1.0;
/// Two look-alikes are read the other way round when so read they score more than this share of
/// their score as read ([`swap_look_alikes`]). Measured by their main colour over the bench's
/// sets (`--seed 1` to `601`): swaps that mended a reading gained 1.09-1.22, wrong ones up to 1.04.
const SWAP_MIN_SHARE: f64 = 1.06;
/// Seen by their main colour alone, a kept piece is turned into a look-alike that scores at
/// least this share of its own kind's score there, when the piece over the count fits no
/// look-alike ([`within_counts`]). Canons read as the die beside a pink tentacle scored 0.94-1.05
/// of the die so (`--seed 401` scene 408, `--seed 601` scenes 617, 620, 629); by black alone the
/// two fit real dice at 0.6-1.3 and canons at 0.8-1.4 (`--seed 1` to `301`): shape tells little,
/// and below this share the kept piece stays its kind, reading clearly better so.
const TURN_SAME_COLOUR_SHARE: f64 = 0.9;
/// The rules keep the Octo-Canon in contact with the pirate ship (the Pirate moves the ship back
/// against it after every flick: `crash-octopus-pink-pirates`). When the piece read as the canon
/// touches no pirate ship and its look-alike read as the die touches one, the swap need only
/// score more than the reading as it is; when the swap would take the canon away from the ship,
/// it must score [`SWAP_AGAINST_RULES_MIN_SHARE`] times as much. Against the pink ship the die's
/// model, its pink faces taking the ship's pixels, outscores the canon's own on the canon: by
/// their main colour the swapped readings scored 1.05 of the readings as made in the three
/// frames of `--seed 801`'s scene 820, and a swap away from the ship 1.13 in `--seed 501`'s
/// scene 505. A die beside a pirate ship fitted among the tentacles (`--seed 301`, scene 308)
/// kept 0.94 as the canon: the rule is no stronger than the ship found.
const SWAP_TO_RULES_MIN_SHARE: f64 = 1.0;
/// ...and what a swap that takes the canon away from the pirate ship must score, as a share of
/// the readings as made.
const SWAP_AGAINST_RULES_MIN_SHARE: f64 = 1.25;
/// A piece this close to a pirate ship's footprint (mm) touches it, give or take the fits'
/// position error.
const CANON_CONTACT_MM: f64 = 5.0;
/// A piece found in one of a frame's regions (by index).
#[derive(Debug, Clone)]
pub(super) struct Found {
    pub(super) detection: Detection,
    pub(super) region: usize,
}

/// Keeps at most the catalog's count of each piece (the box holds one ink die, four captains),
/// the ones that explain most pixels best, or one of them read as another model: the one it
/// fitted nearly as well ([`Detection::runner_up`]), or one sharing its main colour fitted there
/// afresh (`refit(found, piece, model, seen)`: see [`crate::vision::detect::refit_as`]); returns the
/// others.
pub(super) fn within_counts(
    found: &mut Vec<Found>,
    models: &[Model],
    refit: impl Fn(&[Found], usize, usize, SeenBy) -> Option<Fit>,
) -> Vec<Found> {
    let refit_all = |f: &[Found], k: usize, m: usize| refit(f, k, m, SeenBy::AllColours);
    let score = |f: &Found| f.detection.fit.score();
    let mut order: Vec<usize> = (0..found.len()).collect();
    order.sort_by(|&a, &b| score(&found[b]).total_cmp(&score(&found[a])));
    let mut used: std::collections::HashMap<usize, u32> = std::collections::HashMap::new();
    let mut keep = vec![false; found.len()];
    for &i in &order {
        let m = &models[found[i].detection.model];
        let n = used.entry(m.entry).or_insert(0);
        if *n < m.count.max(1) {
            *n += 1;
            keep[i] = true;
        }
    }
    // A piece over its kind's count stays when it, or a kept one of its kind, fitted another
    // model nearly as well whose count is not reached, and the two so read score more than the
    // kept one alone: the one whose other reading scores more becomes that model (a black
    // Octo-Canon first taken for the ink die, the real die found elsewhere with fewer pixels).
    // Before any runner-up, a kept one that, fitted afresh as a model sharing its main colour,
    // scores at least as much as it did as its kind becomes that model ([`TURN_BETTER_SHARE`]):
    // whatever the one over the count fitted nearly as well, the kept one is the better read.
    // Failing both, the models sharing their main colour are fitted afresh to both, and the
    // kept one becomes such a model when it reads well as one ([`TURN_MIN_QUALITY`],
    // [`TURN_MIN_SHARE`]) and the one over the count fits none of them well: beside a pink
    // ship the die's model, pink faces and all, may score more on the canon than on the die,
    // while the canon's model scores far less on the die. A die so made has its top read
    // afterwards ([`Analyzer::read_die_tops`]).
    let spare = |used: &std::collections::HashMap<usize, u32>, other: usize| {
        models[other].in_play
            && used.get(&models[other].entry).copied().unwrap_or(0) < models[other].count.max(1)
    };
    for &i in &order {
        if keep[i] {
            continue;
        }
        let kind = found[i].detection.model;
        let kept: Vec<usize> = (0..found.len())
            .filter(|&j| keep[j] && found[j].detection.model == kind)
            .collect();
        let readings = |k: usize| {
            let own = score(&found[k]);
            same_colour_readings(found, k, models, &|o| spare(&used, o), &refit_all)
                .into_iter()
                .map(|(other, fit)| {
                    let share = if own > 0.0 { fit.score() / own } else { 0.0 };
                    Reading { share, other, fit }
                })
                .filter(|r| r.fit.quality() >= TURN_MIN_QUALITY)
                .max_by(|a, b| a.share.total_cmp(&b.share))
        };
        let kept_readings: Vec<(usize, Option<Reading>)> = kept.iter().map(|&j| (j, readings(j))).collect();
        // (turned, other model, its fit, rank)
        let mut best: Option<(usize, usize, Fit, f64)> = None;
        // A kept one that, fitted afresh, scores more as another model of its colour than as
        // its own kind is that model: the detector's first reading of a black piece may differ
        // from its settled one (an Octo-Canon first read as the die scores more as a canon).
        for (j, reading) in &kept_readings {
            if let Some(r) = reading
                && r.share >= TURN_BETTER_SHARE
                && best.as_ref().is_none_or(|b| r.share > b.3)
            {
                best = Some((*j, r.other, r.fit.clone(), r.share));
            }
        }
        if best.is_none() {
            for &j in &kept {
                // Read as the other model: `j` itself (with `i` kept as the kind) or `i`.
                for (turned, rest) in [(j, i), (i, j)] {
                    let Some((other, fit)) = found[turned].detection.runner_up.as_ref() else {
                        continue;
                    };
                    let total = fit.score() + score(&found[rest]);
                    if spare(&used, *other)
                        && total > score(&found[j])
                        && best.as_ref().is_none_or(|b| total > b.3)
                    {
                        best = Some((turned, *other, fit.clone(), total));
                    }
                }
            }
        }
        // Only the kept one is turned, and only when the other fits no such model well: a
        // piece over the count that does is dropped, and its region looked at again without
        // the full model finds it as what it is.
        let only_its_kind = best.is_none() && readings(i).is_none();
        if only_its_kind {
            for (j, reading) in kept_readings {
                if let Some(r) = reading
                    && r.share >= TURN_MIN_SHARE
                    && r.fit.score() + score(&found[i]) > score(&found[j])
                    && best.as_ref().is_none_or(|b| r.share > b.3)
                {
                    best = Some((j, r.other, r.fit, r.share));
                }
            }
        }
        // Still none: seen by the main colour they share, a kept one that reads about as well
        // as a look-alike as it does as its kind is that look-alike, since the one over the
        // count can be nothing else. Beside a pink tentacle the die's model, its pink faces
        // taking the tentacle's pixels, outscores the canon's own on the canon by far; by
        // their black alone the two fit it alike ([`TURN_SAME_COLOUR_SHARE`]).
        if best.is_none() && only_its_kind {
            let by_main = |f: &[Found], k: usize, m: usize| refit(f, k, m, SeenBy::MainColour);
            for &j in &kept {
                let alike = same_colour_readings(found, j, models, &|o| spare(&used, o), &by_main);
                if alike.is_empty() {
                    continue;
                }
                let Some(own) = by_main(found, j, kind).map(|f| f.score()).filter(|&s| s > 0.0) else {
                    continue;
                };
                for (other, fit) in alike {
                    let share = fit.score() / own;
                    if fit.quality() >= models[other].min_quality
                        && share >= TURN_SAME_COLOUR_SHARE
                        && best.as_ref().is_none_or(|b| share > b.3)
                    {
                        let fit = refit(found, j, other, SeenBy::AllColours).unwrap_or(fit);
                        best = Some((j, other, fit, share));
                    }
                }
            }
        }
        if let Some((turned, other, fit, _)) = best {
            *used.entry(models[other].entry).or_insert(0) += 1;
            read_as(&mut found[turned].detection, other, fit);
            keep[i] = true;
        }
    }
    // A kept piece whose look-alike (a model sharing its main colour, in play) was not found at
    // all is that look-alike when, fitted afresh as it, it scores at least as much as it did
    // as its kind ([`TURN_BETTER_SHARE`]): the Octo-Canon read as the ink die while the die,
    // its pink face up on a pink tentacle, is read as part of the tentacle. Not a ship or an
    // anchor: they are fitted as a pair ([`Analyzer::settle_ships`]), and a ship turned into
    // its anchor leaves its player without a ruling.
    let paired = |m: usize| matches!(models[m].kind, PieceKind::Ship | PieceKind::Anchor);
    let none_found = |used: &std::collections::HashMap<usize, u32>, other: usize| {
        models[other].in_play && !paired(other) && used.get(&models[other].entry).copied().unwrap_or(0) == 0
    };
    for &k in &order {
        if !keep[k] || paired(found[k].detection.model) {
            continue;
        }
        let own = score(&found[k]);
        if own <= 0.0 {
            continue;
        }
        let best = same_colour_readings(found, k, models, &|o| none_found(&used, o), &refit_all)
            .into_iter()
            .filter(|(_, fit)| fit.quality() >= TURN_MIN_QUALITY && fit.score() >= TURN_BETTER_SHARE * own)
            .max_by(|a, b| a.1.score().total_cmp(&b.1.score()));
        if let Some((other, fit)) = best {
            let entry = models[found[k].detection.model].entry;
            if let Some(n) = used.get_mut(&entry) {
                *n = n.saturating_sub(1);
            }
            *used.entry(models[other].entry).or_insert(0) += 1;
            read_as(&mut found[k].detection, other, fit);
        }
    }
    let mut dropped = Vec::new();
    let mut kept = Vec::with_capacity(found.len());
    for (f, k) in found.drain(..).zip(keep) {
        if k { kept.push(f) } else { dropped.push(f) }
    }
    *found = kept;
    dropped
}

/// Two pieces each found once, of models sharing their main colour of which the box holds one
/// each (the ink die and the Octo-Canon, both near black), are read the other way round when,
/// each fitted afresh as the other by that main colour alone (`refit(found, piece, model,
/// SeenBy::MainColour)`), the two score more than each so fitted as itself. Each found within its
/// count, [`within_counts`] leaves them be; but beside a pink ship the canon may first read as the
/// die, the die's pink faces taking the ship's pixels, and the real die then as the canon. Seen
/// by their shared colour, only their shapes tell, and only the two readings together. A piece
/// so turned is reported fitted with all its model's colours when that fit holds. Ships and
/// anchors are fitted as pairs instead ([`Analyzer::settle_ships`]).
pub(super) fn swap_look_alikes(
    found: &mut [Found],
    models: &[Model],
    refit: impl Fn(&[Found], usize, usize, SeenBy) -> Option<Fit>,
) {
    let unique =
        |m: &Model| m.count <= 1 && m.in_play && !matches!(m.kind, PieceKind::Ship | PieceKind::Anchor);
    for i in 0..found.len() {
        for j in i + 1..found.len() {
            let (mi, mj) = (found[i].detection.model, found[j].detection.model);
            let (a, b) = (&models[mi], &models[mj]);
            if a.entry == b.entry || !unique(a) || !unique(b) || !a.primary.contains_any(b.primary.0) {
                continue;
            }
            let main = |k: usize, m: usize| refit(found, k, m, SeenBy::MainColour).map(|f| f.score());
            let (Some(i_as_b), Some(j_as_a)) = (main(i, mj), main(j, mi)) else {
                continue;
            };
            // A piece that its own main colour alone does not fit (a die showing a pink top)
            // keeps its score as read, all its colours counted: it is no look-alike here.
            let as_read = |k: usize, m: usize| main(k, m).unwrap_or_else(|| found[k].detection.fit.score());
            let read = as_read(i, mi) + as_read(j, mj);
            let swapped = i_as_b + j_as_a;
            let min_share = match canon_and_ship(found, models, i, j) {
                CanonAndShip::SwapPutsItThere => SWAP_TO_RULES_MIN_SHARE,
                CanonAndShip::SwapTakesItAway => SWAP_AGAINST_RULES_MIN_SHARE,
                CanonAndShip::Neither => SWAP_MIN_SHARE,
            };
            if swapped <= min_share * read {
                continue;
            }
            let full = |k: usize, m: usize| {
                refit(found, k, m, SeenBy::AllColours).or_else(|| refit(found, k, m, SeenBy::MainColour))
            };
            if let (Some(fi), Some(fj)) = (full(i, mj), full(j, mi)) {
                read_as(&mut found[i].detection, mj, fi);
                read_as(&mut found[j].detection, mi, fj);
            }
        }
    }
}

/// What swapping two look-alikes does to the Octo-Canon's contact with the pirate ship.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CanonAndShip {
    /// The piece read as the canon touches no pirate ship, the other touches one.
    SwapPutsItThere,
    /// The piece read as the canon touches a pirate ship, the other none.
    SwapTakesItAway,
    /// Neither, or no canon among the two.
    Neither,
}

/// What swapping pieces `i` and `j` does to the canon's contact with a pirate ship found in the
/// frame (see [`SWAP_TO_RULES_MIN_SHARE`]).
fn canon_and_ship(found: &[Found], models: &[Model], i: usize, j: usize) -> CanonAndShip {
    let footprint = |f: &Found| models[f.detection.model].footprint(&f.detection.fit.pose);
    let ships: Vec<_> = found
        .iter()
        .filter(|f| models[f.detection.model].kind == PieceKind::PirateShip)
        .map(footprint)
        .collect();
    let touches = |k: usize| {
        let at = footprint(&found[k]);
        ships.iter().any(|s| s.gap(&at) <= CANON_CONTACT_MM)
    };
    let is_canon = |k: usize| models[found[k].detection.model].kind == PieceKind::OctoCanon;
    let (canon, other) = match (is_canon(i), is_canon(j)) {
        (true, false) => (i, j),
        (false, true) => (j, i),
        _ => return CanonAndShip::Neither,
    };
    match (touches(canon), touches(other)) {
        (false, true) => CanonAndShip::SwapPutsItThere,
        (true, false) => CanonAndShip::SwapTakesItAway,
        _ => CanonAndShip::Neither,
    }
}

/// `detection` read as `model`, fitted so: its die top (read again afterwards) and runner-up
/// belonged to the model it was read as before.
fn read_as(detection: &mut Detection, model: usize, fit: Fit) {
    detection.model = model;
    detection.fit = fit;
    detection.top = None;
    detection.runner_up = None;
    detection.also_explains = ColourSet(0);
}

/// A piece fitted afresh as another model of its colour ([`within_counts`]).
struct Reading {
    /// Its score so read over its score as first read.
    share: f64,
    /// The other model.
    other: usize,
    fit: Fit,
}

/// Piece `k` of `found` fitted afresh by `refit` as each model sharing its main colour that
/// `spare` leaves room for.
fn same_colour_readings(
    found: &[Found],
    k: usize,
    models: &[Model],
    spare: &impl Fn(usize) -> bool,
    refit: &impl Fn(&[Found], usize, usize) -> Option<Fit>,
) -> Vec<(usize, Fit)> {
    let own = &models[found[k].detection.model];
    models
        .iter()
        .enumerate()
        .filter(|(other, m)| m.entry != own.entry && m.primary.contains_any(own.primary.0) && spare(*other))
        .filter_map(|(other, _)| refit(found, k, other).map(|fit| (other, fit)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{Catalog, PointMm};
    use crate::vision::colour::ColourSet;

    use crate::vision::view::{Pose2, Silhouette};

    /// The ink die and the Octo-Canon of the default catalog, their main colour one palette
    /// bit (as the palette has it: both near black), the die's pink another; and a cup of
    /// another colour.
    fn die_canon_goblet() -> Vec<Model> {
        let cat = Catalog::default_catalog();
        let model = |name: &str, primary: u32, secondary: u32| {
            let i = cat.pieces.iter().position(|e| e.name == name).unwrap();
            Model::new(i, &cat.pieces[i], ColourSet(primary), ColourSet(secondary), false)
        };
        vec![
            model("ink_die", 1, 2),
            model("octo_canon", 1, 0),
            model("goblet", 4, 0),
        ]
    }

    fn fit_at(x: f64, gain: f64, quality: f64) -> Fit {
        Fit {
            pose: Pose2 {
                center_mm: PointMm::new(x, 0.0),
                angle_rad: 0.0,
                base_mm: 0.0,
            },
            gain,
            area_px: gain / quality,
            silhouette: Silhouette::default(),
        }
    }

    fn found(model: usize, fit: Fit, region: usize) -> Found {
        Found {
            detection: Detection {
                model,
                fit,
                top: None,
                runner_up: None,
                on_shadows: false,
                also_explains: ColourSet(0),
            },
            region,
        }
    }

    /// What each piece (by its x) fits as when fitted afresh as `model`: (gain, quality).
    fn refits(table: &[(f64, usize, f64, f64)]) -> impl Fn(&[Found], usize, usize) -> Option<Fit> + '_ {
        move |found, k, model| {
            let x = found[k].detection.fit.pose.center_mm.x;
            table
                .iter()
                .find(|&&(tx, tm, _, _)| tx == x && tm == model)
                .map(|&(_, _, g, q)| fit_at(x, g, q))
        }
    }

    /// `refit` whatever colours a piece is seen by.
    fn any_seen<'a>(
        refit: impl Fn(&[Found], usize, usize) -> Option<Fit> + 'a,
    ) -> impl Fn(&[Found], usize, usize, SeenBy) -> Option<Fit> + 'a {
        move |found, k, model, _| refit(found, k, model)
    }

    #[test]
    fn a_canon_taken_for_the_die_becomes_the_canon_when_the_real_die_reads_as_no_canon() {
        let models = die_canon_goblet();
        // Beside a pink ship the die's model scores more on the canon (x = 0) than the real
        // die (x = 100) does; the canon's model fits the canon well, and the die badly.
        let mut found = vec![
            found(0, fit_at(0.0, 408.0, 0.77), 0),
            found(0, fit_at(100.0, 267.0, 0.6), 1),
        ];
        let table = [(0.0, 1, 379.0, 0.71), (100.0, 1, 120.0, 0.3)];
        let dropped = within_counts(&mut found, &models, any_seen(refits(&table)));
        assert!(dropped.is_empty());
        let at = |x: f64| {
            found
                .iter()
                .find(|f| f.detection.fit.pose.center_mm.x == x)
                .unwrap()
        };
        assert_eq!(at(0.0).detection.model, 1);
        assert_eq!(at(0.0).detection.fit.gain, 379.0);
        assert_eq!(at(100.0).detection.model, 0);
    }

    #[test]
    fn a_piece_whose_look_alike_was_not_found_becomes_it_when_it_scores_at_least_as_much_so() {
        let models = die_canon_goblet();
        let model_after = |found: Vec<Found>, table: &[(f64, usize, f64, f64)]| {
            let mut found = found;
            assert!(within_counts(&mut found, &models, any_seen(refits(table))).is_empty());
            found
                .iter()
                .map(|f| (f.detection.model, f.detection.fit.gain))
                .collect::<Vec<_>>()
        };
        // The canon (x = 0) read as the die, the real die missed (on a pink tentacle): fitted
        // afresh as the canon, which nothing else is, it scores more.
        let canon_as_die = vec![found(0, fit_at(0.0, 400.0, 0.7), 0)];
        assert_eq!(
            model_after(canon_as_die.clone(), &[(0.0, 1, 430.0, 0.8)]),
            [(1, 430.0)]
        );
        // It scores less as the canon (gain times quality): it is the die.
        assert_eq!(model_after(canon_as_die, &[(0.0, 1, 380.0, 0.7)]), [(0, 400.0)]);
        // It scores more, but fits the canon poorly: it stays the die.
        let poor_die = vec![found(0, fit_at(0.0, 400.0, 0.3), 0)];
        assert_eq!(model_after(poor_die, &[(0.0, 1, 430.0, 0.45)]), [(0, 400.0)]);
        // A canon was found elsewhere (x = 100): the die stays the die.
        let both = vec![
            found(0, fit_at(0.0, 400.0, 0.7), 0),
            found(1, fit_at(100.0, 300.0, 0.7), 1),
        ];
        assert_eq!(
            model_after(both, &[(0.0, 1, 430.0, 0.8)]),
            [(0, 400.0), (1, 300.0)]
        );
    }

    #[test]
    fn a_piece_over_the_count_that_reads_as_the_other_model_is_dropped_to_be_looked_at_again() {
        let models = die_canon_goblet();
        // The real die (x = 0) fits as a canon too, and so does the one over the count: which
        // is which is not clear, and the second look at the dropped one's region decides.
        let mut found = vec![
            found(0, fit_at(0.0, 641.0, 0.86), 0),
            found(0, fit_at(100.0, 402.0, 0.8), 1),
        ];
        let table = [(0.0, 1, 558.0, 0.89), (100.0, 1, 351.0, 0.69)];
        let dropped = within_counts(&mut found, &models, any_seen(refits(&table)));
        assert_eq!(dropped.len(), 1);
        assert_eq!(dropped[0].detection.fit.pose.center_mm.x, 100.0);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].detection.model, 0);
    }

    #[test]
    fn a_kept_piece_that_scores_more_as_the_other_model_is_turned_before_the_runner_up() {
        let models = die_canon_goblet();
        // The canon (x = 0) first read as the die, the real die (x = 100) over the count with
        // the canon as its runner-up by a hair: fitted afresh, the kept one scores more as the
        // canon than it did as the die, so it is the canon and the die stays the die.
        let mut real_die = found(0, fit_at(100.0, 394.0, 0.57), 1);
        real_die.detection.runner_up = Some((1, fit_at(100.0, 369.0, 0.61)));
        let mut found = vec![found(0, fit_at(0.0, 470.0, 0.83), 0), real_die];
        let table = [(0.0, 1, 481.0, 0.88), (100.0, 1, 369.0, 0.61)];
        assert!(within_counts(&mut found, &models, any_seen(refits(&table))).is_empty());
        let model_at = |x: f64| {
            found
                .iter()
                .find(|f| f.detection.fit.pose.center_mm.x == x)
                .unwrap()
                .detection
                .model
        };
        assert_eq!(model_at(0.0), 1);
        assert_eq!(model_at(100.0), 0);
    }

    #[test]
    fn a_canon_taken_for_the_die_by_a_pink_neighbour_becomes_the_canon_by_their_black_alone() {
        let models = die_canon_goblet();
        // `--seed 601` scene 620: the canon (x = 0) beside a pink tentacle reads as the die, its
        // pink faces on the tentacle (387 against the real die's 325, x = 100, pink face up).
        // With all their colours the canon's model keeps 0.46 of that; by black alone the die's
        // model scores `own_black` there, and the real die fits no canon.
        let turned = |own_black: f64| {
            let refit = |found: &[Found], k: usize, model: usize, seen: SeenBy| {
                let x = found[k].detection.fit.pose.center_mm.x;
                match (x == 0.0, model, seen) {
                    (true, 1, _) => Some(fit_at(0.0, 310.0, 0.57)),
                    (true, 0, SeenBy::MainColour) => Some(fit_at(0.0, own_black / 0.57, 0.57)),
                    _ => None,
                }
            };
            let mut found = vec![
                found(0, fit_at(0.0, 467.0, 0.83), 0),
                found(0, fit_at(100.0, 396.0, 0.82), 1),
            ];
            let dropped = within_counts(&mut found, &models, refit);
            let models_at: Vec<(f64, usize)> = found
                .iter()
                .map(|f| (f.detection.fit.pose.center_mm.x, f.detection.model))
                .collect();
            (models_at, dropped.len())
        };
        // As the canon by black it scores 1.04 of the die so: the canon, and the die stays.
        assert_eq!(turned(170.0), (vec![(0.0, 1), (100.0, 0)], 0));
        // It reads far better as the die by black (the canon 0.7 of it): the one over the
        // count is dropped, to be looked at again.
        assert_eq!(turned(252.0), (vec![(0.0, 0)], 1));
    }

    #[test]
    fn a_model_the_game_leaves_in_the_box_is_never_turned_into() {
        let mut models = die_canon_goblet();
        models[1].in_play = false;
        let mut real_die = found(0, fit_at(100.0, 394.0, 0.57), 1);
        real_die.detection.runner_up = Some((1, fit_at(100.0, 369.0, 0.61)));
        let mut found = vec![found(0, fit_at(0.0, 470.0, 0.83), 0), real_die];
        let table = [(0.0, 1, 481.0, 0.88), (100.0, 1, 369.0, 0.61)];
        assert_eq!(
            within_counts(&mut found, &models, any_seen(refits(&table))).len(),
            1
        );
        assert!(found.iter().all(|f| f.detection.model == 0));
    }

    #[test]
    fn a_kept_piece_is_turned_only_into_a_model_of_its_colour_that_keeps_most_of_its_score() {
        let models = die_canon_goblet();
        // As a canon the kept die would keep 0.5 of its score: not enough.
        let mut found_die = vec![
            found(0, fit_at(0.0, 400.0, 0.8), 0),
            found(0, fit_at(100.0, 300.0, 0.7), 1),
        ];
        let weak = [(0.0, 1, 250.0, 0.64)];
        assert_eq!(
            within_counts(&mut found_die, &models, any_seen(refits(&weak))).len(),
            1
        );
        assert_eq!(found_die[0].detection.model, 0);
        // A goblet (another colour) is never asked, however well it would fit; the canon is
        // not asked either once one is found.
        let asked = std::cell::RefCell::new(Vec::new());
        let mut found_all = vec![
            found(0, fit_at(0.0, 400.0, 0.8), 0),
            found(0, fit_at(100.0, 300.0, 0.7), 1),
            found(1, fit_at(200.0, 450.0, 0.9), 2),
        ];
        let spy = |found: &[Found], k: usize, model: usize| {
            asked
                .borrow_mut()
                .push((found[k].detection.fit.pose.center_mm.x, model));
            None
        };
        within_counts(&mut found_all, &models, any_seen(spy));
        assert!(asked.borrow().is_empty(), "{asked:?}");
    }

    /// What each piece (by its x) fits as when fitted afresh as `model` seen by its main colour
    /// (gain, quality); seen with all its colours, the same fit with 1 more gain (to tell which
    /// fit a turned piece is reported with).
    fn seen_refits(
        table: &[(f64, usize, f64, f64)],
    ) -> impl Fn(&[Found], usize, usize, SeenBy) -> Option<Fit> + '_ {
        move |found, k, model, seen| {
            let fit = refits(table)(found, k, model)?;
            Some(match seen {
                SeenBy::MainColour => fit,
                SeenBy::AllColours => fit_at(fit.pose.center_mm.x, fit.gain + 1.0, fit.quality()),
            })
        }
    }

    #[test]
    fn a_die_and_a_canon_read_each_as_the_other_swap_when_their_main_colour_says_so() {
        let models = die_canon_goblet();
        // The canon (x = 0) first read as the die, the die (x = 100) as the canon. Seen by their
        // black alone, each fits the other's model better: 200 + 270 against 150 + 210.
        let table = [
            (0.0, 0, 250.0, 0.6),
            (0.0, 1, 250.0, 0.8),
            (100.0, 1, 300.0, 0.7),
            (100.0, 0, 300.0, 0.9),
        ];
        let mut found = vec![
            found(0, fit_at(0.0, 500.0, 0.95), 0),
            found(1, fit_at(100.0, 300.0, 0.7), 1),
        ];
        swap_look_alikes(&mut found, &models, seen_refits(&table));
        assert_eq!(found[0].detection.model, 1);
        assert_eq!(found[0].detection.fit.gain, 251.0);
        assert_eq!(found[1].detection.model, 0);
        assert_eq!(found[1].detection.fit.gain, 301.0);
    }

    #[test]
    fn the_piece_against_the_pirate_ship_is_the_canon_when_it_reads_as_well_so() {
        let cat = Catalog::default_catalog();
        let mut models = die_canon_goblet();
        let ship = cat.pieces.iter().position(|e| e.name == "pirate_ship").unwrap();
        models.push(Model::new(
            ship,
            &cat.pieces[ship],
            ColourSet(8),
            ColourSet(0),
            false,
        ));
        let ship_model = models.len() - 1;
        // The die's footprint is 18 mm square, the pirate ship's 80 x 34 mm: a ship 2 mm from
        // the piece at `x`, 40 mm and more from the other.
        let ship_beside = |x: f64| Fit {
            pose: Pose2 {
                center_mm: PointMm::new(x, 9.0 + 17.0 + 2.0),
                angle_rad: 0.0,
                base_mm: 0.0,
            },
            ..fit_at(x, 2000.0, 0.9)
        };
        // Read as they are, the die at x = 0 and the canon at x = 100: 250 * 0.8 + 300 * 0.7 =
        // 410 by their black; the other way round scores `share` of it.
        let after = |share: f64, ship_at: Option<f64>| {
            let mut pieces = vec![
                found(0, fit_at(0.0, 400.0, 0.8), 0),
                found(1, fit_at(100.0, 300.0, 0.7), 1),
            ];
            if let Some(x) = ship_at {
                pieces.push(found(ship_model, ship_beside(x), 0));
            }
            let other = share * 410.0 - 0.7 * 300.0;
            let table = [
                (0.0, 0, 250.0, 0.8),
                (100.0, 1, 300.0, 0.7),
                (0.0, 1, other / 0.8, 0.8),
                (100.0, 0, 300.0, 0.7),
            ];
            swap_look_alikes(&mut pieces, &models, seen_refits(&table));
            (pieces[0].detection.model, pieces[1].detection.model)
        };
        let a_little_more = (SWAP_TO_RULES_MIN_SHARE + SWAP_MIN_SHARE) / 2.0;
        assert_eq!(after(a_little_more, None), (0, 1));
        // The piece read as the die touches the ship: scoring more read the other way is enough.
        assert_eq!(after(a_little_more, Some(0.0)), (1, 0));
        assert_eq!(after(SWAP_TO_RULES_MIN_SHARE - 0.02, Some(0.0)), (0, 1));
        // The piece read as the canon touches it: what would swap them elsewhere does not.
        let clearly_more = (SWAP_MIN_SHARE + SWAP_AGAINST_RULES_MIN_SHARE) / 2.0;
        assert_eq!(after(clearly_more, None), (1, 0));
        assert_eq!(after(clearly_more, Some(100.0)), (0, 1));
        assert_eq!(after(SWAP_AGAINST_RULES_MIN_SHARE + 0.05, Some(100.0)), (1, 0));
    }

    #[test]
    fn look_alikes_read_right_stay_unless_the_other_reading_is_clearly_better() {
        let models = die_canon_goblet();
        let after = |table: &[(f64, usize, f64, f64)]| {
            let mut found = vec![
                found(0, fit_at(0.0, 400.0, 0.8), 0),
                found(1, fit_at(100.0, 300.0, 0.7), 1),
            ];
            swap_look_alikes(&mut found, &models, seen_refits(table));
            (found[0].detection.model, found[1].detection.model)
        };
        // Read as they are: 250 * 0.8 + 300 * 0.7 = 410.
        let as_read = [(0.0, 0, 250.0, 0.8), (100.0, 1, 300.0, 0.7)];
        let swapped_by = |share: f64| {
            // The other way round: the canon's reading of x = 0 carries the share.
            let other = share * 410.0 - 0.7 * 300.0;
            let mut t = as_read.to_vec();
            t.extend([(0.0, 1, other / 0.8, 0.8), (100.0, 0, 300.0, 0.7)]);
            after(&t)
        };
        assert_eq!(swapped_by(1.0 + (SWAP_MIN_SHARE - 1.0) / 2.0), (0, 1));
        assert_eq!(swapped_by(SWAP_MIN_SHARE + 0.02), (1, 0));
        // A die whose black alone does not fit it (a pink top) keeps its score as read (400 *
        // 0.8), and stays a die however its black fits the canon.
        let pink_top = [
            (100.0, 1, 300.0, 0.7),
            (0.0, 1, 250.0, 0.6),
            (100.0, 0, 250.0, 0.6),
        ];
        assert_eq!(after(&pink_top), (0, 1));
        // Pieces of another main colour, or of which the box holds several, never swap.
        let goblets = [(0.0, 2, 900.0, 1.0), (100.0, 0, 900.0, 1.0)];
        let mut found_g = vec![
            found(0, fit_at(0.0, 400.0, 0.8), 0),
            found(2, fit_at(100.0, 300.0, 0.7), 1),
        ];
        swap_look_alikes(&mut found_g, &models, seen_refits(&goblets));
        assert_eq!((found_g[0].detection.model, found_g[1].detection.model), (0, 2));
        let mut models4 = die_canon_goblet();
        models4[1].count = 4;
        let mut found_4 = vec![
            found(0, fit_at(0.0, 400.0, 0.8), 0),
            found(1, fit_at(100.0, 300.0, 0.7), 1),
        ];
        let strong = [(0.0, 1, 900.0, 1.0), (100.0, 0, 900.0, 1.0)];
        swap_look_alikes(&mut found_4, &models4, seen_refits(&strong));
        assert_eq!((found_4[0].detection.model, found_4[1].detection.model), (0, 1));
    }
}
