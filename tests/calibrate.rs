//! `octoref calibrate` and `octoref board` end to end: the command line contract (cli.md), exit
//! codes, messages, and the files written.
//!
//! The command-line tests make their captures with OpenCV directly: the board drawn by the ArUco
//! adapter and the set-up (string, beads, crab) drawn top-down, both warped into a camera view by
//! the plane homography of a known camera. The accuracy tests at the end calibrate rendered
//! synthetic scenes (`octoref::synth`, 40 seeds, tilt 0-35 degrees) and measure them against the
//! truth; run them with `--nocapture` to see the figures.

#![allow(clippy::unwrap_used, clippy::panic, clippy::print_stdout)] // helpers outside #[test] fns: a failure there is a test failure; figures are printed

use octoref::calibrate::aruco;
use octoref::calibrate::board::BoardSpec;
use octoref::calibrate::profile::{Method, Profile};
use octoref::table::{Camera, Intrinsics, PointMm, PointMm3, Pose};
use opencv::core::{self, Mat, Point, Scalar, Size};
use opencv::prelude::*;
use opencv::{imgcodecs, imgproc};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn octoref(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_octoref"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn camera(tilt_deg: f64) -> Camera {
    let target = PointMm3::new(140.0, 100.0, 0.0);
    let t = tilt_deg.to_radians();
    let d = 1100.0;
    let eye = PointMm3::new(target.x, target.y - d * t.sin(), -d * t.cos());
    Camera {
        intrinsics: Intrinsics::from_hfov(1280, 720, 70.0),
        pose: Pose::look_at(eye, target, nalgebra::Vector3::new(0.0, -1.0, 0.0)).unwrap(),
    }
}

/// Top-down canvas: table point (x, y) mm at canvas pixel ((x - X0) * S, (y - Y0) * S).
const S: f64 = 3.0;
const X0: f64 = -400.0;
const Y0: f64 = -300.0;
const CANVAS_W: i32 = 1100 * 3;
const CANVAS_H: i32 = 800 * 3;

fn canvas_px(p: PointMm) -> Point {
    // Fixed-point (4 fractional bits) for OpenCV's drawing functions.
    Point::new(
        ((p.x - X0) * S * 16.0).round() as i32,
        ((p.y - Y0) * S * 16.0).round() as i32,
    )
}

fn blank_canvas() -> Mat {
    let mut c = Mat::new_rows_cols_with_default(
        CANVAS_H,
        CANVAS_W,
        core::CV_8UC3,
        Scalar::new(110.0, 150.0, 185.0, 0.0),
    )
    .unwrap();
    // Wood grain.
    for k in 0..(CANVAS_H / 9) {
        let y = k * 9;
        imgproc::line(
            &mut c,
            Point::new(0, y),
            Point::new(CANVAS_W, y + 20),
            Scalar::new(98.0, 136.0, 170.0, 0.0),
            3,
            imgproc::LINE_8,
            0,
        )
        .unwrap();
    }
    c
}

/// The canvas seen by `cam` (flat warp, anti-aliased by drawing big and warping with area-ish
/// interpolation).
fn view(canvas: &Mat, cam: &Camera) -> Mat {
    let h = cam.table_homography();
    let canvas_to_table = nalgebra::Matrix3::new(1.0 / S, 0.0, X0, 0.0, 1.0 / S, Y0, 0.0, 0.0, 1.0);
    let m = h.matrix() * canvas_to_table;
    let m = Mat::from_slice_2d(&[
        [m[(0, 0)], m[(0, 1)], m[(0, 2)]],
        [m[(1, 0)], m[(1, 1)], m[(1, 2)]],
        [m[(2, 0)], m[(2, 1)], m[(2, 2)]],
    ])
    .unwrap();
    let mut blurred = Mat::default();
    imgproc::gaussian_blur_def(canvas, &mut blurred, Size::new(5, 5), 1.2).unwrap();
    let mut out = Mat::default();
    imgproc::warp_perspective(
        &blurred,
        &mut out,
        &m,
        Size::new(1280, 720),
        imgproc::INTER_LINEAR,
        core::BORDER_CONSTANT,
        Scalar::new(110.0, 150.0, 185.0, 0.0),
    )
    .unwrap();
    out
}

