//! A finding's cause, from the memory model ([`crate::memory_model`]) and
//! the numbers at hand: for global accesses the access width, the stride
//! between adjacent threads (or its lower bound) and whether the accesses
//! are misaligned; for shared accesses the width, the n-way conflict, the
//! threads a wavefront serves and the ideal wavefronts. They join the
//! finding's values (`null` where the data do not decide them), and the
//! rule's first `[[rule.fix]]` whose condition holds renders the fix,
//! with each of the pack's `[fix_clauses]` it names whose own condition holds.
//!
//! A finding at a CUDA line reads its line's instructions on the source
//! page (`Access Size`, sectors, wavefronts, threads); a kernel-level one
//! reads the kernel's values and, for the width, the SASS of its worst
//! instruction or the kernel's mix of memory-instruction widths.

use super::ActiveRule;
use super::engine::{Context, resolve};
use super::expr::Outcome;
use super::finding::Finding;
use super::next_run::{NextRun, next_run};
use super::pack::FIX_ESTIMATE_NAMES;
use super::rule::{Analysis, Fix};
use super::{constant_reloads, impact, narrow_conversions};
use crate::memory_model::{
    GlobalPattern, SECTOR, WARP, global_pattern, global_pattern_of_lanes, sass_address,
    sass_instruction, sass_width, threads_per_wavefront, wavefronts_ideal, ways_from_ratio,
};
use crate::model::{Kernel, SourceView};
use crate::value::Value;

/// The kernel metrics that count memory instructions by width, and the width.
pub const WIDTH_METRICS: [(&str, f64); 5] = [
    ("smsp__sass_inst_executed_op_memory_8b.sum", 1.0),
    ("smsp__sass_inst_executed_op_memory_16b.sum", 2.0),
    ("smsp__sass_inst_executed_op_memory_32b.sum", 4.0),
    ("smsp__sass_inst_executed_op_memory_64b.sum", 8.0),
    ("smsp__sass_inst_executed_op_memory_128b.sum", 16.0),
];

/// The source-page columns the diagnosis reads.
pub const SOURCE_COLUMNS: [&str; 9] = [
    "Address Space",
    "Access Operation",
    "Access Size",
    "Instructions Executed",
    "Predicated-On Thread Instructions Executed",
    "L2 Theoretical Sectors Global",
    "L2 Theoretical Sectors Global Ideal",
    "L1 Wavefronts Shared",
    "L1 Wavefronts Shared Ideal",
];

/// The instruction rows the diagnosis reads ([`line_access`]): those of
/// each address space it reads, by a column every instruction counts.
pub const ROW_USES: [(&str, &str); 2] = [
    ("Instructions Executed", "Global"),
    ("Instructions Executed", "Shared"),
];

/// The share of a kernel's memory instructions one width must have to be
/// taken as the width of its accesses.
const DOMINANT_WIDTH: f64 = 0.9;

/// Adds the cause's values to `finding`, where its rule names an analysis,
/// and renders its fix from them and the rule's own values.
pub(super) fn apply(
    kernel: &Kernel,
    active: &ActiveRule,
    finding: &mut Finding,
    context: &Context<'_>,
) {
    let names = context.names;
    if let Some(analysis) = active.rule.analysis {
        let line = finding
            .location
            .as_ref()
            .and_then(|l| Some((kernel.source.as_deref()?, l.line)));
        let model = match analysis {
            Analysis::Shared => shared(kernel, finding, line),
            global => global_access(kernel, finding, line, global),
        };
        for (name, value) in model {
            finding.values.insert(names.get(name), value);
        }
        if analysis == Analysis::Shared {
            name_the_costly_access(finding);
        }
    }
    if let Some(rendered) = render_fix(kernel, active, finding, context) {
        for (name, value) in rendered.numbers {
            finding.values.insert(names.get(name), value);
        }
        finding.fix = Some(rendered.text);
        if let Some(most) = rendered.saves_at_most {
            impact::hold_to_what_the_fix_saves(finding, active, most);
        }
    }
}

