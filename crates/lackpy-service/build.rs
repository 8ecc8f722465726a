//! Link options for the `lackpy` executable.
#![forbid(unsafe_code)]

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
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
    }
}
