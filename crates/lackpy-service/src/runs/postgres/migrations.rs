//! The store's schema: versioned migrations embedded in the binary, applied
//! at start under a transaction-scoped advisory lock, so replicas starting
//! together apply each one exactly once.

use tokio_postgres::Client;

/// The migrations, in order; the version of each is its place (1-based).
const MIGRATIONS: &[&str] = &[include_str!("migrations/0001_runs.sql")];

/// The advisory lock key replicas serialise migrations on (`lackpy` in
/// ASCII).
const MIGRATION_LOCK: i64 = 0x6c61_636b_7079;

/// The schema version this lackpy writes.
pub fn current() -> i32 {
    i32::try_from(MIGRATIONS.len()).unwrap_or(i32::MAX)
}

/// Brings the database to [`current`]; a database at a later version (a
/// newer lackpy migrated it) is refused rather than written.
pub async fn apply(client: &mut Client) -> Result<(), String> {
    let tx = client
        .transaction()
        .await
        .map_err(|e| format!("cannot start the migration: {e}"))?;
    // Held until commit: a replica starting at the same time waits here,
    // then finds the tables made.
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await
        .map_err(|e| format!("cannot lock the schema: {e}"))?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS lackpy_schema_version (
             version    integer PRIMARY KEY,
             applied_at timestamptz NOT NULL DEFAULT now()
         )",
    )
    .await
    .map_err(|e| format!("cannot create lackpy_schema_version: {e}"))?;
    let row = tx
        .query_one(
            "SELECT COALESCE(MAX(version), 0) FROM lackpy_schema_version",
            &[],
        )
        .await
        .map_err(|e| format!("cannot read the schema version: {e}"))?;
    let at: i32 = row.get(0);
    if at > current() {
        return Err(format!(
            "the database's schema is at version {at}, newer than this lackpy's {}: upgrade lackpy",
            current()
        ));
    }
    for (i, sql) in MIGRATIONS
        .iter()
        .enumerate()
        .skip(usize::try_from(at).unwrap_or(0))
    {
        let version = i32::try_from(i + 1).unwrap_or(i32::MAX);
        tx.batch_execute(sql)
            .await
            .map_err(|e| format!("migration {version} failed: {e}"))?;
        tx.execute(
            "INSERT INTO lackpy_schema_version (version) VALUES ($1)",
            &[&version],
        )
        .await
        .map_err(|e| format!("cannot record migration {version}: {e}"))?;
    }
    tx.commit()
        .await
        .map_err(|e| format!("cannot commit the migration: {e}"))
}
