//! `CallerThreadRuns`: a run polled on a thread that asked for it
//! interprets there, every tool call included; otherwise its calls happen
//! on an interpreter thread.

use std::sync::{Arc, Mutex};
use std::thread::ThreadId;

use lackpy_bridge::{Bridge, BridgeConfig, CallerThreadRuns, NamespaceTool, RunRequest};
use lackpy_lang::{Data, Grade};
use lackpy_sources::{Tool, ToolAnswer, tool_fn};

fn recording(seen: &Arc<Mutex<Vec<ThreadId>>>) -> NamespaceTool {
    let seen = Arc::clone(seen);
    let imp: Arc<dyn Tool> = tool_fn(move |_args, _kw, _ctx| {
        seen.lock().expect("lock").push(std::thread::current().id());
        Ok(Data::Int(1.into()))
    });
    NamespaceTool::new("where", Vec::new(), Grade::new(0, 0), imp)
}

/// A tool whose answer comes later, from the runtime.
fn later() -> NamespaceTool {
    struct Later;
    impl Tool for Later {
        fn call(
            &self,
            _a: Vec<Data>,
            _k: Vec<(String, Data)>,
            _c: &lackpy_sources::CallContext,
        ) -> ToolAnswer {
            ToolAnswer::Pending(Box::pin(async {
                tokio::time::sleep(std::time::Duration::from_millis(5)).await;
                Ok(Data::Int(2.into()))
            }))
        }
    }
    NamespaceTool::new("later", Vec::new(), Grade::new(0, 0), Arc::new(Later))
}

fn request(seen: &Arc<Mutex<Vec<ThreadId>>>) -> RunRequest {
    let module = lackpy_lang::parse("where() + where() + later()").expect("parses");
    RunRequest::new(
        Arc::new(module),
        vec![recording(seen), later()],
        std::env::temp_dir(),
    )
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime")
}

#[test]
fn a_run_polled_under_the_guard_calls_its_tools_on_the_callers_thread() {
    let rt = runtime();
    let bridge = Bridge::new(BridgeConfig::default());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let result = {
        let _here = CallerThreadRuns::enter();
        rt.block_on(bridge.run(request(&seen)))
    };
    assert!(result.success, "{:?}", result.error);
    assert_eq!(result.output_data(), Some(Data::Int(4.into())));
    let me = std::thread::current().id();
    assert_eq!(*seen.lock().expect("lock"), vec![me, me]);
}

#[test]
fn without_the_guard_tools_run_on_an_interpreter_thread() {
    let rt = runtime();
    let bridge = Bridge::new(BridgeConfig::default());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let result = rt.block_on(bridge.run(request(&seen)));
    assert!(result.success, "{:?}", result.error);
    let me = std::thread::current().id();
    assert!(seen.lock().expect("lock").iter().all(|t| *t != me));
}
