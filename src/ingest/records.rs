//! Logical CSV records from a stream that mixes them with other text.
//!
//! `ncu --csv` output captured from stdout interleaves CSV rows with program
//! output and `==PROF==` lines, and the source page prints source text
//! without escaping its quotes. The csv crate's reader assumes a file that is
//! CSV throughout, so this module reads physical lines itself, lets the
//! caller decide which are CSV, and splits those with `csv_core` (the csv
//! crate's own engine), keeping each field's byte column for diagnostics.

use std::cell::{Cell, RefCell};
use std::io::BufRead;

use super::error::IngestError;
use super::quoted::QuotedFields;

pub use super::limits::MAX_RECORD_BYTES;
use super::limits::{MAX_FIELD_BYTES, MAX_FIELDS};

/// How the current record was split.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Split {
    /// By csv_core: `ranges` index the unescaped fields in `out`.
    Csv,
    /// At `","`, for the source page: `ranges` index `text`.
    Source,
    /// As ncu writes fields: [`QuotedFields`] finds them in `text`.
    Quoted,
}

/// A reader of logical records (physical lines, joined where a quoted field
/// spans lines), and the fields of the current one.
pub struct Records<R> {
    input: R,
    path: String,
    /// The current record, checked to be UTF-8 once so that fields are
    /// sliced from it without checking each again.
    text: String,
    /// Where the next record's bytes are read before their check.
    raw: Vec<u8>,
    line: u64,
    offset: u64,
    next_line: u64,
    next_offset: u64,
    at_start: bool,
    cut_short: bool,
    csv: csv_core::Reader,
    out: Vec<u8>,
    ranges: Vec<(usize, usize)>,
    /// Where the current record's fields are.
    split: Split,
    quoted: QuotedFields,
    ends: Vec<usize>,
    /// Byte offset of each field in `raw`, found on first use: only rows
    /// whose values are kept need them.
    starts: RefCell<Vec<usize>>,
    starts_known: Cell<bool>,
}

impl<R: BufRead> Records<R> {
    /// Reads records from `input`, naming `path` in errors.
    pub fn new(input: R, path: &str) -> Self {
        Records {
            input,
            path: path.to_owned(),
            text: String::with_capacity(4096),
            raw: Vec::with_capacity(4096),
            line: 0,
            offset: 0,
            next_line: 1,
            next_offset: 0,
            at_start: true,
            cut_short: false,
            csv: csv_core::Reader::new(),
            out: Vec::with_capacity(4096),
            ranges: Vec::with_capacity(64),
            split: Split::Csv,
            quoted: QuotedFields::default(),
            ends: vec![0; 64],
            starts: RefCell::new(Vec::with_capacity(64)),
            starts_known: Cell::new(false),
        }
    }

    /// The current record's bytes, without its line terminator.
    pub fn raw(&self) -> &[u8] {
        self.text.as_bytes()
    }

    /// The current record as text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// 1-based line of the current record's first line.
    pub fn line(&self) -> u64 {
        self.line
    }

    /// Byte offset of the current record in the file.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The file's path as given.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Whether the current record is the file's last and ends without a line
    /// break: a profiler killed mid-write leaves its last row incomplete.
    pub fn cut_short(&self) -> bool {
        self.cut_short
    }

    /// Whether the current record looks like a CSV row (starts with a quote).
    pub fn is_csv(&self) -> bool {
        self.text.starts_with('"')
    }

    /// Advances to the next record. With `join`, a CSV row whose quotes do
    /// not balance continues on the next line (a multi-line rule description).
    pub fn next(&mut self, join: bool) -> Result<bool, IngestError> {
        // The previous record's buffer is reused for this one's bytes.
        self.raw = std::mem::take(&mut self.text).into_bytes();
        self.raw.clear();
        self.line = self.next_line;
        self.offset = self.next_offset;
        if !self.read_physical_line()? {
            return Ok(false);
        }
        if self.at_start {
            self.at_start = false;
            if self.raw.starts_with(b"\xEF\xBB\xBF") {
                self.raw.drain(..3);
            }
        }
        if join && self.raw.first() == Some(&b'"') {
            // Quotes are counted once per physical line, so an unclosed quote
            // costs linear time on its way to the record limit.
            let mut open = count_quotes(&self.raw) % 2 == 1;
            while open {
                self.raw.push(b'\n');
                let start = self.raw.len();
                if !self.read_physical_line()? {
                    break;
                }
                open ^= count_quotes(&self.raw[start..]) % 2 == 1;
            }
        }
        match String::from_utf8(std::mem::take(&mut self.raw)) {
            Ok(text) => {
                self.text = text;
                Ok(true)
            }
            Err(e) => {
                let valid = e.utf8_error().valid_up_to();
                let bytes = e.into_bytes();
                let before = &bytes[..valid];
                let newlines = before.iter().filter(|&&b| b == b'\n').count() as u64;
                let column = before.iter().rev().take_while(|&&b| b != b'\n').count() as u64 + 1;
                Err(IngestError::Encoding {
                    path: self.path.clone(),
                    what: format!(
                        "invalid UTF-8 (byte 0x{:02X}); the file is not UTF-8 text, perhaps Latin-1 or damaged",
                        bytes[valid]
                    ),
                    line: self.line + newlines,
                    column,
                })
            }
        }
    }

