//! Vision end to end on rendered scenes: the bench on a small fixed set of scenes (the issue's
//! "done when" figures, with tolerances), and teaching a recoloured piece.
//!
//! Every scene is calibrated from its own rendered board and empty table (the real pipeline,
//! never the true camera), so the figures include calibration's errors. Run with
//! `--nocapture` to see them.

#![allow(clippy::unwrap_used, clippy::panic, clippy::print_stdout)] // helpers outside #[test] fns: a failure there is a test failure; figures are printed

use octoref::calibrate::board::BoardSpec;
use octoref::calibrate::counter::DEFAULT_BEAD_COUNT;
use octoref::calibrate::profile::Profile;
use octoref::calibrate::{charuco, setup};
use octoref::referee::{FrameReport, GameContext};
use octoref::synth::{
    Faults, FrameTruth, Layout, Resolution, Scene, SceneSpec, frame_file, frame_truth, jpeg_round_trip,
    render_board, render_empty, render_frame,
};
use octoref::table::catalog::Srgb;
use octoref::table::{Catalog, PieceKind};
use octoref::vision::bench::{self, BenchConfig};
use octoref::vision::evaluate::{KindCounts, Summary, score_frame, truth_report};
use octoref::vision::teach::{self, Pick, TeachError};
use octoref::vision::{Analyzer, TaughtModels};
use opencv::core::Mat;

// ---------------------------------------------------------------------------------------------
// The bench on four fixed scenes (tilts 0, 11.7, 23.3 and 35 degrees; 2-4 players; modules
// mixed), two frames each.

/// First seed of the fixed scenes.
const BENCH_SEED: u64 = 11;
const BENCH_SCENES: usize = 4;
const BENCH_FRAMES: usize = 2;

/// The bar ("done when", `vision::bench::bar`). The detector being finished in parallel
/// does not reach all of it yet; the asserted figures below are what it reaches today with a
/// margin, and are tightened to these when it does.
mod done_when {
    pub use octoref::vision::bench::bar::*;
}

/// What today's detector is held to on these scenes (see `done_when` for the final bar, per
/// kind): precision and recall summed over every kind, the position error and rulings.
const ASSERTED_MIN_PRECISION_OVERALL: f64 = 0.93;
const ASSERTED_MIN_RECALL_OVERALL: f64 = 0.88;
const ASSERTED_MAX_MEDIAN_ERROR_MM: f64 = done_when::MAX_MEDIAN_ERROR_MM;
const ASSERTED_MAX_P95_ERROR_MM: f64 = done_when::MAX_P95_ERROR_MM;
const ASSERTED_MIN_OCEAN_RIGHT: f64 = done_when::MIN_OCEAN_RIGHT;
const ASSERTED_MIN_CLOSEST_RIGHT: f64 = 0.75;
/// Kinds that already meet the bar on these scenes: held to it.
const AT_THE_BAR: [&str; 3] = ["crab", "octopus_head", "treasure/goblet"];
const ASSERTED_MAX_CLEAR_CALLED_TIE: usize = done_when::MAX_CLEAR_CALLED_TIE;
const ASSERTED_MIN_COUNTER_RIGHT: f64 = 0.75;

#[test]
fn bench_figures_on_fixed_scenes() {
    let config = BenchConfig {
        scenes: BENCH_SCENES,
        seed: BENCH_SEED,
        frames_per_scene: BENCH_FRAMES,
        threads: bench::MAX_THREADS,
        ..BenchConfig::default()
    };
    let report = bench::run(&config, &|| {}).unwrap();
    println!(
        "position error {:?}\nrulings {:?}\nspeed {:?}",
        report.position_error, report.rulings, report.speed
    );
    for c in &report.checks {
        println!("{:40} {:>24} {:>10} {}", c.name, c.value, c.bar, c.pass);
    }
    // The run itself: every scene rendered, calibrated and analysed.
    assert_eq!(report.scenes, BENCH_SCENES);
    assert_eq!(
        report.seeds,
        (BENCH_SEED..BENCH_SEED + BENCH_SCENES as u64).collect::<Vec<_>>()
    );
    for s in &report.scene_list {
        assert!(s.error.is_none(), "scene {} failed: {:?}", s.seed, s.error);
        assert_eq!(s.frames, BENCH_FRAMES);
    }
    assert_eq!(report.frames, BENCH_SCENES * BENCH_FRAMES);
    let tilts: Vec<f64> = report.scene_list.iter().map(|s| s.tilt_deg).collect();
    assert!(
        tilts[0].abs() < 0.5 && (tilts[3] - 35.0).abs() < 0.5,
        "tilts {tilts:?}"
    );
    // Every kind that is always on the table was scored.
    for row in [
        "ship",
        "octopus_head",
        "tentacle",
        "anchor",
        "crab",
        "ink_die",
        "treasure/gold",
    ] {
        assert!(
            report.kinds.contains_key(row),
            "no {row} row: {:?}",
            report.kinds.keys()
        );
    }

    // Accuracy.
    for (k, row) in &report.kinds {
        println!(
            "{k:20} P {:.3} R {:.3} TP {} FP {} FN {} (bar P,R >= {}, {})",
            row.precision,
            row.recall,
            row.true_positive,
            row.false_positive,
            row.false_negative,
            done_when::MIN_PRECISION,
            done_when::MIN_RECALL
        );
    }
    for row in AT_THE_BAR {
        let k = &report.kinds[row];
        assert!(
            k.precision >= done_when::MIN_PRECISION && k.recall >= done_when::MIN_RECALL,
            "{row}: {k:?}"
        );
    }
    let (tp, fp, fneg) = report.kinds.values().fold((0, 0, 0), |(a, b, c), r| {
        (a + r.true_positive, b + r.false_positive, c + r.false_negative)
    });
    let precision = tp as f64 / (tp + fp).max(1) as f64;
    let recall = tp as f64 / (tp + fneg).max(1) as f64;
    println!("overall precision {precision:.3} recall {recall:.3}");
    assert!(
        precision >= ASSERTED_MIN_PRECISION_OVERALL,
        "overall precision {precision:.3} (asserted {ASSERTED_MIN_PRECISION_OVERALL}, bar {} per kind)",
        done_when::MIN_PRECISION
    );
    assert!(
        recall >= ASSERTED_MIN_RECALL_OVERALL,
        "overall recall {recall:.3} (asserted {ASSERTED_MIN_RECALL_OVERALL}, bar {} per kind)",
        done_when::MIN_RECALL
    );
    let pe = &report.position_error;
    assert!(pe.matched > 100, "{pe:?}");
    assert!(pe.median_mm.unwrap() <= ASSERTED_MAX_MEDIAN_ERROR_MM, "{pe:?}");
    assert!(pe.p95_mm.unwrap() <= ASSERTED_MAX_P95_ERROR_MM, "{pe:?}");

    // Rulings.
    let r = &report.rulings;
    assert!(r.ocean.checked > 100, "{:?}", r.ocean);
    assert!(
        r.closest.checked > 0,
        "no player had a clear closest treasure: {r:?}"
    );
    assert!(
        r.closest.share >= ASSERTED_MIN_CLOSEST_RIGHT,
        "{:?} (asserted {ASSERTED_MIN_CLOSEST_RIGHT}, bar {})",
        r.closest,
        done_when::MIN_CLOSEST_RIGHT
    );
    #[allow(clippy::absurd_extreme_comparisons)] // the asserted figure is the bar, 0
    let ties_ok = r.clear_called_tie <= ASSERTED_MAX_CLEAR_CALLED_TIE;
    assert!(ties_ok, "{r:?} (bar {})", done_when::MAX_CLEAR_CALLED_TIE);
    assert!(
        r.ocean.share >= ASSERTED_MIN_OCEAN_RIGHT,
        "{:?} (bar {})",
        r.ocean,
        done_when::MIN_OCEAN_RIGHT
    );
    assert!(
        r.counter.checked == report.frames && r.counter.share >= ASSERTED_MIN_COUNTER_RIGHT,
        "{:?}",
        r.counter
    );
    // Every scene's beads are read as threaded at set-up.
    assert_eq!(r.beads.checked, BENCH_SCENES, "{:?}", r.beads);
    assert_eq!(r.beads.right, BENCH_SCENES, "{:?}", r.beads);

    // Speed is measured, never asserted: only that it was measured, in the same run.
    assert!(report.speed.reference_ms > 0.0 && report.speed.analysis_ms > 0.0);
    assert!((report.speed.ratio - report.speed.analysis_ms / report.speed.reference_ms).abs() < 1e-9);
    // The verdict follows the checks.
    assert_eq!(report.pass, report.checks.iter().all(|c| c.pass));
}

// ---------------------------------------------------------------------------------------------
// A ship and its anchor of one colour.

/// The bench's report on its scene `seed` alone, `frames` frames (the scene must have run).
fn one_scene(seed: u64, frames: usize) -> bench::BenchReport {
    let config = BenchConfig {
        scenes: 1,
        seed,
        frames_per_scene: frames,
        threads: 1,
        ..BenchConfig::default()
    };
    let report = bench::run(&config, &|| {}).unwrap();
    assert!(
        report.scene_list[0].error.is_none(),
        "{:?}",
        report.scene_list[0].error
    );
    report
}

/// The bench's scene 1: its second frame has the orange ship and its orange anchor side by side,
/// where the ship was once fitted turned over the anchor and the anchor read on its stern.
const TANGLE_SEED: u64 = 1;
const TANGLE_FRAMES: usize = 2;

#[test]
fn a_ship_and_its_anchor_of_one_colour_are_each_found_where_they_lie() {
    let report = one_scene(TANGLE_SEED, TANGLE_FRAMES);
    for kind in ["anchor", "ship"] {
        let row = &report.kinds[kind];
        assert_eq!(
            (row.false_positive, row.false_negative),
            (0, 0),
            "{kind}: {row:?}"
        );
    }
}

/// Scene `seed` exactly as `octoref bench` (30 scenes) builds it, its tilt and modules
/// included, analysed frame by frame: the counts summed over its first `frames` frames.
fn scene_of_the_bench(seed: u64, frames: usize) -> Summary {
    scene_of_a_bench_from(BenchConfig::default().seed, seed, frames)
}

/// [`scene_of_the_bench`] of `octoref bench --scenes 30 --seed first`.
fn scene_of_a_bench_from(first: u64, seed: u64, frames: usize) -> Summary {
    let mut summary = Summary::default();
    for_each_frame_of_a_bench_from(first, seed, frames, |truth, truth_ruled, report| {
        summary.add(&score_frame(truth, truth_ruled, report));
    });
    summary
}

/// Scene `seed` of `octoref bench --scenes 30 --seed first`, its first `frames` frames each
/// analysed and ruled and handed to `look` with the truth (ruled too).
fn for_each_frame_of_a_bench_from(
    first: u64,
    seed: u64,
    frames: usize,
    mut look: impl FnMut(&FrameTruth, &FrameReport, &FrameReport),
) {
    let spec = spec_of_a_bench_from(first, seed);
    let scene = octoref::vision::synthetic::prepare(&spec, frames, |_| Faults::none()).unwrap();
    let catalog = Catalog::default_catalog();
    let ctx = GameContext::with_players(spec.player_colours());
    let in_play = bench::scene_in_play(&spec).unwrap();
    let analyzer = Analyzer::new(
        &scene.profile,
        &scene.reference,
        &catalog,
        &TaughtModels::default(),
    )
    .unwrap()
    .with_in_play(&in_play);
    for f in &scene.frames {
        let (report, _) = analyzer.report(&f.image, &f.truth.image, &ctx).unwrap();
        let truth_ruled = truth_report(&f.truth, &ctx).unwrap();
        look(&f.truth, &truth_ruled, &report);
    }
}

/// The spec of scene `seed` of `octoref bench --scenes 30 --seed first`.
fn spec_of_a_bench_from(first: u64, seed: u64) -> SceneSpec {
    let config = BenchConfig {
        scenes: 30,
        seed: first,
        ..BenchConfig::default()
    };
    bench::scene_specs(&config)
        .into_iter()
        .find(|s| s.seed == seed)
        .unwrap()
}

/// A row of `summary` (zero when the scene neither has nor shows that kind).
fn counts(summary: &Summary, kind: &str) -> KindCounts {
    summary.kinds.get(kind).copied().unwrap_or_default()
}

/// None of `kind` extra, and at most `missed` of them missed.
fn assert_none_extra_and_missed_at_most(summary: &Summary, kind: &str, missed: usize) {
    let row = counts(summary, kind);
    assert_eq!(row.false_positive, 0, "{kind}: {row:?}");
    assert!(row.false_negative <= missed, "{kind}: {row:?}");
}

/// Every piece of these kinds found, and none extra.
fn assert_found_exactly(summary: &Summary, kinds: &[&str]) {
    for &kind in kinds {
        let row = counts(summary, kind);
        assert_eq!(
            (row.false_positive, row.false_negative),
            (0, 0),
            "{kind}: {row:?}"
        );
    }
}

