//! Rendering speed of the synthetic table: `cargo bench --bench synth`.
//!
//! One 1280x720 game frame (4 players, all pieces, shadows, lens distortion, noise), the JPEG
//! encoding of it, the board capture, and a frame's layout.

use criterion::{Criterion, criterion_group, criterion_main};
use octoref::synth::{Faults, Resolution, Scene, SceneSpec, encode_jpeg, render_board, render_frame};
use std::hint::black_box;

fn scene(distortion: bool) -> Option<Scene> {
    let mut spec = SceneSpec::new(11, 4);
    spec.resolution = Some(Resolution::HD);
    spec.distortion = Some(distortion);
    spec.modules.little_octopus = true;
    spec.modules.island = true;
    Scene::generate(&spec).map_err(|e| eprintln!("scene: {e}")).ok()
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("synth_1280x720");
    group.sample_size(20);
    for distortion in [false, true] {
        let Some(scene) = scene(distortion) else {
            continue;
        };
        let Ok(frame) = scene.frame(2, &Faults::none()) else {
            eprintln!("frame 2 of the bench scene cannot be laid out");
            continue;
        };
        let name = if distortion { "frame_distorted" } else { "frame" };
        group.bench_function(name, |b| {
            b.iter(|| black_box(render_frame(&scene, &frame.layout, &frame.options).ok()))
        });
        if !distortion {
            let img = render_frame(&scene, &frame.layout, &frame.options).ok();
            group.bench_function("jpeg_encode", |b| {
                b.iter(|| {
                    img.as_ref()
                        .map(|m| black_box(encode_jpeg(m, frame.jpeg_quality).ok()))
                })
            });
            group.bench_function("board_capture", |b| {
                b.iter(|| black_box(render_board(&scene).ok()))
            });
            group.bench_function("layouts_3_frames", |b| {
                b.iter(|| black_box(scene.layouts(3).ok()))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