    /// Appends one physical line to `raw`, without its terminator.
    fn read_physical_line(&mut self) -> Result<bool, IngestError> {
        let start = self.raw.len();
        // Read no further than the record limit: a file with no line breaks
        // must not be read into memory whole.
        let room = (MAX_RECORD_BYTES + 2).saturating_sub(start);
        let n =
            read_line(&mut self.input, &mut self.raw, room).map_err(|source| IngestError::Io {
                path: self.path.clone(),
                reason: source,
            })?;
        if n == 0 {
            return Ok(false);
        }
        self.next_line += 1;
        self.next_offset += n as u64;
        if self.raw.last() == Some(&b'\n') {
            self.raw.pop();
        } else if self.raw.len() <= MAX_RECORD_BYTES {
            self.cut_short = true;
        }
        if self.raw.len() > start && self.raw.last() == Some(&b'\r') {
            self.raw.pop();
        }
        if self.raw.len() > MAX_RECORD_BYTES {
            return Err(IngestError::RecordTooLong {
                path: self.path.clone(),
                line: self.line,
                limit: MAX_RECORD_BYTES,
            });
        }
        Ok(true)
    }

    /// Splits the current record as standard CSV (`""` escapes a quote),
    /// with `csv_core`'s whole-record reader (its fast path).
    pub fn split_csv(&mut self) {
        self.clear_fields();
        if self.quoted.split(self.text.as_bytes()) {
            self.split = Split::Quoted;
            return;
        }
        self.csv.reset();
        self.out.resize(self.text.len() + 1, 0);
        if self.ends.len() < 64 {
            self.ends.resize(64, 0);
        }
        let (mut pos, mut out_len, mut n_ends) = (0, 0, 0);
        let mut at_eof = false;
        loop {
            let input = if at_eof {
                &[][..]
            } else {
                &self.text.as_bytes()[pos..]
            };
            let (result, nin, nout, nend) =
                self.csv
                    .read_record(input, &mut self.out[out_len..], &mut self.ends[n_ends..]);
            pos += nin;
            out_len += nout;
            n_ends += nend;
            match result {
                csv_core::ReadRecordResult::InputEmpty => at_eof = true,
                csv_core::ReadRecordResult::OutputFull => {
                    let len = self.out.len();
                    self.out.resize(len * 2 + 16, 0);
                }
                csv_core::ReadRecordResult::OutputEndsFull => {
                    let len = self.ends.len();
                    self.ends.resize(len * 2, 0);
                }
                csv_core::ReadRecordResult::Record | csv_core::ReadRecordResult::End => break,
            }
        }
        let mut begin = 0;
        for &end in &self.ends[..n_ends] {
            self.ranges.push((begin, end));
            begin = end;
        }
    }

    /// Refuses a record with more fields, or a longer field, than the limits allow.
    pub fn check_limits(&self) -> Result<(), IngestError> {
        let exceeded = |what: &str, limit: usize| IngestError::LimitExceeded {
            path: self.path.clone(),
            line: self.line,
            what: what.to_owned(),
            limit,
        };
        if self.field_count() > MAX_FIELDS {
            return Err(exceeded("fields in one record", MAX_FIELDS));
        }
        if self.text.len() > MAX_FIELD_BYTES
            && (0..self.field_count()).any(|i| self.field(i).len() > MAX_FIELD_BYTES)
        {
            return Err(exceeded("bytes in one field", MAX_FIELD_BYTES));
        }
        Ok(())
    }