/// Bench scene 5 (of 30; tilt 4.8 degrees): the orange ship with its anchor at the bow and a
/// goblet on the stern. Before the hull was untangled from starts slid along its length, its
/// frames 2 and 3 fitted the ship turned end for end 12 mm towards the anchor, read an extra
/// anchor at the stern and named the wrong closest treasure for orange (anchors: 2 extra; 3
/// wrong closest calls in the scene).
const SLID_SHIP_SEED: u64 = 5;
const SLID_SHIP_FRAMES: usize = 3;

#[test]
fn a_ship_fitted_over_its_anchor_slides_back_where_it_lies() {
    let summary = scene_of_the_bench(SLID_SHIP_SEED, SLID_SHIP_FRAMES);
    let anchors = counts(&summary, "anchor");
    assert_eq!(anchors.false_positive, 0, "{anchors:?}");
    assert_found_exactly(&summary, &["ship"]);
    let r = &summary.rulings;
    assert_eq!(r.closest_right, r.closest_checked, "{r:?}");
}

/// Bench scene 24 (tilt 27.8 degrees), frame 3: the orange ship with its anchor against its
/// side. The ship was first fitted across the two, 38 degrees and 13 mm off; no turn or slide of
/// that pose led back, the anchor was read beside the ship's far end and orange's closest
/// treasure was wrong. Untangling now also starts from a coarse grid of clearly different lines.
const CROSSED_ANCHOR_SEED: u64 = 24;
const CROSSED_ANCHOR_FRAMES: usize = 3;

#[test]
fn a_ship_fitted_across_its_anchor_is_found_along_its_own_line() {
    let summary = scene_of_the_bench(CROSSED_ANCHOR_SEED, CROSSED_ANCHOR_FRAMES);
    assert_found_exactly(&summary, &["anchor", "ship"]);
    let r = &summary.rulings;
    assert_eq!(r.closest_right, r.closest_checked, "{r:?}");
}

/// Bench scene 15 (of 30; tilt 16.9 degrees): the orange anchor touches its ship's side. The
/// ship's first, rough pose held the anchor's pixels, what was left of them was too little for
/// an anchor, and it was missed in all 3 frames until what the final poses leave was looked at
/// again.
const HELD_ANCHOR_SEED: u64 = 15;
const HELD_ANCHOR_FRAMES: usize = 3;
const HELD_ANCHORS_MISSED_AT_MOST: usize = 1;

#[test]
fn an_anchor_its_ship_held_at_first_is_found_on_a_second_look() {
    let summary = scene_of_the_bench(HELD_ANCHOR_SEED, HELD_ANCHOR_FRAMES);
    assert_none_extra_and_missed_at_most(&summary, "anchor", HELD_ANCHORS_MISSED_AT_MOST);
}

/// Bench scene 28 (of 30; tilt 32.6 degrees): in its first frame two tentacles' pink was read
/// as the little octopus and the pirate ship, pieces this scene does not have, while the models
/// were compared at their first, unrefined fits.
const PINK_SEED: u64 = 28;
const PINK_FRAMES: usize = 1;

#[test]
fn pink_pieces_of_one_colour_are_told_apart_by_their_refined_fits() {
    let summary = scene_of_the_bench(PINK_SEED, PINK_FRAMES);
    assert_found_exactly(
        &summary,
        &["tentacle", "little_octopus", "pirate_ship", "octopus_head"],
    );
}

/// Bench scene 6 (of 30; tilt 6 degrees): the green ship carries treasures over half its deck.
/// While its quality was taken over its whole silhouette, loads included, it stayed under the
/// minimum where it lay, and the ship was missed in all 3 frames.
const LOADED_SHIP_SEED: u64 = 6;
const LOADED_SHIP_FRAMES: usize = 3;

#[test]
fn a_ship_carrying_treasures_is_judged_on_what_they_leave_of_it() {
    let summary = scene_of_the_bench(LOADED_SHIP_SEED, LOADED_SHIP_FRAMES);
    assert_found_exactly(&summary, &["ship"]);
}

/// Bench scene 29 (of 30; tilt 33.8 degrees, a pale grey table): a white captain shows little
/// more than its navy hat there. Standing on the island, or with its hat inside another piece's
/// silhouette, it was held to the quality floor of a piece among pieces found (0.55), which a
/// captain placed by its hat never reaches: 6 of its 12 captains were missed in 3 frames (7 on
/// 3ec8201, before the ship changes; 1 before a highlight's lightness was allowed on a dark
/// colour, see `navy_hats_greyed_by_highlights_still_place_their_captains`).
const WHITE_CAPTAIN_SEED: u64 = 29;
const WHITE_CAPTAIN_FRAMES: usize = 3;
const WHITE_CAPTAINS_MISSED_AT_MOST: usize = 0;

#[test]
fn white_captains_on_a_pale_table_are_found_among_other_pieces() {
    let summary = scene_of_the_bench(WHITE_CAPTAIN_SEED, WHITE_CAPTAIN_FRAMES);
    assert_none_extra_and_missed_at_most(&summary, "treasure/captain", WHITE_CAPTAINS_MISSED_AT_MOST);
}

/// Bench scene 17 (of 30; tilt 19.3 degrees), on a pale grey table: a white captain standing
/// alone, its white body passing for the table, shows only its navy hat, as dark there as a
/// shadow. The hat's pixels are labelled shadow but read best as navy alone, where the table's
/// own shadows read as the purple ship's colour. Until such patches were taken for a piece's top,
/// the captain was missed in 2 of the 3 frames.
const HAT_AS_SHADOW_SEED: u64 = 17;
const HAT_AS_SHADOW_FRAMES: usize = 3;

#[test]
fn a_white_captain_whose_navy_hat_reads_as_shadow_is_found_by_its_hat() {
    let summary = scene_of_the_bench(HAT_AS_SHADOW_SEED, HAT_AS_SHADOW_FRAMES);
    assert_found_exactly(&summary, &["treasure/captain"]);
}

/// Scene 105 of `octoref bench --seed 101` (tilt 4.8 degrees), on a pale grey table: a white
/// captain stands alone, its hat as dark as a shadow at the coarse scale too, so no region was
/// looked at there and it was missed in all 3 frames; a second one rides on the blue ship's deck.
/// Since hat-coloured shadow patches are changes in the coarse view as well, the lone captain is
/// found in every frame. The one on the deck was then still missed in the first frame, its
/// shaded side labelled shadow against the pale table the ship hides, until a deck's pixels
/// read as table or shadow were read for loads by their colour (6 misses, then 4 once the fine
/// view took such patches for tops, then 1, now none).
const HAT_ALONE_FIRST: u64 = 101;
const HAT_ALONE_SEED: u64 = 105;
const HAT_ALONE_FRAMES: usize = 3;
const HAT_ALONE_MISSED_AT_MOST: usize = 0;

#[test]
fn a_white_captain_alone_whose_hat_reads_as_shadow_is_looked_at_and_found() {
    let summary = scene_of_a_bench_from(HAT_ALONE_FIRST, HAT_ALONE_SEED, HAT_ALONE_FRAMES);
    assert_none_extra_and_missed_at_most(&summary, "treasure/captain", HAT_ALONE_MISSED_AT_MOST);
}

/// Bench scene 4 (of 30; tilt 3.6 degrees): a brown chest loaded on the orange ship. In shade
/// brown and orange are one hue, the ship took the chest's pixels as its own, and the chest
/// was missed in all 3 frames until darker patches of a deck were looked at again.
const DECK_CHEST_SEED: u64 = 4;
const DECK_CHEST_FRAMES: usize = 3;

#[test]
fn a_brown_chest_on_an_orange_deck_is_found() {
    let summary = scene_of_the_bench(DECK_CHEST_SEED, DECK_CHEST_FRAMES);
    assert_found_exactly(&summary, &["treasure/chest", "ship"]);
}

/// Bench scene 9 (tilt 9.7 degrees), second frame: the crab four beads along, a cord's length
/// past the black bead it last stepped over. Its rims (its shaded edge, the shadow it casts on
/// the string) read as nothing the counter knows, and with the cord made a gap wider than the
/// counter's run may hold: the run began at the crab, read at the start (0 for 4).
const CRAB_APART_SEED: u64 = 9;
const CRAB_APART_FRAMES: usize = 2;

#[test]
fn a_crab_a_cord_apart_from_the_beads_it_stepped_over_is_counted_after_them() {
    assert_crab_counted_in_every_frame(BenchConfig::default().seed, CRAB_APART_SEED, CRAB_APART_FRAMES);
}

/// The crab's place on the counter is read right in each of the first `frames` frames of scene
/// `seed` of `octoref bench --scenes 30 --seed first`.
fn assert_crab_counted_in_every_frame(first: u64, seed: u64, frames: usize) {
    let summary = scene_of_a_bench_from(first, seed, frames);
    let r = &summary.rulings;
    assert_eq!(r.counter_checked, frames);
    assert_eq!(r.counter_right, frames, "{r:?}");
}

/// Scene 126 of `octoref bench --seed 101` (tilt 30.2 degrees), third frame: the crab five beads
/// along (`BBBK B`). Its first three blue beads read as 33 mm of blue, and shared out by the
/// length before and after it, 5.5 of the 16 beads lay behind it: read at 6. The sequence the
/// beads follow is known from set-up, and only 5 shows the blocks seen next to the crab (`K B`,
/// then `BB K`) at their lengths.
const CRAB_AFTER_FIVE_FIRST: u64 = 101;
const CRAB_AFTER_FIVE_SEED: u64 = 126;
const CRAB_AFTER_FIVE_FRAMES: usize = 3;

#[test]
fn beads_behind_the_crab_are_counted_by_the_sequence_they_follow() {
    assert_crab_counted_in_every_frame(
        CRAB_AFTER_FIVE_FIRST,
        CRAB_AFTER_FIVE_SEED,
        CRAB_AFTER_FIVE_FRAMES,
    );
}

/// Scene 327 of `octoref bench --seed 301` (tilt 31.4 degrees), second frame: the crab two beads
/// along. The counter's run ended three beads short (a black bead read as 1 mm, the last blacks
/// unread), and shared out by length 2.8 beads lay behind the crab: read at 3. The blocks next
/// to the crab (24 mm of blue behind it, one blue bead and a black one ahead) show 2.
const CRAB_AFTER_TWO_FIRST: u64 = 301;
const CRAB_AFTER_TWO_SEED: u64 = 327;
const CRAB_AFTER_TWO_FRAMES: usize = 2;

#[test]
fn beads_behind_the_crab_are_counted_by_the_blocks_beside_it_when_the_run_is_cut_short() {
    assert_crab_counted_in_every_frame(CRAB_AFTER_TWO_FIRST, CRAB_AFTER_TWO_SEED, CRAB_AFTER_TWO_FRAMES);
}

/// Scene 122 of `octoref bench --seed 101`, third frame: the crab four beads along (`BBBK`).
/// The black bead just behind it, under its lean and shadow, read as 1.5 mm of black and 3.5 mm
/// of nothing: too short for a block, it was dropped, no count of the sequence showed the blue
/// block left next to the crab, and shared out by length the crab stood after 3. Kept as a bead
/// the crab may hide, it is the `K` the sequence puts there.
const CRAB_HIDES_A_BEAD_FIRST: u64 = 101;
const CRAB_HIDES_A_BEAD_SEED: u64 = 122;
const CRAB_HIDES_A_BEAD_FRAMES: usize = 3;

#[test]
fn a_black_bead_the_crab_half_hides_is_counted_behind_it() {
    assert_crab_counted_in_every_frame(
        CRAB_HIDES_A_BEAD_FIRST,
        CRAB_HIDES_A_BEAD_SEED,
        CRAB_HIDES_A_BEAD_FRAMES,
    );
}

/// Set-ups whose black beads read dimly (`octoref bench --seed S`, scene): on a dark grey table
/// a black bead's lit top reads as neither black nor table, and its black samples came in two
/// stretches of 1.5 mm either side of it (325), or one of 1-2.5 mm in a bead-long stretch of
/// nothing (606, 707). Each was dropped, the blue blocks either side merged, and the sequence
/// was read with one or two blues for blacks: every "next bead" of the game would have been
/// wrong.
const DIM_BLACK_BEADS: [(u64, u64); 3] = [(301, 325), (601, 606), (701, 707)];

#[test]
fn black_beads_read_dimly_are_read_at_set_up() {
    for (first, seed) in DIM_BLACK_BEADS {
        let spec = spec_of_a_bench_from(first, seed);
        let scene = octoref::vision::synthetic::prepare(&spec, 0, |_| Faults::none()).unwrap();
        let read = scene.profile.counter.as_ref().map(|c| c.report.beads.to_string());
        assert_eq!(read, Some(scene.scene.beads.to_string()), "scene {seed}");
    }
}

/// Scene 730 of `octoref bench --seed 701` (tilt 35 degrees, the camera 800 mm up), second and
/// third frames: a gold bar on the orange ship's deck leans off it in the picture, and fitted at
/// table height it stood beside the hull, 19 mm from where it rode: a loose treasure touching
/// the ship, called its closest while the true one lay 60 mm further. Seen standing on the
/// deck, its middle lies over the deck, and it is fitted there.
const LOAD_LEANING_OFF_FIRST: u64 = 701;
const LOAD_LEANING_OFF_SEED: u64 = 730;
const LOAD_LEANING_OFF_FRAMES: usize = 3;

