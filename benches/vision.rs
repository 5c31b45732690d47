//! Vision speed on one frame: `cargo bench --bench vision`.
//!
//! One 1280x720 scene (4 players, little octopus and island, tilt 20 degrees) calibrated from
//! its own renders; its second game frame through `Analyzer::analyze`, `Analyzer::report` (with
//! the referee), and the reference pass `octoref bench` compares against (BGR -> HSV plus a 5x5
//! Gaussian blur). The ratio of the first to the last is the speed figure.

use criterion::{Criterion, criterion_group, criterion_main};
use octoref::referee::GameContext;
use octoref::synth::{Faults, Resolution, SceneSpec};
use octoref::table::Catalog;
use octoref::vision::bench::reference_pass;
use octoref::vision::synthetic::{SyntheticScene, prepare};
use octoref::vision::{Analyzer, TaughtModels};
use std::hint::black_box;

fn scene() -> Option<SyntheticScene> {
    let mut spec = SceneSpec::new(11, 4);
    spec.resolution = Some(Resolution::HD);
    spec.tilt_deg = Some(20.0);
    spec.modules.little_octopus = true;
    spec.modules.island = true;
    prepare(&spec, 2, |_| Faults::none())
        .map_err(|e| eprintln!("scene: {e}"))
        .ok()
}

fn bench(c: &mut Criterion) {
    let Some(sc) = scene() else { return };
    let catalog = Catalog::default_catalog();
    let analyzer = match Analyzer::new(&sc.profile, &sc.reference, &catalog, &TaughtModels::default()) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("analyzer: {e}");
            return;
        }
    };
    let Some(frame) = sc.frames.get(1) else { return };
    let ctx = GameContext::with_players(sc.scene.spec.player_colours());
    let mut group = c.benchmark_group("vision_1280x720");
    group.sample_size(20);
    group.bench_function("analyze", |b| {
        b.iter(|| black_box(analyzer.analyze(&frame.image).ok()))
    });
    group.bench_function("report_with_referee", |b| {
        b.iter(|| black_box(analyzer.report(&frame.image, "frame", &ctx).ok()))
    });
    // The per-pixel stage alone: the whole fine view labelled and coloured (several times the
    // pixels of a frame's regions).
    group.bench_function("label_whole_fine_view", |b| {
        b.iter(|| black_box(analyzer.full_region(&frame.image).ok()))
    });
    group.bench_function("reference_pass", |b| {
        b.iter(|| black_box(reference_pass(&frame.image).ok()))
    });
    group.bench_function("analyzer_new", |b| {
        b.iter(|| {
            black_box(Analyzer::new(&sc.profile, &sc.reference, &catalog, &TaughtModels::default()).ok())
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
