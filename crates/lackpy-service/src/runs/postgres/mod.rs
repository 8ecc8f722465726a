//! The shared run store in PostgreSQL (`[runs] store = "postgres://…"` or
//! `LACKPY_RUNS_STORE`): the journals of every replica in one database, so
//! a run paused or interrupted on one is resumed on another.
//!
//! A run is a row of `lackpy_runs` and its journal lines rows of
//! `lackpy_run_lines`, each appended (and committed) as the file store
//! appends and syncs a line. A process holds a run by a session-level
//! advisory lock on the run's key, taken on the connection that writes
//! its journal: a second process finds the lock taken and answers `Busy`,
//! and a process that dies (even by SIGKILL) loses its connection, so
//! PostgreSQL releases the lock at once and the run is resumable elsewhere.

mod migrations;
mod worker;

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio_postgres::{Client, Config, NoTls};

use worker::Worker;

/// Idle connections kept for later runs; more are closed when let go.
const MAX_IDLE: usize = 8;

/// How long letting go of a run may wait for the server.
const RELEASE_TIMEOUT: Duration = Duration::from_secs(5);

/// The variables a PostgreSQL password is read from, in order.
pub const PASSWORD_VARS: [&str; 2] = ["LACKPY_RUNS_STORE_PASSWORD", "PGPASSWORD"];

/// A connection to the store's database.
pub struct PgStore {
    worker: Worker,
    config: Config,
    /// The URL without a password, for messages.
    label: String,
    /// Connections that hold no lock, for the next run.
    idle: Arc<Mutex<Vec<Arc<Client>>>>,
}

impl std::fmt::Debug for PgStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgStore")
            .field("store", &self.label)
            .finish()
    }
}

/// A stored run as listing reads it.
pub struct StoredRun {
    /// Its id.
    pub run_id: String,
    /// When its journal was last written (seconds since the epoch).
    pub written: u64,
    /// The journal's text, a newline after each line.
    pub text: String,
    /// Whether a process holds it.
    pub running: bool,
}

