//! A fresh PostgreSQL database per test, in the cluster
//! `scripts/start-test-postgres.sh` starts (`LACKPY_TEST_PG_URL`). A test
//! that needs one fails, never skips, when the variable is missing.

use std::sync::atomic::{AtomicU32, Ordering};

use tokio_postgres::NoTls;

/// The reason the tests that need PostgreSQL are ignored by default.
pub const NEEDS_PG: &str = "needs PostgreSQL: scripts/start-test-postgres.sh";

/// A database made for one test, dropped after it.
pub struct TestDb {
    admin: String,
    name: String,
    /// Its URL.
    pub url: String,
}

fn admin_url() -> String {
    std::env::var("LACKPY_TEST_PG_URL").unwrap_or_else(|_| {
        panic!("LACKPY_TEST_PG_URL is not set: run `eval \"$(bash scripts/start-test-postgres.sh)\"` first")
    })
}

/// Runs `sql` on the database at `url`, returning the first column of each
/// row as text.
pub fn query(url: &str, sql: &str) -> Vec<String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let (client, conn) = tokio_postgres::connect(url, NoTls)
            .await
            .unwrap_or_else(|e| panic!("cannot connect to {url}: {e}"));
        tokio::spawn(conn);
        client
            .simple_query(sql)
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e}"))
            .into_iter()
            .filter_map(|m| match m {
                tokio_postgres::SimpleQueryMessage::Row(r) => {
                    Some(r.get(0).unwrap_or("").to_string())
                }
                _ => None,
            })
            .collect()
    })
}

impl TestDb {
    /// A new, empty database.
    pub fn new() -> TestDb {
        static N: AtomicU32 = AtomicU32::new(0);
        let admin = admin_url();
        let name = format!(
            "lackpy_t{}_{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        );
        query(&admin, &format!("CREATE DATABASE {name}"));
        let (base, _) = admin.rsplit_once('/').expect("a URL with a database");
        let url = format!("{base}/{name}");
        TestDb { admin, name, url }
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build();
        if let Ok(rt) = rt {
            let (admin, name) = (self.admin.clone(), self.name.clone());
            rt.block_on(async move {
                if let Ok((client, conn)) = tokio_postgres::connect(&admin, NoTls).await {
                    tokio::spawn(conn);
                    let _ = client
                        .simple_query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                        .await;
                }
            });
        }
    }
}
