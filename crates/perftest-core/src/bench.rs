//! [`Bench`]: a context plus the suite's resources and pipelines; runs timed dispatches and
//! verification dispatches.

use std::time::{Duration, Instant};

use ash::vk;
use gpu_allocator::MemoryLocation;
use perftest_cases::{
    support, Case, KernelParams, Readback, Support, THREADS_PER_GROUP, VERIFY_GROUPS,
};

use crate::barriers::memory_barrier;
use crate::context::{Context, MAX_QUERIES};
use crate::error::{Error, Result, VkResultExt};
use crate::executables::PipelineExecutable;
use crate::graphics::Draw;
use crate::kernels::{Kernel, PipelineBuilder, PushConstants};
use crate::pipeline_cache::{PipelineCacheSource, ProbeCache};
use crate::plan::Stages;
use crate::resources::Resources;
use crate::sizing::group_total;
use crate::timing::elapsed;

/// The most bytes a case may read ([`Case::footprint`]) for its resources to take other
/// places ([`Bench::place`]): 16 MB. Past the L2 of today's GPUs a case's data spans many
/// pages anyway, and copies of memory-suite working sets would take gigabytes.
pub const PLACED_FOOTPRINT_MAX: u64 = 16 << 20;

/// Most dispatches one [`Bench::time`] call may record (two timestamps each).
pub const MAX_DISPATCHES_PER_SUBMIT: u32 = MAX_QUERIES / 2;

/// What a dispatch of one kernel binds: pipeline, descriptor set and push constants.
struct Binding {
    pipeline: vk::Pipeline,
    layout: vk::PipelineLayout,
    set: vk::DescriptorSet,
    push: Vec<u8>,
    /// The stages that see the push constants.
    stage_flags: vk::ShaderStageFlags,
    /// A graphics kernel's draw; `None` for compute.
    draw: Option<Draw>,
}

impl Binding {
    /// The binding of `kernel` with the store path at `write_index` (`u32::MAX`: never store).
    /// For a chain ([`perftest_cases::Work::is_chain`]), family word 3 carries `blocks`, the
    /// number of blocks of steps one dispatch runs.
    fn new(kernel: &Kernel, write_index: u32, blocks: u32) -> Binding {
        let params = KernelParams::for_case(&kernel.case);
        let (mut family, len) = kernel.push;
        if kernel.case.work().is_chain() {
            family[3] = blocks;
        }
        let push = PushConstants {
            elements_mask: params.elements_mask,
            write_index,
            read_start_address: params.read_start_address,
            index: params.index,
            family,
        };
        Binding {
            pipeline: kernel.pipeline,
            layout: kernel.layout,
            set: kernel.set,
            push: push.bytes(len),
            stage_flags: kernel.stage_flags(),
            draw: kernel.draw.clone(),
        }
    }

    /// The bind point of the kernel's pipeline.
    fn bind_point(&self) -> vk::PipelineBindPoint {
        if self.draw.is_some() {
            vk::PipelineBindPoint::GRAPHICS
        } else {
            vk::PipelineBindPoint::COMPUTE
        }
    }

    /// Records the kernel's work for `groups` workgroups: a dispatch, or a draw of as many
    /// instances (`verify`: with the attachment cleared and kept, see [`Draw::record`]).
    ///
    /// # Safety
    /// As [`Binding::record`], after it, outside a render pass.
    unsafe fn run(
        &self,
        device: &ash::Device,
        cb: vk::CommandBuffer,
        groups: [u32; 3],
        verify: bool,
    ) {
        // SAFETY: guaranteed by the caller.
        unsafe {
            match &self.draw {
                Some(draw) => {
                    let instances = u32::try_from(group_total(groups)).unwrap_or(u32::MAX);
                    draw.record(device, cb, instances, verify);
                }
                None => device.cmd_dispatch(cb, groups[0], groups[1], groups[2]),
            }
        }
    }

    /// Records the binds into `cb`.
    ///
    /// # Safety
    /// `cb` must be recording on `device`, and the kernel's objects must be alive.
    unsafe fn record(&self, device: &ash::Device, cb: vk::CommandBuffer) {
        // SAFETY: guaranteed by the caller.
        unsafe {
            device.cmd_bind_pipeline(cb, self.bind_point(), self.pipeline);
            device.cmd_bind_descriptor_sets(
                cb,
                self.bind_point(),
                self.layout,
                0,
                &[self.set],
                &[],
            );
            device.cmd_push_constants(cb, self.layout, self.stage_flags, 0, &self.push);
        }
    }
}