/// Where a line's shared accesses differ (a column read beside a
/// broadcast), says which one costs and its own n-way: the line's average
/// names neither.
fn name_the_costly_access(finding: &mut Finding) {
    let value = |name: &str| finding.values.get(name).copied().flatten();
    let (Some(ways), Some(line)) = (value("conflict_ways"), value("line_ratio")) else {
        return;
    };
    let Some(width) = value("access_bytes") else {
        return;
    };
    if ways < 1.5 * line {
        return;
    }
    let sass = finding.instruction.as_ref().map_or(String::new(), |i| {
        format!(" ({})", i.sass.split_whitespace().next().unwrap_or(""))
    });
    finding.message.push_str(&format!(
        "; the access that costs{sass} is {ways:.0}-way with {width:.0}-byte accesses, the line {line:.1} times its ideal on average"
    ));
}

/// The numbers a fix derived, by name (`None` where an input is missing).
type DerivedNumbers<'f> = Vec<(&'f str, Option<f64>)>;

/// The fix shown: its text, the numbers it derived, and the most it saves
/// where its rule says (a share of the kernel's time).
struct RenderedFix<'f> {
    text: String,
    numbers: DerivedNumbers<'f>,
    saves_at_most: Option<f64>,
}

/// The first fix whose condition holds and whose values are all known.
fn render_fix<'f>(
    kernel: &Kernel,
    active: &'f ActiveRule,
    finding: &Finding,
    context: &Context<'_>,
) -> Option<RenderedFix<'f>> {
    let values = &finding.values;
    let lookup = |name: &str| values.get(name).copied().flatten();
    active.rule.fixes.iter().find_map(|fix| {
        let holds = fix
            .when
            .as_ref()
            .is_none_or(|w| w.eval(&lookup) == Outcome::Bool(true));
        if !holds {
            return None;
        }
        let numbers = fix_numbers(kernel, fix, finding, context);
        let own = |name: &str| {
            numbers
                .iter()
                .find(|(n, _)| *n == name)
                .map_or_else(|| lookup(name), |(_, v)| *v)
        };
        let derived = |name: &str| fix.derived.iter().any(|d| d.name == name);
        let mut text = fix.text.render_if_known_or_zero(&own, &derived)?;
        for clause in fix.clauses.iter().map(|&i| &active.rule.fix_clauses[i]) {
            if clause.when.eval(&lookup) != Outcome::Bool(true) {
                continue;
            }
            if let Some(added) = clause.text.render_if_known(&lookup) {
                text.push_str("; ");
                text.push_str(&added);
            }
        }
        let saves_at_most = fix
            .saves_at_most
            .as_ref()
            .and_then(|most| most.eval(&own).as_number());
        Some(RenderedFix {
            text,
            numbers,
            saves_at_most,
        })
    })
}

/// A fix's own numbers: its inputs read from the kernel (unknown where the
/// export lacks them), the estimate's, and its derived values in order.
fn fix_numbers<'f>(
    kernel: &Kernel,
    fix: &'f Fix,
    finding: &Finding,
    context: &Context<'_>,
) -> DerivedNumbers<'f> {
    if fix.derived.is_empty() {
        return Vec::new();
    }
    let mut own: Vec<(&str, Option<f64>)> = fix
        .inputs
        .iter()
        .map(|(name, candidates)| (name.as_str(), resolve(kernel, candidates, context)))
        .collect();
    let estimate = [finding.estimate.kernel_ns, finding.estimate.saved_ns];
    own.extend(FIX_ESTIMATE_NAMES.into_iter().zip(estimate));
    for number in &fix.derived {
        let value = number
            .expr
            .eval(&|n: &str| {
                own.iter()
                    .find(|(o, _)| *o == n)
                    .map_or_else(|| finding.values.get(n).copied().flatten(), |(_, v)| *v)
            })
            .as_number();
        own.push((number.name.as_str(), value));
    }
    own.split_off(own.len() - fix.derived.len())
}

