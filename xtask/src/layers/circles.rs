//! Import circles between the files of one crate.
//!
//! Layers order the top-level modules; inside a layer, files may still name
//! each other in a circle (`a.rs` uses `b.rs`, which uses `a.rs`), and then
//! neither can be read, changed or tested without the other. This finds
//! every such circle: the strongly connected components of the graph whose
//! nodes are files and whose edges are the paths a file names to another
//! file of its layer.
//!
//! What counts as an edge: every `crate::`, `super::` and `self::` path (as
//! for the layers) and every `use` of a child module by its bare name,
//! resolved to the file that defines the item. A path through a re-export
//! (`pub use`) is charged to the file the item comes from, and the
//! re-export itself is no edge: a `mod.rs` that only lists its children's
//! items depends on none of them. Test code (`#[cfg(test)]` items and
//! modules, and the files they name) is left out: tests may reach anywhere.

use std::collections::{HashMap, HashSet};

use super::modules::{Tok, module_paths, path_tree, resolve};

/// A set of files allowed to import each other in a circle, with the reason.
#[derive(Debug, Clone, Copy)]
pub struct AllowedCircle {
    /// The files of the circle (relative to `src/`), exactly.
    pub files: &'static [&'static str],
    /// Why it stays.
    pub reason: &'static str,
}

/// One import between files.
#[derive(Debug, Clone)]
struct Edge {
    to: usize,
    line: usize,
    shown: String,
}

/// What one file names and re-exports.
#[derive(Debug, Default)]
struct FileUses {
    /// Absolute paths it names (outside tests, re-exports excluded), with lines.
    uses: Vec<(Vec<String>, usize)>,
    /// Its re-exports: name -> absolute path (`*` globs under `*`).
    reexports: HashMap<String, Vec<String>>,
    /// The line of each re-export.
    reexport_lines: HashMap<String, usize>,
    /// Identifiers the file's own code names (outside `use` items and
    /// tests): a re-exported name among them is used here too.
    body_idents: HashSet<String>,
    /// Child modules it declares under `#[cfg(test)]`.
    test_children: Vec<String>,
}

