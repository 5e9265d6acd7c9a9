//! The container: `NVR\0`, a length-prefixed file header, then blocks, each
//! a length-prefixed [`BlockHeader`] and a payload of length-prefixed
//! messages (sources, then kernel results, then results of other kinds).
//! Read as a stream, one message at a time: memory is bounded by the
//! largest message, not the report.

use std::io::Read;

use prost::Message;

use super::messages::{BlockHeader, FileHeader, ProfileResult, SessionDetails, SourceData};

/// The magic bytes that open a report.
pub const MAGIC: &[u8; 4] = b"NVR\0";

/// The largest message the reader accepts: a longer length prefix is
/// damage, not a result. The largest seen is an 18.8 MB cubin (a source
/// record); 64 MiB leaves more than three times that, and bounds what one
/// corrupt length can make the reader hold.
const MAX_MESSAGE: u64 = 64 << 20;

/// The most a message's buffer is reserved before its bytes arrive.
const PREALLOCATE: u64 = 8 << 20;

/// What went wrong, and where.
#[derive(Debug, Clone, PartialEq)]
pub struct ContainerError {
    /// What is wrong.
    pub message: String,
    /// Bytes from the start of the stream.
    pub offset: u64,
}

/// What a report holds, in file order.
#[derive(Debug)]
pub enum Item {
    /// Session details (devices, versions, settings) of a block.
    Session(Box<SessionDetails>),
    /// A module's code (the cubin, imported CUDA text), referred to by results.
    Source(Box<SourceData>),
    /// One kernel launch.
    Result(Box<ProfileResult>),
}

/// Reads a report's items one at a time.
pub struct Container<R> {
    reader: R,
    offset: u64,
    /// The string table so far: blocks append to it.
    pub strings: Vec<String>,
    /// Messages left in the current block: sources and results to read,
    /// other results to skip.
    sources: u64,
    results: u64,
    others: u64,
    /// Payload bytes left in the current block.
    payload: u64,
    /// The container version.
    pub version: u32,
    /// The buffer messages are read into, reused.
    buffer: Vec<u8>,
    /// Blocks read.
    pub blocks: u64,
    /// The first payload left over after a block's counts: where, how many
    /// bytes.
    pub leftover: Option<(u64, u64)>,
}

impl<R: Read> Container<R> {
    /// Checks the magic bytes and reads the file header.
    pub fn open(mut reader: R) -> Result<Container<R>, ContainerError> {
        let mut magic = [0u8; 4];
        read_exact(&mut reader, &mut magic, 0, "the report's magic bytes")?;
        if &magic != MAGIC {
            return Err(ContainerError {
                message: "not an Nsight Compute report: it does not start with NVR\\0".into(),
                offset: 0,
            });
        }
        let mut container = Container {
            reader,
            offset: 4,
            strings: Vec::new(),
            sources: 0,
            results: 0,
            others: 0,
            payload: 0,
            version: 0,
            buffer: Vec::new(),
            blocks: 0,
            leftover: None,
        };
        let header: FileHeader = container.message("the file header")?;
        container.version = header.version.unwrap_or(0);
        Ok(container)
    }

    /// The next session or result; `None` at the end of the report.
    pub fn next(&mut self) -> Result<Option<Item>, ContainerError> {
        loop {
            if self.sources + self.results + self.others > 0 && self.payload < 4 {
                return Err(self.error(format!(
                    "a block's counts claim {} more messages than its payload holds: the report is damaged",
                    self.sources + self.results + self.others
                )));
            }
            if self.sources > 0 {
                self.sources -= 1;
                // Read into a buffer of its own, which the cubin then shares.
                let len = self.length("a source record")?;
                let bytes = prost::bytes::Bytes::from(self.owned(len, "a source record")?);
                let source = SourceData::decode(bytes)
                    .map_err(|e| self.error(format!("a source record does not decode: {e}")))?;
                return Ok(Some(Item::Source(Box::new(source))));
            }
            if self.results > 0 {
                self.results -= 1;
                // A buffer of its own, which the undecoded sections share.
                let len = self.length("a kernel result")?;
                if len == 0 {
                    return Err(
                        self.error("a kernel result of 0 bytes: the report is damaged".into())
                    );
                }
                let bytes = prost::bytes::Bytes::from(self.owned(len, "a kernel result")?);
                let result = ProfileResult::decode(bytes)
                    .map_err(|e| self.error(format!("a kernel result does not decode: {e}")))?;
                return Ok(Some(Item::Result(Box::new(result))));
            }
            if self.others > 0 {
                self.others -= 1;
                self.skip_message("a range, command-list or graph result")?;
                continue;
            }
            if self.payload > 0 {
                // Counts that do not fill the payload: messages of kinds
                // newer than this reader, or damage. Skipped, and said.
                let (left, at) = (self.payload, self.offset);
                self.skip(left, "the rest of a block")?;
                self.payload = 0;
                self.leftover.get_or_insert((at, left));
                continue;
            }
            let Some(header) = self.block_header()? else {
                return Ok(None);
            };
            if let Some(table) = &header.string_table {
                self.strings.extend(
                    table
                        .strings
                        .iter()
                        .map(|s| String::from_utf8_lossy(s).into_owned()),
                );
            }
            self.payload = header.payload_size.unwrap_or(0);
            self.sources = header.num_sources.unwrap_or(0);
            self.results = header.num_results.unwrap_or(0);
            self.others = header.num_range_results.unwrap_or(0)
                + header.num_cmdlist_results.unwrap_or(0)
                + header.num_graph_results.unwrap_or(0);
            if let Some(session) = header.session {
                return Ok(Some(Item::Session(Box::new(session))));
            }
        }
    }

