//! Paces file sources (video, image folder, fake) at a frame rate, as a camera would deliver.

use super::{CaptureError, StopSignal};
use std::time::{Duration, Instant};

/// Slowest pacing accepted: one frame every 100 s. Anything slower is a configuration mistake.
pub const MIN_PACED_FPS: f64 = 0.01;
/// Fastest pacing accepted; above this a paced source is effectively unpaced.
pub const MAX_PACED_FPS: f64 = 1000.0;

/// Releases one frame per period. When the consumer of the pacer falls behind by more than a
/// period (a slow decode, a busy machine), the schedule restarts from now instead of bursting to
/// catch up, so frames are never released faster than the rate.
#[derive(Debug, Clone)]
pub struct Pacer {
    period: Option<Duration>,
    next_due: Option<Instant>,
}

impl Pacer {
    /// A pacer at `fps` frames per second (clamped to [`MIN_PACED_FPS`]..=[`MAX_PACED_FPS`]);
    /// `None`, zero, negative or non-finite rates mean "as fast as possible".
    pub fn new(fps: Option<f64>) -> Self {
        let period = fps
            .filter(|f| f.is_finite() && *f > 0.0)
            .map(|f| Duration::from_secs_f64(1.0 / f.clamp(MIN_PACED_FPS, MAX_PACED_FPS)));
        Pacer {
            period,
            next_due: None,
        }
    }

    /// The time between frames, when paced.
    pub fn period(&self) -> Option<Duration> {
        self.period
    }

    /// Forgets the schedule: the next frame is released at once (after a reopen or a seek).
    pub fn reset(&mut self) {
        self.next_due = None;
    }

    /// Waits until the next frame is due. The first call returns at once.
    pub fn wait(&mut self, stop: &StopSignal) -> Result<(), CaptureError> {
        let Some(period) = self.period else {
            return if stop.is_stopped() {
                Err(CaptureError::Stopped)
            } else {
                Ok(())
            };
        };
        let now = Instant::now();
        let due = match self.next_due {
            Some(due) if due + period >= now => due,
            _ => now,
        };
        if stop.sleep_until(due) {
            return Err(CaptureError::Stopped);
        }
        self.next_due = Some(due + period);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unpaced_returns_at_once_and_paced_spaces_frames() {
        let stop = StopSignal::new();
        let mut fast = Pacer::new(None);
        assert!(fast.period().is_none());
        fast.wait(&stop).unwrap();

        let mut p = Pacer::new(Some(50.0));
        assert_eq!(p.period(), Some(Duration::from_millis(20)));
        let start = Instant::now();
        for _ in 0..4 {
            p.wait(&stop).unwrap();
        }
        // Four releases at 50 fps span at least three periods; a lower bound only.
        assert!(start.elapsed() >= Duration::from_millis(60));
    }

    #[test]
    fn nonsense_rates_mean_unpaced_and_stop_interrupts() {
        assert!(Pacer::new(Some(0.0)).period().is_none());
        assert!(Pacer::new(Some(f64::NAN)).period().is_none());
        assert!(Pacer::new(Some(-3.0)).period().is_none());
        let stop = StopSignal::new();
        stop.stop();
        let mut p = Pacer::new(Some(MIN_PACED_FPS));
        assert_eq!(p.wait(&stop), Err(CaptureError::Stopped));
    }
}
