// Glob patterns in a HelmUnit's valueFiles, as Argo CD 3.5 expands them (reposerver getResolvedValueFiles, through
// bmatcuk/doublestar's FilepathGlob): an entry holding `*`, `?` or `[` is a pattern over the commit's files, resolved
// like any value file (from the chart, or from the root with a leading '/'). `*` and `?` stay within a path segment,
// `[a-z]`, `[!x]` and `[^x]` are character classes, `\` escapes, and a `**` segment spans zero or more folders. Its
// matches go in place of the entry, each folder's own files (by name) before those of its subfolders (by name, depth
// first), as doublestar walks them. A file is passed once: an entry listed explicitly is left out of every pattern and
// keeps its own place; a file two patterns match keeps the first one's. A pattern that matches nothing is an error
// unless ignoreMissingValueFiles is set.

/** Whether a value file as written is a pattern (Argo CD's isGlobPath). */
export function isValueFileGlob(path: string): boolean {
  return /[*?[]/.test(path);
}

/**
 * Why Flotilla cannot expand a pattern as Argo CD would (pure): `{a,b}` alternatives (doublestar has them; list the
 * files or patterns instead), and a pattern ending in `**`, which names folders too (helm refuses a folder as values).
 */
export function valueFileGlobRefusal(pattern: string): { message: string; fix: string } | undefined {
  if (/(^|[^\\])[{}]/.test(pattern))
    return {
      message: `${pattern}: alternatives ({a,b}) in a value file pattern are not supported`,
      fix: 'list one pattern or file per alternative in spec.valueFiles',
    };
  if (/(^|\/)\*\*$/.test(pattern))
    return {
      message: `${pattern} ends in **, which matches folders too, and helm takes files only as values`,
      fix: `end the pattern with a file pattern (${pattern}/*.yaml)`,
    };
  return undefined;
}

/**
 * The files of `paths` (repository paths) a resolved pattern matches, in doublestar's order (pure). `paths` may be in
 * any order; folders are implied by them.
 */
export function matchValueFileGlob(pattern: string, paths: Iterable<string>): string[] {
  const segments = pattern.split('/').filter((s) => s !== '');
  const matchers = segments.map((s) => (s === '**' ? '**' : segmentRegExp(s)));
  const out: string[] = [];
  for (const p of paths) if (matchSegments(matchers, p.split('/'), 0, 0)) out.push(p);
  return out.sort(compareWalkOrder);
}

/**
 * The value files helm is given, in order (pure): each entry resolved (`resolve`: undefined when it cannot be, refused
 * elsewhere), patterns expanded over `paths`, every file once, as getResolvedValueFiles does. `missing` are the
 * patterns that matched nothing (an error unless ignoreMissingValueFiles). Entries that are no pattern come out as
 * resolved, present or not: their absence is checked where the commit is known.
 */
export function expandValueFiles(
  written: readonly string[],
  resolve: (written: string) => string | undefined,
  paths: readonly string[],
): { files: string[]; missing: string[] } {
  const explicit = new Set<string>();
  for (const w of written) {
    const resolved = resolve(w);
    if (resolved !== undefined && !isValueFileGlob(resolved)) explicit.add(resolved);
  }
  const files: string[] = [];
  const seen = new Set<string>();
  const add = (p: string) => {
    if (seen.has(p)) return;
    seen.add(p);
    files.push(p);
  };
  const missing: string[] = [];
  for (const w of written) {
    const resolved = resolve(w);
    if (resolved === undefined) continue;
    if (!isValueFileGlob(resolved)) {
      add(resolved);
      continue;
    }
    if (valueFileGlobRefusal(resolved)) continue;
    const matches = matchValueFileGlob(resolved, paths);
    if (matches.length === 0) missing.push(w);
    for (const m of matches) if (!explicit.has(m)) add(m);
  }
  return { files, missing };
}

/** Whether a changed path could change what a resolved pattern matches. */
export function mayMatchValueFileGlob(pattern: string, path: string): boolean {
  return matchValueFileGlob(pattern, [path]).length > 0;
}

type SegmentMatcher = RegExp | '**';

function matchSegments(matchers: readonly SegmentMatcher[], parts: readonly string[], i: number, j: number): boolean {
  if (i === matchers.length) return j === parts.length;
  const m = matchers[i]!;
  if (m === '**') {
    // Zero or more folders; the last part is the file name, which a later segment must match.
    for (let k = j; k < parts.length; k++) if (matchSegments(matchers, parts, i + 1, k)) return true;
    return false;
  }
  return j < parts.length && m.test(parts[j]!) && matchSegments(matchers, parts, i + 1, j + 1);
}

/** One path segment's pattern as a regular expression: `*` (and a `**` within a segment) any run, `?` one character. */
function segmentRegExp(segment: string): RegExp {
  let re = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === '\\' && i + 1 < segment.length) re += escapeRegExp(segment[++i]!);
    else if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const end = segment.indexOf(']', i + 2);
      if (end < 0) {
        re += '\\[';
        continue;
      }
      let body = segment.slice(i + 1, end);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      re += `[${negated ? '^' : ''}${body.replace(/\\/g, '\\\\').replace(/\]/g, '\\]')}]`;
      i = end;
    } else re += escapeRegExp(c);
  }
  return new RegExp(`^${re}$`, 's');
}

function escapeRegExp(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** doublestar's order: by folder, depth first with each folder's own files first, names compared bytewise. */
function compareWalkOrder(a: string, b: string): number {
  const pa = a.split('/');
  const pb = b.split('/');
  const da = pa.length - 1;
  const db = pb.length - 1;
  for (let k = 0; k < Math.min(da, db); k++) if (pa[k] !== pb[k]) return pa[k]! < pb[k]! ? -1 : 1;
  if (da !== db) return da < db ? -1 : 1; // a folder's own files before its subfolders'
  return pa[da]! < pb[db]! ? -1 : pa[da]! > pb[db]! ? 1 : 0;
}
