//! Looks at the bench's scenes one by one: what vision missed or added, and why.
//!
//! `cargo run --release --example vision_probe -- SEED [SEED...]` renders the bench's scene for
//! each seed (as `octoref bench --seed 1` numbers them), analyses its frames, prints every miss,
//! extra and wrong closest call, and a crab read at the wrong bead, and writes
//! `/tmp/probe_<seed>_<frame>.png`: the fine top-down view with changed pixels tinted, detections (red footprints, ids) and true footprints (green).
//! `PROBE_DUMP=p26` also prints, on stderr, every piece, shadow and table pixel inside that missed piece's
//! true silhouette: its colour, the reference's, and the colours it matches best. `PROBE_LIST=1`
//! lists every piece found per frame; `PROBE_PIX=x,y,r` lists the best and compatible colours
//! of every piece pixel within `r` mm (a square) of table point `(x, y)`, to compare two builds;
//! `PROBE_MAP=x,y,r` prints the fine labels within `r` mm of `(x, y)` as a map, each piece or
//! shadow pixel as the letter of the colour it reads best as (capital for a piece), with a key;
//! `PROBE_LIGHT=1` prints the lightness quantiles of every visible piece's piece pixels.
//! `PROBE_MODELS=1` prints how each model is weighed on the scene's table.
//! `PROBE_ALL_PIECES=1` looks for every piece of the box, as vision does when not told who plays.
//! `PROBE_FIRST_SEED=101` looks at the scenes of `octoref bench --seed 101` (seeds 101-130).
//! `PROBE_POSE=4` lists the ships, pirate ships and anchors found at least 4 mm off or turned 20
//! degrees or more, with their gains at the true and the found pose as the pieces around them
//! (true, then found) explain their pixels; `PROBE_POSE_POLY=1` adds both footprints.
//! `PROBE_DC=1` fits each true ink die and Octo-Canon afresh as either model, `PROBE_GG=1` each
//! true gold bar and goblet (at its deck's height when loaded), as the count check would.
#![allow(clippy::print_stdout)] // a developer's tool: its output is the point

use octoref::games::crash_octopus::TreasureType;
use octoref::referee::GameContext;
use octoref::table::{Catalog, PieceKind, PointMm};
use octoref::vision::analyzer::Analyzer;
use octoref::vision::bench::{BenchConfig, scene_specs};
use octoref::vision::detect::{Detection, SeenBy, for_each_inside, refit_as};
use octoref::vision::evaluate::{score_frame, truth_report};
use octoref::vision::fit::Fit;
use octoref::vision::in_play::InPlay;
use octoref::vision::labels::Label;
use octoref::vision::synthetic::prepare;
use octoref::vision::taught::TaughtModels;
use octoref::vision::view::{Pose2, Silhouette};
use opencv::core::{Point, Scalar, Vector};
use opencv::imgcodecs;
use opencv::imgproc;
use opencv::prelude::*;

