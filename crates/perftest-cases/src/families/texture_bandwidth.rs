//! Texture bandwidth by format (memory suite): `Texture2D<FMT>.Load` streaming through one
//! image in each of seven formats ([`BandwidthFormat`]: `RGBA32F`, `RGBA16F`, `RGBA8`,
//! `B10G11R11F`, `BC7`, `ASTC4x4`, `BC1`; `shaders/texture_bandwidth.comp`), at two sizes:
//! 8192x4096 texels, the same image in every format (512 MB in `RGBA32F`, 256 MB in
//! `RGBA16F`, 128 MB in the 32-bit formats, 32 MB in `BC7` and `ASTC4x4`, 16 MB in `BC1`), so
//! that every uncompressed format lies beyond the L2 of any current GPU (NVIDIA's H100 and
//! H200 have 50 and 60 MB) and a compressed one may fit in it — the locality that compression
//! buys; and 64x64 texels (at most 64 KB, in the L1), the control that shows each format's
//! rate without the memory.
//!
//! What to compare: the cases of one size read the same number of texels, so their loads per
//! second compare formats on the same image (texels per second), and their bytes per second
//! say how much of the memory's bandwidth each format draws.
//!
//! Addressing: a 16x16 workgroup reads a 16-wide, 32-tall tile of the image per step; its
//! thread at `(lx, ly)` fetches texels `(16 tx + lx, 32 ty + ly)` and the one 16 rows below
//! (`texelFetch`, LOD 0), so one load of the family is a pair of texels and neighbouring lanes
//! read neighbouring texels. Step `i` of workgroup `g` reads tile `t = (g * 32 + i) mod T` of
//! the image's `T` tiles, walked a column of tiles at a time (`tx = t / R`, `ty = t mod R`
//! for `R` rows of tiles): each workgroup streams through 32 tiles, and 2048 workgroups read
//! the 8192x4096 image once (larger dispatches go round again). The pairs are summed in f32
//! after widening to four lanes (`xyzx` for `B10G11R11F`).
//!
//! Verification: the four workgroups of a verification dispatch read the first 128 tiles of
//! the walk, the first column of tiles from top to bottom (every row of the image, so every
//! slice of its upload); each thread's sum is checked against the model
//! ([`BandwidthFormat::texel`], decoding only the texels it reads) within `1e-4` of the sum
//! of its terms' magnitudes plus the summed slack of the texels ([`BandwidthFormat`] says
//! which carry any: interpolated BC1 channels, ASTC's FP16 decode).
//!
//! Skips: the image's memory ([`DeviceNeed::DeviceMemory`], a quarter of the largest
//! device-local heap at most); `SAMPLED_IMAGE` for the uncompressed formats;
//! `textureCompressionBC` for BC1 and BC7 and `textureCompressionASTC_LDR` for ASTC, which
//! NVIDIA's desktop GPUs lack.
//!
//! Params: `variant` = format index in [`BandwidthFormat::ALL`], `count` = size index in
//! [`SIZES`], `working_set` = the image's bytes, `width` = the format's channels.

use crate::bandwidth_format::{BandwidthFormat, Texel};
use crate::case::{Case, Params, Pattern};
use crate::check::{thread_at, Readback, VerifyOutcome};
use crate::extra_format::ExtraFormat;
use crate::family::{Family, FamilyRef, Work};
use crate::feature::Feature;
use crate::format::Format;
use crate::kernel_params::Tolerance;
use crate::reference::widen;
use crate::suite::Suite;
use crate::support::{DeviceNeed, FormatFeature};

/// The texture-bandwidth family.
pub struct TextureBandwidth;

/// The image sizes (width, height in texels), with their id and name word: the L1 control,
/// then the image beyond the L2.
pub const SIZES: [(u32, u32); 2] = [(64, 64), (8192, 4096)];

/// Width of a tile, in texels.
pub const TILE_WIDTH: u32 = 16;

/// Height of a tile, in texels: 16 rows of threads, each reading two texels 16 rows apart.
pub const TILE_HEIGHT: u32 = 32;

/// Loads (texel pairs) per thread: 32 tiles per workgroup.
pub const LOADS: u32 = 32;

/// The format of `case`.
pub fn format_of(case: &Case) -> BandwidthFormat {
    BandwidthFormat::ALL
        .get(case.params.variant as usize)
        .copied()
        .unwrap_or(BandwidthFormat::Rgba8)
}

