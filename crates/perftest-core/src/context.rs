//! The device-level context: a device and queue (created or borrowed), a memory allocator, and
//! one command buffer with its fence and timestamp query pool.

use std::mem::ManuallyDrop;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ash::vk;
use gpu_allocator::vulkan::{Allocator, AllocatorCreateDesc};
use perftest_cases::{DeviceCaps, Feature};

use crate::adapter::{Adapter, Enabled, FeatureChain};
use crate::error::{vk_error, Error, Result, VkResultExt};
use crate::instance::Instance;
use crate::targets::{describe_target, ComputeTarget};

/// Default limit for one submission to finish before it is reported as a timeout.
pub const DEFAULT_FENCE_TIMEOUT: Duration = Duration::from_secs(10);

/// Timestamp queries available per submission (two per dispatch).
pub(crate) const MAX_QUERIES: u32 = 512;

/// A Vulkan device and compute queue that perftest runs its work on.
///
/// Either owned ([`Context::new`]: perftest created the device and destroys it) or borrowed
/// ([`Context::borrow`]: an engine's device, never destroyed here). Everything perftest creates
/// on the device is destroyed when the context (or the [`crate::Bench`] holding it) drops.
pub struct Context {
    pub(crate) instance: ash::Instance,
    _instance_keepalive: Option<Arc<Instance>>,
    pub(crate) target: ComputeTarget,
    pub(crate) device: ash::Device,
    owns_device: bool,
    pub(crate) queue: vk::Queue,
    pub(crate) allocator: ManuallyDrop<Allocator>,
    command_pool: vk::CommandPool,
    pub(crate) command_buffer: vk::CommandBuffer,
    fence: vk::Fence,
    pub(crate) query_pool: vk::QueryPool,
    pending: bool,
    lost: bool,
    fence_timeout: Duration,
    /// Functions of `VK_KHR_pipeline_executable_properties`, when perftest created the device
    /// with it enabled.
    pub(crate) executables: Option<ash::khr::pipeline_executable_properties::Device>,
    /// What the device offers that some cases need (features enabled here, limits, memory).
    pub(crate) caps: DeviceCaps,
    /// `dynamicRendering` is enabled: graphics cases draw without render-pass objects (a
    /// borrowed device: off, since perftest cannot know what the engine enabled).
    pub(crate) dynamic_rendering: bool,
    /// `dynamicRendering` is enabled on the device (whatever [`Context::set_dynamic_rendering`]
    /// chose).
    dynamic_rendering_enabled: bool,
    /// The functions of `VK_KHR_dynamic_rendering`, when dynamic rendering comes from that
    /// extension (a Vulkan 1.2 device) rather than from Vulkan 1.3.
    pub(crate) dynamic_rendering_khr: Option<ash::khr::dynamic_rendering::Device>,
    /// A queue of a transfer-only family (its index and the queue), where perftest created the
    /// device and the device has one ([`perftest_cases::DeviceCaps::transfer_queue`]).
    pub(crate) transfer_queue: Option<(u32, vk::Queue)>,
    /// When the last submission was handed to the queue.
    submitted_at: Instant,
    /// How long the last submission took, from `vkQueueSubmit` to its fence.
    last_submission: Duration,
}

