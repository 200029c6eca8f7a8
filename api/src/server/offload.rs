//! A thread of its own for heavy requests: large bodies, and any request that replays logs.
//! Parsing a 10 MB body, converting its variables and re-serialising logs take tens of
//! milliseconds of CPU each; on an HTTP worker that time would stall every other connection the
//! worker serves (cheap queries included). Such requests run here instead, on a single-threaded
//! runtime (their CPU work one at a time, their waits interleaved); the HTTP workers only move
//! bytes. Replays themselves run on blocking threads either way (admission control).

use std::future::Future;
use std::thread::JoinHandle;

use tokio::runtime::Handle;
use tokio::sync::oneshot;

pub struct Offload {
    handle: Handle,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Offload {
    /// Starts the thread and its runtime.
    pub fn start() -> Result<Offload, String> {
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let (stop, stopped) = oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("chronicle-large-requests".into())
            .spawn(move || {
                let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
                    Ok(rt) => rt,
                    Err(e) => {
                        let _ = ready_tx.send(Err(e.to_string()));
                        return;
                    }
                };
                let _ = ready_tx.send(Ok(runtime.handle().clone()));
                // Runs the spawned requests until the server stops.
                runtime.block_on(async {
                    let _ = stopped.await;
                });
            })
            .map_err(|e| format!("starting the large-request thread: {e}"))?;
        let handle = ready_rx.recv().map_err(|e| format!("large-request thread: {e}"))??;
        Ok(Offload { handle, stop: Some(stop), thread: Some(thread) })
    }

    /// Runs `work` on the thread; `None` if it panicked or the thread is gone.
    pub async fn run<T: Send + 'static>(&self, work: impl Future<Output = T> + Send + 'static) -> Option<T> {
        self.handle.spawn(work).await.ok()
    }
}

impl Drop for Offload {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
