//! `octoref score crash-octopus FILE`: any bytes as the score sheet.
#![no_main]
use libfuzzer_sys::fuzz_target;
use octoref::cli::score::crash_octopus::score_bytes;
use octoref_fuzz::fuzz_path;

fuzz_target!(|data: &[u8]| {
    if let Ok(ranking) = score_bytes(data, fuzz_path()) {
        let json = serde_json::to_string(&ranking).unwrap();
        assert!(!json.is_empty());
        assert!(ranking.entries.iter().all(|r| r.rank >= 1));
    }
});
