//! The nine formats of the original suite.

/// A texel format used by typed buffers and textures, in the original's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// 8-bit UNORM, one channel.
    R8,
    /// 8-bit UNORM, two channels.
    Rg8,
    /// 8-bit UNORM, four channels.
    Rgba8,
    /// 16-bit float, one channel.
    R16f,
    /// 16-bit float, two channels.
    Rg16f,
    /// 16-bit float, four channels.
    Rgba16f,
    /// 32-bit float, one channel.
    R32f,
    /// 32-bit float, two channels.
    Rg32f,
    /// 32-bit float, four channels.
    Rgba32f,
}

/// How a channel is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChannelKind {
    /// Unsigned normalized 8-bit: value = byte / 255.
    Unorm8,
    /// IEEE half float.
    Float16,
    /// IEEE single float.
    Float32,
}

impl Format {
    /// All formats in the original's order.
    pub const ALL: [Format; 9] = [
        Format::R8,
        Format::Rg8,
        Format::Rgba8,
        Format::R16f,
        Format::Rg16f,
        Format::Rgba16f,
        Format::R32f,
        Format::Rg32f,
        Format::Rgba32f,
    ];

    /// Number of channels (1, 2 or 4).
    pub fn components(self) -> u32 {
        match self {
            Format::R8 | Format::R16f | Format::R32f => 1,
            Format::Rg8 | Format::Rg16f | Format::Rg32f => 2,
            Format::Rgba8 | Format::Rgba16f | Format::Rgba32f => 4,
        }
    }

    /// Storage of one channel.
    pub fn channel_kind(self) -> ChannelKind {
        match self {
            Format::R8 | Format::Rg8 | Format::Rgba8 => ChannelKind::Unorm8,
            Format::R16f | Format::Rg16f | Format::Rgba16f => ChannelKind::Float16,
            Format::R32f | Format::Rg32f | Format::Rgba32f => ChannelKind::Float32,
        }
    }

    /// Bytes of one channel.
    pub fn channel_bytes(self) -> u32 {
        match self.channel_kind() {
            ChannelKind::Unorm8 => 1,
            ChannelKind::Float16 => 2,
            ChannelKind::Float32 => 4,
        }
    }

    /// Bytes of one texel (= bytes fetched by one load).
    pub fn texel_bytes(self) -> u32 {
        self.components() * self.channel_bytes()
    }

    /// The name the original printed for `Buffer<...>` cases (`R16f`).
    pub fn buffer_name(self) -> &'static str {
        match self {
            Format::R8 => "R8",
            Format::Rg8 => "RG8",
            Format::Rgba8 => "RGBA8",
            Format::R16f => "R16f",
            Format::Rg16f => "RG16f",
            Format::Rgba16f => "RGBA16f",
            Format::R32f => "R32f",
            Format::Rg32f => "RG32f",
            Format::Rgba32f => "RGBA32f",
        }
    }

    /// The name the original printed for `Texture2D<...>` cases (`R16F`).
    pub fn texture_name(self) -> &'static str {
        match self {
            Format::R8 => "R8",
            Format::Rg8 => "RG8",
            Format::Rgba8 => "RGBA8",
            Format::R16f => "R16F",
            Format::Rg16f => "RG16F",
            Format::Rgba16f => "RGBA16F",
            Format::R32f => "R32F",
            Format::Rg32f => "RG32F",
            Format::Rgba32f => "RGBA32F",
        }
    }

    /// Lower-case token used in case ids (`rgba16f`).
    pub fn id_token(self) -> &'static str {
        match self {
            Format::R8 => "r8",
            Format::Rg8 => "rg8",
            Format::Rgba8 => "rgba8",
            Format::R16f => "r16f",
            Format::Rg16f => "rg16f",
            Format::Rgba16f => "rgba16f",
            Format::R32f => "r32f",
            Format::Rg32f => "rg32f",
            Format::Rgba32f => "rgba32f",
        }
    }

    /// Decodes channel `c` of the texel stored at the start of `bytes`.
    /// Missing channels read as 0 (alpha as 1), as Vulkan's format conversion rules say.
    pub fn decode_channel(self, bytes: &[u8], c: u32) -> f32 {
        if c >= self.components() {
            return if c == 3 { 1.0 } else { 0.0 };
        }
        let at = (c * self.channel_bytes()) as usize;
        match self.channel_kind() {
            ChannelKind::Unorm8 => bytes.get(at).map_or(0.0, |&b| f32::from(b) / 255.0),
            ChannelKind::Float16 => match bytes.get(at..at + 2) {
                Some(h) => half_to_f32(u16::from_le_bytes([h[0], h[1]])),
                None => 0.0,
            },
            ChannelKind::Float32 => match bytes.get(at..at + 4) {
                Some(w) => f32::from_le_bytes([w[0], w[1], w[2], w[3]]),
                None => 0.0,
            },
        }
    }
}

/// Converts an IEEE 754 binary16 value to f32, exactly (every half is representable).
pub fn half_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0f32 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1f);
    let mant = f32::from(h & 0x3ff);
    match exp {
        0 => sign * mant * 2f32.powi(-24),
        31 if mant == 0.0 => sign * f32::INFINITY,
        31 => f32::NAN,
        _ => sign * (1.0 + mant / 1024.0) * 2f32.powi(exp - 15),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_conversion_known_values() {
        assert_eq!(half_to_f32(0x3c00), 1.0);
        assert_eq!(half_to_f32(0xc000), -2.0);
        assert_eq!(half_to_f32(0x3555), 0.333_251_95);
        assert_eq!(half_to_f32(0x0001), 5.960_464_5e-8);
        assert_eq!(half_to_f32(0x7bff), 65504.0);
        assert!(half_to_f32(0x7c00).is_infinite());
        assert!(half_to_f32(0x7e00).is_nan());
    }

    #[test]
    fn texel_sizes() {
        let sizes: Vec<u32> = Format::ALL.iter().map(|f| f.texel_bytes()).collect();
        assert_eq!(sizes, [1, 2, 4, 2, 4, 8, 4, 8, 16]);
    }

    #[test]
    fn decode_unorm_and_missing_channels() {
        let bytes = [255u8, 0, 51, 7];
        assert_eq!(Format::Rgba8.decode_channel(&bytes, 0), 1.0);
        assert_eq!(Format::Rgba8.decode_channel(&bytes, 2), 0.2);
        assert_eq!(Format::R8.decode_channel(&bytes, 1), 0.0);
        assert_eq!(Format::R8.decode_channel(&bytes, 3), 1.0);
    }
}
