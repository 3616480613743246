//! `launches`: what a dispatch costs to launch and to wait for. The resources are a submitter on
//! the compute queue, the near-empty launch kernel, a host-visible marker buffer it writes, and
//! a timeline semaphore where the device has them; each case is an [`Operation`] of them
//! (`perftest_cases::families::launches` says what each does).

use std::time::{Duration, Instant};

use ash::vk;
use perftest_cases::families::launches::{launch, Launch, LARGE_DISPATCH, MARKER};
use perftest_cases::{Case, Feature, MemoryKind, Readback};

use super::address_kernel::{AddressKernel, AddressPush};
use crate::barriers::Scope;
use crate::building_blocks::create_family;
use crate::context::Context;
use crate::error::{Error, Result, VkResultExt};
use crate::memory::Buffer;
use crate::operation::Operation;
use crate::plan::{Bind, FamilyResources, Plan, Shared, Stages};
use crate::submitter::{record_runs, Queue, Submitter, SUBMITTER_QUERIES};

/// The launch kernel (`shaders/copies.comp`, variant `launch`).
const SPIRV: &[u8] = include_bytes!("../../spirv/launch.spv");

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "launches",
    spirv: |_| SPIRV,
    create,
    push_bytes: 0,
    stages: Stages::Operation,
};

/// The launch kernel's writes, for the barriers between dependent dispatches.
const KERNEL_SCOPES: (Scope, Scope) = (
    (
        vk::PipelineStageFlags::COMPUTE_SHADER,
        vk::AccessFlags::SHADER_WRITE,
    ),
    (
        vk::PipelineStageFlags::COMPUTE_SHADER,
        vk::AccessFlags::from_raw(
            vk::AccessFlags::SHADER_READ.as_raw() | vk::AccessFlags::SHADER_WRITE.as_raw(),
        ),
    ),
);

/// The family's resources.
#[derive(Default)]
struct Launches {
    submitter: Option<Submitter>,
    kernel: Option<AddressKernel>,
    marker: Option<Buffer>,
    marker_address: u64,
    /// The timeline semaphore and the value it was last signalled to.
    timeline: Option<(vk::Semaphore, u64)>,
    current: Option<Case>,
}

fn create(ctx: &mut Context, _: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    create_family(ctx, Launches::default(), |r, ctx| r.fill(ctx))
}

impl Launches {
    fn fill(&mut self, ctx: &mut Context) -> Result<()> {
        self.submitter = Some(Submitter::new(ctx, Queue::Compute)?);
        self.kernel = Some(AddressKernel::new(ctx, SPIRV)?);
        let host = [
            MemoryKind::HostCached,
            MemoryKind::DeviceLocalMapped,
            MemoryKind::HostUncached,
        ];
        let memory = host
            .iter()
            .find_map(|k| ctx.caps.memory_kinds[k.index()])
            .ok_or_else(|| Error::InvalidArgument("no host-visible memory type".into()))?;
        let usage =
            vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS;
        let marker = ctx.create_buffer_of_type(u64::from(LARGE_DISPATCH) * 4, usage, memory)?;
        self.marker_address = ctx.buffer_address(&marker);
        self.marker = Some(marker);
        if ctx.caps.has(Feature::TimelineSemaphore) {
            let mut kind = vk::SemaphoreTypeCreateInfo::default()
                .semaphore_type(vk::SemaphoreType::TIMELINE)
                .initial_value(0);
            let info = vk::SemaphoreCreateInfo::default().push_next(&mut kind);
            // SAFETY: valid device with timelineSemaphore enabled; the info points at locals.
            let semaphore =
                unsafe { ctx.device.create_semaphore(&info, None) }.call("vkCreateSemaphore")?;
            self.timeline = Some((semaphore, 0));
        }
        Ok(())
    }

    fn parts(&mut self) -> Result<(&mut Submitter, &AddressKernel, AddressPush)> {
        let push = AddressPush {
            src: 0,
            dst: self.marker_address,
            elements: 0,
            value: MARKER,
        };
        match (self.submitter.as_mut(), self.kernel.as_ref()) {
            (Some(submitter), Some(kernel)) => Ok((submitter, kernel, push)),
            _ => Err(Error::InvalidArgument(
                "the launch resources are missing".into(),
            )),
        }
    }

