//! Tracking over synthetic streams of per-frame piece reports (no images): stable identities,
//! smoothing, settling, hands, look-alikes, loads, pieces leaving the view, and the committer.
// The scene helpers below are test code too (clippy only exempts `#[test]` functions).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use octoref::games::crash_octopus::{DieTop, PlayerColor, TreasureType};
use octoref::referee::{GameContext, GateOutcome};
use octoref::table::{Catalog, OceanReport, PieceKind, PieceReport, PointMm, PolygonMm};
use octoref::vision::tracking::{
    CommitStep, Committer, Departure, FrameObservation, PieceClass, TrackArea, TrackEvent, TrackedState,
    Tracker, TrackerConfig, TrackingError,
};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, BTreeSet};

fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> PolygonMm {
    PolygonMm::new(vec![
        PointMm::new(x0, y0),
        PointMm::new(x1, y0),
        PointMm::new(x1, y1),
        PointMm::new(x0, y1),
    ])
}

/// The ocean: 800 x 600 mm.
fn ocean() -> PolygonMm {
    rect(0.0, 0.0, 800.0, 600.0)
}

/// What the camera sees: the ocean with a 100 mm margin.
fn area() -> TrackArea {
    TrackArea {
        view_mm: vec![rect(-100.0, -100.0, 900.0, 700.0)],
        ocean_mm: ocean(),
    }
}

/// One true piece on the table.
#[derive(Debug, Clone)]
struct Truth {
    class: PieceClass,
    center: PointMm,
    angle_deg: Option<f64>,
    /// Index of the ship it stands on.
    on: Option<usize>,
    top: Option<DieTop>,
    /// Vision sees it in this frame.
    visible: bool,
    /// Vision reports this class instead, in this frame only.
    seen_as: Option<PieceClass>,
}

fn truth(
    piece: PieceKind,
    treasure: Option<TreasureType>,
    color: Option<PlayerColor>,
    x: f64,
    y: f64,
) -> Truth {
    Truth {
        class: PieceClass {
            piece,
            treasure,
            color,
        },
        center: PointMm::new(x, y),
        angle_deg: (piece != PieceKind::Treasure).then_some(10.0),
        on: None,
        top: None,
        visible: true,
        seen_as: None,
    }
}

fn ship(color: PlayerColor, x: f64, y: f64) -> Truth {
    truth(PieceKind::Ship, None, Some(color), x, y)
}

fn treasure(t: TreasureType, x: f64, y: f64) -> Truth {
    let mut p = truth(PieceKind::Treasure, Some(t), None, x, y);
    if matches!(t, TreasureType::Gold | TreasureType::Chest) {
        p.angle_deg = Some(30.0);
    }
    p
}

/// Two ships, six treasures, the octopus head, a tentacle: every piece at least 40 mm from the
/// next.
fn table() -> Vec<Truth> {
    use TreasureType::*;
    vec![
        ship(PlayerColor::Orange, 200.0, 300.0),
        ship(PlayerColor::Green, 600.0, 300.0),
        truth(PieceKind::OctopusHead, None, None, 400.0, 300.0),
        truth(PieceKind::Tentacle, None, None, 400.0, 420.0),
        treasure(Gold, 260.0, 180.0),
        treasure(Goblet, 330.0, 200.0),
        treasure(Gem, 520.0, 190.0),
        treasure(Chest, 250.0, 450.0),
        treasure(Captain, 560.0, 430.0),
        treasure(Gold, 650.0, 420.0),
    ]
}

/// Per-frame flags.
#[derive(Debug, Clone, Copy, Default)]
struct Flags {
    obstructed: bool,
    view_moved: bool,
    lighting_changed: bool,
}

const HAND: Flags = Flags {
    obstructed: true,
    view_moved: false,
    lighting_changed: false,
};

/// Vision as the tracker sees it: the true pieces with jitter, in a shuffled order, under
/// per-frame labels that change every frame.
struct Scene {
    pieces: Vec<Truth>,
    catalog: Catalog,
    rng: ChaCha8Rng,
    jitter_mm: f64,
    seq: u64,
}

impl Scene {
    fn new(pieces: Vec<Truth>, seed: u64) -> Self {
        Self {
            pieces,
            catalog: Catalog::default_catalog(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            jitter_mm: 1.5,
            seq: 0,
        }
    }

    fn report(&self, t: &Truth, center: PointMm, angle_deg: Option<f64>, label: String) -> PieceReport {
        let class = t.seen_as.unwrap_or(t.class);
        let shape = class.shape(&self.catalog).unwrap();
        PieceReport {
            id: label,
            piece: class.piece,
            treasure: class.treasure,
            color: class.color,
            center_mm: center,
            footprint_mm: shape.footprint(center, angle_deg.unwrap_or(0.0).to_radians()),
            angle_deg,
            in_ocean: false,
            on_string: false,
            loaded_on: None,
            on_island: false,
            top: t.top,
            confidence: 0.95,
        }
    }

    fn frame(&mut self, flags: Flags) -> FrameObservation {
        self.seq += 1;
        let seq = self.seq;
        let mut order: Vec<usize> = (0..self.pieces.len())
            .filter(|&i| self.pieces[i].visible)
            .collect();
        // Fisher-Yates: vision lists the pieces in any order.
        for i in (1..order.len()).rev() {
            let j = self.rng.random_range(0..=i);
            order.swap(i, j);
        }
        let label: BTreeMap<usize, String> = order
            .iter()
            .enumerate()
            .map(|(k, &i)| (i, format!("v{seq}_{k}")))
            .collect();
        let mut pieces = Vec::new();
        for &i in &order {
            let t = self.pieces[i].clone();
            let j = self.jitter_mm;
            let center =
                t.center + PointMm::new(self.rng.random_range(-j..=j), self.rng.random_range(-j..=j));
            let angle = t.angle_deg.map(|a| a + self.rng.random_range(-1.0..=1.0));
            let mut r = self.report(&t, center, angle, label[&i].clone());
            r.loaded_on = t.on.and_then(|s| label.get(&s).cloned());
            pieces.push(r);
        }
        for p in &mut self.pieces {
            p.seen_as = None;
        }
        FrameObservation {
            seq,
            image: format!("frame_{seq:04}.png"),
            pieces,
            obstructed: flags.obstructed,
            view_moved: flags.view_moved,
            lighting_changed: flags.lighting_changed,
            counter: None,
        }
    }
}

/// A scene fed through a tracker and a committer.
struct Run {
    scene: Scene,
    tracker: Tracker,
    committer: Committer,
    last: Option<TrackedState>,
}

impl Run {
    fn new(pieces: Vec<Truth>, seed: u64) -> Self {
        let ctx = GameContext::with_players(vec![PlayerColor::Orange, PlayerColor::Green]);
        Self {
            scene: Scene::new(pieces, seed),
            tracker: Tracker::new(Catalog::default_catalog(), area(), TrackerConfig::default()).unwrap(),
            committer: Committer::new(OceanReport::new(ocean()), ctx).unwrap(),
            last: None,
        }
    }