impl Context {
    /// Creates a device with one queue of `target`'s compute family on `instance`.
    ///
    /// Where the device offers `VK_KHR_pipeline_executable_properties` (and Vulkan 1.1), the
    /// extension and its `pipelineExecutableInfo` feature are enabled, so that
    /// [`crate::Bench::pipeline_executables`] can report each pipeline's statistics.
    pub fn new(instance: Arc<Instance>, target: &ComputeTarget) -> Result<Self> {
        let priorities = [1.0f32];
        let adapter = &target.adapter;
        let (families, transfer_family) = queue_families(target);
        let queue_info: Vec<vk::DeviceQueueCreateInfo> = families
            .iter()
            .map(|&family| {
                vk::DeviceQueueCreateInfo::default()
                    .queue_family_index(family)
                    .queue_priorities(&priorities)
            })
            .collect();
        let ash_instance = instance.handle().clone();
        let enabled = Enabled::everything_offered(adapter);
        let vulkan11 = adapter.at_least(vk::API_VERSION_1_1);
        let levels = adapter.levels();
        let statistics = vulkan11 && enabled.pipeline_executable_info;
        let clock = levels.shader_clock && enabled.features.has(Feature::ShaderSubgroupClock);
        let robustness =
            levels.pipeline_robustness && enabled.features.has(Feature::PipelineRobustness);
        let extensions = device_extensions(&enabled, statistics, clock, robustness);
        let mut feature = vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default()
            .pipeline_executable_info(true);
        let offered = enabled.portability.unwrap_or_default();
        let mut portability = vk::PhysicalDevicePortabilitySubsetFeaturesKHR::default()
            .events(offered.events)
            .image_view_format_reinterpretation(offered.image_view_format_reinterpretation)
            .image_view_format_swizzle(offered.image_view_format_swizzle)
            .image_view2_d_on3_d_image(offered.image_view_2d_on_3d_image)
            .mutable_comparison_samplers(offered.mutable_comparison_samplers)
            .sampler_mip_lod_bias(offered.sampler_mip_lod_bias);
        let mut chain = FeatureChain::enabling(enabled.features, levels);
        let mut v13 = vk::PhysicalDeviceVulkan13Features::default()
            .dynamic_rendering(enabled.dynamic_rendering.core);
        let mut khr_rendering = vk::PhysicalDeviceDynamicRenderingFeaturesKHR::default()
            .dynamic_rendering(enabled.dynamic_rendering.khr);
        let mut info = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queue_info)
            .enabled_features(&chain.core)
            .enabled_extension_names(&extensions);
        if statistics {
            info = info.push_next(&mut feature);
        }
        if enabled.portability.is_some() && vulkan11 {
            info = info.push_next(&mut portability);
        }
        if levels.vulkan12 {
            info = info.push_next(&mut chain.v12).push_next(&mut chain.v11);
        }
        if clock {
            info = info.push_next(&mut chain.clock);
        }
        if robustness {
            info = info.push_next(&mut chain.robustness);
        }
        if enabled.dynamic_rendering.core {
            info = info.push_next(&mut v13);
        } else if enabled.dynamic_rendering.khr {
            info = info.push_next(&mut khr_rendering);
        }
        // SAFETY: the physical device belongs to `instance`; `info` points at live locals.
        let device = unsafe { ash_instance.create_device(target.physical_device, &info, None) }
            .call("vkCreateDevice")?;
        // SAFETY: queue 0 of this family was requested above.
        let queue = unsafe { device.get_device_queue(target.summary.queue_family, 0) };
        // SAFETY: queue 0 of the transfer family was requested above, where there is one.
        let transfer_queue = transfer_family.map(|f| (f, unsafe { device.get_device_queue(f, 0) }));
        let mut caps = adapter.caps(target.summary.queue_family, &enabled);
        caps.transfer_queue = transfer_queue.is_some();
        caps.host_timeline_threads = instance.host_timeline_threads();
        let mut context = Self::finish(
            ash_instance,
            Some(instance),
            target.clone(),
            (device, true),
            queue,
            caps,
        )?;
        if enabled.dynamic_rendering.khr {
            context.dynamic_rendering_khr = Some(ash::khr::dynamic_rendering::Device::new(
                &context.instance,
                &context.device,
            ));
        }
        let dynamic = enabled.dynamic_rendering.core || enabled.dynamic_rendering.khr;
        context.dynamic_rendering = dynamic;
        context.dynamic_rendering_enabled = dynamic;
        context.transfer_queue = transfer_queue;
        if statistics {
            context.executables = Some(ash::khr::pipeline_executable_properties::Device::new(
                &context.instance,
                &context.device,
            ));
        }
        Ok(context)
    }

    /// Wraps an engine's existing device and queue. Nothing passed in is ever destroyed.
    ///
    /// Pipeline statistics stay off on a borrowed device: perftest cannot know whether the
    /// engine enabled `VK_KHR_pipeline_executable_properties`, and using it otherwise would be
    /// invalid.
    ///
    /// # Safety
    /// `instance`, `physical_device`, `device` and `queue` must be valid, related to each other
    /// (the device created from the physical device of the instance, the queue from
    /// `queue_family` of the device, a family with compute and timestamps), and outlive the
    /// returned context. The caller must not use `queue` from another thread while perftest
    /// submits work (Vulkan requires external synchronisation of queues).
    pub unsafe fn borrow(
        instance: &ash::Instance,
        instance_api_version: u32,
        physical_device: vk::PhysicalDevice,
        device: &ash::Device,
        queue: vk::Queue,
        queue_family: u32,
    ) -> Result<Self> {
        let adapter = Arc::new(Adapter::query(
            instance,
            instance_api_version,
            physical_device,
        ));
        let target = describe_target(&adapter, queue_family);
        if target.timestamp_valid_bits == 0 {
            return Err(Error::InvalidArgument(format!(
                "queue family {queue_family} of {} cannot write timestamps",
                target.summary.name
            )));
        }
        // Nothing optional is assumed enabled on an engine's device, the portability
        // subset's features included.
        let caps = adapter.caps(queue_family, &Enabled::nothing(&adapter));
        Self::finish(
            instance.clone(),
            None,
            target,
            (device.clone(), false),
            queue,
            caps,
        )
    }

    fn finish(
        instance: ash::Instance,
        keepalive: Option<Arc<Instance>>,
        target: ComputeTarget,
        (device, owns_device): (ash::Device, bool),
        queue: vk::Queue,
        caps: DeviceCaps,
    ) -> Result<Self> {
        // Build step by step; on failure, undo what was made.
        let mut made = Partial {
            device: Some(&device),
            owns_device,
            ..Partial::default()
        };
        let allocator = Allocator::new(&AllocatorCreateDesc {
            instance: instance.clone(),
            device: device.clone(),
            physical_device: target.physical_device,
            debug_settings: Default::default(),
            buffer_device_address: caps.has(Feature::BufferDeviceAddress),
            allocation_sizes: Default::default(),
        })
        .map_err(|source| Error::Allocation {
            what: "the allocator",
            source,
        })?;
        let pool_info = vk::CommandPoolCreateInfo::default()
            .queue_family_index(target.summary.queue_family)
            .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER);
        // SAFETY: valid device; create infos point at locals.
        made.command_pool =
            unsafe { device.create_command_pool(&pool_info, None) }.call("vkCreateCommandPool")?;
        let alloc_info = vk::CommandBufferAllocateInfo::default()
            .command_pool(made.command_pool)
            .level(vk::CommandBufferLevel::PRIMARY)
            .command_buffer_count(1);
        // SAFETY: the pool was just created on this device.
        let command_buffer = unsafe { device.allocate_command_buffers(&alloc_info) }
            .call("vkAllocateCommandBuffers")?
            .first()
            .copied()
            .ok_or(Error::Vulkan {
                call: "vkAllocateCommandBuffers",
                result: vk::Result::ERROR_UNKNOWN,
            })?;
        // SAFETY: valid device.
        made.fence = unsafe { device.create_fence(&vk::FenceCreateInfo::default(), None) }
            .call("vkCreateFence")?;
        let query_info = vk::QueryPoolCreateInfo::default()
            .query_type(vk::QueryType::TIMESTAMP)
            .query_count(MAX_QUERIES);
        // SAFETY: valid device.
        let query_pool =
            unsafe { device.create_query_pool(&query_info, None) }.call("vkCreateQueryPool")?;
        let (command_pool, fence) = (made.command_pool, made.fence);
        std::mem::forget(made);
        Ok(Context {
            instance,
            _instance_keepalive: keepalive,
            target,
            device,
            owns_device,
            queue,
            allocator: ManuallyDrop::new(allocator),
            command_pool,
            command_buffer,
            fence,
            query_pool,
            pending: false,
            lost: false,
            fence_timeout: DEFAULT_FENCE_TIMEOUT,
            executables: None,
            caps,
            dynamic_rendering: false,
            dynamic_rendering_enabled: false,
            dynamic_rendering_khr: None,
            transfer_queue: None,
            submitted_at: Instant::now(),
            last_submission: Duration::ZERO,
        })
    }

    /// What the device offers that some cases need: the optional features enabled on it, its
    /// format support, limits and memory (the input of every skip decision).
    pub fn caps(&self) -> &DeviceCaps {
        &self.caps
    }

    /// Whether graphics cases draw with dynamic rendering (`dynamicRendering` of Vulkan 1.3, or
    /// `VK_KHR_dynamic_rendering` on a Vulkan 1.2 device: enabled by perftest where the device
    /// offers it) rather than render-pass objects.
    pub fn dynamic_rendering(&self) -> bool {
        self.dynamic_rendering
    }

    /// Makes graphics cases draw through render-pass objects even where dynamic rendering is
    /// enabled (`false`); `true` has no effect where it is not enabled. Takes effect when a
    /// bench prepares its first graphics case, which creates the attachment every graphics
    /// case then shares: call it before that (later calls change what
    /// [`Context::dynamic_rendering`] says, not how the bench draws). For engines that want the
    /// older path, and to test it on a modern driver.
    pub fn set_dynamic_rendering(&mut self, on: bool) {
        self.dynamic_rendering = on && self.dynamic_rendering_enabled;
    }

    /// The device and queue family this context runs on.
    pub fn target(&self) -> &ComputeTarget {
        &self.target
    }

    /// The logical device (created or borrowed).
    pub fn device(&self) -> &ash::Device {
        &self.device
    }

    /// The queue perftest submits to.
    pub fn queue(&self) -> vk::Queue {
        self.queue
    }

    /// True when perftest created the device (and will destroy it).
    pub fn owns_device(&self) -> bool {
        self.owns_device
    }

    /// True when pipelines report statistics (`VK_KHR_pipeline_executable_properties` enabled
    /// on a device perftest created).
    pub fn shader_statistics_available(&self) -> bool {
        self.executables.is_some()
    }

    /// How long one submission may take before [`Error::Timeout`].
    pub fn fence_timeout(&self) -> Duration {
        self.fence_timeout
    }

    /// Sets how long one submission may take before [`Error::Timeout`].
    pub fn set_fence_timeout(&mut self, timeout: Duration) {
        self.fence_timeout = timeout;
    }

    /// Waits for the last submission, if it has not been seen finishing.
    fn wait_pending(&mut self, timeout: Duration) -> Result<()> {
        if self.lost {
            return Err(Error::DeviceLost {
                call: "an earlier submission",
            });
        }
        if !self.pending {
            return Ok(());
        }
        let ns = u64::try_from(timeout.as_nanos()).unwrap_or(u64::MAX);
        // SAFETY: the fence belongs to this device.
        match unsafe { self.device.wait_for_fences(&[self.fence], true, ns) } {
            Ok(()) => {
                self.pending = false;
                Ok(())
            }
            Err(vk::Result::TIMEOUT) => Err(Error::Timeout {
                what: "a GPU submission",
                timeout,
            }),
            Err(r) => {
                if r == vk::Result::ERROR_DEVICE_LOST {
                    self.lost = true;
                }
                Err(vk_error("vkWaitForFences", r))
            }
        }
    }

    /// Records commands with `record`, submits them and waits (with the fence timeout).
    /// On a timeout the submission stays pending; the next call waits for it first.
    pub(crate) fn submit_and_wait(
        &mut self,
        record: impl FnOnce(&ash::Device, vk::CommandBuffer),
    ) -> Result<()> {
        self.submit_and_wait_for(self.fence_timeout, record)
    }

    /// [`Context::submit_and_wait`] with an explicit timeout (uploads use a generous one).
    pub(crate) fn submit_and_wait_for(
        &mut self,
        timeout: Duration,
        record: impl FnOnce(&ash::Device, vk::CommandBuffer),
    ) -> Result<()> {
        self.wait_pending(timeout)?;
        let cb = self.command_buffer;
        // SAFETY: the previous submission (if any) finished, so the command buffer and fence
        // are not in use; all handles belong to this device.
        unsafe {
            self.device
                .reset_fences(&[self.fence])
                .call("vkResetFences")?;
            self.device
                .reset_command_buffer(cb, vk::CommandBufferResetFlags::empty())
                .call("vkResetCommandBuffer")?;
            let begin = vk::CommandBufferBeginInfo::default()
                .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
            self.device
                .begin_command_buffer(cb, &begin)
                .call("vkBeginCommandBuffer")?;
            record(&self.device, cb);
            self.device
                .end_command_buffer(cb)
                .call("vkEndCommandBuffer")?;
            let buffers = [cb];
            let submit = [vk::SubmitInfo::default().command_buffers(&buffers)];
            self.submitted_at = Instant::now();
            if let Err(r) = self.device.queue_submit(self.queue, &submit, self.fence) {
                if r == vk::Result::ERROR_DEVICE_LOST {
                    self.lost = true;
                }
                return Err(vk_error("vkQueueSubmit", r));
            }
        }
        self.pending = true;
        let waited = self.wait_pending(timeout);
        self.last_submission = self.submitted_at.elapsed();
        waited
    }

    /// Wall time of the last [`Context::submit_and_wait`]'s submission, from `vkQueueSubmit`
    /// until its fence was seen signalled (recording excluded).
    pub(crate) fn last_submission(&self) -> Duration {
        self.last_submission
    }

    /// Waits a bounded time (the fence timeout, at least 2 s) for the last submission before
    /// destruction. Returns true when nothing of ours can still be running on the GPU: then
    /// objects may be destroyed. False means a hung submission: the caller must leak what the
    /// GPU may still use rather than destroy it (and must not block forever on the queue).
    pub(crate) fn settle(&mut self) -> bool {
        if self.pending && !self.lost {
            let _ = self.wait_pending(self.fence_timeout.max(Duration::from_secs(2)));
        }
        !self.pending || self.lost
    }

    /// True while no submission of ours is known to be unfinished.
    pub(crate) fn is_idle(&self) -> bool {
        !self.pending
    }
}