fn main() -> anyhow::Result<()> {
    let seeds: Vec<u64> = std::env::args().skip(1).filter_map(|s| s.parse().ok()).collect();
    // PROBE_FIRST_SEED=101: the scenes of `octoref bench --seed 101` (tilts spread the same way).
    let first_seed = std::env::var("PROBE_FIRST_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(BenchConfig::default().seed);
    let config = BenchConfig {
        scenes: 30,
        seed: first_seed,
        ..BenchConfig::default()
    };
    let mut specs = scene_specs(&config);
    // PROBE_SPEC=seed,players,tilt: a scene as the unit tests build it (no lens distortion).
    if let Some((seed, players, tilt)) = std::env::var("PROBE_SPEC").ok().and_then(|v| {
        let p: Vec<f64> = v.split(',').map(|x| x.parse().unwrap_or(f64::NAN)).collect();
        (p.len() == 3).then(|| (p[0] as u64, p[1] as u8, p[2]))
    }) {
        let mut spec = octoref::synth::SceneSpec::new(seed, players);
        spec.resolution = Some(octoref::synth::Resolution::HD);
        spec.tilt_deg = tilt.is_finite().then_some(tilt);
        spec.distortion = Some(false);
        specs = vec![spec];
    }
    let catalog = Catalog::default_catalog();
    for seed in seeds {
        let Some(spec) = specs.iter().find(|s| s.seed == seed) else {
            println!("seed {seed}: not among the bench's 30 scenes");
            continue;
        };
        let mut sc = prepare(spec, config.frames_per_scene, |_| octoref::synth::Faults::none())?;
        // PROBE_SCALE=960: frames resized to 960 wide, the calibration scaled as the live referee does.
        if let Some(w) = std::env::var("PROBE_SCALE")
            .ok()
            .and_then(|v| v.parse::<i32>().ok())
        {
            let h = w * 9 / 16;
            let cal = octoref::live::LiveCalibration {
                profile: sc.profile.clone(),
                reference: sc.reference.try_clone()?,
            };
            if let Some(scaled) = cal.scaled_to(w as u32, h as u32, 0.02) {
                sc.profile = scaled.profile;
            }
            for f in &mut sc.frames {
                let mut out = opencv::core::Mat::default();
                imgproc::resize(
                    &f.image,
                    &mut out,
                    opencv::core::Size::new(w, h),
                    0.0,
                    0.0,
                    imgproc::INTER_AREA,
                )?;
                f.image = out;
            }
        }
        let ctx = GameContext::with_players(spec.player_colours());
        // As the bench does: the game's pieces only (PROBE_ALL_PIECES=1: the whole box).
        let in_play = match std::env::var_os("PROBE_ALL_PIECES") {
            Some(_) => InPlay::everything(),
            None => octoref::vision::bench::scene_in_play(spec)?,
        };
        let an = Analyzer::new(&sc.profile, &sc.reference, &catalog, &TaughtModels::default())?
            .with_in_play(&in_play);
        println!(
            "== seed {seed} tilt {:.1} height {:.0} players {:?}",
            sc.scene.rig.tilt_deg,
            sc.scene.rig.height_mm,
            spec.player_colours()
        );
        let g = an.rectification().fine;
        println!("   fine grid origin {:?} mm/px {:.3}", g.origin_mm, g.mm_per_px);
        if std::env::var_os("PROBE_MODELS").is_some() {
            let mid = opencv::core::Rect::new(
                sc.reference.cols() / 4,
                sc.reference.rows() / 4,
                sc.reference.cols() / 2,
                sc.reference.rows() / 2,
            );
            let table = opencv::core::mean(
                &opencv::core::Mat::roi(&sc.reference, mid)?,
                &opencv::core::no_array(),
            )?;
            let table_sum = (table[0] + table[1] + table[2]) as f32;
            println!(
                "   table bgr [{:.0}, {:.0}, {:.0}] white sum {:?}: table lightness {:?} of white",
                table[0],
                table[1],
                table[2],
                an.palette().white_sum,
                an.palette().white_sum.map(|w| table_sum / w)
            );
            for m in an.models() {
                println!(
                    "   model {:<14} table_like {} by_top {} body_out {} shadow_like {} paler {} table_hue {} min_q {:.2} w_table {:.2} w_shadow {:.2} twin {:?}",
                    m.name,
                    m.table_like,
                    m.seen_by_top,
                    m.body_stands_out,
                    m.shadow_like,
                    m.paler_table,
                    m.table_hue,
                    m.min_quality,
                    m.table_weight,
                    m.shadow_weight,
                    m.lighter_twin
                );
            }
        }
        for (fi, f) in sc.frames.iter().enumerate() {
            let (report, analysis) = an.report(&f.image, &f.truth.image, &ctx)?;
            if std::env::var_os("PROBE_LIST").is_some() {
                for p in &report.pieces {
                    println!(
                        "  LIST {} {:?} {:?} {:?} ({:.1},{:.1}) conf {:.2}",
                        p.id, p.piece, p.treasure, p.color, p.center_mm.x, p.center_mm.y, p.confidence
                    );
                }
            }
            // `PROBE_POSE=4`: every ship, pirate ship and anchor whose nearest detection of its
            // kind and colour is at least that many mm off, or turned 20 degrees or more.
            if let Some(limit_mm) = std::env::var("PROBE_POSE")
                .ok()
                .and_then(|v| v.parse::<f64>().ok())
            {
                use octoref::table::PieceKind;
                let region = an.full_region(&f.image)?;
                for t in f.truth.pieces.iter().filter(|p| {
                    p.visible
                        && matches!(
                            p.report.piece,
                            PieceKind::Ship | PieceKind::PirateShip | PieceKind::Anchor
                        )
                }) {
                    let Some(d) =
                        nearest_found(&report.pieces, t.report.piece, t.report.color, t.report.center_mm)
                    else {
                        continue;
                    };
                    let off = d.center_mm.distance(t.report.center_mm);
                    let turn = match (d.angle_deg, t.report.angle_deg) {
                        (Some(a), Some(b)) => ((a - b).rem_euclid(360.0) + 180.0).rem_euclid(360.0) - 180.0,
                        _ => 0.0,
                    };
                    if off >= limit_mm || turn.abs() >= 20.0 {
                        println!(
                            "  POSE frame {fi} {} {:?} {:?} truth ({:.1},{:.1}) {:?} | {} ({:.1},{:.1}) {:?} off {:.1} mm turn {:.0}",
                            t.report.id,
                            t.report.piece,
                            t.report.color,
                            t.report.center_mm.x,
                            t.report.center_mm.y,
                            t.report.angle_deg,
                            d.id,
                            d.center_mm.x,
                            d.center_mm.y,
                            d.angle_deg,
                            off,
                            turn
                        );
                        // Gains at the true pose and the found one, every other true piece
                        // explained (as when the region's other pieces are found right).
                        let model_of = |id: &str| {
                            let entry = &sc.scene.pieces.iter().find(|b| b.id == id)?.entry;
                            an.models().iter().find(|md| md.name == *entry)
                        };
                        let others: Vec<_> = f
                            .truth
                            .pieces
                            .iter()
                            .filter(|o| o.visible && o.report.id != t.report.id)
                            .filter_map(|o| {
                                Some((
                                    model_of(&o.report.id)?,
                                    Pose2 {
                                        center_mm: o.report.center_mm,
                                        angle_rad: o.report.angle_deg.unwrap_or(0.0).to_radians(),
                                        base_mm: o.base_mm,
                                    },
                                ))
                            })
                            .collect();
                        if let Some(m) = model_of(&t.report.id) {
                            let gain = |c: octoref::table::PointMm, a: Option<f64>, b: f64| {
                                let pose = Pose2 {
                                    center_mm: c,
                                    angle_rad: a.unwrap_or(0.0).to_radians(),
                                    base_mm: b,
                                };
                                octoref::vision::detect::fit_at(&region, m, an.viewpoint(), pose, &others)
                                    .map_or((0.0, 0.0), |f| (f.gain, f.quality()))
                            };
                            let tg = gain(t.report.center_mm, t.report.angle_deg, t.base_mm);
                            let fg = gain(d.center_mm, d.angle_deg, t.base_mm);
                            println!(
                                "     others explained: truth {:.0}/{:.2} found {:.0}/{:.2}",
                                tg.0, tg.1, fg.0, fg.1
                            );
                            // The same with the pieces found explaining their pixels instead.
                            // The pieces found but `skip`, each as its model at its found pose.
                            let found_except =
                                |skip: &[&str]| found_poses(&an, &report, &analysis.base_mm, skip);
                            let found_others = found_except(&[d.id.as_str()]);
                            let gain2 = |c: octoref::table::PointMm, a: Option<f64>| {
                                let pose = Pose2 {
                                    center_mm: c,
                                    angle_rad: a.unwrap_or(0.0).to_radians(),
                                    base_mm: t.base_mm,
                                };
                                octoref::vision::detect::fit_at(
                                    &region,
                                    m,
                                    an.viewpoint(),
                                    pose,
                                    &found_others,
                                )
                                .map_or((0.0, 0.0), |f| (f.gain, f.quality()))
                            };
                            let (tg, fg) = (
                                gain2(t.report.center_mm, t.report.angle_deg),
                                gain2(d.center_mm, d.angle_deg),
                            );
                            println!(
                                "     found explained: truth {:.0}/{:.2} found {:.0}/{:.2}",
                                tg.0, tg.1, fg.0, fg.1
                            );
                            // A ship and its anchor as a pair, the other pieces found explained.
                            let anchor_t = f.truth.pieces.iter().find(|o| {
                                o.visible
                                    && o.report.piece == PieceKind::Anchor
                                    && o.report.color == t.report.color
                            });
                            let anchor_d =
                                nearest_found(&report.pieces, PieceKind::Anchor, t.report.color, d.center_mm);
                            if t.report.piece == PieceKind::Ship
                                && let (Some(at), Some(ad)) = (anchor_t, anchor_d)
                                && let Some(ma) = model_of(&at.report.id)
                            {
                                let rest = found_except(&[d.id.as_str(), ad.id.as_str()]);
                                let p2 = |c: octoref::table::PointMm, a: Option<f64>| Pose2 {
                                    center_mm: c,
                                    angle_rad: a.unwrap_or(0.0).to_radians(),
                                    base_mm: 0.0,
                                };
                                let pair = |s: Pose2, a: Pose2| {
                                    let mut with_a = rest.clone();
                                    with_a.push((ma, a));
                                    let mut with_s = rest.clone();
                                    with_s.push((m, s));
                                    let gs = octoref::vision::detect::fit_at(
                                        &region,
                                        m,
                                        an.viewpoint(),
                                        s,
                                        &with_a,
                                    )
                                    .map_or(0.0, |f| f.gain);
                                    let ga = octoref::vision::detect::fit_at(
                                        &region,
                                        ma,
                                        an.viewpoint(),
                                        a,
                                        &with_s,
                                    )
                                    .map_or(0.0, |f| f.gain);
                                    (gs, ga)
                                };
                                let tp = pair(
                                    p2(t.report.center_mm, t.report.angle_deg),
                                    p2(at.report.center_mm, at.report.angle_deg),
                                );
                                let fp = pair(p2(d.center_mm, d.angle_deg), p2(ad.center_mm, ad.angle_deg));
                                println!(
                                    "     pair, found explained: truth {:.0}+{:.0}={:.0} found {:.0}+{:.0}={:.0}",
                                    tp.0,
                                    tp.1,
                                    tp.0 + tp.1,
                                    fp.0,
                                    fp.1,
                                    fp.0 + fp.1
                                );
                            }
                        }
                        if std::env::var_os("PROBE_POSE_POLY").is_some() {
                            let pts = |poly: &octoref::table::PolygonMm| {
                                poly.points()
                                    .iter()
                                    .map(|p| format!("({:.0},{:.0})", p.x, p.y))
                                    .collect::<Vec<_>>()
                                    .join(" ")
                            };
                            println!("     truth footprint {}", pts(&t.report.footprint_mm));
                            println!("     found footprint {}", pts(&d.footprint_mm));
                        }
                    }
                }
            }
            let truth = truth_report(&f.truth, &ctx)?;
            let score = score_frame(&f.truth, &truth, &report);
            println!(
                "-- frame {fi}: {:.0} ms obstructed {} view_moved {}",
                analysis.times.total_ms(),
                analysis.obstructed,
                analysis.view_moved
            );
            let region = an.full_region(&f.image)?;
            let balance = an.balance_of(&f.image)?;
            // Every visible true piece's model, base height and silhouette.
            let true_silhouettes: Vec<_> = f
                .truth
                .pieces
                .iter()
                .filter(|p| p.visible)
                .filter_map(|t| {
                    let entry = &sc.scene.pieces.iter().find(|b| b.id == t.report.id)?.entry;
                    let model = an.models().iter().find(|md| md.name == *entry)?;
                    let pose = Pose2 {
                        center_mm: t.report.center_mm,
                        angle_rad: t.report.angle_deg.unwrap_or(0.0).to_radians(),
                        base_mm: t.base_mm,
                    };
                    Some((
                        model,
                        t.base_mm,
                        Silhouette::of(&model.solid, &pose, an.viewpoint()),
                    ))
                })
                .collect();
            if std::env::var_os("PROBE_LIGHT").is_some() {
                for (model, base_mm, sil) in &true_silhouettes {
                    let mut ls = Vec::new();
                    for_each_inside(&region, &sil.polygons, |p| {
                        if region.labels[p] == Label::Piece
                            && let Some(l) = region.lightness(p)
                        {
                            ls.push(l);
                        }
                    });
                    if ls.len() < 20 {
                        continue;
                    }
                    ls.sort_by(f32::total_cmp);
                    println!(
                        "  LIGHT {} {} p50 {:.3} p75 {:.3} p90 {:.3} n {}",
                        model.name,
                        if *base_mm > 0.0 { "deck" } else { "table" },
                        ls[ls.len() / 2],
                        ls[ls.len() * 3 / 4],
                        ls[ls.len() * 9 / 10],
                        ls.len()
                    );
                }
            }
            if let Some((px, py, pr)) = std::env::var("PROBE_PIX").ok().and_then(|v| {
                let n: Vec<f64> = v.split(',').filter_map(|x| x.parse().ok()).collect();
                (n.len() == 3).then(|| (n[0], n[1], n[2]))
            }) {
                let w = region.width;
                for p in 0..region.len() {
                    let (x, y) = (
                        region.origin_mm.x + (p % w) as f64 * region.mm_per_px,
                        region.origin_mm.y + (p / w) as f64 * region.mm_per_px,
                    );
                    if (x - px).abs() > pr || (y - py).abs() > pr || region.labels[p] != Label::Piece {
                        continue;
                    }
                    let c = region.colours[p];
                    let names = |m: u32| -> Vec<&str> {
                        an.palette()
                            .names
                            .iter()
                            .enumerate()
                            .filter(|(b, _)| m & (1 << b) != 0)
                            .map(|(_, n)| n.as_str())
                            .collect()
                    };
                    println!(
                        "  PIX f{fi} {x:.0},{y:.0} best {:?} compat {:?}",
                        names(c.best),
                        names(c.compatible)
                    );
                }
            }
            if let Some((px, py, pr)) = std::env::var("PROBE_MAP").ok().and_then(|v| {
                let n: Vec<f64> = v.split(',').filter_map(|x| x.parse().ok()).collect();
                (n.len() == 3).then(|| (n[0], n[1], n[2]))
            }) {
                print_label_map(&region, &an.palette().names, fi, PointMm::new(px, py), pr);
            }
            // The key light's azimuth is towards the light; shadows fall the other way.
            let fall_deg = balance.shadow_fall.map(|s| s.dir[1].atan2(s.dir[0]).to_degrees());
            println!(
                "   gains {:?} tint {:?} shadows fall {:?} deg (truth {:.0})",
                analysis.balance_gains,
                balance.shadow_tint,
                fall_deg,
                (sc.scene.light.azimuth_deg + 180.0).rem_euclid(360.0)
            );
            {
                // True shadow pixels: outside every true silhouette, clearly darker.
                let mut inside = vec![false; region.len()];
                let mut dark_kind = vec![false; region.len()];
                for (model, _, sil) in &true_silhouettes {
                    let dark = matches!(model.name.as_str(), "chest" | "octo_canon");
                    for_each_inside(&region, &sil.polygons, |p| {
                        inside[p] = true;
                        if dark {
                            dark_kind[p] = true;
                        }
                    });
                }
                let w = region.width;
                let ref_px = |p: usize| -> Option<[f32; 3]> {
                    let r = sc
                        .reference
                        .at_2d::<opencv::core::Vec3b>((p / w) as i32, (p % w) as i32)
                        .ok()?;
                    Some([r[0] as f32, r[1] as f32, r[2] as f32])
                };
                if std::env::var_os("PROBE_X").is_some() {
                    let tint = an.balance_of(&f.image)?.shadow_tint.unwrap_or([1.0; 3]);
                    let mut xs: [Vec<f32>; 2] = Default::default();
                    for p in 0..region.len() {
                        if region.labels[p] != Label::Shadow || (inside[p] && !dark_kind[p]) {
                            continue;
                        }
                        let Some(rp) = ref_px(p) else {
                            continue;
                        };
                        if let Some(x) = octoref::vision::labels::shadow_warmth(region.bgr[p], rp, Some(tint))
                        {
                            xs[dark_kind[p] as usize].push(x);
                        }
                    }
                    for (k, name) in ["shadow", "dark piece"].iter().enumerate() {
                        let v = &mut xs[k];
                        v.sort_by(f32::total_cmp);
                        if v.is_empty() {
                            continue;
                        }
                        let q = |x: f64| v[((v.len() - 1) as f64 * x) as usize];
                        let mean = v.iter().sum::<f32>() / v.len() as f32;
                        println!(
                            "   X {name:10} n {:6} mean {:.3} p05 {:.3} p25 {:.3} p50 {:.3} p75 {:.3} p95 {:.3}",
                            v.len(),
                            mean,
                            q(0.05),
                            q(0.25),
                            q(0.5),
                            q(0.75),
                            q(0.95)
                        );
                    }
                }
                let tint = an.balance_of(&f.image)?.shadow_tint.unwrap_or([1.0; 3]);
                // (off, w) per class: 0 table outside, 1 shadow outside, 2 inside silhouettes and dark
                let mut mets: [Vec<(f32, f32)>; 3] = Default::default();
                let mut rat: [Vec<f32>; 3] = Default::default();
                let mut labels_out = [0usize; 4];
                let mut svals: Vec<f32> = Vec::new();
                for p in 0..region.len() {
                    if inside[p] || region.labels[p] == Label::Outside {
                        continue;
                    }
                    labels_out[region.labels[p] as usize] += 1;
                    let Some(rp) = ref_px(p) else {
                        continue;
                    };
                    let fp = region.bgr[p];
                    let s = (0..3).map(|c| fp[c] * rp[c]).sum::<f32>()
                        / (0..3).map(|c| rp[c] * rp[c]).sum::<f32>();
                    if let Some(m) = octoref::vision::labels::tint_metrics(fp, rp, tint) {
                        let k = if m.s < 0.88 { 1 } else { 0 };
                        mets[k].push((m.off / m.level.max(1.0), m.w / m.level.max(1.0)));
                    }
                    if s < 0.88 && s > 0.3 {
                        svals.push(s);
                    }
                    if (0.4..0.8).contains(&s) {
                        for c in 0..3 {
                            rat[c].push(fp[c] / (s * rp[c]));
                        }
                    }
                }
                for (p, _) in inside.iter().enumerate().filter(|(_, i)| **i) {
                    let Some(rp) = ref_px(p) else {
                        continue;
                    };
                    if let Some(m) = octoref::vision::labels::tint_metrics(region.bgr[p], rp, tint)
                        && m.s < 0.88
                        && m.s > 0.4
                    {
                        mets[2].push((m.off / m.level.max(1.0), m.w / m.level.max(1.0)));
                    }
                }
                for (k, name) in ["table", "shadow", "inside-dark"].iter().enumerate() {
                    let v = &mut mets[k];
                    let mut offs: Vec<f32> = v.iter().map(|x| x.0).collect();
                    let mut ws: Vec<f32> = v.iter().map(|x| x.1).collect();
                    offs.sort_by(f32::total_cmp);
                    ws.sort_by(f32::total_cmp);
                    let q = |a: &Vec<f32>, x: f64| {
                        if a.is_empty() {
                            0.0
                        } else {
                            a[((a.len() - 1) as f64 * x) as usize]
                        }
                    };
                    println!(
                        "   {name:12} n {:7} off p50 {:.3} p99 {:.3} p999 {:.3} | w p001 {:.3} p01 {:.3} p50 {:.3} p99 {:.3}",
                        v.len(),
                        q(&offs, 0.5),
                        q(&offs, 0.99),
                        q(&offs, 0.999),
                        q(&ws, 0.001),
                        q(&ws, 0.01),
                        q(&ws, 0.5),
                        q(&ws, 0.99)
                    );
                }
                let med: Vec<f32> = rat
                    .iter_mut()
                    .map(|v| {
                        if v.is_empty() {
                            return 0.0;
                        }
                        v.sort_by(f32::total_cmp);
                        v[v.len() / 2]
                    })
                    .collect();
                svals.sort_by(f32::total_cmp);
                if !svals.is_empty() {
                    let q = |x: f64| svals[((svals.len() - 1) as f64 * x) as usize];
                    println!(
                        "   shadow s p001 {:.3} p01 {:.3} p05 {:.3} p25 {:.3} p50 {:.3}",
                        q(0.001),
                        q(0.01),
                        q(0.05),
                        q(0.25),
                        q(0.5)
                    );
                }
                println!(
                    "   true shadows: {} px, tint {:.3?}; outside-silhouette labels table/shadow/piece {:?}",
                    rat[0].len(),
                    med,
                    &labels_out[..3]
                );
            }
            if std::env::var_os("PROBE_SHIPS").is_some() {
                for t in f.truth.pieces.iter().filter(|p| {
                    matches!(
                        p.report.piece,
                        octoref::table::PieceKind::Ship | octoref::table::PieceKind::Anchor
                    )
                }) {
                    let d = nearest_found(&report.pieces, t.report.piece, t.report.color, t.report.center_mm);
                    println!(
                        "   truth {:?} {:?} at ({:.1},{:.1}) angle {:?} | det {:?}",
                        t.report.piece,
                        t.report.color,
                        t.report.center_mm.x,
                        t.report.center_mm.y,
                        t.report.angle_deg,
                        d.map(|d| (d.center_mm.x, d.center_mm.y, d.angle_deg))
                    );
                }
                // Ship and anchor of each colour: the pair's gains at the true poses and at the
                // found ones, each piece weighed with the other's pixels explained.
                let model_of = |id: &str| {
                    let entry = sc.scene.pieces.iter().find(|b| b.id == id)?.entry.clone();
                    an.models().iter().find(|md| md.name == entry)
                };
                let pose_of = |c: octoref::table::PointMm, a: Option<f64>, b: f64| Pose2 {
                    center_mm: c,
                    angle_rad: a.unwrap_or(0.0).to_radians(),
                    base_mm: b,
                };
                for ts in f
                    .truth
                    .pieces
                    .iter()
                    .filter(|p| p.report.piece == PieceKind::Ship)
                {
                    let Some(ta) =
                        f.truth.pieces.iter().find(|p| {
                            p.report.piece == PieceKind::Anchor && p.report.color == ts.report.color
                        })
                    else {
                        continue;
                    };
                    let (Some(ms), Some(ma)) = (model_of(&ts.report.id), model_of(&ta.report.id)) else {
                        continue;
                    };
                    let near = |kind: PieceKind, c: octoref::table::PointMm| {
                        nearest_found(&report.pieces, kind, ts.report.color, c)
                    };
                    let (Some(ds), Some(da)) = (
                        near(PieceKind::Ship, ts.report.center_mm),
                        near(PieceKind::Anchor, ta.report.center_mm),
                    ) else {
                        continue;
                    };
                    let pair = |s: Pose2, a: Pose2| {
                        let fs = octoref::vision::detect::fit_at(&region, ms, an.viewpoint(), s, &[(ma, a)]);
                        let fa = octoref::vision::detect::fit_at(&region, ma, an.viewpoint(), a, &[(ms, s)]);
                        let g = |f: &Option<octoref::vision::fit::Fit>| {
                            f.as_ref().map_or((0.0, 0.0), |f| (f.gain, f.quality()))
                        };
                        (g(&fs), g(&fa))
                    };
                    let truth_pair = pair(
                        pose_of(ts.report.center_mm, ts.report.angle_deg, ts.base_mm),
                        pose_of(ta.report.center_mm, ta.report.angle_deg, ta.base_mm),
                    );
                    let found_pair = pair(
                        pose_of(ds.center_mm, ds.angle_deg, 0.0),
                        pose_of(da.center_mm, da.angle_deg, 0.0),
                    );
                    println!(
                        "   pair {:?}: truth ship {:.0}/{:.2} anchor {:.0}/{:.2} = {:.0} | found ship {:.0}/{:.2} anchor {:.0}/{:.2} = {:.0} (ship off {:.1} mm)",
                        ts.report.color,
                        truth_pair.0.0,
                        truth_pair.0.1,
                        truth_pair.1.0,
                        truth_pair.1.1,
                        truth_pair.0.0 + truth_pair.1.0,
                        found_pair.0.0,
                        found_pair.0.1,
                        found_pair.1.0,
                        found_pair.1.1,
                        found_pair.0.0 + found_pair.1.0,
                        ds.center_mm.distance(ts.report.center_mm)
                    );
                }
            }
            for t in f
                .truth
                .pieces
                .iter()
                .filter(|p| p.report.piece == octoref::table::PieceKind::InkDie)
            {
                let d = report
                    .pieces
                    .iter()
                    .find(|d| d.piece == t.report.piece && d.center_mm.distance(t.report.center_mm) < 20.0);
                if let Some(d) = d
                    && d.top != t.report.top
                {
                    println!(
                        "  die top wrong: truth {:?} read {:?} at ({:.1},{:.1})",
                        t.report.top, d.top, t.report.center_mm.x, t.report.center_mm.y
                    );
                }
            }
            // `PROBE_DC=1`: each true ink die and Octo-Canon fitted afresh at its place as either
            // model ([`refit_as`], as the count check does; "none" where it fits too poorly), and
            // as the die seen by its black alone. `PROBE_GG=1`: each true gold bar and goblet
            // as either, standing where it stands (a deck's height for a load).
            let dc = std::env::var("PROBE_DC").is_ok();
            let gg = std::env::var("PROBE_GG").is_ok();
            for t in f.truth.pieces.iter() {
                let (tag, base_mm, names): (&str, f64, &[&str]) = match (t.report.piece, t.report.treasure) {
                    (PieceKind::InkDie | PieceKind::OctoCanon, _) if dc => {
                        ("DC", 0.0, &["ink_die", "ink_die/black", "octo_canon"])
                    }
                    (_, Some(TreasureType::Gold | TreasureType::Goblet)) if gg => {
                        ("GG", t.base_mm, &["gold", "goblet"])
                    }
                    _ => continue,
                };
                let c = t.report.center_mm;
                let fits: Vec<String> = names
                    .iter()
                    .map(|n| format!("{n} {}", refit_text(&an, &region, n, c, base_mm)))
                    .collect();
                let read = report
                    .pieces
                    .iter()
                    .filter(|d| d.center_mm.distance(c) < 8.0)
                    .map(|d| format!("{:?}/{:?}", d.piece, d.treasure))
                    .collect::<Vec<_>>()
                    .join(",");
                println!(
                    "  {tag} truth {:?}/{:?} at ({:.1},{:.1}) base {:.0}: {} | read [{}]",
                    t.report.piece,
                    t.report.treasure,
                    c.x,
                    c.y,
                    base_mm,
                    fits.join(" | "),
                    read
                );
            }
            for m in &score.misses {
                let mut why = String::new();
                if m.what == "missed"
                    && let Some(t) = f.truth.pieces.iter().find(|p| p.report.id == m.id)
                    && let Some(entry) = sc
                        .scene
                        .pieces
                        .iter()
                        .find(|b| b.id == m.id)
                        .map(|b| b.entry.clone())
                    && let Some(model) = an.models().iter().find(|md| md.name == entry)
                {
                    let pose = Pose2 {
                        center_mm: t.report.center_mm,
                        angle_rad: t.report.angle_deg.unwrap_or(0.0).to_radians(),
                        base_mm: t.base_mm,
                    };
                    let sil = Silhouette::of(&model.solid, &pose, an.viewpoint());
                    let (mut n, mut piece, mut shadow, mut compat, mut best) = (0, 0, 0, 0, 0);
                    let mut best_names: std::collections::BTreeMap<String, usize> = Default::default();
                    let mut sf = [0.0f32; 3];
                    let mut sr = [0.0f32; 3];
                    let mut sil_c = [0.0f64; 4];
                    let w = region.width;
                    let reference_at = |p: usize| {
                        sc.reference
                            .at_2d::<opencv::core::Vec3b>((p / w) as i32, (p % w) as i32)
                            .map(|r| [r[0], r[1], r[2]])
                            .unwrap_or_default()
                    };
                    // PROBE_DUMP's line for pixel `p` of the missed piece's silhouette.
                    let dump = |p: usize, what: String| {
                        if std::env::var("PROBE_DUMP").is_ok_and(|v| v == m.id) {
                            eprintln!(
                                "DUMP {} {} bgr {:?} {what}",
                                p % w,
                                p / w,
                                region.bgr[p].map(|v| v as i32)
                            );
                        }
                    };
                    for_each_inside(&region, &sil.polygons, |p| {
                        if region.labels[p] == Label::Shadow
                            && let Ok(r) = sc
                                .reference
                                .at_2d::<opencv::core::Vec3b>((p / w) as i32, (p % w) as i32)
                        {
                            for c in 0..3 {
                                sf[c] += region.bgr[p][c];
                                sr[c] += r[c] as f32;
                            }
                        }
                        n += 1;
                        let (px, py) = ((p % w) as f64, (p / w) as f64);
                        sil_c[0] += px;
                        sil_c[1] += py;
                        if region.labels[p] == Label::Piece {
                            sil_c[2] += px;
                            sil_c[3] += py;
                        }
                        match region.labels[p] {
                            Label::Piece => {
                                piece += 1;
                                let c = region.colours[p];
                                if model.colours.contains_any(c.compatible) {
                                    compat += 1;
                                }
                                if model.colours.contains_any(c.best) {
                                    best += 1;
                                }
                                for (bit, name) in an.palette().names.iter().enumerate() {
                                    if c.best & (1 << bit) != 0 {
                                        *best_names.entry(name.clone()).or_insert(0) += 1;
                                    }
                                }
                                if std::env::var("PROBE_DUMP").is_ok_and(|v| v == m.id) {
                                    let names: Vec<&str> = an
                                        .palette()
                                        .names
                                        .iter()
                                        .enumerate()
                                        .filter(|(b, _)| c.best & (1 << b) != 0)
                                        .map(|(_, n)| n.as_str())
                                        .collect();
                                    dump(p, format!("ref {:?} best {names:?}", reference_at(p)));
                                }
                            }
                            Label::Shadow => {
                                shadow += 1;
                                dump(p, format!("ref {:?} shadow", reference_at(p)));
                            }
                            Label::Table => dump(p, format!("ref {:?} table", reference_at(p))),
                            _ => {}
                        }
                    });
                    let k = shadow.max(1) as f32;
                    let nn = (n.max(1)) as f64;
                    let pp = (piece.max(1)) as f64;
                    let sil_at = format!(
                        "sil centre px ({:.1},{:.1}) piece centre ({:.1},{:.1}) ",
                        sil_c[0] / nn,
                        sil_c[1] / nn,
                        sil_c[2] / pp,
                        sil_c[3] / pp
                    );
                    let at_truth = octoref::vision::detect::fit_at(&region, model, an.viewpoint(), pose, &[])
                        .map_or("no fit at the true pose ".to_string(), |f| {
                            format!(
                                "fit at truth gain {:.0} area {:.0} quality {:.2}; ",
                                f.gain,
                                f.area_px,
                                f.quality()
                            )
                        });
                    // The same with every piece found explaining its pixels (as the region's
                    // other pieces stand when the detector looks for this one).
                    let found = found_poses(&an, &report, &analysis.base_mm, &[]);
                    let at_truth_found =
                        octoref::vision::detect::fit_at(&region, model, an.viewpoint(), pose, &found).map_or(
                            "no fit ".to_string(),
                            |f| {
                                format!(
                                    "found explained gain {:.0} area {:.0} quality {:.2}; ",
                                    f.gain,
                                    f.area_px,
                                    f.quality()
                                )
                            },
                        );
                    let mut covered = vec![false; region.len()];
                    for (om, op) in &found {
                        let osil = Silhouette::of(&om.solid, op, an.viewpoint());
                        for_each_inside(&region, &osil.polygons, |p| covered[p] = true);
                    }
                    let mut held_n = 0usize;
                    for_each_inside(&region, &sil.polygons, |p| held_n += usize::from(covered[p]));
                    why = sil_at
                        + &at_truth
                        + &at_truth_found
                        + &format!("held {held_n} px; ")
                        + &format!(
                            "sil {n} px: piece {piece} shadow {shadow} compatible {compat} best {best}; shadow px bgr {:.0?} ref {:.0?} best colours {:?}",
                            sf.map(|v| v / k),
                            sr.map(|v| v / k),
                            {
                                let mut v: Vec<_> = best_names.into_iter().collect();
                                v.sort_by_key(|e| std::cmp::Reverse(e.1));
                                v.truncate(4);
                                v
                            }
                        );
                }
                let c = octoref::table::PointMm::new(m.center_mm[0], m.center_mm[1]);
                let near: Vec<String> = if m.what == "missed" {
                    report
                        .pieces
                        .iter()
                        .filter(|d| d.center_mm.distance(c) < 40.0)
                        .map(|d| {
                            format!(
                                "{}:{:?}/{:?}@{:.0}",
                                d.id,
                                d.piece,
                                d.treasure,
                                d.center_mm.distance(c)
                            )
                        })
                        .collect()
                } else {
                    f.truth
                        .pieces
                        .iter()
                        .filter(|t| t.report.center_mm.distance(c) < 40.0)
                        .map(|t| {
                            format!(
                                "{}:{:?}/{:?}@{:.0}",
                                t.report.id,
                                t.report.piece,
                                t.report.treasure,
                                t.report.center_mm.distance(c)
                            )
                        })
                        .collect()
                };
                let seen = f
                    .truth
                    .pieces
                    .iter()
                    .find(|p| p.report.id == m.id && m.what == "missed")
                    .map(|p| match &p.report.loaded_on {
                        Some(ship) => format!("seen {:.2} on {ship} ", p.seen_share),
                        None => format!("seen {:.2} ", p.seen_share),
                    })
                    .unwrap_or_default();
                println!(
                    "  {:6} {:28} {:5} at ({:6.1}, {:6.1}) {seen}{why} near {near:?}",
                    m.what, m.identity, m.id, m.center_mm[0], m.center_mm[1]
                );
            }
            if std::env::var("PROBE_HIDDEN").is_ok() {
                // Pieces the camera sees little of, and whether vision found something there.
                for t in f.truth.pieces.iter().filter(|t| t.seen_share < 0.7) {
                    let found = report
                        .pieces
                        .iter()
                        .filter(|d| d.piece == t.report.piece && d.treasure == t.report.treasure)
                        .map(|d| d.center_mm.distance(t.report.center_mm))
                        .fold(f64::INFINITY, f64::min);
                    println!(
                        "  hidden {:5} {:?}/{:?} seen {:.2} visible {} nearest same kind found {:.1} mm",
                        t.report.id, t.report.piece, t.report.treasure, t.seen_share, t.visible, found
                    );
                }
            }
            let crab_read = report.counter.as_ref().map(|c| c.crab);
            if crab_read != Some(f.truth.counter.crab) {
                println!(
                    "  wrong counter: crab read at {crab_read:?}, truly at {}",
                    f.truth.counter.crab
                );
            }
            for w in &score.wrong_calls {
                println!("  wrong closest {w:?}");
                let ship_of = |ps: &[octoref::table::PieceReport]| -> Vec<String> {
                    ps.iter()
                        .filter(|p| {
                            matches!(p.piece, PieceKind::Ship | PieceKind::PirateShip)
                                && p.color.map(|c| c.as_str()) == Some(w.player.as_str())
                        })
                        .map(|p| {
                            format!(
                                "{} ({:.1},{:.1}) {:?} deg",
                                p.id,
                                p.center_mm.x,
                                p.center_mm.y,
                                p.angle_deg.map(|a| a.round())
                            )
                        })
                        .collect()
                };
                println!(
                    "    ship truth {:?} seen {:?}",
                    ship_of(&truth.pieces),
                    ship_of(&report.pieces)
                );
                // What vision made of the true closest treasure (within its matching distance), and
                // of the one it called closest (further: a load seen beside its deck).
                let called = w.detected_closest.iter().filter(|id| **id != w.true_closest);
                let looked_at = std::iter::once(("true closest", &w.true_closest, 12.0))
                    .chain(called.map(|id| ("called closest", id, 30.0)));
                for (what, id, within_mm) in looked_at {
                    let Some(t) = truth.pieces.iter().find(|p| &p.id == id) else {
                        continue;
                    };
                    let near = report
                        .pieces
                        .iter()
                        .filter(|d| d.center_mm.distance(t.center_mm) < within_mm);
                    for d in near {
                        println!(
                            "    {what} {} {:?} in_ocean {} loaded_on {:?} on_island {} | seen as {} {:?}/{:?} {:.1} mm off, in_ocean {} loaded_on {:?} on_island {}",
                            t.id,
                            t.treasure,
                            t.in_ocean,
                            t.loaded_on,
                            t.on_island,
                            d.id,
                            d.piece,
                            d.treasure,
                            d.center_mm.distance(t.center_mm),
                            d.in_ocean,
                            d.loaded_on,
                            d.on_island
                        );
                    }
                }
            }
            let mut view = an.debug_view(&f.image, &analysis)?;
            let grid = an.rectification().fine;
            for p in f.truth.pieces.iter().filter(|p| p.visible) {
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
                    &mut view,
                    &v,
                    true,
                    Scalar::new(0.0, 200.0, 0.0, 0.0),
                    1,
                    imgproc::LINE_8,
                    0,
                )?;
            }
            imgcodecs::imwrite_def(format!("/tmp/probe_{seed}_{fi}.png"), &view)?;
            imgcodecs::imwrite_def(format!("/tmp/probe_{seed}_{fi}_raw.jpg"), &f.image)?;
            let full = opencv::core::Rect::new(0, 0, grid.width as i32, grid.height as i32);
            let fine = an.rectification().fine_view(&f.image, full)?;
            imgcodecs::imwrite_def(format!("/tmp/probe_{seed}_{fi}_fine.png"), &fine)?;
            imgcodecs::imwrite_def(format!("/tmp/probe_{seed}_ref.png"), &sc.reference)?;
        }
    }
    Ok(())
}

