//! Nsight Compute itself: reading `.ncu-rep` reports by running `ncu -i` to
//! export the pages the rules need, and profiling an application.
//!
//! A report is recognised by its content (it starts with `NVR\0`), also
//! inside an xz stream. The exports stream from `ncu`'s stdout straight into
//! the importer; nothing is written to disk.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::ingest::ncu_rep::MAGIC as REPORT_MAGIC;

/// The exports the rules read from a report: the raw page in base units with
/// metric names, the source page with CUDA lines and SASS, and the session
/// page (ncu version, profiler command line, GPU).
pub const PAGES: [(&str, &[&str]); 3] = [
    ("raw page", &["--page", "raw", "--print-units", "base"]),
    (
        "source page",
        &["--page", "source", "--print-source", "cuda,sass"],
    ),
    ("session page", &["--page", "session"]),
];

/// Why a report could not be read or an application profiled.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[non_exhaustive]
pub enum NcuError {
    /// No `ncu` binary was found.
    #[error(
        "{report} is an Nsight Compute report, and reading it needs `ncu`, which was not found"
    )]
    #[diagnostic(
        code(ncu_lint::ncu::not_found),
        help(
            "give it with --ncu PATH or the NCU environment variable, or put ncu on PATH; or export the pages by hand and lint those:\n  ncu -i {report} --csv --page raw --print-units base > raw.csv\n  ncu -i {report} --csv --page source --print-source cuda,sass > source.csv\n  ncu-lint check raw.csv source.csv"
        )
    )]
    NotFound {
        /// The report.
        report: String,
    },
    /// `ncu` could not be started or failed.
    #[error("`{command}` failed: {reason}")]
    #[diagnostic(code(ncu_lint::ncu::failed))]
    Failed {
        /// The command line.
        command: String,
        /// What went wrong (exit status and ncu's last error lines).
        reason: String,
    },
    /// A report inside an xz stream could not be unpacked.
    #[error("cannot unpack {path}: {source}")]
    #[diagnostic(code(ncu_lint::ncu::unpack))]
    Unpack {
        /// The file.
        path: String,
        /// The reason.
        #[source]
        source: std::io::Error,
    },
}

/// The `ncu` to run: `explicit`, else `$NCU`, else `ncu` on `PATH`.
pub fn find(explicit: Option<&Path>) -> Option<PathBuf> {
    if let Some(path) = explicit {
        return Some(path.to_owned());
    }
    if let Some(path) = std::env::var_os("NCU").filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(path));
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("ncu"))
            .find(|candidate| candidate.is_file())
    })
}

/// A report ready for `ncu -i`: the path itself, or an unpacked copy of an
/// xz-compressed one (removed when dropped).
pub struct ReportFile {
    path: PathBuf,
    temporary: bool,
}

impl ReportFile {
    /// Prepares `path`, unpacking it if it is xz-compressed.
    pub fn open(path: &str) -> Result<ReportFile, NcuError> {
        let unpack_error = |source| NcuError::Unpack {
            path: path.to_owned(),
            source,
        };
        let mut head = [0u8; 4];
        let mut file = std::fs::File::open(path).map_err(unpack_error)?;
        let n = file.read(&mut head).map_err(unpack_error)?;
        if head[..n].starts_with(REPORT_MAGIC) {
            return Ok(ReportFile {
                path: PathBuf::from(path),
                temporary: false,
            });
        }
        let target = std::env::temp_dir().join(format!(
            "ncu-lint-{}-{}.ncu-rep",
            std::process::id(),
            unique()
        ));
        let mut decoder =
            xz2::read::XzDecoder::new(std::fs::File::open(path).map_err(unpack_error)?);
        let mut out = std::fs::File::create(&target).map_err(unpack_error)?;
        std::io::copy(&mut decoder, &mut out).map_err(unpack_error)?;
        Ok(ReportFile {
            path: target,
            temporary: true,
        })
    }

    /// The path `ncu -i` reads.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for ReportFile {
    fn drop(&mut self) {
        if self.temporary {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// The `ncu -i` command that exports one page of a report as CSV.
pub fn export_command(ncu: &Path, report: &Path, page: &[&str]) -> Command {
    let mut command = Command::new(ncu);
    command
        .arg("-i")
        .arg(report)
        .arg("--csv")
        .args(page)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// The `ncu` command line that profiles `app` into `report` with `sections`
/// (and the source correlation the line-level findings need).
pub fn profile_command(ncu: &Path, report: &Path, sections: &[String], app: &[String]) -> Command {
    let mut command = Command::new(ncu);
    command
        .arg("--import-source")
        .arg("yes")
        .arg("-f")
        .arg("-o")
        .arg(report);
    for section in sections {
        command.arg("--section").arg(section);
    }
    command.args(app);
    command
}

/// A command line as text, for messages.
pub fn describe(command: &Command) -> String {
    std::iter::once(command.get_program())
        .chain(command.get_args())
        .map(|a| a.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}
