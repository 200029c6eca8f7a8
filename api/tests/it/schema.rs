//! `api/schema.graphql` is the schema the code serves. After changing the schema, regenerate it
//! with `cargo run -- schema > api/schema.graphql` (or run this test with
//! `CHRONICLE_UPDATE_SCHEMA=1`).

#[test]
fn committed_schema_equals_the_code() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("schema.graphql");
    let code = format!("{}\n", chronicle_api::server::graphql::sdl().trim_end());
    if std::env::var_os("CHRONICLE_UPDATE_SCHEMA").is_some() {
        std::fs::write(&path, &code).expect("write api/schema.graphql");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == code,
        "api/schema.graphql differs from the code; regenerate it: cargo run -- schema > api/schema.graphql"
    );
}