/// Model `name` fitted afresh at table point `c`, standing `base_mm` up, as the count check
/// fits a look-alike ([`refit_as`]): gain/area/quality, score and how far it moved; `name` ending
/// in `/black` fits that model by its main colour alone.
fn refit_text(
    an: &Analyzer,
    region: &octoref::vision::region::Region,
    name: &str,
    c: PointMm,
    base_mm: f64,
) -> String {
    let black = name.ends_with("/black");
    let name = name.trim_end_matches("/black");
    let models = an.models();
    let Some(mi) = models.iter().position(|md| md.name == name) else {
        return "not in play".to_string();
    };
    let seen = if black {
        SeenBy::MainColour
    } else {
        SeenBy::AllColours
    };
    let at = Detection {
        model: mi,
        fit: Fit {
            pose: Pose2 {
                center_mm: c,
                angle_rad: 0.0,
                base_mm,
            },
            gain: 0.0,
            area_px: 0.0,
            silhouette: Silhouette::default(),
        },
        top: None,
        runner_up: None,
        on_shadows: false,
        also_explains: octoref::vision::colour::ColourSet(0),
    };
    refit_as(region, models, an.viewpoint(), mi, &at, &[], seen).map_or("none".to_string(), |f| {
        format!(
            "{:.0}/{:.0}/{:.2} score {:.0} off {:.1}",
            f.gain,
            f.area_px,
            f.quality(),
            f.score(),
            f.pose.center_mm.distance(c)
        )
    })
}