    fn step(&mut self, flags: Flags) -> (TrackedState, CommitStep) {
        let obs = self.scene.frame(flags);
        let state = self.tracker.update(&obs).unwrap();
        let step = self.committer.feed(&state).unwrap();
        self.last = Some(state.clone());
        (state, step)
    }

    /// Runs `n` frames; returns every state.
    fn run(&mut self, n: usize, flags: Flags) -> Vec<(TrackedState, CommitStep)> {
        (0..n).map(|_| self.step(flags)).collect()
    }

    fn state(&self) -> &TrackedState {
        self.last.as_ref().unwrap()
    }

    /// The stable id of true piece `i`: the tracked piece of its class nearest to it.
    fn id_of(&self, i: usize) -> String {
        id_near(self.state(), &self.scene.pieces[i])
    }

    fn committed_seq(&self) -> Option<u64> {
        self.committer.committed().map(|c| c.seq)
    }
}

fn id_near(state: &TrackedState, t: &Truth) -> String {
    state
        .pieces
        .iter()
        .filter(|p| PieceClass::of(&p.report) == t.class)
        .min_by(|a, b| {
            a.report
                .center_mm
                .distance(t.center)
                .total_cmp(&b.report.center_mm.distance(t.center))
        })
        .filter(|p| p.report.center_mm.distance(t.center) < 10.0)
        .map(|p| p.report.id.clone())
        .unwrap_or_else(|| panic!("no tracked piece near {t:?} in frame {}", state.seq))
}

fn ids(state: &TrackedState) -> BTreeSet<String> {
    state.pieces.iter().map(|p| p.report.id.clone()).collect()
}

#[test]
fn stable_ids_across_jitter_and_shuffled_order() {
    let mut run = Run::new(table(), 1);
    run.scene.jitter_mm = 2.0;
    let first = run.run(2, Flags::default());
    assert!(
        first.iter().all(|(s, _)| s.pieces.is_empty()),
        "new pieces wait for 3 sightings"
    );
    run.step(Flags::default());
    let n = run.scene.pieces.len();
    let ids0: Vec<String> = (0..n).map(|i| run.id_of(i)).collect();
    assert_eq!(ids0.iter().collect::<BTreeSet<_>>().len(), n, "{ids0:?}");
    for _ in 0..200 {
        let (s, _) = run.step(Flags::default());
        assert_eq!(s.pieces.len(), n);
        let now: Vec<String> = (0..n).map(|i| run.id_of(i)).collect();
        assert_eq!(now, ids0, "frame {}", s.seq);
        assert!(s.events.is_empty(), "jitter is no event: {:?}", s.events);
    }
    // Smoothing: the tracked centres are much closer to the truth than one frame's jitter.
    for (i, t) in run.scene.pieces.iter().enumerate() {
        let p = run.state().piece(&ids0[i]).unwrap();
        assert!(
            p.report.center_mm.distance(t.center) < 1.5,
            "{:?} vs {:?}",
            p.report.center_mm,
            t.center
        );
    }
}

/// Vision's labels change every frame; `sightings` names each detection by the stable id of the
/// piece it is, also in a frame whose detections are not trusted (the tracks held).
#[test]
fn each_sighting_is_named_by_its_pieces_stable_id() {
    let mut run = Run::new(table(), 4);
    run.run(5, Flags::default());
    let relit = Flags {
        lighting_changed: true,
        ..Flags::default()
    };
    for flags in [Flags::default(), relit, Flags::default()] {
        let obs = run.scene.frame(flags);
        let state = run.tracker.update(&obs).unwrap();
        assert_eq!(state.sightings.len(), obs.pieces.len(), "{:?}", state.sightings);
        for d in &obs.pieces {
            let id = &state.sightings[&d.id];
            let p = state.piece(id).unwrap();
            assert_eq!(PieceClass::of(&p.report), PieceClass::of(d), "{id}");
            assert!(p.report.center_mm.distance(d.center_mm) < 10.0, "{id}");
        }
    }
}

#[test]
fn footprints_are_the_catalog_outline_at_the_smoothed_pose() {
    let mut run = Run::new(table(), 2);
    run.run(30, Flags::default());
    let catalog = Catalog::default_catalog();
    for p in &run.state().pieces {
        let class = PieceClass::of(&p.report);
        let angle = p.report.angle_deg.unwrap_or(0.0).to_radians();
        let want = class
            .shape(&catalog)
            .unwrap()
            .footprint(p.report.center_mm, angle);
        assert_eq!(p.report.footprint_mm, want, "{}", p.report.id);
        assert!(p.report.in_ocean);
    }
    // A chest reported now at 30 degrees, now at 210 (the same outline) keeps a steady angle.
    let chest = run.id_of(7);
    let a = run.state().piece(&chest).unwrap().report.angle_deg.unwrap();
    run.scene.pieces[7].angle_deg = Some(210.0);
    let (s, _) = run.step(Flags::default());
    assert!(s.events.is_empty(), "{:?}", s.events);
    let b = s.piece(&chest).unwrap().report.angle_deg.unwrap();
    assert!((a - b).abs() < 1.0, "{a} vs {b}");
}

#[test]
fn a_moving_piece_unsettles_the_table_until_it_rests_again() {
    let mut run = Run::new(table(), 3);
    let states = run.run(30, Flags::default());
    let first_settled = states.iter().position(|(s, _)| s.settled).unwrap();
    // Confirmed at frame 3, then 8 still frames.
    assert_eq!(states[first_settled].0.seq, 11);
    assert!(run.state().settled);
    let gem = run.id_of(6);
    // The gem slides 4 mm per frame for 10 frames: unsettled from its third frame on (one
    // sighting out of place could be a glitch).
    let mut moved = false;
    for k in 0..10 {
        run.scene.pieces[6].center = run.scene.pieces[6].center + PointMm::new(4.0, 0.0);
        let (s, _) = run.step(Flags::default());
        assert!(k < 2 || !s.settled, "frame {}", s.seq);
        moved |= s
            .events
            .iter()
            .any(|e| matches!(e, TrackEvent::Moved { id, .. } if *id == gem));
    }
    assert!(moved);
    let after: Vec<bool> = run
        .run(12, Flags::default())
        .iter()
        .map(|(s, _)| s.settled)
        .collect();
    assert!(!after[0], "not settled the frame after the last move");
    assert!(after[11], "settled again: {after:?}");
    let p = run.state().piece(&gem).unwrap();
    assert!(p.report.center_mm.distance(PointMm::new(560.0, 190.0)) < 2.0);
    assert_eq!(run.id_of(6), gem, "a moved piece keeps its id");
}

#[test]
fn a_still_table_seen_by_a_noisy_vision_commits_once_and_keeps_its_ids() {
    let mut run = Run::new(table(), 40);
    let mut noise = ChaCha8Rng::seed_from_u64(41);
    let goblet = PieceClass {
        piece: PieceKind::Treasure,
        treasure: Some(TreasureType::Goblet),
        color: None,
    };
    run.run(20, Flags::default());
    let ids0: Vec<String> = (0..run.scene.pieces.len()).map(|i| run.id_of(i)).collect();
    let n = run.scene.pieces.len();
    let (mut commits, mut settled) = (0, 0);
    for _ in 0..600 {
        // Each piece missed 2 % of frames, taken for a look-alike 2 %; a stray blob 5 % of frames.
        for p in &mut run.scene.pieces {
            p.visible = noise.random_range(0.0..1.0) > 0.02;
            if p.class.piece == PieceKind::Treasure && noise.random_range(0.0..1.0) < 0.02 {
                p.seen_as = Some(goblet);
            }
        }
        let stray = noise.random_range(0.0..1.0) < 0.05;
        if stray {
            let (x, y) = (noise.random_range(50.0..750.0), noise.random_range(50.0..550.0));
            run.scene.pieces.push(treasure(TreasureType::Chest, x, y));
        }
        let (s, step) = run.step(Flags::default());
        if stray {
            run.scene.pieces.pop();
        }
        commits += usize::from(step.changes.is_some());
        settled += usize::from(s.settled);
        assert!(
            !s.events
                .iter()
                .any(|e| matches!(e, TrackEvent::Appeared { .. } | TrackEvent::Departed { .. })),
            "frame {}: {:?}",
            s.seq,
            s.events
        );
        assert_eq!(s.pieces.len(), n);
    }
    for p in &mut run.scene.pieces {
        p.visible = true;
    }
    run.step(Flags::default());
    assert_eq!((0..n).map(|i| run.id_of(i)).collect::<Vec<_>>(), ids0);
    assert_eq!(commits, 0, "the table committed before the noise never changes");
    assert!(settled >= 570, "settled on {settled} of 600 frames");
}

#[test]
fn a_flicked_treasure_keeps_its_id_however_far_it_goes() {
    for (distance, seed) in [(15.0, 30), (80.0, 31), (250.0, 32)] {
        let mut run = Run::new(table(), seed);
        run.run(20, Flags::default());
        let before = ids(run.state());
        let gem = run.id_of(6); // (520, 190)
        // Flicked down the table in one frame (the frames of the slide show nothing).
        run.scene.pieces[6].center = PointMm::new(520.0, 190.0 + distance);
        let states = run.run(30, Flags::default());
        let events: Vec<&TrackEvent> = states.iter().flat_map(|(s, _)| &s.events).collect();
        assert!(
            events
                .iter()
                .any(|e| matches!(e, TrackEvent::Moved { id, distance_mm } if *id == gem && (distance_mm - distance).abs() < 5.0)),
            "{distance} mm: {events:?}"
        );
        assert!(
            !events
                .iter()
                .any(|e| matches!(e, TrackEvent::Appeared { .. } | TrackEvent::Departed { .. })),
            "{distance} mm: {events:?}"
        );
        assert_eq!(run.id_of(6), gem, "{distance} mm");
        assert_eq!(ids(run.state()), before);
        assert!(run.state().lost.is_empty());
        let commit = run.committer.committed().unwrap();
        assert!(commit.seq > 20, "the new place is committed");
        assert_eq!(commit.changes.moved.len(), 1, "{:?}", commit.changes);
        assert_eq!(commit.changes.moved[0].id, gem);
    }
}

#[test]
fn two_agreeing_settled_readings_commit_and_one_does_not() {
    let mut run = Run::new(table(), 4);
    let states = run.run(11, Flags::default());
    let (last, step) = states.last().unwrap();
    assert!(last.settled);
    assert_eq!(
        step.outcome,
        Some(GateOutcome::Pending),
        "the first reading waits"
    );
    assert_eq!(run.committed_seq(), None);
    // Readings are spaced: the frames in between take none.
    for _ in 0..4 {
        let (_, step) = run.step(Flags::default());
        assert_eq!(step.outcome, None);
        assert_eq!(run.committed_seq(), None);
    }
    let (_, step) = run.step(Flags::default());
    assert_eq!(step.outcome, Some(GateOutcome::Changed));
    assert_eq!(run.committed_seq(), Some(16));
    let changes = step.changes.unwrap();
    assert_eq!(changes.appeared.len(), run.scene.pieces.len());
    assert!(
        changes.rulings.contains(&"players.orange".to_string()),
        "{:?}",
        changes.rulings
    );
    let commit = run.committer.committed().unwrap();
    let rulings = commit.frame.rulings.as_ref().unwrap();
    assert_eq!(rulings.players.len(), 2);
    // The orange ship at (200, 300): its closest treasure is the gold at (260, 180).
    let gold = run.id_of(4);
    assert_eq!(
        rulings.players[&PlayerColor::Orange].closest.as_deref(),
        Some(gold.as_str())
    );
    assert_eq!(rulings.players[&PlayerColor::Orange].ship, run.id_of(0));

    // One settled reading, then a move: that reading is never committed, and the new table
    // needs two readings of its own.
    let mut run = Run::new(table(), 4);
    run.run(11, Flags::default()); // one reading (Pending)
    run.scene.pieces[4].center = PointMm::new(230.0, 250.0); // the gold jumps closer
    let states = run.run(20, Flags::default());
    let first = states.iter().position(|(s, _)| s.settled).unwrap();
    assert_eq!(states[first].1.outcome, Some(GateOutcome::Pending));
    let commit_at = states
        .iter()
        .position(|(_, step)| step.changes.is_some())
        .unwrap();
    assert_eq!(
        commit_at,
        first + 5,
        "committed at the second reading, not before"
    );
    assert_eq!(states[commit_at].1.outcome, Some(GateOutcome::Changed));
    assert_eq!(run.committed_seq(), Some(states[commit_at].0.seq));
    let commit = run.committer.committed().unwrap();
    let gold = commit.frame.pieces.iter().find(|p| p.id == run.id_of(4)).unwrap();
    assert!(gold.center_mm.distance(PointMm::new(230.0, 250.0)) < 2.0);
}

#[test]
fn a_hand_over_the_ocean_for_many_frames_never_commits() {
    let mut run = Run::new(table(), 5);
    for (s, step) in run.run(300, HAND) {
        assert!(!s.settled);
        assert_eq!(step.outcome, Some(GateOutcome::Ignored));
    }
    assert_eq!(run.committed_seq(), None);
    // Pieces seen under the hand are tracked all the same...
    assert_eq!(run.state().pieces.len(), run.scene.pieces.len());
    // ...and once it is gone the table settles and commits.
    run.run(16, Flags::default());
    assert!(run.committed_seq().is_some());
}

#[test]
fn nothing_committed_changes_while_a_hand_moves_pieces() {
    let mut run = Run::new(table(), 6);
    run.run(20, Flags::default());
    let before = run.committer.committed().unwrap().clone();
    let goblet = run.id_of(5);
    for k in 0..60 {
        // The hand pushes the goblet right under the orange ship's bow and hides the gem.
        if k < 20 {
            run.scene.pieces[5].center = run.scene.pieces[5].center + PointMm::new(-3.0, 3.0);
        }
        run.scene.pieces[6].visible = false;
        let (_, step) = run.step(HAND);
        assert_eq!(step.changes, None);
        assert_eq!(run.committer.committed().unwrap(), &before);
    }
    run.scene.pieces[6].visible = true;
    let mut changes = None;
    for _ in 0..20 {
        let (_, step) = run.step(Flags::default());
        if let Some(c) = step.changes {
            changes = Some(c);
        }
    }
    let changes = changes.expect("the new table is committed once the hand is gone");
    assert_eq!(changes.moved.len(), 1, "{changes:?}");
    assert_eq!(changes.moved[0].id, goblet);
    assert!(
        changes.appeared.is_empty() && changes.removed.is_empty(),
        "{changes:?}"
    );
}

#[test]
fn a_piece_hidden_under_a_hand_keeps_its_id() {
    let mut run = Run::new(table(), 7);
    run.run(20, Flags::default());
    let gem = run.id_of(6);
    let all = ids(run.state());
    run.scene.pieces[6].visible = false;
    run.run(200, HAND); // several seconds
    assert!(run.state().piece(&gem).is_some(), "kept while the hand is there");
    run.scene.pieces[6].visible = true;
    // Reappears a little nudged.
    run.scene.pieces[6].center = run.scene.pieces[6].center + PointMm::new(5.0, -4.0);
    run.run(20, Flags::default());
    assert_eq!(run.id_of(6), gem);
    assert_eq!(ids(run.state()), all);
    assert!(run.state().lost.is_empty());
}

#[test]
fn a_piece_hidden_a_while_without_a_hand_comes_back_with_its_id() {
    let mut run = Run::new(table(), 8);
    run.run(20, Flags::default());
    let chest = run.id_of(7);
    run.scene.pieces[7].visible = false;
    // Missed a few frames: still there, but the table cannot settle (is it gone?).
    let states = run.run(5, Flags::default());
    assert!(states.iter().skip(1).all(|(s, _)| !s.settled && s.pending));
    assert!(run.state().piece(&chest).is_some());
    // Gone too long: kept as lost, inside the view.
    let states = run.run(10, Flags::default());
    let departed = states.iter().flat_map(|(s, _)| &s.events).find_map(|e| match e {
        TrackEvent::Departed { id, departure } => Some((id.clone(), *departure)),
        _ => None,
    });
    assert_eq!(departed, Some((chest.clone(), Departure::InView)));
    assert!(run.state().piece(&chest).is_none());
    assert_eq!(run.state().lost.len(), 1);
    assert_eq!(run.state().lost[0].id(), chest);
    // Back near where it was: the same id.
    run.scene.pieces[7].visible = true;
    let states = run.run(5, Flags::default());
    assert!(
        states
            .iter()
            .flat_map(|(s, _)| &s.events)
            .any(|e| *e == TrackEvent::Returned { id: chest.clone() })
    );
    assert_eq!(run.id_of(7), chest);
    assert!(run.state().lost.is_empty());
}

#[test]
fn a_look_alike_flicker_does_not_change_the_class() {
    let mut run = Run::new(table(), 9);
    run.run(20, Flags::default());
    let gold = run.id_of(4);
    let committed = run.committer.committed().unwrap().clone();
    let goblet = PieceClass {
        piece: PieceKind::Treasure,
        treasure: Some(TreasureType::Goblet),
        color: None,
    };
    for k in 0..40 {
        // Every fifth frame vision takes the gold bar for a goblet.
        if k % 5 == 0 {
            run.scene.pieces[4].seen_as = Some(goblet);
        }
        let (s, step) = run.step(Flags::default());
        let p = s.piece(&gold).unwrap();
        assert_eq!(p.report.treasure, Some(TreasureType::Gold), "frame {}", s.seq);
        assert!(s.events.is_empty(), "{:?}", s.events);
        assert!(s.settled);
        assert_ne!(step.outcome, Some(GateOutcome::Changed));
    }
    assert_eq!(run.committer.committed().unwrap().digest, committed.digest);
    // The disagreement shows in the confidence: 4 of the last 15 sightings said goblet... at most.
    let p = run.state().piece(&gold).unwrap();
    assert!(p.class_share < 1.0 && p.class_share >= 0.7, "{}", p.class_share);
    assert!(p.report.confidence < 0.95 * p.class_share + 1e-9);

    // Vision changing its mind for good does change the class, once, after a majority.
    let mut changed_at = None;
    for k in 0..15 {
        run.scene.pieces[4].seen_as = Some(goblet);
        let (s, _) = run.step(Flags::default());
        if s.events
            .iter()
            .any(|e| matches!(e, TrackEvent::Reclassified { .. }))
        {
            assert!(changed_at.is_none());
            changed_at = Some(k);
        }
    }
    let k = changed_at.expect("a lasting change is taken");
    assert!(k >= 4, "not before the goblets outnumber the golds: {k}");
    assert_eq!(
        run.state().piece(&gold).unwrap().report.treasure,
        Some(TreasureType::Goblet)
    );
}

#[test]
fn a_loaded_treasure_names_the_ship_by_its_stable_id() {
    let mut pieces = table();
    let mut gem = treasure(TreasureType::Gem, 605.0, 302.0);
    gem.on = Some(1); // on the green ship
    pieces.push(gem);
    let gem_index = pieces.len() - 1;
    let mut run = Run::new(pieces, 10);
    let green = {
        run.run(5, Flags::default());
        run.id_of(1)
    };
    for _ in 0..30 {
        let (s, _) = run.step(Flags::default());
        let gem = s.piece(&id_near(&s, &run.scene.pieces[gem_index])).unwrap();
        assert_eq!(gem.report.loaded_on.as_deref(), Some(green.as_str()));
        assert!(!green.starts_with('v'));
    }
    // The rulings see the load on the green ship.
    run.run(10, Flags::default());
    let commit = run.committer.committed().unwrap();
    let rulings = commit.frame.rulings.as_ref().unwrap();
    assert_eq!(
        rulings.players[&PlayerColor::Green].loaded,
        vec![TreasureType::Gem]
    );
    // The ship sails off (pushed) and the gem goes with it.
    for _ in 0..20 {
        for i in [1, gem_index] {
            run.scene.pieces[i].center = run.scene.pieces[i].center + PointMm::new(0.0, 4.0);
        }
        run.step(Flags::default());
    }
    run.run(20, Flags::default());
    assert_eq!(run.id_of(1), green);
    let gem = run.state().piece(&run.id_of(gem_index)).unwrap().clone();
    assert_eq!(gem.report.loaded_on.as_deref(), Some(green.as_str()));
}

#[test]
fn a_piece_pushed_out_of_view_is_lost_and_must_be_redropped() {
    let mut run = Run::new(table(), 11);
    run.run(20, Flags::default());
    let gold = run.id_of(9); // the gold at (650, 420)
    // Pushed right, 5 mm a frame, out of the ocean (x = 800) and out of the view (x = 900).
    let mut k = 0;
    while run.scene.pieces[9].center.x < 900.0 {
        run.scene.pieces[9].center = run.scene.pieces[9].center + PointMm::new(5.0, 0.0);
        run.step(Flags::default());
        k += 1;
        assert!(k < 100);
    }
    run.scene.pieces[9].visible = false;
    let states = run.run(12, Flags::default());
    assert!(states.iter().flat_map(|(s, _)| &s.events).any(|e| *e
        == TrackEvent::Departed {
            id: gold.clone(),
            departure: Departure::AtEdge
        }));
    let departed_at = states
        .iter()
        .find(|(s, _)| s.events.iter().any(|e| matches!(e, TrackEvent::Departed { .. })))
        .unwrap()
        .0
        .seq;
    let lost = &run.state().lost;
    assert_eq!(lost.len(), 1);
    assert_eq!(lost[0].id(), gold);
    assert!(
        lost[0].last_center_mm().x > 860.0,
        "{:?}",
        lost[0].last_center_mm()
    );
    // Still in the game: the committed rulings have it out of the ocean, to be re-dropped.
    run.run(20, Flags::default());
    let commit = run.committer.committed().unwrap();
    assert!(commit.seq > departed_at);
    assert_eq!(
        commit.changes.removed,
        Vec::<String>::new(),
        "a lost piece is not removed"
    );
    let rulings = commit.frame.rulings.as_ref().unwrap();
    assert!(rulings.out_of_ocean.contains(&gold), "{:?}", rulings.out_of_ocean);
    assert!(rulings.redrop.as_ref().unwrap().ids.contains(&gold));
    // Re-dropped over the octopus head: a gold appears in the ocean and gets its id back.
    run.scene.pieces[9].center = PointMm::new(420.0, 360.0);
    run.scene.pieces[9].visible = true;
    run.run(20, Flags::default());
    assert_eq!(run.id_of(9), gold);
    assert!(run.state().lost.is_empty());
    let rulings = run.committer.committed().unwrap().frame.rulings.clone().unwrap();
    assert!(rulings.out_of_ocean.is_empty());
}

/// What vision makes of a hand reaching in from the edge (a chest on its sleeve, say) is
/// tracked while the hand is there; when it is gone with the hand, no piece left the view. A
/// hand is not called an obstruction in every frame it is in (here one frame in four, as when
/// little of it is in view): those frames do not make what it shows a piece of the table.
#[test]
fn a_piece_seen_only_under_a_hand_is_not_reported_out_of_view_when_the_hand_leaves() {
    let mut run = Run::new(table(), 12);
    run.run(20, Flags::default());
    let before = run.committer.committed().unwrap().clone();
    run.scene.pieces.push(treasure(TreasureType::Chest, 880.0, 300.0));
    for _ in 0..3 {
        run.run(3, HAND);
        run.step(Flags::default());
    }
    assert_eq!(
        run.state().pieces.len(),
        table().len() + 1,
        "tracked under the hand"
    );
    run.scene.pieces.pop();
    let states = run.run(20, Flags::default());
    let departures: Vec<&TrackEvent> = states
        .iter()
        .flat_map(|(s, _)| &s.events)
        .filter(|e| matches!(e, TrackEvent::Departed { .. }))
        .collect();
    assert_eq!(departures.len(), 1, "{departures:?}");
    assert!(
        !departures.iter().any(|e| matches!(
            e,
            TrackEvent::Departed {
                departure: Departure::AtEdge,
                ..
            }
        )),
        "{departures:?}"
    );
    assert!(
        run.state().lost.iter().all(|l| l.departure != Departure::AtEdge),
        "{:?}",
        run.state().lost
    );
    assert!(run.state().settled);
    assert_eq!(run.state().pieces.len(), table().len());
    let after = run.committer.committed().unwrap();
    assert_eq!(
        after.frame.pieces.len(),
        before.frame.pieces.len(),
        "the committed table is the table before the hand"
    );
}

#[test]
fn a_one_frame_flicker_never_becomes_a_piece() {
    let mut run = Run::new(table(), 12);
    run.run(20, Flags::default());
    let before = ids(run.state());
    // A spurious crab for one frame, every third frame: never three sightings in five frames.
    for k in 0..30 {
        if k % 3 == 0 {
            run.scene
                .pieces
                .push(truth(PieceKind::Crab, None, None, 100.0, 100.0));
            let (s, _) = run.step(Flags::default());
            run.scene.pieces.pop();
            assert!(k > 0 || s.settled, "a first sighting is not even pending");
            assert!(s.events.is_empty());
        } else {
            run.step(Flags::default());
        }
    }
    assert_eq!(ids(run.state()), before);
}

#[test]
fn a_piece_taken_away_is_removed_at_the_next_commit() {
    let mut run = Run::new(table(), 13);
    run.run(20, Flags::default());
    let tentacle = run.id_of(3);
    run.scene.pieces[3].visible = false;
    let mut changes = None;
    for _ in 0..40 {
        let (s, step) = run.step(Flags::default());
        if let Some(c) = step.changes {
            assert!(
                s.piece(&tentacle).is_none(),
                "never committed while it may still be there"
            );
            changes = Some(c);
        }
    }
    let changes = changes.unwrap();
    assert_eq!(changes.removed, vec![tentacle]);
}

#[test]
fn lighting_changes_and_a_moved_view_pause_settling_and_hold_the_tracks() {
    let mut run = Run::new(table(), 14);
    run.run(20, Flags::default());
    let before = run.state().reports();
    let committed = run.committer.committed().unwrap().clone();
    let relit = Flags {
        lighting_changed: true,
        ..Flags::default()
    };
    // While relit, vision's classes and positions are nonsense; nothing follows them.
    for k in 0..30 {
        for p in &mut run.scene.pieces {
            p.seen_as = Some(PieceClass {
                piece: PieceKind::Treasure,
                treasure: Some(TreasureType::Rose),
                color: None,
            });
            p.center = p.center + PointMm::new(if k % 2 == 0 { 30.0 } else { -30.0 }, 0.0);
        }
        let (s, step) = run.step(relit);
        assert!(!s.settled && s.frames_still == 0);
        assert_eq!(step.outcome, Some(GateOutcome::Ignored));
        assert_eq!(s.reports(), before);
        assert!(s.events.is_empty());
    }
    for p in &mut run.scene.pieces {
        p.seen_as = None;
    }
    let moved = Flags {
        view_moved: true,
        ..Flags::default()
    };
    for _ in 0..30 {
        let (s, _) = run.step(moved);
        assert!(!s.settled);
        assert_eq!(s.reports(), before);
    }
    assert_eq!(run.committer.committed().unwrap(), &committed);
    // Back to normal: same ids, settles, commits the same rulings (nothing changed).
    let states = run.run(20, Flags::default());
    assert!(states.iter().all(|(s, _)| s.events.is_empty()));
    assert!(run.state().settled);
    assert_eq!(run.committer.committed().unwrap().digest, committed.digest);
}

#[test]
fn the_die_top_is_voted_and_a_new_top_is_a_change() {
    let mut pieces = table();
    let mut die = truth(PieceKind::InkDie, None, None, 450.0, 520.0);
    die.top = Some(DieTop::Black);
    pieces.push(die);
    let i = pieces.len() - 1;
    let mut run = Run::new(pieces, 15);
    run.run(20, Flags::default());
    let id = run.id_of(i);
    assert_eq!(run.state().piece(&id).unwrap().report.top, Some(DieTop::Black));
    run.scene.pieces[i].top = Some(DieTop::Red);
    let (s, _) = run.step(Flags::default());
    assert_eq!(
        s.piece(&id).unwrap().report.top,
        Some(DieTop::Black),
        "one frame is not enough"
    );
    let states = run.run(20, Flags::default());
    assert!(
        states
            .iter()
            .flat_map(|(s, _)| &s.events)
            .any(|e| *e == TrackEvent::TopChanged { id: id.clone() })
    );
    assert_eq!(run.state().piece(&id).unwrap().report.top, Some(DieTop::Red));
    assert!(run.committer.committed().unwrap().changes.die_tops.contains(&id));
}

#[test]
fn a_new_game_context_is_ruled_at_once_on_the_committed_table() {
    let mut run = Run::new(table(), 16);
    run.run(20, Flags::default());
    let seq = run.committed_seq().unwrap();
    let mut ctx = GameContext::with_players(vec![PlayerColor::Orange, PlayerColor::Green]);
    ctx.loaded = Some(BTreeMap::from([(
        PlayerColor::Orange,
        BTreeSet::from([TreasureType::Gem]),
    )]));
    let changes = run.committer.set_context(ctx).unwrap().unwrap();
    assert!(
        changes.rulings.contains(&"players.orange".to_string()),
        "{changes:?}"
    );
    assert!(
        !changes.rulings.contains(&"players.green".to_string()),
        "{changes:?}"
    );
    assert!(changes.appeared.is_empty() && changes.moved.is_empty());
    let commit = run.committer.committed().unwrap();
    assert_eq!(commit.seq, seq);
    let orange = &commit.frame.rulings.as_ref().unwrap().players[&PlayerColor::Orange];
    assert_eq!(orange.loaded, vec![TreasureType::Gem]);
    // The next readings of the unchanged table agree with it.
    for (_, step) in run.run(20, Flags::default()) {
        assert_ne!(step.outcome, Some(GateOutcome::Changed));
    }
    let bad = GameContext {
        tolerance_mm: -1.0,
        ..GameContext::default()
    };
    assert!(
        run.committer
            .set_context(bad)
            .unwrap_err()
            .to_string()
            .contains("tolerance_mm")
    );
}

#[test]
fn bad_observations_are_refused_with_the_field_and_change_nothing() {
    let mut run = Run::new(table(), 17);
    run.run(5, Flags::default());
    let before = run.state().clone();
    let mut obs = run.scene.frame(Flags::default());
    let good = obs.clone();

    obs.seq = 3;
    let e = run.tracker.update(&obs).unwrap_err();
    assert_eq!(e, TrackingError::OutOfOrder { seq: 3, last: 5 });

    let mut obs = good.clone();
    obs.pieces[1].id = obs.pieces[0].id.clone();
    let e = run.tracker.update(&obs).unwrap_err().to_string();
    assert!(e.contains("pieces[1]") && e.contains("pieces[0]"), "{e}");

    let mut obs = good.clone();
    obs.pieces[2].center_mm.x = f64::NAN;
    let e = run.tracker.update(&obs).unwrap_err().to_string();
    assert!(e.contains("pieces[2]") && e.contains("center_mm"), "{e}");

    let mut obs = good.clone();
    obs.pieces[0].confidence = 1.5;
    let e = run.tracker.update(&obs).unwrap_err().to_string();
    assert!(e.contains("confidence"), "{e}");

    let mut obs = good.clone();
    let i = obs
        .pieces
        .iter()
        .position(|p| p.piece == PieceKind::Treasure)
        .unwrap();
    obs.pieces[i].loaded_on = Some("nowhere".into());
    let e = run.tracker.update(&obs).unwrap_err().to_string();
    assert!(
        e.contains(&format!("pieces[{i}]")) && e.contains("loaded_on") && e.contains("nowhere"),
        "{e}"
    );

    // Nothing changed: the good frame is taken as if the bad ones never came.
    let s = run.tracker.update(&good).unwrap();
    assert_eq!(ids(&s), ids(&before));
    assert_eq!(s.seq, 6);
}

#[test]
fn ids_do_not_depend_on_the_order_vision_lists_pieces() {
    let frames: Vec<FrameObservation> = {
        let mut scene = Scene::new(table(), 18);
        (0..10).map(|_| scene.frame(Flags::default())).collect()
    };
    let run = |reverse: bool| {
        let mut t = Tracker::new(Catalog::default_catalog(), area(), TrackerConfig::default()).unwrap();
        let mut last = None;
        for f in &frames {
            let mut f = f.clone();
            if reverse {
                f.pieces.reverse();
            }
            last = Some(t.update(&f).unwrap());
        }
        last.unwrap().reports()
    };
    assert_eq!(run(false), run(true));
}

/// A grid of pieces at least 60 mm apart; some of the same class.
fn grid(n: usize) -> Vec<Truth> {
    use TreasureType::*;
    let types = [Gold, Gold, Goblet, Gem, Chest, Captain];
    (0..n)
        .map(|i| {
            let (x, y) = (100.0 + 60.0 * (i % 8) as f64, 100.0 + 60.0 * (i / 8) as f64);
            if i % 5 == 4 {
                ship(PlayerColor::Blue, x, y)
            } else {
                treasure(types[i % types.len()], x, y)
            }
        })
        .collect()
}

/// Frames of `pieces` with the given per-frame offsets (mm) and orders.
fn frames_of(pieces: &[Truth], offsets: &[Vec<(f64, f64)>], orders: &[Vec<usize>]) -> Vec<FrameObservation> {
    let scene = Scene::new(pieces.to_vec(), 0);
    offsets
        .iter()
        .zip(orders)
        .enumerate()
        .map(|(f, (off, order))| FrameObservation {
            seq: f as u64 + 1,
            image: String::new(),
            pieces: order
                .iter()
                .enumerate()
                .map(|(k, &i)| {
                    let t = &pieces[i];
                    let c = t.center + PointMm::new(off[i].0, off[i].1);
                    scene.report(t, c, t.angle_deg, format!("d{f}_{k}"))
                })
                .collect(),
            ..FrameObservation::default()
        })
        .collect()
}

/// The id of each true piece in each state (tracked piece nearest to it).
fn ids_per_frame(states: &[TrackedState], pieces: &[Truth]) -> Vec<Vec<String>> {
    states
        .iter()
        .map(|s| pieces.iter().map(|t| id_near(s, t)).collect())
        .collect()
}

const FRAMES: usize = 24;

/// Per frame, per piece: the jitter (mm) vision adds.
type Offsets = Vec<Vec<(f64, f64)>>;
/// Per frame: the order vision lists the pieces in.
type Orders = Vec<Vec<usize>>;

fn stream() -> impl Strategy<Value = (usize, Offsets, Orders)> {
    (3usize..14).prop_flat_map(|n| {
        let offsets = prop::collection::vec(prop::collection::vec((-4.0f64..4.0, -4.0f64..4.0), n), FRAMES);
        let orders = prop::collection::vec(Just((0..n).collect::<Vec<usize>>()).prop_shuffle(), FRAMES);
        (Just(n), offsets, orders)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn ids_stay_stable_under_jitter_and_any_order((n, offsets, orders) in stream()) {
        let pieces = grid(n);
        let identity: Vec<Vec<usize>> = vec![(0..n).collect(); FRAMES];
        let track = |orders: &[Vec<usize>]| {
            let mut t = Tracker::new(Catalog::default_catalog(), area(), TrackerConfig::default()).unwrap();
            frames_of(&pieces, &offsets, orders)
                .iter()
                .map(|f| t.update(f).unwrap())
                .collect::<Vec<_>>()
        };
        let shuffled = track(&orders);
        let ordered = track(&identity);
        // From the third frame every piece is tracked, each under one id for good.
        let got = ids_per_frame(&shuffled[2..], &pieces);
        for (f, ids) in got.iter().enumerate() {
            prop_assert_eq!(ids, &got[0], "frame {}", f + 3);
            prop_assert_eq!(ids.iter().collect::<BTreeSet<_>>().len(), n);
            prop_assert_eq!(shuffled[f + 2].pieces.len(), n);
        }
        // And the same ids as when vision lists the pieces in a fixed order.
        prop_assert_eq!(got, ids_per_frame(&ordered[2..], &pieces));
    }
}

/// One frame of a random script: which piece moves and how far, and whether a hand is there.
#[derive(Debug, Clone)]
struct ScriptFrame {
    hand: bool,
    push: Option<(usize, f64, f64)>,
    hide: Option<usize>,
    flicker: Option<usize>,
}

fn script() -> impl Strategy<Value = Vec<ScriptFrame>> {
    // Hands come in spells: runs of frames with or without one.
    let spell = (any::<bool>(), 1usize..30);
    let frame = (
        prop::option::weighted(0.2, (0usize..10, -8.0f64..8.0, -8.0f64..8.0)),
        prop::option::weighted(0.1, 0usize..10),
        prop::option::weighted(0.1, 0usize..10),
    );
    prop::collection::vec((spell, prop::collection::vec(frame, 30)), 1..8).prop_map(|spells| {
        spells
            .into_iter()
            .flat_map(|((hand, len), frames)| {
                frames
                    .into_iter()
                    .take(len)
                    .map(move |(push, hide, flicker)| ScriptFrame {
                        hand,
                        push,
                        hide,
                        flicker,
                    })
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn the_committed_state_never_changes_while_obstructed(frames in script(), seed in 0u64..1000) {
        let mut run = Run::new(table(), seed);
        // A committed table to protect.
        run.run(20, Flags::default());
        prop_assert!(run.committer.committed().is_some());
        let goblet = PieceClass { piece: PieceKind::Treasure, treasure: Some(TreasureType::Goblet), color: None };
        for f in frames {
            if let Some((i, dx, dy)) = f.push {
                let c = run.scene.pieces[i].center + PointMm::new(dx, dy);
                run.scene.pieces[i].center = PointMm::new(c.x.clamp(50.0, 750.0), c.y.clamp(50.0, 550.0));
            }
            for (i, p) in run.scene.pieces.iter_mut().enumerate() {
                p.visible = f.hide != Some(i);
                if f.flicker == Some(i) && p.class.piece == PieceKind::Treasure {
                    p.seen_as = Some(goblet);
                }
            }
            let before = run.committer.committed().cloned();
            let flags = Flags { obstructed: f.hand, ..Flags::default() };
            let (s, step) = run.step(flags);
            if f.hand {
                prop_assert!(!s.settled);
                prop_assert_eq!(step.changes, None);
                prop_assert_eq!(run.committer.committed().cloned(), before);
            }
        }
    }
}