/// Handle to a case prepared with [`Bench::prepare`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KernelId(usize);

/// The suite on one device: pipelines, and the resources of their families, built on demand.
pub struct Bench {
    ctx: Context,
    /// The resources the kernels bind now: those of placement `placement`.
    resources: Resources,
    /// The resources of the other placements made so far, by placement (`None` for the one in
    /// use, and for one not made yet); see [`Bench::place`].
    parked: Vec<Option<Resources>>,
    placement: usize,
    kernels: Vec<Kernel>,
    setup_time: Duration,
    /// Wall time spent creating the families' resources in [`Bench::prepare_all`] so far.
    resource_time: Duration,
    representations: bool,
}

impl Bench {
    /// Checks the device's workgroup limits and creates the resources every case shares (the
    /// verification output); each family's own resources are created when its first case is
    /// prepared.
    pub fn new(mut ctx: Context) -> Result<Self> {
        let start = Instant::now();
        let limits = ctx.target.adapter.properties.limits;
        if limits.max_compute_work_group_invocations < THREADS_PER_GROUP
            || limits.max_compute_work_group_size[0] < 256
        {
            return Err(Error::Unsupported {
                id: "every case".into(),
                reason: format!(
                    "the device allows {} invocations per workgroup; perftest needs 256",
                    limits.max_compute_work_group_invocations
                ),
            });
        }
        let resources = Resources::new(&mut ctx)?;
        Ok(Bench {
            ctx,
            resources,
            parked: Vec::new(),
            placement: 0,
            kernels: Vec::new(),
            representations: false,
            setup_time: start.elapsed(),
            resource_time: Duration::ZERO,
        })
    }

    /// Wall time [`Bench::new`] took to create the shared resources.
    pub fn setup_time(&self) -> Duration {
        self.setup_time
    }

    /// Wall time [`Bench::prepare_all`] has spent creating the families' resources (data made
    /// on the CPU and uploaded), of all its calls so far: the part of building that is not
    /// pipelines.
    pub fn resource_time(&self) -> Duration {
        self.resource_time
    }

    /// The parts the probe uses at once: the context (to submit), the resources (shared with
    /// pipeline-building threads) and the built kernels.
    pub(crate) fn parts(&mut self) -> (&mut Context, &Resources, &mut Vec<Kernel>) {
        (&mut self.ctx, &self.resources, &mut self.kernels)
    }

    /// Creates the resources of `case`'s family unless they exist (before its pipeline is
    /// built on another thread).
    pub(crate) fn ensure_resources(&mut self, case: &Case) -> Result<()> {
        self.resources.ensure(&mut self.ctx, case)
    }

    /// A pipeline builder for this bench's device, through `cache` (may be null).
    pub(crate) fn builder(&self, cache: vk::PipelineCache) -> PipelineBuilder {
        PipelineBuilder::new(&self.ctx, cache, self.representations)
    }

    /// The underlying context.
    pub fn context(&self) -> &Context {
        &self.ctx
    }

    /// The underlying context, mutably (e.g. to change the fence timeout).
    pub fn context_mut(&mut self) -> &mut Context {
        &mut self.ctx
    }

    /// Asks pipelines built from now on to keep the driver's internal representations (e.g.
    /// RADV's assembly) for [`Bench::pipeline_executables`]; only where
    /// [`Context::shader_statistics_available`].
    pub fn set_capture_internal_representations(&mut self, on: bool) {
        self.representations = on;
    }

    /// What the driver says about the compiled pipeline of a prepared case: its executables
    /// with their statistics (and internal representations, when asked for). Empty where
    /// [`Context::shader_statistics_available`] is false.
    pub fn pipeline_executables(&self, id: KernelId) -> &[PipelineExecutable] {
        self.kernels
            .get(id.0)
            .map_or(&[], |k| k.executables.as_slice())
    }

    /// [`Bench::pipeline_executables`] of the prepared pipeline of `case`, if there is one.
    pub fn pipeline_executables_of(&self, case: &Case) -> &[PipelineExecutable] {
        self.kernels
            .iter()
            .find(|k| k.case == *case)
            .map_or(&[], |k| k.executables.as_slice())
    }

