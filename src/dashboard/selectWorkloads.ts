import { groupOf, parseRefKey, type ObjectRef } from '../api/kinds.ts';
import type { IndexEntry } from '../branches/rendered/outputIndex.ts';

/** The fleet view's filters, sort and page, as the page sends them in its query string. */
export interface WorkloadQuery {
  /** Exact namespace; '' or absent: all. */
  namespace?: string;
  /** `key=value`, `key!=value` or `key` (exists), comma-separated and ANDed, as kubectl's -l equality form. */
  label?: string;
  /** Only templates placed on this cluster. */
  cluster?: string;
  /** Exact Kind. */
  kind?: string;
  /** Substring of the name. */
  name?: string;
  sort?: WorkloadSort;
  descending?: boolean;
  offset?: number;
  /** Default 50, at most MAX_PAGE. */
  limit?: number;
}

export const WORKLOAD_SORTS = ['namespace', 'name', 'kind', 'clusters'] as const;
export type WorkloadSort = (typeof WORKLOAD_SORTS)[number];
export const MAX_PAGE = 500;

export interface WorkloadSelection {
  /** Templates matching the filters, before paging. */
  total: number;
  offset: number;
  limit: number;
  page: { ref: ObjectRef; key: string; entry: IndexEntry }[];
  /** Every namespace and kind of the fleet, for the filter menus. */
  namespaces: string[];
  kinds: string[];
}

export type LabelRequirement = { key: string; op: '=' | '!=' | 'exists'; value?: string };

/** kubectl's equality-based selector (`app=web,tier!=db,canary`); null when a term is not of that form. Pure. */
export function parseLabelFilter(text: string): LabelRequirement[] | null {
  const out: LabelRequirement[] = [];
  for (const term of text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)) {
    const m = /^([A-Za-z0-9._/-]+)\s*(?:(!=|==|=)\s*([A-Za-z0-9._-]*))?$/.exec(term);
    if (!m) return null;
    if (m[2] === undefined) out.push({ key: m[1]!, op: 'exists' });
    else out.push({ key: m[1]!, op: m[2] === '!=' ? '!=' : '=', value: m[3]! });
  }
  return out;
}

function matchesLabels(reqs: readonly LabelRequirement[], labels: Readonly<Record<string, string>> = {}): boolean {
  return reqs.every((r) =>
    r.op === 'exists'
      ? Object.hasOwn(labels, r.key)
      : r.op === '='
        ? labels[r.key] === r.value
        : labels[r.key] !== r.value,
  );
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The rendered index's templates parsed once, with their namespaces and kinds, and each sort order computed the first
 * time it is asked: what every page of the matrix filters, for as long as the heads stay. Pure.
 */
export interface WorkloadCatalog {
  namespaces: string[];
  kinds: string[];
  sorted(sort: WorkloadSort): readonly WorkloadRef[];
}

type WorkloadRef = { ref: ObjectRef; key: string; entry: IndexEntry };

export function catalogWorkloads(templates: Readonly<Record<string, IndexEntry>>): WorkloadCatalog {
  const namespaces = new Set<string>();
  const kinds = new Set<string>();
  const all: WorkloadRef[] = [];
  for (const [key, entry] of Object.entries(templates)) {
    const ref = parseRefKey(key);
    namespaces.add(ref.namespace);
    kinds.add(ref.kind);
    all.push({ ref, key, entry });
  }
  const byName = (a: ObjectRef, b: ObjectRef) =>
    compare(a.namespace, b.namespace) ||
    compare(a.name, b.name) ||
    compare(a.kind, b.kind) ||
    compare(groupOf(a.apiVersion), groupOf(b.apiVersion));
  const orders = new Map<WorkloadSort, WorkloadRef[]>();
  return {
    namespaces: [...namespaces].sort(compare),
    kinds: [...kinds].sort(compare),
    sorted: (sort) => {
      let order = orders.get(sort);
      if (!order) {
        order = [...all].sort((a, b) => {
          switch (sort) {
            case 'name':
              return compare(a.ref.name, b.ref.name) || byName(a.ref, b.ref);
            case 'kind':
              return compare(a.ref.kind, b.ref.kind) || byName(a.ref, b.ref);
            case 'clusters':
              return a.entry.clusters.length - b.entry.clusters.length || byName(a.ref, b.ref);
            default:
              return byName(a.ref, b.ref);
          }
        });
        orders.set(sort, order);
      }
      return order;
    },
  };
}

/**
 * Filters, sorts and pages the templates of the rendered index: everything the matrix needs to pick its rows without
 * reading a single template or status file, so a page of a 10,000-template fleet costs what the page holds. Given a
 * catalog (read once per set of heads) a page costs one pass over the sorted templates. Pure.
 */
export function selectWorkloads(
  templates: Readonly<Record<string, IndexEntry>> | WorkloadCatalog,
  q: WorkloadQuery,
  labels: readonly LabelRequirement[] = [],
): WorkloadSelection {
  const catalog = isCatalog(templates) ? templates : catalogWorkloads(templates);
  const chosen = catalog
    .sorted(q.sort ?? 'namespace')
    .filter(
      ({ ref, entry }) =>
        (!q.namespace || ref.namespace === q.namespace) &&
        (!q.kind || ref.kind === q.kind) &&
        (!q.name || ref.name.includes(q.name)) &&
        (!q.cluster || entry.clusters.includes(q.cluster)) &&
        (!labels.length || matchesLabels(labels, entry.labels)),
    );
  if (q.descending) chosen.reverse();
  const limit = Math.min(Math.max(1, q.limit ?? 50), MAX_PAGE);
  const offset = Math.max(0, Math.min(q.offset ?? 0, Math.max(0, chosen.length - 1)));
  return {
    total: chosen.length,
    offset,
    limit,
    page: chosen.slice(offset, offset + limit),
    namespaces: catalog.namespaces,
    kinds: catalog.kinds,
  };
}

function isCatalog(t: Readonly<Record<string, IndexEntry>> | WorkloadCatalog): t is WorkloadCatalog {
  return typeof (t as WorkloadCatalog).sorted === 'function' && Array.isArray((t as WorkloadCatalog).namespaces);
}
