//! Temporary measurements (ignored tests).

use super::rectify::Rectification;
use super::solid::Solid;
use super::synthetic::prepare;
use super::view::{Pose2, Silhouette, Viewpoint};
use crate::synth::{Faults, Resolution, SceneSpec};
use crate::table::Catalog;
use opencv::core::{self, Mat, Point, Rect, Scalar, Vector};
use opencv::imgcodecs;
use opencv::imgproc;
use opencv::prelude::*;

fn spec(seed: u64, tilt: f64) -> SceneSpec {
    let mut s = SceneSpec::new(seed, 4);
    s.resolution = Some(Resolution::HD);
    s.tilt_deg = Some(tilt);
    s.distortion = Some(false);
    s
}

#[test]
#[ignore]
fn dump_overlay_and_colours() {
    let seed: u64 = std::env::var("SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let tilt: f64 = std::env::var("TILT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30.0);
    let sc = prepare(&spec(seed, tilt), 2, |_| Faults::none()).unwrap();
    let grid = sc.profile.reference.as_ref().unwrap().grid;
    let rect = Rectification::new(&sc.profile, grid).unwrap();
    let frame = &sc.frames[1];
    let fine = rect
        .fine_view(
            &frame.image,
            Rect::new(0, 0, grid.width as i32, grid.height as i32),
        )
        .unwrap();
    let view = Viewpoint::of(sc.profile.camera.as_ref().unwrap()).unwrap();
    let truth_view = Viewpoint::of(&sc.scene.camera).unwrap();
    println!("view {view:?} truth {truth_view:?}");
    let cat = Catalog::default_catalog();
    let mut overlay = fine.clone();
    let scene = &sc.scene;
    println!("light {:?} surface {:?}", scene.light, scene.surface);
    for p in &frame.truth.pieces {
        let entry_name = scene
            .pieces
            .iter()
            .find(|b| b.id == p.report.id)
            .map(|b| b.entry.clone())
            .unwrap();
        let e = cat.entry(&entry_name).unwrap();
        let solid = Solid::of(e);
        let pose = Pose2 {
            center_mm: p.report.center_mm,
            angle_rad: p.report.angle_deg.unwrap_or(0.0).to_radians(),
            base_mm: p.base_mm,
        };
        let sil = Silhouette::of(&solid, &pose, &view);
        for poly in &sil.polygons {
            let pts: Vector<Point> = poly
                .iter()
                .map(|&q| {
                    let px = grid.mm_to_px(q);
                    Point::new(px.x.round() as i32, px.y.round() as i32)
                })
                .collect();
            let mut v: Vector<Vector<Point>> = Vector::new();
            v.push(pts);
            imgproc::polylines(
                &mut overlay,
                &v,
                true,
                Scalar::new(0.0, 255.0, 0.0, 0.0),
                1,
                imgproc::LINE_8,
                0,
            )
            .unwrap();
        }
        // Footprint in red.
        let pts: Vector<Point> = p
            .report
            .footprint_mm
            .points()
            .iter()
            .map(|&q| {
                let px = grid.mm_to_px(q);
                Point::new(px.x.round() as i32, px.y.round() as i32)
            })
            .collect();
        let mut v: Vector<Vector<Point>> = Vector::new();
        v.push(pts);
        imgproc::polylines(
            &mut overlay,
            &v,
            true,
            Scalar::new(0.0, 0.0, 255.0, 0.0),
            1,
            imgproc::LINE_8,
            0,
        )
        .unwrap();
    }
    imgcodecs::imwrite_def("/tmp/vx_overlay.png", &overlay).unwrap();
    imgcodecs::imwrite_def("/tmp/vx_fine.png", &fine).unwrap();
    imgcodecs::imwrite_def("/tmp/vx_ref.png", &sc.reference).unwrap();
    let _ = core::CV_8UC3;
    let _: Mat = Mat::default();
}

fn fill(mask: &mut Mat, grid: &crate::calibrate::rectify::RectifyGrid, sil: &Silhouette, value: f64) {
    for poly in &sil.polygons {
        let pts: Vector<Point> = poly
            .iter()
            .map(|&q| {
                let px = grid.mm_to_px(q);
                Point::new(px.x.round() as i32, px.y.round() as i32)
            })
            .collect();
        imgproc::fill_convex_poly(mask, &pts, Scalar::all(value), imgproc::LINE_8, 0).unwrap();
    }
}

