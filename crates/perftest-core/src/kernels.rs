//! The embedded SPIR-V kernels and building one pipeline per case (compute, or graphics for
//! the graphics suite's families).

use std::io::Cursor;

use ash::vk;
use perftest_cases::{Case, KernelOptions};

use crate::context::Context;
use crate::error::{Error, Result, VkResultExt};
use crate::executables::{self, PipelineExecutable};
use crate::families::plan_for;
use crate::graphics::{self, Draw, PipelineDesc};
use crate::plan::{Bind, Descriptors, Stages};
use crate::resources::Resources;

/// The SPIR-V module a case runs (compiled by `cargo xtask shaders` from its family's
/// `shaders/<family>.comp`, embedded at build time): its original's where it runs another
/// case's kernel ([`perftest_cases::Family::original`]); empty for a family this build has no
/// plan for.
pub fn spirv_for(case: &Case) -> &'static [u8] {
    if let Some(original) = case.family.original(case) {
        return spirv_for(&original);
    }
    plan_for(case).map_or(&[], |plan| (plan.spirv)(case))
}

/// The words of the shader module a kernel of `case` is built from ([`spirv_for`]), or why the
/// embedded SPIR-V cannot be read.
pub(crate) fn module_code(case: &Case) -> Result<Vec<u32>> {
    ash::util::read_spv(&mut Cursor::new(spirv_for(case)))
        .map_err(|e| Error::InvalidArgument(format!("embedded SPIR-V is corrupt: {e}")))
}

/// The vertex shader of fragment-shader kernels: instance i covers tile i of the attachment.
const TILES_SPIRV: &[u8] = include_bytes!("../spirv/tiles.spv");

/// Whether `case`'s size is counted in waves of resident workgroups: true for a compute
/// dispatch; false for a draw (whose instances run on the graphics part of the GPU, a draw of
/// N groups drawing N instances) and for an operation (N groups: N copies or launches), see
/// [`crate::Bench::time`].
pub fn in_waves(case: &Case) -> bool {
    plan_for(case).is_ok_and(|plan| plan.stages == Stages::Compute)
}

/// Values of the kernels' specialization constants 0..=7 for `case`:
/// LOCAL_X, LOCAL_Y, PATTERN, WIDTH, LOADS (the per-axis trip count for 2D loops), then the
/// family's own three (`perftest_cases::Family::constants`).
pub fn specialization(case: &Case) -> [u32; 8] {
    let [x, y] = case.workgroup_size();
    let [a, b, c] = case.family.constants(case);
    [
        x,
        y,
        case.pattern.spec_value(),
        case.components(),
        case.family.case_loop_trip(case),
        a,
        b,
        c,
    ]
}

/// Push constants (see `shaders/common.glsl`): four shared words, then four the family fills
/// (only for families whose plan declares 32 bytes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PushConstants {
    pub(crate) elements_mask: u32,
    pub(crate) write_index: u32,
    pub(crate) read_start_address: u32,
    pub(crate) index: u32,
    pub(crate) family: [u32; 4],
}

impl PushConstants {
    /// The first `len` bytes (16 or 32) as the kernel reads them.
    pub(crate) fn bytes(&self, len: u32) -> Vec<u8> {
        let words = [
            self.elements_mask,
            self.write_index,
            self.read_start_address,
            self.index,
        ]
        .into_iter()
        .chain(self.family);
        words
            .flat_map(u32::to_le_bytes)
            .take(len as usize)
            .collect()
    }
}

/// One case's pipeline and descriptor set.
pub(crate) struct Kernel {
    pub(crate) case: Case,
    pub(crate) pipeline: vk::Pipeline,
    pub(crate) layout: vk::PipelineLayout,
    set_layout: vk::DescriptorSetLayout,
    pool: vk::DescriptorPool,
    pub(crate) set: vk::DescriptorSet,
    module: vk::ShaderModule,
    /// The stages the kernel runs in.
    pub(crate) stages: Stages,
    /// A fragment-shader kernel's vertex shader (`shaders/tiles.vert`).
    tiles: vk::ShaderModule,
    /// What a graphics kernel's draws record; `None` for compute.
    pub(crate) draw: Option<Draw>,
    /// The family's push-constant words and the push-constant size the kernel declares.
    pub(crate) push: ([u32; 4], u32),
    /// What the driver says about the compiled pipeline (empty without
    /// `VK_KHR_pipeline_executable_properties`).
    pub(crate) executables: Vec<PipelineExecutable>,
    /// Which of its data's places (`Resources::data_places`) the kernel's set binds.
    pub(crate) place: usize,
}

