//! `octoref bench [--scenes N] [--seed S] [--frames F] [--json]`: accuracy and speed on rendered
//! scenes (`vision::bench`). It is a measurement: it exits 0 whether or not the bar is met, and
//! says which on its last line.

use super::{CliError, CliResult, emit_json};
use crate::vision::bench::{self, BenchConfig, BenchReport};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::fmt::Write as _;
use std::io::{IsTerminal, Write};

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// How many synthetic scenes to render, calibrate and analyse.
    #[arg(long, default_value_t = 30)]
    pub scenes: u32,
    /// Seed of the first scene (scene i uses seed + i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Game frames per scene.
    #[arg(long, default_value_t = bench::DEFAULT_FRAMES_PER_SCENE as u32)]
    pub frames: u32,
    /// Threads that render and calibrate scenes (at most 2).
    #[arg(long, default_value_t = bench::MAX_THREADS as u32)]
    pub threads: u32,
    /// Threads each frame is analysed on (default: the machine's cores, at most 8).
    #[arg(long)]
    pub analysis_threads: Option<u32>,
    /// Print the whole report as one JSON document instead of the table.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &BenchArgs) -> CliResult {
    let config = BenchConfig {
        scenes: args.scenes as usize,
        seed: args.seed,
        frames_per_scene: args.frames as usize,
        threads: args.threads as usize,
        analysis_threads: args
            .analysis_threads
            .map_or_else(crate::vision::parallel::default_threads, |n| n as usize),
    };
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::with_draw_target(Some(bench::total_steps(&config)), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    if let Ok(style) =
        ProgressStyle::with_template("{spinner} {msg} [{bar:30}] {pos}/{len} steps, {elapsed} (eta {eta})")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(format!("{} scenes", config.scenes));
    let report = bench::run(&config, &|| bar.inc(1)).map_err(|e| match e {
        bench::BenchError::Worker => CliError::failed(e),
        _ => CliError::input(e),
    })?;
    bar.finish_and_clear();
    for s in report.scene_list.iter().filter_map(|s| s.error.as_deref()) {
        super::say(&format!("scene failed: {s}"));
    }
    if args.json {
        emit_json(&report)?;
        super::say(&verdict_line(&report));
    } else {
        let text = table(&report);
        let mut out = std::io::stdout().lock();
        write!(out, "{text}\n{}\n", verdict_line(&report)).map_err(CliError::failed)?;
    }
    Ok(())
}

/// The last line: PASS or FAIL against the bar, with what failed.
pub fn verdict_line(report: &BenchReport) -> String {
    if report.pass {
        "PASS: every figure meets the bar".to_string()
    } else {
        let failed: Vec<String> = report
            .checks
            .iter()
            .filter(|c| !c.pass)
            .map(|c| format!("{} {} (bar {})", c.name, c.value, c.bar))
            .collect();
        format!("FAIL: {}", failed.join("; "))
    }
}

fn opt_mm(v: Option<f64>) -> String {
    v.map_or_else(|| "-".to_string(), |x| format!("{x:.2}"))
}