/// The pieces found but those whose ids are in `skip`, each as its model at its found pose
/// (`base_mm`: the analysis's surface heights, by piece index).
fn found_poses<'a>(
    an: &'a Analyzer,
    report: &octoref::referee::frame::FrameReport,
    base_mm: &[f64],
    skip: &[&str],
) -> Vec<(&'a octoref::vision::detect::Model, Pose2)> {
    report
        .pieces
        .iter()
        .zip(base_mm)
        .filter(|(o, _)| !skip.contains(&o.id.as_str()))
        .filter_map(|(o, &b)| {
            let om = an
                .models()
                .iter()
                .find(|md| md.kind == o.piece && md.treasure == o.treasure && md.color == o.color)?;
            Some((
                om,
                Pose2 {
                    center_mm: o.center_mm,
                    angle_rad: o.angle_deg.unwrap_or(0.0).to_radians(),
                    base_mm: b,
                },
            ))
        })
        .collect()
}

/// The piece found of `kind` and `color` nearest table point `at`.
fn nearest_found(
    pieces: &[octoref::table::PieceReport],
    kind: PieceKind,
    color: Option<octoref::games::crash_octopus::PlayerColor>,
    at: octoref::table::PointMm,
) -> Option<&octoref::table::PieceReport> {
    pieces
        .iter()
        .filter(|d| d.piece == kind && d.color == color)
        .min_by(|a, b| a.center_mm.distance(at).total_cmp(&b.center_mm.distance(at)))
}

