//! Link options for the `lackpy` and `lackpy-exec` executables.
#![forbid(unsafe_code)]

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=symbol-order.txt");
    println!("cargo:rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");
    println!("cargo:rerun-if-env-changed=RUSTC_LINKER");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    // Packed relative relocations (DT_RELR): a position-independent
    // executable is relocated at start-up, and with classic RELA entries the
    // dynamic loader reads ~640 KiB of relocation records and faults in the
    // pages around them, about 1.5 MB of the process's resident set before
    // any program runs. The packed form is a few KiB. GNU ld emits it only
    // when the C library supports it (glibc 2.36+) and otherwise links the
    // classic form; the executable stays position-independent.
    if os == "linux" && env == "gnu" {
        println!("cargo:rustc-link-arg-bin=lackpy=-Wl,-z,pack-relative-relocs");
        println!("cargo:rustc-link-arg-bin=lackpy-exec=-Wl,-z,pack-relative-relocs");
    }
    // Start-up and interpreter code first, together. The kernel maps an
    // executable's code 64 KiB (fault-around) around each page a process
    // touches, so the ~0.8 MB of code a `lackpy run` of `print(1)` executes,
    // scattered over the 14 MB `.text`, made 6-7 MB of it resident.
    // `symbol-order.txt` lists the functions a plain run and the benchmark
    // suite execute (see `scripts/symbol-order.py`); the linker places them
    // first, the rest keeps its order. A name that no longer exists is skipped, so a stale
    // list only costs memory, never correctness. Only rust-lld, the default
    // linker of x86_64-unknown-linux-gnu, is known here to take the option.
    if std::env::var("TARGET").as_deref() == Ok("x86_64-unknown-linux-gnu") && !custom_linker() {
        let dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
        let list = std::path::Path::new(&dir).join("symbol-order.txt");
        if list.is_file() {
            println!(
                "cargo:rustc-link-arg-bin=lackpy=-Wl,--symbol-ordering-file={}",
                list.display()
            );
            println!("cargo:rustc-link-arg-bin=lackpy=-Wl,--no-warn-symbol-ordering");
        }
    }
}

/// Whether the build picks its own linker (a target `linker` setting, which
/// cargo passes as `RUSTC_LINKER`, or rustflags naming a linker, linker
/// features or `-fuse-ld`): that linker may not take the ordering option.
fn custom_linker() -> bool {
    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    std::env::var_os("RUSTC_LINKER").is_some()
        || flags.contains("linker")
        || flags.contains("fuse-ld")
}
