//! Frame sources and the capture worker, driven by the fake camera, a video written with OpenCV
//! and a folder of images. No test asserts speed: waits are bounded generously and only lower
//! bounds of pacing are checked.

use octoref::capture::fake::fake_colour;
use octoref::capture::video::VideoPacing;
use octoref::capture::{
    CaptureError, CaptureSnapshot, CaptureWorker, CorruptKind, FakeSource, FakeStep, FrameSource,
    ImageFolderOptions, ImageFolderSource, PixelFormat, SourceStatus, StopSignal, VideoOptions, VideoSource,
    WorkerConfig,
};
use opencv::core::{CV_8UC3, Mat, Scalar, Size};
use opencv::prelude::*;
use opencv::{imgcodecs, videoio};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Upper bound for anything to happen; far above what it takes on a busy shared machine.
const PATIENCE: Duration = Duration::from_secs(20);

fn quick_config() -> WorkerConfig {
    WorkerConfig {
        backoff_first: Duration::from_millis(20),
        backoff_max: Duration::from_millis(80),
        stall_after: Duration::from_secs(30),
        stall_reopen_after: Duration::from_secs(30),
        reconnected_notice: Duration::from_millis(50),
        stop_grace: Duration::from_secs(10),
    }
}

fn frames(count: u32) -> FakeStep {
    FakeStep::Frames {
        count,
        pixel: PixelFormat::Mjpeg,
    }
}