fn with_board(mut canvas: Mat) -> Mat {
    let spec = BoardSpec::default();
    let board = aruco::draw_board(&spec, S, 0).unwrap();
    let mut bgr = Mat::default();
    imgproc::cvt_color_def(&board, &mut bgr, imgproc::COLOR_GRAY2BGR).unwrap();
    // Paper margin, then the board at the table origin.
    let o = canvas_px(PointMm::new(-8.0, -8.0));
    let paper = core::Rect::new(
        o.x / 16,
        o.y / 16,
        ((280.0 + 16.0) * S) as i32,
        ((200.0 + 16.0) * S) as i32,
    );
    imgproc::rectangle(&mut canvas, paper, Scalar::all(245.0), -1, imgproc::LINE_8, 0).unwrap();
    let at = canvas_px(PointMm::new(0.0, 0.0));
    let roi = core::Rect::new(at.x / 16, at.y / 16, bgr.cols(), bgr.rows());
    let mut dst = Mat::roi_mut(&mut canvas, roi).unwrap();
    bgr.copy_to(&mut dst).unwrap();
    canvas
}

/// The string as an ellipse around the board, 16 beads and the crab before them. Each is drawn
/// where `cam` would see it on the table plane (the cord's centre is 2 mm up, a bead's 5 mm, the
/// crab's 6 mm), so the flat warp shows them where raised things appear.
fn with_setup(mut canvas: Mat, sequence: &str, cam: &Camera) -> Mat {
    let centre = PointMm::new(140.0, 100.0);
    let (a, b) = (330.0, 230.0);
    let at = |t: f64| PointMm::new(centre.x + a * t.cos(), centre.y + b * t.sin());
    let seen = |p: PointMm, h: f64| cam.apparent_table_position(p, h).unwrap();
    let pts: core::Vector<Point> = (0..720)
        .map(|k| canvas_px(seen(at(std::f64::consts::TAU * k as f64 / 720.0), 2.0)))
        .collect();
    let mut polys: core::Vector<core::Vector<Point>> = core::Vector::new();
    polys.push(pts);
    imgproc::polylines(
        &mut canvas,
        &polys,
        true,
        Scalar::new(214.0, 111.0, 44.0, 0.0),
        (4.0 * S) as i32,
        imgproc::LINE_AA,
        4,
    )
    .unwrap();
    // Beads along the bottom of the ellipse (near the camera), 10.4 mm apart.
    let mut t = 1.2;
    let step = |t: f64| {
        let d = PointMm::new(-a * t.sin(), b * t.cos());
        d.norm()
    };
    let crab = at(t);
    imgproc::ellipse(
        &mut canvas,
        canvas_px(seen(crab, 6.0)),
        Size::new((13.0 * S * 16.0) as i32, (10.0 * S * 16.0) as i32),
        0.0,
        0.0,
        360.0,
        Scalar::new(45.0, 85.0, 226.0, 0.0),
        -1,
        imgproc::LINE_AA,
        4,
    )
    .unwrap();
    t += 16.0 / step(t);
    for c in sequence.chars() {
        t += 5.2 / step(t);
        let colour = if c == 'B' {
            Scalar::new(191.0, 79.0, 31.0, 0.0)
        } else {
            Scalar::new(21.0, 21.0, 21.0, 0.0)
        };
        imgproc::circle(
            &mut canvas,
            canvas_px(seen(at(t), 5.0)),
            (5.0 * S * 16.0) as i32,
            colour,
            -1,
            imgproc::LINE_AA,
            4,
        )
        .unwrap();
        t += 5.2 / step(t);
    }
    canvas
}

fn write(dir: &Path, name: &str, img: &Mat) -> PathBuf {
    let p = dir.join(name);
    imgcodecs::imwrite_def(p.to_str().unwrap(), img).unwrap();
    p
}