/// What building a pipeline needs from the context, held apart from it so that several
/// threads can build pipelines while another one submits work through the context.
#[derive(Clone)]
pub(crate) struct PipelineBuilder {
    device: ash::Device,
    executables: Option<ash::khr::pipeline_executable_properties::Device>,
    cache: vk::PipelineCache,
    representations: bool,
    /// `VK_KHR_dynamic_rendering`'s functions, where dynamic rendering comes from it.
    rendering_khr: Option<ash::khr::dynamic_rendering::Device>,
}

impl PipelineBuilder {
    /// Builds on `ctx`'s device through `cache` (may be null); `representations`: see
    /// [`Kernel::new`].
    pub(crate) fn new(ctx: &Context, cache: vk::PipelineCache, representations: bool) -> Self {
        PipelineBuilder {
            device: ctx.device.clone(),
            executables: ctx.executables.clone(),
            cache,
            representations,
            rendering_khr: ctx.dynamic_rendering_khr.clone(),
        }
    }

    /// The device pipelines are built on.
    pub(crate) fn device(&self) -> &ash::Device {
        &self.device
    }

    /// The flags that capture a pipeline's statistics (and internal representations, when
    /// asked for) where the device can report them; empty otherwise.
    fn capture_flags(&self) -> vk::PipelineCreateFlags {
        let mut flags = vk::PipelineCreateFlags::empty();
        if self.executables.is_some() {
            flags |= vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR;
            if self.representations {
                flags |= vk::PipelineCreateFlags::CAPTURE_INTERNAL_REPRESENTATIONS_KHR;
            }
        }
        flags
    }
}

/// A case's specialization constants as the pipeline reads them: constant i is the 4 bytes
/// at offset 4i.
struct Specialization {
    entries: Vec<vk::SpecializationMapEntry>,
    data: Vec<u8>,
}

impl Specialization {
    /// The constants of `case` ([`specialization`]).
    fn of(case: &Case) -> Self {
        let values = specialization(case);
        let entries = (0..values.len() as u32)
            .map(|i| vk::SpecializationMapEntry {
                constant_id: i,
                offset: 4 * i,
                size: 4,
            })
            .collect();
        let data = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        Specialization { entries, data }
    }

    /// The specialization info pointing at these constants.
    fn info(&self) -> vk::SpecializationInfo<'_> {
        vk::SpecializationInfo::default()
            .map_entries(&self.entries)
            .data(&self.data)
    }
}

impl Kernel {
    /// Builds the pipeline for `case` and binds its resources. Where the context has
    /// `VK_KHR_pipeline_executable_properties`, the pipeline's statistics are captured, and
    /// its internal representations too when the builder asks for them.
    pub(crate) fn new(
        builder: &PipelineBuilder,
        resources: &Resources,
        case: &Case,
    ) -> Result<Self> {
        let mut k = Kernel {
            executables: Vec::new(),
            case: case.clone(),
            pipeline: vk::Pipeline::null(),
            layout: vk::PipelineLayout::null(),
            set_layout: vk::DescriptorSetLayout::null(),
            pool: vk::DescriptorPool::null(),
            set: vk::DescriptorSet::null(),
            module: vk::ShaderModule::null(),
            stages: Stages::Compute,
            tiles: vk::ShaderModule::null(),
            draw: None,
            push: ([0; 4], 16),
            place: 0,
        };
        // An operation has no pipeline: the family's resources perform it.
        if plan_for(case)?.stages == Stages::Operation {
            k.stages = Stages::Operation;
            return Ok(k);
        }
        match k.build(builder, resources) {
            Ok(()) => Ok(k),
            Err(e) => {
                k.destroy_on(&builder.device);
                Err(e)
            }
        }
    }

