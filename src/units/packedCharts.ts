import type { Problem } from '../errors/problem.ts';
import { chartArchiveEntries, unpackBudget } from './chartArchive.ts';
import { archivedSchemaProblems } from './chartSchemas.ts';
import { packedChartName } from './subchartPaths.ts';

/** What a render reads of a packed chart (`charts/<name>-<version>.tgz`). */
export interface PackedChart {
  /** The chart name its Chart.yaml holds, which helm renders it under; null: none readable. */
  name: string | null;
  /** What its schemas would make helm read outside the commit (chartSchemas.ts), at the archive. */
  schemaProblems: readonly Problem[];
  /** The text of its templates and CRDs, by their path inside it (`templates/x.yaml`, `charts/sub/crds/c.yaml`). */
  templates: ReadonlyMap<string, string>;
}

/** Archives kept, and the template text they hold in all: past either, the least recently used go. */
const MAX_ARCHIVES = 1024;
const MAX_TEXT_LENGTH = 64 * 1024 * 1024;

/**
 * Packed charts read, by blob id and the path the commit holds the archive at (problems name it): a unit's vendored
 * archives rarely change, and each was unpacked on every render of its unit, a cached one too, for its name, its
 * schemas and its templates.
 */
const read = new Map<string, { chart: PackedChart; length: number }>();
let textLength = 0;

/** The packed chart at `file` (blob `oid`) as read before, or undefined; a hit is the most recently used. */
export function knownPackedChart(file: string, oid: string): PackedChart | undefined {
  const key = `${oid}\0${file}`;
  const hit = read.get(key);
  if (!hit) return undefined;
  read.delete(key);
  read.set(key, hit);
  return hit.chart;
}

/** The packed chart at `file` read from its bytes (unpacked once) and kept by its blob id. */
export function readPackedChart(file: string, oid: string, tgz: Uint8Array): PackedChart {
  // The archive and the charts packed inside it share one budget (chartArchive.ts).
  const budget = unpackBudget();
  const entries = chartArchiveEntries(tgz, budget);
  const decoder = new TextDecoder();
  const templates = new Map<string, string>();
  let length = 0;
  if ('entries' in entries)
    for (const [p, bytes] of entries.entries)
      if (/(^|\/)(templates|crds)\//.test(p) && !p.endsWith('.tgz')) {
        const text = decoder.decode(bytes);
        templates.set(p, text);
        length += text.length;
      }
  const chartYaml = 'entries' in entries ? entries.entries.get('Chart.yaml') : undefined;
  const chart: PackedChart = {
    name: chartYaml === undefined ? null : (packedChartName(decoder.decode(chartYaml)) ?? null),
    schemaProblems: archivedSchemaProblems(file, entries, budget),
    templates,
  };
  const key = `${oid}\0${file}`;
  const before = read.get(key);
  if (before) textLength -= before.length;
  read.set(key, { chart, length });
  textLength += length;
  for (const [k, v] of read) {
    if (read.size <= MAX_ARCHIVES && textLength <= MAX_TEXT_LENGTH) break;
    read.delete(k);
    textLength -= v.length;
  }
  return chart;
}
