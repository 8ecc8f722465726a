//! The store's own thread and runtime: the connections live there, and
//! the journal (appended on the interpreter's blocking thread) and the
//! service (async) both wait on it without sharing a runtime with it, so
//! no caller can starve the connections it waits on.

use std::future::Future;

use tokio::runtime::Handle;
use tokio::sync::oneshot;

/// A thread running a current-thread runtime until dropped.
pub struct Worker {
    handle: Handle,
    /// Dropping it ends the thread.
    _stop: oneshot::Sender<()>,
}

impl Worker {
    /// Starts the thread.
    pub fn start() -> Result<Worker, String> {
        let (handle_tx, handle_rx) = std::sync::mpsc::sync_channel(1);
        let (stop, stopped) = oneshot::channel::<()>();
        std::thread::Builder::new()
            .name("lackpy-run-store".into())
            .spawn(move || {
                let rt = match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(rt) => rt,
                    Err(e) => {
                        let _ = handle_tx.send(Err(e.to_string()));
                        return;
                    }
                };
                let _ = handle_tx.send(Ok(rt.handle().clone()));
                // Spawned tasks (the connections) run while this waits.
                rt.block_on(async {
                    let _ = stopped.await;
                });
            })
            .map_err(|e| format!("cannot start its thread: {e}"))?;
        let handle = handle_rx
            .recv()
            .map_err(|_| "its thread ended at start".to_string())??;
        Ok(Worker {
            handle,
            _stop: stop,
        })
    }

    /// Runs `fut` on the store's thread and waits for its output, from any
    /// thread (a blocking wait: the store's thread never waits on it).
    pub fn block<T: Send + 'static>(
        &self,
        fut: impl Future<Output = Result<T, String>> + Send + 'static,
    ) -> Result<T, String> {
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        self.handle.spawn(async move {
            let _ = tx.send(fut.await);
        });
        rx.recv()
            .map_err(|_| "the run store's thread has stopped".to_string())?
    }
}
