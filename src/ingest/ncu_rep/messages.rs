//! The protobuf messages of the `.ncu-rep` container that the reader needs,
//! written by hand from Nsight Compute's own definitions
//! (`extras/FileFormat/*.proto` in its installation; field numbers and
//! types as there). Every other field is skipped as unknown, so reports of
//! newer versions, which add fields, still read. Strings are read as bytes
//! and decoded leniently: a report is not refused for one odd byte.

use prost::Message;

/// The header after the magic bytes.
#[derive(Clone, PartialEq, Message)]
pub struct FileHeader {
    /// The container version (7 in every report seen, 2020 to 2026).
    #[prost(uint32, optional, tag = "1")]
    pub version: Option<u32>,
}

/// The header of one block: how many messages its payload holds, its
/// strings, and the session it belongs to.
#[derive(Clone, PartialEq, Message)]
pub struct BlockHeader {
    /// Source messages first in the payload.
    #[prost(uint64, optional, tag = "1")]
    pub num_sources: Option<u64>,
    /// Kernel results after them.
    #[prost(uint64, optional, tag = "2")]
    pub num_results: Option<u64>,
    /// The session: devices, versions, settings.
    #[prost(message, optional, tag = "3")]
    pub session: Option<SessionDetails>,
    /// Strings that metric names index, appended to earlier blocks'.
    #[prost(message, optional, tag = "4")]
    pub string_table: Option<StringTable>,
    /// Bytes of payload after this header.
    #[prost(uint64, optional, tag = "5")]
    pub payload_size: Option<u64>,
    /// Range results (not kernels) in the payload, after the kernel results.
    #[prost(uint64, optional, tag = "7")]
    pub num_range_results: Option<u64>,
    /// Command-list results.
    #[prost(uint64, optional, tag = "8")]
    pub num_cmdlist_results: Option<u64>,
    /// Graph results.
    #[prost(uint64, optional, tag = "9")]
    pub num_graph_results: Option<u64>,
}

/// The string table.
#[derive(Clone, PartialEq, Message)]
pub struct StringTable {
    /// The strings, in index order.
    #[prost(bytes = "vec", repeated, tag = "1")]
    pub strings: Vec<Vec<u8>>,
}

/// What the report says of the session.
#[derive(Clone, PartialEq, Message)]
pub struct SessionDetails {
    /// Unix time the report was created.
    #[prost(uint64, optional, tag = "2")]
    pub creation_time: Option<u64>,
    /// Each device's attributes.
    #[prost(message, repeated, tag = "6")]
    pub devices: Vec<DeviceAttributes>,
    /// Tool versions.
    #[prost(message, repeated, tag = "8")]
    pub versions: Vec<VersionInfo>,
    /// The profiler's settings.
    #[prost(message, optional, tag = "10")]
    pub settings: Option<ProfilerSettings>,
    /// The profiler's command line.
    #[prost(bytes = "vec", optional, tag = "11")]
    pub command_line: Option<Vec<u8>>,
}

/// One device and its attributes (`device__attribute_*` metrics).
#[derive(Clone, PartialEq, Message)]
pub struct DeviceAttributes {
    /// The device index.
    #[prost(uint64, optional, tag = "1")]
    pub id: Option<u64>,
    /// The device name.
    #[prost(bytes = "vec", optional, tag = "2")]
    pub name: Option<Vec<u8>>,
    /// Its attributes.
    #[prost(message, repeated, tag = "3")]
    pub attributes: Vec<NamedValue>,
}

/// A name and a value.
#[derive(Clone, PartialEq, Message)]
pub struct NamedValue {
    /// The name.
    #[prost(bytes = "vec", optional, tag = "1")]
    pub name: Option<Vec<u8>>,
    /// The value.
    #[prost(message, optional, tag = "2")]
    pub value: Option<MetricValue>,
}

/// A tool and its version.
#[derive(Clone, PartialEq, Message)]
pub struct VersionInfo {
    /// `Nsight Compute`, for the profiler.
    #[prost(bytes = "vec", optional, tag = "1")]
    pub provider: Option<Vec<u8>>,
    /// Its version.
    #[prost(bytes = "vec", optional, tag = "2")]
    pub version: Option<Vec<u8>>,
}