    /// Creates the kernel's objects in order: descriptor set layout, pipeline layout, shader
    /// module, pipeline (with its statistics where the builder can read them), descriptor pool
    /// and set; then writes the set. What was created before an error stays in `self`, for
    /// the caller to destroy.
    fn build(&mut self, builder: &PipelineBuilder, resources: &Resources) -> Result<()> {
        let device = &builder.device;
        let plan = plan_for(&self.case)?;
        let binds = resources.bindings(&self.case, self.place)?;
        self.push = (resources.push(&self.case)?, plan.push_bytes);
        self.stages = plan.stages;
        let bindings = self.layout_bindings(&binds);
        let code = module_code(&self.case)?;
        self.create_layouts(device, &bindings, plan.push_bytes)?;
        // SAFETY: valid device; the create info points at a live local.
        self.module = unsafe {
            device.create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&code), None)
        }
        .creating_pipeline("vkCreateShaderModule")?;
        let constants = Specialization::of(&self.case);
        let spec = constants.info();
        let flags = builder.capture_flags();
        self.pipeline = if self.stages.is_graphics() {
            self.build_graphics(builder, resources, &spec, flags)?
        } else {
            self.build_compute(builder, &spec, flags)?
        };
        if let Some(loader) = &builder.executables {
            // SAFETY: the loader belongs to this device, which has the extension and its
            // feature enabled; the pipeline was created with the matching capture flags.
            // Statistics are informative: a driver error leaves them empty.
            self.executables =
                unsafe { executables::read(loader, self.pipeline, builder.representations) }
                    .unwrap_or_default();
        }
        self.allocate_set(device, &bindings)?;
        self.write_descriptors(device, resources, &binds)
    }

    /// The descriptor set layout's bindings: the family's `binds`, then the verification
    /// output at binding 1, all seen by the kernel's stages.
    fn layout_bindings(&self, binds: &[Bind]) -> Vec<vk::DescriptorSetLayoutBinding<'static>> {
        let stage_flags = self.stage_flags();
        binds
            .iter()
            .map(|b| (b.binding, b.ty, b.descriptors.count()))
            .chain([(1, vk::DescriptorType::STORAGE_BUFFER, 1)])
            .map(|(binding, ty, count)| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(binding)
                    .descriptor_type(ty)
                    .descriptor_count(count)
                    .stage_flags(stage_flags)
            })
            .collect()
    }

    /// How the case's family asks for its pipeline and set to be created.
    fn options(&self) -> KernelOptions {
        self.case.family.kernel_options(&self.case)
    }

    /// Creates the descriptor set layout of `bindings` (its family bindings updatable after
    /// bind where the case asks for it) and the pipeline layout with it and `push_bytes` of
    /// push constants.
    fn create_layouts(
        &mut self,
        device: &ash::Device,
        bindings: &[vk::DescriptorSetLayoutBinding<'_>],
        push_bytes: u32,
    ) -> Result<()> {
        let after_bind = self.options().update_after_bind;
        let flags: Vec<vk::DescriptorBindingFlags> = bindings
            .iter()
            .map(|b| match after_bind && b.binding != 1 {
                true => vk::DescriptorBindingFlags::UPDATE_AFTER_BIND,
                false => vk::DescriptorBindingFlags::empty(),
            })
            .collect();
        let mut binding_flags =
            vk::DescriptorSetLayoutBindingFlagsCreateInfo::default().binding_flags(&flags);
        let mut info = vk::DescriptorSetLayoutCreateInfo::default().bindings(bindings);
        if after_bind {
            info = info
                .flags(vk::DescriptorSetLayoutCreateFlags::UPDATE_AFTER_BIND_POOL)
                .push_next(&mut binding_flags);
        }
        // SAFETY: valid device; the create info points at live locals; update-after-bind
        // flags are asked for only by cases that need their features, enabled where offered.
        self.set_layout = unsafe { device.create_descriptor_set_layout(&info, None) }
            .call("vkCreateDescriptorSetLayout")?;
        let push = [vk::PushConstantRange::default()
            .stage_flags(self.stage_flags())
            .offset(0)
            .size(push_bytes)];
        let set_layouts = [self.set_layout];
        // SAFETY: valid device; the create info points at live locals; the set layout was
        // created on this device.
        self.layout = unsafe {
            device.create_pipeline_layout(
                &vk::PipelineLayoutCreateInfo::default()
                    .set_layouts(&set_layouts)
                    .push_constant_ranges(&push),
                None,
            )
        }
        .call("vkCreatePipelineLayout")?;
        Ok(())
    }

    /// Builds the compute pipeline of a [`Stages::Compute`] kernel from its module, asking for
    /// robust access to its storage and uniform buffers where the case does (the device's own
    /// robustness features stay off).
    fn build_compute(
        &self,
        builder: &PipelineBuilder,
        spec: &vk::SpecializationInfo<'_>,
        flags: vk::PipelineCreateFlags,
    ) -> Result<vk::Pipeline> {
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(self.module)
            .name(c"main")
            .specialization_info(spec);
        let robust = vk::PipelineRobustnessBufferBehaviorEXT::ROBUST_BUFFER_ACCESS;
        let mut robustness = vk::PipelineRobustnessCreateInfoEXT::default()
            .storage_buffers(robust)
            .uniform_buffers(robust);
        let mut create = vk::ComputePipelineCreateInfo::default()
            .flags(flags)
            .stage(stage)
            .layout(self.layout);
        if self.options().robust_buffer_access {
            create = create.push_next(&mut robustness);
        }
        let info = [create];
        // SAFETY: valid device; the module and layout were created on it; the create info
        // points at live locals.
        let pipelines = unsafe {
            builder
                .device
                .create_compute_pipelines(builder.cache, &info, None)
        }
        .map_err(|(_, r)| r)
        .creating_pipeline("vkCreateComputePipelines")?;
        Ok(pipelines.first().copied().unwrap_or_default())
    }

    /// Creates a descriptor pool sized for `bindings` (for update-after-bind sets where the
    /// case asks for them) and allocates the kernel's one set.
    fn allocate_set(
        &mut self,
        device: &ash::Device,
        bindings: &[vk::DescriptorSetLayoutBinding<'_>],
    ) -> Result<()> {
        let sizes: Vec<vk::DescriptorPoolSize> = bindings
            .iter()
            .map(|b| vk::DescriptorPoolSize {
                ty: b.descriptor_type,
                descriptor_count: b.descriptor_count,
            })
            .collect();
        let pool_flags = match self.options().update_after_bind {
            true => vk::DescriptorPoolCreateFlags::UPDATE_AFTER_BIND,
            false => vk::DescriptorPoolCreateFlags::empty(),
        };
        // SAFETY: valid device; the create info points at a live local.
        self.pool = unsafe {
            device.create_descriptor_pool(
                &vk::DescriptorPoolCreateInfo::default()
                    .flags(pool_flags)
                    .max_sets(1)
                    .pool_sizes(&sizes),
                None,
            )
        }
        .call("vkCreateDescriptorPool")?;
        let set_layouts = [self.set_layout];
        // SAFETY: the pool and set layout were created on this device; one set fits the pool.
        let sets = unsafe {
            device.allocate_descriptor_sets(
                &vk::DescriptorSetAllocateInfo::default()
                    .descriptor_pool(self.pool)
                    .set_layouts(&set_layouts),
            )
        }
        .call("vkAllocateDescriptorSets")?;
        self.set = sets.first().copied().unwrap_or_default();
        Ok(())
    }

    /// The shader stages that see the kernel's descriptors and push constants.
    pub(crate) fn stage_flags(&self) -> vk::ShaderStageFlags {
        match self.stages {
            Stages::Compute | Stages::Operation => vk::ShaderStageFlags::COMPUTE,
            Stages::Fragment => vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT,
            Stages::Vertex => vk::ShaderStageFlags::VERTEX,
        }
    }

    /// Builds the graphics pipeline of a [`Stages::Fragment`] or [`Stages::Vertex`] kernel
    /// (its module is then the fragment or the vertex shader) and keeps what its draws record.
    fn build_graphics(
        &mut self,
        builder: &PipelineBuilder,
        resources: &Resources,
        spec: &vk::SpecializationInfo<'_>,
        flags: vk::PipelineCreateFlags,
    ) -> Result<vk::Pipeline> {
        let device = &builder.device;
        let attachment = resources.target(&self.case)?.attachment();
        let input = resources.vertex_input(&self.case)?;
        let geometry = resources.geometry(&self.case)?;
        let (vertex, fragment) = if self.stages == Stages::Fragment {
            let code = ash::util::read_spv(&mut Cursor::new(TILES_SPIRV))
                .map_err(|e| Error::InvalidArgument(format!("embedded SPIR-V is corrupt: {e}")))?;
            // SAFETY: valid device; the create info points at a live local.
            self.tiles = unsafe {
                device
                    .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&code), None)
            }
            .creating_pipeline("vkCreateShaderModule")?;
            (self.tiles, self.module)
        } else {
            (self.module, vk::ShaderModule::null())
        };
        let desc = PipelineDesc {
            stages: self.stages,
            vertex,
            fragment,
            specialization: spec,
            input: &input,
            attachment,
            flags,
        };
        let pipeline = graphics::create_pipeline(device, builder.cache, self.layout, &desc)?;
        self.draw = Some(Draw {
            attachment,
            geometry,
            rendering_khr: builder.rendering_khr.clone(),
        });
        Ok(pipeline)
    }

    /// Points the kernel's descriptor set and family words at `resources` (the same family's
    /// resources at another placement, see `Bench::place`; or its data at another place, see
    /// `Bench::put_data`). The set must not be in use.
    pub(crate) fn rebind(&mut self, device: &ash::Device, resources: &Resources) -> Result<()> {
        let binds = resources.bindings(&self.case, self.place)?;
        self.push.0 = resources.push(&self.case)?;
        self.write_descriptors(device, resources, &binds)
    }

    /// Binds the kernel to its data at place `place` of `resources` (see `Bench::put_data`);
    /// on an error it keeps the place it had. The set must not be in use.
    pub(crate) fn put_data(
        &mut self,
        device: &ash::Device,
        resources: &Resources,
        place: usize,
    ) -> Result<()> {
        if place == self.place {
            return Ok(());
        }
        let places = resources.data_places(&self.case)?.len();
        if place >= places {
            return Err(Error::InvalidArgument(format!(
                "place {place} of a case whose data has {places} place(s)"
            )));
        }
        let before = std::mem::replace(&mut self.place, place);
        let bound = self.rebind(device, resources);
        if bound.is_err() {
            self.place = before;
        }
        bound
    }

    fn write_descriptors(&self, device: &ash::Device, r: &Resources, binds: &[Bind]) -> Result<()> {
        let output = [vk::DescriptorBufferInfo {
            buffer: r.output.buffer,
            offset: 0,
            range: vk::WHOLE_SIZE,
        }];
        let mut writes = vec![vk::WriteDescriptorSet::default()
            .dst_set(self.set)
            .dst_binding(1)
            .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
            .buffer_info(&output)];
        for bind in binds {
            let write = vk::WriteDescriptorSet::default()
                .dst_set(self.set)
                .dst_binding(bind.binding)
                .descriptor_type(bind.ty);
            writes.push(match &bind.descriptors {
                Descriptors::Buffers(infos) => write.buffer_info(infos),
                Descriptors::TexelBuffers(views) => write.texel_buffer_view(views),
                Descriptors::Images(infos) => write.image_info(infos),
            });
        }
        // SAFETY: the set and every referenced resource are alive and match the layout.
        unsafe { device.update_descriptor_sets(&writes, &[]) };
        Ok(())
    }

    /// Destroys the pipeline objects (the queue must be idle; null handles are ignored).
    pub(crate) fn destroy(&mut self, ctx: &Context) {
        self.destroy_on(&ctx.device);
    }

    /// [`Kernel::destroy`] given the device the kernel was built on.
    pub(crate) fn destroy_on(&mut self, device: &ash::Device) {
        // SAFETY: no submission uses these objects any more; all were created on this device.
        unsafe {
            device.destroy_pipeline(self.pipeline, None);
            device.destroy_shader_module(self.module, None);
            device.destroy_shader_module(self.tiles, None);
            device.destroy_descriptor_pool(self.pool, None);
            device.destroy_pipeline_layout(self.layout, None);
            device.destroy_descriptor_set_layout(self.set_layout, None);
        }
        self.pipeline = vk::Pipeline::null();
        self.module = vk::ShaderModule::null();
        self.tiles = vk::ShaderModule::null();
        self.pool = vk::DescriptorPool::null();
        self.layout = vk::PipelineLayout::null();
        self.set_layout = vk::DescriptorSetLayout::null();
    }
}
