//! Specs from `tools/list` and calls through the `Tool` interface against
//! the real test server: names, argument order and types, grades, config
//! overrides, every result shape, errors and the size cap.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::time::{Duration, Instant};

use common::*;
use lackpy_lang::{Data, Grade};
use lackpy_mcp_client::{McpClientOptions, ServerState};
use lackpy_sources::{GradeOverride, Level, McpToolOverride};
use lackpy_sources::{ToolErrorKind, ToolSource};

fn dict(pairs: Vec<(&str, Data)>) -> Data {
    Data::Dict(pairs.into_iter().map(|(k, v)| (s(k), v)).collect())
}

#[test]
fn specs_follow_the_schema_annotations_and_overrides() {
    runtime().block_on(async {
        let mut d = test_server("t", &[]);
        d.exclude = vec!["crash".into()];
        d.tool_overrides = vec![
            (
                "no_hints".into(),
                McpToolOverride {
                    grade: Some(GradeOverride {
                        w: Some(Level(1)),
                        d: None,
                    }),
                    description: Some("Overridden".into()),
                    examples: Vec::new(),
                },
            ),
            (
                "get_sum".into(),
                McpToolOverride {
                    grade: Some(GradeOverride {
                        w: Some(Level(0)),
                        d: Some(Level(0)),
                    }),
                    ..McpToolOverride::default()
                },
            ),
        ];
        let (client, source) = start_one(d, options()).await;
        assert!(source.available(), "{:?}", source.status());
        let specs = source.discover();
        let spec = |n: &str| {
            specs
                .iter()
                .find(|s| s.name == n)
                .unwrap_or_else(|| panic!("no spec {n}"))
                .clone()
        };

        // Every page was listed (28 tools, 5 a page), minus excluded and skipped.
        assert_eq!(
            specs.len(),
            26,
            "{:?}",
            specs.iter().map(|s| &s.name).collect::<Vec<_>>()
        );
        assert!(specs.iter().all(|s| s.name != "crash" && s.name != "print"));
        let skipped = source.skipped_tools();
        assert_eq!(skipped.len(), 1);
        assert!(skipped[0].server_name == "print" && skipped[0].reason.contains("builtin"));

        let echo = spec("echo");
        assert_eq!(echo.provider.to_string(), "mcp:t");
        assert_eq!(echo.description, "Echo a message back");
        assert_eq!(
            echo.docs.as_deref(),
            Some("Echo a message back\nSecond line of docs.")
        );
        assert_eq!(echo.args.len(), 1);
        assert_eq!(
            (
                echo.args[0].name.as_str(),
                echo.args[0].type_name.as_str(),
                echo.args[0].required
            ),
            ("message", "str", true)
        );
        assert_eq!(echo.args[0].description, "What to echo");

        // Property order as the server wrote it: not sorted, not required first.
        let ordered: Vec<(String, String, bool)> = spec("ordered")
            .args
            .iter()
            .map(|a| (a.name.clone(), a.type_name.clone(), a.required))
            .collect();
        assert_eq!(
            ordered,
            [
                ("zeta".into(), "str".into(), false),
                ("alpha".into(), "int".into(), false),
                ("mid".into(), "bool".into(), true)
            ]
        );

        // The annotation table.
        assert_eq!(spec("ro_closed").grade, Grade::new(1, 0));
        assert_eq!(spec("ro_open").grade, Grade::new(2, 1));
        assert_eq!(spec("write_idempotent").grade, Grade::new(3, 2));
        assert_eq!(spec("write_destructive").grade, Grade::new(3, 3));
        assert_eq!(spec("ro_no_world").grade, Grade::new(3, 3));
        // Overrides: partial fills from the derived grade; by either name.
        assert_eq!(spec("no_hints").grade, Grade::new(1, 3));
        assert_eq!(spec("no_hints").description, "Overridden");
        assert_eq!(spec("get_sum").grade, Grade::new(0, 0));

        // Typed signatures from the schemas: enum with a default, `$ref`,
        // optional union, array, nested object, and the `outputSchema`.
        assert_eq!(
            spec("convert").signature(),
            "convert(amount: float, unit: Literal['c', 'f'] = 'c', to: Literal['c', 'f', 'k'], \
             digits: int | None = None, tags: list[str] = None, options: {'strict': bool} = None) \
             -> {'value': float, 'unit': str}"
        );
        assert_eq!(spec("add").signature(), "add(a: int, b: int) -> int");
        // Where each grade comes from.
        let why = |n: &str| source.grade_reason(n).unwrap_or_default();
        assert_eq!(
            why("ro_closed"),
            "annotation hints: readOnlyHint=true, openWorldHint=false"
        );
        assert_eq!(why("echo"), "no annotation hints: the (3, 3) worst case");
        assert_eq!(
            why("ro_no_world"),
            "annotation hints (readOnlyHint=true) do not settle it: the (3, 3) worst case"
        );
        assert!(
            why("get_sum").starts_with("config override [mcp_servers.t.tools."),
            "{}",
            why("get_sum")
        );

        let names = source.tool_names();
        assert!(
            names
                .iter()
                .any(|n| n.name == "get_sum" && n.server_name == "get-sum")
        );
        let status = source.status();
        assert_eq!(status.state, ServerState::Ready);
        assert_eq!(status.server_name.as_deref(), Some("lackpy-test-server"));
        assert_eq!(status.protocol_version.as_deref(), Some("2026-07-28"));
        client.shutdown().await;
    });
}

