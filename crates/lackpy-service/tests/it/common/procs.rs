//! Processes as Linux's /proc shows them: what the tests use to check that
//! lackpy leaves no child behind.

/// `(pid, state)` of every live process whose parent is `parent`.
pub fn children_of(parent: u32) -> Vec<(u32, char)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // "pid (comm) state ppid …": comm may hold spaces and parentheses.
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let mut fields = rest.split_whitespace();
        let state = fields.next().and_then(|s| s.chars().next()).unwrap_or('?');
        if fields.next().and_then(|p| p.parse::<u32>().ok()) == Some(parent) {
            out.push((pid, state));
        }
    }
    out
}

/// The child processes of `pid`, recursively.
pub fn descendants(pid: u32) -> Vec<u32> {
    let mut all = Vec::new();
    let mut frontier = vec![pid];
    while let Some(p) = frontier.pop() {
        for (child, _) in children_of(p) {
            frontier.push(child);
            all.push(child);
        }
    }
    all
}

/// Whether `pid` is a live (not zombie) process.
pub fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            s.rsplit_once(')')
                .map(|(_, rest)| !rest.trim_start().starts_with('Z'))
        })
        .unwrap_or(false)
}
