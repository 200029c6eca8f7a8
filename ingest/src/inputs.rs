//! Where logs come from: files, `-` (standard input), directories (every `*.json` and
//! `*.ndjson` in them, by name) and NDJSON files (one log per non-empty line).
//!
//! [`collect`] reads everything at once (replay reports need every result anyway);
//! [`LogReader`] reads as it is asked, batch by batch, so that an import of a large corpus
//! holds one batch of logs in memory, not the corpus.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};
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

/// Expands the command-line paths into logs, in order, all read at once. IO errors are usage
/// errors.
pub fn collect(paths: &[PathBuf], stdin: &mut dyn Read) -> Result<Vec<LogInput>, String> {
    let mut reader = LogReader::new(paths, stdin)?;
    let mut out = Vec::new();
    loop {
        let batch = reader.next_batch(4096)?;
        if batch.is_empty() {
            return Ok(out);
        }
        out.extend(batch);
    }
}

/// One place logs come from, in command-line order.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Source {
    Stdin,
    File(PathBuf),
    Ndjson(PathBuf),
}

/// Expands the command-line paths (directories into their `*.json` and `*.ndjson` files, by
/// name) without reading any log.
fn sources(paths: &[PathBuf]) -> Result<Vec<Source>, String> {
    let file = |p: PathBuf| if is_ndjson(&p) { Source::Ndjson(p) } else { Source::File(p) };
    let mut out = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            out.push(Source::Stdin);
        } else if path.is_dir() {
            let mut files: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|e| format!("{}: {e}", path.display()))?
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "json" || e == "ndjson"))
                .collect();
            files.sort();
            out.extend(files.into_iter().map(file));
        } else {
            std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
            out.push(file(path.clone()));
        }
    }
    Ok(out)
}

/// Logs read on demand, in the order [`collect`] gives them.
pub struct LogReader<'a> {
    sources: VecDeque<Source>,
    stdin: &'a mut dyn Read,
    /// The NDJSON file being read: its path, reader and the number of the last line read.
    ndjson: Option<(PathBuf, BufReader<std::fs::File>, usize)>,
    /// Bytes of all files named, for progress (standard input counts as 0).
    pub total_bytes: u64,
}

impl<'a> LogReader<'a> {
    pub fn new(paths: &[PathBuf], stdin: &'a mut dyn Read) -> Result<LogReader<'a>, String> {
        let sources = sources(paths)?;
        let total_bytes = sources
            .iter()
            .map(|s| match s {
                Source::File(p) | Source::Ndjson(p) => std::fs::metadata(p).map_or(0, |m| m.len()),
                Source::Stdin => 0,
            })
            .sum();
        Ok(LogReader { sources: sources.into(), stdin, ndjson: None, total_bytes })
    }

    /// Up to `n` more logs (fewer only at the end; empty when there are no more).
    pub fn next_batch(&mut self, n: usize) -> Result<Vec<LogInput>, String> {
        let mut out = Vec::new();
        while out.len() < n.max(1) {
            if let Some((path, reader, line_no)) = &mut self.ndjson {
                let mut line = Vec::new();
                let read = reader.read_until(b'\n', &mut line).map_err(|e| format!("{}: {e}", path.display()))?;
                if read == 0 {
                    self.ndjson = None;
                    continue;
                }
                *line_no += 1;
                if line.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                if line.last() == Some(&b'\n') {
                    line.pop();
                }
                out.push(LogInput { name: format!("{}:{}", path.display(), line_no), bytes: line });
                continue;
            }
            match self.sources.pop_front() {
                None => break,
                Some(Source::Stdin) => {
                    let mut bytes = Vec::new();
                    self.stdin.read_to_end(&mut bytes).map_err(|e| format!("reading standard input: {e}"))?;
                    out.push(LogInput { name: "-".into(), bytes });
                }
                Some(Source::File(path)) => {
                    let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
                    out.push(LogInput { name: path.display().to_string(), bytes });
                }
                Some(Source::Ndjson(path)) => {
                    let file = std::fs::File::open(&path).map_err(|e| format!("{}: {e}", path.display()))?;
                    self.ndjson = Some((path, BufReader::new(file), 0));
                }
            }
        }
        Ok(out)
    }
}

/// Runs `f` over every input on all cores, returning the results in input order.
pub fn par_map<I: Sync, T: Send>(inputs: &[I], f: impl Fn(&I) -> T + Sync) -> Vec<T> {
    par_map_on(std::thread::available_parallelism().map_or(1, |n| n.get()), inputs, f)
}

/// Runs `f` over every input on at most `threads` threads, returning the results in input order.
pub fn par_map_on<I: Sync, T: Send>(threads: usize, inputs: &[I], f: impl Fn(&I) -> T + Sync) -> Vec<T> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let threads = threads.clamp(1, inputs.len().max(1));
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<T>>> = Mutex::new((0..inputs.len()).map(|_| None).collect());
    let work = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(input) = inputs.get(i) else { break };
        let r = f(input);
        if let Ok(mut slots) = results.lock() {
            slots[i] = Some(r);
        }
    };
    // The calling thread is one of the workers: a thread started per call begins with a cold
    // allocator heap (fresh pages, zeroed by the kernel), which was a visible share of an
    // import's time with one call per batch.
    std::thread::scope(|s| {
        for _ in 1..threads {
            s.spawn(work);
        }
        work();
    });
    results.into_inner().unwrap_or_default().into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_reader_streams_files_and_ndjson_lines_in_order_in_batches() {
        let dir = std::env::temp_dir().join(format!("chronicle-inputs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a.json"), b"{\"a\": 1}").unwrap();
        std::fs::write(dir.join("b.ndjson"), b"{\"b\": 1}\n\n  \n{\"b\": 4}\n{\"b\": 5}").unwrap();
        std::fs::write(dir.join("c.json"), b"{\"c\": 1}").unwrap();
        std::fs::write(dir.join("ignored.txt"), b"x").unwrap();
        let mut stdin: &[u8] = b"{\"stdin\": true}";
        let paths = vec![dir.clone(), PathBuf::from("-")];
        let mut reader = LogReader::new(&paths, &mut stdin).unwrap();
        let mut batches = Vec::new();
        loop {
            let batch = reader.next_batch(2).unwrap();
            if batch.is_empty() {
                break;
            }
            batches.push(
                batch
                    .iter()
                    .map(|l| (l.name.rsplit('/').next().unwrap().to_owned(), l.bytes.clone()))
                    .collect::<Vec<_>>(),
            );
        }
        let sizes: Vec<usize> = batches.iter().map(Vec::len).collect();
        assert_eq!(sizes, vec![2, 2, 2]);
        let all: Vec<(String, Vec<u8>)> = batches.into_iter().flatten().collect();
        let names: Vec<&str> = all.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, vec!["a.json", "b.ndjson:1", "b.ndjson:4", "b.ndjson:5", "c.json", "-"]);
        assert_eq!(all[2].1, b"{\"b\": 4}");
        assert_eq!(all[3].1, b"{\"b\": 5}");
        let mut empty: &[u8] = b"";
        assert!(LogReader::new(&[dir.join("missing.json")], &mut empty).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
