//! Any bytes as an `.ncu-rep` report: the container reader, the messages,
//! the line tables of embedded cubins, and the default rules over what it
//! reads. An error is fine; a panic is a bug.
//!
//! The mutator knows the container's framing (magic, length-prefixed file
//! header, blocks of a length-prefixed header and length-prefixed
//! messages): half the time it sets one length prefix to 0, 1, 2^31,
//! 2^32-1 or one off, writes a huge varint into a block header's counts, or
//! zeroes a run of bytes; otherwise libFuzzer mutates the bytes as it does.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::{fuzz_mutator, fuzz_target, fuzzer_mutate};
use ncu_lint::rules::ActiveRule;

fn rules() -> &'static [ActiveRule] {
    static RULES: OnceLock<Vec<ActiveRule>> = OnceLock::new();
    RULES.get_or_init(|| {
        let packs = ncu_lint::rules::builtin_packs().unwrap_or_default();
        ncu_lint::rules::activate(&packs).unwrap_or_default()
    })
}

fuzz_target!(|data: &[u8]| {
    if let Ok(report) = ncu_lint::ingest::import_report_bytes("fuzz.ncu-rep", data) {
        let _ = ncu_lint::rules::check(&report, rules());
    }
});

/// Where the framing's length prefixes are, and where each block header's
/// bytes are.
fn framing(data: &[u8]) -> (Vec<usize>, Vec<(usize, usize)>) {
    let u32_at = |at: usize| {
        data.get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
    };
    let (mut lengths, mut headers) = (vec![4], Vec::new());
    let Some(file_header) = u32_at(4) else {
        return (lengths, headers);
    };
    let mut at = 8 + file_header;
    while let Some(len) = u32_at(at) {
        lengths.push(at);
        let header = (at + 4, (at + 4 + len).min(data.len()));
        headers.push(header);
        let payload = payload_size(&data[header.0..header.1]);
        let end = (header.1 + payload).min(data.len());
        let mut message = header.1;
        while message + 4 <= end {
            lengths.push(message);
            message += 4 + u32_at(message).unwrap_or(0);
        }
        at = end;
        if len == 0 && payload == 0 {
            break;
        }
    }
    (lengths, headers)
}

/// A block header's PayloadSize (field 5, a varint), 0 where unreadable.
fn payload_size(header: &[u8]) -> usize {
    let mut at = 0;
    let varint = |at: &mut usize| {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = *header.get(*at)?;
            *at += 1;
            value |= u64::from(byte & 0x7f) << shift;
            if byte < 0x80 {
                return Some(value);
            }
        }
        None
    };
    while let Some(key) = varint(&mut at) {
        let value = match key & 7 {
            0 => varint(&mut at),
            2 => {
                let len = varint(&mut at).unwrap_or(0) as usize;
                at += len;
                Some(0)
            }
            5 => {
                at += 4;
                Some(0)
            }
            1 => {
                at += 8;
                Some(0)
            }
            _ => None,
        };
        match (key >> 3, value) {
            (5, Some(size)) => return size as usize,
            (_, None) => return 0,
            _ => {}
        }
    }
    0
}

fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    if seed % 2 == 1 || size < 12 {
        return fuzzer_mutate(data, size, max_size);
    }
    let (lengths, headers) = framing(&data[..size]);
    let pick = (seed / 2) as usize;
    match (seed / 2) % 3 {
        0 => {
            let at = lengths[pick % lengths.len()];
            let old = u32::from_le_bytes([data[at], data[at + 1], data[at + 2], data[at + 3]]);
            let new = [0, 1, 1 << 31, u32::MAX, old.wrapping_add(1), old.wrapping_sub(1)][pick % 6];
            data[at..at + 4].copy_from_slice(&new.to_le_bytes());
        }
        1 if !headers.is_empty() => {
            // A count (NumSources 1, NumResults 2, NumRangeResults 7) made huge.
            let (start, end) = headers[pick % headers.len()];
            if let Some(at) = (start..end).find(|&i| matches!(data[i], 0x08 | 0x10 | 0x38)) {
                if at + 1 < end {
                    data[at + 1] = 0x7f;
                }
            }
        }
        _ => {
            let start = pick % size;
            let end = (start + 1 + pick % 4096).min(size);
            data[start..end].fill(0);
        }
    }
    size
});
