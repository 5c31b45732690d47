//! The calibration profile loader (`calibrate::profile::Profile::load`): any bytes as the file.
//! Loading only; the loader takes a path, so the bytes go through a scratch file.
#![no_main]
use libfuzzer_sys::fuzz_target;
use octoref::calibrate::profile::Profile;
use octoref_fuzz::scratch_file;

fuzz_target!(|data: &[u8]| {
    let path = scratch_file("profile.json");
    std::fs::write(&path, data).unwrap();
    if let Ok(p) = Profile::load(&path) {
        let _ = serde_json::to_string(&p).unwrap();
    }
});