    /// Whether this device can run `case`, and why not.
    pub fn support(&self, case: &Case) -> Support {
        support(case, &self.ctx.caps)
    }

    /// Builds the pipeline of `case` (skipped cases give [`Error::Unsupported`]).
    pub fn prepare(&mut self, case: &Case) -> Result<KernelId> {
        if let Some(i) = self.kernels.iter().position(|k| k.case == *case) {
            return Ok(KernelId(i));
        }
        if let Support::Skipped(reason) = self.support(case) {
            return Err(Error::Unsupported {
                id: case.id.clone(),
                reason,
            });
        }
        self.resources.ensure(&mut self.ctx, case)?;
        let kernel = Kernel::new(
            &self.builder(vk::PipelineCache::null()),
            &self.resources,
            case,
        )?;
        self.kernels.push(kernel);
        Ok(KernelId(self.kernels.len() - 1))
    }

    /// Builds the pipelines of many cases at once, on several CPU threads (pipeline creation
    /// is the slow part of start-up on most drivers), through the pipeline cache `cache` names
    /// (loaded before and saved after, for a file; see [`PipelineCacheSource`]). Returns one
    /// result per case, in order (unsupported cases give [`Error::Unsupported`]), and the
    /// warnings about the cache (an unusable file is ignored, never an error).
    pub fn prepare_all(
        &mut self,
        cases: &[Case],
        cache: &PipelineCacheSource,
    ) -> (Vec<Result<KernelId>>, Vec<String>) {
        let mut warnings = Vec::new();
        let started = Instant::now();
        let mut results: Vec<Option<Result<KernelId>>> = cases
            .iter()
            .map(|case| {
                if let Some(i) = self.kernels.iter().position(|k| k.case == *case) {
                    return Some(Ok(KernelId(i)));
                }
                match self.support(case) {
                    Support::Skipped(reason) => Some(Err(Error::Unsupported {
                        id: case.id.clone(),
                        reason,
                    })),
                    // The family's resources exist before any thread builds its pipelines.
                    Support::Supported => self.resources.ensure(&mut self.ctx, case).err().map(Err),
                }
            })
            .collect();
        self.resource_time += started.elapsed();
        let todo: Vec<usize> = (0..cases.len()).filter(|&i| results[i].is_none()).collect();
        let threads = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .clamp(1, 8)
            .min(todo.len().max(1));
        let opened = ProbeCache::open(&self.ctx, cache, &mut warnings);
        let builder = self.builder(opened.handle);
        let (builder, resources) = (&builder, &self.resources);
        let build = move |chunk: &[usize]| {
            chunk
                .iter()
                .map(|&i| (i, Kernel::new(builder, resources, &cases[i])))
                .collect::<Vec<_>>()
        };
        let built: Vec<(usize, Result<Kernel>)> = std::thread::scope(|scope| {
            // A chunk whose thread cannot be started (a pids limit) is built on this thread.
            let workers: Vec<_> = todo
                .chunks(todo.len().div_ceil(threads).max(1))
                .map(|chunk| {
                    std::thread::Builder::new()
                        .spawn_scoped(scope, move || build(chunk))
                        .map_err(|_| chunk)
                })
                .collect();
            workers
                .into_iter()
                .flat_map(|w| match w {
                    Ok(handle) => handle.join().unwrap_or_default(),
                    Err(chunk) => build(chunk),
                })
                .collect()
        });
        // Every build has finished: the cache can be saved (and destroyed, if perftest made it).
        opened.close(&self.ctx, &mut warnings);
        for (i, kernel) in built {
            results[i] = Some(kernel.map(|k| {
                self.kernels.push(k);
                KernelId(self.kernels.len() - 1)
            }));
        }
        let results = results
            .into_iter()
            .zip(cases)
            .map(|(r, case)| {
                r.unwrap_or_else(|| {
                    Err(Error::InvalidArgument(format!(
                        "building {} was interrupted",
                        case.id
                    )))
                })
            })
            .collect();
        (results, warnings)
    }

    fn kernel(&self, id: KernelId) -> Result<&Kernel> {
        self.kernels
            .get(id.0)
            .ok_or_else(|| Error::InvalidArgument(format!("unknown kernel {}", id.0)))
    }

