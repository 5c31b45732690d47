//! Soak (reliability issue, item 5): the built-in demo through the capture worker and the live
//! referee — the app's own loop — for `OCTOREF_SOAK_SECONDS` (default 20; `make soak` runs 1800),
//! recording the resident memory (from /proc/self/statm) and the frame and analysis times.
//! Asserts no growth (resident memory after warm-up grows by less than a bound) and no stall (no
//! gap between two analysed frames over a bound), and that readings were committed.
//!
//! The figures are printed (`--nocapture`) and written to `target/soak.json`.
//!
//! What grows on purpose: the demo's render cache (JPEG states, capped at
//! `capture::demo::DEMO_CACHE_BYTES`) fills while the scripted game is first played through, so
//! the resident memory climbs for the first game cycle and then stops. The cache's size is
//! sampled with the resident memory, and the slope of *resident memory minus the cache* is what
//! the referee's loop itself keeps: that one must be flat.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use octoref::capture::{CaptureWorker, DemoConfig, DemoSource, WorkerConfig};
use octoref::live::{LiveCalibration, LiveConfig, LiveReferee};
use octoref::referee::GameContext;
use octoref::table::Catalog;
use std::time::{Duration, Instant};

/// Default length of the soak, s (the short form in `make test`).
const DEFAULT_SOAK_SECONDS: u64 = 20;
/// Memory is sampled this often.
const SAMPLE_EVERY: Duration = Duration::from_secs(1);
/// The first share of the run is warm-up (caches fill, the demo renders ahead).
const WARM_UP_SHARE: f64 = 0.25;
/// Resident memory may grow by at most this after warm-up (allocator noise, a cache settling).
const MAX_GROWTH_MB: f64 = 48.0;
/// ...and, over long runs, by at most this many MB per hour (a leak of a frame per minute
/// would show as ~160 MB/h).
const MAX_SLOPE_MB_PER_H: f64 = 30.0;
/// ...and, the demo's capped render cache taken out, by at most this (the loop keeps nothing
/// per frame; allocator noise remains).
const MAX_OWN_SLOPE_MB_PER_H: f64 = 10.0;
/// No analysed frame for this long (after the first) is a stall, s.
const MAX_GAP_S: f64 = 10.0;
/// Page size of /proc/self/statm's counts (4 KiB on x86-64 and aarch64 Linux).
const PAGE_BYTES: f64 = 4096.0;

fn rss_mb() -> f64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: f64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0);
    pages * PAGE_BYTES / (1024.0 * 1024.0)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i]
}

/// Least-squares slope of (t, y), per unit of t.
fn slope(points: &[(f64, f64)]) -> f64 {
    let n = points.len() as f64;
    if n < 2.0 {
        return 0.0;
    }
    let mt = points.iter().map(|p| p.0).sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let num: f64 = points.iter().map(|p| (p.0 - mt) * (p.1 - my)).sum();
    let den: f64 = points.iter().map(|p| (p.0 - mt).powi(2)).sum();
    if den == 0.0 { 0.0 } else { num / den }
}

/// The app's configuration with the still-table counts shortened to the analysis rate of a test
/// build. Counts are analysed frames: the defaults (settle 8, readings 5 apart) mean about 2 s of
/// stillness at 8 analysed frames per second, but a debug build analyses the demo at about 2 per
/// second, where they would need 6.5 s and the demo's 5 s still periods would never commit.
fn soak_config() -> LiveConfig {
    let mut c = LiveConfig::default();
    c.tracker.settle_frames = 3;
    c.tracker.confirm_hits = 2;
    c.tracker.confirm_window_frames = 3;
    c.reading_interval_frames = 2;
    c
}

