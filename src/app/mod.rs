//! The desktop app (eframe/egui).

use crate::cli::AppArgs;

/// Opens the desktop app.
pub fn run(args: &AppArgs) -> anyhow::Result<()> {
    let _ = args;
    anyhow::bail!("the app is not built yet")
}
