//! Invariants as property tests, where the modules do not already have them.
//!
//! Where each invariant of the reliability issue is tested:
//! - gaps symmetric, never negative, zero when footprints overlap: `referee::gap` (the referee's
//!   fast gap against `PolygonMm::gap`) and here for `PolygonMm::gap` itself, with nested
//!   footprints, far-away tables and degenerate polygons;
//! - the homography round-trips: here, for random well-conditioned homographies, for the
//!   homography of random cameras over the table, and through its JSON form;
//! - the camera model round-trips (project, then unproject at the same height): here;
//! - the crab never moves back, treasures are conserved: `games::crash_octopus::game` (random
//!   events) and the `game_events` fuzz target;
//! - an Octocube game conserves tiles: `games::octocube::tests` (basic, advanced, kids play);
//! - an Otto board never holds two joined arms: `games::otto::rulebook_tests` (random legal play)
//!   and here for scored records of random moves, legal or not (the `score_otto` and `otto_board`
//!   fuzz targets check the same on fuzzed records and saved boards).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use nalgebra::{Matrix3, Vector3};
use octoref::games::otto::record::RecordedMove;
use octoref::games::otto::{Board, BoardLayout, Edge, GameRecord, Side, Tile, TileSet, score_record};
use octoref::table::camera::{Camera, Intrinsics, Pose};
use octoref::table::homography::Homography;
use octoref::table::polygon::PolygonMm;
use octoref::table::units::{PointMm, PointMm3, PointPx};
use proptest::prelude::*;

// ---------------------------------------------------------------- gaps

/// A star-shaped polygon (3 to 9 vertices, radii 5-60 mm) around `centre`: convex or not, and the
/// shapes footprints take.
fn arb_star(
    centre: impl Strategy<Value = (f64, f64)>,
    radius_mm: std::ops::Range<f64>,
) -> impl Strategy<Value = PolygonMm> {
    (
        centre,
        0.0..std::f64::consts::TAU,
        proptest::collection::vec(radius_mm, 3..10),
    )
        .prop_map(|((cx, cy), turn, radii)| {
            let n = radii.len() as f64;
            PolygonMm::new(
                radii
                    .iter()
                    .enumerate()
                    .map(|(i, r)| {
                        let a = turn + std::f64::consts::TAU * i as f64 / n;
                        PointMm::new(cx + r * a.cos(), cy + r * a.sin())
                    })
                    .collect(),
            )
        })
}

fn arb_polygon() -> impl Strategy<Value = PolygonMm> {
    arb_star((-200.0f64..200.0, -200.0f64..200.0), 5.0..60.0)
}

/// Brute force: the least distance between any two edges, 0 when they cross or one region holds
/// a vertex of the other.
fn reference_gap(a: &PolygonMm, b: &PolygonMm) -> f64 {
    let overlap = a.points().iter().any(|&p| b.contains(p)) || b.points().iter().any(|&p| a.contains(p));
    if overlap || a.intersects_outline(b) {
        return 0.0;
    }
    let mut best = f64::INFINITY;
    for (p, q) in a.edges() {
        for (r, s) in b.edges() {
            for (x, y, z) in [(p, r, s), (q, r, s)] {
                best = best.min(octoref::table::polygon::point_segment_distance(x, y, z));
            }
            for (x, y, z) in [(r, p, q), (s, p, q)] {
                best = best.min(octoref::table::polygon::point_segment_distance(x, y, z));
            }
        }
    }
    best
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn polygon_gaps_are_symmetric_non_negative_and_zero_on_overlap(a in arb_polygon(), b in arb_polygon()) {
        let ab = a.gap(&b);
        let ba = b.gap(&a);
        prop_assert!(ab.is_finite() && ab >= 0.0, "gap {ab}");
        prop_assert_eq!(ab.to_bits(), ba.to_bits(), "a.gap(b) = {}, b.gap(a) = {}", ab, ba);
        let reference = reference_gap(&a, &b);
        prop_assert!((ab - reference).abs() < 1e-9, "gap {ab}, brute force {reference}");
        // Never more than the distance between any two vertices.
        let closest_vertices = a
            .points()
            .iter()
            .flat_map(|p| b.points().iter().map(move |q| p.distance(*q)))
            .fold(f64::INFINITY, f64::min);
        prop_assert!(ab <= closest_vertices + 1e-9);
    }

    #[test]
    fn a_footprint_inside_another_has_no_gap(
        (outer, inner) in (-200.0f64..200.0, -200.0f64..200.0).prop_flat_map(|c| {
            // Outer radii of at least 30 mm keep a disc of 15 mm (30 cos 60 degrees) inside the
            // outer polygon; inner radii of at most 14 mm keep the inner polygon in that disc.
            (
                arb_star(Just(c), 30.0..60.0),
                arb_star(Just(c), 2.0..14.0),
            )
        })
    ) {
        // No edge crosses, yet the inner footprint lies on the outer one: no gap.
        prop_assert!(!outer.intersects_outline(&inner));
        prop_assert_eq!(outer.gap(&inner), 0.0);
        prop_assert_eq!(inner.gap(&outer), 0.0);
    }

    #[test]
    fn gaps_do_not_change_when_the_table_moves_far_away(
        a in arb_polygon(), b in arb_polygon(),
        dx in -1e6f64..1e6, dy in -1e6f64..1e6,
    ) {
        let d = PointMm::new(dx, dy);
        let near = a.gap(&b);
        let far = a.translated(d).gap(&b.translated(d));
        let ba = b.translated(d).gap(&a.translated(d));
        prop_assert_eq!(far.to_bits(), ba.to_bits());
        // Coordinates of 1e6 mm keep about 1e-10 relative precision: micrometres.
        prop_assert!((near - far).abs() < 1e-3, "near {near} far {far}");
    }
}

