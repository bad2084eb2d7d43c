//! Where PostgreSQL's server programs are.

use std::path::{Path, PathBuf};

/// The folder holding `initdb` and `postgres`: `$INDEXLAB_PG_BIN`, else the
/// newest of Debian's `/usr/lib/postgresql/<version>/bin`, else the folder of
/// an `initdb` on the PATH.
pub fn find() -> Result<PathBuf, String> {
    if let Ok(dir) = std::env::var("INDEXLAB_PG_BIN") {
        let dir = PathBuf::from(dir);
        return if has_server(&dir) {
            Ok(dir)
        } else {
            Err(format!(
                "INDEXLAB_PG_BIN={} has no initdb and postgres",
                dir.display()
            ))
        };
    }
    let mut debian: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let version = e.file_name().to_str()?.parse::<u32>().ok()?;
            Some((version, e.path().join("bin")))
        })
        .filter(|(_, bin)| has_server(bin))
        .collect();
    debian.sort();
    if let Some((_, bin)) = debian.pop() {
        return Ok(bin);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .find(|d| has_server(d))
        .ok_or_else(|| {
            "PostgreSQL's server programs (initdb, postgres) were not found. \
             Install Debian's postgresql package (npm test does this when run as root), \
             or set INDEXLAB_PG_BIN to the folder that holds them."
                .to_string()
        })
}

fn has_server(dir: &Path) -> bool {
    dir.join("initdb").is_file() && dir.join("postgres").is_file()
}