    /// Splits the current record at `","` boundaries, for the source page,
    /// where ncu does not escape quotes inside source text. All other cells
    /// there are numbers, addresses, `-` or SASS, none of which holds a quote,
    /// so surplus pieces belong to the free-text column `text_column`.
    ///
    /// An instruction row (its first field empty, or an address) holds no
    /// source text to hide a quote in; where the reader needs only its
    /// first `needed` fields (0: all), only those are split.
    pub fn split_source(&mut self, expected: usize, text_column: usize, needed: usize) {
        self.clear_fields();
        let raw = self.text.as_bytes();
        if needed > 0
            && (raw.starts_with(b"\"\",") || raw.starts_with(b"\"0x"))
            && self.quoted.split_prefix(raw, needed)
        {
            self.split = Split::Quoted;
            return;
        }
        // Most rows are quoted fields with no quote inside: the SIMD
        // splitter finds them, when it finds as many as the header has (a
        // trailing comma adds an empty one). Anything else is split at `","`.
        if self.quoted.split(self.text.as_bytes()) {
            let n = self.quoted.count();
            let trailing = self.text.ends_with("\",");
            if expected == 0 || n == expected || (trailing && n == expected + 1) {
                self.split = Split::Quoted;
                return;
            }
        }
        let raw = self.text.as_bytes();
        let mut body_end = raw.len();
        if raw.ends_with(b"\",") {
            body_end -= 1;
        }
        if raw.len() < 2 || raw[0] != b'"' || raw[body_end - 1] != b'"' || body_end < 2 {
            self.split_csv();
            return;
        }
        let body = &raw[1..body_end - 1];
        // The body starts one byte into the record, after its opening quote.
        let mut begin = 0;
        let mut i = 0;
        while i + 3 <= body.len() {
            if &body[i..i + 3] == b"\",\"" {
                self.ranges.push((begin + 1, i + 1));
                i += 3;
                begin = i;
            } else {
                i += 1;
            }
        }
        self.ranges.push((begin + 1, body.len() + 1));
        if expected > 0 && self.ranges.len() > expected && text_column < expected {
            let surplus = self.ranges.len() - expected;
            let merged = (
                self.ranges[text_column].0,
                self.ranges[text_column + surplus].1,
            );
            self.ranges
                .splice(text_column..=text_column + surplus, [merged]);
        }
        self.split = Split::Source;
    }

    fn clear_fields(&mut self) {
        self.ranges.clear();
        self.split = Split::Csv;
        self.starts.get_mut().clear();
        self.starts_known.set(false);
    }

    /// Where field `i` starts when every field before it is quoted with no
    /// escaped quotes, as ncu writes them: then the raw text is the output
    /// plus three bytes (two quotes and a comma) per field. Checked against
    /// the raw bytes; `None` sends the caller to a full scan.
    fn quoted_start(&self, i: usize) -> Option<usize> {
        let &(begin, end) = self.ranges.get(i)?;
        if self.starts_known.get() {
            return None;
        }
        let start = begin + 3 * i;
        let raw = self.text.as_bytes();
        let preceded = i == 0 || raw.get(start.checked_sub(1)?) == Some(&b',');
        let body = raw.get(start + 1..start + 1 + (end - begin))?;
        let closed = raw.get(start + 1 + (end - begin)) == Some(&b'"');
        (preceded && raw.get(start) == Some(&b'"') && closed && body == &self.out[begin..end])
            .then_some(start)
    }

    /// Finds where each field of a standard CSV record starts: after each
    /// comma outside quotes.
    fn find_starts(&self) {
        let mut starts = self.starts.borrow_mut();
        starts.clear();
        starts.push(0);
        let mut quoted = false;
        for (i, b) in self.text.bytes().enumerate() {
            match b {
                b'"' => quoted = !quoted,
                b',' if !quoted => starts.push(i + 1),
                _ => {}
            }
        }
        self.starts_known.set(true);
    }

    /// Number of fields of the current record after a split.
    pub fn field_count(&self) -> usize {
        match self.split {
            Split::Quoted => self.quoted.count(),
            Split::Csv | Split::Source => self.ranges.len(),
        }
    }