/// `octoref calibrate --json` in `dir` on a board capture and a set-up with `beads` threaded, both
/// from a camera tilted 12 degrees, writing the profile to `out` (relative to `dir`).
fn calibrate_board_and_setup(dir: &Path, beads: &str, out: &str) -> std::process::Output {
    let cam = camera(12.0);
    write(dir, "board.png", &view(&with_board(blank_canvas()), &cam));
    write(
        dir,
        "empty.png",
        &view(&with_setup(blank_canvas(), beads, &cam), &cam),
    );
    let out = octoref(
        &[
            "calibrate",
            "--board",
            "board.png",
            "--ocean",
            "empty.png",
            "--out",
            out,
            "--json",
        ],
        dir,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    out
}

#[test]
fn calibrate_writes_a_profile_and_honours_the_json_contract() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("calibration")).unwrap();
    let out = calibrate_board_and_setup(dir.path(), "BBBKBBBKBBKBBKKK", "calibration/table.json");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rms = v["reprojection_px"].as_f64().unwrap();
    assert!(rms < 0.5, "{rms}");
    let mmpp = v["mm_per_px"].as_f64().unwrap();
    assert!(mmpp > 0.8 && mmpp < 2.0, "{mmpp}");
    let poly = v["ocean"]["polygon_mm"].as_array().unwrap();
    assert!(poly.len() > 100 && poly[0].as_array().unwrap().len() == 2);
    // The ellipse's perimeter (Ramanujan) is about 1766 mm.
    let perimeter = v["ocean"]["perimeter_mm"].as_f64().unwrap();
    assert!((perimeter - 1766.0).abs() < 15.0, "{perimeter}");
    assert_eq!(v["counter"]["beads"], "BBBKBBBKBBKBBKKK");
    assert_eq!(v["counter"]["crab"], 0);

    let err = stderr(&out);
    for needle in [
        "reprojection error",
        "mm per pixel",
        "at the edges",
        "ocean:",
        "beads read",
        "--square-mm",
        "table_reference.png",
    ] {
        assert!(err.contains(needle), "summary lacks {needle:?}:\n{err}");
    }
    assert!(!err.contains("not the box's order"), "{err}");
    let profile = Profile::load(&dir.path().join("calibration/table.json")).unwrap();
    assert_eq!(profile.method, Method::Charuco);
    assert_eq!((profile.image_size.width, profile.image_size.height), (1280, 720));
    let reference = profile
        .reference_path(&dir.path().join("calibration/table.json"))
        .unwrap();
    let img = imgcodecs::imread_def(reference.to_str().unwrap()).unwrap();
    let grid = profile.reference.as_ref().unwrap().grid;
    assert_eq!((img.cols() as u32, img.rows() as u32), (grid.width, grid.height));
    // Nothing but the profile and its reference was written; no temporary files are left.
    let mut names: Vec<String> = std::fs::read_dir(dir.path().join("calibration"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["table.json", "table_reference.png"]);
}

#[test]
fn four_points_of_a_rectangle_calibrate_without_a_board() {
    let dir = tempfile::tempdir().unwrap();
    let cam = camera(15.0);
    write(dir.path(), "table.png", &view(&with_board(blank_canvas()), &cam));
    // The board's outer corners, as a user would click them.
    let corners = [(0.0, 0.0), (280.0, 0.0), (280.0, 200.0), (0.0, 200.0)];
    let pts: Vec<String> = corners
        .iter()
        .map(|&(x, y)| {
            let p = cam.project_table(PointMm::new(x, y)).unwrap();
            format!("{:.1},{:.1}", p.x, p.y)
        })
        .collect();
    let out = octoref(
        &[
            "calibrate",
            "--points",
            &pts.join(","),
            "--rect-mm",
            "280,200",
            "--image",
            "table.png",
            "--out",
            "p.json",
            "--json",
        ],
        dir.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["method"], "four_points");
    let profile = Profile::load(&dir.path().join("p.json")).unwrap();
    assert_eq!(profile.method, Method::FourPoints);
    let p = PointMm::new(200.0, 150.0);
    let back = profile.px_to_mm(cam.project_table(p).unwrap()).unwrap();
    assert!(back.distance(p) < 1.0, "{back:?}");
    assert!(stderr(&out).contains("lower accuracy"));
}

