//! What differs between operating systems for perftest-core: the file names of the Vulkan
//! loader, tried in order, the executable format a library must have, and what to tell a user
//! whose machine lacks a piece of Vulkan.

/// Linux and the other Unix systems with a Khronos loader.
#[cfg(all(
    unix,
    not(any(target_os = "macos", target_os = "ios", target_os = "android"))
))]
mod os {
    pub const LIBRARY_MAGIC: &[&[u8]] = &[b"\x7fELF"];
    pub const LIBRARY_FORMAT: &str = "ELF";
    pub const LOADER_NAMES: &[&str] = &["libvulkan.so.1", "libvulkan.so"];
    pub const LOADER_HINT: &str = "install it with a driver, e.g. `apt-get install libvulkan1 \
        mesa-vulkan-drivers` (mesa-vulkan-drivers provides the CPU driver lavapipe)";
    pub const VALIDATION_HINT: &str = "`apt-get install vulkan-validationlayers`";
    pub const DRIVER_HINT: &str =
        "install a driver (`apt-get install mesa-vulkan-drivers` provides the CPU driver lavapipe)";
}

/// Windows: the loader ships with every GPU driver that supports Vulkan.
#[cfg(windows)]
mod os {
    pub const LIBRARY_MAGIC: &[&[u8]] = &[b"MZ"];
    pub const LIBRARY_FORMAT: &str = "PE (MZ)";
    pub const LOADER_NAMES: &[&str] = &["vulkan-1.dll"];
    pub const LOADER_HINT: &str = "vulkan-1.dll comes with every GPU driver that supports \
        Vulkan (NVIDIA, AMD, Intel): install or update the GPU driver";
    pub const VALIDATION_HINT: &str = "install the Vulkan SDK, which provides it";
    pub const DRIVER_HINT: &str = "install or update the GPU driver";
}

/// macOS and iOS: Vulkan through MoltenVK, with or without the Khronos loader. The loader's
/// usual homes (the Vulkan SDK's `/usr/local/lib`, Homebrew's `/opt/homebrew/lib`) are tried
/// after the library search path, and MoltenVK itself last (it can be loaded directly).
#[cfg(any(target_os = "macos", target_os = "ios"))]
mod os {
    /// Mach-O 64-bit (either byte order) and universal ("fat") binaries.
    pub const LIBRARY_MAGIC: &[&[u8]] = &[
        b"\xcf\xfa\xed\xfe",
        b"\xfe\xed\xfa\xcf",
        b"\xca\xfe\xba\xbe",
    ];
    pub const LIBRARY_FORMAT: &str = "Mach-O";
    pub const LOADER_NAMES: &[&str] = &[
        "libvulkan.1.dylib",
        "libvulkan.dylib",
        "/usr/local/lib/libvulkan.1.dylib",
        "/opt/homebrew/lib/libvulkan.1.dylib",
        "libMoltenVK.dylib",
    ];
    pub const LOADER_HINT: &str = "install the Vulkan SDK, or Homebrew's `vulkan-loader` and \
        `molten-vk`";
    pub const VALIDATION_HINT: &str =
        "install the Vulkan SDK or Homebrew's `vulkan-validationlayers`";
    pub const DRIVER_HINT: &str = "install MoltenVK (the Vulkan SDK or Homebrew's `molten-vk`)";
}

/// Android: every device with Vulkan has the system loader.
#[cfg(target_os = "android")]
mod os {
    pub const LIBRARY_MAGIC: &[&[u8]] = &[b"\x7fELF"];
    pub const LIBRARY_FORMAT: &str = "ELF";
    pub const LOADER_NAMES: &[&str] = &["libvulkan.so"];
    pub const LOADER_HINT: &str = "this Android device has no Vulkan (Android 7.0 or later \
        with a Vulkan driver is needed)";
    pub const VALIDATION_HINT: &str =
        "package `libVkLayer_khronos_validation.so` with the application";
    pub const DRIVER_HINT: &str = "this Android device has no Vulkan driver with compute";
}

pub(crate) use os::{
    DRIVER_HINT, LIBRARY_FORMAT, LIBRARY_MAGIC, LOADER_HINT, LOADER_NAMES, VALIDATION_HINT,
};
