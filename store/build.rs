//! Embeds the SQL migrations (`../migrations/*.sql` for PostgreSQL, `../migrations/sqlite/*.sql`
//! for SQLite) into the binary, checking the naming rules of `migrations/README.md`: names are
//! `<YYYYMMDDHHMMSS>_<verb_noun>.sql` and both directories hold the same names.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn migrations(dir: &Path) -> Vec<(i64, String, PathBuf)> {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut out = Vec::new();
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.unwrap_or_else(|e| panic!("{}: {e}", dir.display())).path();
        if path.extension().and_then(|e| e.to_str()) != Some("sql") {
            continue;
        }
        println!("cargo:rerun-if-changed={}", path.display());
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_owned();
        let (version, name) = stem.split_once('_').unwrap_or(("", ""));
        let valid = version.len() == 14
            && version.bytes().all(|b| b.is_ascii_digit())
            && !name.is_empty()
            && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        assert!(valid, "{}: migration names are <YYYYMMDDHHMMSS>_<verb_noun>.sql", path.display());
        let version: i64 = version.parse().unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        out.push((version, name.to_owned(), path));
    }
    out.sort();
    for pair in out.windows(2) {
        assert!(pair[0].0 != pair[1].0, "two migrations with version {} in {}", pair[0].0, dir.display());
    }
    out
}

fn list(name: &str, migrations: &[(i64, String, PathBuf)]) -> String {
    let mut s = format!("pub const {name}: &[(i64, &str, &str)] = &[\n");
    for (version, desc, path) in migrations {
        let _ = writeln!(s, "    ({version}, {desc:?}, include_str!({:?})),", path.display().to_string());
    }
    s.push_str("];\n");
    s
}

fn main() {
    // Read when the script runs, not when it is compiled: a build script compiled for one
    // checkout may be reused (shared target directory) for another at a different path.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|e| panic!("CARGO_MANIFEST_DIR: {e}"));
    let root = Path::new(&manifest).join("../migrations");
    let postgres = migrations(&root);
    let sqlite = migrations(&root.join("sqlite"));
    let names = |m: &[(i64, String, PathBuf)]| m.iter().map(|(v, n, _)| (*v, n.clone())).collect::<Vec<_>>();
    assert!(
        names(&postgres) == names(&sqlite),
        "migrations/ and migrations/sqlite/ must hold the same migration names (see migrations/README.md)"
    );
    let code = list("POSTGRES", &postgres) + &list("SQLITE", &sqlite);
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_else(|e| panic!("OUT_DIR: {e}")));
    std::fs::write(out.join("migrations.rs"), code).unwrap_or_else(|e| panic!("writing migrations.rs: {e}"));
}
