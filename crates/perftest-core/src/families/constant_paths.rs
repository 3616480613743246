//! `constant_paths`: 16 KB of modern data usable as a uniform and a storage buffer (the
//! uniform-block and broadcast paths bind it at binding 0), the original 16 KB input data as a
//! uniform buffer for the `no mask` cases, each at several places of a buffer of its own
//! (`placed_copies`), and four modern words in the push constants for the push path (which
//! binds nothing).

use ash::vk;
use perftest_cases::families::constant_paths::{path, push_words, Path, ELEMENTS};
use perftest_cases::{input_bytes, modern_bytes, Case};

use crate::building_blocks::create_family;
use crate::context::Context;
use crate::error::Result;
use crate::placed_copies::PlacedCopies;
use crate::plan::{Bind, FamilyResources, Plan, Shared, Stages};

/// The family's plan.
pub(super) const PLAN: Plan = Plan {
    label: "constant_paths",
    spirv,
    create,
    push_bytes: 32,
    stages: Stages::Compute,
};

fn spirv(case: &Case) -> &'static [u8] {
    match path(case) {
        Path::Push => include_bytes!("../../spirv/constant_paths_push.spv"),
        Path::Ubo => include_bytes!("../../spirv/constant_paths_ubo.spv"),
        Path::Broadcast => include_bytes!("../../spirv/constant_paths_broadcast.spv"),
        Path::NoMask => include_bytes!("../../spirv/constant_paths_nomask.spv"),
    }
}

/// The family's modern data and the original input data, each at several places
/// (`placed_copies`), so that every path that reads a buffer is measured where it reads
/// fastest, as the original suite's uniform-buffer cases are.
#[derive(Default)]
struct Constants {
    modern: Option<PlacedCopies>,
    input: Option<PlacedCopies>,
}

fn create(ctx: &mut Context, _shared: &Shared<'_>) -> Result<Box<dyn FamilyResources>> {
    create_family(ctx, Constants::default(), |r, ctx| {
        let bytes = modern_bytes(u64::from(ELEMENTS) * 16);
        let both = vk::BufferUsageFlags::UNIFORM_BUFFER | vk::BufferUsageFlags::STORAGE_BUFFER;
        r.modern = Some(PlacedCopies::new(ctx, "constant-path data", &bytes, both)?);
        let uniform = vk::BufferUsageFlags::UNIFORM_BUFFER;
        let input = PlacedCopies::new(ctx, "constant-path input data", input_bytes(), uniform)?;
        r.input = Some(input);
        Ok(())
    })
}

impl Constants {
    /// The copies `case`'s path reads and as what; `None` for the push path.
    fn read(&self, case: &Case) -> Option<(&PlacedCopies, vk::DescriptorType)> {
        let (uniform, storage) = (
            vk::DescriptorType::UNIFORM_BUFFER,
            vk::DescriptorType::STORAGE_BUFFER,
        );
        match path(case) {
            Path::Push => None,
            Path::Ubo => Some((self.modern.as_ref()?, uniform)),
            Path::Broadcast => Some((self.modern.as_ref()?, storage)),
            Path::NoMask => Some((self.input.as_ref()?, uniform)),
        }
    }
}

impl FamilyResources for Constants {
    fn bindings(&self, case: &Case) -> Option<Vec<Bind>> {
        self.bindings_at(case, 0)
    }

    fn data_places(&self, case: &Case) -> Vec<u64> {
        self.read(case)
            .map_or_else(|| vec![0], |(copies, _)| copies.offsets())
    }

    fn bindings_at(&self, case: &Case, place: usize) -> Option<Vec<Bind>> {
        if path(case) == Path::Push {
            return Some(Vec::new());
        }
        let (copies, ty) = self.read(case)?;
        Some(vec![copies.bind(0, ty, place)?])
    }

    fn push(&self, case: &Case) -> [u32; 4] {
        match path(case) {
            Path::Push => push_words(),
            _ => [0; 4],
        }
    }

    fn destroy(&mut self, ctx: &mut Context) {
        for copies in [self.modern.as_mut(), self.input.as_mut()]
            .into_iter()
            .flatten()
        {
            copies.destroy(ctx);
        }
    }
}