fn wait_for(worker: &CaptureWorker, what: &str, pred: impl Fn(&CaptureSnapshot) -> bool) -> CaptureSnapshot {
    let start = Instant::now();
    loop {
        let snap = worker.snapshot();
        if pred(&snap) {
            return snap;
        }
        assert!(
            start.elapsed() < PATIENCE,
            "timed out waiting for {what}: {snap:#?}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Takes every frame until the worker finishes; returns (seq, connection, width, height).
fn drain(worker: &CaptureWorker) -> Vec<(u64, u32, u32, u32)> {
    let start = Instant::now();
    let mut got = Vec::new();
    loop {
        if let Some(f) = worker.wait_frame(Duration::from_millis(50)) {
            got.push((f.seq, f.connection, f.width(), f.height()));
        } else if worker.is_finished() {
            if let Some(f) = worker.take_latest() {
                got.push((f.seq, f.connection, f.width(), f.height()));
            }
            return got;
        }
        assert!(start.elapsed() < PATIENCE, "worker did not finish");
    }
}

/// True when `want` appears in `seen` in this order (other entries may come between).
fn in_order(seen: &[&str], want: &[&str]) -> bool {
    let mut it = seen.iter();
    want.iter().all(|w| it.any(|s| s == w))
}

fn names(snap: &CaptureSnapshot) -> Vec<&'static str> {
    snap.history.iter().map(|e| e.status.name()).collect()
}

#[test]
fn disconnect_is_reported_then_the_camera_reconnects_and_frames_resume() {
    let fake = FakeSource::new(
        64,
        48,
        Some(200.0),
        // 30 frames after the reconnection outlast the 50 ms "reconnected" notice.
        vec![
            frames(5),
            FakeStep::Disconnect {
                for_ms: 300,
                resolution: None,
            },
            frames(30),
            FakeStep::End,
        ],
    );
    let probe = fake.probe();
    let repaints = Arc::new(AtomicUsize::new(0));
    let r = Arc::clone(&repaints);
    let worker = CaptureWorker::spawn_source(fake, quick_config(), move || {
        r.fetch_add(1, Ordering::SeqCst);
    })
    .unwrap();
    let got = drain(&worker);
    let snap = worker.snapshot();

    assert_eq!(
        names(&snap),
        vec![
            "connecting",
            "live",
            "disconnected",
            "reconnected",
            "live",
            "ended"
        ]
    );
    let disconnected = snap
        .history
        .iter()
        .find_map(|e| match &e.status {
            SourceStatus::Disconnected { reason, .. } => Some(reason.clone()),
            _ => None,
        })
        .unwrap();
    assert!(disconnected.contains("unplugged"), "{disconnected}");
    let reconnected = snap
        .history
        .iter()
        .find(|e| e.status.name() == "reconnected")
        .unwrap();
    assert!(matches!(
        &reconnected.status,
        SourceStatus::Reconnected {
            resolution_changed: false,
            ..
        }
    ));
    assert_eq!(snap.stats.disconnects, 1);
    assert_eq!(snap.stats.reconnects, 1);
    assert_eq!(snap.stats.frames, 35);
    // While unplugged, reopening was tried and refused at least once (300 ms of backoff ≤ 80 ms).
    assert!(probe.failed_opens() >= 1);
    assert_eq!(probe.opens(), 2);
    // Frames resume after the reconnection, numbered on, marked with the new connection.
    let seqs: Vec<u64> = got.iter().map(|g| g.0).collect();
    assert!(seqs.windows(2).all(|w| w[0] < w[1]), "{seqs:?}");
    assert_eq!(got.last().map(|g| (g.0, g.1)), Some((34, 2)));
    assert!(got.iter().all(|g| (g.2, g.3) == (64, 48)));
    assert!(repaints.load(Ordering::SeqCst) >= got.len());
}

#[test]
fn a_camera_that_comes_back_at_another_resolution_is_reported_as_such() {
    let fake = FakeSource::new(
        64,
        48,
        Some(200.0),
        vec![
            frames(3),
            FakeStep::Disconnect {
                for_ms: 50,
                resolution: Some([32, 24]),
            },
            frames(3),
            FakeStep::End,
        ],
    );
    let worker = CaptureWorker::spawn_source(fake, quick_config(), || {}).unwrap();
    let got = drain(&worker);
    let snap = worker.snapshot();
    let back = snap.history.iter().find_map(|e| match &e.status {
        SourceStatus::Reconnected {
            info,
            resolution_changed,
            previous,
            ..
        } => Some(((info.width, info.height), *resolution_changed, *previous)),
        _ => None,
    });
    assert_eq!(back, Some(((32, 24), true, [64, 48])));
    assert_eq!(snap.info.as_ref().map(|i| (i.width, i.height)), Some((32, 24)));
    let after: Vec<_> = got.iter().filter(|g| g.1 == 2).collect();
    assert!(!after.is_empty());
    assert!(after.iter().all(|g| (g.2, g.3) == (32, 24)), "{got:?}");
    let reconnected = snap
        .history
        .iter()
        .find(|e| e.status.name() == "reconnected")
        .unwrap();
    assert!(
        reconnected.status.describe().contains("calibrate again"),
        "{}",
        reconnected.status.describe()
    );
}

#[test]
fn corrupt_truncated_and_zero_size_frames_are_skipped_and_counted() {
    let mut script = vec![frames(3)];
    for kind in [
        CorruptKind::TruncatedJpeg,
        CorruptKind::GarbageJpeg,
        CorruptKind::ZeroSize,
        CorruptKind::ShortYuyv,
        CorruptKind::WrongSize,
    ] {
        script.push(FakeStep::Corrupt(kind));
    }
    script.push(FakeStep::Frames {
        count: 3,
        pixel: PixelFormat::Yuyv,
    });
    script.push(FakeStep::End);
    let worker = CaptureWorker::spawn_source(
        FakeSource::new(64, 48, Some(200.0), script),
        quick_config(),
        || {},
    )
    .unwrap();
    let got = drain(&worker);
    let snap = worker.snapshot();
    assert_eq!(snap.stats.corrupt, 5);
    assert_eq!(snap.stats.frames, 6);
    assert!(
        snap.stats
            .last_corrupt_reason
            .as_deref()
            .unwrap_or("")
            .contains("expected 64x48"),
        "{:?}",
        snap.stats.last_corrupt_reason
    );
    assert_eq!(names(&snap), vec!["connecting", "live", "ended"]);
    assert_eq!(got.last().map(|g| g.0), Some(5));
}

#[test]
fn the_newest_frame_wins_under_a_slow_consumer() {
    const TOTAL: u64 = 120;
    let fake = FakeSource::new(32, 24, Some(400.0), vec![frames(TOTAL as u32), FakeStep::End]);
    let worker = CaptureWorker::spawn_source(fake, quick_config(), || {}).unwrap();
    let mut taken = Vec::new();
    while !worker.is_finished() {
        if let Some(f) = worker.take_latest() {
            taken.push(f.seq);
        }
        std::thread::sleep(Duration::from_millis(40));
    }
    // Whatever was last delivered is what the consumer gets, however late it looks.
    let last = worker.take_latest().map(|f| f.seq);
    if let Some(seq) = last {
        taken.push(seq);
    }
    assert_eq!(taken.last(), Some(&(TOTAL - 1)));
    assert!(taken.windows(2).all(|w| w[0] < w[1]), "{taken:?}");
    let snap = worker.snapshot();
    assert_eq!(snap.stats.frames, TOTAL);
    // Every frame was either taken or dropped: nothing queued up anywhere.
    assert_eq!(snap.stats.dropped + taken.len() as u64, TOTAL, "{taken:?}");
    assert!(snap.stats.dropped > 0);
    assert!(worker.take_latest().is_none());
}

#[test]
fn the_worker_stops_cleanly_whatever_the_source_is_doing() {
    // Streaming.
    let fake = FakeSource::new(32, 24, Some(100.0), vec![frames(1)]).repeating();
    let probe = fake.probe();
    let worker = CaptureWorker::spawn_source(fake, quick_config(), || {}).unwrap();
    assert!(worker.wait_frame(PATIENCE).is_some());
    worker.stop();
    assert!(probe.is_dropped(), "the thread let go of the source");

    // Frozen inside a read, unplugged and retrying, or stalled: stop interrupts each.
    for step in [
        FakeStep::Freeze { for_ms: 600_000 },
        FakeStep::Disconnect {
            for_ms: 600_000,
            resolution: None,
        },
        FakeStep::Stall { for_ms: 600_000 },
    ] {
        let fake = FakeSource::new(32, 24, Some(100.0), vec![frames(1), step.clone()]);
        let probe = fake.probe();
        let worker = CaptureWorker::spawn_source(fake, quick_config(), || {}).unwrap();
        assert!(worker.wait_frame(PATIENCE).is_some());
        std::thread::sleep(Duration::from_millis(30));
        let start = Instant::now();
        drop(worker);
        assert!(probe.is_dropped(), "{step:?}");
        assert!(start.elapsed() < PATIENCE, "{step:?}");
    }
}

#[test]
fn a_source_that_blocks_is_reported_stalled_then_live_again() {
    let config = WorkerConfig {
        stall_after: Duration::from_millis(250),
        ..quick_config()
    };
    let fake = FakeSource::new(
        32,
        24,
        Some(100.0),
        vec![
            frames(2),
            FakeStep::Freeze { for_ms: 1500 },
            frames(2),
            FakeStep::End,
        ],
    );
    let worker = CaptureWorker::spawn_source(fake, config, || {}).unwrap();
    let got = drain(&worker);
    let snap = worker.snapshot();
    assert!(!got.is_empty());
    assert_eq!(snap.stats.frames, 4);
    // A hiccup of the shared machine could add a stall of its own; the freeze is always one.
    assert!(snap.stats.stalls >= 1);
    assert!(
        in_order(&names(&snap), &["connecting", "live", "stalled", "live", "ended"]),
        "{:?}",
        names(&snap)
    );
}

#[test]
fn read_timeouts_are_reported_and_a_long_stall_reopens_the_source() {
    // Short stall: reported, waited out, the same connection goes on.
    let fake = FakeSource::new(
        32,
        24,
        Some(100.0),
        vec![
            frames(1),
            FakeStep::Stall { for_ms: 300 },
            frames(1),
            FakeStep::End,
        ],
    );
    let worker = CaptureWorker::spawn_source(fake, quick_config(), || {}).unwrap();
    let got = drain(&worker);
    let snap = worker.snapshot();
    assert_eq!(
        names(&snap),
        vec!["connecting", "live", "stalled", "live", "ended"]
    );
    assert_eq!(snap.stats.frames, 2);
    assert!(got.iter().all(|g| g.1 == 1), "same connection: {got:?}");

    // Long stall: after `stall_reopen_after` the source is closed and reopened.
    let config = WorkerConfig {
        stall_reopen_after: Duration::from_millis(150),
        ..quick_config()
    };
    let fake = FakeSource::new(
        32,
        24,
        Some(100.0),
        vec![frames(1), FakeStep::Stall { for_ms: 200_000 }, frames(1)],
    );
    let probe = fake.probe();
    let worker = CaptureWorker::spawn_source(fake, config, || {}).unwrap();
    let snap = wait_for(&worker, "a reopen after the stall", |s| s.stats.reconnects >= 1);
    assert!(names(&snap).contains(&"stalled"));
    assert!(names(&snap).contains(&"disconnected"));
    assert!(probe.opens() >= 2);
}

#[test]
fn a_missing_input_fails_without_retrying() {
    let dir = tempfile::tempdir().unwrap();
    let worker = CaptureWorker::spawn_source(
        ImageFolderSource::new(ImageFolderOptions::new(dir.path())),
        quick_config(),
        || {},
    )
    .unwrap();
    let snap = wait_for(&worker, "failure", |s| s.status.name() == "failed");
    assert!(
        snap.status.describe().contains("no images"),
        "{}",
        snap.status.describe()
    );
    assert!(worker.wait_frame(PATIENCE).is_none());
    assert!(worker.is_finished());
}

/// Writes `count` flat-coloured frames as an MJPG AVI; the colour of frame i is `fake_colour(i)`.
/// `Ok(false)` when this OpenCV has no writer for it.
fn write_video(path: &Path, count: u64) -> opencv::Result<bool> {
    let fourcc = videoio::VideoWriter::fourcc('M', 'J', 'P', 'G')?;
    let Ok(mut writer) = videoio::VideoWriter::new(path, fourcc, 25.0, Size::new(64, 48), true) else {
        return Ok(false);
    };
    if !writer.is_opened()? {
        return Ok(false);
    }
    for i in 0..count {
        let c = fake_colour(i);
        let img = Mat::new_rows_cols_with_default(
            48,
            64,
            CV_8UC3,
            Scalar::new(c[0].into(), c[1].into(), c[2].into(), 0.0),
        )?;
        writer.write(&img)?;
    }
    writer.release()?;
    Ok(true)
}

fn mean_bgr(m: &Mat) -> [f64; 3] {
    let s = opencv::core::mean_def(m).unwrap_or_default();
    [s[0], s[1], s[2]]
}

#[test]
fn a_video_plays_in_order_then_ends_or_loops() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.avi");
    assert!(
        write_video(&path, 10).unwrap(),
        "this OpenCV has no MJPG AVI writer"
    );
    let stop = StopSignal::new();

    let mut video = VideoSource::new(VideoOptions {
        path: path.clone(),
        looping: false,
        pacing: VideoPacing::Unpaced,
    });
    let info = video.open().unwrap();
    assert_eq!((info.width, info.height), (64, 48));
    assert!((info.fps - 25.0).abs() < 0.5, "{}", info.fps);
    for i in 0..10u64 {
        let f = video.next_frame(&stop).unwrap();
        assert_eq!(f.seq, i);
        assert_eq!(&*f.label, "game.avi");
        let m = mean_bgr(&f.image);
        let c = fake_colour(i);
        for k in 0..3 {
            assert!((m[k] - f64::from(c[k])).abs() < 6.0, "frame {i}: {m:?} vs {c:?}");
        }
    }
    assert_eq!(video.next_frame(&stop).unwrap_err(), CaptureError::EndOfStream);

    let mut looping = VideoSource::new(VideoOptions {
        path: path.clone(),
        looping: true,
        pacing: VideoPacing::Unpaced,
    });
    looping.open().unwrap();
    for _ in 0..25 {
        looping.next_frame(&stop).unwrap();
    }

    // Paced at its own 25 fps: 6 frames span at least 5 periods (a lower bound only).
    let mut paced = VideoSource::new(VideoOptions::new(&path));
    paced.open().unwrap();
    let start = Instant::now();
    for _ in 0..6 {
        paced.next_frame(&stop).unwrap();
    }
    assert!(start.elapsed() >= Duration::from_millis(190));

    // Through the worker: frames, then the end of the recording.
    let worker = CaptureWorker::spawn_source(
        VideoSource::new(VideoOptions {
            path: path.clone(),
            looping: false,
            pacing: VideoPacing::Fixed(200.0),
        }),
        quick_config(),
        || {},
    )
    .unwrap();
    let got = drain(&worker);
    assert!(!got.is_empty());
    assert_eq!(worker.snapshot().stats.frames, 10);
    assert_eq!(worker.snapshot().status, SourceStatus::Ended);

    let missing = VideoSource::new(VideoOptions::new(dir.path().join("nope.avi")))
        .open()
        .unwrap_err();
    assert!(
        matches!(&missing, CaptureError::Invalid { path, .. } if path.ends_with("nope.avi")),
        "{missing}"
    );
    std::fs::write(dir.path().join("text.avi"), b"not a video").unwrap();
    let bad = VideoSource::new(VideoOptions::new(dir.path().join("text.avi")))
        .open()
        .unwrap_err();
    assert!(matches!(bad, CaptureError::Invalid { .. }), "{bad}");
}

fn write_png(path: &Path, colour: [u8; 3], width: i32) -> opencv::Result<bool> {
    let img = Mat::new_rows_cols_with_default(
        20,
        width,
        CV_8UC3,
        Scalar::new(colour[0].into(), colour[1].into(), colour[2].into(), 0.0),
    )?;
    imgcodecs::imwrite(path, &img, &opencv::core::Vector::new())
}

#[test]
fn an_image_folder_plays_by_name_skips_bad_files_and_is_paced() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert!(write_png(&d.join("frame_002.png"), [0, 0, 200], 30).unwrap());
    assert!(write_png(&d.join("frame_001.png"), [200, 0, 0], 30).unwrap());
    assert!(write_png(&d.join("frame_010.PNG"), [0, 200, 0], 40).unwrap());
    assert!(write_png(&d.join(".hidden.png"), [9, 9, 9], 30).unwrap());
    std::fs::write(d.join("frame_005.jpg"), b"broken").unwrap();
    std::fs::write(d.join("notes.txt"), b"not an image").unwrap();
    let stop = StopSignal::new();

    let mut src = ImageFolderSource::new(ImageFolderOptions {
        dir: d.to_path_buf(),
        fps: None,
        looping: false,
    });
    let info = src.open().unwrap();
    assert_eq!((info.width, info.height), (30, 20));
    let order: Vec<String> = src
        .files()
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        order,
        vec!["frame_001.png", "frame_002.png", "frame_005.jpg", "frame_010.PNG"]
    );
    let f = src.next_frame(&stop).unwrap();
    assert_eq!((&*f.label, f.seq), ("frame_001.png", 0));
    assert!(mean_bgr(&f.image)[0] > 190.0);
    assert_eq!(&*src.next_frame(&stop).unwrap().label, "frame_002.png");
    let bad = src.next_frame(&stop).unwrap_err();
    assert!(
        matches!(&bad, CaptureError::Corrupt(r) if r.contains("frame_005.jpg")),
        "{bad}"
    );
    let last = src.next_frame(&stop).unwrap();
    assert_eq!((&*last.label, last.seq, last.width()), ("frame_010.PNG", 2, 40));
    assert_eq!(src.next_frame(&stop).unwrap_err(), CaptureError::EndOfStream);

    // Looping at 20 fps: the folder comes round again, never faster than the rate.
    let mut looping = ImageFolderSource::new(ImageFolderOptions {
        dir: d.to_path_buf(),
        fps: Some(20.0),
        looping: true,
    });
    looping.open().unwrap();
    let start = Instant::now();
    let mut labels = Vec::new();
    for _ in 0..6 {
        match looping.next_frame(&stop) {
            Ok(f) => labels.push(f.label.to_string()),
            Err(CaptureError::Corrupt(_)) => labels.push("corrupt".into()),
            Err(e) => panic!("{e}"),
        }
    }
    assert!(
        start.elapsed() >= Duration::from_millis(250),
        "6 releases at 20 fps span 5 periods"
    );
    assert_eq!(
        labels,
        vec![
            "frame_001.png",
            "frame_002.png",
            "corrupt",
            "frame_010.PNG",
            "frame_001.png",
            "frame_002.png"
        ]
    );

    // Through the worker the broken file is counted, not fatal.
    let worker = CaptureWorker::spawn_source(
        ImageFolderSource::new(ImageFolderOptions {
            dir: d.to_path_buf(),
            fps: Some(100.0),
            looping: false,
        }),
        quick_config(),
        || {},
    )
    .unwrap();
    drain(&worker);
    let snap = worker.snapshot();
    assert_eq!((snap.stats.frames, snap.stats.corrupt), (3, 1));
    assert_eq!(snap.status, SourceStatus::Ended);

    let not_dir = ImageFolderSource::new(ImageFolderOptions::new(d.join("notes.txt")))
        .open()
        .unwrap_err();
    assert!(
        matches!(&not_dir, CaptureError::Invalid { message, .. } if message.contains("not a folder")),
        "{not_dir}"
    );
}