#[test]
fn include_lists_and_the_legacy_handshake() {
    runtime().block_on(async {
        let mut d = test_server("legacy", &["--legacy"]);
        d.include = Some(vec!["echo".into(), "get_sum".into()]);
        let (client, source) = start_one(d, options()).await;
        let names: Vec<String> = source.discover().into_iter().map(|s| s.name).collect();
        assert_eq!(names, ["echo", "get_sum"]);
        // The server rejected `server/discover`: the session used `initialize`.
        let status = source.status();
        assert_eq!(
            status.protocol_version.as_deref(),
            Some("2025-11-25"),
            "{status:?}"
        );
        assert_eq!(call(&source, "get_sum", vec![i(2), i(3)]).await, Ok(s("5")));
        client.shutdown().await;
    });
}

#[test]
fn arguments_map_positionally_and_by_keyword() {
    runtime().block_on(async {
        let (client, source) = start_one(test_server("t", &[]), options()).await;
        assert_eq!(call(&source, "echo", vec![s("hi")]).await, Ok(s("hi")));
        assert_eq!(call(&source, "add", vec![i(2), i(40)]).await, Ok(i(42)));
        // Positional args follow the schema's order (zeta, alpha, mid); the
        // server echoes the arguments in the order they arrived.
        assert_eq!(
            call(&source, "ordered", vec![s("z"), i(1), Data::Bool(true)]).await,
            Ok(s(r#"{"zeta":"z","alpha":1,"mid":true}"#))
        );
        let kw = call_kw(
            &source,
            "ordered",
            vec![s("z")],
            vec![("mid".into(), Data::Bool(false))],
            &ctx(),
        )
        .await;
        assert_eq!(kw, Ok(s(r#"{"zeta":"z","mid":false}"#)));

        let too_many = call(&source, "echo", vec![s("a"), s("b")])
            .await
            .unwrap_err();
        assert_eq!(too_many.error_type(), "TypeError");
        assert_eq!(
            too_many.message(),
            "echo() takes 1 positional argument but 2 were given"
        );
        let missing = call(&source, "add", vec![i(1)]).await.unwrap_err();
        assert_eq!(
            missing.message(),
            "add() missing 1 required positional argument: 'b'"
        );
        let unknown = call_kw(&source, "echo", vec![], vec![("nope".into(), i(1))], &ctx())
            .await
            .unwrap_err();
        assert_eq!(unknown.error_type(), "TypeError");
        // A schema without properties takes keywords as they come.
        assert_eq!(call(&source, "cancellations", vec![]).await, Ok(i(0)));
        let nan = call(&source, "echo", vec![Data::Float(f64::NAN)])
            .await
            .unwrap_err();
        assert_eq!(nan.error_type(), "ValueError");
        client.shutdown().await;
    });
}

#[test]
fn every_result_shape_converts() {
    runtime().block_on(async {
        let (client, source) = start_one(test_server("t", &[]), options()).await;
        assert_eq!(
            call(&source, "structured", vec![]).await,
            Ok(dict(vec![
                ("x", i(1)),
                ("y", Data::List(vec![i(1), i(2)])),
                ("z", dict(vec![("k", Data::None)]))
            ]))
        );
        assert_eq!(
            call(&source, "wrapped", vec![]).await,
            Ok(Data::List(vec![i(1), i(2), i(3)]))
        );
        assert_eq!(
            call(&source, "texts", vec![]).await,
            Ok(Data::List(vec![s("a"), s("b"), s("c")]))
        );
        assert_eq!(
            call(&source, "image", vec![]).await,
            Ok(Data::List(vec![dict(vec![
                ("type", s("image")),
                ("mimeType", s("image/png")),
                ("data", s("iVBORw0KGgo="))
            ])]))
        );
        assert_eq!(
            call(&source, "mixed", vec![]).await,
            Ok(Data::List(vec![
                dict(vec![
                    ("type", s("audio")),
                    ("mimeType", s("audio/wav")),
                    ("data", s("UklGRg=="))
                ]),
                dict(vec![
                    ("type", s("resource_link")),
                    ("mimeType", s("text/plain")),
                    ("uri", s("file:///tmp/a.txt"))
                ]),
                dict(vec![
                    ("type", s("resource")),
                    ("mimeType", s("text/plain")),
                    ("uri", s("file:///tmp/b.txt")),
                    ("text", s("hello"))
                ]),
            ]))
        );
        // Text beside an image: the image is noted, its bytes not kept.
        assert_eq!(
            call(&source, "captioned", vec![]).await,
            Ok(Data::List(vec![
                s("a small picture"),
                dict(vec![
                    ("type", s("image")),
                    ("mimeType", s("image/png")),
                    ("omitted_bytes", Data::Int(8.into()))
                ]),
            ]))
        );
        assert_eq!(call(&source, "nothing", vec![]).await, Ok(Data::None));
        let fail = call(&source, "fail", vec![]).await.unwrap_err();
        assert_eq!(
            (fail.error_type(), fail.message()),
            ("RuntimeError", "it failed; badly")
        );
        client.shutdown().await;
    });
}

#[test]
fn responses_over_the_cap_fail_fast_and_the_session_lives_on() {
    runtime().block_on(async {
        let opts = McpClientOptions {
            response_cap: 1024 * 1024,
            ..options()
        };
        let (client, source) = start_one(test_server("t", &[]), opts).await;
        let started = Instant::now();
        let err = call(&source, "huge", vec![Data::Float(3.0)])
            .await
            .unwrap_err();
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "took {:?}",
            started.elapsed()
        );
        assert_eq!(err.kind(), ToolErrorKind::Failed);
        assert!(
            err.message()
                .contains("exceeds the size cap of 1048576 bytes"),
            "{}",
            err.message()
        );
        // Just under the cap is fine, and the session still works.
        let ok = call(&source, "huge", vec![Data::Float(0.5)]).await.unwrap();
        assert!(matches!(ok, Data::Str(t) if t.len() == 512 * 1024));
        assert_eq!(
            call(&source, "echo", vec![s("still here")]).await,
            Ok(s("still here"))
        );
        client.shutdown().await;
    });
}

#[test]
fn replies_no_parser_reads_fail_the_call_at_once() {
    runtime().block_on(async {
        let mut d = test_server("t", &[]);
        // Far longer than the test may take: the answer must not wait for it.
        d.call_timeout = Some(Duration::from_secs(60));
        let (client, source) = start_one(d, options()).await;
        for (tool, reason) in [
            ("nan", "expected value"),
            ("deep", "recursion limit exceeded"),
        ] {
            let started = Instant::now();
            let err = call(&source, tool, vec![]).await.unwrap_err();
            assert!(
                started.elapsed() < Duration::from_secs(5),
                "{tool} took {:?}",
                started.elapsed()
            );
            assert_eq!(err.kind(), ToolErrorKind::Failed, "{}", err.message());
            assert!(
                err.message().starts_with(&format!(
                    "MCP tool '{tool}' on server 't': protocol error: the server's response could not be read: "
                )) && err.message().contains(reason),
                "{}",
                err.message()
            );
        }
        // The session goes on.
        assert_eq!(call(&source, "echo", vec![s("after")]).await, Ok(s("after")));
        assert_eq!(source.status().sessions, 1);
        client.shutdown().await;
    });
}

#[test]
fn chatty_stderr_never_stalls_the_server() {
    runtime().block_on(async {
        let (client, source) =
            start_one(test_server("t", &["--chatty-kb", "512"]), options()).await;
        assert!(source.available(), "{:?}", source.status());
        for _ in 0..4 {
            assert_eq!(call(&source, "chatter", vec![i(256)]).await, Ok(s("ok")));
        }
        assert_eq!(call(&source, "echo", vec![s("x")]).await, Ok(s("x")));
        client.shutdown().await;
    });
}

#[test]
fn eight_callers_overlap_on_one_session() {
    runtime().block_on(async {
        let (client, source) = start_one(test_server("t", &[]), options()).await;
        let started = Instant::now();
        let calls: Vec<_> = (0..8)
            .map(|_| {
                let src = source.clone();
                tokio::spawn(async move { call(&src, "slow", vec![i(300)]).await })
            })
            .collect();
        for c in calls {
            assert_eq!(c.await.unwrap(), Ok(s("slept 300 ms")));
        }
        // In sequence: 2.4 s. Overlapped on one session: about 0.3 s.
        let took = started.elapsed();
        assert!(took < Duration::from_millis(800), "took {took:?}");
        assert_eq!(source.status().sessions, 1);
        client.shutdown().await;
    });
}