impl PgStore {
    /// Connects to `url` (a password from `password`, else as the URL and
    /// libpq's defaults say) and brings the schema up to date.
    pub fn start(url: &str, password: Option<String>) -> Result<Arc<PgStore>, String> {
        let label = redact(url);
        let mut config: Config = url
            .parse()
            .map_err(|e| format!("run store {label}: not a PostgreSQL URL: {e}"))?;
        if let Some(p) = password {
            config.password(p);
        }
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(Duration::from_secs(10));
        }
        config.application_name("lackpy");
        let worker = Worker::start().map_err(|e| format!("run store {label}: {e}"))?;
        let store = Arc::new(PgStore {
            worker,
            config,
            label,
            idle: Arc::default(),
        });
        let cfg = store.config.clone();
        let client = store
            .worker
            .block(async move {
                let mut client = connect(&cfg).await?;
                migrations::apply(&mut client).await?;
                Ok(Arc::new(client))
            })
            .map_err(|e| store.error(&e))?;
        store.idle_push(client);
        Ok(store)
    }

    /// The URL without its password.
    pub fn label(&self) -> &str {
        &self.label
    }

    fn error(&self, message: &str) -> String {
        format!("run store {}: {message}", self.label)
    }

    fn idle_push(&self, client: Arc<Client>) {
        keep_idle(&self.idle, client);
    }

    /// An idle connection, or a new one.
    fn take(&self) -> Result<Arc<Client>, String> {
        loop {
            let idle = self
                .idle
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .pop();
            match idle {
                Some(c) if !c.is_closed() => return Ok(c),
                Some(_) => continue,
                None => break,
            }
        }
        let cfg = self.config.clone();
        self.worker
            .block(async move { connect(&cfg).await.map(Arc::new) })
            .map_err(|e| self.error(&e))
    }

    /// Every stored run, newest first.
    pub fn list(&self) -> Result<Vec<StoredRun>, String> {
        let client = self.take()?;
        let c = Arc::clone(&client);
        let rows = self
            .worker
            .block(async move {
                c.query(
                    "SELECT r.run_id, r.updated_at,
                        COALESCE((SELECT string_agg(l.line || E'\\n', '' ORDER BY l.seq)
                                  FROM lackpy_run_lines l WHERE l.run_id = r.run_id), ''),
                        EXISTS (SELECT 1 FROM pg_locks k
                                WHERE k.locktype = 'advisory' AND k.granted AND k.objsubid = 1
                                  AND k.database = (SELECT oid FROM pg_database
                                                    WHERE datname = current_database())
                                  AND ((k.classid::int8 << 32) | k.objid::int8) = r.lock_key)
                     FROM lackpy_runs r
                     ORDER BY r.updated_at DESC, r.run_id",
                    &[],
                )
                .await
                .map_err(|e| format!("cannot list the runs: {e}"))
            })
            .map_err(|e| self.error(&e))?;
        self.idle_push(client);
        Ok(rows
            .iter()
            .map(|r| StoredRun {
                run_id: r.get(0),
                written: u64::try_from(r.get::<_, i64>(1)).unwrap_or(0),
                text: r.get(2),
                running: r.get(3),
            })
            .collect())
    }

    /// Takes run `run_id` for this process, with its journal.
    pub fn open(self: &Arc<Self>, run_id: &str) -> Result<Opened, String> {
        let client = self.take()?;
        let key = lock_key(run_id);
        let (c, id) = (Arc::clone(&client), run_id.to_string());
        let got = self
            .worker
            .block(async move {
                let locked: bool = c
                    .query_one("SELECT pg_try_advisory_lock($1)", &[&key])
                    .await
                    .map_err(|e| format!("cannot lock run '{id}': {e}"))?
                    .get(0);
                if !locked {
                    return Ok(None);
                }
                // Read under the lock: a run removed by the process that
                // held it before is gone by now.
                let row = c
                    .query_opt(
                        "SELECT r.updated_at,
                            COALESCE((SELECT string_agg(l.line || E'\\n', '' ORDER BY l.seq)
                                      FROM lackpy_run_lines l WHERE l.run_id = r.run_id), ''),
                            (SELECT COUNT(*) FROM lackpy_run_lines l WHERE l.run_id = r.run_id)
                         FROM lackpy_runs r WHERE r.run_id = $1",
                        &[&id],
                    )
                    .await
                    .map_err(|e| format!("cannot read run '{id}': {e}"))?;
                Ok(Some(row.map(|r| {
                    (
                        u64::try_from(r.get::<_, i64>(0)).unwrap_or(0),
                        r.get::<_, String>(1),
                        r.get::<_, i64>(2),
                    )
                })))
            })
            .map_err(|e| self.error(&e));
        let got = match got {
            Ok(g) => g,
            Err(e) => {
                self.release(client);
                return Err(e);
            }
        };
        let Some(row) = got else {
            self.idle_push(client);
            return Ok(Opened::Busy);
        };
        let Some((written, text, lines)) = row else {
            self.release(client);
            return Ok(Opened::NotFound);
        };
        let run = PgRun {
            store: Arc::clone(self),
            client: Some(client),
            run_id: run_id.to_string(),
            next_seq: i32::try_from(lines).unwrap_or(i32::MAX),
            exists: true,
        };
        Ok(Opened::Held { run, written, text })
    }

    /// Stores a new run holding `text` (whole lines) and takes it.
    pub fn create(self: &Arc<Self>, run_id: &str, text: &[u8], now: u64) -> Result<PgRun, String> {
        let client = self.take()?;
        let mut run = PgRun {
            store: Arc::clone(self),
            client: Some(Arc::clone(&client)),
            run_id: run_id.to_string(),
            next_seq: 0,
            exists: false,
        };
        let lines: Vec<String> = String::from_utf8_lossy(text)
            .split_terminator('\n')
            .map(String::from)
            .collect();
        let (key, id) = (lock_key(run_id), run_id.to_string());
        let now = i64::try_from(now).unwrap_or(i64::MAX);
        let bytes = i64::try_from(text.len()).unwrap_or(i64::MAX);
        let count = i32::try_from(lines.len()).unwrap_or(i32::MAX);
        self.worker
            .block(async move {
                let locked: bool = client
                    .query_one("SELECT pg_try_advisory_lock($1)", &[&key])
                    .await
                    .map_err(|e| format!("cannot lock run '{id}': {e}"))?
                    .get(0);
                if !locked {
                    return Err(format!("run '{id}' is already held"));
                }
                // One statement: the run and its lines appear together.
                client
                    .execute(
                        "WITH r AS (INSERT INTO lackpy_runs
                                        (run_id, lock_key, created_at, updated_at, bytes)
                                    VALUES ($1, $2, $3, $3, $4))
                         INSERT INTO lackpy_run_lines (run_id, seq, line)
                         SELECT $1, (t.n - 1)::int, t.line
                         FROM unnest($5::text[]) WITH ORDINALITY AS t(line, n)",
                        &[&id, &key, &now, &bytes, &lines],
                    )
                    .await
                    .map_err(|e| format!("cannot store run '{id}': {e}"))?;
                Ok(())
            })
            .map_err(|e| self.error(&e))?;
        run.next_seq = count;
        run.exists = true;
        Ok(run)
    }

    /// Lets go of every run `client` holds, waiting until the server has
    /// (so a process that ends next leaves its runs free, not held until
    /// the server notices the closed connection), then keeps it for later
    /// runs; one that cannot unlock in time is closed instead, which
    /// releases its locks too.
    fn release(&self, client: Arc<Client>) {
        let c = Arc::clone(&client);
        let unlocked = self.worker.block(async move {
            let unlock = c.simple_query("SELECT pg_advisory_unlock_all()");
            match tokio::time::timeout(RELEASE_TIMEOUT, unlock).await {
                Ok(Ok(_)) => Ok(()),
                Ok(Err(e)) => Err(e.to_string()),
                Err(_) => Err("timed out".into()),
            }
        });
        match unlocked {
            Ok(()) => self.idle_push(client),
            Err(e) => tracing::warn!(store = %self.label, error = %e, "cannot release a run"),
        }
    }
}