/// A source stuck in a "driver call" that ignores the stop signal for `block`.
struct Stubborn {
    block: Duration,
    dropped: Arc<AtomicUsize>,
}

impl FrameSource for Stubborn {
    fn open(&mut self) -> Result<octoref::capture::SourceInfo, CaptureError> {
        Ok(octoref::capture::SourceInfo {
            kind: octoref::capture::SourceKind::Fake,
            name: "stubborn".into(),
            width: 8,
            height: 8,
            fps: 1.0,
            pixel_format: None,
        })
    }
    fn next_frame(&mut self, _stop: &StopSignal) -> Result<octoref::capture::Frame, CaptureError> {
        std::thread::sleep(self.block);
        Err(CaptureError::Corrupt("nothing".into()))
    }
    fn close(&mut self) {}
}

impl Drop for Stubborn {
    fn drop(&mut self) {
        self.dropped.fetch_add(1, Ordering::SeqCst);
    }
}

#[test]
fn quitting_never_hangs_on_a_source_stuck_in_the_driver() {
    let dropped = Arc::new(AtomicUsize::new(0));
    let config = WorkerConfig {
        stop_grace: Duration::from_millis(50),
        ..quick_config()
    };
    let source = Stubborn {
        block: Duration::from_secs(3),
        dropped: Arc::clone(&dropped),
    };
    let worker = CaptureWorker::spawn_source(source, config, || {}).unwrap();
    wait_for(&worker, "the source to open", |s| s.status.name() == "live");
    drop(worker);
    // Drop gave up after the grace period instead of waiting out the 3 s read...
    assert_eq!(dropped.load(Ordering::SeqCst), 0);
    // ...and the thread still finishes and frees the source once the read returns.
    let start = Instant::now();
    while dropped.load(Ordering::SeqCst) == 0 {
        assert!(
            start.elapsed() < PATIENCE,
            "the stuck thread never let go of its source"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A source whose library crashes.
struct Crashing;

impl FrameSource for Crashing {
    #[expect(clippy::panic, reason = "simulates a crash inside a capture library")]
    fn open(&mut self) -> Result<octoref::capture::SourceInfo, CaptureError> {
        panic!("a bug in a capture library");
    }
    fn next_frame(&mut self, _stop: &StopSignal) -> Result<octoref::capture::Frame, CaptureError> {
        Err(CaptureError::EndOfStream)
    }
    fn close(&mut self) {}
}

#[test]
fn a_crash_in_the_capture_thread_is_reported_not_propagated() {
    let worker = CaptureWorker::spawn_source(Crashing, quick_config(), || {}).unwrap();
    let snap = wait_for(&worker, "the crash to be reported", |s| {
        s.status.name() == "failed"
    });
    assert!(
        snap.status.describe().contains("crashed"),
        "{}",
        snap.status.describe()
    );
    assert!(worker.is_finished());
    assert!(worker.take_latest().is_none());
    worker.stop();
}
