//! Analysis speed alone, for comparing two builds: `cargo run --release --example speed_probe -- [SCENES] [REPEATS] [THREADS]`.
//!
//! Renders the bench's first SCENES scenes (default 8, three frames each) once, then analyses
//! every frame REPEATS times (default 5) on THREADS threads (default 1), and prints the mean over
//! frames of each frame's fastest analysis (wall clock) and of each stage's fastest time (thread
//! time; the last three, where the frame's regions are looked at, on the wall clock). One thread and the fastest of several passes keep the figure steady on a shared
//! machine; two threads show what the frame waits for (the parts that run on one thread); `octoref bench` gives the figures the bar is on.
#![allow(clippy::print_stdout)] // a developer's tool: its output is the point

use octoref::table::Catalog;
use octoref::vision::analyzer::Analyzer;
use octoref::vision::bench::{BenchConfig, scene_specs};
use octoref::vision::synthetic::prepare;
use octoref::vision::taught::TaughtModels;
use std::time::Instant;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1).filter_map(|s| s.parse::<usize>().ok());
    let scenes = args.next().unwrap_or(8);
    let repeats = args.next().unwrap_or(5).max(1);
    let threads = args.next().unwrap_or(1).max(1);
    let first_seed = std::env::var("PROBE_FIRST_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(BenchConfig::default().seed);
    let config = BenchConfig {
        scenes,
        seed: first_seed,
        ..BenchConfig::default()
    };
    let catalog = Catalog::default_catalog();
    let mut work = Vec::new();
    for spec in scene_specs(&config) {
        let sc = prepare(&spec, config.frames_per_scene, |_| octoref::synth::Faults::none())?;
        // As the bench does: the scene's game's pieces only.
        let analyzer = Analyzer::new(&sc.profile, &sc.reference, &catalog, &TaughtModels::default())?
            .with_in_play(&octoref::vision::bench::scene_in_play(&spec)?)
            .with_threads(threads);
        work.push((analyzer, sc.frames));
    }
    // Per frame, its fastest analysis and each stage's fastest time over the passes.
    let frames: usize = work.iter().map(|w| w.1.len()).sum();
    let mut fastest = vec![(f64::INFINITY, [f64::INFINITY; 9]); frames];
    for _ in 0..repeats {
        let mut k = 0;
        for (analyzer, frames) in &work {
            for f in frames {
                let started = Instant::now();
                let a = analyzer.analyze(&f.image)?;
                let took = started.elapsed().as_secs_f64() * 1e3;
                let t = &a.times;
                let stages = [
                    t.rectify_ms,
                    t.foreground_ms,
                    t.blobs_ms,
                    t.classify_ms,
                    t.footprint_ms,
                    t.counter_ms,
                    t.before_regions_ms,
                    t.regions_ms,
                    t.after_regions_ms,
                ];
                let slot = &mut fastest[k];
                slot.0 = slot.0.min(took);
                for (s, v) in slot.1.iter_mut().zip(stages) {
                    *s = s.min(v);
                }
                k += 1;
            }
        }
    }
    let n = frames.max(1) as f64;
    let total: f64 = fastest.iter().map(|f| f.0).sum();
    println!(
        "{frames} frames, each at its fastest of {repeats} passes: {:.2} ms a frame on {threads} thread(s)",
        total / n
    );
    for (i, name) in [
        "rectify",
        "foreground",
        "blobs",
        "classify",
        "footprint",
        "counter",
        "before the regions (wall clock)",
        "the regions (wall clock)",
        "after the regions (wall clock)",
    ]
    .iter()
    .enumerate()
    {
        let v: f64 = fastest.iter().map(|f| f.1[i]).sum();
        println!("  {name:<32} {:8.2} ms", v / n);
    }
    Ok(())
}
