//! Measures whether the app keeps up with the demo camera: runs the real app on the demo inside a
//! thin `eframe::App` wrapper that counts UI frames (`ui()` calls) and new camera frames shown,
//! prints one line per second, and at the end the totals and each thread's share of a core (from
//! `/proc/self/task`, Linux only) over the run.
//!
//! ```text
//! xvfb-run -s '-screen 0 1360x860x24' env PROBE_SECONDS=30 OCTOREF_CONFIG_DIR=$(mktemp -d) \
//!     cargo run --release --example repaint_probe
//! ```
//!
//! The issue asks that with the demo the app repaints at the camera's rate on a 2-core machine;
//! this is how the README's figures were taken. Started from the audit's probe of issue 6.
//!
//! It also says which renderer drew the window (the app's choice, `OCTOREF_RENDERER`), and
//! `frame_cpu_ms`, eframe's own timing of a frame on the UI thread (`ui()`, tessellation and
//! handing the frame to the renderer; under a software rasteriser the drawing itself is the
//! `llvmpipe-*` threads' share). With `PROBE_AREAS=1` it prints once how many pixels the frame's
//! triangles cover, by clipped primitive: the pixels a software rasteriser shades.
#![allow(clippy::print_stderr)] // a developer's tool: its output is the point

use octoref::app::{AppOptions, OctorefApp};
use octoref::capture::{DemoReason, SourceChoice};
use octoref::cli::AppArgs;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// How long to run when `PROBE_SECONDS` is not set, seconds.
const DEFAULT_SECONDS: u64 = 30;
/// The first seconds are start-up (the referee preparing vision, the window appearing): left out
/// of the totals.
const WARM_UP: Duration = Duration::from_secs(5);
/// The window's size, points, unless `PROBE_WINDOW=WxH` says otherwise (the software rasteriser's
/// work grows with the window's area).
const WINDOW: [f32; 2] = [1280.0, 800.0];

fn window_size() -> [f32; 2] {
    std::env::var("PROBE_WINDOW")
        .ok()
        .and_then(|v| {
            let (w, h) = v.split_once('x')?;
            Some([w.parse().ok()?, h.parse().ok()?])
        })
        .unwrap_or(WINDOW)
}

/// CPU time each thread (by name) has used so far, in clock ticks (Linux `/proc/self/task`).
fn thread_ticks() -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return out;
    };
    for task in tasks.flatten() {
        let Ok(stat) = std::fs::read_to_string(task.path().join("stat")) else {
            continue;
        };
        // pid (comm) state ppid ... utime(14) stime(15): comm may hold spaces, so split after ')'.
        let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
            continue;
        };
        let name = stat[open + 1..close].to_string();
        let fields: Vec<&str> = stat[close + 1..].split_whitespace().collect();
        let tick = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok()).unwrap_or(0);
        // After ')' the fields start at `state` (field 3), so utime (14) is index 11.
        *out.entry(name).or_insert(0) += tick(11) + tick(12);
    }
    out
}

/// The counts at one moment, to measure rates from.
struct Mark {
    at: Instant,
    ui_frames: u64,
    shown: u64,
    ticks: BTreeMap<String, u64>,
    captured: u64,
    analysed: u64,
    cpu_s: f64,
    cpu_n: u64,
    logic_s: f64,
    logic_n: u64,
}

struct Probe {
    app: OctorefApp,
    start: Instant,
    last_report: Instant,
    seconds: u64,
    frames: u64,
    shown: u64,
    last_seq: Option<u64>,
    /// The counts at the end of the warm-up.
    measured_from: Option<Mark>,
    frames_total: u64,
    shown_total: u64,
    /// Commits (settled readings with their rulings) seen, and the last one's frame.
    commits: u64,
    last_commit: Option<u64>,
    done: bool,
    /// eframe's own timing of the frames in this second ([`eframe::IntegrationInfo::cpu_usage`]:
    /// `ui()` plus handing the frame to the renderer, seconds) and how many were timed.
    cpu_s: f64,
    cpu_n: u32,
    /// The same over the whole run.
    cpu_total_s: f64,
    cpu_total_n: u64,
    /// Time spent in the app's `logic()` (taking the new frame, converting it for its texture,
    /// handing it to the referee), seconds, and how many calls, over the whole run.
    logic_s: f64,
    logic_n: u64,
}

impl Probe {
    fn capture_frames(&self) -> u64 {
        self.app.live().snapshot().map_or(0, |s| s.stats.frames)
    }

    fn analysed(&self) -> u64 {
        self.app.referee_snapshot().map_or(0, |s| s.frames_analysed)
    }

