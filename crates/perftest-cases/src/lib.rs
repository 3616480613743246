//! The perftest case matrix as plain data.
//!
//! This crate knows *what* each benchmark case does — which resource family it reads, in which
//! format, with which access pattern and load width — but nothing about Vulkan. It also holds
//! the deterministic input data every case reads and a CPU model of every kernel, so that a
//! GPU result can be checked thread by thread.
//!
//! ```
//! let cases = perftest_cases::original_cases();
//! assert_eq!(cases.len(), 138);
//! assert_eq!(cases[0].name, "Buffer<R8>.Load uniform");
//! ```

#![warn(missing_docs)]

pub mod bandwidth_format;
mod bc;
mod bc7;
mod case;
pub mod chase;
mod check;
mod data;
pub mod descriptor_slots;
mod extra_format;
pub mod families;
mod family;
mod feature;
mod format;
pub mod format_models;
mod kernel_options;
mod kernel_params;
mod matrix;
pub mod memory_kind;
mod mip;
mod one_line;
pub mod parallel;
mod portability;
mod readback;
mod reference;
mod sampler;
pub mod sampling;
mod suite;
#[cfg(test)]
mod suite_tests;
mod support;
pub mod twins;
pub mod working_sets;

pub use bc::{decode_bc1, decode_bc4, decode_bc5, BlockTexel};
pub use bc7::{decode_bc7, BlockWriter};
pub use case::{support, Case, Origin, Params, Pattern, SampleFilter};
pub use check::{
    check_sums, check_words, thread_at, verify, Readback, VerifyOutcome, MAX_VERIFY_THREADS,
    VERIFY_GROUPS, VERIFY_THREADS,
};
pub use data::{
    input_bytes, layered_texture_bytes, mix32, modern_bytes, modern_word, texture_bytes,
    INPUT_BYTES, MAX_TEXTURE_LAYERS, TEXTURE_SIZE,
};
pub use extra_format::{
    bc_block, srgb_slack, srgb_to_linear, ufloat_to_f32, ExtraFormat, TexelValue,
};
pub use families::shader_clock::clock_case;
pub use families::{all_cases, case_for_id, case_index, cases_in, family, CaseIndex, FAMILIES};
pub use family::{Curve, CurvePoint, Family, FamilyRef, Unit, Work};
pub use feature::{Feature, FeatureSet};
pub use format::{half_to_f32, ChannelKind, Format};
pub use kernel_options::KernelOptions;
pub use matrix::{
    find_case, original_cases, quick_cases, select_cases, SelectError, BASELINE_CASE_ID,
    QUICK_PROFILE,
};
pub use memory_kind::{MemoryKind, MemoryTypeInfo};
pub use mip::{
    flat_numerator, level_size, mip_level_bytes, mip_texel, sample_mip, sample_mip_mapped,
    MipChain, MipSample, TexelMap, MIP_LEVELS,
};
pub use one_line::one_line;
pub use portability::{PortabilityFeature, PortabilitySubset};
pub use reference::{
    reference_sum, KernelParams, ReferenceSum, Tolerance, LOADS_PER_THREAD, MAX_THREADS_PER_GROUP,
    THREADS_PER_GROUP,
};
pub use sampler::{
    footprint, gather, read_of, sample, sample_magnitude, texel_at, AddressMode, SamplerState,
    TextureRead,
};
pub use suite::{parse_suites, Suite, SuiteError};
pub use support::{
    vk_format_name, DeviceCaps, DeviceNeed, FormatFeature, FormatSupport, Support,
    WORKING_SET_SHARE,
};
