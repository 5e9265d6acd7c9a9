//! Reading a large export on a second thread: the thread reads (and, for
//! an xz stream, decompresses) the next chunks while the parser works on
//! the current one, so the parse never waits on `read` and its copy out of
//! the page cache. A few chunks are in flight at most, and their buffers
//! are handed back to be refilled, so memory stays a few MiB whatever the
//! file's size.

use std::io::{self, BufRead, Read};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

/// Bytes per chunk.
const CHUNK: usize = 1 << 18;
/// Chunks read ahead of the parser, at most.
const AHEAD: usize = 4;

/// A [`BufRead`] over chunks read by a thread of its own. The thread stops
/// at the end of the input, at an error (passed on in order), or when the
/// reader is dropped.
pub struct ReadAhead {
    chunks: Receiver<io::Result<Vec<u8>>>,
    spare: SyncSender<Vec<u8>>,
    current: Vec<u8>,
    at: usize,
    ended: bool,
}

impl ReadAhead {
    /// Starts reading `inner` ahead.
    pub fn new(mut inner: Box<dyn Read + Send>) -> io::Result<ReadAhead> {
        let (send_chunk, chunks) = sync_channel::<io::Result<Vec<u8>>>(AHEAD);
        let (spare, spares) = sync_channel::<Vec<u8>>(AHEAD + 2);
        std::thread::Builder::new()
            .name("read-ahead".into())
            .spawn(move || {
                loop {
                    let mut buffer = spares.try_recv().unwrap_or_default();
                    buffer.resize(CHUNK, 0);
                    let filled = fill(&mut inner, &mut buffer);
                    let last = !matches!(filled, Ok(n) if n == CHUNK);
                    let chunk = filled.map(|n| {
                        buffer.truncate(n);
                        buffer
                    });
                    if send_chunk.send(chunk).is_err() || last {
                        return;
                    }
                }
            })?;
        Ok(ReadAhead {
            chunks,
            spare,
            current: Vec::new(),
            at: 0,
            ended: false,
        })
    }
}

/// Reads into `buffer` until it is full or the input ends; the bytes read.
fn fill(inner: &mut dyn Read, buffer: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buffer.len() {
        match inner.read(&mut buffer[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

impl Read for ReadAhead {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(out.len());
        out[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for ReadAhead {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.at == self.current.len() && !self.ended {
            match self.chunks.recv() {
                Ok(Ok(chunk)) => {
                    let used = std::mem::replace(&mut self.current, chunk);
                    self.at = 0;
                    // The reader may have stopped; the buffer is then dropped.
                    let _ = self.spare.try_send(used);
                    self.ended = self.current.is_empty();
                }
                Ok(Err(error)) => {
                    self.ended = true;
                    return Err(error);
                }
                Err(_) => self.ended = true,
            }
        }
        Ok(&self.current[self.at..])
    }

    fn consume(&mut self, n: usize) {
        self.at = (self.at + n).min(self.current.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_byte_in_order_across_chunks() {
        let bytes: Vec<u8> = (0..(3 * CHUNK + 12_345)).map(|i| (i % 251) as u8).collect();
        let mut reader = ReadAhead::new(Box::new(io::Cursor::new(bytes.clone()))).unwrap();
        let mut read = Vec::new();
        reader.read_to_end(&mut read).unwrap();
        assert_eq!(read.len(), bytes.len());
        assert!(read == bytes);
    }

    #[test]
    fn an_error_is_passed_on_after_the_bytes_before_it() {
        /// Gives `left` bytes of `b'x'`, then fails.
        struct Failing {
            left: usize,
        }
        impl Read for Failing {
            fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
                if self.left == 0 {
                    return Err(io::Error::other("disk gone"));
                }
                let n = self.left.min(out.len());
                out[..n].fill(b'x');
                self.left -= n;
                Ok(n)
            }
        }
        let mut reader = ReadAhead::new(Box::new(Failing { left: CHUNK + 10 })).unwrap();
        let mut read = Vec::new();
        let error = reader.read_to_end(&mut read).unwrap_err();
        assert_eq!(error.to_string(), "disk gone");
        assert_eq!(read.len(), CHUNK);
    }
}
