//! How a case's pipeline and descriptor set are created beyond its SPIR-V and its bindings:
//! the creation flags the twin families change one at a time ([`KernelOptions`]).

/// Creation flags of a case's pipeline and descriptor set; all off for every case whose
/// family says nothing ([`crate::Family::kernel_options`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KernelOptions {
    /// The pipeline asks for robust buffer access to its storage and uniform buffers
    /// (`VkPipelineRobustnessCreateInfo`, `ROBUST_BUFFER_ACCESS`), which the device leaves off
    /// for every other pipeline. Needs [`crate::Feature::PipelineRobustness`].
    pub robust_buffer_access: bool,
    /// The family's bindings may be updated after the set is bound: the set layout is created
    /// with `UPDATE_AFTER_BIND_POOL`, each family binding with `UPDATE_AFTER_BIND`, the pool
    /// with `UPDATE_AFTER_BIND` (the verification output's binding stays plain). Needs the
    /// update-after-bind feature of each binding's descriptor type.
    pub update_after_bind: bool,
}

impl KernelOptions {
    /// Nothing asked for: how every case's kernel is created unless its family says otherwise.
    pub const PLAIN: KernelOptions = KernelOptions {
        robust_buffer_access: false,
        update_after_bind: false,
    };
}
