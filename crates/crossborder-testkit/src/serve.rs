//! A test's own HTTP server on 127.0.0.1 (a webhook receiver, a proxy in
//! front of the sandbox), stopped when dropped.

use std::net::SocketAddr;

use axum::Router;
use tokio::task::JoinHandle;

/// An axum app served on 127.0.0.1 at a free port until the value is
/// dropped.
pub struct LocalServer {
    addr: SocketAddr,
    task: JoinHandle<()>,
}

impl LocalServer {
    /// Serves `app` on 127.0.0.1 at a free port.
    ///
    /// # Panics
    ///
    /// When no loopback port is free.
    pub async fn start(app: Router) -> LocalServer {
        let (listener, addr) = crate::loopback_listener("a test's server").await;
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        LocalServer { addr, task }
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:PORT{path}`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }
}

impl Drop for LocalServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}
