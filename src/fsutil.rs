//! Files that are never half-written, and JSON inputs whose errors name the field.

use serde::de::DeserializeOwned;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Largest input file octoref reads as JSON/TOML (a game record or profile is a few hundred kB).
pub const MAX_INPUT_BYTES: u64 = 64 * 1024 * 1024;

/// Why a file could not be read, written or understood. Every message names the file.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    #[error("{path}: {message}")]
    Io { path: PathBuf, message: String },
    #[error("{path}: field `{field}`: {message}")]
    Invalid {
        path: PathBuf,
        field: String,
        message: String,
    },
}

impl FileError {
    pub fn io(path: &Path, e: &std::io::Error) -> Self {
        FileError::Io {
            path: path.to_path_buf(),
            message: e.to_string(),
        }
    }
}

/// Reads a whole regular file, refusing directories, devices and files over [`MAX_INPUT_BYTES`].
pub fn read_input(path: &Path) -> Result<Vec<u8>, FileError> {
    let meta = std::fs::metadata(path).map_err(|e| FileError::io(path, &e))?;
    if !meta.is_file() {
        return Err(FileError::Io {
            path: path.to_path_buf(),
            message: "not a regular file (expected a file, got a directory or a device)".into(),
        });
    }
    if meta.len() > MAX_INPUT_BYTES {
        return Err(FileError::Io {
            path: path.to_path_buf(),
            message: format!(
                "file is {} bytes; at most {MAX_INPUT_BYTES} are accepted",
                meta.len()
            ),
        });
    }
    std::fs::read(path).map_err(|e| FileError::io(path, &e))
}

/// Parses JSON text; on error the message names the path to the bad field
/// (e.g. `players[1].loaded[0]`), the line and column, and what was expected.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8], path: &Path) -> Result<T, FileError> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let field = e.path().to_string();
        let inner = e.into_inner();
        FileError::Invalid {
            path: path.to_path_buf(),
            field: if field == "." { "(document)".into() } else { field },
            message: inner.to_string(),
        }
    })?;
    de.end().map_err(|e| FileError::Invalid {
        path: path.to_path_buf(),
        field: "(document)".into(),
        message: e.to_string(),
    })?;
    Ok(value)
}

/// Reads and parses a JSON file (see [`read_input`] and [`parse_json`]).
pub fn read_json<T: DeserializeOwned>(path: &Path) -> Result<T, FileError> {
    parse_json(&read_input(path)?, path)
}

/// Writes `bytes` to `path` atomically: a temporary file in the same directory is written,
/// flushed to disk, then renamed over `path`, and the directory is synced. A crash leaves either
/// the old file or the new one, never a mix.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| FileError::Io {
            path: path.to_path_buf(),
            message: "expected a file path, not a directory".into(),
        })?;
    if path.is_dir() {
        return Err(FileError::Io {
            path: path.to_path_buf(),
            message: "is a directory; expected a file path".into(),
        });
    }
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)?;
        if let Ok(d) = std::fs::File::open(&dir) {
            // Directory fsync makes the rename durable; not every filesystem supports it.
            let _ = d.sync_all();
        }
        Ok::<(), std::io::Error>(())
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(FileError::io(path, &e));
    }
    Ok(())
}

/// Serialises `value` as pretty JSON and writes it atomically.
pub fn write_json_atomic<T: serde::Serialize>(path: &Path, value: &T) -> Result<(), FileError> {
    let mut text = serde_json::to_vec_pretty(value).map_err(|e| FileError::Io {
        path: path.to_path_buf(),
        message: format!("cannot serialise: {e}"),
    })?;
    text.push(b'\n');
    write_atomic(path, &text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Doc {
        players: Vec<Player>,
    }
    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Player {
        name: String,
        count: u32,
    }

    #[test]
    fn json_errors_name_the_field() {
        let err = parse_json::<Doc>(
            br#"{"players":[{"name":"a","count":1},{"name":"b","count":"x"}]}"#,
            Path::new("f.json"),
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("f.json") && err.contains("players[1].count"),
            "{err}"
        );
    }

    #[test]
    fn atomic_write_replaces_and_leaves_no_temp() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.json");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        assert!(write_atomic(dir.path(), b"x").is_err());
        assert!(read_input(dir.path()).is_err());
    }
}
