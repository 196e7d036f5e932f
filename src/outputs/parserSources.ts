import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The module whose output the parsed-file cache keeps (parseFile, the refusals, the scopes, the cache's own
 * layout): it and every module it imports, directly or not, are the code that parsed a kept file.
 */
export const PARSER_ROOT = 'outputs/karmadaFiles.ts';

/** Relative module specifiers in `from '…'`, `import '…'` and `import('…')`. */
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.\.?\/[^'"]+)['"]/g;

/** The relative imports of one module's text, as written (`./x.ts`, `../y/z.ts`). */
export function relativeImports(text: string): string[] {
  return [...text.matchAll(RELATIVE_IMPORT)].map((m) => m[1]!);
}

/**
 * One digest of the parsing code: the paths and contents of PARSER_ROOT's import closure under `srcDir`, in path
 * order. Contents, not sizes and times, so the build (scripts/build.js, over src/) and a run from src/ through tsx
 * compute the same value for the same code, and a checkout or a copy that changes nothing keeps the cache. The
 * closure, not a list of folders, so moving a module between folders neither drops it nor needs this file edited.
 */
export function parserSourcesDigest(srcDir: string): string {
  const texts = new Map<string, string>();
  const pending = [PARSER_ROOT];
  for (let rel = pending.pop(); rel !== undefined; rel = pending.pop()) {
    if (texts.has(rel)) continue;
    let text: string;
    try {
      text = readFileSync(path.join(srcDir, rel), 'utf8');
    } catch (e) {
      // tsc resolves every real import, so a path naming no file came from a comment or a string. The root must be
      // there: without it the digest would cover no parsing code at all.
      if (rel !== PARSER_ROOT && (e as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw e;
    }
    texts.set(rel, text);
    for (const spec of relativeImports(text)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(rel), spec));
      if (target.endsWith('.ts') && !texts.has(target)) pending.push(target);
    }
  }
  const hash = createHash('sha256');
  for (const rel of [...texts.keys()].sort()) hash.update(`${rel}\0${texts.get(rel)}\0`);
  return hash.digest('hex');
}
