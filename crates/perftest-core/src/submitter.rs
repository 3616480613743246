//! A queue with a command buffer, fence and timestamp pool of its own: what an operation (a
//! copy, a launch) submits to, on the compute queue or on a transfer-only queue, apart from
//! the context's own command buffer.

use std::time::{Duration, Instant};

use ash::vk;

use crate::barriers::{memory_barrier, Scope};
use crate::context::Context;
use crate::error::{vk_error, Error, Result, VkResultExt};
use crate::timing::elapsed;

/// Every write, as a barrier's source scope.
const ALL_WRITES: Scope = (
    vk::PipelineStageFlags::ALL_COMMANDS,
    vk::AccessFlags::MEMORY_WRITE,
);

/// What the host reads once a submission's fence is signalled.
pub(crate) const HOST_READS: Scope = (vk::PipelineStageFlags::HOST, vk::AccessFlags::HOST_READ);

/// Timestamps one submitter's pool holds: two per timed run.
pub(crate) const SUBMITTER_QUERIES: u32 = 512;

/// A queue and what is needed to submit timed work to it and wait.
pub(crate) struct Submitter {
    queue: vk::Queue,
    pool: vk::CommandPool,
    cb: vk::CommandBuffer,
    fence: vk::Fence,
    queries: vk::QueryPool,
    /// `timestampValidBits` of the queue's family.
    valid_bits: u32,
    /// The family can reset queries in a command buffer (graphics or compute; a transfer-only
    /// family cannot, so its pool is reset on the compute queue first).
    resets_itself: bool,
    /// The fence of the last submission is unsignalled: the GPU may still use the submitter.
    pending: bool,
}

/// Which queue a [`Submitter`] submits to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Queue {
    /// The context's compute queue.
    Compute,
    /// The context's transfer-only queue ([`Context::transfer_queue`]).
    Transfer,
}

impl Submitter {
    /// A submitter on `which` queue of `ctx`; an error where the context has no such queue.
    pub(crate) fn new(ctx: &Context, which: Queue) -> Result<Submitter> {
        let (family, queue) = match which {
            Queue::Compute => (ctx.target.summary.queue_family, ctx.queue),
            Queue::Transfer => ctx.transfer_queue.ok_or_else(|| {
                Error::InvalidArgument("the device has no transfer-only queue open".into())
            })?,
        };
        let props = ctx.target.adapter.queue_families.get(family as usize);
        let valid_bits = props.map_or(0, |p| p.timestamp_valid_bits);
        let resets_itself = props.is_some_and(|p| {
            p.queue_flags
                .intersects(vk::QueueFlags::GRAPHICS | vk::QueueFlags::COMPUTE)
        });
        let mut submitter = Submitter {
            queue,
            pool: vk::CommandPool::null(),
            cb: vk::CommandBuffer::null(),
            fence: vk::Fence::null(),
            queries: vk::QueryPool::null(),
            valid_bits,
            resets_itself,
            pending: false,
        };
        match submitter.create(&ctx.device, family) {
            Ok(()) => Ok(submitter),
            Err(e) => {
                submitter.destroy(&ctx.device);
                Err(e)
            }
        }
    }

