//! The referee's worker runs below the rest of the app: on a 2-core machine the UI thread and the
//! software rasteriser (Mesa's llvmpipe, two threads) need most of both cores to draw the demo at
//! the camera's 15 fps, and vision alone can take a whole core. Measured (README, "Responsiveness"):
//! with the worker at the app's own priority the UI drew 5-10 frames a second. A lower priority
//! (a higher niceness) lets the scheduler hand the worker only what the UI leaves: the picture
//! keeps the camera's pace, the referee analyses fewer frames (the newest frame still wins) and
//! rulings come a little later, never wrong.
//!
//! Linux only (a thread's niceness is per thread there, set by `setpriority(PRIO_PROCESS, tid)`),
//! through rustix's safe wrappers; elsewhere [`lower_this_thread`] does nothing.

/// How many steps of niceness the worker runs below the thread that starts it. 10 of the 40 steps
/// gives it about a tenth of a core's share when the UI wants the core too (the kernel's weights:
/// 1024 at niceness 0, 110 at 10), and everything when the UI is idle.
pub const WORKER_NICENESS_STEPS: i32 = 10;

/// The highest (least favoured) niceness Linux allows.
pub const MAX_NICENESS: i32 = 19;

/// The niceness a thread at `current` is given: [`WORKER_NICENESS_STEPS`] higher, at most
/// [`MAX_NICENESS`]. Only ever higher: an unprivileged process may not lower it again.
pub fn lowered(current: i32) -> i32 {
    current.saturating_add(WORKER_NICENESS_STEPS).min(MAX_NICENESS)
}

/// Lowers the calling thread's priority by [`WORKER_NICENESS_STEPS`] (its niceness after, or the
/// error). A no-op returning `Ok(None)` where there is no per-thread niceness.
pub fn lower_this_thread() -> std::io::Result<Option<i32>> {
    imp::lower_this_thread()
}

/// The calling thread's niceness, where there is one (for tests and diagnostics).
pub fn this_thread_niceness() -> std::io::Result<Option<i32>> {
    imp::this_thread_niceness()
}

#[cfg(target_os = "linux")]
mod imp {
    use rustix::process::{Pid, getpriority_process, setpriority_process};
    use std::io;

    /// This thread's id, from `/proc/thread-self` (a link to `<pid>/task/<tid>`): std has no
    /// `gettid`, and this needs no unsafe code.
    fn this_tid() -> io::Result<Pid> {
        let link = std::fs::read_link("/proc/thread-self")?;
        link.file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.parse::<i32>().ok())
            .and_then(Pid::from_raw)
            .ok_or_else(|| io::Error::other(format!("no thread id in {}", link.display())))
    }

    pub fn this_thread_niceness() -> io::Result<Option<i32>> {
        Ok(Some(getpriority_process(Some(this_tid()?))?))
    }

    pub fn lower_this_thread() -> io::Result<Option<i32>> {
        let tid = this_tid()?;
        let wanted = super::lowered(getpriority_process(Some(tid))?);
        setpriority_process(Some(tid), wanted)?;
        Ok(Some(getpriority_process(Some(tid))?))
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    pub fn this_thread_niceness() -> std::io::Result<Option<i32>> {
        Ok(None)
    }

    pub fn lower_this_thread() -> std::io::Result<Option<i32>> {
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lowered_adds_the_steps_and_stops_at_the_least_favoured_niceness() {
        assert_eq!(lowered(0), 10);
        assert_eq!(lowered(5), 15);
        assert_eq!(lowered(15), MAX_NICENESS);
        assert_eq!(lowered(MAX_NICENESS), MAX_NICENESS);
        assert_eq!(lowered(-5), 5);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn lowering_a_thread_raises_its_niceness_and_leaves_the_others_alone() {
        let before = this_thread_niceness().unwrap().unwrap();
        let after = std::thread::spawn(|| {
            let own = this_thread_niceness().unwrap().unwrap();
            let after = lower_this_thread().unwrap().unwrap();
            assert_eq!(this_thread_niceness().unwrap(), Some(after));
            (own, after)
        })
        .join()
        .unwrap();
        assert_eq!(after, (before, lowered(before)));
        assert_eq!(
            this_thread_niceness().unwrap(),
            Some(before),
            "only the thread that asked is lowered"
        );
    }

    /// The niceness of every thread of this process named `name` (from `/proc/self/task`).
    #[cfg(target_os = "linux")]
    fn niceness_of_threads_named(name: &str) -> Vec<i32> {
        let mut out = Vec::new();
        for task in std::fs::read_dir("/proc/self/task").unwrap().flatten() {
            let comm = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
            if comm.trim_end() != name {
                continue;
            }
            let stat = std::fs::read_to_string(task.path().join("stat")).unwrap_or_default();
            // After "(comm)" the fields start at `state` (field 3); niceness is field 19.
            let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 1..].split_whitespace().collect();
            out.push(fields[16].parse().unwrap());
        }
        out
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_referee_worker_runs_below_the_thread_that_started_it() {
        use crate::live::{LiveCalibration, LiveConfig, LiveReferee};
        let base = this_thread_niceness().unwrap().unwrap();
        let referee = LiveReferee::start(
            LiveCalibration::demo().unwrap(),
            crate::table::Catalog::default_catalog(),
            crate::referee::GameContext::default(),
            LiveConfig::default(),
            Box::new(|| {}),
        )
        .unwrap();
        // The worker lowers itself first thing; wait for it (not a timing test: any delay passes).
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        let mut seen = niceness_of_threads_named("octoref-live");
        while !seen.contains(&lowered(base)) && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(20));
            seen = niceness_of_threads_named("octoref-live");
        }
        drop(referee);
        assert!(
            seen.contains(&lowered(base)),
            "octoref-live threads' niceness {seen:?}, wanted {}",
            lowered(base)
        );
    }
}
