//! A saved Otto board (JSON: layout and placements): whatever loads never holds joined arms, and
//! saves and loads back to the same board.
#![no_main]
use libfuzzer_sys::fuzz_target;
use octoref::games::otto::Board;
use octoref_fuzz::assert_no_joined_arms;

fuzz_target!(|data: &[u8]| {
    if let Ok(board) = serde_json::from_slice::<Board>(data) {
        assert_no_joined_arms(&board);
        let saved = serde_json::to_string(&board).unwrap();
        let again: Board = serde_json::from_str(&saved).unwrap();
        assert_eq!(again.placements(), board.placements());
    }
});