    /// The next block header, or `None` at a clean end of file.
    fn block_header(&mut self) -> Result<Option<BlockHeader>, ContainerError> {
        let mut first = [0u8; 1];
        match self.reader.read(&mut first) {
            Ok(0) => return Ok(None),
            Ok(_) => {}
            Err(e) => return Err(self.error(format!("cannot read a block header: {e}"))),
        }
        let mut rest = [0u8; 3];
        read_exact(
            &mut self.reader,
            &mut rest,
            self.offset,
            "a block header's length",
        )?;
        let len = u32::from_le_bytes([first[0], rest[0], rest[1], rest[2]]);
        if len == 0 {
            return Err(self.error(
                "an empty block header (zero bytes where a block should start): the report is damaged"
                    .into(),
            ));
        }
        if u64::from(len) > MAX_MESSAGE {
            return Err(self.error(format!(
                "a block header claims {len} bytes: the report is damaged"
            )));
        }
        self.offset += 4;
        self.fill(u64::from(len), "a block header")?;
        let header = BlockHeader::decode(self.buffer.as_slice())
            .map_err(|e| self.error(format!("a block header does not decode: {e}")))?;
        self.blocks += 1;
        Ok(Some(header))
    }

    /// The next length-prefixed message of the payload.
    fn message<M: Message + Default>(&mut self, what: &str) -> Result<M, ContainerError> {
        let len = self.length(what)?;
        self.fill(len, what)?;
        M::decode(self.buffer.as_slice())
            .map_err(|e| self.error(format!("{what} does not decode: {e}")))
    }

    fn skip_message(&mut self, what: &str) -> Result<(), ContainerError> {
        let len = self.length(what)?;
        self.skip(len, what)
    }

    fn length(&mut self, what: &str) -> Result<u64, ContainerError> {
        let mut prefix = [0u8; 4];
        read_exact(&mut self.reader, &mut prefix, self.offset, what)?;
        self.offset += 4;
        self.payload = self.payload.saturating_sub(4);
        let len = u64::from(u32::from_le_bytes(prefix));
        if len > MAX_MESSAGE {
            return Err(self.error(format!("{what} claims {len} bytes: the report is damaged")));
        }
        if self.blocks > 0 && len + 4 > self.payload + 4 {
            return Err(self.error(format!(
                "{what} claims {len} bytes, more than the {} left in its block: the report is damaged",
                self.payload
            )));
        }
        Ok(len)
    }

    /// Reads `len` bytes into the reused buffer.
    fn fill(&mut self, len: u64, what: &str) -> Result<(), ContainerError> {
        let mut buffer = std::mem::take(&mut self.buffer);
        buffer.clear();
        let read = self.read_into(&mut buffer, len, what);
        self.buffer = buffer;
        read
    }

    /// Reads `len` bytes into a buffer of their own.
    fn owned(&mut self, len: u64, what: &str) -> Result<Vec<u8>, ContainerError> {
        let mut buffer = Vec::new();
        self.read_into(&mut buffer, len, what)?;
        Ok(buffer)
    }

    fn read_into(
        &mut self,
        buffer: &mut Vec<u8>,
        len: u64,
        what: &str,
    ) -> Result<(), ContainerError> {
        // Read in steps of at most PREALLOCATE bytes: a corrupt length does
        // not allocate more than the report holds.
        let mut left = len;
        while left > 0 {
            let start = buffer.len();
            let step = left.min(PREALLOCATE) as usize;
            buffer.resize(start + step, 0);
            if let Err(e) = self.reader.read_exact(&mut buffer[start..]) {
                let read = len - left;
                return Err(
                    self.error(if e.kind() == std::io::ErrorKind::UnexpectedEof {
                        format!(
                            "the report ends inside {what} ({len} bytes from byte {})",
                            self.offset + read
                        )
                    } else {
                        format!("cannot read {what}: {e}")
                    }),
                );
            }
            left -= step as u64;
        }
        self.offset += len;
        self.payload = self.payload.saturating_sub(len);
        Ok(())
    }

    fn skip(&mut self, len: u64, what: &str) -> Result<(), ContainerError> {
        let skipped = std::io::copy(&mut (&mut self.reader).take(len), &mut std::io::sink())
            .map_err(|e| self.error(format!("cannot read {what}: {e}")))?;
        if skipped < len {
            return Err(self.error(format!(
                "the report ends inside {what}: {skipped} of {len} bytes"
            )));
        }
        self.offset += len;
        self.payload = self.payload.saturating_sub(len);
        Ok(())
    }

    fn error(&self, message: String) -> ContainerError {
        ContainerError {
            message,
            offset: self.offset,
        }
    }
}

fn read_exact(
    reader: &mut impl Read,
    buf: &mut [u8],
    offset: u64,
    what: &str,
) -> Result<(), ContainerError> {
    reader.read_exact(buf).map_err(|e| ContainerError {
        message: if e.kind() == std::io::ErrorKind::UnexpectedEof {
            format!("the report ends inside {what}")
        } else {
            format!("cannot read {what}: {e}")
        },
        offset,
    })
}
