//! What a resource family is to the shared machinery: the [`Family`] trait each family module
//! implements, [`FamilyRef`], the handle a [`Case`] keeps to its family, and [`check_sums`],
//! the check of [`Family::verify`] by default.

use crate::case::Case;
use crate::kernel_options::KernelOptions;
use crate::kernel_params::{KernelParams, ReferenceSum, Tolerance};
use crate::readback::{thread_at, Readback, VerifyOutcome};
use crate::support::DeviceNeed;

/// A curve of the cache hierarchy: what the memory suite's sweeps measure over working sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Curve {
    /// Latency, one dependent load at a time, beside `shared` bytes of declared shared memory
    /// (0: the latency sweep).
    Latency {
        /// Bytes of shared memory the kernel declares.
        shared: u64,
    },
    /// Bandwidth of every shader unit at once.
    Bandwidth,
}

/// Where a case lies on a [`Curve`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CurvePoint {
    /// The curve.
    pub curve: Curve,
    /// The working set, in bytes.
    pub working_set: u64,
}

/// One resource family: its cases, their parameters, what they need and what they compute.
///
/// A family lives in one module of `families/` and is listed once in
/// [`crate::families::FAMILIES`]; `perftest-core` pairs it, by [`Family::label`], with the
/// resources, bindings and SPIR-V its kernels use. Nothing outside the family's module looks at
/// a case's [`crate::Params`].
pub trait Family: Send + Sync {
    /// The family's stable word (`typed_buffer`): registry key, report field, shader name.
    fn label(&self) -> &'static str;

    /// The family's name for people, plural (`Typed buffers`): report headings.
    fn title(&self) -> &'static str;

    /// Every case of the family, in suite order.
    fn cases(&self) -> Vec<Case>;

    /// Workgroup shape of the family's kernels (`[x, y]`; 256 threads, the original's, unless
    /// the family says otherwise).
    fn workgroup_size(&self) -> [u32; 2] {
        [256, 1]
    }

    /// Workgroup shape of `case`'s kernel: [`Family::workgroup_size`], unless the family's
    /// shape varies from case to case. Everything that counts threads per group (work per
    /// group, verification, the CPU models' local indices, resident groups) reads it through
    /// [`Case::workgroup_size`] and [`Case::threads`]; at most
    /// [`crate::MAX_THREADS_PER_GROUP`] threads.
    fn case_workgroup_size(&self, _case: &Case) -> [u32; 2] {
        self.workgroup_size()
    }

    /// Loop trip count of the kernels (per axis, for 2D loops): the `LOADS` specialization
    /// constant.
    fn loop_trip(&self) -> u32 {
        256
    }

    /// The `LOADS` specialization constant of `case`'s kernel: [`Family::loop_trip`], unless
    /// the family's trip count varies from case to case (it must then agree with
    /// [`Family::work`]).
    fn case_loop_trip(&self, _case: &Case) -> u32 {
        self.loop_trip()
    }

    /// Bytes one operation (load, store or atomic) of `case` moves.
    fn bytes_per_load(&self, case: &Case) -> u32;

    /// What one thread of `case` does: the unit and how many of it (default: 256 loads).
    fn work(&self, _case: &Case) -> Work {
        Work {
            unit: Unit::Load,
            per_thread: 256,
        }
    }

    /// For a chain ([`Unit::DependentLoad`]): the steps of one lap of `case`'s chain. A chain
    /// is measured alone (nothing runs between its dispatches to evict what it has cached),
    /// after untimed dispatches that walk about one lap, so that its timed steps find the
    /// caches as a long walk leaves them. Default 0 (not a chain).
    fn chain_length(&self, _case: &Case) -> u64 {
        0
    }

    /// Whether the family measures bandwidth (bytes per second over a working set) rather than
    /// a rate of operations: reports then show its cases in GB/s, never in Gload/s. Default:
    /// no.
    fn reports_bandwidth(&self) -> bool {
        false
    }

    /// The cache-hierarchy curve `case` is a point of, and its working set; `None` (the
    /// default) for families that draw no curve. The hierarchy analysis reads curves through
    /// this, never by id.
    fn curve_point(&self, _case: &Case) -> Option<CurvePoint> {
        None
    }

    /// The case at `working_set` bytes on the curve `case` is a point of (the sizes a refined
    /// curve adds between its measured ones); `None` (the default) where the family has none,
    /// or not at that size.
    fn on_curve_at(&self, _case: &Case, _working_set: u64) -> Option<Case> {
        None
    }

