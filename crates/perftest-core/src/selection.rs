//! Choosing one compute target from the list: `-N`, a name substring, both, or the default.
//!
//! Pure logic over [`TargetSummary`] values so it is unit-tested without a GPU.

use std::fmt;

/// Vulkan device types, in the order the default choice prefers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeviceType {
    /// A discrete GPU.
    Discrete,
    /// A GPU integrated with the CPU.
    Integrated,
    /// A virtualised GPU.
    Virtual,
    /// A CPU implementation (e.g. Mesa lavapipe).
    Cpu,
    /// Anything else.
    Other,
}

impl DeviceType {
    /// Preference rank for the default choice (lower is better).
    pub fn rank(self) -> u8 {
        match self {
            DeviceType::Discrete => 0,
            DeviceType::Integrated => 1,
            DeviceType::Virtual => 2,
            DeviceType::Cpu => 3,
            DeviceType::Other => 4,
        }
    }
}

impl fmt::Display for DeviceType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DeviceType::Discrete => "discrete GPU",
            DeviceType::Integrated => "integrated GPU",
            DeviceType::Virtual => "virtual GPU",
            DeviceType::Cpu => "CPU",
            DeviceType::Other => "other",
        })
    }
}

/// What selection needs to know of one (device, queue family) pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetSummary {
    /// Device name.
    pub name: String,
    /// Compute queue family index.
    pub queue_family: u32,
    /// Device type.
    pub device_type: DeviceType,
    /// What tells identical devices apart: `PCI 00000000:18:00.0` (the address as
    /// `nvidia-smi` prints it) where the driver reports it, else `UUID ...`; `None` when the
    /// driver reports neither.
    pub location: Option<String>,
    /// The device offers `VK_KHR_portability_subset` (MoltenVK and other implementations
    /// layered on another API): perftest enables it, and what it withholds becomes skip
    /// reasons. Listed as `portability subset`.
    pub portability_subset: bool,
}

impl TargetSummary {
    /// The listing line without its number: `NAME (compute queue: Q, type: TYPE)`, with
    /// `, portability subset` for such a device and `, PCI ...` or `, UUID ...` when the
    /// device reports one, before the parenthesis.
    pub fn describe(&self) -> String {
        let location = self
            .location
            .as_deref()
            .map_or_else(String::new, |l| format!(", {l}"));
        let subset = if self.portability_subset {
            ", portability subset"
        } else {
            ""
        };
        format!(
            "{} (compute queue: {}, type: {}{subset}{location})",
            self.name, self.queue_family, self.device_type
        )
    }
}

/// Formats the numbered list `N: NAME (compute queue: Q, type: TYPE[, PCI|UUID ...])`, N
/// from 1.
pub fn listing(targets: &[TargetSummary]) -> String {
    targets
        .iter()
        .enumerate()
        .map(|(i, t)| format!("{}: {}", i + 1, t.describe()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// How the user asked for a device.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeviceChoice {
    /// 1-based index (`-N`) into the list, or into the name-filtered list when `name` is set.
    pub index: Option<usize>,
    /// Case-insensitive substring of the device name.
    pub name: Option<String>,
}

/// Why a device choice picked nothing. Each message lists the available devices.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SelectionError {
    /// `-0`: indices start at 1.
    #[error(
        "device index 0 is invalid: devices are numbered from 1\navailable devices:\n{available}"
    )]
    IndexZero {
        /// The numbered device list.
        available: String,
    },
    /// `-N` beyond the (filtered) list.
    #[error("device index {index} is out of range: {count} device(s){filter}\navailable devices:\n{available}")]
    IndexOutOfRange {
        /// The requested index.
        index: usize,
        /// How many devices the index could pick from.
        count: usize,
        /// ` match 'NAME'` when a name filter applied, else empty.
        filter: String,
        /// The numbered device list.
        available: String,
    },
    /// No device name contains the requested text.
    #[error("no device name contains '{}'\navailable devices:\n{available}",  perftest_cases::one_line(.name))]
    NoMatch {
        /// The requested name.
        name: String,
        /// The numbered device list.
        available: String,
    },
    /// The list is empty.
    #[error("no device with a timestamp-capable compute queue was found")]
    Empty,
}

