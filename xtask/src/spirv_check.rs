//! `cargo xtask shaders --check`: the committed SPIR-V and its manifest against what the
//! shader sources produce now. It needs no compiler, only the sources' hashes ([`shaders`])
//! and the manifest ([`manifest`]).

use std::fs;
use std::path::Path;

use crate::manifest;
use crate::shaders;
use crate::workspace::{SHADERS_DIR, SPIRV_DIR};

/// `cargo xtask shaders --check`: fails, naming each file, unless the committed SPIR-V and
/// manifest match the current shader sources.
pub fn check(root: &Path) -> Result<(), String> {
    let outputs = shaders::outputs(root)?;
    let manifest_path = root.join(SPIRV_DIR).join(manifest::FILE_NAME);
    let entries = match fs::read_to_string(&manifest_path) {
        Ok(text) => Some(
            manifest::parse(&text)
                .map_err(|error| format!("{SPIRV_DIR}/{}: {error}", manifest::FILE_NAME))?,
        ),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
        Err(error) => {
            return Err(format!(
                "cannot read {SPIRV_DIR}/{}: {error}",
                manifest::FILE_NAME
            ))
        }
    };
    let problems = manifest::compare(&outputs, entries.as_deref(), &shaders::spirv_files(root)?);
    if problems.is_empty() {
        println!(
            "SPIR-V is up to date: {} file(s) in {SPIRV_DIR}/ match {SHADERS_DIR}/",
            outputs.len()
        );
        return Ok(());
    }
    let lines: Vec<String> = problems
        .iter()
        .map(|problem| format!("  {SPIRV_DIR}/{problem}"))
        .collect();
    Err(format!(
        "the committed SPIR-V does not match {SHADERS_DIR}/:\n{}\nrun `cargo xtask shaders` \
         and commit {SPIRV_DIR}/",
        lines.join("\n")
    ))
}
