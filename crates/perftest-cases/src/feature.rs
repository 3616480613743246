//! The optional Vulkan device features cases need: one list, each with its Vulkan name. The
//! device query reads which are offered, device creation enables those, the skip rule checks
//! them, all through [`Feature`] and [`FeatureSet`].

/// An optional Vulkan device feature some case needs and perftest enables wherever offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Feature {
    /// `shaderInt64`: 64-bit integers in shaders.
    ShaderInt64,
    /// `shaderInt16`: 16-bit integers in shaders.
    ShaderInt16,
    /// `shaderSampledImageArrayDynamicIndexing`: sampled-image arrays indexed by a runtime,
    /// dynamically uniform value.
    SampledImageDynamic,
    /// `shaderStorageBufferArrayDynamicIndexing`: storage-buffer arrays indexed likewise.
    StorageBufferDynamic,
    /// `shaderStorageImageExtendedFormats`: storage images of the extended formats (`r8`,
    /// `rg8`, `r16f`, `rg16f`, `rg32f`...).
    StorageImageExtendedFormats,
    /// `textureCompressionBC`: the BC block-compressed formats can be sampled.
    TextureCompressionBc,
    /// `samplerAnisotropy`: anisotropic filtering (up to at least 16x where offered).
    SamplerAnisotropy,
    /// `vertexPipelineStoresAndAtomics`: stores from the vertex stage (how vertex-fetch cases
    /// are verified).
    VertexPipelineStores,
    /// `storageBuffer16BitAccess` (Vulkan 1.1): 16-bit types in storage buffers.
    StorageBuffer16Bit,
    /// `shaderSampledImageArrayNonUniformIndexing` (Vulkan 1.2).
    SampledImageNonUniform,
    /// `shaderStorageBufferArrayNonUniformIndexing` (Vulkan 1.2).
    StorageBufferNonUniform,
    /// `bufferDeviceAddress` (Vulkan 1.2); the kernels' address math also needs
    /// [`Feature::ShaderInt64`].
    BufferDeviceAddress,
    /// `shaderBufferInt64Atomics` (Vulkan 1.2); needs [`Feature::ShaderInt64`] too.
    Int64Atomics,
    /// `storageBuffer8BitAccess` (Vulkan 1.2): 8-bit types in storage buffers.
    StorageBuffer8Bit,
    /// `shaderInt8` (Vulkan 1.2): 8-bit integer arithmetic and conversions.
    ShaderInt8,
    /// `shaderFloat16` (Vulkan 1.2): 16-bit floats in shader arithmetic.
    ShaderFloat16,
    /// `shaderSubgroupClock` (`VK_KHR_shader_clock`): a clock that counts within a subgroup.
    ShaderSubgroupClock,
    /// `timelineSemaphore` (Vulkan 1.2): semaphores with a 64-bit counter the host can wait on.
    TimelineSemaphore,
    /// `scalarBlockLayout` (Vulkan 1.2): buffer blocks laid out with scalar alignment
    /// (`GL_EXT_scalar_block_layout`), e.g. structures of a 20-byte stride.
    ScalarBlockLayout,
    /// `textureCompressionASTC_LDR`: the ASTC LDR block-compressed formats can be sampled.
    TextureCompressionAstcLdr,
    /// `pipelineRobustness` (`VK_EXT_pipeline_robustness`, core in Vulkan 1.4): robust buffer
    /// access asked for per pipeline, the device's own robustness features left off. Counted
    /// as offered only where `robustBufferAccess` is supported too (what such a pipeline asks
    /// for).
    PipelineRobustness,
    /// `descriptorBindingStorageBufferUpdateAfterBind` (Vulkan 1.2): storage-buffer
    /// descriptors that may be written after their set is bound.
    StorageBufferUpdateAfterBind,
    /// `descriptorBindingSampledImageUpdateAfterBind` (Vulkan 1.2): sampled-image (and
    /// combined image-sampler) descriptors that may be written after their set is bound.
    SampledImageUpdateAfterBind,
}

impl Feature {
    /// Every feature, in declaration order.
    pub const ALL: [Feature; 23] = [
        Feature::ShaderInt64,
        Feature::ShaderInt16,
        Feature::SampledImageDynamic,
        Feature::StorageBufferDynamic,
        Feature::StorageImageExtendedFormats,
        Feature::TextureCompressionBc,
        Feature::SamplerAnisotropy,
        Feature::VertexPipelineStores,
        Feature::StorageBuffer16Bit,
        Feature::SampledImageNonUniform,
        Feature::StorageBufferNonUniform,
        Feature::BufferDeviceAddress,
        Feature::Int64Atomics,
        Feature::StorageBuffer8Bit,
        Feature::ShaderInt8,
        Feature::ShaderFloat16,
        Feature::ShaderSubgroupClock,
        Feature::TimelineSemaphore,
        Feature::ScalarBlockLayout,
        Feature::TextureCompressionAstcLdr,
        Feature::PipelineRobustness,
        Feature::StorageBufferUpdateAfterBind,
        Feature::SampledImageUpdateAfterBind,
    ];

