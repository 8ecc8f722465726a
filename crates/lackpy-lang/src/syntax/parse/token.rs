//! Token kinds and the compact token record the parser reads.
//!
//! Tokens are small `Copy` records holding byte offsets into the source,
//! so tokenizing allocates one `Vec` and no strings.

/// Token kinds: Python 3.11's token types, with keywords split out so the
/// parser can match on them directly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tok {
    Name,
    Number,
    String,
    Newline,
    Indent,
    Dedent,
    EndMarker,
    /// A character that is no token (`$`, `?`, `!`, `` ` ``): the parser
    /// reports `invalid syntax` when it reaches it, as CPython does.
    Unknown,
    // Keywords.
    False,
    None,
    True,
    And,
    As,
    Assert,
    Async,
    Await,
    Break,
    Class,
    Continue,
    Def,
    Del,
    Elif,
    Else,
    Except,
    Finally,
    For,
    From,
    Global,
    If,
    Import,
    In,
    Is,
    Lambda,
    Nonlocal,
    Not,
    Or,
    Pass,
    Raise,
    Return,
    Try,
    While,
    With,
    Yield,
    // Operators and delimiters.
    LPar,
    RPar,
    LSqb,
    RSqb,
    LBrace,
    RBrace,
    Colon,
    Comma,
    Semi,
    Plus,
    Minus,
    Star,
    Slash,
    VBar,
    Amper,
    Less,
    Greater,
    Equal,
    Dot,
    Percent,
    EqEqual,
    NotEqual,
    LessEqual,
    GreaterEqual,
    Tilde,
    Circumflex,
    LeftShift,
    RightShift,
    DoubleStar,
    PlusEqual,
    MinEqual,
    StarEqual,
    SlashEqual,
    PercentEqual,
    AmperEqual,
    VBarEqual,
    CircumflexEqual,
    LeftShiftEqual,
    RightShiftEqual,
    DoubleStarEqual,
    DoubleSlash,
    DoubleSlashEqual,
    At,
    AtEqual,
    RArrow,
    Ellipsis,
    ColonEqual,
}

/// One token: its kind, the line and column it starts at and its byte span.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Token {
    pub kind: Tok,
    pub line: u32,
    /// CPython's `col_offset`: UTF-8 bytes between the start of `line` and
    /// the token (in an f-string field, counted in the enclosing source).
    pub col: u32,
    pub start: u32,
    pub end: u32,
}

impl Token {
    /// Where the token starts.
    #[inline]
    pub fn pos(self) -> Pos {
        Pos {
            line: self.line,
            col: self.col,
        }
    }
}

/// A position in the source: a 1-based line and CPython's 0-based
/// `col_offset` (UTF-8 bytes from the start of the line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pos {
    pub line: u32,
    pub col: u32,
}

/// Maps an identifier to its keyword token, if it is one.
pub(crate) fn keyword(s: &[u8]) -> Option<Tok> {
    Some(match s {
        b"False" => Tok::False,
        b"None" => Tok::None,
        b"True" => Tok::True,
        b"and" => Tok::And,
        b"as" => Tok::As,
        b"assert" => Tok::Assert,
        b"async" => Tok::Async,
        b"await" => Tok::Await,
        b"break" => Tok::Break,
        b"class" => Tok::Class,
        b"continue" => Tok::Continue,
        b"def" => Tok::Def,
        b"del" => Tok::Del,
        b"elif" => Tok::Elif,
        b"else" => Tok::Else,
        b"except" => Tok::Except,
        b"finally" => Tok::Finally,
        b"for" => Tok::For,
        b"from" => Tok::From,
        b"global" => Tok::Global,
        b"if" => Tok::If,
        b"import" => Tok::Import,
        b"in" => Tok::In,
        b"is" => Tok::Is,
        b"lambda" => Tok::Lambda,
        b"nonlocal" => Tok::Nonlocal,
        b"not" => Tok::Not,
        b"or" => Tok::Or,
        b"pass" => Tok::Pass,
        b"raise" => Tok::Raise,
        b"return" => Tok::Return,
        b"try" => Tok::Try,
        b"while" => Tok::While,
        b"with" => Tok::With,
        b"yield" => Tok::Yield,
        _ => return None,
    })
}
