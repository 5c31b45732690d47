//! The piece catalog (`table::Catalog::from_toml_str`): any text.
#![no_main]
use libfuzzer_sys::fuzz_target;
use octoref::table::catalog::Catalog;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(c) = Catalog::from_toml_str(text, "catalog.toml") {
            let _ = format!("{c:?}");
        }
    }
});
