//! `LackpyService::with_tools`: tools added after start, the original
//! service unchanged.

use lackpy_lang::{Data, Grade};
use lackpy_service::{LackpyService, RunProgram, ServiceOptions};
use lackpy_sources::{ArgSpec, Provider, ToolSpec, tool_fn};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_added_after_start_serve_the_derived_service_only() {
    let dir = tempfile::tempdir().expect("tempdir");
    let svc = LackpyService::start(ServiceOptions {
        workspace: dir.path().to_path_buf(),
        ..ServiceOptions::default()
    })
    .await
    .expect("service starts");
    let spec = ToolSpec::new("double", Provider::Other("test".into()))
        .with_arg(ArgSpec::new("x"))
        .with_grade(Grade::new(0, 0));
    let double = tool_fn(|args, _kw, _ctx| match args.first() {
        Some(Data::Int(n)) => Ok(Data::Int(n * 2)),
        _ => Ok(Data::None),
    });
    let more = svc.with_tools(vec![(spec, double)]);
    let request = RunProgram {
        program: "double(21)".into(),
        ..RunProgram::default()
    };
    let r = more.run_program(request.clone()).await.expect("runs");
    assert!(r.success, "{:?}", r.error);
    assert_eq!(r.output_data(), Some(Data::Int(42.into())));
    assert!(more.tools().iter().any(|t| t.name == "double"));
    // The service it came from does not know the tool.
    let r = svc.run_program(request).await.expect("runs");
    assert!(!r.success);
    assert!(!svc.tools().iter().any(|t| t.name == "double"));
    // Both share one workspace.
    assert_eq!(more.workspace(), svc.workspace());
}
