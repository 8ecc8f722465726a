//! The help texts' prose: what lackpy is for, and an example per command.
//! `tools`, `spec` and `stubs` keep their own texts beside their arguments.

/// `lackpy -h`: one line on what lackpy is for.
pub const ABOUT: &str = "Run tool compositions written in a tiny restricted Python: one program \
calls your tools instead of many round-trips";

/// `lackpy --help`: what lackpy is for, before the commands.
pub const LONG_ABOUT: &str = "\
lackpy runs small programs in a restricted Python whose only powers are the
tools you give it: the shipped file tools, commands and MCP servers from
.lackpy/config.toml. An agent host (over `lackpy mcp serve`) or you write
one program that calls several tools, instead of calling them one by one;
every run is validated first, bounded, and traced call by call.";

/// `lackpy --help`: where to start.
pub const MAIN: &str = "\
Examples:
  lackpy run prog.lpy                          run a program (-v shows its tool calls)
  lackpy delegate \"read file notes.md\"         write a program for an intent, then run it
  lackpy mcp init --host claude-code           let an agent host call lackpy over MCP
  lackpy status                                the config, tools and models lackpy sees here";

/// `lackpy run --help`.
pub const RUN: &str = "\
Examples:
  lackpy run prog.lpy --param path=notes.md
  echo 'print(len(find_files(\"*.md\")))' | lackpy -v run -
  lackpy --workspace ~/project run prog.lpy --json";

/// `lackpy resume --help`.
pub const RESUME: &str = "\
Example:
  lackpy resume r3f9c0a1b2d4e6f70 --approve    (the id `lackpy runs` lists)";

/// `lackpy runs --help`.
pub const RUNS: &str = "\
Example:
  lackpy runs --json";

/// `lackpy validate --help`.
pub const VALIDATE: &str = "\
Example:
  lackpy validate prog.lpy --tools read_file,find_files";

/// `lackpy status --help`.
pub const STATUS: &str = "\
Example:
  lackpy --workspace ~/project status";

/// `lackpy init --help`.
pub const INIT: &str = "\
Example:
  lackpy init && $EDITOR .lackpy/config.toml";

/// `lackpy delegate --help`.
pub const DELEGATE: &str = "\
Example:
  lackpy -v delegate \"count the words in notes.txt\"";

/// `lackpy generate --help`.
pub const GENERATE: &str = "\
Example:
  lackpy generate \"list all python files\" > list.lpy";

/// `lackpy template --help` and `lackpy template create --help`.
pub const TEMPLATE: &str = "\
Example:
  lackpy template create count-words --pattern \"count words in {path}\" count.lpy";

/// `lackpy template list --help`.
pub const TEMPLATE_LIST: &str = "\
Example:
  lackpy template list --json";

/// `lackpy mcp --help`.
pub const MCP: &str = "\
Examples:
  lackpy mcp init --host cursor
  lackpy mcp serve --http 8765";

/// `lackpy mcp init --help`.
pub const MCP_INIT: &str = "\
Examples:
  lackpy mcp init                      add lackpy to ./.mcp.json (Claude Code)
  lackpy mcp init --host vscode        add it to ./.vscode/mcp.json
  lackpy mcp init --host claude-desktop --print";