/// `PROBE_MAP`: the labels of `region` within `r_mm` of `at`, one character a fine pixel: `.` bare
/// table, blank outside the view, a letter per palette colour (the lowest one the pixel reads
/// best as; capital for a piece, small for a shadow), `~` a shadow read as no colour.
fn print_label_map(
    region: &octoref::vision::region::Region,
    names: &[String],
    frame: usize,
    at: PointMm,
    r_mm: f64,
) {
    let letter = |b: usize| char::from(b'a' + (b % 26) as u8);
    let r = (r_mm / region.mm_per_px).round() as i64;
    let cx = ((at.x - region.origin_mm.x) / region.mm_per_px).round() as i64;
    let cy = ((at.y - region.origin_mm.y) / region.mm_per_px).round() as i64;
    let mut used = std::collections::BTreeSet::new();
    println!("  MAP f{frame} around ({:.1}, {:.1}), {r_mm} mm:", at.x, at.y);
    for j in cy - r..=cy + r {
        let mut line = String::from("  MAP ");
        for i in cx - r..=cx + r {
            let inside = i >= 0 && j >= 0 && (i as usize) < region.width && (j as usize) < region.height;
            let p = j as usize * region.width + i as usize;
            let ch = if !inside {
                ' '
            } else {
                let best = (0..32).find(|b| region.colours[p].best & (1 << b) != 0);
                match (region.labels[p], best) {
                    (Label::Table, _) => '.',
                    (Label::Outside, _) => ' ',
                    (Label::Shadow, None) => '~',
                    (Label::Piece, None) => '?',
                    (l, Some(b)) => {
                        used.insert(b);
                        if l == Label::Piece {
                            letter(b).to_ascii_uppercase()
                        } else {
                            letter(b)
                        }
                    }
                }
            };
            line.push(ch);
        }
        println!("{line}");
    }
    let key: Vec<String> = used
        .iter()
        .map(|&b| format!("{}={}", letter(b), names.get(b).map_or("?", String::as_str)))
        .collect();
    println!("  MAP key: {}", key.join(" "));
}
