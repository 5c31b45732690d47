//! The demo's renderer: a thread that renders the table states the source will show next, and a
//! byte-bounded cache of the rendered pictures (JPEG, as a webcam's MJPEG would carry them).
//!
//! What the source may rely on: a state is rendered at most once while it stays in the cache;
//! the cache never holds more than its cap in bytes, except that it always keeps what is wanted
//! next; the thread renders the wanted states in the order asked and sleeps otherwise; stopping
//! waits for at most the render in progress.

use super::game::DemoGame;
use crate::synth::encode_jpeg;
use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// JPEG bytes of one rendered state.
pub(super) type Jpeg = Arc<Vec<u8>>;

/// Least-recently-used cache of rendered states, bounded in bytes.
#[derive(Debug)]
pub(super) struct JpegCache {
    entries: HashMap<usize, (Jpeg, u64)>,
    bytes: usize,
    cap_bytes: usize,
    clock: u64,
}

impl JpegCache {
    pub(super) fn new(cap_bytes: usize) -> Self {
        Self {
            entries: HashMap::new(),
            bytes: 0,
            cap_bytes,
            clock: 0,
        }
    }

    pub(super) fn contains(&self, key: usize) -> bool {
        self.entries.contains_key(&key)
    }

    /// The picture of `key`, marking it used.
    pub(super) fn get(&mut self, key: usize) -> Option<Jpeg> {
        self.clock += 1;
        let clock = self.clock;
        self.entries.get_mut(&key).map(|(jpeg, used)| {
            *used = clock;
            Arc::clone(jpeg)
        })
    }

    /// Stores `jpeg` for `key`, then drops the least recently used pictures not in `keep` until
    /// the cache fits its cap.
    pub(super) fn insert(&mut self, key: usize, jpeg: Jpeg, keep: &[usize]) {
        self.clock += 1;
        self.bytes += jpeg.len();
        if let Some((old, _)) = self.entries.insert(key, (jpeg, self.clock)) {
            self.bytes -= old.len();
        }
        while self.bytes > self.cap_bytes {
            let victim = self
                .entries
                .iter()
                .filter(|(k, _)| **k != key && !keep.contains(k))
                .min_by_key(|(_, (_, used))| *used)
                .map(|(k, _)| *k);
            let Some(victim) = victim else { break };
            if let Some((old, _)) = self.entries.remove(&victim) {
                self.bytes -= old.len();
            }
        }
    }

    pub(super) fn bytes(&self) -> usize {
        self.bytes
    }

    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }
}

#[derive(Debug)]
struct Queue {
    /// States wanted next, most urgent first.
    wanted: Vec<usize>,
    cache: JpegCache,
    stop: bool,
    renders: u64,
    failure: Option<String>,
}

/// State shared by the source and its renderer thread; outlives the thread, so a reopened
/// source finds its cache again.
#[derive(Debug)]
pub(super) struct RenderShared {
    queue: Mutex<Queue>,
    changed: Condvar,
}

fn lock(m: &Mutex<Queue>) -> MutexGuard<'_, Queue> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Counters of the renderer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RenderStats {
    /// States rendered since the source was made.
    pub renders: u64,
    /// Pictures in the cache and their size.
    pub cached: usize,
    pub cache_bytes: usize,
}

impl RenderShared {
    pub(super) fn new(cap_bytes: usize) -> Arc<Self> {
        Arc::new(Self {
            queue: Mutex::new(Queue {
                wanted: Vec::new(),
                cache: JpegCache::new(cap_bytes),
                stop: false,
                renders: 0,
                failure: None,
            }),
            changed: Condvar::new(),
        })
    }

    /// Asks for these states, most urgent first (replaces the previous wish).
    pub(super) fn want(&self, keys: &[usize]) {
        let mut q = lock(&self.queue);
        if q.wanted != keys {
            q.wanted = keys.to_vec();
            self.changed.notify_all();
        }
    }

    /// The picture of `key` if it is rendered.
    pub(super) fn get(&self, key: usize) -> Option<Jpeg> {
        lock(&self.queue).cache.get(key)
    }