/// Totals of one kind of access (space and operation) on one line.
#[derive(Debug, Default, Clone)]
struct Access<'v> {
    requests: f64,
    threads: f64,
    sectors: f64,
    ideal: f64,
    wavefronts: f64,
    wavefronts_ideal: f64,
    /// The width of the instruction that moves the most, in bytes.
    width: Option<f64>,
    heaviest: f64,
    /// The instructions counted, and whether they all have one width and
    /// one execution count (one access split into several instructions).
    instructions: u32,
    uniform: bool,
    /// Each instruction's address registers and immediate offset, where
    /// its SASS names them.
    addresses: Vec<(&'v str, i64)>,
    /// The shared instruction with the most excess wavefronts: its
    /// wavefronts, ideal and width. A line can hold a conflicting access
    /// beside a broadcast, and the line's average would name neither.
    worst_shared: Option<(f64, f64, Option<f64>)>,
    /// Executions of the line's unsigned 16-bit accesses (`.U16`), and of
    /// its conversions of an unsigned word to float (`I2FP.F32.U32`).
    unsigned_halves: f64,
    float_conversions: f64,
    /// Executions of the line's 8- and 16-bit accesses, and of its `I2F`
    /// conversions of such integers to float (`I2F.S16`, `I2F.U8`).
    narrow_fields: f64,
    narrow_conversions: f64,
}

/// The totals of `space`/`operation` accesses on `line`.
fn line_access<'v>(
    view: &'v SourceView,
    line: u32,
    space: &str,
    operation: Option<&str>,
) -> Access<'v> {
    let col = |label: &str| view.column(label);
    let cell = |row: &crate::model::SourceRow, label: &str| {
        col(label)
            .and_then(|i| row.cells.get(i))
            .and_then(Value::as_number)
            .unwrap_or(0.0)
    };
    let is = |row: &crate::model::SourceRow, label: &str, want: &str| {
        col(label)
            .and_then(|i| row.cells.get(i))
            .is_some_and(|v| matches!(v, Value::Text(t) if t == want))
    };
    let mut access = Access {
        uniform: true,
        ..Access::default()
    };
    let mut first: Option<(f64, Option<f64>)> = None;
    for row in view.instructions.iter().filter(|r| r.line == Some(line)) {
        let (opcode, _) = sass_instruction(&row.text);
        if opcode == UNSIGNED_TO_FLOAT {
            access.float_conversions += cell(row, "Instructions Executed");
        }
        if narrow_conversions::is_narrow_conversion_opcode(opcode) {
            access.narrow_conversions += cell(row, "Instructions Executed");
        }
        if !is(row, "Address Space", space)
            || operation.is_some_and(|op| !is(row, "Access Operation", op))
        {
            continue;
        }
        for modifier in opcode
            .split('.')
            .filter(|m| narrow_conversions::is_narrow_integer(m))
        {
            let executed = cell(row, "Instructions Executed");
            access.narrow_fields += executed;
            if modifier == "U16" {
                access.unsigned_halves += executed;
            }
        }
        access.requests += cell(row, "Instructions Executed");
        access.threads += cell(row, "Predicated-On Thread Instructions Executed");
        access.sectors += cell(row, "L2 Theoretical Sectors Global");
        access.ideal += cell(row, "L2 Theoretical Sectors Global Ideal");
        access.wavefronts += cell(row, "L1 Wavefronts Shared");
        access.wavefronts_ideal += cell(row, "L1 Wavefronts Shared Ideal");
        let moved = cell(row, "L2 Theoretical Sectors Global") + cell(row, "L1 Wavefronts Shared");
        let bits = cell(row, "Access Size");
        let width = if bits > 0.0 {
            Some(bits / 8.0)
        } else {
            sass_width(&row.text)
        };
        if width.is_some() && (access.width.is_none() || moved > access.heaviest) {
            access.width = width;
            access.heaviest = moved;
        }
        let (wavefronts, ideal) = (
            cell(row, "L1 Wavefronts Shared"),
            cell(row, "L1 Wavefronts Shared Ideal"),
        );
        if ideal > 0.0
            && access
                .worst_shared
                .is_none_or(|(w, i, _)| wavefronts - ideal > w - i)
        {
            access.worst_shared = Some((wavefronts, ideal, width));
        }
        let shape = (cell(row, "Instructions Executed"), width);
        access.instructions += 1;
        access.uniform &= *first.get_or_insert(shape) == shape;
        if let Some((base, offset)) = sass_address(&row.text) {
            access.addresses.push((base, offset));
        }
    }
    access
}