/// The device extensions perftest enables: pipeline statistics (`statistics`), the portability
/// subset wherever the device offers it (the specification requires it), dynamic rendering by
/// extension, the shader clock (`clock`) and per-pipeline robustness (`robustness`).
fn device_extensions(
    enabled: &Enabled,
    statistics: bool,
    clock: bool,
    robustness: bool,
) -> Vec<*const std::ffi::c_char> {
    [
        (statistics, ash::khr::pipeline_executable_properties::NAME),
        (
            enabled.portability.is_some(),
            ash::khr::portability_subset::NAME,
        ),
        (
            enabled.dynamic_rendering.khr,
            ash::khr::dynamic_rendering::NAME,
        ),
        (clock, ash::khr::shader_clock::NAME),
        (robustness, ash::ext::pipeline_robustness::NAME),
    ]
    .into_iter()
    .filter(|(on, _)| *on)
    .map(|(_, name)| name.as_ptr())
    .collect()
}

/// The queue families a device perftest creates gets one queue of: `target`'s compute family,
/// and a transfer-only family where the device has one (the transfer suite copies on it beside
/// the compute queue), which is also returned alone.
fn queue_families(target: &ComputeTarget) -> (Vec<u32>, Option<u32>) {
    let transfer = target
        .adapter
        .transfer_family()
        .filter(|&f| f != target.summary.queue_family);
    let families = std::iter::once(target.summary.queue_family)
        .chain(transfer)
        .collect();
    (families, transfer)
}

