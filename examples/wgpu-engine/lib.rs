//! Nothing here: the crate holds the `wgpu_engine` example (see `wgpu_engine.rs`).
