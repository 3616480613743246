//! The vendor documents the claims come from.

use super::rule::Doc;

/// NVIDIA, Advanced API Performance: Shaders.
pub const NV_SHADERS: Doc = Doc {
    title: "NVIDIA: Advanced API Performance: Shaders",
    url: "https://developer.nvidia.com/blog/advanced-api-performance-shaders/",
};
/// NVIDIA, Advanced API Performance: Descriptors.
pub const NV_DESCRIPTORS: Doc = Doc {
    title: "NVIDIA: Advanced API Performance: Descriptors",
    url: "https://developer.nvidia.com/blog/advanced-api-performance-descriptors/",
};
/// NVIDIA, Advanced API Performance: Intrinsics.
pub const NV_INTRINSICS: Doc = Doc {
    title: "NVIDIA: Advanced API Performance: Intrinsics",
    url: "https://developer.nvidia.com/blog/advanced-api-performance-intrinsics/",
};
/// NVIDIA, Advanced API Performance: Memory and Resources.
pub const NV_MEMORY: Doc = Doc {
    title: "NVIDIA: Advanced API Performance: Memory and Resources (as summarised)",
    url: "https://www.engineering.fyi/article/advanced-api-performance-memory-and-resources",
};
/// NVIDIA, Advanced API Performance: Vulkan Clearing and Presenting.
pub const NV_CLEARING: Doc = Doc {
    title: "NVIDIA: Advanced API Performance: Vulkan Clearing and Presenting",
    url:
        "https://developer.nvidia.com/blog/advanced-api-performance-vulkan-clearing-and-presenting/",
};
/// NVIDIA, Vulkan Dos and Don'ts.
pub const NV_DOS: Doc = Doc {
    title: "NVIDIA: Vulkan Dos and Don'ts",
    url: "https://developer.nvidia.com/blog/vulkan-dos-donts/",
};
/// NVIDIA, Understanding Structured Buffer Performance.
pub const NV_STRUCTURED: Doc = Doc {
    title: "NVIDIA: Understanding Structured Buffer Performance",
    url: "https://developer.nvidia.com/content/understanding-structured-buffer-performance",
};
/// NVIDIA, CUDA C++ Best Practices Guide.
pub const NV_CUDA: Doc = Doc {
    title: "NVIDIA: CUDA C++ Best Practices Guide",
    url: "https://docs.nvidia.com/cuda/cuda-c-best-practices-guide/",
};
/// The NVIDIA checks of the Vulkan validation layers' best practices.
pub const NV_LAYERS: Doc = Doc {
    title: "Khronos Vulkan-ValidationLayers: best practices, NVIDIA checks",
    url: "https://github.com/KhronosGroup/Vulkan-ValidationLayers/tree/main/layers/best_practices",
};
/// NVIDIA, the H100 (Hopper) architecture.
pub const NV_HOPPER: Doc = Doc {
    title: "NVIDIA: Hopper architecture in depth",
    url: "https://developer.nvidia.com/blog/nvidia-hopper-architecture-in-depth/",
};
/// AMD, Understanding Memory Coalescing on GCN.
pub const AMD_GCN: Doc = Doc {
    title: "AMD GPUOpen: Understanding Memory Coalescing on GCN",
    url: "https://gpuopen.com/learn/gcn-memory-coalescing/",
};
/// AMD, RDNA Performance Guide.
pub const AMD_RDNA: Doc = Doc {
    title: "AMD GPUOpen: RDNA Performance Guide",
    url: "https://gpuopen.com/learn/rdna-performance-guide/",
};
/// Intro to GPU scalarization.
pub const AMD_SCALARIZATION: Doc = Doc {
    title: "Francesco Cifariello Ciardi: Intro to GPU Scalarization",
    url: "https://flashypixels.wordpress.com/2018/11/10/intro-to-gpu-scalarization-part-1/",
};
/// Wave documentation: buffer loads and L1 cache swizzling.
pub const AMD_WAVE: Doc = Doc {
    title: "Wave: Buffer loads, stores and L1 cache swizzling",
    url: "https://wave-lang.readthedocs.io/en/latest/_sources/wave/buffer_and_swizzle.rst.txt",
};
/// The AMD checks of the Vulkan validation layers' best practices.
pub const AMD_LAYERS: Doc = Doc {
    title: "Khronos Vulkan-ValidationLayers: best practices, AMD checks",
    url: "https://github.com/KhronosGroup/Vulkan-ValidationLayers/tree/main/layers/best_practices",
};
/// Khronos Vulkan-Samples: constant data.
pub const ARM_CONSTANT_DATA: Doc = Doc {
    title: "Khronos Vulkan-Samples (Arm): Constant data",
    url:
        "https://github.com/KhronosGroup/Vulkan-Samples/tree/main/samples/performance/constant_data",
};
/// Khronos Vulkan-Samples: specialization constants.
pub const ARM_SPECIALIZATION: Doc = Doc {
    title: "Khronos Vulkan-Samples (Arm): Specialization constants",
    url: "https://github.com/KhronosGroup/Vulkan-Samples/tree/main/samples/performance/specialization_constants",
};
/// Khronos Vulkan-Samples: 16-bit storage input/output.
pub const ARM_16BIT: Doc = Doc {
    title: "Khronos Vulkan-Samples (Arm): 16-bit storage input/output",
    url: "https://github.com/KhronosGroup/Vulkan-Samples/tree/main/samples/performance/16bit_storage_input_output",
};
/// Arm, The Valhall shader core: texture unit.
pub const ARM_VALHALL: Doc = Doc {
    title: "Arm: The Valhall shader core, Texture unit",
    url: "https://developer.arm.com/solutions/graphics-and-gaming/developer-guides/learn-the-basics/the-valhall-shader-core/texture-unit",
};
/// Arm Mobile Studio: high texture load.
pub const ARM_HIGH_TEXTURE: Doc = Doc {
    title: "Arm Mobile Studio: High texture load",
    url: "https://developer.arm.com/tools-and-software/graphics-and-gaming/arm-mobile-studio/learn/tutorials/android-performance-triage-with-streamline/textures",
};
/// Arm, Mali OpenCL SDK: image objects.
pub const ARM_OPENCL: Doc = Doc {
    title: "Arm: Mali OpenCL SDK v1.1, image objects (copy in an archive)",
    url: "https://ntnuopen.ntnu.no/ntnu-xmlui/bitstream/handle/11250/2408415/14682_ATTACHMENT.zip",
};
/// Peter Harris, Mali Bifrost texture and sampler descriptors.
pub const ARM_DESCRIPTORS: Doc = Doc {
    title: "Arm (Peter Harris): Mali Bifrost usage recommendations for texture and sampler descriptors",
    url: "https://community.arm.com/arm-community-blogs/b/graphics-gaming-and-vr-blog/posts/mali-bifrost-usage-recommendations-for-texture-and-sampler-descriptors",
};
/// The Arm checks of the Vulkan validation layers' best practices.
pub const ARM_LAYERS: Doc = Doc {
    title: "Khronos Vulkan-ValidationLayers: best practices, Arm checks",
    url: "https://github.com/KhronosGroup/Vulkan-ValidationLayers/tree/main/layers/best_practices",
};
/// The validation layers' robustBufferAccess check (pull request 1958).
pub const ARM_ROBUST: Doc = Doc {
    title: "Khronos Vulkan-ValidationLayers pull request 1958: robustBufferAccess best practice",
    url: "https://github.com/KhronosGroup/Vulkan-ValidationLayers/pull/1958",
};
/// Intel, Xe-LP optimization guide: constants.
pub const INTEL_CONSTANTS: Doc = Doc {
    title: "Intel: Xe-LP API Developer and Optimization Guide, Constants",
    url: "https://www.intel.com/content/www/us/en/develop/documentation/graphics-xe-lp-api-developer-optimization-guide/top/performance-recommendations-for-intel-x-lp-graphics-processors/shader-optimizations/constants.html",
};
/// Intel, Xe-LP optimization guide: texture sampling.
pub const INTEL_SAMPLING: Doc = Doc {
    title: "Intel: Xe-LP API Developer and Optimization Guide, Texture Sampling",
    url: "https://www.intel.com/content/www/us/en/develop/documentation/graphics-xe-lp-api-developer-optimization-guide/top/performance-recommendations-for-intel-x-lp-graphics-processors/shader-optimizations/texture-sampling.html",
};
/// Intel, Xe-LP optimization guide: UAVs and SSBOs.
pub const INTEL_UAVS: Doc = Doc {
    title: "Intel: Xe-LP API Developer and Optimization Guide, UAVs and SSBOs",
    url: "https://www.intel.com/content/www/us/en/develop/documentation/graphics-xe-lp-api-developer-optimization-guide/top/performance-recommendations-for-intel-x-lp-graphics-processors/render-targets-and-textures/uavs-and-ssbos.html",
};
/// Intel, Xe-LP optimization guide: compute shader considerations.
pub const INTEL_COMPUTE: Doc = Doc {
    title: "Intel: Xe-LP API Developer and Optimization Guide, Compute Shader Considerations",
    url: "https://www.intel.com/content/www/us/en/develop/documentation/graphics-xe-lp-api-developer-optimization-guide/top/performance-recommendations-for-intel-x-lp-graphics-processors/shader-optimizations/compute-shader-considerations.html",
};
/// Intel, OpenCL developer guide for processor graphics: granularity.
pub const INTEL_GRANULARITY: Doc = Doc {
    title: "Intel: OpenCL Developer Guide for Processor Graphics, Granularity",
    url: "https://www.intel.com/content/www/us/en/docs/opencl-sdk/developer-guide-processor-graphics/2019-4/granularity.html",
};
/// Intel, C++ for GPU: memory access considerations.
pub const INTEL_MEMORY_ACCESS: Doc = Doc {
    title: "Intel: C++ for GPU, Memory access considerations",
    url: "https://software.intel.com/en-us/node/522446",
};
/// Qualcomm, OpenCL performance on Adreno.
pub const QCOM_OPENCL: Doc = Doc {
    title: "Qualcomm: OpenCL performance on Adreno (developer blog, as copied)",
    url: "http://apkmate.com/opencl-performed-better-on-qualcomms-adreno-gpu-than-others/",
};
/// Qualcomm, Adreno GPU developer guide: FAQ.
pub const QCOM_FAQ: Doc = Doc {
    title: "Qualcomm: Adreno GPU developer guide, FAQ",
    url: "https://developer.qualcomm.com/sites/default/files/docs/adreno-gpu/snapdragon-game-toolkit/gdg/gpu/faq.html",
};
/// Imagination, PowerVR performance recommendations: texture sampling.
pub const IMG_SAMPLING: Doc = Doc {
    title: "Imagination: PowerVR Performance Recommendations, Texture sampling",
    url: "https://docs.imgtec.com/performance-guides/performance-recommendations/html/topics/texture-sampling.html",
};
/// The Imagination checks of the Vulkan validation layers' best practices.
pub const IMG_LAYERS: Doc = Doc {
    title: "Khronos Vulkan-ValidationLayers: best practices, Imagination checks",
    url: "https://github.com/KhronosGroup/Vulkan-ValidationLayers/tree/main/layers/best_practices",
};
/// Apple, WWDC16 session 606: Advanced Metal Shader Optimization.
pub const APPLE_WWDC16: Doc = Doc {
    title: "Apple: WWDC16 Advanced Metal Shader Optimization (606), conclusion slide",
    url: "https://www.yumpu.com/en/document/view/55659293/advanced-metal-shader-optimization/62",
};
/// Apple, Blender commit replacing texelFetch with point sampling.
pub const APPLE_BLENDER: Doc = Doc {
    title: "Apple (Michael Parkin-White): Blender commit f3bd5458a3, point sampling instead of texelFetch",
    url: "https://gitea.com/lunny/blender_test",
};
/// Microsoft, shader constants (HLSL).
pub const MS_CONSTANTS: Doc = Doc {
    title: "Microsoft: Shader constants (HLSL)",
    url: "https://learn.microsoft.com/windows/win32/direct3dhlsl/dx-graphics-hlsl-constants",
};
/// sebbbi, fast uniform load with wave ops.
pub const SEBBBI_GIST: Doc = Doc {
    title: "Sebastian Aaltonen: Fast uniform load with wave ops (up to 64x speedup)",
    url: "https://gist.github.com/sebbbi/ba4415339b535d22fb18e2d824564ec4",
};