/// Whether a line is Triton's generated code: Triton lays a block out with
/// several consecutive elements per thread and, where it cannot prove them
/// contiguous, issues one instruction per element, alike in width and
/// count, each with its lanes that many elements apart. CUDA lines are
/// left alone: two loads on one CUDA line are as often two fields of a
/// structure.
fn splits_per_element(finding: &Finding, access: &Access) -> bool {
    let triton = finding
        .location
        .as_ref()
        .is_some_and(|l| l.file.ends_with(".py"));
    triton && access.uniform && access.instructions > 1
}

/// Where each instruction's lanes are `s` bytes apart, the elements a
/// thread reads within its `s` bytes and how far apart they are. With one
/// address register the offsets tell (`+0x0`, `+0x8` within 16 bytes: two
/// elements 8 bytes apart; `+0x800` is the layout repeated further on);
/// with an address register per instruction, the instructions are taken
/// as the thread's neighbouring elements, evenly spread. Without the
/// addresses (an encoding the native reader does not decode) nothing is
/// combined.
fn thread_elements(access: &Access, s: f64, w: f64) -> Option<(f64, f64)> {
    if access.addresses.len() != access.instructions as usize {
        return None;
    }
    let (k, stride) = match one_register_offsets(access) {
        Some(offsets) => {
            let span = s as i64;
            let mut at: Vec<i64> = offsets.iter().map(|o| o.rem_euclid(span)).collect();
            at.sort_unstable();
            at.dedup();
            let gap = at.get(1)? - at[0];
            let even =
                at.windows(2).all(|p| p[1] - p[0] == gap) && span - at[at.len() - 1] + at[0] == gap;
            (even.then_some(at.len() as f64)?, gap as f64)
        }
        _ => {
            let k = f64::from(access.instructions);
            (k, s / k)
        }
    };
    let elements = stride / w;
    (elements >= 1.0 && (elements - elements.round()).abs() < 1e-6).then_some((k, stride))
}

/// The kernel's access width where one width has most of its memory
/// instructions, else the width of the finding's worst instruction.
fn kernel_width(kernel: &Kernel, finding: &Finding) -> Option<f64> {
    let counts: Vec<(f64, f64)> = WIDTH_METRICS
        .iter()
        .filter_map(|(metric, w)| Some((*w, kernel.number(metric)?)))
        .collect();
    let total: f64 = counts.iter().map(|(_, n)| n).sum();
    let dominant = counts
        .iter()
        .find(|(_, n)| total > 0.0 && n / total >= DOMINANT_WIDTH)
        .map(|(w, _)| *w);
    dominant.or_else(|| {
        finding
            .instruction
            .as_ref()
            .and_then(|i| sass_width(&i.sass))
    })
}

