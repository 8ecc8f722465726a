//! Call overhead of local tools through the `Tool` interface: a builtin
//! `read_file` of a small file, and a Python tool through the warm worker
//! (an identity function, so the time is the worker round trip).
// criterion's macros generate undocumented items.
#![allow(missing_docs)]

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use lackpy_sources::Config;
use lackpy_sources::lang::Data;
use lackpy_sources::{CallContext, PythonRuntime, PythonTool, Tool, Toolbox, add_local_sources};

fn bench(c: &mut Criterion) {
    let dir = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => return eprintln!("no temp dir: {e}"),
    };
    let wrote =
        std::fs::write(dir.path().join("small.txt"), "hello, small file\n").and_then(|()| {
            std::fs::write(
                dir.path().join("bench_mod.py"),
                "def ident(x):\n    return x\n",
            )
        });
    if let Err(e) = wrote {
        return eprintln!("cannot write fixtures: {e}");
    }
    let ctx = CallContext::new(dir.path());
    let python = PythonRuntime::new();

    let mut tb = Toolbox::new();
    if let Err(e) = add_local_sources(&mut tb, &Config::default(), &python, None) {
        return eprintln!("{e}");
    }
    let read = match tb.resolve("read_file") {
        Ok(r) => r.tool,
        Err(e) => return eprintln!("{e}"),
    };
    c.bench_function("builtin read_file (small file)", |b| {
        b.iter(|| {
            black_box(
                read.call(vec![Data::Str("small.txt".into())], Vec::new(), &ctx)
                    .wait(),
            )
        })
    });

    if !python.available() {
        return eprintln!("python3 not found: skipping the python benchmark");
    }
    let ident: Arc<dyn Tool> = Arc::new(PythonTool::new(Arc::clone(&python), "bench_mod", "ident"));
    // Start the worker and import the module before measuring.
    let _ = ident
        .call(vec![Data::Str("warm".into())], Vec::new(), &ctx)
        .wait();
    c.bench_function("python tool call (warm worker)", |b| {
        b.iter(|| {
            black_box(
                ident
                    .call(vec![Data::Str("ping".into())], Vec::new(), &ctx)
                    .wait(),
            )
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .sample_size(60);
    targets = bench
}
criterion_main!(benches);