    /// Waits up to `timeout` for `key`; the renderer's failure if it failed.
    pub(super) fn wait_for(&self, key: usize, timeout: Duration) -> Result<Option<Jpeg>, String> {
        let deadline = Instant::now() + timeout;
        let mut q = lock(&self.queue);
        loop {
            if let Some(f) = &q.failure {
                return Err(f.clone());
            }
            if let Some(jpeg) = q.cache.get(key) {
                return Ok(Some(jpeg));
            }
            let now = Instant::now();
            if now >= deadline {
                return Ok(None);
            }
            q = self
                .changed
                .wait_timeout(q, deadline - now)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    pub(super) fn failure(&self) -> Option<String> {
        lock(&self.queue).failure.clone()
    }

    pub(super) fn stats(&self) -> RenderStats {
        let q = lock(&self.queue);
        RenderStats {
            renders: q.renders,
            cached: q.cache.len(),
            cache_bytes: q.cache.bytes(),
        }
    }
}

/// The renderer thread; stopped and joined on drop.
#[derive(Debug)]
pub(super) struct Renderer {
    shared: Arc<RenderShared>,
    thread: Option<JoinHandle<()>>,
}

impl Renderer {
    pub(super) fn start(
        shared: &Arc<RenderShared>,
        game: Arc<DemoGame>,
        quality: u8,
    ) -> std::io::Result<Self> {
        lock(&shared.queue).stop = false;
        let thread = {
            let shared = Arc::clone(shared);
            std::thread::Builder::new()
                .name("octoref-demo-render".into())
                .spawn(move || run(&shared, &game, quality))?
        };
        Ok(Self {
            shared: Arc::clone(shared),
            thread: Some(thread),
        })
    }
}

impl Drop for Renderer {
    fn drop(&mut self) {
        lock(&self.shared.queue).stop = true;
        self.shared.changed.notify_all();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn run(shared: &RenderShared, game: &DemoGame, quality: u8) {
    loop {
        let key = {
            let mut q = lock(&shared.queue);
            loop {
                if q.stop {
                    return;
                }
                let next = if q.failure.is_none() {
                    q.wanted.iter().copied().find(|k| !q.cache.contains(*k))
                } else {
                    None
                };
                if let Some(k) = next {
                    break k;
                }
                q = shared.changed.wait(q).unwrap_or_else(PoisonError::into_inner);
            }
        };
        let rendered = game
            .render(key)
            .and_then(|img| Ok(encode_jpeg(&img, quality)?))
            .map_err(|e| format!("rendering demo state {key}: {e}"));
        let mut q = lock(&shared.queue);
        match rendered {
            Ok(bytes) => {
                let keep = q.wanted.clone();
                q.cache.insert(key, Arc::new(bytes), &keep);
                q.renders += 1;
            }
            Err(e) => {
                tracing::warn!("{e}");
                q.failure = Some(e);
            }
        }
        shared.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jpeg(n: usize) -> Jpeg {
        Arc::new(vec![0u8; n])
    }

    #[test]
    fn the_cache_keeps_to_its_cap_dropping_the_least_recently_used() {
        let mut c = JpegCache::new(300);
        c.insert(1, jpeg(100), &[]);
        c.insert(2, jpeg(100), &[]);
        c.insert(3, jpeg(100), &[]);
        assert_eq!((c.len(), c.bytes()), (3, 300));
        assert!(c.get(1).is_some());
        c.insert(4, jpeg(100), &[]);
        assert!(c.bytes() <= 300);
        assert!(c.contains(1) && !c.contains(2), "2 was the least recently used");
        c.insert(5, jpeg(100), &[3]);
        assert!(c.contains(3) && !c.contains(1) && c.contains(4) && c.contains(5));
        assert_eq!(c.bytes(), 300);
    }

    #[test]
    fn what_is_wanted_next_stays_even_over_the_cap() {
        let mut c = JpegCache::new(150);
        c.insert(1, jpeg(100), &[]);
        c.insert(2, jpeg(100), &[1, 2]);
        assert!(c.contains(1) && c.contains(2));
        assert_eq!(c.bytes(), 200);
        c.insert(3, jpeg(100), &[3]);
        assert_eq!((c.len(), c.bytes()), (1, 100));
        c.insert(3, jpeg(50), &[]);
        assert_eq!(
            (c.len(), c.bytes()),
            (1, 50),
            "replacing an entry counts its new size"
        );
    }
}