/// What [`PgStore::open`] found.
pub enum Opened {
    /// Another process holds the run.
    Busy,
    /// No such run.
    NotFound,
    /// The run, now held by this process.
    Held {
        /// The hold.
        run: PgRun,
        /// When its journal was last written (seconds since the epoch).
        written: u64,
        /// The journal's text, a newline after each line.
        text: String,
    },
}

/// A run this process holds: its lock and the connection its journal is
/// written on. Dropping it lets the run go.
pub struct PgRun {
    store: Arc<PgStore>,
    client: Option<Arc<Client>>,
    run_id: String,
    /// The next line's number.
    next_seq: i32,
    /// Whether the run's row exists.
    exists: bool,
}

impl std::fmt::Debug for PgRun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgRun")
            .field("run_id", &self.run_id)
            .finish()
    }
}

impl PgRun {
    /// Appends whole lines (each ending in a newline), committed when this
    /// returns.
    pub fn append(&mut self, text: &[u8], now: u64) -> Result<(), String> {
        let Some(client) = self.client.clone() else {
            return Err(format!("run '{}' is no longer held", self.run_id));
        };
        let lines: Vec<String> = String::from_utf8_lossy(text)
            .split_terminator('\n')
            .map(String::from)
            .collect();
        let count = i32::try_from(lines.len()).unwrap_or(i32::MAX);
        let (id, seq) = (self.run_id.clone(), self.next_seq);
        let now = i64::try_from(now).unwrap_or(i64::MAX);
        let bytes = i64::try_from(text.len()).unwrap_or(i64::MAX);
        self.store
            .worker
            .block(async move {
                client
                    .execute(
                        "WITH l AS (INSERT INTO lackpy_run_lines (run_id, seq, line)
                                    SELECT $1, $2 + (t.n - 1)::int, t.line
                                    FROM unnest($3::text[]) WITH ORDINALITY AS t(line, n))
                         UPDATE lackpy_runs SET updated_at = $4, bytes = bytes + $5
                         WHERE run_id = $1",
                        &[&id, &seq, &lines, &now, &bytes],
                    )
                    .await
                    .map_err(|e| format!("cannot append to run '{id}': {e}"))
            })
            .map_err(|e| self.store.error(&e))?;
        self.next_seq = self.next_seq.saturating_add(count);
        Ok(())
    }

    /// Deletes the run (it finished: nothing to resume).
    pub fn remove(mut self) -> Result<(), String> {
        let Some(client) = self.client.clone() else {
            return Ok(());
        };
        if !self.exists {
            return Ok(());
        }
        let id = self.run_id.clone();
        let done = self.store.worker.block(async move {
            client
                .execute(
                    "WITH l AS (DELETE FROM lackpy_run_lines WHERE run_id = $1)
                     DELETE FROM lackpy_runs WHERE run_id = $1",
                    &[&id],
                )
                .await
                .map(|_| ())
                .map_err(|e| format!("cannot remove run '{id}': {e}"))
        });
        self.exists = false;
        done.map_err(|e| self.store.error(&e))
    }
}

impl Drop for PgRun {
    fn drop(&mut self) {
        if let Some(client) = self.client.take() {
            self.store.release(client);
        }
    }
}

/// Keeps `client` for a later run, unless [`MAX_IDLE`] are kept already
/// (dropped, it closes).
fn keep_idle(idle: &Mutex<Vec<Arc<Client>>>, client: Arc<Client>) {
    let mut idle = idle.lock().unwrap_or_else(PoisonError::into_inner);
    if idle.len() < MAX_IDLE {
        idle.push(client);
    }
}

async fn connect(config: &Config) -> Result<Client, String> {
    let (client, connection) = config
        .connect(NoTls)
        .await
        .map_err(|e| format!("cannot connect: {}", describe(&e)))?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            tracing::warn!(error = %e, "a run store connection ended");
        }
    });
    Ok(client)
}

/// An error with its cause (tokio-postgres puts the useful part there).
fn describe(e: &tokio_postgres::Error) -> String {
    match std::error::Error::source(e) {
        Some(cause) => format!("{e}: {cause}"),
        None => e.to_string(),
    }
}

/// The advisory lock key of a run: its id's 64 bits.
fn lock_key(run_id: &str) -> i64 {
    let bits = u64::from_str_radix(run_id.get(1..).unwrap_or(""), 16).unwrap_or(0);
    i64::from_ne_bytes(bits.to_ne_bytes())
}

/// `url` with any password replaced by `***`.
pub fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(end);
    match authority.rsplit_once('@') {
        Some((userinfo, host)) if userinfo.contains(':') => {
            let user = userinfo.split(':').next().unwrap_or("");
            format!("{scheme}://{user}:***@{host}{tail}")
        }
        _ => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_never_reach_a_message() {
        assert_eq!(
            redact("postgres://u:secret@h:5432/db"),
            "postgres://u:***@h:5432/db"
        );
        assert_eq!(redact("postgres://u@h/db"), "postgres://u@h/db");
    }

    #[test]
    fn lock_keys_are_the_ids_bits() {
        assert_eq!(lock_key("r0000000000000001"), 1);
        assert_eq!(lock_key("rffffffffffffffff"), -1);
    }
}
