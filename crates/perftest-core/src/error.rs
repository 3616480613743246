//! The error type of perftest-core.

use std::time::Duration;

use ash::vk;

use perftest_report::FailureKind;

use crate::selection::SelectionError;

/// Everything that can go wrong in perftest-core. Every Vulkan failure names the call.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The Vulkan loader library could not be opened.
    #[error(
        "cannot load the Vulkan loader ({detail}); {}",
        crate::platform::LOADER_HINT
    )]
    LoaderMissing {
        /// What the dynamic loader said.
        detail: String,
    },
    /// The Vulkan loader failed before any device was involved: an instance-level call
    /// returned what the loader also returns for a driver or layer manifest it cannot read (a
    /// JSON file that is not valid reads as `VK_ERROR_OUT_OF_HOST_MEMORY`).
    #[error(
        "the Vulkan loader or a driver failed to initialise ({call} returned {result:?}); a \
         driver manifest (ICD JSON) it cannot parse does this{manifests}"
    )]
    LoaderInit {
        /// The failing Vulkan function.
        call: &'static str,
        /// Its result code.
        result: vk::Result,
        /// `: check VAR=VALUE, ...` naming the loader's manifest variables that are set, or
        /// empty when none is.
        manifests: String,
    },
    /// The Khronos validation layer was requested but is not installed.
    #[error(
        "validation was requested but VK_LAYER_KHRONOS_validation is not installed ({})",
        crate::platform::VALIDATION_HINT
    )]
    ValidationLayerMissing,
    /// A Vulkan call returned an error.
    #[error("{call} failed: {result}")]
    Vulkan {
        /// The failing Vulkan function.
        call: &'static str,
        /// Its result code.
        result: vk::Result,
    },
    /// Creating a shader module or a pipeline failed (the call returned an error other than
    /// a lost device).
    #[error("{call} failed: {result}")]
    Pipeline {
        /// The failing creation call (`vkCreateComputePipelines` and the like).
        call: &'static str,
        /// Its result code.
        result: vk::Result,
    },
    /// The GPU was lost (driver reset, hang, or removal).
    #[error("the device was lost during {call} (VK_ERROR_DEVICE_LOST); results so far are kept, the device cannot be used any more")]
    DeviceLost {
        /// The call that reported it.
        call: &'static str,
    },
    /// No physical device offers a compute queue with timestamps.
    #[error(
        "no Vulkan device has a compute queue with timestamp support; {}",
        crate::platform::DRIVER_HINT
    )]
    NoComputeTarget,
    /// The device choice (`-N`, name) did not pick a device.
    #[error(transparent)]
    Selection(#[from] SelectionError),
    /// GPU work did not finish in time.
    #[error("{what} did not finish within {timeout:?}; the dispatch may be too large for this device, or the GPU hung")]
    Timeout {
        /// What was being waited for.
        what: &'static str,
        /// The limit that was exceeded.
        timeout: Duration,
    },
    /// Timestamps that do not bracket the work between them: a submission of draws took far
    /// longer on the clock than its timestamps say (lavapipe writes them before its rasterizer
    /// threads have drawn).
    #[error(
        "the device's timestamps cover {gpu_ms:.1} ms of the {wall_ms:.1} ms its draws took: \
         they do not bracket the draws on this driver (or the host is too busy to tell), so \
         perftest cannot time graphics cases here (--verify still checks them)"
    )]
    UntimedDraws {
        /// Sum of the timestamped intervals, in milliseconds.
        gpu_ms: f64,
        /// Wall time of the submission, in milliseconds.
        wall_ms: f64,
    },
    /// Timestamps that cannot describe real work (zero or negative elapsed ticks).
    #[error("invalid GPU timestamps: start {start}, end {end} (elapsed must be positive)")]
    InvalidTimestamp {
        /// The raw start value.
        start: u64,
        /// The raw end value.
        end: u64,
    },
    /// A memory allocation failed.
    #[error("cannot allocate memory for {what}: {source}")]
    Allocation {
        /// The resource being allocated.
        what: &'static str,
        /// gpu-allocator's error.
        #[source]
        source: gpu_allocator::AllocationError,
    },
    /// The case needs a feature this device lacks.
    #[error("case {id} cannot run on this device: {reason}")]
    Unsupported {
        /// The case id.
        id: String,
        /// What is missing.
        reason: String,
    },
    /// An argument outside what the API accepts (e.g. a dispatch over the device limits).
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
}

impl Error {
    /// The kind of case failure this error is, by its variant: a lost device, a timeout, a
    /// shader module or pipeline that could not be created, else [`FailureKind::Other`].
    pub fn failure_kind(&self) -> FailureKind {
        match self {
            Error::DeviceLost { .. } => FailureKind::DeviceLost,
            Error::Timeout { .. } => FailureKind::Timeout,
            Error::Pipeline { .. } => FailureKind::Pipeline,
            _ => FailureKind::Other,
        }
    }
}