    /// The feature's member name in Vulkan's feature structures.
    pub fn vk_name(self) -> &'static str {
        match self {
            Feature::ShaderInt64 => "shaderInt64",
            Feature::ShaderInt16 => "shaderInt16",
            Feature::SampledImageDynamic => "shaderSampledImageArrayDynamicIndexing",
            Feature::StorageBufferDynamic => "shaderStorageBufferArrayDynamicIndexing",
            Feature::StorageImageExtendedFormats => "shaderStorageImageExtendedFormats",
            Feature::TextureCompressionBc => "textureCompressionBC",
            Feature::SamplerAnisotropy => "samplerAnisotropy",
            Feature::VertexPipelineStores => "vertexPipelineStoresAndAtomics",
            Feature::StorageBuffer16Bit => "storageBuffer16BitAccess",
            Feature::SampledImageNonUniform => "shaderSampledImageArrayNonUniformIndexing",
            Feature::StorageBufferNonUniform => "shaderStorageBufferArrayNonUniformIndexing",
            Feature::BufferDeviceAddress => "bufferDeviceAddress",
            Feature::Int64Atomics => "shaderBufferInt64Atomics",
            Feature::StorageBuffer8Bit => "storageBuffer8BitAccess",
            Feature::ShaderInt8 => "shaderInt8",
            Feature::ShaderFloat16 => "shaderFloat16",
            Feature::ShaderSubgroupClock => "shaderSubgroupClock",
            Feature::TimelineSemaphore => "timelineSemaphore",
            Feature::ScalarBlockLayout => "scalarBlockLayout",
            Feature::TextureCompressionAstcLdr => "textureCompressionASTC_LDR",
            Feature::PipelineRobustness => "pipelineRobustness",
            Feature::StorageBufferUpdateAfterBind => {
                "descriptorBindingStorageBufferUpdateAfterBind"
            }
            Feature::SampledImageUpdateAfterBind => "descriptorBindingSampledImageUpdateAfterBind",
        }
    }

    /// The other features a case using this one needs as well.
    pub fn also_needs(self) -> &'static [Feature] {
        match self {
            Feature::BufferDeviceAddress | Feature::Int64Atomics => &[Feature::ShaderInt64],
            _ => &[],
        }
    }

    /// This feature's bit in a [`FeatureSet`].
    fn bit(self) -> u32 {
        1 << (self as u32)
    }
}

/// A set of [`Feature`]s: those a device offers, or those enabled on it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FeatureSet(u32);

impl FeatureSet {
    /// The empty set (a borrowed device: nothing optional is assumed enabled).
    pub const NONE: FeatureSet = FeatureSet(0);

    /// Every feature.
    pub fn all() -> FeatureSet {
        Feature::ALL.into_iter().collect()
    }

    /// Whether `feature` is in the set.
    pub fn has(self, feature: Feature) -> bool {
        self.0 & feature.bit() != 0
    }

    /// The set with `feature` added (`on`) or removed.
    #[must_use]
    pub fn with(self, feature: Feature, on: bool) -> FeatureSet {
        if on {
            FeatureSet(self.0 | feature.bit())
        } else {
            FeatureSet(self.0 & !feature.bit())
        }
    }

    /// The set's features, in [`Feature::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Feature> {
        Feature::ALL.into_iter().filter(move |f| self.has(*f))
    }
}

impl FromIterator<Feature> for FeatureSet {
    fn from_iter<I: IntoIterator<Item = Feature>>(features: I) -> FeatureSet {
        features
            .into_iter()
            .fold(FeatureSet::NONE, |set, f| set.with(f, true))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_feature_is_listed_once_with_its_own_name() {
        for (i, feature) in Feature::ALL.iter().enumerate() {
            assert_eq!(*feature as usize, i, "{feature:?} out of order");
            assert!(
                Feature::ALL[i + 1..]
                    .iter()
                    .all(|other| other.vk_name() != feature.vk_name()),
                "{feature:?}"
            );
        }
    }

    #[test]
    fn sets_add_remove_and_list() {
        let set = FeatureSet::NONE
            .with(Feature::ShaderFloat16, true)
            .with(Feature::ShaderInt64, true)
            .with(Feature::ShaderInt8, true)
            .with(Feature::ShaderInt8, false);
        assert!(set.has(Feature::ShaderInt64) && set.has(Feature::ShaderFloat16));
        assert!(!set.has(Feature::ShaderInt8) && !set.has(Feature::ShaderInt16));
        assert_eq!(
            set.iter().collect::<Vec<_>>(),
            [Feature::ShaderInt64, Feature::ShaderFloat16]
        );
        assert_eq!(FeatureSet::all().iter().count(), Feature::ALL.len());
    }
}
