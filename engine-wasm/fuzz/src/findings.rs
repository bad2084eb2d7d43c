//! Writing a minimized input where a developer finds it: `engine-wasm/fuzz/findings/`
//! (ignored by git), one `.sql` file holding exactly the bytes that fail, and a
//! `.txt` beside it saying what failed and how to replay it.

use std::path::{Path, PathBuf};

/// Where findings go unless told otherwise.
pub fn default_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("findings")
}

/// What to record about one finding.
pub struct Record<'a> {
    /// `panic`, `hang`, `unpositioned` or `crash`.
    pub kind: &'a str,
    /// `pg`, `yb`, `decode`, or `process` for a crash.
    pub stage: &'a str,
    pub seed: u64,
    pub index: u64,
    /// The finding as printed.
    pub description: &'a str,
    pub original_len: usize,
    pub minimized: &'a [u8],
}

/// Writes `record` under `dir`; returns the `.sql` file's path.
pub fn save(dir: &Path, record: &Record) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let stem = format!(
        "{}-{}-seed{}-input{}",
        record.kind, record.stage, record.seed, record.index
    );
    let sql = dir.join(format!("{stem}.sql"));
    std::fs::write(&sql, record.minimized)?;
    let about = format!(
        "{}\n\ninput {} of seed {}: {} bytes, minimized to {}.\n\
         Replay: cargo run --profile harness -p indexlab-fuzz --bin fuzz -- --replay {}\n\
         Regenerate the original: npm run fuzz -- --seed {} --from {} --n 1\n",
        record.description,
        record.index,
        record.seed,
        record.original_len,
        record.minimized.len(),
        sql.display(),
        record.seed,
        record.index,
    );
    std::fs::write(dir.join(format!("{stem}.txt")), about)?;
    Ok(sql)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saves_the_bytes_and_a_note() {
        let dir = std::env::temp_dir().join(format!("indexlab-fuzz-test-{}", std::process::id()));
        let path = save(
            &dir,
            &Record {
                kind: "panic",
                stage: "pg",
                seed: 3,
                index: 17,
                description: "panic on pg: boom",
                original_len: 99,
                minimized: b"select \xff;",
            },
        )
        .unwrap();
        assert!(path.ends_with("panic-pg-seed3-input17.sql"));
        assert_eq!(std::fs::read(&path).unwrap(), b"select \xff;");
        let note = std::fs::read_to_string(path.with_extension("txt")).unwrap();
        assert!(note.starts_with("panic on pg: boom"), "{note}");
        assert!(note.contains("--seed 3 --from 17 --n 1"), "{note}");
        std::fs::remove_dir_all(dir).unwrap();
    }
}