#[test]
fn a_load_leaning_off_its_deck_in_the_picture_rides_on_its_ship() {
    let summary = scene_of_a_bench_from(
        LOAD_LEANING_OFF_FIRST,
        LOAD_LEANING_OFF_SEED,
        LOAD_LEANING_OFF_FRAMES,
    );
    let r = &summary.rulings;
    assert!(r.closest_checked >= LOAD_LEANING_OFF_FRAMES, "{r:?}");
    assert_eq!(r.closest_right, r.closest_checked, "{r:?}");
    assert_eq!(r.loaded_right, r.loaded_checked, "{r:?}");
}

/// Scene 118 of `octoref bench --seed 101` (tilt 20.5 degrees), on brown wood: a brown chest
/// rides on the orange ship. Its lit side reads as the table's brown and its shaded side as the
/// table's shadow (a sixth and a fifth of its outline), labelled against the table the ship
/// hides; the chest fitted at its true pose explained about 0.3 of its outline, and it was
/// missed in all 3 frames (with a gold bar beside it in the third). A deck's pixels labelled
/// table or shadow that read best as a treasure's colour are now looked at with its loads.
const CHEST_ON_WOOD_FIRST: u64 = 101;
const CHEST_ON_WOOD_SEED: u64 = 118;
const CHEST_ON_WOOD_FRAMES: usize = 3;

#[test]
fn a_brown_chest_on_a_deck_over_brown_wood_is_found() {
    let summary = scene_of_a_bench_from(CHEST_ON_WOOD_FIRST, CHEST_ON_WOOD_SEED, CHEST_ON_WOOD_FRAMES);
    assert_found_exactly(&summary, &["treasure/chest", "treasure/gold", "ship"]);
}

/// Scene 404 of `octoref bench --seed 401` (tilt 3.6 degrees), third frame: a second orange hull was
/// found over the orange anchor, fitting worse than the real ship. Its deck's table-coloured
/// pixels were read as a chest, which pushed a real, partly hidden chest out of the box's count
/// (1 chest missed, 1 extra) before the counts dropped that hull. A hull fitting worse than
/// another of its ship in the region now carries no load read by its colour alone.
const SECOND_HULL_FIRST: u64 = 401;
const SECOND_HULL_SEED: u64 = 404;
const SECOND_HULL_FRAMES: usize = 3;

#[test]
fn a_second_hull_of_one_ship_carries_no_load_read_by_colour_alone() {
    let summary = scene_of_a_bench_from(SECOND_HULL_FIRST, SECOND_HULL_SEED, SECOND_HULL_FRAMES);
    assert_found_exactly(&summary, &["treasure/chest", "ship", "anchor"]);
}

/// Bench scene 29 again: seen from 34 degrees, the island palm's crown leans off the sand.
/// While the island's solid had no palm, the crown was read as the green anchor (the box holds
/// one), and the real green anchor by its ship was dropped: 3 anchors missed and 3 extra.
#[test]
fn the_island_palm_leaning_off_the_sand_is_not_a_green_anchor() {
    let summary = scene_of_the_bench(WHITE_CAPTAIN_SEED, WHITE_CAPTAIN_FRAMES);
    assert_found_exactly(&summary, &["anchor", "island"]);
}

/// Bench scene 10 (of 30; tilt 10.9 degrees): the octopus head's white eyes with their dark
/// pupils lean past its outline and were read as a captain standing inside the head, in all 3
/// frames.
const HEAD_EYES_SEED: u64 = 10;
const HEAD_EYES_FRAMES: usize = 3;

#[test]
fn the_octopus_eyes_are_not_a_captain_inside_its_head() {
    let summary = scene_of_the_bench(HEAD_EYES_SEED, HEAD_EYES_FRAMES);
    let captains = counts(&summary, "treasure/captain");
    assert_eq!(captains.false_positive, 0, "{captains:?}");
    assert_found_exactly(&summary, &["octopus_head"]);
}

/// Bench scene 5 again: the pink pirate ship lies against a tentacle. The octopus head laid
/// over both explained a few more pixels than the ship did alone, though it left two fifths of
/// itself on bare table; it was then dropped as a second head, and the ship and the tentacle
/// were missed in frames 2 and 3.
#[test]
fn a_pirate_ship_whole_beats_the_octopus_head_laid_over_it() {
    let summary = scene_of_the_bench(SLID_SHIP_SEED, SLID_SHIP_FRAMES);
    assert_found_exactly(&summary, &["pirate_ship", "tentacle", "octopus_head"]);
}

/// The scene `octoref bench --scenes 1 --seed 25` renders (camera straight down: a one-scene
/// bench starts at the tilt range's low end, unlike scene 25 of the 30): its goblets' dark
/// insides look like the table, and before a cup's mouth counted neither way its three frames
/// read a goblet as a gold bar or missed it (goblets missed: 3).
const GOBLET_SEED: u64 = 25;
const GOBLET_FRAMES: usize = 3;

#[test]
fn goblets_whose_insides_look_like_the_table_are_found() {
    let report = one_scene(GOBLET_SEED, GOBLET_FRAMES);
    let goblets = &report.kinds["treasure/goblet"];
    assert_eq!(goblets.false_negative, 0, "{goblets:?}");
    assert!(goblets.false_positive <= 1, "{goblets:?}");
    let gold = &report.kinds["treasure/gold"];
    assert_eq!((gold.false_positive, gold.false_negative), (0, 0), "{gold:?}");
}

/// Bench scene 1 (a warm wooden table whose shadows lean the chests' way): pixel by pixel its
/// brown chests read as the table in shadow, and before whole patches were weighed, all 9
/// chests its 3 frames show were missed; before a shadow needed a caster, 4 still were (the
/// ones out in the open, with nothing beside them to cast them).
const SHADED_CHEST_SEED: u64 = 1;
const SHADED_CHEST_FRAMES: usize = 3;
const SHADED_CHESTS_MISSED_AT_MOST: usize = 1;
/// In the last frame the orange ship is missed and read as five orange anchors; the region's
/// second look, with the one kept, reads the real anchor beside it as a chest.
const SHADED_CHESTS_EXTRA_AT_MOST: usize = 1;

/// Bench scene 8 (of 30; tilt 8.4 degrees): the black Octo-Canon on a pale table is as dark as
/// a shadow there and as neutral, pixel by pixel (its ring is labelled shadow, 421 of its 449
/// pixels). It was missed in all 3 frames until a shadow needed a caster on its light side.
const DARK_CANON_SEED: u64 = 8;
const DARK_CANON_FRAMES: usize = 3;

#[test]
fn a_black_octo_canon_as_dark_as_a_shadow_is_found() {
    let summary = scene_of_the_bench(DARK_CANON_SEED, DARK_CANON_FRAMES);
    assert_found_exactly(&summary, &["octo_canon"]);
}

/// Scene 114 of `octoref bench --scenes 30 --seed 101` (tilt 15.7 degrees), second frame: the
/// black Octo-Canon stands against the pink pirate ship on brown wood, and the ink die's model
/// (its pink faces taking the ship's edge) explained its pixels better than the canon's own. The
/// real die, found too, was dropped as one die more than the box holds: the canon and the die
/// were both missed, and a die read where the canon stood. The kept die is now refitted as the
/// canon, which the real die does not fit.
const CANON_BY_PINK_SHIP_FIRST: u64 = 101;
const CANON_BY_PINK_SHIP_SEED: u64 = 114;
const CANON_BY_PINK_SHIP_FRAMES: usize = 2;

#[test]
fn a_canon_taken_for_the_die_beside_a_pink_ship_is_the_canon_once_the_real_die_is_found() {
    let summary = scene_of_a_bench_from(
        CANON_BY_PINK_SHIP_FIRST,
        CANON_BY_PINK_SHIP_SEED,
        CANON_BY_PINK_SHIP_FRAMES,
    );
    assert_found_exactly(&summary, &["ink_die", "octo_canon"]);
}

/// Scene 125 of `octoref bench --seed 101` (tilt 29 degrees), second frame: the green ship on
/// a light table carries a captain at its bow and a gold bar on its deck, its anchor beside it.
/// Fitted while its loads' pixels still counted against it, the ship settled 12 mm off and
/// turned 144 degrees, its bow where its stern is; fitted again once every piece around it is
/// found, it lies where it is.
const SHIP_BEFORE_ITS_LOADS_FIRST: u64 = 101;
const SHIP_BEFORE_ITS_LOADS_SEED: u64 = 125;
const SHIP_BEFORE_ITS_LOADS_FRAMES: usize = 2;
/// How far a ship may be found from where it is, mm and degrees.
const SHIP_POSE_TOLERANCE_MM: f64 = 3.0;
const SHIP_TURN_TOLERANCE_DEG: f64 = 10.0;

#[test]
fn a_ship_fitted_before_its_loads_were_found_is_fitted_again_where_it_lies() {
    let mut off = Vec::new();
    for_each_frame_of_a_bench_from(
        SHIP_BEFORE_ITS_LOADS_FIRST,
        SHIP_BEFORE_ITS_LOADS_SEED,
        SHIP_BEFORE_ITS_LOADS_FRAMES,
        |truth, _, report| {
            for t in truth
                .pieces
                .iter()
                .filter(|p| p.visible && p.report.piece == PieceKind::Ship)
            {
                let nearest = report
                    .pieces
                    .iter()
                    .filter(|d| d.piece == PieceKind::Ship && d.color == t.report.color)
                    .min_by(|a, b| {
                        a.center_mm
                            .distance(t.report.center_mm)
                            .total_cmp(&b.center_mm.distance(t.report.center_mm))
                    });
                let Some(d) = nearest else {
                    off.push(format!("{}: {:?} ship not found", truth.image, t.report.color));
                    continue;
                };
                let dist = d.center_mm.distance(t.report.center_mm);
                let turn = match (d.angle_deg, t.report.angle_deg) {
                    (Some(a), Some(b)) => ((a - b).rem_euclid(360.0) + 180.0).rem_euclid(360.0) - 180.0,
                    _ => 0.0,
                };
                if dist > SHIP_POSE_TOLERANCE_MM || turn.abs() > SHIP_TURN_TOLERANCE_DEG {
                    off.push(format!(
                        "{}: {:?} ship {dist:.1} mm off, turned {turn:.0} degrees",
                        truth.image, t.report.color
                    ));
                }
            }
        },
    );
    assert!(off.is_empty(), "{off:#?}");
}

/// Bench scene 5 (of 30; tilt 4.8 degrees), first frame: on its mid-grey table the black
/// Octo-Canon and ink die are as dark and as grey as the shadows, and nothing casts them: each
/// was read as a shadow but for a rim of piece pixels too small to be either, and both were
/// missed in every frame. Shadow pixels of their colour now count for them where a seed fits
/// no piece otherwise.
const DARK_ON_GREY_SEED: u64 = 5;
const DARK_ON_GREY_FRAMES: usize = 1;

#[test]
fn a_black_die_and_canon_read_as_shadows_on_a_grey_table_are_found() {
    let summary = scene_of_the_bench(DARK_ON_GREY_SEED, DARK_ON_GREY_FRAMES);
    assert_found_exactly(&summary, &["ink_die", "octo_canon"]);
}

/// Bench scene 25 (of 30), frames 1 and 2: a gold bar stands on the green ship's deck near its
/// edge. Fitted at table height, a goblet (taller) covers the bar's raised silhouette from
/// nearly where the bar stands, and explained more of the seed than a gold bar (255 against
/// 219): its middle, seen at the deck's height, fell short of the deck, so the deck it covered
/// did not count against it. A treasure's base cannot lie inside a ship's on the table: fitted
/// there, it stands on the deck. Before, the bar was read as a goblet in both frames, and the
/// count rules then turned a real goblet into a gold bar (gold and goblets: 2 missed, 2 extra
/// each).
const GOLD_ON_A_DECKS_EDGE_SEED: u64 = 25;
const GOLD_ON_A_DECKS_EDGE_FRAMES: usize = 3;

#[test]
fn a_gold_bar_on_a_decks_edge_is_not_read_as_a_goblet_on_the_table() {
    let summary = scene_of_the_bench(GOLD_ON_A_DECKS_EDGE_SEED, GOLD_ON_A_DECKS_EDGE_FRAMES);
    assert_found_exactly(&summary, &["treasure/gold", "treasure/goblet", "ship"]);
    let r = &summary.rulings;
    assert_eq!(r.loaded_right, r.loaded_checked, "{r:?}");
}

/// Scenes 121 (frame 0) and 127 (frames 1 and 2) of `bench --seed 101` (unseen; tilts 24 and 31
/// degrees): a gold bar on the orange ship's deck in full light. Its pixels read as orange as
/// much as gold, so the ship's fit held them all, and they are as light as the deck, so they
/// were not freed as a darker load is: the bar was missed. A ship's deck pixels that show best
/// a treasure colour of the ship's hue (gold, goblets and chests on the orange ship) are looked
/// at again.
const LIT_GOLD_ON_ORANGE_FIRST: u64 = 101;
const LIT_GOLD_ON_ORANGE_SCENES: [(u64, usize); 2] = [(121, 1), (127, 3)];