#[test]
fn the_demo_runs_under_the_live_loop_without_growth_or_stall() {
    let seconds: u64 = std::env::var("OCTOREF_SOAK_SECONDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_SOAK_SECONDS);
    let (factory, demo) = DemoSource::factory(DemoConfig::default());
    let capture = CaptureWorker::spawn(factory, WorkerConfig::default(), || {}).unwrap();
    let referee = LiveReferee::start(
        LiveCalibration::demo().unwrap(),
        Catalog::default_catalog(),
        GameContext::default(),
        soak_config(),
        Box::new(|| {}),
    )
    .unwrap();

    // The demo's first render happens in `open`; the clock starts at the first frame.
    let first = capture
        .wait_frame(Duration::from_secs(300))
        .expect("the demo starts");
    referee.offer(&first);
    let start = Instant::now();
    let end = start + Duration::from_secs(seconds);
    let cache_mb = || demo.stats().render.cache_bytes as f64 / (1024.0 * 1024.0);
    let mut rss: Vec<(f64, f64)> = vec![(0.0, rss_mb())];
    let mut cache: Vec<(f64, f64)> = vec![(0.0, cache_mb())];
    let mut next_sample = start + SAMPLE_EVERY;
    let mut analysis_ms: Vec<f64> = Vec::new();
    let mut frame_gaps_s: Vec<f64> = Vec::new();
    let mut offered = 1u64;
    let mut last_analysed = 0u64;
    let mut last_analysed_at: Option<Instant> = None;
    let mut commits = 0u64;
    let mut last_commit_seq = None;
    while Instant::now() < end {
        if let Some(frame) = capture.wait_frame(Duration::from_millis(50)) {
            referee.offer(&frame);
            offered += 1;
        }
        let s = referee.snapshot();
        if s.frames_analysed > last_analysed {
            let now = Instant::now();
            if let Some(t) = last_analysed_at {
                frame_gaps_s.push(now.duration_since(t).as_secs_f64());
            }
            last_analysed_at = Some(now);
            last_analysed = s.frames_analysed;
            if let Some(ms) = s.analysis_ms {
                analysis_ms.push(ms);
            }
        }
        let seq = s.committed.as_ref().map(|c| c.seq);
        if seq.is_some() && seq != last_commit_seq {
            commits += 1;
            last_commit_seq = seq;
        }
        if Instant::now() >= next_sample {
            if std::env::var("OCTOREF_SOAK_TRACE").is_ok() {
                let info = demo.info(s.frame_seq.unwrap_or(0));
                eprintln!(
                    "t={:.0}s frame {:?} {:?} settling {} faults {:?} pieces {:?} committed {:?} shift {:?}",
                    start.elapsed().as_secs_f64(),
                    s.frame_seq,
                    info.map(|i| i.phase),
                    s.settling,
                    s.faults.iter().map(|f| f.name()).collect::<Vec<_>>(),
                    s.latest.as_ref().map(|r| r.pieces.len()),
                    s.committed.as_ref().map(|c| c.seq),
                    s.view_shift_mm
                );
            }
            let t = start.elapsed().as_secs_f64();
            rss.push((t, rss_mb()));
            cache.push((t, cache_mb()));
            next_sample += SAMPLE_EVERY;
        }
    }
    let snapshot = referee.snapshot();
    let capture_stats = capture.snapshot().stats;
    let demo_stats = demo.stats();
    drop(referee);
    drop(capture);

    let warm = seconds as f64 * WARM_UP_SHARE;
    let after: Vec<(f64, f64)> = rss.iter().copied().filter(|p| p.0 >= warm).collect();
    let rss_warm = after.first().map_or(0.0, |p| p.1);
    let rss_end = rss.last().map_or(0.0, |p| p.1);
    let rss_max = after.iter().map(|p| p.1).fold(0.0, f64::max);
    let slope_mb_per_h = slope(&after) * 3600.0;
    let cache_after: Vec<(f64, f64)> = cache.iter().copied().filter(|p| p.0 >= warm).collect();
    let cache_slope_mb_per_h = slope(&cache_after) * 3600.0;
    let own: Vec<(f64, f64)> = after
        .iter()
        .zip(&cache_after)
        .map(|(r, c)| (r.0, r.1 - c.1))
        .collect();
    let own_slope_mb_per_h = slope(&own) * 3600.0;
    analysis_ms.sort_by(f64::total_cmp);
    let mut gaps = frame_gaps_s.clone();
    gaps.sort_by(f64::total_cmp);
    let max_gap = gaps.last().copied().unwrap_or(0.0);
    let figures = serde_json::json!({
        "seconds": seconds,
        "frames_offered": offered,
        "frames_analysed": snapshot.frames_analysed,
        "frames_dropped": snapshot.frames_dropped,
        "commits": commits,
        "capture_frames": capture_stats.frames,
        "demo_frames": demo_stats.frames,
        "demo_held_frames": demo_stats.held_frames,
        "rss_start_mb": rss[0].1,
        "rss_after_warm_up_mb": rss_warm,
        "rss_end_mb": rss_end,
        "rss_max_mb": rss_max,
        "rss_slope_mb_per_h": slope_mb_per_h,
        "demo_cache_start_mb": cache[0].1,
        "demo_cache_end_mb": cache.last().map_or(0.0, |p| p.1),
        "demo_cache_slope_mb_per_h": cache_slope_mb_per_h,
        "rss_minus_cache_slope_mb_per_h": own_slope_mb_per_h,
        "analysis_ms_p50": percentile(&analysis_ms, 0.5),
        "analysis_ms_p99": percentile(&analysis_ms, 0.99),
        "frame_gap_s_p50": percentile(&gaps, 0.5),
        "frame_gap_s_p99": percentile(&gaps, 0.99),
        "frame_gap_s_max": max_gap,
        "faults_at_end": snapshot.faults.iter().map(|f| f.name()).collect::<Vec<_>>(),
    });
    eprintln!("soak: {}", serde_json::to_string_pretty(&figures).unwrap());
    let target = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/soak.json");
    let _ = std::fs::write(&target, serde_json::to_vec_pretty(&figures).unwrap());

    assert!(snapshot.frames_analysed >= 10, "frames were analysed: {figures}");
    assert!(commits >= 1, "readings were committed: {figures}");
    assert!(max_gap <= MAX_GAP_S, "no stall: {figures}");
    assert!(rss_end - rss_warm <= MAX_GROWTH_MB, "no memory growth: {figures}");
    if seconds >= 600 {
        assert!(
            slope_mb_per_h <= MAX_SLOPE_MB_PER_H,
            "no memory growth: {figures}"
        );
        assert!(
            own_slope_mb_per_h <= MAX_OWN_SLOPE_MB_PER_H,
            "no memory growth besides the demo's capped cache: {figures}"
        );
    }
}
