//! Field boundaries of records written the way ncu writes them: every field
//! quoted with no quote inside, or empty (`"a","b,c",,""`).
//!
//! Such rows are nearly the whole of a large export, so they are not walked
//! byte by byte through a state machine: the separating commas are found 64
//! bytes at a time as bit masks (the technique of SIMD JSON parsers: quote
//! masks, a prefix XOR for "inside quotes"), and fields are ranges between
//! them, copied only when a value is kept. Written by hand because the csv
//! crate copies every field of every record through its state machine and
//! no CSV crate offers this. Records of any other shape (escaped quotes,
//! unquoted values, line breaks outside quotes) are refused here and go to
//! csv_core.

/// The separators of one record.
#[derive(Debug, Default)]
pub struct QuotedFields {
    /// Bit `i` of word `k`: byte `64k + i` is a comma between fields.
    separators: Vec<u64>,
    /// Quote bits, kept between the two passes.
    quotes: Vec<u64>,
    /// Where each separator is, in order.
    positions: Vec<usize>,
    /// Bytes in the record.
    len: usize,
    /// Bytes split: the record's, or a prefix holding the fields asked for.
    scanned: usize,
    /// The record's byte right after the prefix split (`0` past its end).
    after: u8,
}

impl QuotedFields {
    /// Finds the fields of `record`, or returns `false` when it is not made
    /// only of quoted fields without inner quotes and empty fields.
    pub fn split(&mut self, record: &[u8]) -> bool {
        self.split_prefix(record, usize::MAX)
    }

    /// As [`Self::split`], but stops at the 64-byte block where the first
    /// `fields` fields are complete; the fields after it are not counted
    /// (see [`Self::count`]). A row of many columns whose reader needs the
    /// first few costs a fraction of its length.
    pub fn split_prefix(&mut self, record: &[u8], fields: usize) -> bool {
        self.quotes.clear();
        self.positions.clear();
        self.len = record.len();
        let split = self.find_separators(record, fields) && self.quotes_bound_fields();
        if !split {
            self.separators.clear();
            return false;
        }
        for (k, &word) in self.separators.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                self.positions.push(64 * k + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
        true
    }

    /// Fills `separators` and `quotes`; `false` when something other than a
    /// comma stands outside the quotes, or a quote is left open.
    fn find_separators(&mut self, record: &[u8], fields: usize) -> bool {
        self.separators.clear();
        self.scanned = 0;
        if record.is_empty() {
            return false;
        }
        let mut inside_carry = 0u64;
        let mut found = 0usize;
        for block in record.chunks(64) {
            if found >= fields {
                self.after = record[self.scanned];
                return true;
            }
            self.scanned += block.len();
            let live = if block.len() == 64 {
                !0
            } else {
                (1u64 << block.len()) - 1
            };
            let (quote, comma) = masks(block);
            let inside = prefix_xor(quote) ^ inside_carry;
            inside_carry = 0u64.wrapping_sub(inside >> 63);
            // Outside quoted fields there may be only separating commas.
            let outside = !(inside | quote) & live;
            if outside & !comma != 0 {
                return false;
            }
            self.separators.push(outside);
            self.quotes.push(quote);
            found += outside.count_ones() as usize;
        }
        inside_carry == 0
    }

    /// Whether every quote opens a field (at the record's start or after a
    /// separator) or closes one (at its end or before a separator); a quote
    /// anywhere else is an escaped one, which csv_core unescapes.
    fn quotes_bound_fields(&self) -> bool {
        let last = self.separators.len() - 1;
        for (k, &quote) in self.quotes.iter().enumerate() {
            let here = self.separators[k];
            let previous = if k == 0 {
                1
            } else {
                self.separators[k - 1] >> 63
            };
            let next = match self.separators.get(k + 1) {
                Some(&s) => s & 1,
                // A prefix: a quote closing its last block's field is
                // followed by the separator right after it.
                None => u64::from(self.scanned < self.len && self.after == b','),
            };
            let mut ends = (here >> 1) | (next << 63);
            if k == last && self.scanned == self.len {
                ends |= 1u64 << ((self.len - 1) % 64);
            }
            let starts = (here << 1) | previous;
            if quote & !(starts | ends) != 0 {
                return false;
            }
        }
        true
    }

    /// Number of fields (none before a successful split); after a prefix
    /// split, those of the prefix that end in it.
    pub fn count(&self) -> usize {
        if self.separators.is_empty() {
            0
        } else if self.scanned < self.len {
            self.positions.len()
        } else {
            self.positions.len() + 1
        }
    }

    /// Byte range of field `i` in the record, quotes included.
    pub fn span(&self, i: usize) -> Option<(usize, usize)> {
        if i >= self.count() {
            return None;
        }
        let start = if i == 0 { 0 } else { self.positions[i - 1] + 1 };
        let end = self.positions.get(i).copied().unwrap_or(self.len);
        Some((start, end))
    }
}

/// Bits set where `block` (at most 64 bytes) holds a quote, and a comma.
fn masks(block: &[u8]) -> (u64, u64) {
    let (mut quote, mut comma) = (0u64, 0u64);
    for (k, lane) in block.chunks(16).enumerate() {
        let (q, c) = if let Ok(lane) = <&[u8; 16]>::try_from(lane) {
            lane_masks(lane)
        } else {
            lane.iter().enumerate().fold((0, 0), |(q, c), (i, &b)| {
                (
                    q | (u16::from(b == b'"') << i),
                    c | (u16::from(b == b',') << i),
                )
            })
        };
        quote |= u64::from(q) << (16 * k);
        comma |= u64::from(c) << (16 * k);
    }
    (quote, comma)
}

/// The quote and comma bits of sixteen bytes, one compare and one
/// move-mask instruction each. The compiler does not find this instruction
/// for a loop of byte compares (it builds the mask bit by bit, several times
/// slower), so it is asked for by name.
#[cfg(target_arch = "x86_64")]
fn lane_masks(lane: &[u8; 16]) -> (u16, u16) {
    use std::arch::x86_64::{_mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8};
    // SAFETY: SSE2 is part of the x86-64 baseline, so every CPU this code
    // runs on has these instructions; the unaligned load reads exactly the
    // sixteen bytes `lane` refers to.
    unsafe {
        let bytes = _mm_loadu_si128(lane.as_ptr().cast());
        let quote = _mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8(b'"' as i8)));
        let comma = _mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8(b',' as i8)));
        (quote as u16, comma as u16)
    }
}

