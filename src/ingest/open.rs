//! Opening an export: plain text, xz-compressed, or standard input (`-`),
//! with what the bytes look like checked before any CSV is parsed.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use super::error::IngestError;
use super::read_ahead::ReadAhead;

const XZ_MAGIC: &[u8] = &[0xFD, b'7', b'z', b'X', b'Z', 0x00];
const BUFFER: usize = 1 << 16;
/// Files this large or larger are read ahead on a second thread.
const READ_AHEAD_FROM: u64 = 1 << 20;

/// Opens `path` for streaming. An xz stream is decompressed on the fly
/// (detected by its magic bytes, not the file name); UTF-16 and binary data
/// are refused with a message that says what the file looks like.
pub fn open(path: &str) -> Result<Box<dyn BufRead + Send>, IngestError> {
    let io_err = |source| IngestError::Io {
        path: path.to_owned(),
        reason: source,
    };
    let raw: Box<dyn Read + Send> = if path == "-" {
        Box::new(io::stdin())
    } else {
        Box::new(File::open(Path::new(path)).map_err(io_err)?)
    };
    prepare(path, raw)
}

/// The most an xz stream may expand to: a thousand times its compressed
/// size (reports and exports compress 10 to 60 times), and at least 1 GiB.
pub(super) fn expansion_limit(compressed: Option<u64>) -> u64 {
    compressed.map_or(u64::MAX, |n| n.saturating_mul(1000).max(1 << 30))
}

/// Opens `path` as [`open`] does, for a read from start to end: a file of
/// [`READ_AHEAD_FROM`] bytes or more is read (and decompressed) on a second
/// thread while it is parsed.
pub fn open_to_read(path: &str) -> Result<Box<dyn BufRead + Send>, IngestError> {
    let reader = open(path)?;
    let large = path != "-" && std::fs::metadata(path).is_ok_and(|m| m.len() >= READ_AHEAD_FROM);
    if !large {
        return Ok(reader);
    }
    let ahead = ReadAhead::new(reader).map_err(|source| IngestError::Io {
        path: path.to_owned(),
        reason: source,
    })?;
    Ok(Box::new(ahead))
}

/// Buffers `raw` (named `path` in errors), decompressing xz and refusing
/// what is not UTF-8 text.
pub fn prepare(
    path: &str,
    raw: Box<dyn Read + Send>,
) -> Result<Box<dyn BufRead + Send>, IngestError> {
    let io_err = |source| IngestError::Io {
        path: path.to_owned(),
        reason: source,
    };
    let compressed = (path != "-")
        .then(|| std::fs::metadata(path).ok().map(|m| m.len()))
        .flatten();
    let mut reader = decompressed(raw, compressed).map_err(io_err)?;
    let head = reader.fill_buf().map_err(io_err)?;
    if head.is_empty() && path != "-" {
        return Err(IngestError::Empty {
            path: path.to_owned(),
        });
    }
    if let Some(what) = damaged_report(path, head) {
        return Err(IngestError::Report {
            path: path.to_owned(),
            message: what,
            offset: 0,
        });
    }
    if let Some(what) = describe_non_text(head) {
        return Err(IngestError::Encoding {
            path: path.to_owned(),
            what,
            line: 1,
            column: 1,
        });
    }
    Ok(reader)
}

/// What is wrong with a file that is a report by its name or by its file
/// header (`u32 2`, then `08 07`: container version 7) but not by its
/// magic bytes.
fn damaged_report(path: &str, head: &[u8]) -> Option<String> {
    let named = path.ends_with(".ncu-rep") || path.ends_with(".ncu-rep.xz");
    let framed = head.len() >= 10 && head[4..8] == [2, 0, 0, 0] && head[8] == 0x08;
    let binary = head.contains(&0);
    if head.starts_with(super::ncu_rep::MAGIC) || !(framed || (named && binary)) {
        return None;
    }
    let magic: Vec<String> = head.iter().take(4).map(|b| format!("{b:02X}")).collect();
    Some(format!(
        "a damaged Nsight Compute report: it starts with {} where NVR\\0 (4E 56 52 00) should be",
        magic.join(" ")
    ))
}

/// What the start of a file looks like, when it is not UTF-8 text.
fn describe_non_text(head: &[u8]) -> Option<String> {
    if head.starts_with(&[0xFF, 0xFE]) || head.starts_with(&[0xFE, 0xFF]) {
        return Some(
            "the file is UTF-16 text (it starts with a UTF-16 byte-order mark), not UTF-8".into(),
        );
    }
    let nul = head.iter().filter(|&&b| b == 0).count();
    if nul > 0 {
        let alternating = head.iter().skip(1).step_by(2).filter(|&&b| b == 0).count();
        return Some(if alternating * 2 >= head.len() / 2 && alternating == nul {
            "the file looks like UTF-16 text without a byte-order mark, not UTF-8".into()
        } else {
            format!(
                "the file holds binary data ({nul} NUL bytes in its first {} bytes), not a CSV export",
                head.len()
            )
        });
    }
    None
}

/// Buffers `raw`, decompressing it on the fly when it is an xz stream
/// (detected by its magic bytes, not the file name), to at most
/// [`expansion_limit`] of its `compressed` size.
pub(super) fn decompressed(
    raw: Box<dyn Read + Send>,
    compressed: Option<u64>,
) -> io::Result<Box<dyn BufRead + Send>> {
    let mut reader: Box<dyn BufRead + Send> = Box::new(BufReader::with_capacity(BUFFER, raw));
    if reader.fill_buf()?.starts_with(XZ_MAGIC) {
        reader = Box::new(BufReader::with_capacity(
            BUFFER,
            Xz {
                decoder: xz2::read::XzDecoder::new_multi_decoder(reader),
                left: expansion_limit(compressed),
            },
        ));
    }
    Ok(reader)
}

/// An xz stream being decompressed: its errors say they are the stream's,
/// and it stops past its expansion limit.
struct Xz<R: Read> {
    decoder: xz2::read::XzDecoder<R>,
    left: u64,
}

impl<R: Read> Read for Xz<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.left == 0 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "the xz stream expands past a thousand times its size: an xz bomb, not a profile",
            ));
        }
        let want = buf
            .len()
            .min(usize::try_from(self.left).unwrap_or(usize::MAX));
        match self.decoder.read(&mut buf[..want]) {
            Ok(n) => {
                self.left -= n as u64;
                Ok(n)
            }
            Err(e) => Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("the xz stream is broken (truncated, or followed by other bytes): {e}"),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_and_binary_are_named() {
        let utf16: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain("\"ID\"".bytes().flat_map(|b| [b, 0]))
            .collect();
        assert!(describe_non_text(&utf16).unwrap().contains("UTF-16"));
        let no_bom: Vec<u8> = "\"ID\",\"x\"".bytes().flat_map(|b| [b, 0]).collect();
        assert!(
            describe_non_text(&no_bom)
                .unwrap()
                .contains("without a byte-order mark")
        );
        assert!(
            describe_non_text(&[0x7f, b'E', b'L', b'F', 0, 0, 1, 2])
                .unwrap()
                .contains("binary")
        );
        assert_eq!(describe_non_text(b"\"ID\",\"Process ID\""), None);
    }
}
