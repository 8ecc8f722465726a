//! `RunOptions::output_value`: the output as a `Data` tree keeping its
//! Python forms, only when asked (every host gets the JSON text).

use lackpy_lang::{Data, NoTools, RunOptions, run};

fn run_src(src: &str, output_value: bool) -> lackpy_lang::RunOutcome {
    let module = lackpy_lang::parse(src).expect("program parses");
    let opts = RunOptions {
        output_value,
        ..RunOptions::default()
    };
    run(&module, &mut NoTools, &[], &opts)
}

#[test]
fn the_tree_keeps_tuples_and_sets_and_is_made_only_when_asked() {
    let src = "[(1, 'a'), {2}, {(3, 4): None}]";
    let out = run_src(src, true);
    assert!(out.success, "{:?}", out.error);
    assert_eq!(
        out.output_value,
        Some(Data::List(vec![
            Data::Tuple(vec![Data::Int(1.into()), Data::Str("a".into())]),
            Data::Set(vec![Data::Int(2.into())]),
            Data::Dict(vec![(
                Data::Tuple(vec![Data::Int(3.into()), Data::Int(4.into())]),
                Data::None
            )]),
        ]))
    );
    // The JSON text is the same either way.
    let plain = run_src(src, false);
    assert_eq!(plain.output_value, None);
    assert_eq!(plain.output, out.output);
    // No output, no tree.
    assert_eq!(run_src("x = 1", true).output_value, None);
}
