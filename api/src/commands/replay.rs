//! `chronicle replay` and `chronicle state`: each log goes to the engine its `format` names,
//! through the registry, and gets the one game-agnostic report ([`report`]).

use std::io::{Read, Write};
use std::path::PathBuf;

use crate::commands::report;
use crate::commands::{CommandError, Done, Outcome};

fn read_input(path: &PathBuf, stdin: &mut dyn Read) -> Result<Vec<u8>, CommandError> {
    let mut buf = Vec::new();
    if path.as_os_str() == "-" {
        stdin.read_to_end(&mut buf).map_err(|e| CommandError::Io(format!("reading standard input: {e}")))?;
    } else {
        buf = std::fs::read(path).map_err(|e| CommandError::Io(format!("{}: {e}", path.display())))?;
    }
    Ok(buf)
}

/// The output options of `chronicle replay`.
pub struct Mode {
    pub json: bool,
    pub summary: bool,
    pub parse_only: bool,
    pub explain: bool,
}

/// Alternatives listed by `replay --explain`.
const EXPLAIN_LIMIT: usize = 50;

/// `chronicle replay`: one line per log (or the totals), exit code 1 when some log is invalid.
/// Each log goes to the engine its `format` names, through the registry; a log that names no
/// game gets the envelope's verdict.
pub fn replay(paths: &[PathBuf], mode: Mode, stdin: &mut dyn Read, out: &mut dyn Write) -> Outcome {
    let inputs = chronicle_ingest::inputs::collect(paths, stdin).map_err(CommandError::Io)?;
    if mode.parse_only {
        return parse_only(&inputs, &mode, out);
    }
    let reports = chronicle_ingest::inputs::par_map(&inputs, |input| line(input, &mode));
    let mut totals = report::Totals::default();
    for (status, line) in &reports {
        totals.add(*status);
        if !mode.summary {
            writeln!(out, "{line}")?;
        }
    }
    if mode.summary {
        writeln!(out, "{}", totals.json())?;
    }
    Ok(if totals.invalid > 0 { Done::Rejected } else { Done::Success })
}

/// The report line of one log.
fn line(input: &chronicle_ingest::inputs::LogInput, mode: &Mode) -> (chronicle_game::Status, String) {
    let r = report::replay(&input.bytes);
    let status = r.verdict.status;
    if mode.summary {
        return (status, String::new());
    }
    let alternatives = (mode.explain && status == chronicle_game::Status::Invalid)
        .then(|| chronicle_ingest::games::legal_next(&input.bytes, r.kind.map(|k| k.format()), EXPLAIN_LIMIT))
        .flatten()
        .map(|(_, legal)| legal);
    let line = if mode.json {
        let mut v = report::replay_json(&input.name, &r);
        if let Some(a) = &alternatives {
            v["alternatives"] = serde_json::json!({ "complete": a.complete, "entries": a.entries });
        }
        v.to_string()
    } else {
        let mut text = report::replay_text(&input.name, &r);
        if let Some(a) = &alternatives {
            text.push_str(&report::alternatives_text(a));
        }
        text
    };
    (status, line)
}

/// `--parse-only`: each log's notation read by its game's engine without a rule applied (the
/// baseline of replay speed); a log that names no game gets the envelope's verdict.
fn parse_only(inputs: &[chronicle_ingest::inputs::LogInput], mode: &Mode, out: &mut dyn Write) -> Outcome {
    let results = chronicle_ingest::inputs::par_map(inputs, |input| match report::kind_of(&input.bytes) {
        Some(kind) => chronicle_ingest::games::engine(kind).parse_only(&input.bytes),
        None => Err(chronicle_ingest::games::verdict_of(&input.bytes, None).error.unwrap_or_else(|| {
            chronicle_game::LogError::new(None, None, chronicle_game::envelope::codes::BAD_FORMAT, "no game")
        })),
    });
    let invalid = results.iter().filter(|r| r.is_err()).count();
    if mode.summary {
        let line = serde_json::json!({ "logs": results.len(), "parsed": results.len() - invalid, "invalid": invalid });
        writeln!(out, "{line}")?;
    } else {
        for (input, r) in inputs.iter().zip(&results) {
            let line = match r {
                Ok(n) => serde_json::json!({ "file": input.name, "status": "parsed", "entries": n }),
                Err(e) => serde_json::json!({ "file": input.name, "status": "invalid", "error": e }),
            };
            writeln!(out, "{line}")?;
        }
    }
    Ok(if invalid > 0 { Done::Rejected } else { Done::Success })
}

/// `chronicle state`: the state after an entry, as the game's JSON view.
pub fn state(path: &PathBuf, at: Option<usize>, json: bool, stdin: &mut dyn Read, out: &mut dyn Write) -> Outcome {
    use crate::commands::report::StateOutcome;
    let input = read_input(path, stdin)?;
    let (status, view) = match report::state(&path.display().to_string(), &input, at).map_err(CommandError::Usage)? {
        StateOutcome::State(status, view) => (status, view),
        StateOutcome::NoSetup(line) => {
            writeln!(out, "{line}")?;
            return Ok(Done::Rejected);
        }
    };
    let text = if json { view.to_string() } else { serde_json::to_string_pretty(&view).unwrap_or_default() };
    writeln!(out, "{text}")?;
    Ok(if status == chronicle_game::Status::Invalid { Done::Rejected } else { Done::Success })
}