#[test]
#[ignore]
fn colour_stats() {
    let cat = Catalog::default_catalog();
    for seed in [3u64, 5, 8, 13, 21, 34] {
        let mut sp = spec(seed, (seed as f64 * 7.0) % 35.0);
        if seed % 2 == 0 {
            sp.modules.pink_pirate = true;
            sp.modules.island = true;
        }
        let sc = prepare(&sp, 2, |_| Faults::none()).unwrap();
        let grid = sc.profile.reference.as_ref().unwrap().grid;
        let rect = Rectification::new(&sc.profile, grid).unwrap();
        let frame = &sc.frames[1];
        let fine = rect
            .fine_view(
                &frame.image,
                Rect::new(0, 0, grid.width as i32, grid.height as i32),
            )
            .unwrap();
        let view = Viewpoint::of(sc.profile.camera.as_ref().unwrap()).unwrap();
        let scene = &sc.scene;
        println!(
            "seed {seed} surface {:?} {:?} light T {:.0} wb {:.2} key {:.2} amb {:.2} elev {:.0}",
            scene.surface.kind,
            scene.surface.base_srgb,
            scene.light.temperature_k,
            scene.light.white_balance,
            scene.light.key_intensity,
            scene.light.ambient_intensity,
            scene.light.elevation_deg
        );
        let sils: Vec<(String, Silhouette)> = frame
            .truth
            .pieces
            .iter()
            .map(|p| {
                let entry_name = scene
                    .pieces
                    .iter()
                    .find(|b| b.id == p.report.id)
                    .map(|b| b.entry.clone())
                    .unwrap();
                let e = cat.entry(&entry_name).unwrap();
                let pose = Pose2 {
                    center_mm: p.report.center_mm,
                    angle_rad: p.report.angle_deg.unwrap_or(0.0).to_radians(),
                    base_mm: p.base_mm,
                };
                (entry_name, Silhouette::of(&Solid::of(e), &pose, &view))
            })
            .collect();
        let mut rows: Vec<(String, [f64; 3], [f64; 3], usize)> = Vec::new();
        for (k, (name, sil)) in sils.iter().enumerate() {
            let mut mask = Mat::new_rows_cols_with_default(
                grid.height as i32,
                grid.width as i32,
                core::CV_8UC1,
                Scalar::all(0.0),
            )
            .unwrap();
            fill(&mut mask, &grid, sil, 255.0);
            for (j, (_, other)) in sils.iter().enumerate() {
                if j != k {
                    fill(&mut mask, &grid, other, 0.0);
                }
            }
            let mut px: Vec<[f64; 3]> = Vec::new();
            for y in 0..grid.height as i32 {
                let m = mask.at_row::<u8>(y).unwrap();
                let f = fine.at_row::<core::Vec3b>(y).unwrap();
                let r = sc.reference.at_row::<core::Vec3b>(y).unwrap();
                for x in 0..grid.width as usize {
                    if m[x] == 0 {
                        continue;
                    }
                    let d: f64 = (0..3).map(|c| (f[x][c] as f64 - r[x][c] as f64).abs()).sum();
                    if d > 40.0 {
                        px.push([f[x][0] as f64, f[x][1] as f64, f[x][2] as f64]);
                    }
                }
            }
            if px.len() < 20 {
                continue;
            }
            px.sort_by(|a, b| (a[0] + a[1] + a[2]).total_cmp(&(b[0] + b[1] + b[2])));
            let med = px[px.len() / 2];
            let hi = px[px.len() * 3 / 4];
            rows.push((name.clone(), med, hi, px.len()));
        }
        rows.sort_by(|a, b| a.0.cmp(&b.0));
        rows.dedup_by(|a, b| a.0 == b.0);
        for (name, med, hi, n) in rows {
            let e = cat.entry(&name).unwrap();
            let c = e.colour.0;
            println!(
                "  {name:16} cat rgb {:3} {:3} {:3}  med rgb {:3.0} {:3.0} {:3.0}  p75 rgb {:3.0} {:3.0} {:3.0}  n {n}",
                c[0], c[1], c[2], med[2], med[1], med[0], hi[2], hi[1], hi[0]
            );
        }
    }
}

fn ctx_for(truth_players: &[crate::games::crash_octopus::PlayerColor]) -> crate::referee::GameContext {
    crate::referee::GameContext::with_players(truth_players.to_vec())
}