    /// Runs `dispatches` back-to-back dispatches of `groups` workgroups in one submission,
    /// each between its own pair of timestamps with a compute-to-compute barrier before it,
    /// and returns each dispatch's GPU time. A chain case
    /// ([`perftest_cases::Work::is_chain`]) runs one workgroup per dispatch, following its
    /// chain for as many blocks of steps as `groups` counts workgroups.
    pub fn time(
        &mut self,
        id: KernelId,
        groups: [u32; 3],
        dispatches: u32,
    ) -> Result<Vec<Duration>> {
        let count = usize::try_from(dispatches).unwrap_or(usize::MAX);
        if self.kernel(id)?.stages == Stages::Operation {
            let case = self.kernel(id)?.case.clone();
            let operation = self.resources.operation(&case)?;
            return operation.time(&mut self.ctx, group_total(groups), dispatches);
        }
        if count > MAX_DISPATCHES_PER_SUBMIT as usize {
            return Err(Error::InvalidArgument(format!(
                "dispatches per submission must be 1..={MAX_DISPATCHES_PER_SUBMIT}, got {dispatches}"
            )));
        }
        self.time_batch(&vec![(id, groups); count])
    }

    /// Runs one dispatch per entry (kernel, workgroups), in order, in one submission — each
    /// between its own pair of timestamps with a compute-to-compute barrier before it — and
    /// returns each dispatch's GPU time. Different kernels may follow each other, which is how
    /// a run interleaves its cases. At most [`MAX_DISPATCHES_PER_SUBMIT`] entries.
    pub fn time_batch(&mut self, batch: &[(KernelId, [u32; 3])]) -> Result<Vec<Duration>> {
        time_batch_on(&mut self.ctx, &self.kernels, batch)
    }

    /// Binds the kernels of `ids` to the resources of placement `placement` (from 0, the
    /// resources made first): a second set of the same resources, made the first time that
    /// placement is asked for and kept until the bench is dropped, so that it lies elsewhere in
    /// memory. Which addresses a case's resources get can set how fast it runs; a run measured at several placements
    /// sees whether it does. Kernels not in `ids`, and graphics kernels and operations, keep
    /// the resources they bind, as do those that do not [move](Bench::moves). Call only while
    /// no submission runs (every timing call waits for its own).
    pub fn place(&mut self, placement: usize, ids: &[KernelId]) -> Result<()> {
        if placement != self.placement {
            if self.parked.len() <= placement.max(self.placement) {
                self.parked
                    .resize_with(placement.max(self.placement) + 1, || None);
            }
            let next = match self.parked[placement].take() {
                Some(r) => r,
                None => Resources::new(&mut self.ctx)?,
            };
            let previous = std::mem::replace(&mut self.resources, next);
            self.parked[self.placement] = Some(previous);
            self.placement = placement;
        }
        for &id in ids {
            if !self.moves(id) {
                continue;
            }
            let case = self.kernel(id)?.case.clone();
            self.resources.ensure(&mut self.ctx, &case)?;
            self.kernels[id.0].rebind(&self.ctx.device, &self.resources)?;
        }
        Ok(())
    }

    /// The places the data of kernel `id`'s case lies at, in the resources of the current
    /// placement ([`Bench::place`]): the byte offset of each identical copy in the buffer that
    /// holds them. One place for most families; several where the place of the data sets the
    /// speed (the uniform-buffer family and the constant paths that read a buffer), and the
    /// measurement policy chooses one with [`Bench::put_data`].
    pub fn data_places(&self, id: KernelId) -> Result<Vec<u64>> {
        let case = &self.kernel(id)?.case;
        self.resources.data_places(case)
    }

    /// Binds kernel `id` to its data at place `place` of [`Bench::data_places`], in the
    /// resources of the current placement, for every dispatch and verification from now on
    /// (a kernel reads place 0 until it is moved; on an error it stays where it was). Call only
    /// while no submission runs (every timing call waits for its own).
    pub fn put_data(&mut self, id: KernelId, place: usize) -> Result<()> {
        let kernel = self
            .kernels
            .get_mut(id.0)
            .ok_or_else(|| Error::InvalidArgument(format!("unknown kernel {}", id.0)))?;
        kernel.put_data(&self.ctx.device, &self.resources, place)
    }

    /// Whether [`Bench::place`] moves the kernel `id` to other resources: a compute kernel
    /// whose case reads at most [`PLACED_FOOTPRINT_MAX`] bytes.
    pub fn moves(&self, id: KernelId) -> bool {
        self.kernels.get(id.0).is_some_and(|k| {
            k.stages == Stages::Compute && k.case.footprint() <= PLACED_FOOTPRINT_MAX
        })
    }

