/**
 * The detector's view of the source tree, kept on the output branch (.flotilla/index.json) so an
 * incremental sync can tell what a change affects without reading every source blob: which files hold
 * which objects, and per template its labels, winning policy, target clusters and dependencies.
 */
export interface IndexEntry {
  file: string;
  labels?: Record<string, string>;
  /** policyKey of the winning PP/CPP, absent when none matched. */
  policy?: string;
  /** Clusters that received a manifest (own result plus requiredBy for dependencies). */
  clusters: string[];
  /** refKeys this workload drags along (propagateDeps), absent when none. */
  deps?: string[];
  /** Clusters with a graceful eviction task: they still hold their manifest (so they are in `clusters` too). */
  evicting?: string[];
}

export interface OutputIndex {
  version: 1;
  /** Source file → refKeys of the templates in it, and whether it also holds Karmada objects. */
  files: Record<string, { templates: string[]; karmada?: true }>;
  templates: Record<string, IndexEntry>;
}

export function emptyIndex(): OutputIndex {
  return { version: 1, files: {}, templates: {} };
}

export function parseIndex(text: string | undefined): OutputIndex {
  if (!text) return emptyIndex();
  const parsed = JSON.parse(text) as OutputIndex;
  if (parsed.version !== 1) throw new Error(`.flotilla/index.json has version ${String(parsed.version)}; this Flotilla reads version 1`);
  return parsed;
}

/** Sorted keys, one template per line: stable bytes, and small Git diffs when one entry changes. */
export function serializeIndex(index: OutputIndex): string {
  const sortKeys = <T>(o: Record<string, T>) => Object.keys(o).sort();
  const lines: string[] = ['{"version":1,"files":{'];
  lines.push(sortKeys(index.files).map((f) => `${JSON.stringify(f)}:${JSON.stringify(index.files[f])}`).join(',\n'));
  lines.push('},"templates":{');
  lines.push(sortKeys(index.templates).map((k) => `${JSON.stringify(k)}:${JSON.stringify(index.templates[k])}`).join(',\n'));
  lines.push('}}');
  return `${lines.join('\n')}\n`;
}