#[test]
fn hostile_polygons_give_a_defined_gap() {
    let square = PolygonMm::new(vec![
        PointMm::new(0.0, 0.0),
        PointMm::new(10.0, 0.0),
        PointMm::new(10.0, 10.0),
        PointMm::new(0.0, 10.0),
    ]);
    let empty = PolygonMm::new(Vec::new());
    let point = PolygonMm::new(vec![PointMm::new(20.0, 5.0)]);
    let huge = PolygonMm::new(vec![
        PointMm::new(1e308, 1e308),
        PointMm::new(-1e308, 1e308),
        PointMm::new(0.0, -1e308),
    ]);
    let nan = PolygonMm::new(vec![
        PointMm::new(f64::NAN, 0.0),
        PointMm::new(1.0, 1.0),
        PointMm::new(2.0, 0.0),
    ]);
    // No footprint: infinitely far, both ways.
    assert_eq!(square.gap(&empty), f64::INFINITY);
    assert_eq!(empty.gap(&square), f64::INFINITY);
    // A one-point footprint is a point.
    assert!((square.gap(&point) - 10.0).abs() < 1e-12);
    assert_eq!(square.gap(&point), point.gap(&square));
    // Huge and NaN coordinates: symmetric, never negative, and callers can tell (is_finite).
    for other in [&huge, &nan] {
        let ab = square.gap(other);
        let ba = other.gap(&square);
        assert!(ab.is_nan() && ba.is_nan() || ab == ba, "{ab} vs {ba}");
        assert!(ab.is_nan() || ab >= 0.0, "{ab}");
    }
    assert!(!nan.is_finite() && square.is_finite());
}

// ---------------------------------------------------------------- homography

/// A camera 500-1500 mm above a table point, tilted up to 40 degrees, turned any way about its
/// axis, with a 50-90 degree lens at 640x480 to 1920x1080: the range octoref calibrates for.
fn arb_camera(distortion: bool) -> impl Strategy<Value = Camera> {
    (
        (-300.0f64..300.0, -300.0f64..300.0, 500.0f64..1500.0),
        (
            0.0f64..40.0,
            0.0..std::f64::consts::TAU,
            0.0..std::f64::consts::TAU,
        ),
        (
            prop_oneof![Just((640, 480)), Just((1280, 720)), Just((1920, 1080))],
            50.0f64..90.0,
        ),
        (-0.2f64..0.2, -0.05f64..0.05, -0.002f64..0.002, -0.002f64..0.002),
    )
        .prop_map(
            move |((x, y, height), (tilt, azimuth, roll), ((w, h), hfov), (k1, k2, p1, p2))| {
                let mut intrinsics = Intrinsics::from_hfov(w, h, hfov);
                if distortion {
                    intrinsics.distortion = [k1, k2, p1, p2, 0.0];
                }
                let target = PointMm3::new(x, y, 0.0);
                let (t, a) = (tilt.to_radians(), azimuth);
                let eye = PointMm3::new(
                    x + height * t.tan() * a.cos(),
                    y + height * t.tan() * a.sin(),
                    -height,
                );
                let up = Vector3::new(roll.cos(), roll.sin(), 0.0);
                let pose = Pose::look_at(eye, target, up).unwrap_or(Pose {
                    rvec: [std::f64::consts::PI, 0.0, 0.0],
                    tvec: [-x, y, height],
                });
                Camera { intrinsics, pose }
            },
        )
}