#[test]
fn a_lit_gold_bar_on_the_orange_deck_is_found() {
    for (seed, frames) in LIT_GOLD_ON_ORANGE_SCENES {
        let summary = scene_of_a_bench_from(LIT_GOLD_ON_ORANGE_FIRST, seed, frames);
        assert_found_exactly(&summary, &["treasure/gold", "ship"]);
        let r = &summary.rulings;
        assert_eq!(r.loaded_right, r.loaded_checked, "scene {seed}: {r:?}");
    }
}

/// Scene 108 of `bench --seed 101` (unseen; tilt 8 degrees), all three frames: the Octo-Canon
/// against the pirate ship, where the Pink Pirates rules keep it, on a light grey table. The
/// black canon reads as a shadow there, all of it, and walking from it towards the light meets
/// the ship: it was taken for the ship's shadow and missed. Along the rest of the ship the
/// shadow reaches about 4 mm; the canon lies up to 24 mm off it. Where a dark piece may read as
/// a shadow, a caster explains only as far as its shadow reaches elsewhere
/// (`caster::ShadowLengths`).
const CANON_AGAINST_THE_PIRATE_SHIP_FIRST: u64 = 101;
const CANON_AGAINST_THE_PIRATE_SHIP_SEED: u64 = 108;
const CANON_AGAINST_THE_PIRATE_SHIP_FRAMES: usize = 3;

#[test]
fn the_octo_canon_against_the_pirate_ship_is_not_taken_for_its_shadow() {
    let summary = scene_of_a_bench_from(
        CANON_AGAINST_THE_PIRATE_SHIP_FIRST,
        CANON_AGAINST_THE_PIRATE_SHIP_SEED,
        CANON_AGAINST_THE_PIRATE_SHIP_FRAMES,
    );
    assert_found_exactly(&summary, &["octo_canon", "pirate_ship", "ink_die"]);
}

/// Scene 202 of `bench --seed 201` (unseen; tilt 1 degree): a gold bar on the orange deck.
/// About half its pixels read as gold as much as orange, the rest as orange alone, and the row
/// along its ridge split the first into two patches: freed from the ship as two seeds (91 and 57
/// pixels in the first frame), neither fitted a bar, and it was missed in all three frames. A
/// deck's freed pixels are also tried all together, before each patch.
const SPLIT_GOLD_ON_ORANGE_FIRST: u64 = 201;
const SPLIT_GOLD_ON_ORANGE_SEED: u64 = 202;
const SPLIT_GOLD_ON_ORANGE_FRAMES: usize = 3;

#[test]
fn a_gold_bar_whose_deck_pixels_are_split_by_its_ridge_is_found() {
    let summary = scene_of_a_bench_from(
        SPLIT_GOLD_ON_ORANGE_FIRST,
        SPLIT_GOLD_ON_ORANGE_SEED,
        SPLIT_GOLD_ON_ORANGE_FRAMES,
    );
    assert_found_exactly(&summary, &["treasure/gold", "ship"]);
    let r = &summary.rulings;
    assert_eq!(r.loaded_right, r.loaded_checked, "{r:?}");
}

/// Bench scene 1 (of 30; tilt 0): gold bars and goblets on light wood, whose colour is a paler
/// gold. A bar's lit top washes out to the table's colour and its shaded sides darken to it;
/// the inside of a goblet's cup reads as table. Fits at the true poses explained 0.12-0.30 of
/// their silhouettes, below the 0.3 every piece needed: five goblets, four gold bars and, in the
/// last frame, the orange ship among its loads were missed in the three frames. A piece of the
/// table's hue is now accepted from 0.1, clear of other pieces.
///
/// A yellow goblet changes each pixel's colour there by less than the labeller's noise, so its
/// body read as bare table and only its lit rim and shadow showed: the goblet in the open in the
/// last frame was missed (82 of its 476 pixels read as piece) until table pixels were weighed in
/// patches. Since then the gold bar on the orange ship's deck in the last frame is missed: all
/// its pixels are the ship's, and it had been found only by a fit of its whole seed 8 mm off
/// (quality 0.13), which its seed no longer allows once the ship is found first.
const GOLD_ON_WOOD_SEED: u64 = 1;
const GOLD_ON_WOOD_FRAMES: usize = 3;
const GOLD_ON_A_DECK_MISSED_AT_MOST: usize = 1;

#[test]
fn gold_bars_and_goblets_on_light_wood_are_found() {
    let summary = scene_of_the_bench(GOLD_ON_WOOD_SEED, GOLD_ON_WOOD_FRAMES);
    assert_found_exactly(&summary, &["treasure/goblet", "treasure/chest", "ship"]);
    assert_none_extra_and_missed_at_most(&summary, "treasure/gold", GOLD_ON_A_DECK_MISSED_AT_MOST);
}

/// Scene 416 of `octoref bench --seed 401` (tilt 18.1 degrees), on an orange-brown wood whose
/// colour lies 0.045 (chroma) off a washed-out gold, more than the 0.03 a paler table of gold
/// was allowed: a third of each gold bar's silhouette reads as bare table, its fits explained
/// 0.03-0.26 of it against the 0.3 other pieces need, and 8 of the 9 gold bars in the scene's
/// frames were missed. One is still missed (its fit at its true pose explains 0.03).
const GOLD_ON_ORANGE_WOOD_FIRST: u64 = 401;
const GOLD_ON_ORANGE_WOOD_SEED: u64 = 416;
const GOLD_ON_ORANGE_WOOD_FRAMES: usize = 3;
const GOLD_ON_ORANGE_WOOD_MISSED_AT_MOST: usize = 1;

#[test]
fn gold_bars_on_orange_brown_wood_are_found() {
    let summary = scene_of_a_bench_from(
        GOLD_ON_ORANGE_WOOD_FIRST,
        GOLD_ON_ORANGE_WOOD_SEED,
        GOLD_ON_ORANGE_WOOD_FRAMES,
    );
    assert_none_extra_and_missed_at_most(&summary, "treasure/gold", GOLD_ON_ORANGE_WOOD_MISSED_AT_MOST);
}

/// Scene 404 of `octoref bench --seed 401` (tilt 3.6 degrees), on a grey table: the black ink
/// die's top and shaded sides read as shadow, its two lit red sides as piece. Fitted on its
/// shadows it explains 0.43-0.46 of its silhouette, but that pass seeded a shadow-like piece
/// only from pixels of its dark colour, and the red sides alone explain too little: the die
/// was missed in all 3 frames. Once found, its top read red from the sides leaning into it
/// (2 of 3 frames), as shadow pixels of the dark colour counted only when no piece pixel did.
const DIE_ON_ITS_SHADOWS_FIRST: u64 = 401;
const DIE_ON_ITS_SHADOWS_SEED: u64 = 404;
const DIE_ON_ITS_SHADOWS_FRAMES: usize = 3;

#[test]
fn a_black_die_seen_by_its_red_sides_is_found_on_its_shadows_and_read_black() {
    let summary = scene_of_a_bench_from(
        DIE_ON_ITS_SHADOWS_FIRST,
        DIE_ON_ITS_SHADOWS_SEED,
        DIE_ON_ITS_SHADOWS_FRAMES,
    );
    assert_found_exactly(&summary, &["ink_die"]);
    let r = &summary.rulings;
    assert_eq!(r.die_checked, DIE_ON_ITS_SHADOWS_FRAMES, "{r:?}");
    assert_eq!(r.die_right, r.die_checked, "{r:?}");
}

/// Scene 820 of `octoref bench --seed 801` (tilt 22.9 degrees): the Octo-Canon stands against
/// the pirate ship, as the rules keep it, and the die's model, its pink faces taking the ship's
/// pixels, outscores the canon's own there; the real die, 360 mm away, then read as the canon.
/// Each fitted afresh as the other by their black, the two scored 1.05 of their readings as
/// made, short of the 1.06 a swap needed, and the two were read the wrong way round in all 3
/// frames. A swap that puts the canon against the pirate ship now needs only to score more.
const CANON_AGAINST_ITS_SHIP_FIRST: u64 = 801;
const CANON_AGAINST_ITS_SHIP_SEED: u64 = 820;
const CANON_AGAINST_ITS_SHIP_FRAMES: usize = 3;

#[test]
fn the_black_piece_against_the_pirate_ship_is_read_as_the_canon() {
    let summary = scene_of_a_bench_from(
        CANON_AGAINST_ITS_SHIP_FIRST,
        CANON_AGAINST_ITS_SHIP_SEED,
        CANON_AGAINST_ITS_SHIP_FRAMES,
    );
    assert_found_exactly(&summary, &["ink_die", "octo_canon"]);
}

/// Scene 811 of `octoref bench --seed 801` (tilt 12.1 degrees), second frame: the orange ship
/// beside its anchor with a goblet on its deck. Untangled before the goblet was found (its
/// pixels counting for the ship), the ship lay turned end for end over its anchor, 13 mm off,
/// and the anchor was read 35 mm from where it lies; orange's closest treasure was wrong. Still
/// explaining 0.81 and 0.91 of themselves, the two were taken as settled. A ship explaining
/// less than 0.85 of itself is now fitted again with its anchor once its loads are found.
const TURNED_OVER_ANCHOR_FIRST: u64 = 801;
const TURNED_OVER_ANCHOR_SEED: u64 = 811;
const TURNED_OVER_ANCHOR_FRAMES: usize = 2;

#[test]
fn a_ship_untangled_over_its_anchor_before_its_load_was_found_settles_where_it_lies() {
    let summary = scene_of_a_bench_from(
        TURNED_OVER_ANCHOR_FIRST,
        TURNED_OVER_ANCHOR_SEED,
        TURNED_OVER_ANCHOR_FRAMES,
    );
    assert_found_exactly(&summary, &["ship", "anchor"]);
    let r = &summary.rulings;
    assert_eq!(r.closest_right, r.closest_checked, "{r:?}");
}

/// Scene 328 of `octoref bench --seed 301` (tilt 32.6 degrees), third frame: the orange ship
/// held two thirds of its anchor (333 of its 487 pixels) once its loads were found, and the
/// anchor, fully in view, was found nowhere. A ship whose anchor is in play and found nowhere is
/// now freed from it again once its loads are found (`--seed 601` scene 630's green anchor too).
const LOADED_HOLDER_FIRST: u64 = 301;
const LOADED_HOLDER_SEED: u64 = 328;
const LOADED_HOLDER_FRAMES: usize = 3;

#[test]
fn an_anchor_its_ship_held_until_its_loads_were_found_is_freed_from_it() {
    let summary = scene_of_a_bench_from(LOADED_HOLDER_FIRST, LOADED_HOLDER_SEED, LOADED_HOLDER_FRAMES);
    assert_found_exactly(&summary, &["ship", "anchor"]);
}

/// Scene 728 of `octoref bench --seed 701` (tilt 32.6 degrees), second and third frames: the
/// green ship slid 19 mm towards its anchor and held it. Freed from it, the anchor found beside
/// it explained 0.29 of itself, the ship keeping its pixels, and green's closest treasure was
/// wrong. The ship is now fitted again beside the anchor, its pixels taken, and slides back.
const SLID_OVER_ANCHOR_FIRST: u64 = 701;
const SLID_OVER_ANCHOR_SEED: u64 = 728;
const SLID_OVER_ANCHOR_FRAMES: usize = 3;

#[test]
fn a_ship_slid_over_the_anchor_it_held_slides_back_once_the_anchor_is_freed() {
    let summary = scene_of_a_bench_from(
        SLID_OVER_ANCHOR_FIRST,
        SLID_OVER_ANCHOR_SEED,
        SLID_OVER_ANCHOR_FRAMES,
    );
    assert_found_exactly(&summary, &["ship", "anchor"]);
    let r = &summary.rulings;
    assert_eq!(r.closest_right, r.closest_checked, "{r:?}");
}

/// Bench scene 19 (of 30; tilt 21.7 degrees): the island's sand is light wood's hue and only a
/// little lighter, so half its pixels read as bare table and its fit explained 0.07 of its
/// silhouette or less. The island was missed in all 3 frames, its palm read as the green anchor
/// (the real one dropped: the box holds one) and the sand as gold and goblets. Such a piece,
/// when its second colour stands out, is weighed as one like the table.
const SAND_ON_WOOD_SEED: u64 = 19;
const SAND_ON_WOOD_FRAMES: usize = 3;

#[test]
fn the_island_whose_sand_is_the_tables_hue_is_found() {
    let summary = scene_of_the_bench(SAND_ON_WOOD_SEED, SAND_ON_WOOD_FRAMES);
    assert_found_exactly(&summary, &["island", "anchor", "treasure/goblet"]);
    // A gold bar on the wood, of its hue, is still missed in 2 frames; none is read on the sand.
    assert_none_extra_and_missed_at_most(&summary, "treasure/gold", 2);
}

