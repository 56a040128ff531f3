//! A test's own HTTP server on 127.0.0.1 (a webhook receiver, a proxy in
//! front of the sandbox), stopped when dropped.

use std::net::SocketAddr;

use axum::Router;
use tokio::net::TcpListener;
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
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .unwrap_or_else(|error| panic!("no free port on 127.0.0.1: {error}"));
        let addr = listener
            .local_addr()
            .unwrap_or_else(|error| panic!("a bound socket has no address: {error}"));
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