    /// `runs` runs of `count` dispatches of `groups` groups in one submission, timed by GPU
    /// timestamps; each after a barrier on the one before where `dependent`.
    fn dispatches(
        &mut self,
        ctx: &mut Context,
        (count, runs): (u64, u32),
        groups: u32,
        dependent: bool,
    ) -> Result<Vec<Duration>> {
        if runs == 0 || runs > SUBMITTER_QUERIES / 2 {
            return Err(Error::InvalidArgument(format!(
                "{runs} runs per submission"
            )));
        }
        let (submitter, kernel, push) = self.parts()?;
        let pool = submitter.queries();
        submitter.submit_and_wait(ctx, 2 * runs, |device, cb| {
            // SAFETY: recording on the submitter's command buffer; the kernel and the marker are
            // alive.
            let step = |device: &ash::Device, cb, _: u64| unsafe {
                kernel.dispatch(device, cb, push, groups)
            };
            // SAFETY: as above; the pool's first `2 * runs` queries are reset by the submitter.
            unsafe {
                kernel.bind(device, cb);
                record_runs(
                    device,
                    cb,
                    pool,
                    (runs, count),
                    &step,
                    dependent.then_some(KERNEL_SCOPES),
                );
            }
        })?;
        submitter.times(ctx, runs)
    }

    /// One submission of a one-group dispatch, waited for with its fence or (`timeline`) with
    /// the timeline semaphore it signals: the time from `vkQueueSubmit` to the wait's return.
    fn submit_once(&mut self, ctx: &mut Context, timeline: bool) -> Result<Duration> {
        let signal = match (timeline, self.timeline.as_mut()) {
            (false, _) => None,
            (true, Some((semaphore, value))) => {
                *value += 1;
                Some((*semaphore, *value))
            }
            (true, None) => return Err(Error::InvalidArgument("no timeline semaphore".into())),
        };
        let (submitter, kernel, push) = self.parts()?;
        let record = |device: &ash::Device, cb| {
            // SAFETY: recording on the submitter's command buffer; kernel and marker are alive.
            unsafe {
                kernel.bind(device, cb);
                kernel.dispatch(device, cb, push, 1);
            }
        };
        let start = submitter.submit(ctx, 0, signal, record)?;
        if let Some((semaphore, value)) = signal {
            wait_value(ctx, semaphore, value)?;
        } else {
            submitter.wait(ctx)?;
        }
        let took = start.elapsed();
        submitter.wait(ctx)?;
        Ok(took)
    }

    /// `count` round trips of the timeline semaphore between this thread and another: each
    /// side signals the next value and waits for the other's. Half the round trip per launch.
    fn host_signals(&mut self, ctx: &Context, count: u64) -> Result<Duration> {
        let (semaphore, value) = self
            .timeline
            .as_mut()
            .ok_or_else(|| Error::InvalidArgument("no timeline semaphore".into()))?;
        let (semaphore, base) = (*semaphore, *value);
        let device = &ctx.device;
        let timeout = ctx.fence_timeout();
        let took = std::thread::scope(|scope| {
            let other = scope.spawn(move || -> Result<()> {
                for i in 0..count {
                    wait_on(device, semaphore, base + 2 * i + 1, timeout)?;
                    signal(device, semaphore, base + 2 * i + 2)?;
                }
                Ok(())
            });
            let start = Instant::now();
            let mine = (0..count).try_for_each(|i| {
                signal(device, semaphore, base + 2 * i + 1)?;
                wait_on(device, semaphore, base + 2 * i + 2, timeout)
            });
            let took = start.elapsed();
            let theirs = other
                .join()
                .map_err(|_| Error::InvalidArgument("the signalling thread panicked".into()))?;
            mine.and(theirs).map(|()| took)
        })?;
        *value = base + 2 * count;
        Ok(took / 2)
    }
}

/// Signals `semaphore` to `value` from the host.
fn signal(device: &ash::Device, semaphore: vk::Semaphore, value: u64) -> Result<()> {
    let info = vk::SemaphoreSignalInfo::default()
        .semaphore(semaphore)
        .value(value);
    // SAFETY: a timeline semaphore of this device, signalled to a value above its current one.
    unsafe { device.signal_semaphore(&info) }.call("vkSignalSemaphore")
}