    fn report_totals(&self, now: Instant) {
        let Some(mark) = &self.measured_from else {
            return;
        };
        let secs = now.duration_since(mark.at).as_secs_f64();
        let per_s = |n: u64| n as f64 / secs;
        eprintln!(
            "TOTAL over {secs:.1} s after {} s warm-up: ui_fps={:.1} new_frames_shown/s={:.1} camera_fps={:.1} analysed/s={:.1} frame_cpu_ms={:.1} logic_ms={:.1}",
            WARM_UP.as_secs(),
            per_s(self.frames_total - mark.ui_frames),
            per_s(self.shown_total - mark.shown),
            per_s(self.capture_frames().saturating_sub(mark.captured)),
            per_s(self.analysed().saturating_sub(mark.analysed)),
            (self.cpu_total_s - mark.cpu_s) * 1000.0
                / (self.cpu_total_n.saturating_sub(mark.cpu_n)).max(1) as f64,
            (self.logic_s - mark.logic_s) * 1000.0
                / (self.logic_n.saturating_sub(mark.logic_n)).max(1) as f64,
        );
        eprintln!("rulings: {} commits seen over the whole run", self.commits);
        // Clock ticks are 1/100 s on Linux.
        let ticks_per_s = 100.0;
        let mut rows: Vec<(String, f64)> = thread_ticks()
            .into_iter()
            .map(|(name, t)| {
                let used = t.saturating_sub(mark.ticks.get(&name).copied().unwrap_or(0));
                (name, used as f64 / ticks_per_s / secs * 100.0)
            })
            .filter(|(_, pct)| *pct >= 0.5)
            .collect();
        rows.sort_by(|a, b| b.1.total_cmp(&a.1));
        let total: f64 = rows.iter().map(|r| r.1).sum();
        let split: Vec<String> = rows.iter().map(|(n, p)| format!("{n} {p:.0}%")).collect();
        eprintln!("CPU (% of one core) total {total:.0}%: {}", split.join(", "));
    }
}

impl eframe::App for Probe {
    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        self.app.clear_color(visuals)
    }

    fn logic(&mut self, ctx: &egui::Context, frame: &mut eframe::Frame) {
        let t = Instant::now();
        self.app.logic(ctx, frame);
        self.logic_s += t.elapsed().as_secs_f64();
        self.logic_n += 1;
    }

    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        if let Some(cpu) = frame.info().cpu_usage {
            self.cpu_s += f64::from(cpu);
            self.cpu_n += 1;
            self.cpu_total_s += f64::from(cpu);
            self.cpu_total_n += 1;
        }
        self.app.ui(ui, frame);
        self.frames += 1;
        self.frames_total += 1;
        let seq = self.app.live().shown_seq();
        if seq.is_some() && seq != self.last_seq {
            self.shown += 1;
            self.shown_total += 1;
            self.last_seq = seq;
        }
        let commit = self
            .app
            .referee_snapshot()
            .and_then(|s| s.committed.as_ref())
            .map(|c| c.seq);
        if commit.is_some() && commit != self.last_commit {
            self.commits += 1;
            self.last_commit = commit;
        }
        let now = Instant::now();
        if self.measured_from.is_none() && now.duration_since(self.start) >= WARM_UP {
            self.measured_from = Some(Mark {
                at: now,
                ui_frames: self.frames_total,
                shown: self.shown_total,
                ticks: thread_ticks(),
                captured: self.capture_frames(),
                analysed: self.analysed(),
                cpu_s: self.cpu_total_s,
                cpu_n: self.cpu_total_n,
                logic_s: self.logic_s,
                logic_n: self.logic_n,
            });
        }
        let since = now.duration_since(self.last_report);
        if since >= Duration::from_secs(1) {
            let dt = since.as_secs_f64();
            eprintln!(
                "t={:5.1}s ui_fps={:5.1} new_frames_shown/s={:5.1} cam_fps={:?} analysis_ms={:?} frame_cpu_ms={:.1}",
                now.duration_since(self.start).as_secs_f64(),
                self.frames as f64 / dt,
                self.shown as f64 / dt,
                self.app.live().fps().map(|f| (f * 10.0).round() / 10.0),
                self.app.live().analysis_ms().map(f64::round),
                self.cpu_s * 1000.0 / f64::from(self.cpu_n.max(1)),
            );
            self.cpu_s = 0.0;
            self.cpu_n = 0;
            self.frames = 0;
            self.shown = 0;
            self.last_report = now;
        }
        if !self.done && now.duration_since(self.start) >= Duration::from_secs(self.seconds) {
            self.done = true;
            self.report_totals(now);
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }
}

