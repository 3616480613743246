//! What the driver says about a compiled pipeline (`VK_KHR_pipeline_executable_properties`):
//! statistics such as register count and binary size, and internal representations such as
//! the final assembly. Plain data out; the caller decides what to print.

use std::ffi::CStr;

use ash::khr::pipeline_executable_properties as pep;
use ash::vk;

use crate::error::{Result, VkResultExt};

/// One statistic of a pipeline executable.
#[derive(Clone, Debug, PartialEq)]
pub struct ShaderStatistic {
    /// The driver's short name (`Register Count`).
    pub name: String,
    /// The driver's description.
    pub description: String,
    /// The value, typed as the driver reports it.
    pub value: StatisticValue,
}

/// The value of a [`ShaderStatistic`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum StatisticValue {
    /// `VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR`.
    Bool(bool),
    /// `..._INT64_KHR`.
    Int(i64),
    /// `..._UINT64_KHR`.
    Uint(u64),
    /// `..._FLOAT64_KHR`.
    Float(f64),
}

/// One internal representation of a pipeline executable (e.g. RADV's assembly).
#[derive(Clone, Debug, PartialEq)]
pub struct InternalRepresentation {
    /// The driver's short name (`Assembly`).
    pub name: String,
    /// The driver's description.
    pub description: String,
    /// True when `data` is text (then it holds the text without its terminating NUL).
    pub is_text: bool,
    /// The representation's bytes.
    pub data: Vec<u8>,
}

/// One executable of a compiled pipeline (a compute pipeline usually has exactly one).
#[derive(Clone, Debug, PartialEq)]
pub struct PipelineExecutable {
    /// The driver's name for it.
    pub name: String,
    /// The driver's description.
    pub description: String,
    /// Subgroup size it was compiled for (0 when the driver does not say).
    pub subgroup_size: u32,
    /// Its statistics.
    pub statistics: Vec<ShaderStatistic>,
    /// Its internal representations; empty unless they were asked for when the pipeline was
    /// created.
    pub representations: Vec<InternalRepresentation>,
}

/// A fixed-size C string array as a `String` (lossy, empty when unterminated).
fn text(chars: &[std::ffi::c_char]) -> String {
    // SAFETY: `c_char` and `u8` have the same size and alignment; the slice stays borrowed.
    let bytes = unsafe { std::slice::from_raw_parts(chars.as_ptr().cast::<u8>(), chars.len()) };
    CStr::from_bytes_until_nul(bytes)
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Converts one statistic; `None` for a format this code does not know.
fn statistic(s: &vk::PipelineExecutableStatisticKHR<'_>) -> Option<ShaderStatistic> {
    // SAFETY: the union member read is the one `format` names.
    let value = unsafe {
        match s.format {
            vk::PipelineExecutableStatisticFormatKHR::BOOL32 => {
                StatisticValue::Bool(s.value.b32 != 0)
            }
            vk::PipelineExecutableStatisticFormatKHR::INT64 => StatisticValue::Int(s.value.i64),
            vk::PipelineExecutableStatisticFormatKHR::UINT64 => StatisticValue::Uint(s.value.u64),
            vk::PipelineExecutableStatisticFormatKHR::FLOAT64 => StatisticValue::Float(s.value.f64),
            _ => return None,
        }
    };
    Some(ShaderStatistic {
        name: text(&s.name),
        description: text(&s.description),
        value,
    })
}

/// Reads every executable of `pipeline` with its statistics and, when `representations`, its
/// internal representations.
///
/// # Safety
/// `loader` must belong to the device that created `pipeline`, with the extension and its
/// `pipelineExecutableInfo` feature enabled, and the pipeline must have been created with
/// `CAPTURE_STATISTICS_KHR` (and `CAPTURE_INTERNAL_REPRESENTATIONS_KHR` for representations).
pub(crate) unsafe fn read(
    loader: &pep::Device,
    pipeline: vk::Pipeline,
    representations: bool,
) -> Result<Vec<PipelineExecutable>> {
    let info = vk::PipelineInfoKHR::default().pipeline(pipeline);
    // SAFETY: guaranteed by the caller.
    let properties = unsafe { loader.get_pipeline_executable_properties(&info) }
        .call("vkGetPipelineExecutablePropertiesKHR")?;
    let mut out = Vec::with_capacity(properties.len());
    for (index, p) in (0u32..).zip(&properties) {
        let executable = vk::PipelineExecutableInfoKHR::default()
            .pipeline(pipeline)
            .executable_index(index);
        // SAFETY: guaranteed by the caller; the index is one the driver listed.
        let statistics = unsafe { loader.get_pipeline_executable_statistics(&executable) }
            .call("vkGetPipelineExecutableStatisticsKHR")?;
        let representations = if representations {
            // SAFETY: as above.
            unsafe { read_representations(loader, &executable) }?
        } else {
            Vec::new()
        };
        out.push(PipelineExecutable {
            name: text(&p.name),
            description: text(&p.description),
            subgroup_size: p.subgroup_size,
            statistics: statistics.iter().filter_map(statistic).collect(),
            representations,
        });
    }
    Ok(out)
}

/// The three-call dance of `vkGetPipelineExecutableInternalRepresentationsKHR`: count, sizes,
/// then data into buffers of those sizes.
///
/// # Safety
/// As for [`read`], with `CAPTURE_INTERNAL_REPRESENTATIONS_KHR`.
unsafe fn read_representations(
    loader: &pep::Device,
    executable: &vk::PipelineExecutableInfoKHR<'_>,
) -> Result<Vec<InternalRepresentation>> {
    let get = loader
        .fp()
        .get_pipeline_executable_internal_representations_khr;
    let device = loader.device();
    let mut count = 0u32;
    // SAFETY: a count query (null array) on a valid device and executable.
    unsafe { get(device, executable, &mut count, std::ptr::null_mut()) }
        .result()
        .call("vkGetPipelineExecutableInternalRepresentationsKHR")?;
    let mut items =
        vec![vk::PipelineExecutableInternalRepresentationKHR::default(); count as usize];
    // SAFETY: `items` holds `count` structures with null data pointers: the driver writes
    // names and sizes only.
    let sized = unsafe { get(device, executable, &mut count, items.as_mut_ptr()) };
    if sized != vk::Result::SUCCESS && sized != vk::Result::INCOMPLETE {
        return Err(crate::error::vk_error(
            "vkGetPipelineExecutableInternalRepresentationsKHR",
            sized,
        ));
    }
    items.truncate(count as usize);
    let mut buffers: Vec<Vec<u8>> = items.iter().map(|r| vec![0u8; r.data_size]).collect();
    for (item, buffer) in items.iter_mut().zip(&mut buffers) {
        item.p_data = buffer.as_mut_ptr().cast();
    }
    // SAFETY: every data pointer points at a live buffer of the size the driver asked for.
    let filled = unsafe { get(device, executable, &mut count, items.as_mut_ptr()) };
    if filled != vk::Result::SUCCESS && filled != vk::Result::INCOMPLETE {
        return Err(crate::error::vk_error(
            "vkGetPipelineExecutableInternalRepresentationsKHR",
            filled,
        ));
    }
    Ok(items
        .iter()
        .zip(buffers)
        .map(|(item, mut data)| {
            data.truncate(item.data_size);
            let is_text = item.is_text != 0;
            if is_text {
                if let Some(end) = data.iter().position(|&b| b == 0) {
                    data.truncate(end);
                }
            }
            InternalRepresentation {
                name: text(&item.name),
                description: text(&item.description),
                is_text,
                data,
            }
        })
        .collect())
}