/// The image size `(width, height)` of `case`.
pub fn size_of(case: &Case) -> (u32, u32) {
    SIZES
        .get(case.params.count as usize)
        .copied()
        .unwrap_or(SIZES[0])
}

/// The id of the case of `format` at `size` (`mem.texbw.8192x4096.rgba16f`).
pub fn case_id(format: BandwidthFormat, (width, height): (u32, u32)) -> String {
    format!("mem.texbw.{width}x{height}.{}", format.id_token())
}

/// Rows of tiles of an image `height` texels tall.
fn tile_rows(height: u32) -> u32 {
    height / TILE_HEIGHT
}

/// Tiles of an image of `size`.
fn tiles((width, height): (u32, u32)) -> u32 {
    (width / TILE_WIDTH) * tile_rows(height)
}

/// `bytes` in words (`64KB`, `512MB`).
fn size_words(bytes: u64) -> String {
    if bytes >= 1 << 20 {
        format!("{}MB", bytes >> 20)
    } else {
        format!("{}KB", bytes >> 10)
    }
}

/// The texel the first of the two fetches of load `i` of thread `local` of workgroup `group`
/// reads (the second is 16 rows below).
pub fn texel_of(case: &Case, group: u32, local: [u32; 2], i: u32) -> (u32, u32) {
    let size = size_of(case);
    let rows = tile_rows(size.1);
    let t = group.wrapping_mul(LOADS).wrapping_add(i) & (tiles(size) - 1);
    let (tx, ty) = (t / rows, t % rows);
    (tx * TILE_WIDTH + local[0], ty * TILE_HEIGHT + local[1])
}

/// The model of one thread: per lane the sum (in the kernel's order), the sum of the terms'
/// magnitudes and the summed slack.
pub fn thread_model(case: &Case, group: u32, local: [u32; 2]) -> ([f32; 4], [f32; 4], [f32; 4]) {
    let format = format_of(case);
    let (width, _) = size_of(case);
    let n = format.components();
    let (mut sum, mut abs, mut slack) = ([0f32; 4], [0f32; 4], [0f32; 4]);
    let mut add = |t: Texel| {
        let (v, s) = (widen(t.value, n), widen(t.slack, n));
        for lane in 0..4 {
            sum[lane] += v[lane];
            abs[lane] += v[lane].abs();
            slack[lane] += s[lane];
        }
    };
    for i in 0..LOADS {
        let (x, y) = texel_of(case, group, local, i);
        add(format.texel(width, x, y));
        add(format.texel(width, x, y + TILE_HEIGHT / 2));
    }
    (sum, abs, slack)
}

impl TextureBandwidth {
    fn case(format: BandwidthFormat, size_index: usize) -> Case {
        let (width, height) = SIZES[size_index];
        let bytes = format.image_bytes(width, height);
        Case {
            id: case_id(format, (width, height)),
            name: format!(
                "Texture2D<{}>.Load {width}x{height} {} linear",
                format.name(),
                size_words(bytes)
            ),
            suite: Suite::Memory,
            family: FamilyRef(&TextureBandwidth),
            params: Params {
                origin: None,
                format: None,
                width: format.components(),
                variant: format.index() as u32,
                working_set: bytes,
                count: size_index as u32,
            },
            pattern: Pattern::Linear,
        }
    }
}