/// Every circle among `files` (path relative to `src/` and its tokens)
/// inside one layer (`layer_of` a file), one message per circle not in
/// `allowed`. An import between layers is the layer check's business: a
/// circle through one has an upward import, reported there.
pub(super) fn find(
    package: &str,
    files: &[(&str, Vec<Tok>)],
    layer_of: &dyn Fn(&str) -> Option<usize>,
    allowed: &[AllowedCircle],
) -> Vec<String> {
    let modules = module_paths(files);
    let known: HashSet<Vec<String>> = modules.values().cloned().collect();
    let mut by_module: HashMap<Vec<String>, usize> = HashMap::new();
    let mut parsed = Vec::new();
    for (i, (path, toks)) in files.iter().enumerate() {
        let module = modules.get(*path).cloned().unwrap_or_default();
        by_module.insert(module.clone(), i);
        parsed.push(file_uses(toks, &module, &known));
    }
    let reexports: HashMap<Vec<String>, &HashMap<String, Vec<String>>> = files
        .iter()
        .zip(&parsed)
        .filter_map(|((path, _), u)| Some((modules.get(*path)?.clone(), &u.reexports)))
        .collect();
    let test_modules = declared_test_modules(files, &modules, &parsed);
    let is_test = |i: usize| {
        modules
            .get(files[i].0)
            .is_some_and(|m| test_modules.iter().any(|t| m.starts_with(t)))
    };

    let mut graph: Vec<Vec<Edge>> = vec![Vec::new(); files.len()];
    for (i, u) in parsed.iter().enumerate() {
        if is_test(i) {
            continue;
        }
        for (path, line) in &u.uses {
            let Some(to) = target_file(path, &by_module, &reexports, 0) else {
                continue;
            };
            if to == i
                || is_test(to)
                || layer_of(files[i].0) != layer_of(files[to].0)
                || graph[i].iter().any(|e| e.to == to)
            {
                continue;
            }
            graph[i].push(Edge {
                to,
                line: *line,
                shown: format!("crate::{}", path.join("::")),
            });
        }
    }

    let mut out = Vec::new();
    let mut used = vec![false; allowed.len()];
    for component in strongly_connected(&graph) {
        if component.len() < 2 {
            continue;
        }
        let mut names: Vec<&str> = component.iter().map(|&i| files[i].0).collect();
        names.sort_unstable();
        let excused = allowed.iter().position(|a| {
            let mut want: Vec<&str> = a.files.to_vec();
            want.sort_unstable();
            want == names
        });
        if let Some(k) = excused {
            used[k] = true;
            continue;
        }
        let chain = one_cycle(&graph, &component)
            .iter()
            .map(|(from, e)| format!("src/{}:{} names {}", files[*from].0, e.line, e.shown))
            .collect::<Vec<_>>()
            .join("; ");
        out.push(format!(
            "import circle: {package} files {} import each other ({chain})",
            names
                .iter()
                .map(|n| format!("src/{n}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    // A circle broken up must leave the list too, so the list stays true.
    for (a, _) in allowed.iter().zip(&used).filter(|(_, u)| !**u) {
        out.push(format!(
            "stale allowed circle: {package} lists files {} as an import circle, but they no longer form one; remove the entry from xtask/src/layers/modules.rs",
            a.files
                .iter()
                .map(|n| format!("src/{n}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    out.sort();
    out
}

/// The file that defines `path`'s item: the longest module prefix that is
/// a file, followed through that file's re-exports.
fn target_file(
    path: &[String],
    by_module: &HashMap<Vec<String>, usize>,
    reexports: &HashMap<Vec<String>, &HashMap<String, Vec<String>>>,
    depth: usize,
) -> Option<usize> {
    let k = (0..=path.len())
        .rev()
        .find(|&k| by_module.contains_key(&path[..k]))?;
    let file = by_module.get(&path[..k]).copied()?;
    if depth < 8
        && let (Some(name), Some(map)) = (path.get(k), reexports.get(&path[..k]))
        && let Some(to) = map.get(name)
    {
        let mut next = to.clone();
        next.extend(path[k + 1..].iter().cloned());
        return target_file(&next, by_module, reexports, depth + 1).or(Some(file));
    }
    Some(file)
}

/// The paths one file names, its re-exports and its test modules.
fn file_uses(toks: &[Tok], module: &[String], known: &HashSet<Vec<String>>) -> FileUses {
    let mut out = FileUses::default();
    let aliases: Vec<String> = vec!["crate".into(), "$crate".into()];
    // Inline modules: (name, brace depth inside them).
    let mut inline: Vec<(String, usize)> = Vec::new();
    // Brace depth at which test code began, if inside test code.
    let mut test_from: Option<usize> = None;
    // A `#[cfg(test)]` seen, waiting for the item it applies to.
    let mut test_pending = false;
    // Inside a `use` item: whether it is a re-export, and whether it is test code.
    let mut in_use: Option<(bool, bool)> = None;
    let mut depth = 0usize;
    let mut i = 0;
    while i < toks.len() {
        let here = || {
            let mut h = module.to_vec();
            h.extend(inline.iter().map(|(n, _)| n.clone()));
            h
        };
        // A name after `.` is a field or method, after `fn` or `mod` a
        // definition (a method or a module may share a re-exported name).
        let prev = i.checked_sub(1).and_then(|p| toks.get(p));
        if let Tok::Ident(w, _) = &toks[i]
            && in_use.is_none()
            && test_from.is_none()
            && !test_pending
            && !matches!(prev, Some(Tok::Punct('.')))
            && !matches!(prev, Some(Tok::Ident(f, _)) if f == "fn" || f == "mod")
        {
            out.body_idents.insert(w.clone());
        }
        match &toks[i] {
            Tok::Punct('#') if is_cfg_test(&toks[i..]) => {
                test_pending = true;
                i += 7;
                continue;
            }
            Tok::Punct('{') => {
                depth += 1;
                if test_pending && test_from.is_none() && in_use.is_none() {
                    test_from = Some(depth);
                }
                if in_use.is_none() {
                    test_pending = false;
                }
            }
            Tok::Punct('}') => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                if test_from == Some(depth) {
                    test_from = None;
                }
                depth = depth.saturating_sub(1);
            }
            Tok::Punct(';') => {
                in_use = None;
                test_pending = false;
            }
            Tok::Ident(w, _) if w == "mod" => {
                if let Some(Tok::Ident(name, _)) = toks.get(i + 1) {
                    match toks.get(i + 2) {
                        Some(Tok::Punct('{')) => inline.push((name.clone(), depth + 1)),
                        Some(Tok::Punct(';'))
                            if test_pending && test_from.is_none() && inline.is_empty() =>
                        {
                            out.test_children.push(name.clone());
                        }
                        _ => {}
                    }
                }
            }
            Tok::Ident(w, line) if w == "use" => {
                let reexport = is_pub_before(toks, i);
                let test = test_pending || test_from.is_some();
                in_use = Some((reexport, test));
                // A bare child module (`use code::X;`, `pub use host::Host;`).
                if let Some(Tok::Ident(first, _)) = toks.get(i + 1)
                    && !matches!(first.as_str(), "crate" | "$crate" | "super" | "self")
                {
                    let mut child = here();
                    child.push(first.clone());
                    if known.contains(&child) {
                        let (end, trees) = path_tree(toks, i + 1);
                        for (tree, alias) in trees {
                            let mut path = here();
                            path.extend(tree);
                            record(&mut out, path, alias, *line, reexport, test);
                        }
                        i = end.max(i + 1);
                        continue;
                    }
                }
            }
            Tok::Ident(w, line)
                if (aliases.contains(w) || w == "super" || w == "self")
                    && toks.get(i + 1) == Some(&Tok::PathSep)
                    && i.checked_sub(1).and_then(|p| toks.get(p)) != Some(&Tok::PathSep) =>
            {
                let (reexport, test) = in_use.unwrap_or((false, test_from.is_some()));
                let (end, trees) = path_tree(toks, i);
                for (tree, alias) in trees {
                    if let Some(path) = resolve(&tree, &here(), &aliases) {
                        record(&mut out, path, alias, *line, reexport, test);
                    }
                }
                i = end.max(i + 1);
                continue;
            }
            // A bare path into a child module in code (`alias::Alias`,
            // `ident::Id::fresh()`), which needs no `use`.
            Tok::Ident(w, line)
                if in_use.is_none()
                    && toks.get(i + 1) == Some(&Tok::PathSep)
                    && prev != Some(&Tok::PathSep)
                    && known.contains(&[here(), vec![w.clone()]].concat()) =>
            {
                let test = test_pending || test_from.is_some();
                let (end, trees) = path_tree(toks, i);
                for (tree, alias) in trees {
                    let mut path = here();
                    path.extend(tree);
                    record(&mut out, path, alias, *line, false, test);
                }
                i = end.max(i + 1);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    // A re-export is no edge by itself, but a re-exported name the file's
    // own code uses is an import like any other.
    for (name, path) in &out.reexports {
        if out.body_idents.contains(name) {
            let line = out.reexport_lines.get(name).copied().unwrap_or(0);
            out.uses.push((path.clone(), line));
        }
    }
    out
}

/// Files one named path under the right heading.
fn record(
    out: &mut FileUses,
    path: Vec<String>,
    alias: Option<String>,
    line: usize,
    reexport: bool,
    test: bool,
) {
    if test {
        return;
    }
    if reexport {
        if let Some(name) = alias.or_else(|| path.last().cloned())
            && name != "*"
        {
            out.reexport_lines.insert(name.clone(), line);
            out.reexports.insert(name, path);
        }
    } else {
        out.uses.push((path, line));
    }
}

/// The modules declared under `#[cfg(test)]` in files of their own
/// (`#[cfg(test)] mod tests;`, a `#[path]` too): test code, everything
/// inside them. `files` and their modules as [`module_paths`] gives them.
pub(super) fn test_modules(
    files: &[(&str, Vec<Tok>)],
    modules: &HashMap<String, Vec<String>>,
) -> Vec<Vec<String>> {
    let known: HashSet<Vec<String>> = modules.values().cloned().collect();
    let parsed: Vec<FileUses> = files
        .iter()
        .map(|(path, toks)| {
            let module = modules.get(*path).cloned().unwrap_or_default();
            file_uses(toks, &module, &known)
        })
        .collect();
    declared_test_modules(files, modules, &parsed)
}

/// [`test_modules`] from files already read.
fn declared_test_modules(
    files: &[(&str, Vec<Tok>)],
    modules: &HashMap<String, Vec<String>>,
    parsed: &[FileUses],
) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for ((path, _), u) in files.iter().zip(parsed) {
        let Some(base) = modules.get(*path) else {
            continue;
        };
        for child in &u.test_children {
            let mut m = base.clone();
            m.push(child.clone());
            out.push(m);
        }
    }
    out
}

/// `#[cfg(test)]` at the start of `toks`.
pub(super) fn is_cfg_test(toks: &[Tok]) -> bool {
    matches!(
        toks,
        [
            Tok::Punct('#'),
            Tok::Punct('['),
            Tok::Ident(cfg, _),
            Tok::Punct('('),
            Tok::Ident(test, _),
            Tok::Punct(')'),
            Tok::Punct(']'),
            ..
        ] if cfg == "cfg" && test == "test"
    )
}

/// Whether the `use` at `i` is public (`pub use`, `pub(crate) use`, …).
fn is_pub_before(toks: &[Tok], i: usize) -> bool {
    let before = |k: usize| i.checked_sub(k).and_then(|j| toks.get(j));
    match before(1) {
        Some(Tok::Ident(w, _)) => w == "pub",
        Some(Tok::Punct(')')) => {
            (2..6).any(|k| matches!(before(k), Some(Tok::Ident(w, _)) if w == "pub"))
        }
        _ => false,
    }
}

/// The strongly connected components of `graph` (Tarjan's algorithm,
/// iterative so a long chain cannot overflow the stack).
fn strongly_connected(graph: &[Vec<Edge>]) -> Vec<Vec<usize>> {
    let n = graph.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut out = Vec::new();
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        // (node, next edge to look at)
        let mut work = vec![(root, 0usize)];
        while let Some(&mut (v, ref mut e)) = work.last_mut() {
            if *e == 0 && index[v] == usize::MAX {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(edge) = graph[v].get(*e) {
                *e += 1;
                let w = edge.to;
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                out.push(component);
            }
        }
    }
    out
}

/// One shortest cycle through the first file of `component`, as the edges
/// taken (from, edge).
fn one_cycle<'g>(graph: &'g [Vec<Edge>], component: &[usize]) -> Vec<(usize, &'g Edge)> {
    let inside: HashSet<usize> = component.iter().copied().collect();
    let Some(&start) = component.iter().min() else {
        return Vec::new();
    };
    // Breadth-first from start, back to start.
    let mut came: HashMap<usize, (usize, &Edge)> = HashMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(v) = queue.pop_front() {
        for e in &graph[v] {
            if !inside.contains(&e.to) || came.contains_key(&e.to) {
                continue;
            }
            came.insert(e.to, (v, e));
            if e.to == start {
                let mut chain = Vec::new();
                let mut cur = start;
                while let Some(&(from, edge)) = came.get(&cur) {
                    chain.push((from, edge));
                    cur = from;
                    if cur == start {
                        break;
                    }
                }
                chain.reverse();
                return chain;
            }
            queue.push_back(e.to);
        }
    }
    Vec::new()
}
