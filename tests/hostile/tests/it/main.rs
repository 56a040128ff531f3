//! The hostile-input suite, one binary: malformed requests to the sandbox,
//! hostile servers to the SDK, and the fuzz targets.

mod fuzz;
mod sandbox_input;
mod sdk_servers;
