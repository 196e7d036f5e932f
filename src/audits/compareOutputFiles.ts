import { maskRenderStamps } from './maskRenderStamps.ts';

export interface OutputDifference {
  /** In both trees, with different bytes (stamps aside). */
  differs: string[];
  /** Rendered from the source but absent from the output tree. */
  missing: string[];
  /** In the output tree but not rendered from the source: put there by hand, or left behind. */
  extra: string[];
}

/**
 * Every path of both trees compared byte for byte after maskRenderStamps; `skip` names paths that cannot
 * be checked (held objects keep their last good output, which the current source no longer describes).
 */
export function compareOutputFiles(
  expected: ReadonlyMap<string, string>,
  actual: ReadonlyMap<string, Uint8Array>,
  skip: ReadonlySet<string> = new Set(),
): OutputDifference {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const out: OutputDifference = { differs: [], missing: [], extra: [] };
  for (const path of [...new Set([...expected.keys(), ...actual.keys()])].sort()) {
    if (skip.has(path)) continue;
    const want = expected.get(path);
    const have = actual.get(path);
    if (have === undefined) out.missing.push(path);
    else if (want === undefined) out.extra.push(path);
    else {
      let text: string | undefined;
      try {
        text = decoder.decode(have);
      } catch {
        text = undefined; // not UTF-8: no render writes that
      }
      if (text === undefined || maskRenderStamps(text) !== maskRenderStamps(want)) out.differs.push(path);
    }
  }
  return out;
}