/// Stride, misalignment and width of a global access, and whether it is a
/// store (`store_access`: the kind with more excess on the line, for a rule
/// of both kinds).
fn global_access(
    kernel: &Kernel,
    finding: &Finding,
    line: Option<(&SourceView, u32)>,
    analysis: Analysis,
) -> Vec<(&'static str, Option<f64>)> {
    let value = |name: &str| finding.values.get(name).copied().flatten();
    let mut store_access = match analysis {
        Analysis::GlobalLoad => Some(0.0),
        Analysis::GlobalStore => Some(1.0),
        _ => None,
    };
    let access = match line {
        Some((view, line)) => {
            let kind = |op: &str| line_access(view, line, "Global", Some(op));
            let access = match analysis {
                Analysis::GlobalLoad => kind("Load"),
                Analysis::GlobalStore => kind("Store"),
                _ => {
                    let (load, store) = (kind("Load"), kind("Store"));
                    let stores_waste_more = store.sectors - store.ideal > load.sectors - load.ideal;
                    store_access = Some(if stores_waste_more { 1.0 } else { 0.0 });
                    if stores_waste_more { store } else { load }
                }
            };
            let useful = access
                .width
                .filter(|_| access.sectors > 0.0)
                .map(|w| access.threads * w / access.sectors);
            let active = (access.requests > 0.0).then(|| access.threads / access.requests);
            let width = access.width;
            let requests = requests_per_warp(kernel, &access);
            let contiguous = width.and_then(|w| contiguous_bytes(&access, w));
            let jumps = contiguous.and_then(|bytes| run_jumps(view, &access, bytes));
            let halves = (halves_to_float(&access), narrow_to_float(&access));
            let split = splits_per_element(finding, &access).then_some(access);
            (
                width, useful, active, split, requests, contiguous, jumps, halves,
            )
        }
        None => (
            kernel_width(kernel, finding),
            value("bytes_per_sector"),
            None,
            None,
            kernel_requests_per_warp(kernel, analysis),
            None,
            None,
            (None, None),
        ),
    };
    let (width, mut useful, active, split, requests, contiguous, jumps, (halves, narrow)) = access;
    let mut pattern = match (width, useful, active) {
        (Some(w), Some(u), Some(a)) => global_pattern_of_lanes(w, u, a),
        (Some(w), Some(u), None) => global_pattern(w, u),
        _ => GlobalPattern::Undecided,
    };
    let (mut instruction_stride, mut per_thread) = (None, None);
    if let (GlobalPattern::Stride(s), Some(split), Some(w)) = (pattern, &split, width)
        && let Some((k, stride)) = thread_elements(split, s, w)
    {
        (instruction_stride, per_thread) = (Some(s), Some(k));
        useful = Some((SECTOR * w / stride).min(SECTOR));
        pattern = if stride == w {
            GlobalPattern::Unit
        } else {
            GlobalPattern::Stride(stride)
        };
    }
    let (stride, at_least, misaligned) = match pattern {
        GlobalPattern::Stride(s) => (Some(s), None, Some(0.0)),
        GlobalPattern::StrideAtLeast(s) => (None, Some(s), None),
        GlobalPattern::Misaligned => (width, None, Some(1.0)),
        GlobalPattern::Unit => (width, None, Some(0.0)),
        GlobalPattern::StrideOrMisaligned(_)
        | GlobalPattern::Masked(_)
        | GlobalPattern::Undecided => (None, None, None),
    };
    let masked = match pattern {
        GlobalPattern::Masked(_) => Some(1.0),
        _ => active.map(|_| 0.0),
    };
    vec![
        ("access_bytes", width),
        ("useful_bytes_per_sector", useful),
        ("used_share", useful.map(|u| u / SECTOR)),
        ("stride_bytes", stride),
        ("stride_at_least", at_least),
        ("misaligned", misaligned),
        ("fields", stride.zip(width).map(|(s, w)| s / w)),
        ("warp_bytes", width.map(|w| w * f64::from(WARP))),
        ("active_lanes", active),
        ("masked", masked),
        ("elements_per_thread", per_thread),
        ("instruction_stride_bytes", instruction_stride),
        ("requests_per_warp", requests),
        ("store_access", store_access),
        ("contiguous_bytes", contiguous),
        ("run_jumps", jumps),
        ("halves_to_float", halves),
        ("narrow_to_float", narrow),
        (
            "address_reloads",
            line.and_then(|(view, _)| constant_reloads::count(view)),
        ),
    ]
}

/// The conversion of an unsigned word to float that `halves_to_float`
/// counts.
const UNSIGNED_TO_FLOAT: &str = "I2FP.F32.U32";

/// The opcode families of the conversions `halves_to_float` and
/// `narrow_to_float` count: the source rows a pack with a global analysis
/// keeps beside its memory instructions.
pub const CONVERSION_OPCODES: [&str; 2] = ["I2FP", narrow_conversions::OPCODE_FAMILY];