#[test]
fn beads_read_in_another_order_than_the_boxs_are_pointed_out() {
    let dir = tempfile::tempdir().unwrap();
    let threaded = "BBKKBKBBBKBBKBKK";
    let out = calibrate_board_and_setup(dir.path(), threaded, "t.json");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["counter"]["beads"], threaded);
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "the beads read, {threaded}, are not the box's order, BBBKBBBKBBKBBKKK"
        )),
        "{err}"
    );
}

#[test]
fn bad_input_exit_codes_and_messages() {
    let dir = tempfile::tempdir().unwrap();
    let cam = camera(20.0);
    write(dir.path(), "blank.png", &view(&blank_canvas(), &cam));
    // Only a corner of the board in view: a couple of markers, few corners.
    let mut far = camera(20.0);
    far.pose.tvec[0] -= 800.0;
    write(dir.path(), "edge.png", &view(&with_board(blank_canvas()), &far));
    std::fs::write(dir.path().join("empty.png"), b"").unwrap();
    std::fs::write(dir.path().join("text.png"), b"not an image").unwrap();

    let run = |args: &[&str]| octoref(args, dir.path());
    let o = run(&["calibrate", "--board", "blank.png", "--out", "x.json"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("no ChArUco board found (saw 0 markers)"),
        "{}",
        stderr(&o)
    );

    let o = run(&["calibrate", "--board", "edge.png", "--out", "x.json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("edge.png")
            && (e.contains("corners could be located") || e.contains("no ChArUco board found")),
        "{e}"
    );

    for (file, needle) in [
        ("empty.png", "empty"),
        ("text.png", "not a PNG, JPEG"),
        ("missing.png", "missing.png"),
    ] {
        let o = run(&["calibrate", "--board", file, "--out", "x.json"]);
        assert_eq!(o.status.code(), Some(2), "{file}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{file}: {}", stderr(&o));
    }
    let o = run(&[
        "calibrate",
        "--board",
        "blank.png",
        "--square-mm",
        "0",
        "--out",
        "x.json",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--square-mm"));
    let o = run(&[
        "calibrate",
        "--points",
        "1,2,3,4",
        "--rect-mm",
        "245,245",
        "--image",
        "blank.png",
        "--out",
        "x.json",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--points"));
    let o = run(&["calibrate", "--out", "x.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        !dir.path().join("x.json").exists(),
        "no profile is written on failure"
    );
}

#[test]
fn board_command_writes_png_and_pdf() {
    let dir = tempfile::tempdir().unwrap();
    let o = octoref(&["board", "--out", "b.png"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("100 %") && stderr(&o).contains("--square-mm"));
    let img = imgcodecs::imread_def(dir.path().join("b.png").to_str().unwrap()).unwrap();
    assert_eq!((img.cols(), img.rows()), (3508, 2480));
    let o = octoref(&["board", "--out", "b.pdf"], dir.path());
    assert!(o.status.success());
    assert!(
        std::fs::read(dir.path().join("b.pdf"))
            .unwrap()
            .starts_with(b"%PDF-")
    );
    let o = octoref(&["board", "--out", "b.jpg"], dir.path());
    assert_eq!(o.status.code(), Some(2));
    // The shipped copies are what the command writes.
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/board/octoref_board_a4.png");
    let a = imgcodecs::imread_def(shipped.to_str().unwrap()).unwrap();
    let mut diff = Mat::default();
    core::absdiff(&a, &img, &mut diff).unwrap();
    assert_eq!(core::count_non_zero(&diff.reshape(1, 0).unwrap()).unwrap(), 0);
}

// ---------------------------------------------------------------------------------------------
// Accuracy on synthetic scenes (the renderer in `octoref::synth`), 40 seeds, tilt 0-35 degrees.
// ---------------------------------------------------------------------------------------------

mod synthetic {
    use octoref::calibrate::board::BoardSpec;
    use octoref::calibrate::colour::WhiteBalance;
    use octoref::calibrate::counter::{self, DEFAULT_BEAD_COUNT};
    use octoref::calibrate::curve::ClosedCurve;
    use octoref::calibrate::profile::Profile;
    use octoref::calibrate::rectify::Rectifier;
    use octoref::calibrate::{charuco, setup};
    use octoref::synth::{self, Faults, Scene, SceneSpec};
    use octoref::table::{Camera, PointMm, PolygonMm};
    use opencv::core::Mat;

    pub const SEEDS: u64 = 40;
    /// Tilt of scene `k` of `n`: spread evenly over 0-35 degrees.
    pub fn tilt(k: u64, n: u64) -> f64 {
        35.0 * k as f64 / (n - 1).max(1) as f64
    }

    /// How well one scene was calibrated.
    #[derive(Debug, Clone)]
    pub struct Figures {
        pub seed: u64,
        pub tilt_deg: f64,
        pub k1: f64,
        pub reprojection_px: f64,
        /// Table-point error (mm) over the board area: mean and max.
        pub board_mean_mm: f64,
        pub board_max_mm: f64,
        /// Table-point error (mm) along the true ocean's edge: mean and max.
        pub edge_mean_mm: f64,
        pub edge_max_mm: f64,
        /// Mean distance (mm) from the found ocean line to the true string.
        pub ocean_mean_mm: f64,
        pub beads_ok: bool,
        pub crab_ok: bool,
        /// The crab read in a game frame (moved along the counter) by `locate_crab`.
        pub frame_crab_ok: bool,
    }

    /// Scene `seed` at `tilt_deg`. Every third scene lays another bead sequence (blue at the
    /// start, black at the finish, the middle from the seed) instead of the box's default.
    pub fn scene(seed: u64, tilt_deg: f64, distortion: Option<bool>) -> Scene {
        let mut spec = SceneSpec::new(seed, 4);
        spec.tilt_deg = Some(tilt_deg);
        spec.distortion = distortion;
        if seed % 3 == 1 {
            let middle: String = (0..14)
                .map(|i| {
                    if (seed.wrapping_mul(2654435761) >> (i + 3)) & 1 == 1 {
                        'K'
                    } else {
                        'B'
                    }
                })
                .collect();
            spec.beads = Some(format!("B{middle}K").parse().unwrap());
        }
        Scene::generate(&spec).unwrap()
    }

    /// Table-point errors (mean, max) of `profile` at `points` seen by the true camera.
    pub fn point_errors(profile: &Profile, truth: &Camera, points: &[PointMm]) -> (f64, f64) {
        let errs: Vec<f64> = points
            .iter()
            .filter_map(|&p| Some(profile.px_to_mm(truth.project_table(p)?)?.distance(p)))
            .collect();
        let mean = errs.iter().sum::<f64>() / errs.len().max(1) as f64;
        (mean, errs.iter().copied().fold(0.0, f64::max))
    }

    pub fn board_points() -> Vec<PointMm> {
        let mut v = Vec::new();
        for i in 0..=14 {
            for j in 0..=10 {
                v.push(PointMm::new(i as f64 * 20.0, j as f64 * 20.0));
            }
        }
        v
    }

    /// Extra views of the board by the same camera, moved so the board lands near the middle and
    /// the corners of the frame (what `--intrinsics` asks the user for).
    pub fn lens_views(scene: &Scene) -> Vec<(String, Mat)> {
        let k = scene.camera.intrinsics.clone();
        let centre = PointMm::new(140.0, 100.0);
        let mut out = Vec::new();
        for (i, (dx, dy, tilt, yaw)) in [
            (0.0, 0.0, 10.0, 0.0),
            (-160.0, -95.0, 25.0, 30.0),
            (160.0, -95.0, 25.0, 150.0),
            (-160.0, 95.0, 25.0, 210.0),
            (160.0, 95.0, 25.0, 330.0),
            (0.0, 120.0, 35.0, 90.0),
        ]
        .into_iter()
        .enumerate()
        {
            // Aim beside the board so it appears off-centre, from about 60 cm.
            let target = centre + PointMm::new(dx, dy);
            let Some(cam) = synth::camera_looking_at(k.clone(), target, 600.0, tilt, yaw) else {
                continue;
            };
            let mut s = scene.clone();
            s.camera = cam;
            if let Ok(img) = synth::render_board(&s) {
                out.push((format!("view{i}"), img));
            }
        }
        out
    }

    /// Calibrates one scene from its board and empty captures (and lens views when given), and
    /// measures it against the truth.
    pub fn measure(scene: &Scene, lens: &[(String, Mat)]) -> Figures {
        let spec = BoardSpec::default();
        let board = synth::render_board(scene).unwrap();
        let empty = synth::render_empty(scene).unwrap();
        let seed = scene.spec.seed;
        let cal = charuco::calibrate(&spec, &board, lens).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let mut profile = setup::profile_from_board(&cal, &spec);
        let reading = setup::add_setup(&mut profile, &empty, DEFAULT_BEAD_COUNT, "ref.png")
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let truth_cam = &scene.camera;
        let (board_mean_mm, board_max_mm) = point_errors(&profile, truth_cam, &board_points());
        let edge: Vec<PointMm> = scene.ocean().points().to_vec();
        let (edge_mean_mm, edge_max_mm) = point_errors(&profile, truth_cam, &edge);
        let true_line = ClosedCurve::from_polygon(scene.ocean()).unwrap();
        let found = &reading.ocean.polygon_mm;
        let ocean_mean_mm = found
            .points()
            .iter()
            .map(|&p| true_line.project(p).1)
            .sum::<f64>()
            / found.len() as f64;
        let empty_counter = scene.counter(0, 0).unwrap();
        let (beads_ok, crab_ok) = match &reading.counter {
            Ok(c) => (c.beads == scene.beads, c.crab == empty_counter.crab),
            Err(_) => (false, false),
        };
        let frame_crab_ok = frame_crab(scene, &profile);
        Figures {
            seed: scene.spec.seed,
            tilt_deg: scene.rig.tilt_deg,
            k1: truth_cam.intrinsics.distortion[0],
            reprojection_px: profile.reprojection_px,
            board_mean_mm,
            board_max_mm,
            edge_mean_mm,
            edge_max_mm,
            ocean_mean_mm,
            beads_ok,
            crab_ok,
            frame_crab_ok,
        }
    }

    /// Reads the crab in two of the scene's game frames (it has walked) with the profile.
    fn frame_crab(scene: &Scene, profile: &Profile) -> bool {
        [1usize, 3].iter().all(|&i| frame_crab_at(scene, profile, i))
    }

    fn frame_crab_at(scene: &Scene, profile: &Profile, index: usize) -> bool {
        let Ok(frame) = scene.frame(index, &Faults::default()) else {
            return false;
        };
        let Ok(img) = synth::render_frame(scene, &frame.layout, &frame.options) else {
            return false;
        };
        let (Some(layout), Some(ocean), Some(reference)) =
            (&profile.counter, &profile.ocean, &profile.reference)
        else {
            return false;
        };
        let Ok(r) = Rectifier::new(profile, reference.grid) else {
            return false;
        };
        let Ok(view) = r.rectify(&img) else {
            return false;
        };
        let Some(wb) =
            WhiteBalance::estimate_with_white(&view.image, Some(r.valid_mask()), profile.white_bgr)
        else {
            return false;
        };
        let polygon: &PolygonMm = &ocean.polygon_mm;
        counter::locate_crab(&view, polygon, profile, &wb, layout)
            .is_ok_and(|c| c.crab == frame.layout.counter.crab)
    }

    pub fn print(f: &[Figures]) {
        for x in f {
            println!(
                "seed {:2} tilt {:4.1} k1 {:+.3}: rms {:.3} px | board {:.2}/{:.2} mm | edge {:.2}/{:.2} mm | ocean {:.2} mm | beads {} crab {} frame crab {}",
                x.seed,
                x.tilt_deg,
                x.k1,
                x.reprojection_px,
                x.board_mean_mm,
                x.board_max_mm,
                x.edge_mean_mm,
                x.edge_max_mm,
                x.ocean_mean_mm,
                x.beads_ok,
                x.crab_ok,
                x.frame_crab_ok
            );
        }
    }
}

#[test]
fn synthetic_scenes_meet_the_calibration_bars() {
    use synthetic::*;
    let figures: Vec<Figures> = (0..SEEDS)
        .map(|k| measure(&scene(1000 + k, tilt(k, SEEDS), None), &[]))
        .collect();
    print(&figures);
    let n = figures.len() as f64;
    let share = |f: &dyn Fn(&Figures) -> bool| figures.iter().filter(|x| f(x)).count() as f64 / n;
    let worst = |f: &dyn Fn(&Figures) -> f64| figures.iter().map(f).fold(0.0, f64::max);
    let mean = |f: &dyn Fn(&Figures) -> f64| figures.iter().map(f).sum::<f64>() / n;
    println!(
        "worst rms {:.3} px; board max {:.2} mm; edge max {:.2} mm (undistorted {:.2}; worst scene mean {:.2}; mean {:.2}); ocean mean {:.2} mm (worst {:.2}); beads {:.0} %, crab {:.0} %, frame crab {:.0} %",
        worst(&|x| x.reprojection_px),
        worst(&|x| x.board_max_mm),
        worst(&|x| x.edge_max_mm),
        worst(&|x| if x.k1 == 0.0 { x.edge_max_mm } else { 0.0 }),
        worst(&|x| x.edge_mean_mm),
        mean(&|x| x.edge_mean_mm),
        mean(&|x| x.ocean_mean_mm),
        worst(&|x| x.ocean_mean_mm),
        100.0 * share(&|x| x.beads_ok),
        100.0 * share(&|x| x.crab_ok),
        100.0 * share(&|x| x.frame_crab_ok),
    );
    assert!(worst(&|x| x.reprojection_px) <= 0.5);
    assert!(worst(&|x| x.board_max_mm) <= 1.0);
    // At the ocean's edge: within 3 mm everywhere along the edge for undistorted lenses and in at
    // least 95 % of all scenes; on average along the edge within 3 mm in every scene. (A strongly
    // barrel lens seen through one board view can exceed 3 mm at the far edge; `--intrinsics`
    // is for that, see `lens_views_bring_distorted_scenes_within_3_mm`.)
    assert!(
        figures
            .iter()
            .filter(|x| x.k1 == 0.0)
            .all(|x| x.edge_max_mm <= 3.0)
    );
    assert!(share(&|x| x.edge_max_mm <= 3.0) >= 0.95);
    assert!(worst(&|x| x.edge_mean_mm) <= 3.0);
    assert!(worst(&|x| x.ocean_mean_mm) <= 3.0);
    assert!(share(&|x| x.beads_ok) >= 0.95);
    assert!(share(&|x| x.crab_ok && x.frame_crab_ok) >= 0.95);
}

#[test]
fn lens_views_bring_distorted_scenes_within_3_mm() {
    use synthetic::*;
    const N: u64 = 8;
    let mut pairs = Vec::new();
    for k in 0..N {
        let sc = scene(2000 + k, tilt(k, N), Some(true));
        let lens = lens_views(&sc);
        assert!(
            lens.len() >= 4,
            "seed {}: only {} lens views",
            2000 + k,
            lens.len()
        );
        let single = measure(&sc, &[]);
        let multi = measure(&sc, &lens);
        println!(
            "seed {} tilt {:4.1} k1 {:+.3}: edge {:.2}/{:.2} mm -> with {} lens views {:.2}/{:.2} mm; board max {:.2} -> {:.2} mm",
            single.seed,
            single.tilt_deg,
            single.k1,
            single.edge_mean_mm,
            single.edge_max_mm,
            lens.len(),
            multi.edge_mean_mm,
            multi.edge_max_mm,
            single.board_max_mm,
            multi.board_max_mm
        );
        pairs.push((single, multi));
    }
    let mean = |f: &dyn Fn(&(Figures, Figures)) -> f64| pairs.iter().map(f).sum::<f64>() / pairs.len() as f64;
    println!(
        "edge max mean over scenes: single view {:.2} mm, with lens views {:.2} mm",
        mean(&|p| p.0.edge_max_mm),
        mean(&|p| p.1.edge_max_mm)
    );
    assert!(
        pairs
            .iter()
            .all(|(_, m)| m.edge_max_mm <= 3.0 && m.board_max_mm <= 1.0 && m.reprojection_px <= 0.5)
    );
    assert!(mean(&|p| p.1.edge_max_mm) < mean(&|p| p.0.edge_max_mm));
}