#[test]
#[ignore]
fn run_scenes() {
    use super::analyzer::Analyzer;
    use super::evaluate::{Summary, score_frame, truth_report};
    use super::taught::TaughtModels;
    let seeds: Vec<u64> = std::env::var("SEEDS")
        .unwrap_or_else(|_| "3".into())
        .split(',')
        .filter_map(|s| s.parse().ok())
        .collect();
    let nframes: usize = std::env::var("FRAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2);
    let cat = Catalog::default_catalog();
    let mut summary = Summary::default();
    for seed in seeds {
        let mut sp = spec(seed, (seed as f64 * 7.3) % 35.0);
        if seed % 3 == 1 {
            sp.modules.pink_pirate = true;
        }
        if seed % 4 == 2 {
            sp.modules.island = true;
            sp.modules.little_octopus = true;
        }
        let sc = prepare(&sp, nframes, |_| Faults::none()).unwrap();
        let an = Analyzer::new(&sc.profile, &sc.reference, &cat, &TaughtModels::default()).unwrap();
        let ctx = ctx_for(&sc.scene.spec.player_colours());
        println!(
            "seed {seed} tilt {:.1} H {:.0} surface {:?}",
            sc.scene.rig.tilt_deg, sc.scene.rig.height_mm, sc.scene.surface.kind
        );
        for f in &sc.frames {
            let (rep, analysis) = an.report(&f.image, &f.truth.image, &ctx).unwrap();
            let truth_ruled = truth_report(&f.truth, &ctx).unwrap();
            let s = score_frame(&f.truth, &truth_ruled, &rep);
            let mut errs = s.errors_mm.clone();
            errs.sort_by(|a, b| b.1.total_cmp(&a.1));
            println!(
                "  {} pieces {} times {:.1} ms {:?}",
                f.truth.image,
                rep.pieces.len(),
                analysis.times.total_ms(),
                analysis.times
            );
            println!("    worst errors {:?}", &errs[..errs.len().min(6)]);
            for m in &s.misses {
                println!("    {} {} {} at {:?}", m.what, m.identity, m.id, m.center_mm);
            }
            for w in &s.wrong_calls {
                println!("    wrong call {w:?}");
            }
            println!(
                "    rulings {:?} obstructed {} moved {}",
                s.rulings, rep.obstructed, rep.view_moved
            );
            summary.add(&s);
        }
    }
    println!(
        "median {:.2} p95 {:.2}",
        summary.error_quantile(0.5),
        summary.error_quantile(0.95)
    );
    for (k, c) in &summary.kinds {
        println!("  {k:20} P {:.3} R {:.3} {:?}", c.precision(), c.recall(), c);
    }
    println!("{:?}", summary.rulings);
}

#[test]
#[ignore]
fn dump_debug() {
    use super::analyzer::Analyzer;
    use super::taught::TaughtModels;
    let seed: u64 = std::env::var("SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let frame_i: usize = std::env::var("FRAME")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut sp = spec(seed, (seed as f64 * 7.3) % 35.0);
    if seed % 3 == 1 {
        sp.modules.pink_pirate = true;
    }
    if seed % 4 == 2 {
        sp.modules.island = true;
        sp.modules.little_octopus = true;
    }
    let sc = prepare(&sp, frame_i + 1, |_| Faults::none()).unwrap();
    let cat = Catalog::default_catalog();
    let an = Analyzer::new(&sc.profile, &sc.reference, &cat, &TaughtModels::default()).unwrap();
    let f = &sc.frames[frame_i];
    let a = an.analyze(&f.image).unwrap();
    let mut img = an.debug_view(&f.image, &a).unwrap();
    let g = an.rectification().fine;
    for p in &f.truth.pieces {
        let c = g.mm_to_px(p.report.center_mm);
        imgproc::circle(
            &mut img,
            Point::new(c.x.round() as i32, c.y.round() as i32),
            2,
            Scalar::new(0.0, 255.0, 255.0, 0.0),
            -1,
            imgproc::LINE_8,
            0,
        )
        .unwrap();
        println!(
            "truth {} {:?} {:?} at {:?} base {}",
            p.report.id, p.report.piece, p.report.treasure, p.report.center_mm, p.base_mm
        );
    }
    for p in &a.pieces {
        println!(
            "found {} {:?} {:?} at {:?} conf {:.2}",
            p.id, p.piece, p.treasure, p.center_mm, p.confidence
        );
    }
    println!("grid origin {:?}", g.origin_mm);
    imgcodecs::imwrite_def("/tmp/vx_debug.png", &img).unwrap();
}