/// Bench scene 15 (of 30; tilt 16.9 degrees), first frame: on wood of the sand's hue the island,
/// weighed as the table, fitted the green ship and its anchor (its palm's colour) with table
/// around them, and the anchor was missed. It must show its sand over a quarter of itself.
const ISLAND_OVER_SHIP_SEED: u64 = 15;
const ISLAND_OVER_SHIP_FRAMES: usize = 1;

#[test]
fn the_island_is_not_laid_over_a_green_ship_and_its_anchor() {
    let summary = scene_of_the_bench(ISLAND_OVER_SHIP_SEED, ISLAND_OVER_SHIP_FRAMES);
    assert_none_extra_and_missed_at_most(&summary, "island", 0);
    // The orange anchor at its ship's bow too (see the next test).
    assert_none_extra_and_missed_at_most(&summary, "anchor", 0);
}

/// Bench scene 15 (tilt 16.9 degrees), first frame: the orange ship, its deck covered by a gold
/// bar and a chest, was fitted across its orange anchor (quality 0.56) and held all of it: the
/// anchor was never found, and orange's closest treasure was wrong. Scene 30 (tilt 35 degrees),
/// last frame: the blue ship carrying a captain was first fitted over its anchor beside it
/// (quality 0.44), with the same outcome for blue. A poorly fitting hull with no piece of its
/// colour found beside it is untangled from the models of its colour too.
const HELD_WHOLE_ANCHOR_SCENES: [(u64, usize); 2] = [(15, 1), (30, 3)];

#[test]
fn an_anchor_its_ship_held_whole_is_untangled_from_it() {
    for (seed, frames) in HELD_WHOLE_ANCHOR_SCENES {
        let summary = scene_of_the_bench(seed, frames);
        assert_found_exactly(&summary, &["anchor", "ship"]);
        let r = &summary.rulings;
        assert_eq!(r.closest_right, r.closest_checked, "scene {seed}: {r:?}");
    }
}

/// Bench scene 29 (of 30; tilt 33.8 degrees), last frame: the octopus head lies among its
/// tentacles, and the centre of all their pink pixels lay between head and tentacles. Started
/// there, the head settled half on the tentacles, and the head itself was read as the pink
/// pirate ship. A round piece whose seed holds more than its own is also started at the seed's
/// deepest point. Found so, the head left two tentacles side by side, and the pirate ship laid
/// across both explained more pixels than either (3214 at quality 0.89 against 2680 at 0.98):
/// kept over the real pirate ship (the box holds one), it cost both tentacles and the ship. A
/// contender that fits clearly better is now weighed with the piece it leaves.
const HEAD_AMONG_TENTACLES_SEED: u64 = 29;
const HEAD_AMONG_TENTACLES_FRAMES: usize = 3;

#[test]
fn the_octopus_head_and_its_tentacles_are_found_where_they_lie() {
    let summary = scene_of_the_bench(HEAD_AMONG_TENTACLES_SEED, HEAD_AMONG_TENTACLES_FRAMES);
    assert_found_exactly(&summary, &["octopus_head", "tentacle", "pirate_ship"]);
}

/// Bench scene 28 (of 30; tilt 32.6 degrees), second frame: a tentacle lies by the ink die, whose
/// pink faces are its colour. Started from the centre of both, the tentacle settled across them
/// (quality 0.47), and the little octopus, started well, was taken in its place. Contenders that
/// settled apart now start again where the others did. Told that the game has no Little Octopus,
/// the tentacle had no such contender and stayed across the two, 31 mm off: a contender that
/// settled short of pixels also starts where its colours lie outside another candidate (the die).
const TENTACLE_BY_DIE_SEED: u64 = 28;
const TENTACLE_BY_DIE_FRAMES: usize = 2;

#[test]
fn a_tentacle_by_the_die_is_not_taken_for_a_little_octopus() {
    let summary = scene_of_the_bench(TENTACLE_BY_DIE_SEED, TENTACLE_BY_DIE_FRAMES);
    assert_found_exactly(&summary, &["tentacle", "little_octopus"]);
}

/// Bench scene 14 (of 30; tilt 15.7 degrees), last frame: the black Octo-Canon fitted as the ink
/// die explained 418 pixels at quality 0.74, as itself 413 at 0.76; the real die, on dark wood
/// elsewhere, 280 at 0.64. The box holds one die: the one on the canon was kept, the real one
/// dropped, and the canon missed. A piece over its kind's count now stays when it, or the kept
/// one, reads as another model nearly as well whose count is not reached.
const CANON_AS_DIE_SEED: u64 = 14;
const CANON_AS_DIE_FRAMES: usize = 3;

#[test]
fn a_canon_first_read_as_the_die_is_found_when_the_real_die_is_found_elsewhere() {
    let summary = scene_of_the_bench(CANON_AS_DIE_SEED, CANON_AS_DIE_FRAMES);
    assert_found_exactly(&summary, &["octo_canon", "ink_die"]);
}

/// Bench scene 15 (of 30; tilt 16.9 degrees), first frame: the orange ship carries two brown
/// chests, and the one by its stern reads as the deck's colour. Its pixels were freed only when
/// darker than 0.8 of the deck's median level, but the two chests and the deck's shade held
/// more than half the deck (median 286 against a lit deck at ~480): less than half the chest
/// was freed, too little to fit, and it was missed in every frame. The deck's own level is now
/// its lit surface's.
const LOADED_DECK_SEED: u64 = 15;
const LOADED_DECK_FRAMES: usize = 1;

#[test]
fn a_chest_on_a_deck_half_covered_by_loads_is_found() {
    let summary = scene_of_the_bench(LOADED_DECK_SEED, LOADED_DECK_FRAMES);
    assert_found_exactly(&summary, &["treasure/chest"]);
}

/// Bench scene 12 (of 30; tilt 13.3 degrees): the ink die lies beside a tentacle, and its pink
/// faces are the tentacle's colour. Started from the middle of every pixel of its colours it was
/// fitted on the tentacle; its black body was then read as the Octo-Canon (frames 2 and 3: the
/// die missed twice, one Octo-Canon extra).
const DIE_BY_TENTACLE_SEED: u64 = 12;
const DIE_BY_TENTACLE_FRAMES: usize = 3;

#[test]
fn an_ink_die_beside_a_tentacle_of_its_faces_colour_is_found() {
    let summary = scene_of_the_bench(DIE_BY_TENTACLE_SEED, DIE_BY_TENTACLE_FRAMES);
    assert_found_exactly(&summary, &["ink_die"]);
    assert_none_extra_and_missed_at_most(&summary, "octo_canon", 0);
}

/// Bench scene 26 (of 30; tilt 30.2 degrees): in its last frame two chests side by side are
/// first explained by one orange ship laid over both (1134 pixels at quality 0.45, against a
/// chest's 644 at 0.91), in a region that also holds the real orange ship. The box holds one
/// orange ship: the real one was kept, but the region's second look allowed the ship again (one
/// was kept there), so both chests were missed.
const SECOND_SHIP_CHEST_SEED: u64 = 26;
const SECOND_SHIP_CHEST_FRAMES: usize = 3;

#[test]
fn chests_first_taken_for_a_second_ship_beside_the_kept_one_are_found() {
    let summary = scene_of_the_bench(SECOND_SHIP_CHEST_SEED, SECOND_SHIP_CHEST_FRAMES);
    assert_found_exactly(&summary, &["treasure/chest"]);
}

/// Bench scene 26, last frame: the green ship, a captain at its bow, was fitted slid 22 mm back
/// over its anchor at the stern, and the anchor was read at the bow by the captain (ship and
/// anchor: each missed and one extra). Untangling slid the hull 16 mm at most; it now slides it
/// 24 mm too.
const SLID_FAR_SEED: u64 = 26;
const SLID_FAR_FRAMES: usize = 3;

#[test]
fn a_ship_slid_far_onto_its_anchor_is_untangled() {
    let summary = scene_of_the_bench(SLID_FAR_SEED, SLID_FAR_FRAMES);
    assert_found_exactly(&summary, &["anchor", "ship"]);
}

/// Bench scene 28 (tilt 32.6 degrees), frame 3: a gold bar, a goblet and a goblet in a row,
/// touching. Once the middle goblet was fitted, the other two were left as one seed whose centre
/// lies on the fitted goblet; every fit started there failed, 2000 mm² stayed unexplained, the
/// frame was called obstructed and both players' rulings were withheld (closest: 2 wrong).
const TREASURES_IN_A_ROW_SEED: u64 = 28;
const TREASURES_IN_A_ROW_FRAMES: usize = 3;

#[test]
fn treasures_either_side_of_a_fitted_one_are_found_and_the_frame_is_ruled() {
    let summary = scene_of_the_bench(TREASURES_IN_A_ROW_SEED, TREASURES_IN_A_ROW_FRAMES);
    assert_found_exactly(&summary, &["treasure/gold", "treasure/goblet"]);
    assert_eq!(
        summary.obstructed_right, summary.frames,
        "a frame was called obstructed"
    );
    let r = &summary.rulings;
    assert_eq!(r.closest_right, r.closest_checked, "{r:?}");
}

/// Bench scene 5 (tilt 4.8 degrees) on a mid-grey table: the white captains' navy hats read as
/// black there, and a captain was taken only by its hat (captains: 3 missed in the scene, and
/// one wrong closest call). Their white bodies stand out from such a table and place them.
const GREY_TABLE_CAPTAINS_SEED: u64 = 5;
const GREY_TABLE_CAPTAINS_FRAMES: usize = 3;

/// Bench scene 6 (tilt 6.0 degrees) on a pale beige table: the captains show little but their
/// navy hats, and highlights grey the hats to twice or thrice the navy's catalog lightness. Held
/// to 1.8 times it, most hat pixels read as the purple ship's or the canon's colour, the fits
/// explained nothing (quality about 0), and 6 captains were missed in 3 frames. A pixel as much
/// paler than its colour as a highlight makes it may be that much lighter.
const GREYED_HATS_SEED: u64 = 6;
const GREYED_HATS_FRAMES: usize = 3;

#[test]
fn navy_hats_greyed_by_highlights_still_place_their_captains() {
    let summary = scene_of_the_bench(GREYED_HATS_SEED, GREYED_HATS_FRAMES);
    assert_found_exactly(&summary, &["treasure/captain"]);
}

/// Bench scene 5, first frame: the orange ship's fit held part of its orange anchor, and what was
/// left fitted the brown chest better than the anchor (gain 437 at quality 0.74 against 286 at
/// 0.71): brown and orange are one hue, and a normally lit orange face is within a brown one's
/// lightness range. The anchor was missed, and a real chest dropped for the box's count. A chest
/// fit whose pixels are on median as light as orange's catalog colour is not a chest.
const ORANGE_AS_CHEST_SEED: u64 = 5;
const ORANGE_AS_CHEST_FRAMES: usize = 1;

#[test]
fn an_orange_anchor_is_not_taken_for_a_brown_chest() {
    let summary = scene_of_the_bench(ORANGE_AS_CHEST_SEED, ORANGE_AS_CHEST_FRAMES);
    assert_found_exactly(&summary, &["anchor", "treasure/chest"]);
}

#[test]
fn white_captains_on_a_grey_table_are_found_by_their_bodies() {
    let summary = scene_of_the_bench(GREY_TABLE_CAPTAINS_SEED, GREY_TABLE_CAPTAINS_FRAMES);
    assert_found_exactly(&summary, &["treasure/captain"]);
    let r = &summary.rulings;
    assert_eq!(r.closest_right, r.closest_checked, "{r:?}");
}

#[test]
fn brown_chests_that_look_like_shadow_on_wood_are_found() {
    let report = one_scene(SHADED_CHEST_SEED, SHADED_CHEST_FRAMES);
    let chests = &report.kinds["treasure/chest"];
    assert!(chests.false_positive <= SHADED_CHESTS_EXTRA_AT_MOST, "{chests:?}");
    assert!(
        chests.false_negative <= SHADED_CHESTS_MISSED_AT_MOST,
        "{chests:?}"
    );
    assert_eq!(report.rulings.clear_called_tie, 0);
}

// ---------------------------------------------------------------------------------------------
// Teaching: a set whose gold bars are lime green.

/// The recoloured gold bars of "the user's set" (the catalog says #C9962B).
const LIME: Srgb = Srgb([0x8C, 0xD6, 0x30]);
const TEACH_SEED: u64 = 5;
const TEACH_FRAMES: usize = 3;

struct Prepared {
    scene: Scene,
    profile: Profile,
    reference: Mat,
    layouts: Vec<Layout>,
    frames: Vec<(Mat, FrameTruth)>,
}

/// Like `vision::synthetic::prepare`, with the scene rendered from `catalog` (the user's set)
/// while vision keeps the default catalog.
fn prepare_with(spec: &SceneSpec, catalog: Catalog, frames: usize) -> Prepared {
    let scene = Scene::generate_with(spec, catalog).unwrap();
    let board = render_board(&scene).unwrap();
    let empty = render_empty(&scene).unwrap();
    let board_spec = BoardSpec::default();
    let cal = charuco::calibrate(&board_spec, &board, &[]).unwrap();
    let mut profile = setup::profile_from_board(&cal, &board_spec);
    let reading = setup::add_setup(&mut profile, &empty, DEFAULT_BEAD_COUNT, "reference.png").unwrap();
    let layouts = scene.layouts(frames).unwrap();
    let mut out = Vec::new();
    for layout in &layouts {
        out.push(render(&scene, layout.clone()));
    }
    Prepared {
        scene,
        profile,
        reference: reading.reference.image,
        layouts,
        frames: out,
    }
}