/// A homography with a bounded condition number: a similarity (scale 0.3-5 px/mm, any rotation,
/// any offset), a shear and anisotropy, and a mild perspective.
fn arb_homography() -> impl Strategy<Value = Homography> {
    (
        (
            0.3f64..5.0,
            0.0..std::f64::consts::TAU,
            -2000.0f64..2000.0,
            -2000.0f64..2000.0,
        ),
        (0.7f64..1.4, -0.3f64..0.3),
        (-5e-4f64..5e-4, -5e-4f64..5e-4),
    )
        .prop_map(|((s, a, tx, ty), (aniso, shear), (g, h))| {
            let (c, si) = (a.cos(), a.sin());
            let linear = Matrix3::new(s * c, -s * si, tx, s * si, s * c, ty, 0.0, 0.0, 1.0)
                * Matrix3::new(aniso, shear, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0);
            let perspective = Matrix3::new(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, g, h, 1.0);
            Homography::try_new(perspective * linear).unwrap()
        })
}

fn arb_table_point() -> impl Strategy<Value = PointMm> {
    (-400.0f64..400.0, -400.0f64..400.0).prop_map(|(x, y)| PointMm::new(x, y))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn homographies_round_trip(h in arb_homography(), points in proptest::collection::vec(arb_table_point(), 1..20)) {
        for p in points {
            let Some(px) = h.to_px(p) else { continue };
            let back = h.to_mm(px).unwrap();
            prop_assert!(back.distance(p) < 1e-6, "{p:?} -> {px:?} -> {back:?}");
            let again = h.to_px(back).unwrap();
            // Pixels reach thousands (offsets up to 2000 px, 5 px/mm): compare relative to size.
            let scale_px = 1.0 + px.x.abs() + px.y.abs();
            prop_assert!(again.distance(px) < 1e-9 * scale_px, "{px:?} -> {back:?} -> {again:?}");
        }
        // The JSON form (a profile's `homography`) gives the same mapping.
        let json = serde_json::to_string(&h).unwrap();
        let loaded: Homography = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(loaded.matrix(), h.matrix());
    }

    #[test]
    fn camera_homographies_round_trip_and_match_the_projection(
        camera in arb_camera(false),
        points in proptest::collection::vec(arb_table_point(), 1..20),
    ) {
        let h = camera.table_homography();
        for p in points {
            let Some(projected) = camera.project_table(p) else { continue };
            let px = h.to_px(p).unwrap();
            prop_assert!(px.distance(projected) < 1e-6, "homography {px:?} vs camera {projected:?}");
            let back = h.to_mm(px).unwrap();
            prop_assert!(back.distance(p) < 1e-6, "{p:?} -> {back:?}");
        }
    }

    #[test]
    fn the_camera_model_round_trips_at_any_height(
        camera in arb_camera(true),
        points in proptest::collection::vec(arb_table_point(), 1..20),
        height_mm in 0.0f64..120.0,
    ) {
        let i = &camera.intrinsics;
        let [k1, k2, ..] = i.distortion;
        for p in points {
            let Some(px) = camera.project(PointMm3::above(p, height_mm)) else { continue };
            // Only what the camera sees, and only where the lens model is one-to-one: past the
            // radius where the radial term folds back (d r_d / d r <= 0), two directions give
            // the same pixel and no inverse can tell them apart. Calibrated lenses are
            // one-to-one over their image; a margin keeps the fold's slow convergence out.
            let inside = (0.0..f64::from(i.width)).contains(&px.x) && (0.0..f64::from(i.height)).contains(&px.y);
            let c = camera.to_camera(PointMm3::above(p, height_mm));
            let r2 = (c.x / c.z).powi(2) + (c.y / c.z).powi(2);
            let slope = 1.0 + 3.0 * k1 * r2 + 5.0 * k2 * r2 * r2;
            if !inside || slope < 0.5 {
                continue;
            }
            let back = camera.unproject_at_height(px, height_mm).unwrap();
            prop_assert!(back.distance(p) < 0.05, "{p:?} at {height_mm} mm -> {px:?} -> {back:?}");
        }
    }
}