    /// The case `id` names where [`Family::cases`] does not list it (a refined curve's sizes,
    /// as reports hold them); `None` (the default) for families whose cases are all listed.
    fn case_for_id(&self, _id: &str) -> Option<Case> {
        None
    }

    /// What `case` needs from the device beyond the basics (format features, descriptor
    /// indexing, device addresses, limits); default: nothing.
    fn needs(&self, _case: &Case) -> Vec<DeviceNeed> {
        Vec::new()
    }

    /// The family's own specialization constants 5, 6 and 7 for `case` (default zeros; see
    /// `shaders/common.glsl`).
    fn constants(&self, _case: &Case) -> [u32; 3] {
        [0; 3]
    }

    /// How `case`'s pipeline and descriptor set are created beyond its SPIR-V and bindings
    /// (robust buffer access, update-after-bind descriptors); default: [`KernelOptions::PLAIN`].
    fn kernel_options(&self, _case: &Case) -> KernelOptions {
        KernelOptions::PLAIN
    }

    /// The runtime values (push constants) the kernel of `case` reads.
    fn kernel_params(&self, _case: &Case) -> KernelParams {
        KernelParams::default()
    }

    /// The CPU model: what the thread at `local` of `case` must write in verification mode
    /// (used by the default [`Family::verify`]). Default: NaN in every lane, which nothing
    /// matches, so a family that checks its results another way must override
    /// [`Family::verify`].
    fn reference(&self, _case: &Case, _params: KernelParams, _local: [u32; 2]) -> ReferenceSum {
        ReferenceSum {
            sum: [f32::NAN; 4],
            abs_sum: [0.0; 4],
        }
    }

    /// The cases of a family whose cases copy other families' cases (twins, fragment-shader
    /// loads), made from `cases_of`, which gives every case of the family with a label as the
    /// registry lists them, with `me` as their family; `None` (the default) for a family whose
    /// cases are its own ([`Family::cases`]). The registry calls it
    /// ([`crate::families::family_cases`]), so that no family looks the registry up.
    fn copied_cases(
        &self,
        _me: FamilyRef,
        _cases_of: &dyn Fn(&str) -> Vec<Case>,
    ) -> Option<Vec<Case>> {
        None
    }

    /// The case whose kernel `case` runs with one thing about its creation changed (a robust,
    /// concurrent or update-after-bind twin's original): `case` then runs the original's
    /// SPIR-V. Default: none.
    fn original(&self, _case: &Case) -> Option<Case> {
        None
    }

    /// The compute case whose loop `case` runs in another shader stage (a fragment-shader
    /// case's compute twin): `case` then uses the twin's resources, bindings and CPU model, and
    /// reports show the two side by side. Default: none.
    fn twin(&self, _case: &Case) -> Option<Case> {
        None
    }

    /// The id of the case whose family's resources and bindings `case` uses, when not its own:
    /// its [`Family::twin`]'s by default (a family whose kernels sample another family's
    /// textures names that family's case). An id, not a case, so that a family needs no look-up
    /// in the registry: the caller resolves it ([`crate::case_for_id`]).
    fn resource_case_id(&self, case: &Case) -> Option<String> {
        self.twin(case).map(|twin| twin.id)
    }

    /// Checks what a verification dispatch of `case` left behind against the CPU model.
    /// Default: every thread's four-lane sum against [`Family::reference`], within
    /// [`Tolerance::DEFAULT`].
    fn verify(&self, case: &Case, readback: &Readback) -> VerifyOutcome {
        check_sums(case, &readback.sums, Tolerance::DEFAULT)
    }
}

/// Checks every thread's four-lane sum against [`crate::Family::reference`], within
/// `tolerance` (the original families' check).
pub fn check_sums(case: &Case, sums: &[[f32; 4]], tolerance: Tolerance) -> VerifyOutcome {
    let params = KernelParams::for_case(case);
    let [wx, _] = case.workgroup_size();
    // Every workgroup computes the same sums, so the model is evaluated once per local index.
    let model: Vec<_> = (0..case.threads())
        .map(|l| case.family.reference(case, params, [l % wx, l / wx]))
        .collect();
    let mut outcome = VerifyOutcome::new();
    for (t, got) in sums.iter().enumerate() {
        let (group, local) = thread_at(t, case.threads());
        let want = &model[local as usize];
        let bad =
            (0..4).find(|&lane| !tolerance.accepts(got[lane], want.sum[lane], want.abs_sum[lane]));
        outcome.record(bad.is_none(), || {
            let lane = bad.unwrap_or(0);
            format!(
                "group {group} thread {local} lane {lane}: expected {}, got {}",
                want.sum[lane], got[lane]
            )
        });
    }
    outcome
}