fn render(scene: &Scene, layout: Layout) -> (Mat, FrameTruth) {
    let frame = scene.frame_from(layout, &Faults::none()).unwrap();
    let name = frame_file(frame.index);
    let rendered = render_frame(scene, &frame.layout, &frame.options).unwrap();
    let image = jpeg_round_trip(&rendered, frame.jpeg_quality).unwrap();
    (image, frame_truth(scene, &frame, &name).unwrap())
}

/// Gold-bar detection counts over frames.
fn gold_counts(p: &Prepared, taught: &TaughtModels, frames: &[usize]) -> (KindCounts, Summary) {
    let catalog = Catalog::default_catalog();
    let analyzer = Analyzer::new(&p.profile, &p.reference, &catalog, taught).unwrap();
    let ctx = GameContext::with_players(p.scene.spec.player_colours());
    let mut summary = Summary::default();
    for &i in frames {
        let (image, truth) = &p.frames[i];
        let (report, _) = analyzer.report(image, &truth.image, &ctx).unwrap();
        let truth_ruled = truth_report(truth, &ctx).unwrap();
        summary.add(&score_frame(truth, &truth_ruled, &report));
    }
    (
        summary.kinds.get("treasure/gold").copied().unwrap_or_default(),
        summary,
    )
}

fn lime_set() -> Catalog {
    let mut catalog = Catalog::default_catalog();
    for e in catalog.pieces.iter_mut().filter(|e| e.name == "gold") {
        e.colour = LIME;
    }
    catalog
}

fn teach_spec() -> SceneSpec {
    let mut spec = SceneSpec::new(TEACH_SEED, 3);
    spec.resolution = Some(Resolution::HD);
    spec.tilt_deg = Some(20.0);
    spec
}

#[test]
fn teaching_a_recoloured_gold_bar_makes_it_found() {
    let p = prepare_with(&teach_spec(), lime_set(), TEACH_FRAMES);
    let test_frames: Vec<usize> = (1..TEACH_FRAMES).collect();
    let (before, summary_before) = gold_counts(&p, &TaughtModels::default(), &test_frames);
    println!("gold before teaching: {before:?} recall {:.2}", before.recall());
    assert!(
        before.true_positive + before.false_negative >= 4,
        "too few gold bars to judge: {before:?}"
    );

    // The gold bar alone on the table (the crab stays on the counter): frame 0's layout with
    // every other piece taken away.
    let mut alone = p.layouts[0].clone();
    let gold = alone
        .pieces
        .iter()
        .find(|q| q.entry == "gold" && q.base_mm == 0.0 && !q.on_island)
        .cloned()
        .unwrap();
    alone
        .pieces
        .retain(|q| q.id == gold.id || q.kind == PieceKind::Crab);
    let (alone_image, _) = render(&p.scene, alone);
    let catalog = Catalog::default_catalog();
    let lesson = teach::teach(
        &p.profile,
        &p.reference,
        &catalog,
        "gold",
        &[alone_image],
        Pick::Alone,
    )
    .unwrap();
    println!("lesson {}", serde_json::to_string_pretty(&lesson).unwrap());
    assert_eq!(lesson.piece, "gold");
    assert_eq!(lesson.colours.len(), 1);
    // Found where it is, its size the catalog's (the set differs in colour only).
    let f = &lesson.frames[0];
    let d =
        ((f.center_mm[0] - gold.center_mm.x).powi(2) + (f.center_mm[1] - gold.center_mm.y).powi(2)).sqrt();
    assert!(d < 4.0, "taught at {:?}, truth {:?}", f.center_mm, gold.center_mm);
    assert!(
        (lesson.measured_scale - 1.0).abs() < 0.12,
        "scale {}",
        lesson.measured_scale
    );
    // The learnt colour is lime, not gold: green is its strongest channel.
    let c = &lesson.taught.colours[0];
    assert!(c.chroma[1] > c.chroma[0] && c.chroma[1] > c.chroma[2], "{c:?}");

    let mut taught = TaughtModels::default();
    taught.pieces.insert("gold".into(), lesson.taught.clone());
    let (after, summary) = gold_counts(&p, &taught, &test_frames);
    println!("gold after teaching: {after:?} recall {:.2}", after.recall());
    assert!(
        after.recall() >= 0.9 && after.recall() > before.recall() + 0.3,
        "before {before:?}, after {after:?}"
    );
    assert!(after.precision() >= 0.9, "{after:?}");
    // Teaching one piece does not cost the others.
    for (k, c) in summary
        .kinds
        .iter()
        .filter(|(k, _)| k.as_str() != "treasure/gold")
    {
        let b = summary_before.kinds.get(k).copied().unwrap_or_default();
        assert!(
            c.false_positive <= b.false_positive + 1 && c.true_positive + 1 >= b.true_positive,
            "{k}: before {b:?}, after {c:?}"
        );
    }

    // Stored in the profile and read back.
    let mut profile = p.profile.clone();
    lesson.store(&mut profile).unwrap();
    let back = TaughtModels::from_profile(&profile).unwrap();
    assert_eq!(back.pieces.get("gold"), Some(&lesson.taught));
}

#[test]
fn teaching_picks_a_piece_in_a_full_frame_and_refuses_ambiguity() {
    let p = prepare_with(&teach_spec(), lime_set(), 1);
    let catalog = Catalog::default_catalog();
    let (image, truth) = &p.frames[0];
    // A full frame: the piece must be picked.
    let e = teach::teach(
        &p.profile,
        &p.reference,
        &catalog,
        "gold",
        std::slice::from_ref(image),
        Pick::Alone,
    )
    .unwrap_err();
    assert!(matches!(e, TeachError::Several { count, .. } if count > 5), "{e}");
    assert!(e.to_string().contains("--at"), "{e}");
    // Picked at a gold bar standing clear of the others.
    let golds: Vec<_> = truth
        .pieces
        .iter()
        .filter(|q| q.report.treasure.map(|t| t.as_str()) == Some("gold") && q.base_mm == 0.0 && q.visible)
        .collect();
    let clear = golds
        .iter()
        .find(|g| {
            truth
                .pieces
                .iter()
                .filter(|o| o.report.id != g.report.id)
                .all(|o| o.report.center_mm.distance(g.report.center_mm) > 45.0)
        })
        .expect("a gold bar clear of the others");
    let lesson = teach::teach(
        &p.profile,
        &p.reference,
        &catalog,
        "gold",
        std::slice::from_ref(image),
        Pick::At(clear.report.center_mm),
    )
    .unwrap();
    let f = &lesson.frames[0];
    let d = ((f.center_mm[0] - clear.report.center_mm.x).powi(2)
        + (f.center_mm[1] - clear.report.center_mm.y).powi(2))
    .sqrt();
    assert!(d < 4.0, "{f:?} vs {:?}", clear.report.center_mm);
    let c = &lesson.taught.colours[0];
    assert!(c.chroma[1] > c.chroma[0] && c.chroma[1] > c.chroma[2], "{c:?}");
    // Nothing there: refused, naming the nearest thing.
    let far = octoref::table::PointMm::new(5000.0, 5000.0);
    let e = teach::teach(
        &p.profile,
        &p.reference,
        &catalog,
        "gold",
        std::slice::from_ref(image),
        Pick::At(far),
    )
    .unwrap_err();
    assert!(matches!(e, TeachError::NothingAt { .. }), "{e}");
    // An unknown piece name lists the known ones.
    let e = teach::teach(
        &p.profile,
        &p.reference,
        &catalog,
        "golden",
        std::slice::from_ref(image),
        Pick::Alone,
    )
    .unwrap_err();
    assert!(e.to_string().contains("gold, gem"), "{e}");
}

#[test]
fn teaching_an_unchanged_two_coloured_piece_keeps_it_found() {
    let p = prepare_with(&teach_spec(), Catalog::default_catalog(), 2);
    let catalog = Catalog::default_catalog();
    let (image, truth) = &p.frames[0];
    let clear = truth
        .pieces
        .iter()
        .filter(|q| q.report.treasure.map(|t| t.as_str()) == Some("captain") && q.base_mm == 0.0 && q.visible)
        .find(|g| {
            truth
                .pieces
                .iter()
                .filter(|o| o.report.id != g.report.id)
                .all(|o| o.report.center_mm.distance(g.report.center_mm) > 45.0)
        })
        .expect("a captain clear of the others");
    let lesson = teach::teach(
        &p.profile,
        &p.reference,
        &catalog,
        "captain",
        std::slice::from_ref(image),
        Pick::At(clear.report.center_mm),
    )
    .unwrap();
    println!("lesson {}", serde_json::to_string_pretty(&lesson).unwrap());
    // White body and navy hat: two colours, the white first (brighter than the table).
    assert_eq!(lesson.colours.len(), 2, "{:?}", lesson.colours);
    let [body, hat] = [&lesson.taught.colours[0], &lesson.taught.colours[1]];
    assert!(body.brightness[1] > hat.brightness[1], "{body:?} {hat:?}");
    assert!(
        (lesson.measured_scale - 1.0).abs() < 0.15,
        "scale {}",
        lesson.measured_scale
    );
    let mut taught = TaughtModels::default();
    taught.pieces.insert("captain".into(), lesson.taught.clone());
    let frames = [1];
    let (_, before) = gold_counts(&p, &TaughtModels::default(), &frames);
    let (_, after) = gold_counts(&p, &taught, &frames);
    let b = before.kinds.get("treasure/captain").copied().unwrap_or_default();
    let a = after.kinds.get("treasure/captain").copied().unwrap_or_default();
    println!("captain before {b:?} after {a:?}");
    assert!(
        a.true_positive + 1 >= b.true_positive && a.false_positive <= b.false_positive + 1,
        "before {b:?} after {a:?}"
    );
}

/// Scene 217 of `octoref bench --seed 201` (tilt 19.3 degrees), first frame: on dark warm wood a
/// goblet's cup casts its shadow beyond its stem's, which the view shows as bare table, so the
/// shadow lies a few millimetres off the goblet. Read as cast by nothing, it was taken for a
/// piece and fitted as a chest (confidence 0.97); the box holds four chests, and the real one
/// by the green ship, its closest treasure by 4 mm, was dropped for it. A walk to a shadow's
/// caster now crosses a stem's width of table.
const CUP_SHADOW_FIRST: u64 = 201;
const CUP_SHADOW_SEED: u64 = 217;
const CUP_SHADOW_FRAMES: usize = 1;

#[test]
fn a_goblets_shadow_off_its_stem_is_not_a_chest() {
    let summary = scene_of_a_bench_from(CUP_SHADOW_FIRST, CUP_SHADOW_SEED, CUP_SHADOW_FRAMES);
    assert_found_exactly(&summary, &["treasure/chest"]);
    let r = &summary.rulings;
    assert!(r.closest_checked > 0, "{r:?}");
    assert_eq!(r.closest_right, r.closest_checked, "{r:?}");
}

/// Scene 210 of `octoref bench --seed 201` (tilt 10.9 degrees), second frame: a goblet, its
/// dull cup over its foot, was found both as a goblet and as a gold bar 1 mm from it (the same
/// in scenes 205 and 216; in scene 204 a gem on a deck was found twice, 2 mm apart). Two
/// treasures cannot stand on one spot, and of two sharing half a footprint the weaker is dropped.
const STACKED_FIRST: u64 = 201;
const STACKED_SEED: u64 = 210;
const STACKED_FRAMES: usize = 2;

#[test]
fn a_treasure_is_not_found_twice_where_it_stands() {
    let summary = scene_of_a_bench_from(STACKED_FIRST, STACKED_SEED, STACKED_FRAMES);
    assert_found_exactly(&summary, &["treasure/goblet", "treasure/gold"]);
}

/// Bench scene 13 (of 30; tilt 14.5 degrees), second frame: a goblet on the orange ship's stern,
/// its cup leaning off the deck over the table. A gold bar was found on the cup, most of it
/// inside the goblet as the camera sees it, and named orange's closest treasure (the true one
/// 110 mm closer than any other). A treasure seen mostly where another one is is that one.
const CUP_AS_GOLD_SEED: u64 = 13;
const CUP_AS_GOLD_FRAMES: usize = 2;

#[test]
fn a_goblets_leaning_cup_is_not_a_gold_bar() {
    let summary = scene_of_the_bench(CUP_AS_GOLD_SEED, CUP_AS_GOLD_FRAMES);
    assert_found_exactly(&summary, &["treasure/goblet", "treasure/gold"]);
    let r = &summary.rulings;
    assert!(r.closest_checked > 0, "{r:?}");
    assert_eq!(r.closest_right, r.closest_checked, "{r:?}");
}

