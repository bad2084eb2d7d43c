//! Starting and stopping the throwaway server.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// A running server; dropping it stops the server and removes its folder.
pub struct Server {
    child: Child,
    folder: PathBuf,
    port: u16,
}

/// The account a server started by root runs as.
struct Account {
    uid: u32,
    gid: u32,
}

impl Server {
    /// initdb into a new temporary folder and start the server on a socket in it.
    pub fn start() -> Result<Server, String> {
        let bin = super::binaries::find()?;
        static STARTED: AtomicU32 = AtomicU32::new(0);
        let n = STARTED.fetch_add(1, Ordering::Relaxed);
        let folder = std::env::temp_dir().join(format!("indexlab-pg-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&folder);
        std::fs::create_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
        let account = account()?;
        if let Some(a) = &account {
            std::os::unix::fs::chown(&folder, Some(a.uid), Some(a.gid))
                .map_err(|e| format!("chown {}: {e}", folder.display()))?;
        }
        let data = folder.join("data");
        let mut initdb = Command::new(bin.join("initdb"));
        initdb
            .args(["--no-sync", "-A", "trust", "-U", "postgres", "-E", "UTF8"])
            // The C collation orders text by bytes, as IndexLab compares it.
            .args(["--locale=C", "-D"])
            .arg(&data);
        run_as(&mut initdb, &account);
        let out = initdb
            .output()
            .map_err(|e| format!("cannot run initdb: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "initdb failed: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let port = 5432;
        let mut postgres = Command::new(bin.join("postgres"));
        postgres
            .arg("-D")
            .arg(&data)
            .arg("-k")
            .arg(&folder)
            .args(["-p", &port.to_string()])
            .args(["-c", "listen_addresses=", "-c", "fsync=off"])
            // Commits stay synchronous: VACUUM marks a page all-visible only
            // once its inserts' commit records are flushed (lazy_scan_prune
            // needs the XMIN_COMMITTED hint), so an asynchronous commit would
            // leave pages PostgreSQL normally marks unmarked. fsync=off keeps
            // the flush cheap.
            .args(["-c", "full_page_writes=off"])
            // No autovacuum: a worker's snapshot would hold back which pages
            // VACUUM may mark all-visible, and its own VACUUM and ANALYZE would
            // change pg_class at moments no script chose.
            .args(["-c", "autovacuum=off"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::from(
                std::fs::File::create(folder.join("server.log")).map_err(|e| e.to_string())?,
            ));
        run_as(&mut postgres, &account);
        let child = postgres
            .spawn()
            .map_err(|e| format!("cannot start postgres: {e}"))?;
        let server = Server {
            child,
            folder,
            port,
        };
        server.wait_ready()?;
        Ok(server)
    }

    /// The connection string of the server's `postgres` database.
    pub fn params(&self) -> String {
        format!(
            "host={} port={} user=postgres dbname=postgres",
            self.folder.display(),
            self.port
        )
    }

    fn wait_ready(&self) -> Result<(), String> {
        let socket = self.folder.join(format!(".s.PGSQL.{}", self.port));
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(30) {
            if socket.exists() && postgres::Client::connect(&self.params(), postgres::NoTls).is_ok()
            {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let log = std::fs::read_to_string(self.folder.join("server.log")).unwrap_or_default();
        Err(format!("PostgreSQL did not start within 30 s:\n{log}"))
    }

    pub fn folder(&self) -> &Path {
        &self.folder
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // SIGINT is PostgreSQL's "fast shutdown": it ends the sessions and exits.
        let _ = Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status();
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(10) {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

/// Run as root, the server needs another account: Debian's package makes
/// `postgres`; `nobody` otherwise.
fn account() -> Result<Option<Account>, String> {
    let out = Command::new("id")
        .arg("-u")
        .output()
        .map_err(|e| e.to_string())?;
    if String::from_utf8_lossy(&out.stdout).trim() != "0" {
        return Ok(None);
    }
    for name in ["postgres", "nobody"] {
        let id = |flag: &str| -> Option<u32> {
            let o = Command::new("id").args([flag, name]).output().ok()?;
            String::from_utf8_lossy(&o.stdout).trim().parse().ok()
        };
        if let (Some(uid), Some(gid)) = (id("-u"), id("-g")) {
            return Ok(Some(Account { uid, gid }));
        }
    }
    Err("running as root, but neither a postgres nor a nobody account exists".into())
}

fn run_as(cmd: &mut Command, account: &Option<Account>) {
    if let Some(a) = account {
        cmd.uid(a.uid).gid(a.gid);
    }
}