    /// Creates the pool, command buffer, fence and query pool.
    fn create(&mut self, device: &ash::Device, family: u32) -> Result<()> {
        let pool_info = vk::CommandPoolCreateInfo::default()
            .queue_family_index(family)
            .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER);
        // SAFETY: valid device; the create infos point at locals.
        unsafe {
            self.pool = device
                .create_command_pool(&pool_info, None)
                .call("vkCreateCommandPool")?;
            let alloc = vk::CommandBufferAllocateInfo::default()
                .command_pool(self.pool)
                .level(vk::CommandBufferLevel::PRIMARY)
                .command_buffer_count(1);
            self.cb = device
                .allocate_command_buffers(&alloc)
                .call("vkAllocateCommandBuffers")?
                .first()
                .copied()
                .unwrap_or_default();
            self.fence = device
                .create_fence(&vk::FenceCreateInfo::default(), None)
                .call("vkCreateFence")?;
            let query_info = vk::QueryPoolCreateInfo::default()
                .query_type(vk::QueryType::TIMESTAMP)
                .query_count(SUBMITTER_QUERIES);
            self.queries = device
                .create_query_pool(&query_info, None)
                .call("vkCreateQueryPool")?;
        }
        Ok(())
    }

    /// The submitter's timestamp pool (the first `2 * runs` queries are reset before `record`).
    pub(crate) fn queries(&self) -> vk::QueryPool {
        self.queries
    }

    /// Resets the first `queries` timestamps, records with `record`, submits to the submitter's
    /// queue and waits for it (the context's fence timeout). Returns the host time from the
    /// submission to the fence.
    pub(crate) fn submit_and_wait(
        &mut self,
        ctx: &mut Context,
        queries: u32,
        record: impl FnOnce(&ash::Device, vk::CommandBuffer),
    ) -> Result<Duration> {
        let start = self.submit(ctx, queries, None, record)?;
        self.wait(ctx)?;
        Ok(start.elapsed())
    }

    /// Resets the first `queries` timestamps, records with `record` and submits to the submitter's
    /// queue, signalling the timeline semaphore `signal` (with its value) where given; returns
    /// when it was submitted. The submission is waited for by the next call, or
    /// [`Submitter::settle`].
    pub(crate) fn submit(
        &mut self,
        ctx: &mut Context,
        queries: u32,
        signal: Option<(vk::Semaphore, u64)>,
        record: impl FnOnce(&ash::Device, vk::CommandBuffer),
    ) -> Result<Instant> {
        self.wait(ctx)?;
        let pool = self.queries;
        if queries > 0 && !self.resets_itself {
            ctx.submit_and_wait(|device, cb| {
                // SAFETY: recording on the compute queue; the pool is not in use.
                unsafe { device.cmd_reset_query_pool(cb, pool, 0, queries) }
            })?;
        }
        let device = &ctx.device;
        // SAFETY: the submitter's last submission finished (waited above), so its command buffer and
        // fence are free; every handle belongs to this device.
        unsafe {
            device.reset_fences(&[self.fence]).call("vkResetFences")?;
            device
                .reset_command_buffer(self.cb, vk::CommandBufferResetFlags::empty())
                .call("vkResetCommandBuffer")?;
            let begin = vk::CommandBufferBeginInfo::default()
                .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
            device
                .begin_command_buffer(self.cb, &begin)
                .call("vkBeginCommandBuffer")?;
            if queries > 0 && self.resets_itself {
                device.cmd_reset_query_pool(self.cb, pool, 0, queries);
            }
            record(device, self.cb);
            device
                .end_command_buffer(self.cb)
                .call("vkEndCommandBuffer")?;
        }
        let buffers = [self.cb];
        let (semaphores, values) = match signal {
            Some((s, v)) => (vec![s], vec![v]),
            None => (Vec::new(), Vec::new()),
        };
        let mut timeline =
            vk::TimelineSemaphoreSubmitInfo::default().signal_semaphore_values(&values);
        let mut submit = vk::SubmitInfo::default()
            .command_buffers(&buffers)
            .signal_semaphores(&semaphores);
        if signal.is_some() {
            submit = submit.push_next(&mut timeline);
        }
        let start = Instant::now();
        // SAFETY: the command buffer was recorded above; the infos point at live locals.
        unsafe { device.queue_submit(self.queue, &[submit], self.fence) }.call("vkQueueSubmit")?;
        self.pending = true;
        Ok(start)
    }

    /// Waits for the submitter's last submission, if any, within the context's fence timeout.
    pub(crate) fn wait(&mut self, ctx: &Context) -> Result<()> {
        if !self.pending {
            return Ok(());
        }
        let timeout = ctx.fence_timeout();
        let ns = u64::try_from(timeout.as_nanos()).unwrap_or(u64::MAX);
        // SAFETY: the fence belongs to this device.
        match unsafe { ctx.device.wait_for_fences(&[self.fence], true, ns) } {
            Ok(()) => {
                self.pending = false;
                Ok(())
            }
            Err(vk::Result::TIMEOUT) => Err(Error::Timeout {
                what: "a transfer submission",
                timeout,
            }),
            Err(r) => Err(vk_error("vkWaitForFences", r)),
        }
    }

    /// The times between timestamps `2k` and `2k + 1` for `k` in `0..runs`, as the last
    /// submission wrote them.
    pub(crate) fn times(&self, ctx: &Context, runs: u32) -> Result<Vec<Duration>> {
        let mut raw = vec![0u64; 2 * runs as usize];
        // SAFETY: the submission that wrote these queries finished; the slice matches the
        // count asked for.
        unsafe {
            ctx.device.get_query_pool_results(
                self.queries,
                0,
                &mut raw,
                vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT,
            )
        }
        .call("vkGetQueryPoolResults")?;
        let period = ctx.target.adapter.properties.limits.timestamp_period;
        raw.chunks_exact(2)
            .map(|p| elapsed(p[0], p[1], self.valid_bits, period))
            .collect()
    }

    /// Whether nothing submitted to the submitter can still be running (waiting a bounded time).
    pub(crate) fn settle(&mut self, ctx: &Context) -> bool {
        let _ = self.wait(ctx);
        !self.pending
    }

    /// Destroys the submitter's objects (idempotent; only once [`Submitter::settle`] returned true).
    pub(crate) fn destroy(&mut self, device: &ash::Device) {
        // SAFETY: nothing submitted to the submitter is running (caller); null handles are ignored.
        unsafe {
            device.destroy_query_pool(self.queries, None);
            device.destroy_fence(self.fence, None);
            device.destroy_command_pool(self.pool, None);
        }
        self.queries = vk::QueryPool::null();
        self.fence = vk::Fence::null();
        self.pool = vk::CommandPool::null();
        self.cb = vk::CommandBuffer::null();
    }
}