/// Bench scene 29 (of 30; tilt 33.8 degrees), third frame: the Octo-Canon first read as the ink
/// die, and the real die found with the canon its runner-up by a hair, so the die was turned into
/// a second canon and the canon kept as the die (both missed, both found where the other lies).
/// Fitted afresh, the kept "die" scores more as the canon than it did as the die: it is the canon.
const CANON_BETTER_SEED: u64 = 29;
const CANON_BETTER_FRAMES: usize = 3;

#[test]
fn a_canon_first_read_as_the_die_is_the_canon_when_it_scores_more_as_one() {
    let summary = scene_of_the_bench(CANON_BETTER_SEED, CANON_BETTER_FRAMES);
    assert_found_exactly(&summary, &["octo_canon", "ink_die"]);
}

/// Scene 208 of `octoref bench --seed 201` (tilt 8.4 degrees), first frame: on warm wood the
/// Octo-Canon's rim blends with the table, and the die's model, smaller, scored more on the
/// canon than on the real die (red top up, by a pink tentacle); as a canon it kept 0.66 of that
/// score, under the 0.75 then asked. The die was missed and the canon read as the die.
const CANON_ON_WOOD_FIRST: u64 = 201;
const CANON_ON_WOOD_SEED: u64 = 208;
const CANON_ON_WOOD_FRAMES: usize = 1;

#[test]
fn a_canon_on_warm_wood_is_the_canon_and_the_die_the_die() {
    let summary = scene_of_a_bench_from(CANON_ON_WOOD_FIRST, CANON_ON_WOOD_SEED, CANON_ON_WOOD_FRAMES);
    assert_found_exactly(&summary, &["octo_canon", "ink_die"]);
}

/// Scene 128 of `octoref bench --seed 101` (tilt 32.6 degrees; orange and green, no Pirate),
/// first frame: the ink die, black faces towards the camera, was read as the Octo-Canon, which
/// this game leaves in the box. Told who plays, vision looks only for the game's pieces.
const NO_PIRATE_FIRST: u64 = 101;
const NO_PIRATE_SEED: u64 = 128;
const NO_PIRATE_FRAMES: usize = 1;

#[test]
fn a_die_is_not_read_as_a_canon_the_game_leaves_in_the_box() {
    let summary = scene_of_a_bench_from(NO_PIRATE_FIRST, NO_PIRATE_SEED, NO_PIRATE_FRAMES);
    assert_found_exactly(&summary, &["octo_canon", "ink_die", "pirate_ship"]);
}

/// Scene 223 of `octoref bench --seed 201` (tilt 26.6 degrees), first frame: a gem lying
/// against a tentacle, 58 % of its silhouette behind the tentacle as the camera sees it. Those
/// pixels showed the tentacle and counted against the gem, whose visible part then fitted at
/// 0.18 of its whole silhouette, under the floor: the gem was missed (and the closest treasure
/// called wrong). A piece at least 12 mm taller hides what lies behind it, and there the hidden
/// piece is judged on what shows (on at least half its silhouette).
const HIDDEN_GEM_FIRST: u64 = 201;
const HIDDEN_GEM_SEED: u64 = 223;
const HIDDEN_GEM_FRAMES: usize = 1;

#[test]
fn a_gem_half_behind_a_tentacle_is_found_on_what_shows() {
    let summary = scene_of_a_bench_from(HIDDEN_GEM_FIRST, HIDDEN_GEM_SEED, HIDDEN_GEM_FRAMES);
    assert_found_exactly(&summary, &["treasure/gem", "tentacle"]);
    let r = &summary.rulings;
    assert_eq!(r.closest_right, r.closest_checked, "{r:?}");
}

/// Bench scene 19 (of 30; tilt 21.7 degrees): a chest against a tentacle, half its silhouette
/// behind the tentacle as the camera sees it, was missed in frames 2 and 3 until the tentacle
/// hid what lies behind it.
const HIDDEN_CHEST_SEED: u64 = 19;
const HIDDEN_CHEST_FRAMES: usize = 3;

#[test]
fn a_chest_half_behind_a_tentacle_is_found_in_every_frame() {
    let summary = scene_of_the_bench(HIDDEN_CHEST_SEED, HIDDEN_CHEST_FRAMES);
    assert_found_exactly(&summary, &["treasure/chest", "tentacle"]);
}

/// Scene 104 of `octoref bench --seed 101` (tilt 3.6 degrees): a goblet on the island, half
/// under the palm's crown. The crown's green counted against the goblet, which was missed in all
/// three frames; the palm now hides what lies under it, and the goblet is judged on what shows.
const UNDER_PALM_FIRST: u64 = 101;
const UNDER_PALM_SEED: u64 = 104;
const UNDER_PALM_FRAMES: usize = 3;

#[test]
fn a_goblet_half_under_the_palm_is_found_on_what_shows() {
    let summary = scene_of_a_bench_from(UNDER_PALM_FIRST, UNDER_PALM_SEED, UNDER_PALM_FRAMES);
    assert_found_exactly(&summary, &["treasure/goblet", "island"]);
}

/// Scene 129 of `bench --seed 101` (unseen), frame 2: the ink die lies on a pink tentacle with
/// its pink face up and reads as part of it; the Octo-Canon was read as the die. No canon was
/// found anywhere, and fitted afresh as the canon the piece scores more: it is the canon.
const DIE_ON_TENTACLE_FIRST: u64 = 101;
const DIE_ON_TENTACLE_SEED: u64 = 129;
const DIE_ON_TENTACLE_FRAMES: usize = 2;

#[test]
fn the_canon_read_as_the_die_while_the_die_is_missed_is_found_as_the_canon() {
    let summary = scene_of_a_bench_from(
        DIE_ON_TENTACLE_FIRST,
        DIE_ON_TENTACLE_SEED,
        DIE_ON_TENTACLE_FRAMES,
    );
    assert_found_exactly(&summary, &["octo_canon"]);
    let die = counts(&summary, "ink_die");
    assert_eq!(die.false_positive, 0, "{die:?}");
}

/// Scene 111 of `bench --seed 101` (unseen), frame 1: a gold bar beside a tentacle, first read
/// as a fifth goblet and dropped, while a faint fourth gold bar was read among an orange
/// ship's pixels. The region looked at again must still be open to gold bars: the real one
/// scores more and stays.
const FIFTH_GOBLET_FIRST: u64 = 101;
const FIFTH_GOBLET_SEED: u64 = 111;
const FIFTH_GOBLET_FRAMES: usize = 1;

#[test]
fn a_gold_bar_first_read_as_a_goblet_over_the_count_is_found_as_a_gold_bar() {
    let summary = scene_of_a_bench_from(FIFTH_GOBLET_FIRST, FIFTH_GOBLET_SEED, FIFTH_GOBLET_FRAMES);
    assert_found_exactly(&summary, &["treasure/gold", "treasure/goblet"]);
}

/// Bench scene 8 (tilt 8.4 degrees), frame 1: a goblet loaded on the pink pirate ship, first
/// read as a fifth gold bar and dropped. Looked at again, it lies inside the ship's silhouette
/// and fits as a goblet at 0.47 of its outline, below what a piece inside another must fit
/// (the leftovers of a ship are held to more): but none of its pixels shows the ship's pink.
const GOBLET_ON_PIRATE_SEED: u64 = 8;
const GOBLET_ON_PIRATE_FRAMES: usize = 1;

#[test]
fn a_goblet_on_the_pirate_ships_deck_is_found_though_it_fits_only_fairly() {
    let summary = scene_of_the_bench(GOBLET_ON_PIRATE_SEED, GOBLET_ON_PIRATE_FRAMES);
    assert_found_exactly(&summary, &["treasure/goblet", "treasure/gold", "pirate_ship"]);
}

/// Bench scene 1 (tilt 0 degrees), frame 2: a goblet alone on light wood whose mouth and shaded
/// side read as bare table; only a crescent of its lit rim shows. Started at the crescent's
/// centre, most of a radius off its own, the local search settled half over bare table and the
/// goblet was missed, so orange's closest treasure was named wrong (true margin 5 mm).
const CRESCENT_GOBLET_SEED: u64 = 1;
const CRESCENT_GOBLET_FRAMES: usize = 2;

#[test]
fn a_goblet_showing_only_a_crescent_of_its_rim_is_found() {
    let summary = scene_of_the_bench(CRESCENT_GOBLET_SEED, CRESCENT_GOBLET_FRAMES);
    assert_found_exactly(&summary, &["treasure/goblet"]);
    let r = &summary.rulings;
    assert_eq!(r.closest_right, r.closest_checked, "{r:?}");
}

/// Bench scene 19 (tilt 21.7 degrees), frames 1 and 2: a gold bar alone on a peach wood whose
/// colour lies 0.027 off a paler gold. Its lit top washes out to the table and only its
/// shaded sides show (0.17 of its outline), so it is held to a tenth of its outline as on light
/// wood; it was held to three tenths and missed in both frames.
const GOLD_ON_PEACH_SEED: u64 = 19;
const GOLD_ON_PEACH_FRAMES: usize = 2;

#[test]
fn a_gold_bar_on_peach_wood_showing_only_its_shaded_sides_is_found() {
    let summary = scene_of_the_bench(GOLD_ON_PEACH_SEED, GOLD_ON_PEACH_FRAMES);
    assert_found_exactly(&summary, &["treasure/gold"]);
}

/// Scene 101 of `bench --seed 101` (unseen), frames 1 and 2: brown chests on warm wood whose
/// shaded halves read as the table in shadow. Their lit halves cover less than the three tenths
/// of a footprint a seed must show to be fitted at all (106 px of 349), so three were missed in
/// frame 1 (and green's closest treasure named wrong) and one in frame 2. A seed of a piece of
/// the table's hue is fitted when, with the shadows beside it, it covers those three tenths,
/// and its fit is held to a fifth of its outline.
const HALF_SHADED_CHEST_FIRST: u64 = 101;
const HALF_SHADED_CHEST_SEED: u64 = 101;
const HALF_SHADED_CHEST_FRAMES: usize = 3;

#[test]
fn a_chest_whose_shaded_half_reads_as_the_table_in_shadow_is_found() {
    let summary = scene_of_a_bench_from(
        HALF_SHADED_CHEST_FIRST,
        HALF_SHADED_CHEST_SEED,
        HALF_SHADED_CHEST_FRAMES,
    );
    assert_found_exactly(&summary, &["treasure/chest"]);
    let r = &summary.rulings;
    assert_eq!(r.closest_right, r.closest_checked, "{r:?}");
}

/// Scene 109 of `bench --seed 101` (unseen), frame 0: an orange anchor alone on warm wood. Its
/// shaded side reads as brown and its cast shadow lies beside it; a chest fitted there, let
/// through for those shadows, explains 0.11 of its outline. Such a fit must reach a fifth.
const ANCHOR_SHADE_FIRST: u64 = 101;
const ANCHOR_SHADE_SEED: u64 = 109;
const ANCHOR_SHADE_FRAMES: usize = 1;

#[test]
fn the_shaded_side_of_an_orange_anchor_with_its_shadow_is_no_chest() {
    let summary = scene_of_a_bench_from(ANCHOR_SHADE_FIRST, ANCHOR_SHADE_SEED, ANCHOR_SHADE_FRAMES);
    let chests = counts(&summary, "treasure/chest");
    assert_eq!(chests.false_positive, 0, "{chests:?}");
    assert_found_exactly(&summary, &["anchor"]);
}

/// Bench scenes 9 and 19 (tilt 9.7 and 21.7 degrees), frame 2: a white captain on the island,
/// its hat not showing. Placed by its body, it fits half its outline (0.50 in scene 9), and was
/// held to the floor of a piece among pieces found (0.55): its white pixels pass for the island's
/// pale sand, so they counted as the island's leftovers, though they read best as the captain's
/// white. A pixel that reads best as the fitted piece's colour is its own.
const CAPTAIN_ON_THE_ISLAND_SEEDS: [u64; 2] = [9, 19];
const CAPTAIN_ON_THE_ISLAND_FRAMES: usize = 3;

#[test]
fn a_white_captain_on_the_island_is_not_held_to_the_floor_of_the_islands_leftovers() {
    for seed in CAPTAIN_ON_THE_ISLAND_SEEDS {
        let summary = scene_of_the_bench(seed, CAPTAIN_ON_THE_ISLAND_FRAMES);
        assert_found_exactly(&summary, &["treasure/captain"]);
    }
}

/// Bench scene 27 (tilt 31.4 degrees), frames 0 and 1: purple's closest treasure is a goblet
/// behind a tentacle, its foot hidden and its cup washed out to the table but for a sliver of
/// yellow. A gold bar fits the sliver better (quality 0.45 against 0.17), but it is a fifth one,
/// the box's four found elsewhere. Dropped, its region is looked at again without gold bars, and
/// the goblet fitted there was held to three tenths of its outline and missed: purple's closest
/// treasure was named wrong in both frames. Where a piece over its count stood, a treasure of
/// another kind needs a tenth.
const GOBLET_BEHIND_TENTACLE_SEED: u64 = 27;
const GOBLET_BEHIND_TENTACLE_FRAMES: usize = 2;

