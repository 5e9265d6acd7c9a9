//! Writing to the terminal: whole outputs on stdout (a closed pipe ends
//! them quietly), diagnostics on stderr, colour, and a progress counter.

use std::io::{IsTerminal, Write};

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

/// A count of results checked on stderr, for large inputs when stderr is a
/// terminal; nothing otherwise.
pub(crate) struct Progress {
    shown: bool,
    last: std::time::Instant,
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
            shown: large && std::io::stderr().is_terminal(),
            last: std::time::Instant::now(),
        }
    }

    /// Shows `done`, at most five times a second.
    pub(crate) fn update(&mut self, done: &str) {
        if self.shown && self.last.elapsed().as_millis() >= 200 {
            self.last = std::time::Instant::now();
            let _ = write!(std::io::stderr(), "\rncu-lint: {done}");
        }
    }

    /// Clears the counter.
    pub(crate) fn finish(&mut self) {
        if self.shown {
            let _ = write!(std::io::stderr(), "\r\x1b[K");
        }
    }
}
