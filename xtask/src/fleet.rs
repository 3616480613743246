//! `cargo xtask fleet`: the fleet deployments checked for real. `deploy/slurm/tests/
//! local-cluster.sh` starts munged, slurmctld and slurmd on this machine and runs the fleet
//! scripts, the health check and the drain script against them on lavapipe; the Kubernetes
//! manifests in `deploy/k8s/` are validated offline against the Kubernetes schemas with
//! `kubernetes-validate` (from PyPI, installed in a virtual environment under `target/`), then
//! checked for hardening by `deploy/k8s/tests/check-hardening.py` (non-root, no privilege
//! escalation, no capabilities, seccomp, read-only root, writable paths on volumes, CPU and
//! memory requests and limits, no DaemonSet holding GPUs). Any failing fails the step; a
//! machine without apt-get, Slurm or Python fails it too.

use std::path::Path;
use std::process::Command;

use crate::workspace;

/// The `kubernetes-validate` release the manifests are checked with.
const KUBERNETES_VALIDATE: &str = "kubernetes-validate==1.37.0";

/// The Kubernetes version the manifests are validated against.
const KUBERNETES_VERSION: &str = "1.37.0";

/// `cargo xtask fleet`: the Slurm test, then the Kubernetes validation. The release binary is
/// built first (the one the archives hold: in `cargo xtask test` the `dist` step has built it,
/// so cargo finds it current), never taken as it happens to be.
pub fn command(root: &Path) -> Result<(), String> {
    let perftest = crate::release::build_release(&workspace::host()?)?;
    let slurm = workspace::status(
        Command::new("bash")
            .arg(root.join("deploy/slurm/tests/local-cluster.sh"))
            .arg(&perftest),
    )?;
    if slurm != 0 {
        return Err(format!("the Slurm test failed (exit {slurm})"));
    }
    validate_manifests(root)
}

/// Validates every `deploy/k8s/*.yaml` strictly (unknown fields are errors) and checks its
/// hardening.
fn validate_manifests(root: &Path) -> Result<(), String> {
    let venv = workspace::target_dir()?.join("kubernetes-validate");
    let validator = venv.join("bin/kubernetes-validate");
    if !validator.is_file() {
        let made = workspace::status(Command::new("python3").args(["-m", "venv"]).arg(&venv))?;
        if made != 0 {
            return Err("python3 -m venv failed".into());
        }
        let pip = workspace::status(Command::new(venv.join("bin/pip")).args([
            "install",
            "--quiet",
            KUBERNETES_VALIDATE,
        ]))?;
        if pip != 0 {
            return Err(format!("pip install {KUBERNETES_VALIDATE} failed"));
        }
    }
    let mut manifests: Vec<_> = std::fs::read_dir(root.join("deploy/k8s"))
        .map_err(|e| format!("cannot list deploy/k8s: {e}"))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    manifests.sort();
    if manifests.is_empty() {
        return Err("no manifests in deploy/k8s".into());
    }
    let status = workspace::status(
        Command::new(&validator)
            .args(["--strict", "--kubernetes-version", KUBERNETES_VERSION])
            .args(&manifests),
    )?;
    if status != 0 {
        return Err(format!(
            "kubernetes-validate rejected a manifest (exit {status})"
        ));
    }
    // What the schemas allow but a cluster should not run: the hardening check (with PyYAML,
    // which kubernetes-validate installs), after its self-test shows it refuses each
    // required field taken away.
    let hardening = workspace::status(
        Command::new(venv.join("bin/python"))
            .arg(root.join("deploy/k8s/tests/check-hardening.py"))
            .arg("--self-test")
            .args(&manifests),
    )?;
    if hardening != 0 {
        return Err(format!(
            "a Kubernetes manifest is not hardened (exit {hardening})"
        ));
    }
    println!(
        "fleet: the Slurm test passed; {} Kubernetes manifests valid for {KUBERNETES_VERSION} \
         and hardened",
        manifests.len()
    );
    Ok(())
}
