import { createHash } from 'node:crypto';
import { LineCounter, parseDocument } from 'yaml';
import type { SourceSpan } from '../errors/problem.ts';
import { formatFloat32, GO_YAML_PARSE_OPTIONS } from '../yaml/goYamlSchema.ts';

/**
 * Where a Chart.lock's digest disagrees with its Chart.yaml (pure), as `helm dependency build` finds it ("the lock file
 * (Chart.lock) is out of sync with the dependencies file (Chart.yaml)"): the digest is sha256 of Go's JSON of
 * [Chart.yaml's dependencies, the lock's]. Undefined when they agree, or when the digest cannot be worked out here
 * (a file that does not parse, an apiVersion v1 chart, a repository named by its helm repo alias, resolved from a
 * configuration the commit does not hold): then helm decides.
 */
export function staleChartLock(lockFile: string, chartYaml: string, chartLock: string): SourceSpan | undefined {
  try {
    // helm reads both with sigs.k8s.io/yaml: YAML 1.1 scalars (`enabled: yes`, `tags: [on]`), as kubectl does.
    const chart = parseDocument(chartYaml, GO_YAML_PARSE_OPTIONS).toJS() as {
      apiVersion?: unknown;
      dependencies?: unknown;
    } | null;
    const lines = new LineCounter();
    const lockDoc = parseDocument(chartLock, { ...GO_YAML_PARSE_OPTIONS, lineCounter: lines });
    const lock = lockDoc.toJS() as { digest?: unknown; dependencies?: unknown } | null;
    if (chart?.apiVersion === 'v1' || typeof lock?.digest !== 'string') return undefined;
    const req = Array.isArray(chart?.dependencies) ? chart.dependencies : [];
    const locked = Array.isArray(lock.dependencies) ? lock.dependencies : [];
    if (req.some((d) => /^(@|alias:)/.test(String((d as { repository?: unknown })?.repository ?? ''))))
      return undefined;
    const digest = `sha256:${createHash('sha256')
      .update(goJson([req.map(goDependency), locked.map(goDependency)]))
      .digest('hex')}`;
    if (digest === lock.digest) return undefined;
    const node = lockDoc.get('digest', true) as { range?: [number, number, number] } | undefined;
    const at = lines.linePos(node?.range?.[0] ?? 0);
    return { file: lockFile, line: at.line, column: at.col };
  } catch {
    return undefined;
  }
}

/** helm's chart.Dependency as Go marshals it: its fields in their order, empty optional ones left out. */
function goDependency(d: unknown): Record<string, unknown> {
  const dep = (d ?? {}) as Record<string, unknown>;
  const text = goString;
  const out: Record<string, unknown> = { name: text(dep.name) };
  if (text(dep.version) !== '') out.version = text(dep.version);
  out.repository = text(dep.repository);
  if (text(dep.condition) !== '') out.condition = text(dep.condition);
  if (Array.isArray(dep.tags) && dep.tags.length > 0) out.tags = dep.tags.map(text);
  if (dep.enabled === true) out.enabled = true;
  if (Array.isArray(dep['import-values']) && dep['import-values'].length > 0)
    out['import-values'] = sortedKeys(dep['import-values']);
  if (text(dep.alias) !== '') out.alias = text(dep.alias);
  return out;
}

/**
 * A scalar read into a Go string field by sigs.k8s.io/yaml: a number or boolean YAML made of it is written back as
 * Go formats it (`1.10` is "1.1", `on` is "true"), null is empty.
 */
export function goString(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : formatFloat32(v);
  return String(v);
}

/** A value with its maps' keys sorted, as Go marshals a map (a struct keeps its field order). */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortedKeys((value as Record<string, unknown>)[k])]),
    );
  return value;
}

/** JSON as Go's encoding/json writes it: <, > and & escaped. */
function goJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
