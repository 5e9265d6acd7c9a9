//! A source page's outline, from one fast pass over its lines: how many
//! launches each kernel name has (a launch's blocks, one per source file,
//! count once; a launch repeated verbatim right after itself counts once,
//! as the parser keeps it once) and which columns its
//! block headers name. Knowing the counts before the blocks are parsed lets
//! each block be tied to its result, and checked, as soon as it is read:
//! the k-th block of a name is the k-th result of that name only when the
//! name has as many blocks as results.

use std::hash::Hasher;
use std::io::BufRead;

use indexmap::IndexMap;
use rustc_hash::{FxHashSet, FxHasher};

use super::IngestError;
use super::source_page::{BLOCK_HEADERS, BLOCK_INTROS, continues_launch};
use crate::model::kernel_name;

/// What a source page holds, before it is parsed.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Outline {
    /// Blocks by normalised kernel name, in order of first appearance.
    pub blocks: IndexMap<String, usize>,
    /// Every column a block header names.
    pub columns: FxHashSet<String>,
}

/// The launch being read: its blocks so far (one per source file).
struct Block {
    function: String,
    last_file: Option<String>,
    hash: FxHasher,
}

/// The outline so far, fed one line at a time.
#[derive(Default)]
struct Scan {
    outline: Outline,
    block: Option<Block>,
    /// Whether lines now belong to the launch (no "File Path" since its
    /// last intro).
    in_block: bool,
    /// The "File Path" read last.
    file: Option<String>,
    last: Option<(u64, String)>,
}

/// An outline being read on a thread of its own, started before it is
/// needed: while the rule packs load, the second core is idle.
#[derive(Debug)]
pub struct Prefetched {
    path: String,
    reading: std::thread::JoinHandle<Result<Outline, IngestError>>,
}

/// Starts reading the outline of the source page at `path`.
pub fn prefetch(path: &str) -> Prefetched {
    let owned = path.to_owned();
    Prefetched {
        path: path.to_owned(),
        reading: std::thread::spawn(move || outline(&owned)),
    }
}

impl Prefetched {
    /// The page whose outline is being read.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Waits for the outline; a panic of its thread goes on.
    pub fn outline(self) -> Result<Outline, IngestError> {
        self.reading
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    }
}

/// Reads the outline of the source page at `path` (plain or xz). Lines are
/// looked at where they lie in the reader's buffer, not copied out.
pub fn outline(path: &str) -> Result<Outline, IngestError> {
    let mut input = super::open::open(path)?;
    let io = |source| IngestError::Io {
        path: path.to_owned(),
        reason: source,
    };
    let mut scan = Scan::default();
    let mut carry: Vec<u8> = Vec::new();
    loop {
        let buffer = input.fill_buf().map_err(io)?;
        if buffer.is_empty() {
            break;
        }
        let mut start = 0;
        for end in memchr::memchr_iter(b'\n', buffer) {
            if carry.is_empty() {
                scan.line(&buffer[start..end]);
            } else {
                carry.extend_from_slice(&buffer[start..end]);
                scan.line(&carry);
                carry.clear();
            }
            start = end + 1;
        }
        carry.extend_from_slice(&buffer[start..]);
        let consumed = buffer.len();
        input.consume(consumed);
    }
    if !carry.is_empty() {
        scan.line(&carry);
    }
    scan.close();
    Ok(scan.outline)
}

impl Scan {
    fn line(&mut self, line: &[u8]) {
        let text = trim_end(line);
        let Some(first) = first_field(text) else {
            return;
        };
        if BLOCK_INTROS.contains(&first) {
            if first == "File Path" || first == "File Name" {
                self.in_block = false;
                self.file = Some(second_field(text));
                return;
            }
            let function = second_field(text);
            let file = (first == "Function Name")
                .then_some(self.file.take())
                .flatten();
            let continues = self.block.as_ref().is_some_and(|b| {
                continues_launch(
                    Some(&b.function),
                    b.last_file.as_deref(),
                    &function,
                    file.as_deref(),
                )
            });
            if !continues {
                self.close();
                self.block = Some(Block {
                    function,
                    last_file: None,
                    hash: FxHasher::default(),
                });
            }
            if let Some(block) = &mut self.block {
                block.hash.write(text);
                block.last_file = file;
            }
            self.in_block = true;
            return;
        }
        if BLOCK_HEADERS.contains(&first) {
            for column in fields(text) {
                if !self.outline.columns.contains(&column) {
                    self.outline.columns.insert(column);
                }
            }
        }
        if let Some(block) = self.block.as_mut().filter(|_| self.in_block) {
            block.hash.write(text);
        }
    }

    /// Counts the block just read, unless it repeats the last one kept.
    fn close(&mut self) {
        let Some(block) = self.block.take() else {
            return;
        };
        let hash = block.hash.finish();
        let repeated = self
            .last
            .as_ref()
            .is_some_and(|(h, f)| *h == hash && *f == block.function);
        if !repeated {
            *self
                .outline
                .blocks
                .entry(kernel_name::normalize(&block.function))
                .or_default() += 1;
        }
        self.last = Some((hash, block.function));
    }
}

fn trim_end(line: &[u8]) -> &[u8] {
    let mut end = line.len();
    while end > 0 && matches!(line[end - 1], b'\n' | b'\r') {
        end -= 1;
    }
    &line[..end]
}

/// The first field of a CSV row whose fields are all quoted.
fn first_field(text: &[u8]) -> Option<&str> {
    let rest = text.strip_prefix(b"\"")?;
    let end = rest.iter().position(|&b| b == b'"')?;
    std::str::from_utf8(&rest[..end]).ok()
}

/// The second field of a two-field row (`"Function Name","name"`),
/// unquoted.
fn second_field(text: &[u8]) -> String {
    let Some(start) = text.windows(3).position(|w| w == b"\",\"") else {
        return String::new();
    };
    let mut value = &text[start + 3..];
    // Some views end the row with a comma: `"Kernel Name","name",`.
    while let Some(rest) = value.strip_suffix(b",") {
        value = rest;
    }
    let value = value.strip_suffix(b"\"").unwrap_or(value);
    String::from_utf8_lossy(value).replace("\"\"", "\"")
}

/// The fields of a header row, unquoted.
fn fields(text: &[u8]) -> Vec<String> {
    let mut text = text;
    while let Some(rest) = text.strip_suffix(b",") {
        text = rest;
    }
    let inner = text
        .strip_prefix(b"\"")
        .and_then(|t| t.strip_suffix(b"\""))
        .unwrap_or(text);
    String::from_utf8_lossy(inner)
        .split("\",\"")
        .map(str::to_owned)
        .collect()
}
