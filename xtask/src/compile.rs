//! Compiling GLSL to SPIR-V with shaderc (feature `compile`): writes each `.spv` file and the
//! manifest, and removes `.spv` files that no shader produces any more.

use std::fs;
use std::path::Path;

use shaderc::{
    CompileOptions, Compiler, EnvVersion, IncludeType, OptimizationLevel, ResolvedInclude,
    ShaderKind, SourceLanguage, SpirvVersion, TargetEnv,
};

use crate::manifest::{self, Entry};
use crate::shaders::{self, Output, Stage, SETTINGS};
use crate::workspace::{SHADERS_DIR, SPIRV_DIR};

/// Compiles every output of `shaders/` under `root` and rewrites the SPIR-V directory.
/// Nothing is written unless every shader compiles.
pub fn compile_all(root: &Path) -> Result<(), String> {
    let outputs = shaders::outputs(root)?;
    let compiler =
        Compiler::new().map_err(|error| format!("cannot start the shader compiler: {error}"))?;
    let compiler_id = compiler_id(root);

    let mut compiled = Vec::with_capacity(outputs.len());
    for output in &outputs {
        compiled.push((output, compile_one(&compiler, output)?));
    }

    let dir = root.join(SPIRV_DIR);
    fs::create_dir_all(&dir).map_err(|error| format!("cannot create {SPIRV_DIR}/: {error}"))?;
    let mut entries = Vec::with_capacity(compiled.len());
    for (output, bytes) in &compiled {
        write_if_changed(&dir.join(&output.file), bytes, &output.file)?;
        entries.push(Entry {
            file: output.file.clone(),
            input_hash: output.input_hash.clone(),
            spv_hash: shaders::sha256_hex(bytes),
            compiler: compiler_id.clone(),
        });
    }
    for file in shaders::spirv_files(root)?.keys() {
        if !outputs.iter().any(|output| &output.file == file) {
            fs::remove_file(dir.join(file))
                .map_err(|error| format!("cannot remove {SPIRV_DIR}/{file}: {error}"))?;
            println!("removed {SPIRV_DIR}/{file} (no shader produces it)");
        }
    }
    let manifest_text = manifest::render(&entries, SETTINGS);
    write_if_changed(
        &dir.join(manifest::FILE_NAME),
        manifest_text.as_bytes(),
        manifest::FILE_NAME,
    )?;
    println!(
        "compiled {} SPIR-V file(s) into {SPIRV_DIR}/ with {compiler_id}",
        outputs.len()
    );
    Ok(())
}

/// Compiles one output with the settings named in [`SETTINGS`].
fn compile_one(compiler: &Compiler, output: &Output) -> Result<Vec<u8>, String> {
    let shown = format!("{SHADERS_DIR}/{}", output.source);
    let fail = |error: String| format!("{shown} ({}): {error}", output.file);
    let mut options =
        CompileOptions::new().map_err(|error| fail(format!("compile options: {error}")))?;
    options.set_source_language(SourceLanguage::GLSL);
    if shaders::targets_vulkan_1_1(&output.defines) {
        options.set_target_env(TargetEnv::Vulkan, EnvVersion::Vulkan1_1 as u32);
        options.set_target_spirv(SpirvVersion::V1_3);
    } else {
        options.set_target_env(TargetEnv::Vulkan, EnvVersion::Vulkan1_0 as u32);
        options.set_target_spirv(SpirvVersion::V1_0);
    }
    options.set_optimization_level(OptimizationLevel::Zero);
    options.set_warnings_as_errors();
    for define in &output.defines {
        options.add_macro_definition(&define.name, define.value.as_deref());
    }
    options.set_include_callback(|requested, _kind: IncludeType, _from, _depth| {
        shaders::validate_include_name(requested)?;
        output
            .includes
            .iter()
            .find(|(name, _)| name == requested)
            .map(|(name, contents)| ResolvedInclude {
                resolved_name: format!("{SHADERS_DIR}/{name}"),
                content: contents.clone(),
            })
            .ok_or_else(|| {
                format!(
                    "cannot include `{requested}`: write includes as `#include \"FILE\"` on a \
                     line of their own, with FILE relative to {SHADERS_DIR}/"
                )
            })
    });
    let artifact = compiler
        .compile_into_spirv(
            &output.text,
            match output.stage {
                Stage::Compute => ShaderKind::Compute,
                Stage::Vertex => ShaderKind::Vertex,
                Stage::Fragment => ShaderKind::Fragment,
            },
            &shown,
            "main",
            Some(&options),
        )
        .map_err(|error| fail(error.to_string()))?;
    Ok(artifact.as_binary_u8().to_vec())
}

/// Identifies the compiler in the manifest: the shaderc crate version (from `Cargo.lock`) and
/// the SPIR-V version and revision that shaderc reports.
fn compiler_id(root: &Path) -> String {
    let crate_version = fs::read_to_string(root.join("Cargo.lock"))
        .ok()
        .and_then(|lock| locked_version(&lock, "shaderc"))
        .unwrap_or_else(|| "unknown".to_string());
    let (version, revision) = shaderc::get_spirv_version();
    format!(
        "shaderc-{crate_version}/glslang/spirv-{}.{}-r{revision}",
        (version >> 16) & 0xff,
        (version >> 8) & 0xff
    )
}

/// The version `Cargo.lock` records for the package called `name`.
fn locked_version(lock: &str, name: &str) -> Option<String> {
    let wanted = format!("name = \"{name}\"");
    let mut lines = lock.lines().map(str::trim);
    lines.find(|line| *line == wanted)?;
    let version = lines
        .next()?
        .strip_prefix("version = \"")?
        .strip_suffix('"')?;
    Some(version.to_string())
}

/// Writes `bytes` to `path` unless it already holds exactly them.
fn write_if_changed(path: &Path, bytes: &[u8], shown: &str) -> Result<(), String> {
    if fs::read(path).is_ok_and(|existing| existing == bytes) {
        return Ok(());
    }
    fs::write(path, bytes).map_err(|error| format!("cannot write {SPIRV_DIR}/{shown}: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locked_version_reads_the_named_package() {
        let lock = "[[package]]\nname = \"shaderc-sys\"\nversion = \"0.9.0\"\n\n\
                    [[package]]\nname = \"shaderc\"\nversion = \"0.10.1\"\n";
        assert_eq!(locked_version(lock, "shaderc"), Some("0.10.1".to_string()));
        assert_eq!(locked_version(lock, "ash"), None);
    }
}