#[test]
fn singular_and_non_finite_homographies_are_refused() {
    assert!(Homography::try_new(Matrix3::zeros()).is_err());
    assert!(Homography::try_new(Matrix3::from_element(f64::NAN)).is_err());
    let mut m = Matrix3::identity();
    m[(0, 0)] = f64::INFINITY;
    assert!(Homography::try_new(m).is_err());
    // A profile's matrix with a 1e308 entry: its inverse is not finite.
    let mut m = Matrix3::identity();
    m[(0, 0)] = 1e308;
    m[(1, 1)] = 1e308;
    assert!(Homography::try_new(m).is_err());
    assert!(serde_json::from_str::<Homography>("[[0,0,0],[0,0,0],[0,0,0]]").is_err());
    // Points at infinity or NaN map to nothing rather than to NaN.
    let h = Homography::try_new(Matrix3::identity()).unwrap();
    assert_eq!(h.to_px(PointMm::new(f64::NAN, 0.0)), None);
    assert_eq!(h.to_mm(PointPx::new(f64::INFINITY, 0.0)), None);
}

// ---------------------------------------------------------------- Otto

/// Independently of the arm tracer: two adjacent tiles whose open edges face each other are
/// consecutive tiles of one arm; every Arm and End tile belongs to an arm; every arm is completed
/// or has an open end.
fn joined_arms(b: &Board) -> Option<String> {
    let layout = b.layout();
    let edges = |t: &Tile| -> Vec<Edge> {
        match t {
            Tile::Arm(a) => vec![a.from, a.to],
            Tile::End(e) => vec![e.from],
            _ => Vec::new(),
        }
    };
    let arm_of = |cell| b.arms().iter().position(|a| a.covered().contains(&cell));
    for cell in layout.cells() {
        let Some(t) = b.tile_at(cell) else { continue };
        if matches!(t, Tile::Arm(_) | Tile::End(_)) && arm_of(cell).is_none() {
            return Some(format!("{cell} belongs to no arm"));
        }
        for e in edges(t) {
            let Some(n) = layout.neighbour(cell, e) else {
                continue;
            };
            let Some(other) = b.tile_at(n) else { continue };
            if edges(other).contains(&e.opposite()) && arm_of(cell) != arm_of(n) {
                return Some(format!("{cell} and {n} join two arms"));
            }
        }
    }
    b.arms()
        .iter()
        .find(|a| !a.is_completed() && a.open_end().is_none())
        .map(|a| format!("the arm from {} is stuck", a.socket_cell))
}

fn arb_move(players: usize) -> impl Strategy<Value = RecordedMove> {
    let edge = prop_oneof![Just(Edge::N), Just(Edge::E), Just(Edge::S), Just(Edge::W)];
    let side = prop_oneof![Just(Side::Left), Just(Side::Right)];
    (
        0..players,
        0u8..6,
        (-1i64..10, -1i64..10),
        (edge.clone(), edge),
        side,
        any::<bool>(),
    )
        .prop_map(|(player, kind, (x, y), (from, to), suckers, shell)| {
            let player = format!("p{player}");
            let cell = Some([x, y]);
            match kind {
                0 | 1 => RecordedMove {
                    player,
                    tile: Some("arm".into()),
                    cell,
                    from: Some(from),
                    to: Some(to),
                    suckers: Some(suckers),
                    ..RecordedMove::default()
                },
                2 => RecordedMove {
                    player,
                    tile: Some("end".into()),
                    cell,
                    from: Some(from),
                    shell: Some(shell),
                    ..RecordedMove::default()
                },
                3 => RecordedMove {
                    player,
                    tile: Some("bubbles".into()),
                    cell,
                    ..RecordedMove::default()
                },
                _ => RecordedMove {
                    player,
                    pass: Some(true),
                    ..RecordedMove::default()
                },
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Records of random moves (most of them illegal: off the Ocean, not joined, bad turns)
    /// are scored; what ends up on the board never joins two arms.
    #[test]
    fn scored_otto_records_never_join_two_arms(
        players in 1usize..=4,
        moves in proptest::collection::vec(arb_move(4), 0..120),
    ) {
        let names: Vec<String> = (0..players).map(|i| format!("p{i}")).collect();
        let moves: Vec<RecordedMove> = moves
            .into_iter()
            .filter(|m| names.contains(&m.player))
            .collect();
        let record = GameRecord {
            board: "default".into(),
            tiles: "default".into(),
            players: names,
            moves,
            hands: Default::default(),
            open: false,
            simplified: false,
        };
        let tiles = TileSet::default_set().unwrap();
        let Ok(report) = score_record(&record, BoardLayout::default_layout().unwrap(), &tiles) else {
            // Off-Ocean cells and the like are input errors, not moves.
            return Ok(());
        };
        let board = report.final_board.as_ref().unwrap();
        prop_assert_eq!(joined_arms(board), None);
        let legal = report.moves.iter().filter(|m| m.legal && !m.pass).count();
        prop_assert_eq!(board.placed_count(), legal);
        prop_assert!(report.moves.iter().all(|m| m.legal || m.points == 0));
    }
}