/// The quote and comma bits of sixteen bytes, on other architectures.
#[cfg(not(target_arch = "x86_64"))]
fn lane_masks(lane: &[u8; 16]) -> (u16, u16) {
    portable_lane_masks(lane)
}

/// The quote and comma bits of sixteen bytes, one byte at a time.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn portable_lane_masks(lane: &[u8; 16]) -> (u16, u16) {
    let (mut quote, mut comma) = (0u16, 0u16);
    for (i, &b) in lane.iter().enumerate() {
        quote |= u16::from(b == b'"') << i;
        comma |= u16::from(b == b',') << i;
    }
    (quote, comma)
}

/// Bit `i` of the result is the parity of the bits at and below `i`: set
/// from an opening quote up to, not including, its closing quote.
fn prefix_xor(mut x: u64) -> u64 {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(record: &str) -> Option<Vec<&str>> {
        let mut q = QuotedFields::default();
        q.split(record.as_bytes())
            .then(|| {
                (0..q.count())
                    .map(|i| q.span(i).map(|(a, b)| &record[a..b]))
                    .collect()
            })
            .flatten()
    }

    #[test]
    fn lane_masks_match_the_portable_ones() {
        let text = b"\"ID\",\"a, b\",,\"\"\"x\",\"(1, 2, 3)\",\"\xC3\xA9\",\"\"";
        for lane in text.windows(16) {
            let lane: &[u8; 16] = lane.try_into().unwrap();
            assert_eq!(lane_masks(lane), portable_lane_masks(lane));
        }
    }

    #[test]
    fn finds_separators_across_words() {
        let long = format!("\"{}\"", "x,".repeat(40));
        let record = format!("\"a\",{long},,\"\",\"(256, 1, 1)\"");
        let expected = vec!["\"a\"", long.as_str(), "", "\"\"", "\"(256, 1, 1)\""];
        assert_eq!(fields(&record), Some(expected));
    }

    #[test]
    fn refuses_escaped_quotes_unquoted_values_and_open_quotes() {
        assert_eq!(fields("\"a\"\"b\",\"c\""), None);
        assert_eq!(fields("\"a\",b"), None);
        assert_eq!(fields("\"a\",\"b"), None);
        assert_eq!(fields("\"a\"x,\"b\""), None);
        assert_eq!(fields("\"a\",\r\"b\""), None);
        assert_eq!(
            fields("\"a\r\nb\",\"c\""),
            Some(vec!["\"a\r\nb\"", "\"c\""])
        );
        assert_eq!(fields("\"a\",\"b\","), Some(vec!["\"a\"", "\"b\"", ""]));
    }
}