/// The opcode family `address_reloads` reads beside the memory
/// instructions: the loads from the constant bank.
pub const RELOAD_OPCODES: [&str; 1] = [constant_reloads::OPCODE_FAMILY];

/// 1 where each unsigned 16-bit access on the line is converted to a float
/// (`LDG.E.U16` beside as many `I2FP.F32.U32` executions), 0 where the line
/// has such accesses and fewer conversions, unknown where it has none. Read
/// whole and converted a half at a time, such fields compile to `I2F.U16`,
/// a slower conversion than the `I2FP` the field loads get.
fn halves_to_float(access: &Access) -> Option<f64> {
    each_converted(access.unsigned_halves, access.float_conversions)
}

/// 1 where each 8- or 16-bit access on the line is converted to a float
/// with `I2F` (`LDG.E.U16` beside as many `I2F.S16` executions, as nvcc
/// converts a signed short), on the SM's quarter-rate conversion pipe; 0
/// where the line has such accesses and fewer conversions, unknown where
/// it has none.
fn narrow_to_float(access: &Access) -> Option<f64> {
    each_converted(access.narrow_fields, access.narrow_conversions)
}

/// 1 where a line's `fields` executions are each matched by a
/// conversion's, 0 where fewer are, unknown where it has no such fields.
fn each_converted(fields: f64, conversions: f64) -> Option<f64> {
    (fields > 0.0).then_some(if conversions >= fields { 1.0 } else { 0.0 })
}

/// 1 where the next pass of the thread's loop writes or reads its run
/// elsewhere (structures a grid apart), 0 where it follows on from the
/// last (a row of its own), unknown where the SASS does not say.
fn run_jumps(view: &SourceView, access: &Access, run_bytes: f64) -> Option<f64> {
    let (base, _) = access.addresses.first()?;
    let executed = access.requests / f64::from(access.instructions);
    match next_run(view, base, run_bytes, executed)? {
        NextRun::Jumps => Some(1.0),
        NextRun::FollowsOn => Some(0.0),
    }
}

/// The bytes a thread's accesses on a line cover where they are one run:
/// two or more instructions of one width from one address register, at
/// offsets that step by that width (`[R4.64]`, `[R4.64+0x4]`, `+0x8`,
/// `+0xc`: a thread's 16 contiguous bytes, a structure's fields written
/// one at a time). Accesses a row apart, or from several registers, are
/// no run.
fn contiguous_bytes(access: &Access, width: f64) -> Option<f64> {
    let count = access.addresses.len();
    if count < 2 || count != access.instructions as usize || !access.uniform {
        return None;
    }
    let mut offsets = one_register_offsets(access)?;
    offsets.sort_unstable();
    let step = width as i64;
    let run = offsets.windows(2).all(|p| p[1] - p[0] == step);
    run.then_some(count as f64 * width)
}

/// The immediate offsets of a line's instructions where all of them
/// address from one register.
fn one_register_offsets(access: &Access) -> Option<Vec<i64>> {
    let (base, _) = access.addresses.first()?;
    access
        .addresses
        .iter()
        .all(|(b, _)| b == base)
        .then(|| access.addresses.iter().map(|(_, o)| *o).collect())
}

/// How many of the line's requests each warp of the launch made: a row's
/// length where each thread walks a row of its own (unrolled or not), a
/// few where a block's elements are split over instructions (Triton).
fn requests_per_warp(kernel: &Kernel, access: &Access<'_>) -> Option<f64> {
    Some(access.requests / warps_launched(kernel)?)
}

/// The kernel's global requests of the analysis's kind (loads for the
/// sector rule, whose row-walk sign is the loads' L1 hits) per warp
/// launched, where no line is at hand.
fn kernel_requests_per_warp(kernel: &Kernel, analysis: Analysis) -> Option<f64> {
    let metric = match analysis {
        Analysis::GlobalStore => "smsp__sass_inst_executed_op_global_st.sum",
        _ => "smsp__sass_inst_executed_op_global_ld.sum",
    };
    Some(kernel.number(metric)? / warps_launched(kernel)?)
}

