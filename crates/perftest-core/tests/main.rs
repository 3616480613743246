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

/// Every file of `tests/` (and folder with a `mod.rs`) is a module above: with `autotests =
/// false`, cargo builds no test file that `main.rs` leaves out.
#[test]
fn every_test_file_is_a_module() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let main = std::fs::read_to_string(dir.join("main.rs")).unwrap();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let module = if path.is_dir() {
            path.join("mod.rs").is_file()
        } else {
            path.extension().is_some_and(|e| e == "rs") && !path.ends_with("main.rs")
        };
        let name = path.file_stem().unwrap().to_string_lossy();
        assert!(
            !module || main.lines().any(|l| l.trim() == format!("mod {name};")),
            "tests/main.rs lacks `mod {name};`"
        );
    }
}
