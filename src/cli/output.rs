//! Writing to the terminal: whole outputs on stdout (a closed pipe ends
//! them quietly), diagnostics on stderr, colour, and a progress counter.

use std::io::{IsTerminal, Write};

use indicatif::{ProgressBar, ProgressState, ProgressStyle};

use super::args::ColorChoice;
use super::error::CliError;

/// Writes a diagnostic to stderr; a closed stderr is not worth a panic.
pub(crate) fn write_stderr(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

/// Writes the whole output at once; a closed pipe is not an error.
pub(crate) fn write_stdout(text: &str) -> Result<(), CliError> {
    write_stdout_with(|out| out.write_all(text.as_bytes()))
}

/// Runs `write` on `file` when given, else on standard output. A file is
/// written whole or not at all: into a temporary file beside it, renamed
/// over it once complete.
pub(crate) fn write_output(
    file: Option<&std::path::Path>,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), CliError> {
    let Some(path) = file else {
        return write_stdout_with(write);
    };
    let fail = |source| CliError::OutputFile {
        path: path.to_owned(),
        source,
    };
    let name = path
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    let partial = path.with_file_name(format!(".{name}.{}.partial", std::process::id()));
    let result = std::fs::File::create(&partial).and_then(|file| {
        let mut out = std::io::BufWriter::with_capacity(1 << 16, file);
        write(&mut out)?;
        out.into_inner()
            .map_err(std::io::IntoInnerError::into_error)?
            .sync_all()
    });
    match result.and_then(|()| std::fs::rename(&partial, path)) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            Err(fail(e))
        }
    }
}

/// Runs `write` on buffered standard output; a closed pipe (`| head`) ends
/// the output quietly.
pub(crate) fn write_stdout_with(
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), CliError> {
    let mut stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    match write(&mut stdout).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(CliError::Output(e)),
        _ => Ok(()),
    }
}

/// Whether human output is coloured: `always`, or `auto` on a terminal without `NO_COLOR`.
pub(crate) fn use_color(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    }
}

/// Progress on stderr for large inputs (indicatif: the count, its rate and,
/// where the total is known, the time left); nothing for small ones, and
/// nothing where stderr is not a terminal (indicatif hides itself there).
pub(crate) struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// Inputs of 64 MB or more, read while a person watches, get a counter.
    pub(crate) fn for_inputs(files: &[String]) -> Progress {
        let large = files
            .iter()
            .filter_map(|f| std::fs::metadata(f).ok())
            .map(|m| m.len())
            .sum::<u64>()
            >= 64 << 20;
        Progress {
            bar: if large {
                ProgressBar::new_spinner()
            } else {
                ProgressBar::hidden()
            },
        }
    }

    /// Shows `done` results checked, and the rate.
    pub(crate) fn results(&self, done: usize) {
        self.show(done, None, "ncu-lint: {pos} results checked ({rate})");
    }

    /// Shows `done` of `total` reports checked, the rate and the time left.
    pub(crate) fn reports(&self, done: usize, total: usize) {
        self.show(
            done,
            Some(total),
            "ncu-lint: {pos} of {len} reports checked ({rate}, {eta} left)",
        );
    }

    fn show(&self, done: usize, total: Option<usize>, template: &'static str) {
        if self.bar.is_hidden() {
            return;
        }
        if self.bar.position() == 0 {
            if let Ok(style) = ProgressStyle::with_template(template) {
                self.bar.set_style(style.with_key(
                    "rate",
                    |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                        let _ = write!(out, "{:.0}/s", state.per_sec());
                    },
                ));
            }
        }
        if let Some(total) = total {
            self.bar.set_length(total as u64);
        }
        self.bar.set_position(done as u64);
    }

    /// Clears the counter.
    pub(crate) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
