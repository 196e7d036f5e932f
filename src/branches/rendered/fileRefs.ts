// Which template a file of the rendered branch belongs to: from the output index, or from the manifest itself.
import { parseRefKey, refKey } from '../../api/kinds.ts';
import { parseYamlValue } from '../../yaml/blockYaml.ts';
import type { OutputIndex } from './outputIndex.ts';
import { manifestPath } from './outputPaths.ts';

/**
 * Output path → refKey, from the indexes: exact, with no need to parse the manifests. `on`: only the paths of these
 * clusters (a template on hundreds of clusters has as many paths).
 */
export function refsByPath(indexes: readonly OutputIndex[], on?: ReadonlySet<string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const index of indexes) {
    for (const [key, entry] of Object.entries(index.templates)) {
      const ref = parseRefKey(key);
      for (const c of entry.clusters) if (!on || on.has(c)) out.set(manifestPath(c, ref), key);
    }
  }
  return out;
}

/** Fallback for a file no index names (one put there by hand): its own apiVersion, kind and metadata. */
export function refFromManifest(text: string): string | undefined {
  try {
    const m = parseYamlValue(text) as {
      apiVersion?: string;
      kind?: string;
      metadata?: { name?: string; namespace?: string };
    } | null;
    if (!m?.apiVersion || !m.kind || !m.metadata?.name) return undefined;
    return refKey({
      apiVersion: m.apiVersion,
      kind: m.kind,
      namespace: m.metadata.namespace ?? '',
      name: m.metadata.name,
    });
  } catch {
    return undefined;
  }
}
