/// mimalloc instead of the system allocator: replay and import build and drop many small JSON
/// values on every core, where glibc's allocator took about a third of an import's CPU.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // Standard output and error are passed unlocked: `serve` logs from its worker threads to
    // standard error, which a lock held here for the whole run would block.
    let code = chronicle_api::cli::run_interactive(
        args,
        &mut std::io::stdin().lock(),
        &mut std::io::stdout(),
        &mut std::io::stderr(),
    );
    std::process::exit(code);
}
