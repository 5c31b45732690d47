//! A stop request that waiting code can sleep on and be woken by.

use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// A shared "please stop" flag. Clones share the flag. Sleeping through [`StopSignal::sleep`]
/// returns early as soon as [`StopSignal::stop`] is called from any thread.
#[derive(Debug, Clone, Default)]
pub struct StopSignal {
    inner: Arc<(Mutex<bool>, Condvar)>,
}

impl StopSignal {
    /// A signal that has not been raised.
    pub fn new() -> Self {
        Self::default()
    }

    /// Raises the signal and wakes every sleeper.
    pub fn stop(&self) {
        let (flag, cv) = &*self.inner;
        *flag.lock().unwrap_or_else(PoisonError::into_inner) = true;
        cv.notify_all();
    }

    /// True once [`StopSignal::stop`] was called.
    pub fn is_stopped(&self) -> bool {
        *self.inner.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Sleeps for `duration` unless stopped first. Returns true when the signal was raised.
    pub fn sleep(&self, duration: Duration) -> bool {
        self.sleep_until(Instant::now() + duration)
    }

    /// Sleeps until `deadline` unless stopped first. Returns true when the signal was raised.
    pub fn sleep_until(&self, deadline: Instant) -> bool {
        let (flag, cv) = &*self.inner;
        let mut stopped = flag.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if *stopped {
                return true;
            }
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            stopped = cv
                .wait_timeout(stopped, deadline - now)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_wakes_a_sleeper_early() {
        let s = StopSignal::new();
        let s2 = s.clone();
        let t = std::thread::spawn(move || {
            let start = Instant::now();
            let stopped = s2.sleep(Duration::from_secs(60));
            (stopped, start.elapsed())
        });
        std::thread::sleep(Duration::from_millis(20));
        s.stop();
        let (stopped, waited) = t.join().unwrap();
        assert!(stopped);
        assert!(waited < Duration::from_secs(30));
        assert!(s.is_stopped());
        assert!(s.sleep(Duration::from_secs(60)));
    }

    #[test]
    fn sleep_without_stop_runs_out() {
        let s = StopSignal::new();
        assert!(!s.sleep(Duration::from_millis(5)));
        assert!(!s.is_stopped());
    }
}
