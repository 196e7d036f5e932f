import type { SourceSpan } from '../errors/problem.ts';

/** A file a failed kustomize build read, with its committed text. */
export interface KustomizeInputText {
  file: string;
  text: string;
  /** A kustomization (its patches and replacements blocks are searched), or a file one names (searched whole). */
  kustomization: boolean;
}

/**
 * Where in the commit a kustomize error that names no file comes from (pure): a JSON6902 patch operation whose path
 * the object lacks (`replace operation does not apply: doc is missing path: /data/x`) at the patch's `path:` line,
 * a replacement whose source selects nothing (`nothing selected by ConfigMap.[noVer].[noGrp]/cfg.[noNs]:data.k`) at
 * its source's `name:` line. kustomize names neither the kustomization nor the patch file, and the failing one may
 * be a base's: `texts` are searched in order (the unit's own kustomization first), the first line that matches wins.
 * Undefined when the error is of another kind or nothing matches: the caller keeps the kustomization's first line.
 */
export function kustomizeErrorPlace(error: string, texts: readonly KustomizeInputText[]): SourceSpan | undefined {
  const pointer = /(?:doc is missing path|for path):? '?(\/[^\s':]*)'?/.exec(error)?.[1];
  if (pointer !== undefined) {
    const line = new RegExp(`^\\s*(?:-\\s*)?path:\\s*["']?${escapeRegExp(pointer)}["']?\\s*$`);
    return findLine(texts, ['patches', 'patchesJson6902'], line, pointer);
  }
  const selected = /nothing selected by [^\s/]*\/(\S+)\.[^.\s:]*:\S+/.exec(error)?.[1];
  if (selected !== undefined) {
    const line = new RegExp(`^\\s*(?:-\\s*)?name:\\s*["']?${escapeRegExp(selected)}["']?\\s*$`);
    const inline = new RegExp(`(?:[{,]\\s*)name:\\s*["']?${escapeRegExp(selected)}["']?\\s*[,}]`);
    return findLine(texts, ['replacements'], line, selected) ?? findLine(texts, ['replacements'], inline, selected);
  }
  return undefined;
}

function findLine(
  texts: readonly KustomizeInputText[],
  fields: readonly string[],
  pattern: RegExp,
  token: string,
): SourceSpan | undefined {
  for (const { file, text, kustomization } of texts) {
    const lines = text.split('\n');
    let inField = !kustomization;
    for (const [i, l] of lines.entries()) {
      // A top-level key opens or closes the block searched in a kustomization.
      const key = /^([A-Za-z0-9_]+):/.exec(l)?.[1];
      if (kustomization && key !== undefined) inField = fields.includes(key);
      if (inField && pattern.test(l)) return { file, line: i + 1, column: l.indexOf(token) + 1 };
    }
  }
  return undefined;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