/// The unit of work a case counts (the report's "loads" column counts these).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// A load or a texture sample.
    Load,
    /// A store.
    Store,
    /// An atomic operation.
    Atomic,
    /// One step of a pointer chase: a load whose address is the value the previous load
    /// returned. Every thread of the workgroup follows the same chain, and a dispatch runs one
    /// workgroup: the sized count is a number of blocks of [`Work::per_thread`] steps, passed
    /// to the kernel as family word 3 (`params.family.w`), so the time per step is the latency
    /// of one load.
    DependentLoad,
    /// One tick of the shader clock, counted by one thread of one workgroup: a chain like
    /// [`Unit::DependentLoad`], whose blocks are [`Work::per_thread`] ticks, so its rate in
    /// ticks per second is the clock's frequency.
    ClockTick,
    /// One vertex through the vertex stage (all of its attributes): the graphics suite's vertex
    /// fetch, whose "threads" are vertices and whose bytes are the vertex's.
    Vertex,
    /// One transfer of the case's bytes (a copy, a write or a read by the host): the transfer
    /// suite's copies, whose "group" is one transfer ([`Work::per_thread`] is 1).
    Transfer,
    /// One launch: a submission waited for, a dispatch, a semaphore signal seen by the host
    /// (the transfer suite's launch costs, one per "group").
    Launch,
}

impl Unit {
    /// The word reports use (`load`, `store`, `atomic`).
    pub fn name(self) -> &'static str {
        match self {
            Unit::Load => "load",
            Unit::Store => "store",
            Unit::Atomic => "atomic",
            Unit::DependentLoad => "dependent-load",
            Unit::ClockTick => "clock-tick",
            Unit::Vertex => "vertex",
            Unit::Transfer => "transfer",
            Unit::Launch => "launch",
        }
    }
}

/// What one thread of a case does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Work {
    /// What is counted.
    pub unit: Unit,
    /// How many units one thread performs.
    pub per_thread: u32,
}

impl Work {
    /// Whether the case is a chain of dependent loads: one workgroup per dispatch, the sized
    /// count going to the kernel as a number of blocks of [`Work::per_thread`] steps (see
    /// [`Unit::DependentLoad`]).
    pub fn is_chain(&self) -> bool {
        matches!(self.unit, Unit::DependentLoad | Unit::ClockTick)
    }

    /// Whether one "group" of the case is one operation rather than a workgroup of threads (a
    /// transfer or a launch: [`Work::per_group`] is [`Work::per_thread`]).
    pub fn is_operation(&self) -> bool {
        matches!(self.unit, Unit::Transfer | Unit::Launch)
    }

    /// Whether the case is measured alone rather than interleaved with others: a chain (which
    /// anything else would evict from the caches) or an operation (which is not a dispatch).
    pub fn measured_alone(&self) -> bool {
        self.is_chain() || self.is_operation()
    }

    /// The units one workgroup of `threads` threads (one block of a chain) counts: the threads
    /// times [`Work::per_thread`], or [`Work::per_thread`] alone for a chain, whose threads all
    /// follow the same addresses, and for an operation. A case's figure is
    /// [`Case::ops_per_group`].
    pub fn per_group(&self, threads: u32) -> u64 {
        if self.is_chain() || self.is_operation() {
            u64::from(self.per_thread)
        } else {
            u64::from(threads) * u64::from(self.per_thread)
        }
    }
}

/// A case's handle to its family: compares, hashes and prints as the family's label.
#[derive(Clone, Copy)]
pub struct FamilyRef(pub &'static dyn Family);

impl std::ops::Deref for FamilyRef {
    type Target = dyn Family;
    fn deref(&self) -> &Self::Target {
        self.0
    }
}

impl PartialEq for FamilyRef {
    fn eq(&self, other: &Self) -> bool {
        self.0.label() == other.0.label()
    }
}

impl Eq for FamilyRef {}

impl std::hash::Hash for FamilyRef {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.label().hash(state);
    }
}

impl std::fmt::Debug for FamilyRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.label())
    }
}
