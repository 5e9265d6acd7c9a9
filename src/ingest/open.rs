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
        source,
    };
    let raw: Box<dyn Read + Send> = if path == "-" {
        Box::new(io::stdin())
    } else {
        Box::new(File::open(Path::new(path)).map_err(io_err)?)
    };
    prepare(path, raw)
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
        source,
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
        source,
    };
    let mut reader = decompressed(raw).map_err(io_err)?;
    let head = reader.fill_buf().map_err(io_err)?;
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
/// (detected by its magic bytes, not the file name).
pub(super) fn decompressed(raw: Box<dyn Read + Send>) -> io::Result<Box<dyn BufRead + Send>> {
    let mut reader: Box<dyn BufRead + Send> = Box::new(BufReader::with_capacity(BUFFER, raw));
    if reader.fill_buf()?.starts_with(XZ_MAGIC) {
        reader = Box::new(BufReader::with_capacity(
            BUFFER,
            xz2::read::XzDecoder::new_multi_decoder(reader),
        ));
    }
    Ok(reader)
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
