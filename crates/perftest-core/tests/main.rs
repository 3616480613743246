//! The integration tests of perftest-core on lavapipe with the validation layer on, one module
//! per topic, in one test binary: the workspace is linked once for them all, and `cargo test
//! -p perftest-core TOPIC::` runs one topic (a suite's families: `texture::every_case_verifies::`).

mod common;

mod graphics;
mod lavapipe;
mod memory;
mod modern;
mod probe;
mod texture;
mod transfer;