    /// Field `i`, or `""` past the end (ragged rows are shorter than their header).
    pub fn field(&self, i: usize) -> &str {
        // Fields are cut at ASCII quotes and commas, so never inside a
        // character: slicing the checked text cannot fail.
        match self.split {
            Split::Quoted => self.quoted.span(i).map_or("", |(a, b)| {
                let field = self.text.get(a..b).unwrap_or("");
                field
                    .strip_prefix('"')
                    .and_then(|f| f.strip_suffix('"'))
                    .unwrap_or(field)
            }),
            Split::Source => self
                .ranges
                .get(i)
                .map_or("", |&(a, b)| self.text.get(a..b).unwrap_or("")),
            Split::Csv => self
                .ranges
                .get(i)
                .and_then(|&(a, b)| std::str::from_utf8(&self.out[a..b]).ok())
                .unwrap_or(""),
        }
    }

    /// 1-based byte column where field `i` starts.
    pub fn column(&self, i: usize) -> u32 {
        match self.split {
            Split::Quoted => return self.quoted.span(i).map_or(1, |(a, _)| a as u32 + 1),
            // A source cell's text starts after its quote, whose 1-based
            // column is the text's 0-based offset.
            Split::Source => return self.ranges.get(i).map_or(1, |&(a, _)| a as u32),
            Split::Csv => {}
        }
        if let Some(start) = self.quoted_start(i) {
            return start as u32 + 1;
        }
        if !self.starts_known.get() {
            self.find_starts();
        }
        self.starts.borrow().get(i).map_or(1, |&s| s as u32 + 1)
    }

    /// All fields as owned strings (headers).
    pub fn fields(&self) -> Vec<String> {
        (0..self.field_count())
            .map(|i| self.field(i).to_owned())
            .collect()
    }
}

/// Appends bytes of `input` to `line` up to and including the next line
/// break, at most `room` of them; returns how many. `BufRead::read_until`
/// does the same with a byte-at-a-word search; the memchr crate's vector
/// search finds a line's end several times faster.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>, room: usize) -> std::io::Result<usize> {
    let mut taken = 0;
    while taken < room {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let available = &buffer[..buffer.len().min(room - taken)];
        if available.is_empty() {
            break;
        }
        let (used, ended) = match memchr::memchr(b'\n', available) {
            Some(i) => (i + 1, true),
            None => (available.len(), false),
        };
        line.extend_from_slice(&available[..used]);
        input.consume(used);
        taken += used;
        if ended {
            break;
        }
    }
    Ok(taken)
}