/// With `PROBE_AREAS=1`: once, after the warm-up, prints how many pixels the frame's triangles
/// cover (each clipped primitive, by texture), which is what a software rasteriser pays for.
struct AreaReport {
    start: Instant,
    done: bool,
}

impl egui::Plugin for AreaReport {
    fn debug_name(&self) -> &'static str {
        "probe_areas"
    }

    fn output_hook(&mut self, ctx: &egui::Context, output: &mut egui::FullOutput) {
        if self.done || self.start.elapsed() < WARM_UP {
            return;
        }
        self.done = true;
        let ppp = output.pixels_per_point;
        let prims = ctx.tessellate(output.shapes.clone(), ppp);
        let mut total = 0.0;
        let mut rows = Vec::new();
        for p in &prims {
            let egui::epaint::Primitive::Mesh(m) = &p.primitive else {
                continue;
            };
            let clip = p.clip_rect;
            let mut area = 0.0f64;
            for t in m.indices.chunks_exact(3) {
                let v = |i: u32| m.vertices[i as usize].pos;
                let (a, b, c) = (v(t[0]), v(t[1]), v(t[2]));
                let bb = egui::Rect::from_points(&[a, b, c]);
                let inside = bb.intersect(clip);
                if !inside.is_positive() {
                    continue;
                }
                let tri = ((b - a).x * (c - a).y - (b - a).y * (c - a).x).abs() * 0.5;
                // Clipped share approximated by the bounding box's.
                let share = inside.area() / bb.area().max(1e-6);
                area += f64::from(tri * share * ppp * ppp);
            }
            total += area;
            rows.push((area, m.texture_id, m.indices.len() / 3, clip));
        }
        rows.sort_by(|a, b| b.0.total_cmp(&a.0));
        let screen = ctx.content_rect().area() * ppp * ppp;
        eprintln!(
            "AREAS: {} primitives, triangles cover {:.0} px = {:.2} windows ({:.0} px)",
            prims.len(),
            total,
            total / f64::from(screen),
            screen
        );
        for (area, tex, tris, clip) in rows.iter().take(15) {
            eprintln!("  {area:9.0} px  {tex:?}  {tris} triangles  clip {clip:?}");
        }
    }
}

fn main() -> anyhow::Result<()> {
    let seconds = std::env::var("PROBE_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_SECONDS);
    let dir = std::env::var("OCTOREF_CONFIG_DIR")
        .map_err(|_| anyhow::anyhow!("set OCTOREF_CONFIG_DIR to a scratch directory"))?;
    let options = AppOptions {
        config_dir: dir.into(),
        args: AppArgs {
            demo: true,
            ..AppArgs::default()
        },
        source: Some(SourceChoice::Demo(DemoReason::Asked)),
        cameras: Some(Ok(Vec::new())),
    };
    let native = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default().with_inner_size(window_size()),
        // As the app chooses it (`OCTOREF_RENDERER`).
        renderer: octoref::app::renderer_from_env()?,
        ..Default::default()
    };
    eframe::run_native(
        "octoref-probe",
        native,
        Box::new(move |cc| {
            if let Some(rs) = &cc.wgpu_render_state {
                let a = rs.adapter.get_info();
                eprintln!(
                    "renderer: wgpu {:?} on {} ({:?})",
                    a.backend, a.name, a.device_type
                );
            }
            if cc.gl.is_some() {
                eprintln!("renderer: glow (OpenGL)");
            }
            if std::env::var_os("PROBE_AREAS").is_some() {
                cc.egui_ctx.add_plugin(AreaReport {
                    start: Instant::now(),
                    done: false,
                });
            }
            let app = OctorefApp::new(&cc.egui_ctx, options);
            // As `octoref::app::run` opens it, unless PROBE_PANEL_FILL=1 (the app as it was).
            let app = if std::env::var_os("PROBE_PANEL_FILL").is_some() {
                app
            } else {
                app.with_panel_fill_from_clear()
            };
            let now = Instant::now();
            Ok(Box::new(Probe {
                app,
                start: now,
                last_report: now,
                seconds,
                frames: 0,
                shown: 0,
                last_seq: None,
                measured_from: None,
                frames_total: 0,
                shown_total: 0,
                commits: 0,
                last_commit: None,
                done: false,
                cpu_s: 0.0,
                cpu_n: 0,
                cpu_total_s: 0.0,
                cpu_total_n: 0,
                logic_s: 0.0,
                logic_n: 0,
            }))
        }),
    )
    .map_err(|e| anyhow::anyhow!("cannot open the probe's window: {e}"))
}