    /// Runs the case once with the store path enabled ([`VERIFY_GROUPS`] workgroups) and
    /// returns what it left behind: every thread's four output lanes, ordered by workgroup then
    /// local index, and the family's result buffer (cleared to zero before the dispatch) where
    /// it has one. A chain case runs one block of steps in every thread.
    pub fn verify(&mut self, id: KernelId) -> Result<Readback> {
        let kernel = self.kernel(id)?;
        if kernel.stages == Stages::Operation {
            let case = kernel.case.clone();
            return self.resources.operation(&case)?.readback(&mut self.ctx);
        }
        let binding = Binding::new(kernel, 0, 1);
        let stages = shader_stages(&[kernel]);
        let tiles = (kernel.stages == Stages::Fragment)
            .then_some(binding.draw.clone())
            .flatten();
        let threads = kernel.case.verify_threads();
        let written = self.resources.written(&kernel.case)?;
        let mut readback = match written {
            Some((_, bytes)) => Some(self.ctx.create_buffer(
                "verification read-back",
                bytes.max(4),
                vk::BufferUsageFlags::TRANSFER_DST,
                MemoryLocation::GpuToCpu,
            )?),
            None => None,
        };
        let commands = VerifyCommands {
            binding,
            tiles,
            stages,
            output: self.resources.output.buffer,
            size: self.resources.output.size,
            copy: written.zip(readback.as_ref().map(|b| b.buffer)),
        };
        let ran = self.ctx.submit_and_wait(|device, cb| {
            // SAFETY: recording state; every handle is alive and belongs to this device.
            unsafe { commands.record(device, cb) }
        });
        let written_bytes = match (&ran, &readback, written) {
            (Ok(()), Some(b), Some((_, bytes))) => b
                .allocation
                .as_ref()
                .and_then(|a| a.mapped_slice())
                .map(|m| m[..(bytes as usize).min(m.len())].to_vec()),
            _ => None,
        };
        if let Some(b) = readback.as_mut() {
            if self.ctx.settle() {
                self.ctx.destroy_buffer(b);
            }
        }
        ran?;
        Ok(Readback {
            sums: self.output_sums(threads)?,
            written: written_bytes.unwrap_or_default(),
        })
    }

    /// The four output lanes of the first `threads` verification threads, as the last
    /// verification dispatch left them in the output buffer.
    fn output_sums(&self, threads: u32) -> Result<Vec<[f32; 4]>> {
        let bytes = self
            .resources
            .output
            .allocation
            .as_ref()
            .and_then(|a| a.mapped_slice())
            .ok_or_else(|| Error::InvalidArgument("output memory is not host-visible".into()))?;
        Ok(bytes
            .chunks_exact(16)
            .take(threads as usize)
            .map(|t| {
                let f = |k: usize| f32::from_le_bytes([t[k], t[k + 1], t[k + 2], t[k + 3]]);
                [f(0), f(4), f(8), f(12)]
            })
            .collect())
    }
}

/// What a verification dispatch records: the kernel's binding with the store path on, the
/// tiles to copy out of the attachment (fragment-shader kernels), and where its results go.
struct VerifyCommands {
    binding: Binding,
    /// A fragment-shader kernel's draw, whose sums are copied from the attachment.
    tiles: Option<Draw>,
    /// The shader stages and extra access flags of [`shader_stages`].
    stages: (vk::PipelineStageFlags, vk::AccessFlags),
    /// The verification output buffer and its size in bytes.
    output: vk::Buffer,
    size: u64,
    /// The family's result buffer with the bytes to read back, and the host-visible buffer
    /// they are copied to.
    copy: Option<((vk::Buffer, u64), vk::Buffer)>,
}