/// Picks a target: returns its position in `targets` (0-based).
///
/// - index only: the Nth target (1-based);
/// - name only: the best-ranked target whose name contains `name` (case-insensitive);
/// - both: the Nth of the targets whose name matches;
/// - neither: the best-ranked target (discrete > integrated > virtual > CPU), first in list
///   order among equals.
pub fn select(targets: &[TargetSummary], choice: &DeviceChoice) -> Result<usize, SelectionError> {
    if targets.is_empty() {
        return Err(SelectionError::Empty);
    }
    let available = listing(targets);
    if choice.index == Some(0) {
        return Err(SelectionError::IndexZero { available });
    }
    let candidates: Vec<usize> = match &choice.name {
        Some(name) => {
            let needle = name.to_lowercase();
            let found: Vec<usize> = (0..targets.len())
                .filter(|&i| targets[i].name.to_lowercase().contains(&needle))
                .collect();
            if found.is_empty() {
                return Err(SelectionError::NoMatch {
                    name: name.clone(),
                    available,
                });
            }
            found
        }
        None => (0..targets.len()).collect(),
    };
    match choice.index {
        Some(index) => {
            candidates
                .get(index - 1)
                .copied()
                .ok_or_else(|| SelectionError::IndexOutOfRange {
                    index,
                    count: candidates.len(),
                    filter: choice
                        .name
                        .as_ref()
                        .map(|n| format!(" match '{n}'"))
                        .unwrap_or_default(),
                    available,
                })
        }
        None => candidates
            .iter()
            .copied()
            .min_by_key(|&i| targets[i].device_type.rank())
            .ok_or(SelectionError::Empty),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(name: &str, q: u32, ty: DeviceType) -> TargetSummary {
        TargetSummary {
            name: name.into(),
            queue_family: q,
            device_type: ty,
            location: None,
            portability_subset: false,
        }
    }

    #[test]
    fn location_tells_identical_devices_apart() {
        let mut a = t("NVIDIA H200", 0, DeviceType::Discrete);
        assert_eq!(
            a.describe(),
            "NVIDIA H200 (compute queue: 0, type: discrete GPU)"
        );
        a.location = Some("PCI 00000000:18:00.0".into());
        assert_eq!(
            a.describe(),
            "NVIDIA H200 (compute queue: 0, type: discrete GPU, PCI 00000000:18:00.0)"
        );
    }

    #[test]
    fn portability_subset_devices_are_marked() {
        let mut m = t("Apple M2 Pro", 0, DeviceType::Integrated);
        m.portability_subset = true;
        assert_eq!(
            m.describe(),
            "Apple M2 Pro (compute queue: 0, type: integrated GPU, portability subset)"
        );
    }

    fn machine() -> Vec<TargetSummary> {
        vec![
            t("llvmpipe (LLVM 15.0.6, 256 bits)", 0, DeviceType::Cpu),
            t("NVIDIA GeForce RTX 4070", 0, DeviceType::Discrete),
            t("NVIDIA GeForce RTX 4070", 2, DeviceType::Discrete),
            t("Intel(R) UHD Graphics 770", 0, DeviceType::Integrated),
        ]
    }

    fn choose(index: Option<usize>, name: Option<&str>) -> Result<usize, SelectionError> {
        select(
            &machine(),
            &DeviceChoice {
                index,
                name: name.map(str::to_string),
            },
        )
    }

    #[test]
    fn default_prefers_discrete_then_list_order() {
        assert_eq!(choose(None, None), Ok(1));
        let no_gpu = vec![
            t("llvmpipe", 0, DeviceType::Cpu),
            t("iGPU", 0, DeviceType::Integrated),
        ];
        assert_eq!(select(&no_gpu, &DeviceChoice::default()), Ok(1));
    }

    #[test]
    fn index_name_and_both() {
        assert_eq!(choose(Some(1), None), Ok(0));
        assert_eq!(choose(Some(4), None), Ok(3));
        assert_eq!(choose(None, Some("llvm")), Ok(0));
        assert_eq!(choose(None, Some("rtx")), Ok(1));
        assert_eq!(choose(Some(2), Some("RTX")), Ok(2));
        assert_eq!(choose(Some(1), Some("LLVM")), Ok(0));
    }

    #[test]
    fn errors_list_the_devices() {
        for err in [
            choose(Some(0), None),
            choose(Some(5), None),
            choose(Some(3), Some("rtx")),
            choose(None, Some("radeon")),
        ] {
            let message = err.err().map(|e| e.to_string()).unwrap_or_default();
            assert!(
                message
                    .contains("1: llvmpipe (LLVM 15.0.6, 256 bits) (compute queue: 0, type: CPU)"),
                "{message}"
            );
            assert!(message
                .contains("3: NVIDIA GeForce RTX 4070 (compute queue: 2, type: discrete GPU)"));
        }
        assert!(matches!(
            choose(Some(0), None),
            Err(SelectionError::IndexZero { .. })
        ));
        assert!(matches!(
            choose(Some(3), Some("rtx")),
            Err(SelectionError::IndexOutOfRange {
                index: 3,
                count: 2,
                ..
            })
        ));
        assert!(matches!(
            choose(None, Some("radeon")),
            Err(SelectionError::NoMatch { .. })
        ));
        assert_eq!(
            select(&[], &DeviceChoice::default()),
            Err(SelectionError::Empty)
        );
    }
}