/// Waits until `semaphore` reaches `value`, at most `timeout`.
fn wait_on(
    device: &ash::Device,
    semaphore: vk::Semaphore,
    value: u64,
    timeout: Duration,
) -> Result<()> {
    let semaphores = [semaphore];
    let values = [value];
    let info = vk::SemaphoreWaitInfo::default()
        .semaphores(&semaphores)
        .values(&values);
    let ns = u64::try_from(timeout.as_nanos()).unwrap_or(u64::MAX);
    // SAFETY: a timeline semaphore of this device; the info points at locals.
    match unsafe { device.wait_semaphores(&info, ns) } {
        Err(vk::Result::TIMEOUT) => Err(Error::Timeout {
            what: "a timeline semaphore",
            timeout,
        }),
        other => other.call("vkWaitSemaphores"),
    }
}

/// [`wait_on`] with the context's fence timeout.
fn wait_value(ctx: &Context, semaphore: vk::Semaphore, value: u64) -> Result<()> {
    wait_on(&ctx.device, semaphore, value, ctx.fence_timeout())
}

impl FamilyResources for Launches {
    fn bindings(&self, _case: &Case) -> Option<Vec<Bind>> {
        Some(Vec::new())
    }

    fn operation(&mut self, case: &Case) -> Option<&mut dyn Operation> {
        self.current = Some(case.clone());
        Some(self)
    }

    fn destroy(&mut self, ctx: &mut Context) {
        if let Some(submitter) = self.submitter.as_mut() {
            if !submitter.settle(ctx) {
                return;
            }
            submitter.destroy(&ctx.device);
        }
        if let Some(k) = self.kernel.as_mut() {
            k.destroy(&ctx.device);
        }
        if let Some(m) = self.marker.as_mut() {
            ctx.destroy_buffer(m);
        }
        if let Some((semaphore, _)) = self.timeline.take() {
            // SAFETY: no submission that signals it is pending (the submitter settled).
            unsafe { ctx.device.destroy_semaphore(semaphore, None) };
        }
    }
}

impl Operation for Launches {
    fn time(&mut self, ctx: &mut Context, count: u64, runs: u32) -> Result<Vec<Duration>> {
        let case = self
            .current
            .clone()
            .ok_or_else(|| Error::InvalidArgument("no launch case was selected".into()))?;
        match launch(&case) {
            Launch::Dependent(groups) => self.dispatches(ctx, (count, runs), groups, true),
            Launch::Independent => self.dispatches(ctx, (count, runs), 1, false),
            Launch::HostSignal => (0..runs).map(|_| self.host_signals(ctx, count)).collect(),
            host => (0..runs)
                .map(|_| {
                    (0..count).try_fold(Duration::ZERO, |sum, _| {
                        Ok(sum + self.submit_once(ctx, host == Launch::TimelineWait)?)
                    })
                })
                .collect(),
        }
    }

    fn readback(&mut self, ctx: &mut Context) -> Result<Readback> {
        let case = self.current.clone();
        let launch = case.as_ref().map_or(Launch::SubmitWait, launch);
        if let Some(m) = self.marker.as_mut().and_then(Buffer::mapped_mut) {
            m.fill(0);
        }
        let before = self.timeline.map_or(0, |(_, v)| v);
        self.time(ctx, 1, 1)?;
        let written = if launch == Launch::HostSignal {
            let after = self.timeline.map_or(0, |(_, v)| v);
            let (semaphore, _) = self.timeline.unwrap_or_default();
            // SAFETY: a timeline semaphore of this device.
            let counter = unsafe { ctx.device.get_semaphore_counter_value(semaphore) }
                .call("vkGetSemaphoreCounterValue")?;
            let advanced = if counter == after { after - before } else { 0 };
            (advanced as u32).to_le_bytes().to_vec()
        } else {
            let words = launch.groups() as usize;
            let marker = self.marker.as_ref().and_then(Buffer::mapped).unwrap_or(&[]);
            marker[..(4 * words).min(marker.len())].to_vec()
        };
        Ok(Readback {
            sums: Vec::new(),
            written,
        })
    }
}
