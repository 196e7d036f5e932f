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
  const matchers = segments.map((s): SegmentMatcher => (s === '**' ? '**' : segmentMatcher(s)));
  const out: string[] = [];
  for (const p of paths) if (matchSegments(matchers, p.split('/'))) out.push(p);
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

/**
 * One path segment's pattern, matched without backtracking (a pattern is pull-request input: `*a*a*a*c` as a regular
 * expression takes exponential time on a long name), or `**`, zero or more folders.
 */
type SegmentMatcher = ((name: string) => boolean) | '**';

/** Whether the parts match the matchers; each (segment, part) pair is tried once, so `**` segments cost no more than their product. */
function matchSegments(matchers: readonly SegmentMatcher[], parts: readonly string[]): boolean {
  const failed = new Set<number>();
  const width = parts.length + 1;
  const match = (i: number, j: number): boolean => {
    if (i === matchers.length) return j === parts.length;
    if (failed.has(i * width + j)) return false;
    const m = matchers[i]!;
    let found: boolean;
    if (m === '**') {
      // Zero or more folders; the last part is the file name, which a later segment must match.
      found = false;
      for (let k = j; k < parts.length && !found; k++) found = match(i + 1, k);
    } else found = j < parts.length && m(parts[j]!) && match(i + 1, j + 1);
    if (!found) failed.add(i * width + j);
    return found;
  };
  return match(0, 0);
}

/** A pattern's pieces within one segment: any run (`*`, a `**` within a segment too), one character, or a class. */
type Piece = { run: true } | { one: (c: string) => boolean };

/** One segment's pattern as a matcher: `*` any run, `?` one character, `[...]` a class, `\` escapes the next. */
function segmentMatcher(segment: string): (name: string) => boolean {
  const pieces: Piece[] = [];
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === '\\' && i + 1 < segment.length) {
      const literal = segment[++i]!;
      pieces.push({ one: (x) => x === literal });
    } else if (c === '*') {
      if (!('run' in (pieces.at(-1) ?? {}))) pieces.push({ run: true });
    } else if (c === '?') pieces.push({ one: () => true });
    else if (c === '[') {
      const end = segment.indexOf(']', i + 2);
      if (end < 0) {
        pieces.push({ one: (x) => x === '[' });
        continue;
      }
      let body = segment.slice(i + 1, end);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      // One character class alone cannot backtrack.
      const cls = new RegExp(`^[${negated ? '^' : ''}${body.replace(/\\/g, '\\\\').replace(/\]/g, '\\]')}]$`, 's');
      pieces.push({ one: (x) => cls.test(x) });
      i = end;
    } else pieces.push({ one: (x) => x === c });
  }
  return (name) => matchPieces(pieces, [...name]);
}

/**
 * Wildcard matching in time proportional to the name's length times the pattern's: on a mismatch only the last run
 * is extended by one character, never an earlier one (a later run can take whatever an earlier one would have).
 */
function matchPieces(pieces: readonly Piece[], chars: readonly string[]): boolean {
  let p = 0;
  let c = 0;
  let run = -1;
  let resumeAt = 0;
  while (c < chars.length) {
    const piece = pieces[p];
    if (piece && 'run' in piece) {
      run = p++;
      resumeAt = c;
    } else if (piece && piece.one(chars[c]!)) {
      p++;
      c++;
    } else if (run >= 0) {
      p = run + 1;
      c = ++resumeAt;
    } else return false;
  }
  while (p < pieces.length && 'run' in pieces[p]!) p++;
  return p === pieces.length;
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
