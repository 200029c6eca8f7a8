//! Where logs come from: files, `-` (standard input), directories (every `*.json` and
//! `*.ndjson` in them, by name) and NDJSON files (one log per non-empty line).

use std::io::Read;
use std::path::{Path, PathBuf};

/// One log to check, with the name it is reported under.
#[derive(Clone, Debug)]
pub struct LogInput {
    pub name: String,
    pub bytes: Vec<u8>,
}

fn is_ndjson(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "ndjson")
}

/// Expands the command-line paths into logs, in order. IO errors are usage errors.
pub fn collect(paths: &[PathBuf], stdin: &mut dyn Read) -> Result<Vec<LogInput>, String> {
    let mut out = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            let mut bytes = Vec::new();
            stdin.read_to_end(&mut bytes).map_err(|e| format!("reading standard input: {e}"))?;
            out.push(LogInput { name: "-".into(), bytes });
        } else if path.is_dir() {
            let mut files: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|e| format!("{}: {e}", path.display()))?
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "json" || e == "ndjson"))
                .collect();
            files.sort();
            for f in files {
                read_file(&f, &mut out)?;
            }
        } else {
            read_file(path, &mut out)?;
        }
    }
    Ok(out)
}

fn read_file(path: &Path, out: &mut Vec<LogInput>) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if !is_ndjson(path) {
        out.push(LogInput { name: path.display().to_string(), bytes });
        return Ok(());
    }
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        out.push(LogInput { name: format!("{}:{}", path.display(), i + 1), bytes: line.to_vec() });
    }
    Ok(())
}

/// Runs `f` over every input on all cores, returning the results in input order.
pub fn par_map<I: Sync, T: Send>(inputs: &[I], f: impl Fn(&I) -> T + Sync) -> Vec<T> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(inputs.len().max(1));
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<T>>> = Mutex::new((0..inputs.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(input) = inputs.get(i) else { break };
                let r = f(input);
                if let Ok(mut slots) = results.lock() {
                    slots[i] = Some(r);
                }
            });
        }
    });
    results.into_inner().unwrap_or_default().into_iter().flatten().collect()
}
