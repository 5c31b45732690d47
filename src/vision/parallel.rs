//! Running a frame's independent pieces of work (its regions, the counter) on several threads.
//!
//! The caller may rely on: every task runs exactly once, on one thread, with that thread's own
//! state; results come back by task index whatever the threads and their timing, so a frame's
//! reading never depends on how many threads read it. A task that panics is reported as an
//! error, never propagated.

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A frame is never analysed on more threads than this: beyond it a frame's few regions no
/// longer keep the threads busy.
pub const MAX_THREADS: usize = 8;

/// A worker thread stopped before its tasks were done (a task panicked).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("an analysis worker thread stopped unexpectedly")]
pub struct WorkerLost;

/// The threads a frame is analysed on by default: the machine's cores, at most [`MAX_THREADS`].
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .clamp(1, MAX_THREADS)
}

/// Runs `task(state, i)` for every `i` of `order` (task indices below `n`, the costliest
/// first: threads take the next one as they finish) on up to `threads` threads, each with its
/// own `state` from `init`. Returns the results indexed by task; a task `order` leaves out has
/// `None`. With one thread (or one task) everything runs on the caller's thread.
pub fn run_tasks<S, T, I, F>(
    n: usize,
    order: &[usize],
    threads: usize,
    init: I,
    task: F,
) -> Result<Vec<Option<T>>, WorkerLost>
where
    T: Send,
    I: Fn() -> S + Sync,
    F: Fn(&mut S, usize) -> T + Sync,
{
    let mut out: Vec<Option<T>> = (0..n).map(|_| None).collect();
    let order: Vec<usize> = order.iter().copied().filter(|&i| i < n).collect();
    let threads = threads.clamp(1, MAX_THREADS).min(order.len());
    if threads <= 1 {
        let all = std::panic::catch_unwind(AssertUnwindSafe(|| {
            let mut state = init();
            order
                .iter()
                .map(|&i| (i, task(&mut state, i)))
                .collect::<Vec<_>>()
        }))
        .map_err(|_| WorkerLost)?;
        for (i, t) in all {
            out[i] = Some(t);
        }
        return Ok(out);
    }
    let next = AtomicUsize::new(0);
    let worker = || {
        let mut state = init();
        let mut done = Vec::new();
        while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
            done.push((i, task(&mut state, i)));
        }
        done
    };
    let finished: Option<Vec<Vec<(usize, T)>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads).map(|_| scope.spawn(worker)).collect();
        handles.into_iter().map(|h| h.join().ok()).collect()
    });
    for (i, t) in finished.ok_or(WorkerLost)?.into_iter().flatten() {
        out[i] = Some(t);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn every_task_runs_once_and_results_come_back_by_index() {
        for threads in [1, 2, 3, 8] {
            let runs = Mutex::new(vec![0usize; 20]);
            let order: Vec<usize> = (0..20).rev().collect();
            let out = run_tasks(
                20,
                &order,
                threads,
                || (),
                |_, i| {
                    runs.lock().unwrap()[i] += 1;
                    i * i
                },
            )
            .unwrap();
            assert_eq!(
                out,
                (0..20).map(|i| Some(i * i)).collect::<Vec<_>>(),
                "threads {threads}"
            );
            assert!(runs.lock().unwrap().iter().all(|&r| r == 1), "threads {threads}");
        }
    }

    #[test]
    fn tasks_left_out_of_the_order_have_no_result() {
        let out = run_tasks(4, &[2, 0, 9], 2, || (), |_, i| i).unwrap();
        assert_eq!(out, vec![Some(0), None, Some(2), None]);
    }

    #[test]
    fn each_thread_keeps_its_own_state() {
        // Every task sees a state no other thread touches: the count of tasks its thread ran.
        let out = run_tasks(
            50,
            &(0..50).collect::<Vec<_>>(),
            4,
            || 0usize,
            |seen, _| {
                *seen += 1;
                *seen
            },
        )
        .unwrap();
        let firsts = out.iter().filter(|r| **r == Some(1)).count();
        assert!((1..=4).contains(&firsts), "{firsts} threads started");
    }

    #[test]
    fn a_panicking_task_is_an_error_not_a_panic() {
        for threads in [1, 2] {
            let r = run_tasks(
                6,
                &[0, 1, 2, 3, 4, 5],
                threads,
                || (),
                |_, i| {
                    if i == 3 {
                        panic!("task 3");
                    }
                    i
                },
            );
            assert_eq!(r, Err(WorkerLost), "threads {threads}");
        }
    }
}