#[test]
fn a_goblet_behind_a_tentacle_is_found_where_a_gold_bar_over_the_count_was_dropped() {
    let summary = scene_of_the_bench(GOBLET_BEHIND_TENTACLE_SEED, GOBLET_BEHIND_TENTACLE_FRAMES);
    assert_found_exactly(&summary, &["treasure/goblet", "treasure/gold"]);
    let r = &summary.rulings;
    assert_eq!(r.closest_right, r.closest_checked, "{r:?}");
}

/// Bench scene 27, frame 2: a goblet leans against the blue ship, its cup over the deck's edge
/// and its foot on the table. A goblet fitted on the deck took in the cup and spread over the
/// deck, whose pixels counted neither way: it explained more, and was read 21 mm off on the
/// deck while the goblet where it leans was missed. Counted against a treasure standing on it,
/// the deck's pixels leave that fit behind. Still missed in frame 2: the goblet behind a tentacle
/// (its gold bar, on the green deck, is read as a goblet, so the sliver is read as a fifth bar
/// that is not over the count).
const GOBLET_BY_A_DECK_FRAMES: usize = 3;
const GOBLET_BY_A_DECK_WRONG_AT_MOST: usize = 1;

#[test]
fn a_goblet_leaning_against_a_ship_is_not_read_on_its_deck() {
    let summary = scene_of_the_bench(GOBLET_BEHIND_TENTACLE_SEED, GOBLET_BY_A_DECK_FRAMES);
    let row = counts(&summary, "treasure/goblet");
    assert!(row.false_positive <= GOBLET_BY_A_DECK_WRONG_AT_MOST, "{row:?}");
    assert!(row.false_negative <= GOBLET_BY_A_DECK_WRONG_AT_MOST, "{row:?}");
}

/// The same scene, frame 2: the blue ship was fitted turned 144 degrees over its anchor, which it
/// held whole; untangled, the anchor explains 0.75 of its outline, short of the 0.8 a freed piece
/// needed, so the ship stayed 13 mm off and the goblet leaning on it was read as in the ocean and
/// blue's closest treasure. Of the scene's closest calls, only purple's in frame 2 is still wrong
/// (the goblet behind a tentacle).
const ANCHOR_HELD_BY_ITS_SHIP_FRAMES: usize = 3;
const ANCHOR_HELD_BY_ITS_SHIP_WRONG_CALLS: usize = 1;

#[test]
fn an_anchor_its_ship_held_is_freed_when_it_explains_seven_tenths_of_its_outline() {
    let summary = scene_of_the_bench(GOBLET_BEHIND_TENTACLE_SEED, ANCHOR_HELD_BY_ITS_SHIP_FRAMES);
    assert_found_exactly(&summary, &["anchor", "ship"]);
    let r = &summary.rulings;
    assert!(
        r.closest_right + ANCHOR_HELD_BY_ITS_SHIP_WRONG_CALLS >= r.closest_checked,
        "{r:?}"
    );
    assert_eq!(r.loaded_right, r.loaded_checked, "{r:?}");
}

/// Scene 118 of `bench --seed 101` (unseen), frames 0 and 1: a brown chest half in its own
/// shade on warm wood. Its seed, partly inside pieces found already, fits a second orange
/// anchor (quality 0.36) better than the chest (0.24), which is held to three tenths there; the
/// anchor was dropped over the count and the chest fitted where it stood was missed. It is
/// found in both frames now; another chest of the scene is missed in both, as before.
const CHEST_FOR_AN_ANCHOR_FIRST: u64 = 101;
const CHEST_FOR_AN_ANCHOR_SEED: u64 = 118;
const CHEST_FOR_AN_ANCHOR_FRAMES: usize = 2;
const CHEST_FOR_AN_ANCHOR_MISSED_AT_MOST: usize = 2;

#[test]
fn a_chest_is_found_where_a_second_orange_anchor_was_dropped() {
    let summary = scene_of_a_bench_from(
        CHEST_FOR_AN_ANCHOR_FIRST,
        CHEST_FOR_AN_ANCHOR_SEED,
        CHEST_FOR_AN_ANCHOR_FRAMES,
    );
    assert_none_extra_and_missed_at_most(&summary, "treasure/chest", CHEST_FOR_AN_ANCHOR_MISSED_AT_MOST);
    assert_found_exactly(&summary, &["anchor"]);
}

/// Scene 715 of `octoref bench --seed 701` (tilt 16.9 degrees), third frame: green's closest
/// treasure is a goblet whose top, under that light, reads best as gold. A gold bar laid across
/// it and into its shadow explained more in gold's colours (340 pixels) than the goblet in its
/// own (280), and green's closest treasure was a gold bar that is not there. Seen in the colours
/// both show, the goblet explains more (396 against 344) and is taken.
const GOLDEN_GOBLET_FIRST: u64 = 701;
const GOLDEN_GOBLET_SEED: u64 = 715;
const GOLDEN_GOBLET_FRAMES: usize = 3;

#[test]
fn a_goblet_whose_top_reads_as_gold_is_read_as_a_goblet() {
    let summary = scene_of_a_bench_from(GOLDEN_GOBLET_FIRST, GOLDEN_GOBLET_SEED, GOLDEN_GOBLET_FRAMES);
    let r = &summary.rulings;
    assert_eq!(r.closest_right, r.closest_checked, "{r:?}");
}

/// Scene 1003 of `octoref bench --seed 1001` (tilt 2.4 degrees), second frame: a goblet was read
/// as a gold bar and a gold bar as a goblet, each where the other lies. Each is now read as what
/// it is where the two are weighed in the colours both show.
const LOOK_ALIKES_SWAPPED_FIRST: u64 = 1001;
const LOOK_ALIKES_SWAPPED_SEED: u64 = 1003;
const LOOK_ALIKES_SWAPPED_FRAMES: usize = 2;

#[test]
fn a_gold_bar_and_a_goblet_each_read_as_the_other_are_read_as_they_are() {
    let summary = scene_of_a_bench_from(
        LOOK_ALIKES_SWAPPED_FIRST,
        LOOK_ALIKES_SWAPPED_SEED,
        LOOK_ALIKES_SWAPPED_FRAMES,
    );
    assert_found_exactly(&summary, &["treasure/goblet", "treasure/gold"]);
}

/// Scene 612 of `octoref bench --seed 601` (tilt 13.3 degrees), second frame: goblets whose tops
/// read best as gold, first fitted as gold bars, are taken as goblets. A goblet so taken must
/// explain the pixels of gold's colour under it too: else they seed a gold bar where it stands,
/// the goblets' count is read short, and a goblet was missed with a gold bar extra.
const GOLD_TOPPED_GOBLETS_FIRST: u64 = 601;
const GOLD_TOPPED_GOBLETS_SEED: u64 = 612;
const GOLD_TOPPED_GOBLETS_FRAMES: usize = 2;

#[test]
fn a_goblet_taken_over_a_gold_bar_explains_its_gold_pixels_too() {
    let summary = scene_of_a_bench_from(
        GOLD_TOPPED_GOBLETS_FIRST,
        GOLD_TOPPED_GOBLETS_SEED,
        GOLD_TOPPED_GOBLETS_FRAMES,
    );
    assert_found_exactly(&summary, &["treasure/goblet"]);
}

/// Scene 713 of `octoref bench --seed 701` (tilt 14.5 degrees), first frame: the rim of the
/// green anchor, blended with the brown wood, reads as gold, and a gold bar was found lying along
/// the anchor's shaft. Counted among the box's gold bars it left a real one unread, and green's
/// closest treasure was a gold bar that is not there. A treasure standing mostly inside an
/// anchor is dropped.
const GOLD_ON_ANCHOR_FIRST: u64 = 701;
const GOLD_ON_ANCHOR_SEED: u64 = 713;
const GOLD_ON_ANCHOR_FRAMES: usize = 1;

#[test]
fn a_gold_bar_read_along_an_anchors_shaft_is_no_treasure() {
    let summary = scene_of_a_bench_from(GOLD_ON_ANCHOR_FIRST, GOLD_ON_ANCHOR_SEED, GOLD_ON_ANCHOR_FRAMES);
    assert_found_exactly(&summary, &["treasure/gold", "anchor"]);
    let r = &summary.rulings;
    assert_eq!(r.closest_right, r.closest_checked, "{r:?}");
}

/// Scene 504 of `octoref bench --seed 501` (tilt 3.6 degrees), frames 2 and 3: the octopus's
/// white eye with its dark pupil, leaning past the head's outline, was read as a captain
/// standing 0.44 inside the head's footprint. Counted among the box's four captains it left a
/// real one unread, and orange's closest treasure was a gem 35 mm further than that captain. A
/// treasure standing more than 0.3 inside the head is dropped.
const CAPTAIN_ON_EYE_FIRST: u64 = 501;
const CAPTAIN_ON_EYE_SEED: u64 = 504;
const CAPTAIN_ON_EYE_FRAMES: usize = 3;

#[test]
fn a_captain_read_on_the_octopuss_eye_leaves_the_real_one_counted() {
    let summary = scene_of_a_bench_from(CAPTAIN_ON_EYE_FIRST, CAPTAIN_ON_EYE_SEED, CAPTAIN_ON_EYE_FRAMES);
    assert_found_exactly(&summary, &["treasure/captain"]);
    let r = &summary.rulings;
    assert_eq!(r.closest_right, r.closest_checked, "{r:?}");
}

/// `octoref bench --seed 401`, scene 408 (tilt 8.4 degrees): the Octo-Canon beside a pink
/// tentacle, the ink die elsewhere. The die's model, its pink faces on the tentacle, outscored
/// the canon's own on the canon; with one die in the box the real die, scoring less, was dropped
/// (frame 2: canon and die both missed, an extra die). By their black alone the die's and the
/// canon's models fit the canon alike, and the real die, its pink face up, fits no canon: the
/// canon is the canon.
const CANON_BY_A_PINK_TENTACLE_FIRST: u64 = 401;
const CANON_BY_A_PINK_TENTACLE_SEED: u64 = 408;
const CANON_BY_A_PINK_TENTACLE_FRAMES: usize = 3;

#[test]
fn a_canon_beside_a_pink_tentacle_is_not_taken_for_the_die() {
    let summary = scene_of_a_bench_from(
        CANON_BY_A_PINK_TENTACLE_FIRST,
        CANON_BY_A_PINK_TENTACLE_SEED,
        CANON_BY_A_PINK_TENTACLE_FRAMES,
    );
    assert_found_exactly(&summary, &["octo_canon", "ink_die"]);
}

/// `octoref bench --seed 301`, scene 303 (tilt 2.4 degrees), first frame: two brown chests on
/// warm wood whose lit tops and lit sides read as the table, their shaded sides and contact
/// shadow as shadow on two or three sides only. The ring of shadow was open, so no rim
/// (`vision::rims`), and both were missed.
const OPEN_RIM_FIRST: u64 = 301;
const OPEN_RIM_SEED: u64 = 303;
const OPEN_RIM_FRAMES: usize = 1;

#[test]
fn chests_whose_shaded_sides_show_on_three_sides_only_are_found() {
    let summary = scene_of_a_bench_from(OPEN_RIM_FIRST, OPEN_RIM_SEED, OPEN_RIM_FRAMES);
    assert_found_exactly(&summary, &["treasure/chest"]);
}

/// `octoref bench --seed 401`, scene 416 (tilt 18.1 degrees), first frame: a chest on orange
/// wood shows only an open rim of shadow round its lit top. Read as a box, its top's pixels show
/// the table's orange, and an orange anchor fitted there took the place of the real one, faint
/// on that wood: a rim's pixels read as the pieces a rim may be.
const RIM_ON_ORANGE_WOOD_FIRST: u64 = 401;
const RIM_ON_ORANGE_WOOD_SEED: u64 = 416;
const RIM_ON_ORANGE_WOOD_FRAMES: usize = 1;

#[test]
fn a_chest_read_by_its_rim_on_orange_wood_is_no_orange_anchor() {
    let summary = scene_of_a_bench_from(
        RIM_ON_ORANGE_WOOD_FIRST,
        RIM_ON_ORANGE_WOOD_SEED,
        RIM_ON_ORANGE_WOOD_FRAMES,
    );
    assert_found_exactly(&summary, &["treasure/chest", "anchor"]);
}

/// `octoref bench --seed 701`, scene 704 (tilt 3.6 degrees), second frame: two brown chests on
/// light warm wood read as shadow but for their faces towards the light, lit, read as pieces.
/// Those faces stood as the casters of the chests' own shaded tops, which then stayed shadow,
/// and both chests were missed; one is found now, the other still missed.
const LIT_FACE_FIRST: u64 = 701;
const LIT_FACE_SEED: u64 = 704;
const LIT_FACE_FRAMES: usize = 2;

#[test]
fn chests_whose_lit_faces_read_as_pieces_are_not_their_own_shadows() {
    let summary = scene_of_a_bench_from(LIT_FACE_FIRST, LIT_FACE_SEED, LIT_FACE_FRAMES);
    assert_none_extra_and_missed_at_most(&summary, "treasure/chest", 1);
}
