fn main() {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let code = chronicle_api::cli::run_interactive(
        args,
        &mut std::io::stdin().lock(),
        &mut std::io::stdout().lock(),
        &mut std::io::stderr().lock(),
    );
    std::process::exit(code);
}