impl VerifyCommands {
    /// Records the verification: the output poisoned and the result buffer cleared, the
    /// kernel run on [`VERIFY_GROUPS`] workgroups, the tiles and the result buffer copied
    /// out, and a barrier that makes everything visible to the host.
    ///
    /// # Safety
    /// `cb` is recording, outside a render pass; every handle is alive and belongs to
    /// `device`.
    unsafe fn record(&self, device: &ash::Device, cb: vk::CommandBuffer) {
        let (shaders, more) = self.stages;
        let output = self.output;
        // SAFETY: guaranteed by the caller.
        unsafe {
            // Poison the output (all-ones = NaN) so a thread that writes nothing fails.
            device.cmd_fill_buffer(cb, output, 0, self.size, u32::MAX);
            if let Some(((target, _), _)) = self.copy {
                device.cmd_fill_buffer(cb, target, 0, vk::WHOLE_SIZE, 0);
            }
            memory_barrier(
                device,
                cb,
                (
                    vk::PipelineStageFlags::TRANSFER,
                    vk::AccessFlags::TRANSFER_WRITE,
                ),
                (
                    shaders,
                    vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE | more,
                ),
            );
            self.binding.record(device, cb);
            self.binding.run(device, cb, VERIFY_GROUPS, true);
            if let Some(draw) = &self.tiles {
                // The fragments' sums are in the attachment: copy them to the output.
                let groups = VERIFY_GROUPS.iter().product();
                draw.record_tile_copy(device, cb, groups, output);
            }
            if let Some(((target, bytes), dst)) = self.copy {
                memory_barrier(
                    device,
                    cb,
                    (shaders, vk::AccessFlags::SHADER_WRITE | more),
                    (
                        vk::PipelineStageFlags::TRANSFER,
                        vk::AccessFlags::TRANSFER_READ,
                    ),
                );
                let region = [vk::BufferCopy {
                    src_offset: 0,
                    dst_offset: 0,
                    size: bytes,
                }];
                device.cmd_copy_buffer(cb, target, dst, &region);
            }
            memory_barrier(
                device,
                cb,
                (
                    shaders | vk::PipelineStageFlags::TRANSFER,
                    vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::TRANSFER_WRITE | more,
                ),
                (vk::PipelineStageFlags::HOST, vk::AccessFlags::HOST_READ),
            );
        }
    }
}

impl Drop for Bench {
    fn drop(&mut self) {
        if !self.ctx.settle() {
            return; // hung submission: leak rather than destroy what it may use
        }
        for k in &mut self.kernels {
            k.destroy(&self.ctx);
        }
        self.resources.destroy(&mut self.ctx);
        for r in self.parked.iter_mut().flatten() {
            r.destroy(&mut self.ctx);
        }
    }
}

/// [`Bench::time_batch`] over `kernels` (the bench's, or ones a probe holds), on `ctx`.
pub(crate) fn time_batch_on(
    ctx: &mut Context,
    kernels: &[Kernel],
    batch: &[(KernelId, [u32; 3])],
) -> Result<Vec<Duration>> {
    if batch.is_empty() || batch.len() > MAX_DISPATCHES_PER_SUBMIT as usize {
        return Err(Error::InvalidArgument(format!(
            "dispatches per submission must be 1..={MAX_DISPATCHES_PER_SUBMIT}, got {}",
            batch.len()
        )));
    }
    let (recorded, used) = timed_bindings(ctx, kernels, batch)?;
    let (shaders, more) = shader_stages(&used);
    let graphics = used.iter().any(|k| k.stages.is_graphics());
    let pool = ctx.query_pool;
    // At most 2 x MAX_DISPATCHES_PER_SUBMIT, checked above.
    let queries = 2 * batch.len() as u32;
    ctx.submit_and_wait(|device, cb| {
        // SAFETY: recording state; every handle is alive and belongs to this device.
        unsafe { record_timed(device, cb, pool, &recorded, (shaders, more)) }
    })?;
    let wall = ctx.last_submission();
    let times = read_times(ctx, queries)?;
    if graphics && !timestamps_cover(&times, wall) {
        return Err(Error::UntimedDraws {
            gpu_ms: times.iter().sum::<Duration>().as_secs_f64() * 1e3,
            wall_ms: wall.as_secs_f64() * 1e3,
        });
    }
    Ok(times)
}

/// One timed dispatch: what it binds and the workgroups it dispatches.
type TimedDispatch = (Binding, [u32; 3]);

