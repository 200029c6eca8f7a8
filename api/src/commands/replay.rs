//! `chronicle replay` and `chronicle state`: each log goes to the engine its `format` names.
//! Caverna logs (and logs that name no game) keep Caverna's own reports ([`report`]), byte for
//! byte as before the other engines; Village and Above and Below logs get the registry's
//! game-agnostic reports ([`crate::commands::game_report`]).

use std::io::{Read, Write};
use std::path::PathBuf;

use crate::commands::report;
use crate::commands::Done;

fn read_input(path: &PathBuf, stdin: &mut dyn Read) -> Result<Vec<u8>, String> {
    let mut buf = Vec::new();
    if path.as_os_str() == "-" {
        stdin.read_to_end(&mut buf).map_err(|e| format!("reading standard input: {e}"))?;
    } else {
        buf = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
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
pub fn replay(paths: &[PathBuf], mode: Mode, stdin: &mut dyn Read, out: &mut dyn Write) -> Result<Done, String> {
    let inputs = chronicle_ingest::inputs::collect(paths, stdin)?;
    if mode.parse_only {
        return parse_only(&inputs, &mode, out);
    }
    let reports = chronicle_ingest::inputs::par_map(&inputs, |input| {
        let r = chronicle_caverna::replay(&input.bytes);
        match refused_format(&r).then(|| crate::commands::game_report::other_game(&input.bytes)).flatten() {
            Some(kind) => other_game_line(input, kind, &mode),
            None => caverna_line(input, &r, &mode),
        }
    });
    let mut totals = report::Totals::default();
    for (status, line) in &reports {
        totals.add(*status);
        if !mode.summary {
            writeln!(out, "{line}").map_err(|e| e.to_string())?;
        }
    }
    if mode.summary {
        writeln!(out, "{}", totals.json()).map_err(|e| e.to_string())?;
    }
    Ok(if totals.invalid > 0 { Done::Rejected } else { Done::Success })
}

/// Whether Caverna's engine refused a log for its `format`: only then may it be another game's
/// log. Every log is replayed by Caverna first, so Caverna logs cost no extra read of their
/// format.
fn refused_format(r: &chronicle_caverna::Replay) -> bool {
    r.error.as_ref().is_some_and(|e| e.code == chronicle_caverna::ErrorCode::BadFormat)
}

/// The report line of a Caverna log (and of a log that names no game: Caverna's envelope
/// codes, as before the other engines existed).
fn caverna_line(
    input: &chronicle_ingest::inputs::LogInput,
    r: &chronicle_caverna::Replay,
    mode: &Mode,
) -> (chronicle_game::Status, String) {
    let alternatives = (mode.explain && r.status == chronicle_caverna::Status::Invalid)
        .then(|| <chronicle_caverna::Caverna as chronicle_game::GameEngine>::legal_next(&input.bytes, EXPLAIN_LIMIT));
    let line = if mode.summary {
        String::new()
    } else if mode.json {
        let mut v = report::replay_json(&input.name, r);
        if let Some(a) = &alternatives {
            v["alternatives"] = serde_json::json!({ "complete": a.complete, "entries": a.entries });
        }
        v.to_string()
    } else {
        let mut text = report::replay_text(&input.name, r);
        if let Some(a) = &alternatives {
            text.push_str(&report::alternatives_text(a));
        }
        text
    };
    (r.status, line)
}

/// The report line of a log of another game (Village, Above and Below), through the registry.
fn other_game_line(
    input: &chronicle_ingest::inputs::LogInput,
    kind: chronicle_game::GameKind,
    mode: &Mode,
) -> (chronicle_game::Status, String) {
    use crate::commands::game_report;
    let r = game_report::replay(&input.bytes, kind);
    let status = r.verdict.status;
    let alternatives = (mode.explain && status == chronicle_game::Status::Invalid)
        .then(|| chronicle_ingest::games::legal_next(&input.bytes, Some(kind.format()), EXPLAIN_LIMIT))
        .flatten()
        .map(|(_, legal)| legal);
    let line = if mode.summary {
        String::new()
    } else if mode.json {
        let mut v = game_report::replay_json(&input.name, &r);
        if let Some(a) = &alternatives {
            v["alternatives"] = serde_json::json!({ "complete": a.complete, "entries": a.entries });
        }
        v.to_string()
    } else {
        let mut text = game_report::replay_text(&input.name, &r);
        if let Some(a) = &alternatives {
            text.push_str(&report::alternatives_text(a));
        }
        text
    };
    (status, line)
}

/// `--parse-only` is Caverna's notation reader (the baseline of replay speed): a log of another
/// game is a usage error that says so, rather than a Caverna `bad_format`. Checked only for
/// the logs Caverna refused by their format, so Caverna logs are read once, as before.
fn refuse_other_games(
    inputs: &[chronicle_ingest::inputs::LogInput],
    results: &[Result<usize, chronicle_caverna::LogError>],
) -> Result<(), String> {
    let bad_format = |r: &Result<usize, chronicle_caverna::LogError>| {
        r.as_ref().is_err_and(|e| e.code == chronicle_caverna::ErrorCode::BadFormat)
    };
    for (input, _) in inputs.iter().zip(results).filter(|(_, r)| bad_format(r)) {
        if let Some(kind) = crate::commands::game_report::other_game(&input.bytes) {
            return Err(format!(
                "{}: a {} log; --parse-only reads caverna-log/1 logs only (replay it without --parse-only)",
                input.name,
                kind.spec().name
            ));
        }
    }
    Ok(())
}

fn parse_only(inputs: &[chronicle_ingest::inputs::LogInput], mode: &Mode, out: &mut dyn Write) -> Result<Done, String> {
    let results = chronicle_ingest::inputs::par_map(inputs, |input| chronicle_caverna::parse_only(&input.bytes));
    refuse_other_games(inputs, &results)?;
    let invalid = results.iter().filter(|r| r.is_err()).count();
    if mode.summary {
        let line = serde_json::json!({ "logs": results.len(), "parsed": results.len() - invalid, "invalid": invalid });
        writeln!(out, "{line}").map_err(|e| e.to_string())?;
    } else {
        for (input, r) in inputs.iter().zip(&results) {
            let line = match r {
                Ok(n) => serde_json::json!({ "file": input.name, "status": "parsed", "entries": n }),
                Err(e) => serde_json::json!({ "file": input.name, "status": "invalid", "error": e }),
            };
            writeln!(out, "{line}").map_err(|e| e.to_string())?;
        }
    }
    Ok(if invalid > 0 { Done::Rejected } else { Done::Success })
}

/// `chronicle state`: the state after an entry, as the game's JSON view.
pub fn state(
    path: &PathBuf,
    at: Option<usize>,
    json: bool,
    stdin: &mut dyn Read,
    out: &mut dyn Write,
) -> Result<Done, String> {
    let input = read_input(path, stdin)?;
    if let Some(kind) = crate::commands::game_report::other_game(&input) {
        return other_game_state(&path.display().to_string(), &input, kind, at, json, out);
    }
    let r = report::state_at(&input, at)?;
    let Some(game) = &r.game else {
        let line = report::replay_text(&path.display().to_string(), &r);
        writeln!(out, "{line}").map_err(|e| e.to_string())?;
        return Ok(Done::Rejected);
    };
    let view = chronicle_caverna::view::state_json(game);
    let text = if json { view.to_string() } else { serde_json::to_string_pretty(&view).unwrap_or_default() };
    writeln!(out, "{text}").map_err(|e| e.to_string())?;
    Ok(if r.status == chronicle_caverna::Status::Invalid { Done::Rejected } else { Done::Success })
}

/// `chronicle state` for a log of another game (Village, Above and Below).
fn other_game_state(
    file: &str,
    input: &[u8],
    kind: chronicle_game::GameKind,
    at: Option<usize>,
    json: bool,
    out: &mut dyn Write,
) -> Result<Done, String> {
    use crate::commands::game_report::StateOutcome;
    let (status, view) = match crate::commands::game_report::state(file, input, kind, at)? {
        StateOutcome::State(status, view) => (status, view),
        StateOutcome::NoSetup(line) => {
            writeln!(out, "{line}").map_err(|e| e.to_string())?;
            return Ok(Done::Rejected);
        }
    };
    let text = if json { view.to_string() } else { serde_json::to_string_pretty(&view).unwrap_or_default() };
    writeln!(out, "{text}").map_err(|e| e.to_string())?;
    Ok(if status == chronicle_game::Status::Invalid { Done::Rejected } else { Done::Success })
}