impl Family for TextureBandwidth {
    fn label(&self) -> &'static str {
        "texture_bandwidth"
    }

    fn title(&self) -> &'static str {
        "Texture bandwidth by format"
    }

    fn cases(&self) -> Vec<Case> {
        (0..SIZES.len())
            .flat_map(|s| BandwidthFormat::ALL.map(|f| TextureBandwidth::case(f, s)))
            .collect()
    }

    fn workgroup_size(&self) -> [u32; 2] {
        [16, 16]
    }

    fn loop_trip(&self) -> u32 {
        LOADS
    }

    /// A load is two texels: twice the format's bits per texel, in bytes (1 for BC1).
    fn bytes_per_load(&self, case: &Case) -> u32 {
        format_of(case).bits_per_texel() / 4
    }

    fn work(&self, _case: &Case) -> Work {
        Work {
            unit: crate::family::Unit::Load,
            per_thread: LOADS,
        }
    }

    fn reports_bandwidth(&self) -> bool {
        true
    }

    fn needs(&self, case: &Case) -> Vec<DeviceNeed> {
        let sampled = FormatFeature::SampledImage;
        let format = match format_of(case) {
            BandwidthFormat::Rgba32f => DeviceNeed::Format(Format::Rgba32f, sampled),
            BandwidthFormat::Rgba16f => DeviceNeed::Format(Format::Rgba16f, sampled),
            BandwidthFormat::Rgba8 => DeviceNeed::Format(Format::Rgba8, sampled),
            BandwidthFormat::B10g11r11 => DeviceNeed::ExtraFormat(ExtraFormat::B10g11r11, sampled),
            BandwidthFormat::Bc7 | BandwidthFormat::Bc1 => {
                DeviceNeed::Feature(Feature::TextureCompressionBc)
            }
            BandwidthFormat::Astc4x4 => DeviceNeed::Feature(Feature::TextureCompressionAstcLdr),
        };
        vec![format, DeviceNeed::DeviceMemory(case.params.working_set)]
    }

    /// `FAMILY_A`: the tile mask (tiles - 1); `FAMILY_B`: log2 of the rows of tiles.
    fn constants(&self, case: &Case) -> [u32; 3] {
        let size = size_of(case);
        [tiles(size) - 1, tile_rows(size.1).trailing_zeros(), 0]
    }

    fn verify(&self, case: &Case, readback: &Readback) -> VerifyOutcome {
        let mut outcome = VerifyOutcome::new();
        let tolerance = Tolerance::DEFAULT;
        for (t, got) in readback.sums.iter().enumerate() {
            let (group, local) = thread_at(t, case.threads());
            let (want, abs, slack) = thread_model(case, group, [local % 16, local / 16]);
            let bad = (0..4).find(|&l| {
                !(got[l].is_finite()
                    && (got[l] - want[l]).abs() <= tolerance.relative * abs[l] + slack[l])
            });
            outcome.record(bad.is_none(), || {
                let l = bad.unwrap_or(0);
                format!(
                    "group {group} thread {local} lane {l}: expected {}, got {}",
                    want[l], got[l]
                )
            });
        }
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::support::{DeviceCaps, FormatSupport, Support};

    fn case(id: &str) -> Case {
        TextureBandwidth
            .cases()
            .into_iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| unreachable!("{id}"))
    }

    /// The read-back of four workgroups that the model itself would leave.
    fn model_readback(case: &Case) -> Readback {
        Readback {
            sums: (0..1024u32)
                .map(|t| thread_model(case, t / 256, [t % 16, (t % 256) / 16]).0)
                .collect(),
            written: Vec::new(),
        }
    }

    #[test]
    fn fourteen_cases_in_size_then_format_order() {
        let all = TextureBandwidth.cases();
        assert_eq!(all.len(), 14);
        assert_eq!(all[0].id, "mem.texbw.64x64.rgba32f");
        assert_eq!(all[0].name, "Texture2D<RGBA32F>.Load 64x64 64KB linear");
        assert_eq!(all[13].id, "mem.texbw.8192x4096.bc1");
        assert_eq!(all[13].name, "Texture2D<BC1>.Load 8192x4096 16MB linear");
        let c = case("mem.texbw.8192x4096.rgba16f");
        assert_eq!((c.footprint(), c.bytes_per_load()), (256 << 20, 16));
        assert_eq!(case("mem.texbw.8192x4096.bc1").bytes_per_load(), 1);
        assert_eq!(case("mem.texbw.64x64.b10g11r11f").components(), 3);
        assert_eq!(c.work().per_thread, 32);
        assert_eq!(TextureBandwidth.constants(&c), [65535, 7, 0]);
        assert_eq!(
            TextureBandwidth.constants(&case("mem.texbw.64x64.bc7")),
            [7, 1, 0]
        );
        assert!(all
            .iter()
            .all(|c| c.suite == Suite::Memory && c.threads() == 256));
        assert!(TextureBandwidth.reports_bandwidth());
    }

    #[test]
    fn the_tile_walk_goes_down_a_column_and_covers_the_image() {
        let c = case("mem.texbw.8192x4096.rgba8");
        assert_eq!(texel_of(&c, 0, [3, 5], 0), (3, 5));
        assert_eq!(texel_of(&c, 0, [3, 5], 1), (3, 37));
        // Workgroup 3's last load: tile 127, the bottom of the first column.
        assert_eq!(texel_of(&c, 3, [0, 15], 31), (0, 4096 - 17));
        assert_eq!(texel_of(&c, 4, [0, 0], 0), (16, 0));
        // 2048 workgroups read every tile once; the next one starts again.
        assert_eq!(texel_of(&c, 2047, [15, 15], 31), (8191, 4096 - 17));
        assert_eq!(texel_of(&c, 2048, [1, 2], 0), (1, 2));
        let small = case("mem.texbw.64x64.rgba8");
        assert_eq!(texel_of(&small, 0, [0, 0], 3), (16, 32));
        assert_eq!(texel_of(&small, 0, [0, 0], 8), (0, 0));
    }

    #[test]
    fn skips_follow_formats_features_and_memory() {
        let yes = FormatSupport {
            sampled_image: true,
            ..FormatSupport::default()
        };
        let mut caps = DeviceCaps {
            formats: [yes; 9],
            extra_formats: [yes; 13],
            device_local_bytes: 8 << 30,
            features: crate::feature::FeatureSet::NONE.with(Feature::TextureCompressionBc, true),
            ..DeviceCaps::default()
        };
        let skipped = |caps: &DeviceCaps| -> Vec<(String, String)> {
            TextureBandwidth
                .cases()
                .iter()
                .filter_map(|c| match crate::case::support(c, caps) {
                    Support::Skipped(why) => Some((c.id.clone(), why)),
                    Support::Supported => None,
                })
                .collect()
        };
        let astc = skipped(&caps);
        assert_eq!(astc.len(), 2);
        assert!(astc.iter().all(
            |(id, why)| id.ends_with(".astc4x4") && why.contains("textureCompressionASTC_LDR")
        ));
        caps.features = caps.features.with(Feature::TextureCompressionAstcLdr, true);
        assert!(skipped(&caps).is_empty());
        // A 768 MB heap holds no 512 MB or 256 MB image (a quarter at most).
        caps.device_local_bytes = 768 << 20;
        let big: Vec<String> = skipped(&caps).into_iter().map(|(id, _)| id).collect();
        assert_eq!(
            big,
            ["mem.texbw.8192x4096.rgba32f", "mem.texbw.8192x4096.rgba16f"]
        );
        caps.device_local_bytes = 8 << 30;
        caps.formats[Format::ALL
            .iter()
            .position(|&f| f == Format::Rgba16f)
            .unwrap_or(0)] = FormatSupport::default();
        assert_eq!(skipped(&caps).len(), 2);
    }

    #[test]
    fn the_model_passes_and_a_wrong_texel_or_bit_fails() {
        for id in [
            "mem.texbw.64x64.rgba32f",
            "mem.texbw.64x64.rgba16f",
            "mem.texbw.8192x4096.rgba8",
            "mem.texbw.8192x4096.b10g11r11f",
            "mem.texbw.8192x4096.bc7",
            "mem.texbw.64x64.astc4x4",
            "mem.texbw.8192x4096.bc1",
        ] {
            let c = case(id);
            let good = model_readback(&c);
            assert!(TextureBandwidth.verify(&c, &good).passed(), "{id}");
            let mut bad = good.clone();
            bad.sums[700][1] = f32::from_bits(bad.sums[700][1].to_bits() ^ (1 << 22));
            assert_eq!(TextureBandwidth.verify(&c, &bad).mismatches, 1, "{id}");
            // Thread 37 of group 2 reads the texel beside its first one instead.
            let (x, y) = texel_of(&c, 2, [37 % 16, 37 / 16], 0);
            let f = format_of(&c);
            let (w, _) = size_of(&c);
            let (a, b) = (f.texel(w, x, y).value, f.texel(w, x + 4, y).value);
            let mut moved = good.clone();
            for (lane, s) in moved.sums[512 + 37].iter_mut().enumerate() {
                *s += widen(b, f.components())[lane] - widen(a, f.components())[lane];
            }
            assert!(!TextureBandwidth.verify(&c, &moved).passed(), "{id}");
        }
    }

    #[test]
    fn the_control_and_the_big_image_read_other_texels_in_the_same_format() {
        let (small, big) = (case("mem.texbw.64x64.bc7"), case("mem.texbw.8192x4096.bc7"));
        let readback = model_readback(&big);
        assert!(!TextureBandwidth.verify(&small, &readback).passed());
    }
}