/// Checks each entry of `batch` (its kernel exists, its group count fits a dispatch or a
/// draw) and returns what each dispatch binds with the workgroups it dispatches (a chain runs
/// one workgroup, its group count becoming its number of blocks), and the kernels used.
fn timed_bindings<'k>(
    ctx: &Context,
    kernels: &'k [Kernel],
    batch: &[(KernelId, [u32; 3])],
) -> Result<(Vec<TimedDispatch>, Vec<&'k Kernel>)> {
    let mut recorded = Vec::with_capacity(batch.len());
    let mut used = Vec::with_capacity(batch.len());
    for &(id, groups) in batch {
        let kernel = kernel_at(kernels, id)?;
        if kernel.stages == Stages::Operation {
            return Err(Error::InvalidArgument(format!(
                "{} is an operation, timed alone (Bench::time), not in a batch of dispatches",
                kernel.case.id
            )));
        }
        used.push(kernel);
        if kernel.stages.is_graphics() {
            check_instances(groups)?;
        } else {
            check_groups(ctx, groups)?;
        }
        // A chain runs one workgroup; the group count becomes its number of blocks.
        let (blocks, dispatch) = if kernel.case.work().is_chain() {
            let blocks = u32::try_from(group_total(groups)).map_err(|_| {
                Error::InvalidArgument(format!(
                    "a chain of {groups:?} blocks is longer than 2^32 blocks"
                ))
            })?;
            (blocks, [1, 1, 1])
        } else {
            (0, groups)
        };
        recorded.push((Binding::new(kernel, u32::MAX, blocks), dispatch));
    }
    Ok((recorded, used))
}

/// Records the timed dispatches of `recorded` into `cb`: the query pool's first
/// `2 * recorded.len()` queries reset, then for each dispatch a barrier after the previous
/// one's shader writes (`stages`: the shader stages and extra access flags of
/// [`shader_stages`]) and the dispatch between its own pair of timestamps.
///
/// # Safety
/// `cb` is recording, outside a render pass; `pool` and every handle of `recorded` are alive
/// and belong to `device`; the pool has at least `2 * recorded.len()` queries.
unsafe fn record_timed(
    device: &ash::Device,
    cb: vk::CommandBuffer,
    pool: vk::QueryPool,
    recorded: &[TimedDispatch],
    stages: (vk::PipelineStageFlags, vk::AccessFlags),
) {
    let (shaders, more) = stages;
    // At most 2 x MAX_DISPATCHES_PER_SUBMIT, checked by the caller.
    let queries = 2 * recorded.len() as u32;
    // SAFETY: guaranteed by the caller.
    unsafe {
        device.cmd_reset_query_pool(cb, pool, 0, queries);
        let mut bound = None;
        for (k, (binding, groups)) in (0u32..).zip(recorded) {
            if bound != Some(binding.pipeline) {
                binding.record(device, cb);
                bound = Some(binding.pipeline);
            }
            memory_barrier(
                device,
                cb,
                (shaders, vk::AccessFlags::SHADER_WRITE | more),
                (
                    shaders,
                    vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE | more,
                ),
            );
            device.cmd_write_timestamp(cb, vk::PipelineStageFlags::BOTTOM_OF_PIPE, pool, 2 * k);
            if binding.draw.is_some() {
                // The first timestamp is written before the draw starts, on drivers that
                // would otherwise bin it with the draw (lavapipe).
                memory_barrier(
                    device,
                    cb,
                    (
                        vk::PipelineStageFlags::ALL_COMMANDS,
                        vk::AccessFlags::empty(),
                    ),
                    (
                        vk::PipelineStageFlags::ALL_COMMANDS,
                        vk::AccessFlags::empty(),
                    ),
                );
            }
            binding.run(device, cb, *groups, false);
            device.cmd_write_timestamp(cb, vk::PipelineStageFlags::BOTTOM_OF_PIPE, pool, 2 * k + 1);
        }
    }
}

/// Reads the first `queries` timestamps of the finished submission and returns the time
/// between each pair.
fn read_times(ctx: &Context, queries: u32) -> Result<Vec<Duration>> {
    let mut raw = vec![0u64; queries as usize];
    // SAFETY: the submission finished; `raw` holds exactly `queries` 64-bit values.
    unsafe {
        ctx.device.get_query_pool_results(
            ctx.query_pool,
            0,
            &mut raw,
            vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT,
        )
    }
    .call("vkGetQueryPoolResults")?;
    let bits = ctx.target.timestamp_valid_bits;
    let period = ctx.target.timestamp_period;
    raw.chunks_exact(2)
        .map(|p| elapsed(p[0], p[1], bits, period))
        .collect()
}