/// Result alias of perftest-core.
pub type Result<T> = std::result::Result<T, Error>;

/// Maps a Vulkan result of `call` to [`Error`].
pub(crate) fn vk_error(call: &'static str, result: vk::Result) -> Error {
    if result == vk::Result::ERROR_DEVICE_LOST {
        Error::DeviceLost { call }
    } else {
        Error::Vulkan { call, result }
    }
}

/// The environment variables that choose the loader's driver manifests.
pub(crate) const MANIFEST_VARIABLES: [&str; 3] =
    ["VK_DRIVER_FILES", "VK_ICD_FILENAMES", "VK_ADD_DRIVER_FILES"];

/// Maps the result of an instance-level `call` (made before any device exists) to [`Error`]:
/// out of host memory or an initialisation failure there is the loader's own failure, most
/// often a broken driver manifest, named as such with the manifest variables that are set.
pub(crate) fn loader_error(call: &'static str, result: vk::Result) -> Error {
    if !matches!(
        result,
        vk::Result::ERROR_OUT_OF_HOST_MEMORY | vk::Result::ERROR_INITIALIZATION_FAILED
    ) {
        return vk_error(call, result);
    }
    let set: Vec<String> = MANIFEST_VARIABLES
        .iter()
        .filter_map(|name| {
            let value = std::env::var_os(name).filter(|v| !v.is_empty())?;
            Some(format!(
                "{name}={}",
                perftest_cases::one_line(&value.to_string_lossy())
            ))
        })
        .collect();
    let manifests = if set.is_empty() {
        String::new()
    } else {
        format!(": check {}", set.join(", "))
    };
    Error::LoaderInit {
        call,
        result,
        manifests,
    }
}

/// Adds the failing call's name to a Vulkan result.
pub(crate) trait VkResultExt<T> {
    /// Converts the error side into [`Error`], naming `call`.
    fn call(self, call: &'static str) -> Result<T>;

    /// Converts the error side of a shader module or pipeline creation `call` into
    /// [`Error::Pipeline`] (a lost device stays [`Error::DeviceLost`]).
    fn creating_pipeline(self, call: &'static str) -> Result<T>;
}

impl<T> VkResultExt<T> for std::result::Result<T, vk::Result> {
    fn call(self, call: &'static str) -> Result<T> {
        self.map_err(|r| vk_error(call, r))
    }

    fn creating_pipeline(self, call: &'static str) -> Result<T> {
        self.map_err(|result| match vk_error(call, result) {
            Error::Vulkan { call, result } => Error::Pipeline { call, result },
            lost => lost,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failure_kinds_follow_the_variant() {
        let lost = Error::DeviceLost {
            call: "vkQueueSubmit",
        };
        let timeout = Error::Timeout {
            what: "the dispatch",
            timeout: Duration::from_millis(1),
        };
        let pipeline = Error::Pipeline {
            call: "vkCreateComputePipelines",
            result: vk::Result::ERROR_OUT_OF_DEVICE_MEMORY,
        };
        let vulkan = Error::Vulkan {
            call: "vkCreateBuffer",
            result: vk::Result::ERROR_OUT_OF_DEVICE_MEMORY,
        };
        let kinds = [&lost, &timeout, &pipeline, &vulkan].map(Error::failure_kind);
        assert_eq!(
            kinds,
            [
                FailureKind::DeviceLost,
                FailureKind::Timeout,
                FailureKind::Pipeline,
                FailureKind::Other
            ]
        );
    }

    #[test]
    fn a_creation_call_fails_as_a_pipeline_and_a_lost_device_stays_lost() {
        let failed: std::result::Result<(), vk::Result> = Err(vk::Result::ERROR_OUT_OF_HOST_MEMORY);
        let failed = failed
            .creating_pipeline("vkCreateShaderModule")
            .unwrap_err();
        assert!(matches!(
            failed,
            Error::Pipeline {
                call: "vkCreateShaderModule",
                ..
            }
        ));
        // The message is the one any failed call has.
        assert_eq!(
            failed.to_string(),
            format!(
                "vkCreateShaderModule failed: {}",
                vk::Result::ERROR_OUT_OF_HOST_MEMORY
            )
        );
        let lost: std::result::Result<(), vk::Result> = Err(vk::Result::ERROR_DEVICE_LOST);
        let lost = lost
            .creating_pipeline("vkCreateComputePipelines")
            .unwrap_err();
        assert_eq!(lost.failure_kind(), FailureKind::DeviceLost);
    }
}