/// Objects made so far while building a context, destroyed if building fails midway.
#[derive(Default)]
struct Partial<'a> {
    device: Option<&'a ash::Device>,
    owns_device: bool,
    command_pool: vk::CommandPool,
    fence: vk::Fence,
}

impl Drop for Partial<'_> {
    fn drop(&mut self) {
        let Some(device) = self.device else { return };
        // SAFETY: these objects were created on `device` and never used by the GPU.
        unsafe {
            if self.fence != vk::Fence::null() {
                device.destroy_fence(self.fence, None);
            }
            if self.command_pool != vk::CommandPool::null() {
                device.destroy_command_pool(self.command_pool, None);
            }
            if self.owns_device {
                device.destroy_device(None);
            }
        }
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        if !self.settle() {
            // A submission is still running (hung GPU): destroying what it uses is undefined
            // behaviour, so everything — memory, objects, an owned device — is left to the
            // process exit instead.
            return;
        }
        // SAFETY: the allocator is dropped exactly once, here, before the device; every
        // allocation made through it was freed by the resources that owned it.
        unsafe { ManuallyDrop::drop(&mut self.allocator) };
        // SAFETY: the GPU is idle (or lost); these objects were created by this context.
        unsafe {
            self.device.destroy_query_pool(self.query_pool, None);
            self.device.destroy_fence(self.fence, None);
            self.device.destroy_command_pool(self.command_pool, None);
            if self.owns_device {
                self.device.destroy_device(None);
            }
        }
    }
}