/// Whether timestamped intervals summing to `times` can be the work of a submission that took
/// `wall` from `vkQueueSubmit` to its fence (pure rule). The clock also counts the submission's
/// start, what lies between the timestamps and the wait, and on a CPU driver (lavapipe) the
/// work its threads do outside the timestamped intervals, which grows when the host is busy:
/// up to 5.4 times the timestamps was seen there on a loaded CI machine. So only a gross
/// mismatch fails: more than ten times the timestamps plus 100 ms (lavapipe's draws took 17
/// times their timestamps before perftest put a barrier after the first one).
pub(crate) fn timestamps_cover(times: &[Duration], wall: Duration) -> bool {
    let gpu: Duration = times.iter().sum();
    wall <= gpu * 10 + Duration::from_millis(100)
}

/// [`time_batch_on`] for one kernel held outside the bench: `dispatches` dispatches of
/// `groups` workgroups.
pub(crate) fn time_kernel(
    ctx: &mut Context,
    kernel: &Kernel,
    groups: [u32; 3],
    dispatches: u32,
) -> Result<Vec<Duration>> {
    let count = usize::try_from(dispatches).unwrap_or(usize::MAX);
    if count > MAX_DISPATCHES_PER_SUBMIT as usize {
        return Err(Error::InvalidArgument(format!(
            "dispatches per submission must be 1..={MAX_DISPATCHES_PER_SUBMIT}, got {dispatches}"
        )));
    }
    time_batch_on(
        ctx,
        std::slice::from_ref(kernel),
        &vec![(KernelId(0), groups); count],
    )
}

/// The kernel `id` of `kernels`.
fn kernel_at(kernels: &[Kernel], id: KernelId) -> Result<&Kernel> {
    kernels
        .get(id.0)
        .ok_or_else(|| Error::InvalidArgument(format!("unknown kernel {}", id.0)))
}

/// The pipeline stages the barriers around `kernels`' work name, and the accesses they add to
/// shader reads and writes: the compute shader stage alone when every kernel is compute (as
/// the original suite always ran), else every stage and every memory access (attachment
/// writes and the verification copies included).
fn shader_stages(kernels: &[&Kernel]) -> (vk::PipelineStageFlags, vk::AccessFlags) {
    if kernels.iter().any(|k| k.stages.is_graphics()) {
        (
            vk::PipelineStageFlags::ALL_COMMANDS,
            vk::AccessFlags::MEMORY_READ | vk::AccessFlags::MEMORY_WRITE,
        )
    } else {
        (
            vk::PipelineStageFlags::COMPUTE_SHADER,
            vk::AccessFlags::empty(),
        )
    }
}

/// Checks that a draw of `groups` instances is 1..=2^32-1 instances.
fn check_instances(groups: [u32; 3]) -> Result<()> {
    let total = group_total(groups);
    if total == 0 || total > u64::from(u32::MAX) {
        return Err(Error::InvalidArgument(format!(
            "a draw of {groups:?} groups of instances is outside 1..=2^32-1 instances"
        )));
    }
    Ok(())
}

/// Checks `groups` against `maxComputeWorkGroupCount`.
fn check_groups(ctx: &Context, groups: [u32; 3]) -> Result<()> {
    let max = ctx.target.max_compute_work_group_count;
    if groups.contains(&0) || groups.iter().zip(max).any(|(&g, m)| g > m) {
        return Err(Error::InvalidArgument(format!(
            "dispatch of {groups:?} workgroups is outside 1..={max:?}"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_cover_their_submission_up_to_ten_times_plus_100_ms() {
        let ms = Duration::from_millis;
        // Draws of 2 ms, ten of them: 20 ms of timestamps.
        let times = vec![ms(2); 10];
        assert!(timestamps_cover(&times, ms(21)));
        assert!(timestamps_cover(&times, ms(300)));
        assert!(!timestamps_cover(&times, ms(301)));
        // Short work: the 100 ms cover the submission's own costs.
        assert!(timestamps_cover(&[Duration::from_micros(10)], ms(95)));
        // lavapipe on a loaded machine: 56 ms of timestamps, 304 ms of wall time.
        assert!(timestamps_cover(&[ms(56)], ms(304)));
        // lavapipe before the barrier after the first timestamp: 191 ms of 3250.
        assert!(!timestamps_cover(&[ms(191)], ms(3250)));
        assert!(!timestamps_cover(&[], ms(101)));
    }
}