/// The report as a plain aligned table.
pub fn table(r: &BenchReport) -> String {
    let mut s = String::new();
    let failed = r.scene_list.iter().filter(|x| x.error.is_some()).count();
    let _ = writeln!(
        s,
        "octoref bench: {} scenes ({} failed), {} frames ({} per scene), {}x{}, tilt {:.0}-{:.0} deg, {} thread{} rendering, {} analysing each frame",
        r.scenes,
        failed,
        r.frames,
        r.frames_per_scene,
        r.resolution[0],
        r.resolution[1],
        r.tilt_range_deg[0],
        r.tilt_range_deg[1],
        r.threads,
        if r.threads == 1 { "" } else { "s" },
        r.speed.analysis_threads
    );
    let seeds = match (r.seeds.first(), r.seeds.last()) {
        (Some(a), Some(b)) => format!("{a}..={b}"),
        _ => "-".into(),
    };
    let _ = writeln!(s, "seeds {seeds}");
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "{:<20} {:>9} {:>7} {:>5} {:>4} {:>4} {:>10}",
        "piece", "precision", "recall", "TP", "FP", "FN", "median mm"
    );
    for (k, row) in &r.kinds {
        let _ = writeln!(
            s,
            "{:<20} {:>9.3} {:>7.3} {:>5} {:>4} {:>4} {:>10}",
            k,
            row.precision,
            row.recall,
            row.true_positive,
            row.false_positive,
            row.false_negative,
            opt_mm(row.median_error_mm)
        );
    }
    let _ = writeln!(s);
    let pe = &r.position_error;
    let _ = writeln!(
        s,
        "position error (mm, {} matched): median {}  p95 {}  max {}",
        pe.matched,
        opt_mm(pe.median_mm),
        opt_mm(pe.p95_mm),
        opt_mm(pe.max_mm)
    );
    let _ = writeln!(s);
    let ru = &r.rulings;
    let agreement =
        |a: &bench::Agreement| format!("{:>5}/{:<5} {:>6.1} %", a.right, a.checked, 100.0 * a.share);
    let _ = writeln!(s, "rulings");
    let _ = writeln!(
        s,
        "  {:<36} {}",
        format!("closest right (margin >= {} mm)", ru.closest_margin_mm),
        agreement(&ru.closest)
    );
    let _ = writeln!(
        s,
        "  {:<36} {:>5}/{:<5} said",
        format!("too close to call (margin >= {} mm)", ru.clear_margin_mm),
        ru.clear_called_tie,
        ru.clear_checked
    );
    let _ = writeln!(s, "  {:<36} {}", "in/out of the ocean", agreement(&ru.ocean));
    let _ = writeln!(
        s,
        "  {:<36} {}",
        "loaded on the right ship",
        agreement(&ru.loaded)
    );
    let _ = writeln!(s, "  {:<36} {}", "crab on the counter", agreement(&ru.counter));
    let _ = writeln!(
        s,
        "  {:<36} {}",
        "beads read at set-up (scenes)",
        agreement(&ru.beads)
    );
    let _ = writeln!(s, "  {:<36} {}", "ink die top", agreement(&ru.die));
    let _ = writeln!(s, "  {:<36} {}", "obstructed flag", agreement(&ru.obstructed));
    let _ = writeln!(s, "  {:<36} {}", "view moved flag", agreement(&ru.view_moved));
    let _ = writeln!(s);
    let sp = &r.speed;
    let st = &sp.stages_ms;
    let _ = writeln!(
        s,
        "time per frame (ms; stages in thread time, analysis start to end on {} thread{})",
        sp.analysis_threads,
        if sp.analysis_threads == 1 { "" } else { "s" }
    );
    for (name, v) in [
        ("rectify", st.rectify_ms),
        ("foreground", st.foreground_ms),
        ("blobs", st.blobs_ms),
        ("classify", st.classify_ms),
        ("footprint", st.footprint_ms),
        ("counter", st.counter_ms),
        ("referee", st.referee_ms),
    ] {
        let _ = writeln!(s, "  {name:<36} {v:>8.2}");
    }
    let _ = writeln!(
        s,
        "  {:<36} {:>8.2}  (slowest frame {:.2})",
        "analysis", sp.analysis_ms, sp.max_analysis_ms
    );
    for (name, v) in [
        ("before the regions (wall clock)", st.before_regions_ms),
        ("the regions (wall clock)", st.regions_ms),
        ("after the regions (wall clock)", st.after_regions_ms),
    ] {
        let _ = writeln!(s, "    {name:<34} {v:>8.2}");
    }
    let _ = writeln!(
        s,
        "  {:<36} {:>8.2}",
        "reference pass (BGR->HSV + 5x5 blur)", sp.reference_ms
    );
    let _ = writeln!(s, "  {:<36} {:>8.2}x", "ratio", sp.ratio);
    let _ = writeln!(s);
    let _ = writeln!(s, "{:<38} {:>24} {:>12}", "bar", "value", "needs");
    for c in &r.checks {
        let _ = writeln!(
            s,
            "  {:<36} {:>24} {:>12} {}",
            c.name,
            c.value,
            c.bar,
            if c.pass { "ok" } else { "FAIL" }
        );
    }
    s
}