/// Counts quote characters; written so that the compiler vectorises it.
fn count_quotes(bytes: &[u8]) -> usize {
    bytes.iter().map(|&b| usize::from(b == b'"')).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn records(text: &str) -> Records<&[u8]> {
        Records::new(text.as_bytes(), "test.csv")
    }

    #[test]
    fn splits_quoted_fields_with_columns() {
        let mut r = records("\"ID\",\"Kernel Name\",\"x\"\n");
        assert!(r.next(true).unwrap());
        r.split_csv();
        assert_eq!(r.fields(), ["ID", "Kernel Name", "x"]);
        assert_eq!((r.column(0), r.column(1), r.column(2)), (1, 6, 20));
    }

    #[test]
    fn trailing_comma_is_an_empty_field() {
        let mut r = records("\"a\",\"b\",\n");
        r.next(true).unwrap();
        r.split_csv();
        assert_eq!(r.fields(), ["a", "b", ""]);
    }

    #[test]
    fn joins_a_quoted_field_across_lines_and_strips_crlf_and_bom() {
        let mut r = records("\u{feff}\"a\",\"line one\r\nline two\"\r\n\"next\"\r\n");
        r.next(true).unwrap();
        r.split_csv();
        assert_eq!(r.fields(), ["a", "line one\nline two"]);
        assert_eq!(r.line(), 1);
        r.next(true).unwrap();
        assert_eq!(r.line(), 3);
        r.split_csv();
        assert_eq!(r.fields(), ["next"]);
    }

    #[test]
    fn source_rows_keep_unescaped_quotes() {
        // lab.cu line 8, as the lab's source_cuda.csv prints it.
        let row = "\"8\",\"  fprintf(stderr, \"%s:%d %s\\n\", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)\"";
        let mut r = records(row);
        r.next(false).unwrap();
        r.split_source(2, 1, 0);
        assert_eq!(r.field_count(), 2);
        assert_eq!(r.field(0), "8");
        assert_eq!(
            r.field(1),
            "  fprintf(stderr, \"%s:%d %s\\n\", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)"
        );
    }

    #[test]
    fn source_text_holding_the_delimiter_is_merged_back() {
        let mut r = records("\"3\",\"f(\",\")\",\"0x10\",\"5\"");
        r.next(false).unwrap();
        r.split_source(4, 1, 0);
        assert_eq!(r.fields(), ["3", "f(\",\")", "0x10", "5"]);
    }

    /// The fields and columns csv_core gives for `line`, the reference the
    /// hand-written splitter must agree with.
    fn reference(line: &[u8]) -> (Vec<String>, Vec<u32>) {
        let mut r = Records::new(line, "reference.csv");
        r.next(false).unwrap();
        r.ranges.clear();
        r.split = Split::Csv;
        r.starts_known.set(false);
        // The csv_core half of split_csv, with the fast path skipped, on the
        // record as read (a line's final CR is its terminator).
        let record = r.raw().to_vec();
        let mut csv = csv_core::Reader::new();
        let mut out = vec![0; record.len() + 1];
        let mut ends = vec![0; record.len() + 1];
        let (_, _, _, n) = csv.read_record(&record, &mut out, &mut ends);
        let (_, _, _, m) = csv.read_record(&[], &mut out, &mut ends[n..]);
        let mut begin = 0;
        for &end in &ends[..n + m] {
            r.ranges.push((begin, end));
            begin = end;
        }
        r.out = out;
        let columns = (0..r.field_count()).map(|i| r.column(i)).collect();
        (r.fields(), columns)
    }

    proptest::proptest! {
        #[test]
        fn quoted_fast_path_agrees_with_csv_core(
            cells in proptest::collection::vec(
                proptest::string::string_regex("\"[a,é \r]{0,30}\"|\"\"|[\"a,\r]{0,3}").unwrap(),
                1..12,
            )
        ) {
            let line = cells.join(",");
            let mut r = records(&line);
            r.next(false).unwrap();
            r.split_csv();
            let columns: Vec<u32> = (0..r.field_count()).map(|i| r.column(i)).collect();
            proptest::prop_assert_eq!((r.fields(), columns), reference(line.as_bytes()));
        }
    }

    proptest::proptest! {
        #[test]
        fn an_instruction_rows_prefix_splits_as_the_whole_row(
            cells in proptest::collection::vec(
                proptest::string::string_regex("\"[a,é 0-9]{0,40}\"|\"\"").unwrap(),
                2..40,
            ),
            needed in 1usize..40,
        ) {
            // Rows of the source page's instruction views start with an
            // empty Line No or an address; the fields a prefix split counts
            // are the whole split's, wherever the 64-byte blocks cut them.
            let line = format!("\"0x7f00\",{}", cells.join(","));
            let mut whole = records(&line);
            whole.next(false).unwrap();
            whole.split_source(0, 1, 0);
            let mut prefix = records(&line);
            prefix.next(false).unwrap();
            prefix.split_source(0, 1, needed);
            let n = prefix.field_count();
            proptest::prop_assert!(n >= needed.min(whole.field_count()));
            for i in 0..n {
                proptest::prop_assert_eq!(prefix.field(i), whole.field(i));
                proptest::prop_assert_eq!(prefix.column(i), whole.column(i));
            }
        }
    }

    #[test]
    fn fast_path_takes_ncu_rows_and_leaves_escapes_to_csv_core() {
        let mut r = records("\"a\",,\"b c\",\n");
        r.next(false).unwrap();
        r.split_csv();
        assert_eq!(r.split, Split::Quoted);
        assert_eq!(r.fields(), ["a", "", "b c", ""]);
        assert_eq!((r.column(1), r.column(2), r.column(3)), (5, 6, 12));
        let mut r = records("\"say \"\"hi\"\"\",\"x\"\n");
        r.next(false).unwrap();
        r.split_csv();
        assert_eq!(r.split, Split::Csv);
        assert_eq!(r.fields(), ["say \"hi\"", "x"]);
    }

    #[test]
    fn invalid_utf8_names_line_and_column() {
        let bytes: &[u8] = b"\"ok\"\n\"caf\xE9\"\n";
        let mut r = Records::new(bytes, "latin1.csv");
        r.next(true).unwrap();
        let err = r.next(true).unwrap_err();
        match err {
            IngestError::Encoding { line, column, .. } => assert_eq!((line, column), (2, 5)),
            other => panic!("unexpected {other:?}"),
        }
    }
}