/// The warps a launch ran: its blocks times the warps of a block.
fn warps_launched(kernel: &Kernel) -> Option<f64> {
    let threads = |dims: [u64; 3]| dims.iter().product::<u64>() as f64;
    let launch = &kernel.launch;
    let warps = threads(launch.grid?) * (threads(launch.block?) / f64::from(WARP)).ceil();
    (warps > 0.0).then_some(warps)
}

/// The n-way conflict, width and wavefront geometry of a shared access.
fn shared(
    kernel: &Kernel,
    finding: &Finding,
    line: Option<(&SourceView, u32)>,
) -> Vec<(&'static str, Option<f64>)> {
    let value = |name: &str| finding.values.get(name).copied().flatten();
    let (width, ratio, line_ratio) = match line {
        Some((view, line)) => {
            let (load, store) = (
                line_access(view, line, "Shared", Some("Load")),
                line_access(view, line, "Shared", Some("Store")),
            );
            let excess = |a: &Access| a.wavefronts - a.wavefronts_ideal;
            let access = if excess(&store) > excess(&load) {
                store
            } else {
                load
            };
            let line_ratio = (access.wavefronts_ideal > 0.0)
                .then(|| access.wavefronts / access.wavefronts_ideal);
            // The access that costs: the instruction with the most excess.
            match access.worst_shared {
                Some((wavefronts, ideal, width)) => (width, Some(wavefronts / ideal), line_ratio),
                None => (access.width, line_ratio, line_ratio),
            }
        }
        None => (
            kernel_width(kernel, finding),
            value("wavefronts")
                .zip(value("ideal"))
                .filter(|(_, ideal)| *ideal > 0.0)
                .map(|(w, i)| w / i),
            None,
        ),
    };
    let ways = width.zip(ratio).and_then(|(w, r)| ways_from_ratio(r, w));
    let per_wavefront = width.map(threads_per_wavefront);
    vec![
        ("access_bytes", width),
        ("conflict_ways", ways),
        ("threads_per_wavefront", per_wavefront),
        ("wavefronts_ideal", width.map(wavefronts_ideal)),
        ("pad_to", per_wavefront.map(|t| t + 1.0)),
        ("line_ratio", line_ratio),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Metric;

    fn kernel(counts: &[(&str, f64)]) -> Kernel {
        let mut kernel = Kernel::default();
        for (name, n) in counts {
            let metric = Metric {
                value: Value::Number(*n),
                unit: "inst".into(),
                raw: n.to_string(),
                raw_unit: "inst".into(),
                label: None,
                origin: Default::default(),
            };
            kernel.metrics.insert((*name).into(), metric);
        }
        kernel
    }

    fn finding() -> Finding {
        Finding {
            library: None,
            library_note: false,
            rule: "r".into(),
            cause: "p".into(),
            severity: crate::rules::Severity::Warning,
            kernel: 0,
            kernel_id: None,
            kernel_name: "k".into(),
            location: None,
            instruction: None,
            message: String::new(),
            values: crate::rules::finding::Values::default(),
            variant: String::new(),
            origin: Default::default(),
            estimate: Default::default(),
            fix: None,
        }
    }

    #[test]
    fn a_dominant_width_is_the_kernels() {
        // Report 07's kernels count 2,152 32-bit memory instructions and no others.
        let k = kernel(&[
            ("smsp__sass_inst_executed_op_memory_32b.sum", 2152.0),
            ("smsp__sass_inst_executed_op_memory_64b.sum", 0.0),
        ]);
        assert_eq!(kernel_width(&k, &finding()), Some(4.0));
        let mixed = kernel(&[
            ("smsp__sass_inst_executed_op_memory_32b.sum", 60.0),
            ("smsp__sass_inst_executed_op_memory_128b.sum", 40.0),
        ]);
        assert_eq!(kernel_width(&mixed, &finding()), None);
    }
}