/// The profiler's settings.
#[derive(Clone, PartialEq, Message)]
pub struct ProfilerSettings {
    /// The sections collected, as the command line gave them.
    #[prost(bytes = "vec", optional, tag = "7")]
    pub enabled_sections: Option<Vec<u8>>,
    /// Whether CUDA source was imported.
    #[prost(bool, optional, tag = "10")]
    pub import_source: Option<bool>,
}

/// One kernel launch and its metrics.
#[derive(Clone, PartialEq, Message)]
pub struct ProfileResult {
    /// The kernel's ID.
    #[prost(uint64, optional, tag = "4")]
    pub kernel_id: Option<u64>,
    /// The mangled name.
    #[prost(bytes = "vec", optional, tag = "5")]
    pub mangled_name: Option<Vec<u8>>,
    /// The function name alone.
    #[prost(bytes = "vec", optional, tag = "6")]
    pub function_name: Option<Vec<u8>>,
    /// The demangled name, as the raw page prints it.
    #[prost(bytes = "vec", optional, tag = "7")]
    pub demangled_name: Option<Vec<u8>>,
    /// Grid size.
    #[prost(message, optional, tag = "10")]
    pub grid: Option<Uint64x3>,
    /// Block size.
    #[prost(message, optional, tag = "11")]
    pub block: Option<Uint64x3>,
    /// The metrics.
    #[prost(message, repeated, tag = "13")]
    pub metrics: Vec<MetricResult>,
    /// The kernel's code: the cubin and imported CUDA text.
    #[prost(message, optional, tag = "15")]
    pub source: Option<SourceData>,
    /// The section definitions in force when it was collected, undecoded
    /// (they are large, and read only where a derived value is missing).
    #[prost(bytes = "bytes", repeated, tag = "17")]
    pub sections: Vec<prost::bytes::Bytes>,
    /// The CUDA context.
    #[prost(uint64, optional, tag = "22")]
    pub context_id: Option<u64>,
    /// The CUDA stream.
    #[prost(uint64, optional, tag = "23")]
    pub stream_id: Option<u64>,
    /// The demangled name after `--rename-kernels`.
    #[prost(bytes = "vec", optional, tag = "31")]
    pub renamed_name: Option<Vec<u8>>,
}

/// Three sizes.
#[derive(Clone, PartialEq, Message)]
pub struct Uint64x3 {
    /// x
    #[prost(uint64, optional, tag = "1")]
    pub x: Option<u64>,
    /// y
    #[prost(uint64, optional, tag = "2")]
    pub y: Option<u64>,
    /// z
    #[prost(uint64, optional, tag = "3")]
    pub z: Option<u64>,
}

/// One metric of a result: a value, or instanced values.
#[derive(Clone, PartialEq, Message)]
pub struct MetricResult {
    /// The name, as an index into the string table.
    #[prost(uint64, optional, tag = "1")]
    pub name_id: Option<u64>,
    /// The value.
    #[prost(message, optional, tag = "2")]
    pub value: Option<MetricValue>,
    /// Instanced values, each keyed by a correlation (an address for
    /// source counters); undecoded until read ([`MetricResult::instances`]),
    /// since most are never read.
    #[prost(bytes = "bytes", repeated, tag = "3")]
    pub raw_instances: Vec<prost::bytes::Bytes>,
}

/// One instance of an instanced metric.
#[derive(Clone, PartialEq, Message)]
pub struct MetricInstance {
    /// What it belongs to (an instruction address).
    #[prost(message, optional, tag = "1")]
    pub correlation: Option<MetricValue>,
    /// Its value.
    #[prost(message, optional, tag = "2")]
    pub value: Option<MetricValue>,
}

/// A metric value: one of these is set.
#[derive(Clone, PartialEq, Message)]
pub struct MetricValue {
    /// Text.
    #[prost(bytes = "vec", optional, tag = "1")]
    pub string: Option<Vec<u8>>,
    /// A float.
    #[prost(float, optional, tag = "2")]
    pub float: Option<f32>,
    /// A double.
    #[prost(double, optional, tag = "3")]
    pub double: Option<f64>,
    /// A 32-bit count.
    #[prost(uint32, optional, tag = "4")]
    pub uint32: Option<u32>,
    /// A 64-bit count.
    #[prost(uint64, optional, tag = "5")]
    pub uint64: Option<u64>,
}

