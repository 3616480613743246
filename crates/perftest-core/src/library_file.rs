//! What can be checked about a Vulkan loader library before the system's dynamic loader opens
//! it: that it is a regular file (a FIFO would block `dlopen`'s `open`), that it starts with
//! the platform's executable-format magic, and, for ELF, that every loadable segment lies
//! inside the file (a truncated library is mapped past its end and dies with SIGBUS inside
//! `dlopen`, where no error can be returned). What `dlopen` checks beyond this (symbols,
//! relocations, dependencies) is left to it.

use std::fs;
use std::io::Read;
use std::path::Path;

/// The largest library read for the check (the Khronos loader is well under 1 MB).
const MAX_LIBRARY_BYTES: u64 = 256 << 20;

/// Checks the library at `path`; the error says what is wrong with it.
pub(crate) fn check_library(path: &Path) -> Result<(), String> {
    let meta = fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    let mut bytes = Vec::new();
    fs::File::open(path)
        .and_then(|f| f.take(MAX_LIBRARY_BYTES).read_to_end(&mut bytes))
        .map_err(|e| e.to_string())?;
    let magic = crate::platform::LIBRARY_MAGIC;
    if !magic.iter().any(|m| bytes.starts_with(m)) {
        return Err(format!(
            "not a shared library for this platform ({} bytes, no {} header)",
            bytes.len(),
            crate::platform::LIBRARY_FORMAT
        ));
    }
    if bytes.starts_with(ELF_MAGIC) {
        elf_segments_fit(&bytes)?;
    }
    Ok(())
}

/// The first bytes of an ELF file.
pub(crate) const ELF_MAGIC: &[u8] = b"\x7fELF";

/// ELF's `PT_LOAD` program header type.
const PT_LOAD: u32 = 1;

/// Checks that an ELF file's program headers, and the file part of every loadable segment, lie
/// inside `bytes` (32- and 64-bit, either byte order).
pub(crate) fn elf_segments_fit(bytes: &[u8]) -> Result<(), String> {
    let truncated = |what: &str| {
        format!(
            "truncated: {what} ends past the file's {} bytes",
            bytes.len()
        )
    };
    let class = *bytes.get(4).ok_or_else(|| truncated("the ELF header"))?;
    let little = match bytes.get(5) {
        Some(1) => true,
        Some(2) => false,
        _ => return Err("an ELF file of unknown byte order".into()),
    };
    let read = |at: usize, size: usize| -> Option<u64> {
        let field = bytes.get(at..at.checked_add(size)?)?;
        let mut value = 0u64;
        for i in 0..size {
            let byte = if little {
                field[size - 1 - i]
            } else {
                field[i]
            };
            value = (value << 8) | u64::from(byte);
        }
        Some(value)
    };
    // (e_phoff, e_phentsize, e_phnum) offsets, and the offsets of p_type, p_offset, p_filesz
    // inside a program header, with their sizes.
    let (phoff, phentsize, phnum, word, p_offset, p_filesz) = match class {
        1 => ((28, 4), 42, 44, 4, 4, 16),
        2 => ((32, 8), 54, 56, 8, 8, 32),
        _ => return Err("an ELF file of unknown class".into()),
    };
    let header = |at: usize, size: usize| read(at, size).ok_or_else(|| truncated("the ELF header"));
    let table = header(phoff.0, phoff.1)?;
    let entry = header(phentsize, 2)?;
    let count = header(phnum, 2)?;
    entry
        .checked_mul(count)
        .and_then(|n| n.checked_add(table))
        .filter(|&end| end <= bytes.len() as u64)
        .ok_or_else(|| truncated("the program header table"))?;
    for i in 0..count {
        let at = usize::try_from(table + i * entry).map_err(|_| truncated("a program header"))?;
        let kind = read(at, 4).ok_or_else(|| truncated("a program header"))?;
        if kind != u64::from(PT_LOAD) {
            continue;
        }
        let offset = read(at + p_offset, word).ok_or_else(|| truncated("a program header"))?;
        let size = read(at + p_filesz, word).ok_or_else(|| truncated("a program header"))?;
        if offset
            .checked_add(size)
            .is_none_or(|end| end > bytes.len() as u64)
        {
            return Err(truncated(&format!("loadable segment {i}")));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal 64-bit little-endian ELF file with one loadable segment of `filesz` bytes at
    /// `offset`, padded to `len` bytes.
    fn elf64(offset: u64, filesz: u64, len: usize) -> Vec<u8> {
        let mut b = vec![0u8; len.max(120)];
        b[..4].copy_from_slice(ELF_MAGIC);
        b[4] = 2; // 64-bit
        b[5] = 1; // little-endian
        b[32..40].copy_from_slice(&64u64.to_le_bytes()); // e_phoff
        b[54..56].copy_from_slice(&56u16.to_le_bytes()); // e_phentsize
        b[56..58].copy_from_slice(&1u16.to_le_bytes()); // e_phnum
        b[64..68].copy_from_slice(&PT_LOAD.to_le_bytes());
        b[72..80].copy_from_slice(&offset.to_le_bytes());
        b[96..104].copy_from_slice(&filesz.to_le_bytes());
        b.truncate(len);
        b
    }

    #[test]
    fn segments_inside_the_file_pass() {
        assert_eq!(elf_segments_fit(&elf64(0, 4096, 4096)), Ok(()));
    }

    #[test]
    fn truncated_files_are_found() {
        let cut = elf_segments_fit(&elf64(0, 4096, 2048)).unwrap_err();
        assert!(cut.contains("loadable segment 0"), "{cut}");
        let header = elf_segments_fit(&elf64(0, 4096, 100)).unwrap_err();
        assert!(header.contains("program header"), "{header}");
        assert!(elf_segments_fit(ELF_MAGIC).is_err());
        let huge = elf_segments_fit(&elf64(u64::MAX, 2, 4096)).unwrap_err();
        assert!(huge.contains("truncated"), "{huge}");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_system_loader_passes_and_its_truncated_copy_does_not() {
        let Some(real) = [
            "/usr/lib/x86_64-linux-gnu/libvulkan.so.1",
            "/usr/lib/libvulkan.so.1",
        ]
        .iter()
        .map(Path::new)
        .find(|p| p.exists()) else {
            eprintln!("no system libvulkan.so.1: skipped");
            return;
        };
        assert_eq!(check_library(real), Ok(()));
        let bytes = fs::read(real).unwrap();
        assert!(elf_segments_fit(&bytes[..bytes.len() / 2]).is_err());
        assert!(check_library(Path::new("/"))
            .unwrap_err()
            .contains("regular file"));
    }
}
