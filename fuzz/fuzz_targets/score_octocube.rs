//! `octoref score octocube FILE`: any bytes as the final-scoring input.
#![no_main]
use libfuzzer_sys::fuzz_target;
use octoref::cli::score::octocube::{report, score_bytes, summary};
use octoref_fuzz::fuzz_path;

fuzz_target!(|data: &[u8]| {
    if let Ok(score) = score_bytes(data, fuzz_path()) {
        let _ = report(&score);
        let _ = summary(&score);
        let _ = serde_json::to_string(&score).unwrap();
        assert!(score.players.iter().any(|p| p.winner));
    }
});