/// A kernel's code.
#[derive(Clone, PartialEq, Message)]
pub struct SourceData {
    /// What results refer to it by (in a source record), or the record
    /// referred to (in a result).
    #[prost(uint64, optional, tag = "1")]
    pub reference: Option<u64>,
    /// The cubin (an ELF; with `-lineinfo` its line table maps SASS to CUDA
    /// lines). Shared with the buffer it was read into, not copied.
    #[prost(bytes = "bytes", optional, tag = "4")]
    pub binary: Option<prost::bytes::Bytes>,
    /// The compute capability the code is for, major in bits 16 and up
    /// (`0x90000` for sm_90).
    #[prost(uint64, optional, tag = "6")]
    pub sm_version: Option<u64>,
    /// CUDA text imported with `--import-source yes`.
    #[prost(message, optional, tag = "8")]
    pub files: Option<SourceFiles>,
}

/// Imported source files.
#[derive(Clone, PartialEq, Message)]
pub struct SourceFiles {
    /// The files.
    #[prost(message, repeated, tag = "1")]
    pub files: Vec<SourceFile>,
}

/// One imported file.
#[derive(Clone, PartialEq, Message)]
pub struct SourceFile {
    /// Its path on the profiling machine.
    #[prost(bytes = "vec", optional, tag = "1")]
    pub name: Option<Vec<u8>>,
    /// Its text.
    #[prost(bytes = "vec", optional, tag = "2")]
    pub content: Option<Vec<u8>>,
}

/// A section's identifier alone.
#[derive(Clone, PartialEq, Message)]
pub struct SectionId {
    /// `SpeedOfLight`, ...
    #[prost(bytes = "vec", optional, tag = "1")]
    pub identifier: Option<Vec<u8>>,
}

/// A section definition as collected.
#[derive(Clone, PartialEq, Message)]
pub struct Section {
    /// `SpeedOfLight`, ...
    #[prost(bytes = "vec", optional, tag = "1")]
    pub identifier: Option<Vec<u8>>,
    /// Its definitions of derived metrics.
    #[prost(message, optional, tag = "10")]
    pub metric_definitions: Option<MetricDefinitions>,
}

/// Derived metrics a section defines.
#[derive(Clone, PartialEq, Message)]
pub struct MetricDefinitions {
    /// Each definition.
    #[prost(message, repeated, tag = "1")]
    pub definitions: Vec<MetricDefinition>,
}

/// One derived metric: its name and expression over other metrics.
#[derive(Clone, PartialEq, Message)]
pub struct MetricDefinition {
    /// `derived__...`
    #[prost(bytes = "vec", optional, tag = "1")]
    pub name: Option<Vec<u8>>,
    /// `metricA * 128`, `simplify(a) + simplify(b)`, ...
    #[prost(bytes = "vec", optional, tag = "2")]
    pub expression: Option<Vec<u8>>,
}

/// Text from bytes, lossy.
pub fn text(bytes: &Option<Vec<u8>>) -> Option<String> {
    bytes
        .as_deref()
        .map(|b| String::from_utf8_lossy(b).into_owned())
}

impl MetricResult {
    /// The instances, decoded; one that does not decode is left out.
    pub fn instances(&self) -> impl Iterator<Item = MetricInstance> + '_ {
        self.raw_instances
            .iter()
            .filter_map(|b| MetricInstance::decode(b.as_ref()).ok())
    }
}

impl MetricValue {
    /// The value as a number, where it is one.
    pub fn number(&self) -> Option<f64> {
        self.double
            .or(self.float.map(f64::from))
            .or(self.uint64.map(|v| v as f64))
            .or(self.uint32.map(f64::from))
    }

    /// The value as text, where it is text.
    pub fn as_text(&self) -> Option<String> {
        text(&self.string)
    }
}