/// Records `runs` runs of `count` steps (`step` is told each step's index, counted over the
/// runs): each run between timestamps `2k` and `2k + 1` of `pool`, each step after a barrier from `scopes.0` to `scopes.1` on the one before (none
/// where `scopes` is `None`: independent steps), and a barrier making the last writes visible
/// to the host at the end.
///
/// # Safety
/// `cb` is recording on `device`; `pool` has `2 * runs` reset queries; `step` records valid
/// commands.
pub(crate) unsafe fn record_runs(
    device: &ash::Device,
    cb: vk::CommandBuffer,
    pool: vk::QueryPool,
    (runs, count): (u32, u64),
    step: &dyn Fn(&ash::Device, vk::CommandBuffer, u64),
    scopes: Option<(Scope, Scope)>,
) {
    let (writes, access) = scopes.unwrap_or((ALL_WRITES, ALL_WRITES));
    let bottom = vk::PipelineStageFlags::BOTTOM_OF_PIPE;
    // SAFETY: guaranteed by the caller.
    unsafe {
        for k in 0..runs {
            if k > 0 && scopes.is_some() {
                memory_barrier(device, cb, writes, access);
            }
            device.cmd_write_timestamp(cb, bottom, pool, 2 * k);
            for c in 0..count {
                if c > 0 && scopes.is_some() {
                    memory_barrier(device, cb, writes, access);
                }
                step(device, cb, u64::from(k) * count + c);
            }
            device.cmd_write_timestamp(cb, bottom, pool, 2 * k + 1);
        }
        memory_barrier(device, cb, writes, HOST_READS);
    }
}
