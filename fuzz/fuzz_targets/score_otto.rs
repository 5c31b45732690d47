//! `octoref score otto FILE`: any bytes as `record \0 board.toml \0 tiles.toml`; an empty (or
//! missing) board or tile set is the built-in one. Scored boards must never hold joined arms.
#![no_main]
use libfuzzer_sys::fuzz_target;
use octoref::cli::score::otto::{breakdown, score_parsed, summary};
use octoref::fsutil::parse_json;
use octoref::games::otto::{BoardLayout, GameRecord, TileSet};
use octoref_fuzz::{assert_no_joined_arms, fuzz_path, split_parts};

fuzz_target!(|data: &[u8]| {
    let parts = split_parts(data, 3);
    let Ok(record) = parse_json::<GameRecord>(parts[0], fuzz_path()) else {
        return;
    };
    let layout = if parts[1].is_empty() {
        BoardLayout::default_layout()
    } else {
        BoardLayout::from_toml_str(&String::from_utf8_lossy(parts[1]), "board.toml")
    };
    let tiles = if parts[2].is_empty() {
        TileSet::default_set()
    } else {
        TileSet::from_toml_str(&String::from_utf8_lossy(parts[2]), "tiles.toml")
    };
    let (Ok(layout), Ok(tiles)) = (layout, tiles) else {
        return;
    };
    if let Ok(report) = score_parsed(&record, layout, &tiles, fuzz_path()) {
        let _ = summary(&report);
        let _ = breakdown(&report, &tiles);
        let _ = serde_json::to_string(&report).unwrap();
        if let Some(board) = &report.final_board {
            assert_no_joined_arms(board);
        }
    }
});
