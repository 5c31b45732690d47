//! `octoref replay crash-octopus FILE [--rules RULES.toml]`: any bytes as `record \0 rules.toml`;
//! empty rules are the built-in data.
#![no_main]
use libfuzzer_sys::fuzz_target;
use octoref::cli::replay::replay_bytes;
use octoref::games::crash_octopus::RulesData;
use octoref_fuzz::{fuzz_path, split_parts};

fuzz_target!(|data: &[u8]| {
    let parts = split_parts(data, 2);
    let rules = if parts[1].is_empty() {
        RulesData::builtin()
    } else {
        RulesData::from_toml_str(&String::from_utf8_lossy(parts[1]), "rules.toml")
    };
    let Ok(rules) = rules else { return };
    if let Ok(summary) = replay_bytes(parts[0], fuzz_path(), &rules) {
        let _ = summary.status_lines(true);
        let _ = summary.status_lines(false);
        let _ = serde_json::to_string(&summary).unwrap();
    }
});
