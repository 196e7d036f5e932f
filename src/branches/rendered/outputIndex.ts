import type { ClusterAffinity } from '../../api/policy.ts';
import { eventLoopTurns } from '../../concurrency/eventLoopTurns.ts';
import { fnv1a32 } from '../../hashing/fnv1a32.ts';

/**
 * The detector's view of the source tree, kept on the output branch so an incremental sync can tell what a change
 * affects without reading every source blob: which files hold which objects, and per template its labels, winning
 * policy, target clusters and dependencies. This module owns its format; everything else goes through it.
 *
 * Layout (version 2): `.flotilla/index.json` is a small root (source file count, the files holding Karmada objects,
 * the templates with graceful eviction tasks) and `.flotilla/index/<2 hex>.json` are 256 shards. A template entry
 * lives in the shard of its refKey, a file entry in the shard of its path, and the reverse of `deps` (who requires a
 * template) in the shard of the required template, so a change reads and rewrites only the shards it touches.
 * Version 1 kept everything in `.flotilla/index.json`; it is still read, and the next render writes version 2.
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
  /** On a propagated HorizontalPodAutoscaler: the refKey of the workload it scales (its scaleTargetRef). */
  scaleTarget?: string;
  /** On a workload propagated HPAs scale: their refKeys. Its manifests carry resourcetemplate.karmada.io/retain-replicas. */
  scaledBy?: string[];
  /**
   * Set when the binding waits on cluster status: it could not be scheduled, or a status filter (APIEnablement,
   * TaintToleration) kept a cluster out of a result that every render computes afresh. A change of the status it
   * read re-renders it (outputs/pendingBindings.ts); replicas and per-replica requests when its free capacity counts.
   */
  waiting?: WaitingFor;
  /**
   * Held because its output would share a file with another object's (PATH_COLLISION): rendered again on every
   * sync, so it renders as its file says as soon as the other goes, whichever file changes.
   */
  blocked?: true;
  /**
   * Held because its policy's dependentOverrides name an OverridePolicy the commit lacks, or, on a Namespace the
   * source no longer has, because a deletion-protected template in it stays: rendered again on every sync (the commit
   * that adds the OverridePolicy, or takes the label off, need not touch it), so it renders as soon as it can.
   */
  awaiting?: true;
  /**
   * With `awaiting`: the policyKey of the policy that claimed it but could build no binding, its schedulePriority naming
   * a PriorityClass the commit lacks. Karmada's detector claims the template before it builds the binding and keeps
   * that claim when the build fails: it sticks while the policy selects the template (a better policy added later
   * does not take it), as a binding's claim does, until the binding is built.
   */
  claim?: string;
  /**
   * Held when a render last read it: its file, or a scoped unit's, could not be parsed or rendered, the object was
   * invalid or defined twice, or its output would have taken the render past the bytes it may write. Its last good
   * output is kept. A sync that does not read its files again (a relabel that
   * would only cut its result) renders it rather than move what it holds; the flag goes when it renders again.
   */
  held?: true;
  /**
   * Set when scoped Helm or Kustomize units output it (their flotilla-unit.yaml has a clusterAffinity): their marker
   * files, in order, `file` being the first, each with the clusters that got its variant (the one whose scope
   * selects them). A render of the template reads them all; blame and history name a cluster's.
   */
  units?: UnitVariantEntry[];
  /**
   * On a workload with deps, what its binding says when not the default: conflictResolution Overwrite,
   * preserveResourcesOnDeletion true. The attached bindings of its dependencies take them on (any parent's Overwrite,
   * any parent's true: Karmada's dependencies distributor), also when this workload is not rendered again.
   */
  overwrite?: true;
  preserve?: true;
  /**
   * On a workload with deps whose result gives some cluster replicas: each cluster's in `clusters` order (0 on one it
   * holds only for a graceful eviction). Its dependencies' requiredBy snapshots copy its result with them (Karmada's
   * buildAttachedBinding), also when this workload is not rendered again.
   */
  replicas?: number[];
  /**
   * On a workload with deps that its own parents take to clusters its result does not give it: the clusters of its
   * own result (and graceful evictions), which its dependencies' requiredBy snapshots copy. Karmada's
   * buildAttachedBinding reads the parent binding's spec.clusters, which requiredBy never grows.
   */
  own?: string[];
  /**
   * Set when Karmada's application failover controller acts on the binding (its policy's failover.application, a kind
   * whose health is interpreted, propagateDeps): the reconciler reads its health on the status branch to know when a
   * cluster's copy has been Unhealthy for longer than this (listed in the root too).
   */
  applicationFailover?: { tolerationSeconds: number };
  /**
   * Clusters of `clusters` where its policy suspends dispatching (suspension.dispatching, dispatchingOnClusters): the
   * applier sends nothing for it there, whatever the member holds (listed in the root too).
   */
  suspended?: string[];
  /**
   * On a Namespace labelled skip-auto-propagation that a policy places: clusters of `clusters` its binding has not
   * placed it on, which keep, unchanged, the copy Karmada's namespace sync made before the label.
   */
  namespaceSync?: string[];
  /**
   * On the ResourceQuota a FederatedResourceQuota makes: the clusters its static assignments name that are not
   * registered. Registering one gives it the quota there (Karmada's sync controller watches Cluster creation).
   */
  unregisteredAssignments?: string[];
  /**
   * On the ResourceQuota a FederatedResourceQuota makes: the quota's spec.overall (canonical quantities), which the
   * status writers copy into its status (status.overall), as Karmada's status controller does.
   */
  quotaOverall?: Record<string, string>;
}

/** One scoped unit of a template's index entry: its marker file, and the clusters that got its variant. */
export interface UnitVariantEntry {
  file: string;
  clusters: string[];
}

/** What a pending binding's schedule reads of cluster status besides API enablements and taints: capacity for these. */
export interface WaitingFor {
  replicas?: number;
  request?: Record<string, string | number>;
}

/** Source file → refKeys of the templates in it, and whether it also holds Karmada objects. */
export interface FileEntry {
  templates: string[];
  karmada?: true;
  /** On a scoped unit's marker file: its clusterAffinity (a cluster's label change reads it). */
  scope?: ClusterAffinity;
  /**
   * Kinds (`<group>/<version>/<Kind>`) its CustomResourceDefinitions declare `scope: Cluster`: whether such an object,
   * in any file, has a namespace depends on them, so a sync that does not read this file must still know them.
   */
  clusterScoped?: string[];
}

/** The whole index in memory: what views, plans and audits read, and what a snapshot render produces. */
export interface OutputIndex {
  files: Record<string, FileEntry>;
  templates: Record<string, IndexEntry>;
}

/** What a render reads of the previous index: entries by key, and who requires a template (the reverse of deps). */
export interface IndexView {
  template(key: string): IndexEntry | undefined;
  parentsOf(key: string): readonly string[];
}

export const INDEX_PATH = '.flotilla/index.json';
const SHARD_DIR = '.flotilla/index';
const SHARD_COUNT = 256;

/** Every path the index may occupy on the output branch: the root and the shards. */
export function isIndexPath(path: string): boolean {
  return path === INDEX_PATH || path.startsWith(`${SHARD_DIR}/`);
}

export function shardPath(id: string): string {
  return `${SHARD_DIR}/${id}.json`;
}

/** The shard id of a shard file's name (`ab.json` → `ab`), undefined for anything else. */
export function shardIdOf(fileName: string): string | undefined {
  return /^([0-9a-f]{2})\.json$/.exec(fileName)?.[1];
}

/** Shard of a template refKey or a source path: FNV-1a of its UTF-8 bytes. Part of the format: never change it. */
export function shardOf(key: string): string {
  return (fnv1a32(key) % SHARD_COUNT).toString(16).padStart(2, '0');
}

const ALL_SHARDS = Array.from({ length: SHARD_COUNT }, (_, i) => i.toString(16).padStart(2, '0'));

/**
 * Which files a render marks `karmada` (outputs/karmadaFiles.ts holdsKarmadaObjects), raised when that rule takes in
 * files it did not: 2, every plain file with a CustomResourceDefinition (1 took those of `scope: Cluster` only). An
 * incremental sync trusts the root's list only when it was made by this rule; an older root's next sync finds the
 * files the rule now adds (outputs/loadSource.ts) and writes this one.
 */
export const KARMADA_FILES_RULE = 2;

interface IndexRoot {
  version: 2;
  sourceFiles: number;
  /** KARMADA_FILES_RULE when `karmadaFiles` was made by it; absent from the file (1) on a root written before rule 2. */
  karmadaFilesRule: number;
  karmadaFiles: string[];
  evicting: string[];
  /** Templates with a `waiting` entry; absent from the file when none (so a fleet without any writes the same bytes). */
  pending: string[];
  /** Templates whose entry says `blocked`; written only when there are some. */
  blocked: string[];
  /** Templates whose entry says `awaiting`; written only when there are some. */
  awaiting: string[];
  /** Templates whose entry has `applicationFailover`; written only when there are some. */
  applicationFailover: string[];
  /** Templates whose entry has `suspended`; written only when there are some. */
  suspended: string[];
  /** Templates whose entry has `quotaOverall` (FederatedResourceQuotas); written only when there are some. */
  quotas: string[];
  /** Kind → the files whose entry declares it cluster-scoped (clusterScoped); written only when there are some. */
  clusterScopedKinds: Record<string, string[]>;
}

interface Shard {
  files: Section<FileEntry>;
  requiredBy: Section<string[]>;
  templates: Section<IndexEntry>;
}

/**
 * An entry of a section: the line it was read from (null once set), its value once parsed (frozen: it stays what the
 * line says) or set.
 */
interface Slot<T> {
  line: string | null;
  /** Where the value starts in `line`. */
  valueAt: number;
  value: T | undefined;
  parsed: boolean;
}

/**
 * One section of a shard (files, requiredBy, templates), each entry kept as the line it was read from until it is
 * used. A sync reads a shard for a few of its hundreds of entries and writes it again for one or two: an entry is
 * parsed when asked for, and one never asked for is written as the line it was read from, which is what
 * serializeShard would make of it again (JSON.stringify of its key and value, one entry per line). At XL a shard holds ~200
 * templates: parsing and writing them whole was ~0.1 s of a namespace policy's sync.
 */
class Section<T> {
  readonly #slots = new Map<string, Slot<T>>();

  /** From the entry lines of a section as serializeShard writes them. Throws on a line that does not start with a key. */
  static fromLines<T>(lines: readonly string[]): Section<T> {
    const section = new Section<T>();
    for (const line of lines) {
      const [key, valueAt] = lineKey(line);
      section.#slots.set(key, { line, valueAt, value: undefined, parsed: false });
    }
    return section;
  }

  static fromRecord<T>(record: Record<string, T> | undefined): Section<T> {
    const section = new Section<T>();
    for (const [key, value] of Object.entries(record ?? {})) section.set(key, value);
    return section;
  }

  get(key: string): T | undefined {
    const slot = this.#slots.get(key);
    if (!slot) return undefined;
    if (!slot.parsed) {
      // Frozen, so the line still says what it is: an entry read and never set is written as it was read. A cluster's
      // change reads every entry of the fleet to find those it affects, and sets a tenth of them.
      slot.value = frozen(JSON.parse(slot.line!.slice(slot.valueAt))) as T;
      slot.parsed = true;
    }
    return slot.value;
  }

  set(key: string, value: T): void {
    this.#slots.set(key, { line: null, valueAt: 0, value, parsed: true });
  }

  /** Whether `value` is what the entry holds: compared as serialize() would write both. */
  holds(key: string, value: T): boolean {
    const slot = this.#slots.get(key);
    if (!slot) return false;
    const json = JSON.stringify(value);
    return slot.line !== null ? slot.line.slice(slot.valueAt) === json : JSON.stringify(slot.value) === json;
  }

  delete(key: string): void {
    this.#slots.delete(key);
  }

  keys(): IterableIterator<string> {
    return this.#slots.keys();
  }

  entries(): [string, T][] {
    return [...this.#slots.keys()].map((key) => [key, this.get(key)!]);
  }

  /** The entries read from a line `mayMatter` takes, and those set. */
  entriesWhere(mayMatter: (line: string) => boolean): [string, T][] {
    const out: [string, T][] = [];
    for (const [key, slot] of this.#slots)
      if (slot.line === null || mayMatter(slot.line)) out.push([key, this.get(key)!]);
    return out;
  }

  get size(): number {
    return this.#slots.size;
  }

  /** Sorted keys, one entry per line; `canonical`: each value parsed written as JSON.stringify writes it, not as read. */
  serialize(canonical = false): string {
    return [...this.#slots.keys()]
      .sort()
      .map((key) => {
        const slot = this.#slots.get(key)!;
        return slot.line !== null && !(canonical && slot.parsed)
          ? slot.line
          : `${JSON.stringify(key)}:${JSON.stringify(slot.value)}`;
      })
      .join(',\n');
  }
}

/** A value parsed from JSON, and everything in it, made read-only. */
function frozen(value: unknown): unknown {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) frozen(inner);
    Object.freeze(value);
  }
  return value;
}

/** The text of `.flotilla/index.json`: a version 2 root, or a whole version 1 index. */
type IndexFile = { version: 2; root: IndexRoot } | { version: 1; whole: OutputIndex };

function parseIndexFile(text: string): IndexFile {
  const parsed = JSON.parse(text) as {
    version?: unknown;
    sourceFiles?: number;
    karmadaFilesRule?: unknown;
    karmadaFiles?: string[];
    evicting?: string[];
    pending?: string[];
    blocked?: string[];
    awaiting?: string[];
    applicationFailover?: string[];
    suspended?: string[];
    quotas?: string[];
    clusterScopedKinds?: Record<string, string[]>;
  } & Partial<OutputIndex>;
  if (parsed.version === 1)
    return { version: 1, whole: { files: parsed.files ?? {}, templates: parsed.templates ?? {} } };
  if (parsed.version === 2) {
    return {
      version: 2,
      root: {
        version: 2,
        sourceFiles: parsed.sourceFiles ?? 0,
        karmadaFilesRule: typeof parsed.karmadaFilesRule === 'number' ? parsed.karmadaFilesRule : 1,
        karmadaFiles: parsed.karmadaFiles ?? [],
        evicting: sortedList(parsed.evicting),
        pending: sortedList(parsed.pending),
        blocked: sortedList(parsed.blocked),
        awaiting: sortedList(parsed.awaiting),
        applicationFailover: sortedList(parsed.applicationFailover),
        suspended: sortedList(parsed.suspended),
        quotas: sortedList(parsed.quotas),
        clusterScopedKinds: parsed.clusterScopedKinds ?? {},
      },
    };
  }
  throw new Error(`${INDEX_PATH} has version ${String(parsed.version)}; this Flotilla reads versions 1 and 2`);
}

function serializeRoot(root: IndexRoot): string {
  const pending = root.pending.length > 0 ? `,\n"pending":${JSON.stringify(root.pending)}` : '';
  const blocked = root.blocked.length > 0 ? `,\n"blocked":${JSON.stringify(root.blocked)}` : '';
  const awaiting = root.awaiting.length > 0 ? `,\n"awaiting":${JSON.stringify(root.awaiting)}` : '';
  const failingOver =
    root.applicationFailover.length > 0 ? `,\n"applicationFailover":${JSON.stringify(root.applicationFailover)}` : '';
  const suspended = root.suspended.length > 0 ? `,\n"suspended":${JSON.stringify(root.suspended)}` : '';
  const quotas = root.quotas.length > 0 ? `,\n"quotas":${JSON.stringify(root.quotas)}` : '';
  const kinds = Object.keys(root.clusterScopedKinds).sort();
  const scoped =
    kinds.length > 0
      ? `,\n"clusterScopedKinds":{${kinds.map((k) => `${JSON.stringify(k)}:${JSON.stringify(root.clusterScopedKinds[k])}`).join(',')}}`
      : '';
  const rule = root.karmadaFilesRule > 1 ? `,"karmadaFilesRule":${root.karmadaFilesRule}` : '';
  return `{"version":2,"sourceFiles":${root.sourceFiles}${rule},\n"karmadaFiles":${JSON.stringify(root.karmadaFiles)},\n"evicting":${JSON.stringify(root.evicting)}${pending}${blocked}${awaiting}${failingOver}${suspended}${quotas}${scoped}}\n`;
}

/** Sorted keys, one entry per line: stable bytes, and small Git diffs when one entry changes. */
function serializeShard(shard: Shard, canonical = false): string {
  return `${FILES_AT}${shard.files.serialize(canonical)}${REQUIRED_BY_AT}${shard.requiredBy.serialize(canonical)}${TEMPLATES_AT}${shard.templates.serialize(canonical)}${SHARD_END}`;
}

const FILES_AT = '{"files":{\n';
const REQUIRED_BY_AT = '\n},"requiredBy":{\n';
const TEMPLATES_AT = '\n},"templates":{\n';
const SHARD_END = '\n}}\n';

/** The entry lines of a section's body as serializeShard writes it (no line break inside a JSON value). */
function linesOf(body: string): string[] {
  return body === '' ? [] : body.split(',\n');
}

/**
 * The template section's entry lines of a shard as serializeShard writes it (each `"key":{...}` without the comma
 * between them; JSON puts no line break inside a string or a value); undefined for any other layout.
 */
function templateLines(text: string): string[] | undefined {
  const marker = '},"templates":{\n';
  const start = text.lastIndexOf(marker);
  if (start < 0 || !text.endsWith('\n}}\n')) return undefined;
  const body = text.slice(start + marker.length, text.length - '\n}}\n'.length);
  if (body === '') return [];
  return body.split(',\n');
}

/**
 * The key of an entry line (`"key":{...}`), the JSON string it starts with read up to its closing quote, and where its
 * value starts.
 */
function lineKey(line: string): [key: string, valueAt: number] {
  if (line.charCodeAt(0) === 0x22) {
    let escaped = false;
    for (let i = 1; i < line.length; i++) {
      const c = line.charCodeAt(i);
      if (c === 0x5c) {
        escaped = true;
        i++; // a backslash escapes the next character
      } else if (c === 0x22) {
        if (line.charCodeAt(i + 1) !== 0x3a) break;
        // Keys are paths and refKeys: JSON spells them as they are, unless they hold a quote, a backslash or a control.
        return [escaped ? (JSON.parse(line.slice(0, i + 1)) as string) : line.slice(1, i), i + 2];
      }
    }
  }
  throw new Error(`an output index shard line does not start with a key: ${JSON.stringify(line.slice(0, 80))}`);
}

/** The namespace of a template refKey (`<apiVersion>/<kind>/<namespace>/<name>`), without splitting it. */
function namespaceOfKey(key: string): string {
  const end = key.lastIndexOf('/');
  return key.slice(key.lastIndexOf('/', end - 1) + 1, end);
}

/** A shard's text, its entries parsed when used when it is laid out as serializeShard writes it, else parsed whole. */
function parseShard(text: string): Shard {
  if (text.startsWith(FILES_AT) && text.endsWith(SHARD_END)) {
    const requiredBy = text.indexOf(REQUIRED_BY_AT, FILES_AT.length);
    const templates = requiredBy < 0 ? -1 : text.indexOf(TEMPLATES_AT, requiredBy + REQUIRED_BY_AT.length);
    if (templates >= 0 && templates + TEMPLATES_AT.length <= text.length - SHARD_END.length) {
      try {
        return {
          files: Section.fromLines(linesOf(text.slice(FILES_AT.length, requiredBy))),
          requiredBy: Section.fromLines(linesOf(text.slice(requiredBy + REQUIRED_BY_AT.length, templates))),
          templates: Section.fromLines(
            linesOf(text.slice(templates + TEMPLATES_AT.length, text.length - SHARD_END.length)),
          ),
        };
      } catch {
        // not one entry per line after all: parsed whole below
      }
    }
  }
  const parsed = JSON.parse(text) as {
    files?: Record<string, FileEntry>;
    requiredBy?: Record<string, string[]>;
    templates?: Record<string, IndexEntry>;
  };
  return {
    files: Section.fromRecord(parsed.files),
    requiredBy: Section.fromRecord(parsed.requiredBy),
    templates: Section.fromRecord(parsed.templates),
  };
}

function emptyShard(): Shard {
  return { files: new Section(), requiredBy: new Section(), templates: new Section() };
}

function isEmpty(shard: Shard): boolean {
  return shard.files.size === 0 && shard.requiredBy.size === 0 && shard.templates.size === 0;
}

export function emptyIndex(): OutputIndex {
  return { files: {}, templates: {} };
}

/** Shard id → shard text, for the ids asked that exist (an absent one is empty). */
export type ShardReader = (ids: readonly string[]) => Promise<Map<string, string>>;

/**
 * What a local list derived from the shards (indexNamespaceList.ts) says of the shards of the tree the index is read
 * from, without reading them: whether a shard's template entries are in some namespaces. templatesIn reads only the
 * shards it says may hold them, and those it does not know.
 */
export interface ShardNamespaces {
  /** Whether the shard holds a template entry of one of `namespaces`; undefined when the list does not know it. */
  holdsAny(id: string, namespaces: ReadonlySet<string>): boolean | undefined;
  /** The namespaces of the shards read whole because the list did not know them: kept for the next sync. */
  learn(found: ReadonlyMap<string, ReadonlySet<string>>): Promise<void>;
}

/**
 * The index of one output tree, shards read on demand. Lookups are synchronous so the pure stages can use it: a
 * caller loads the shards a step needs first (load, loadAll), and a lookup in a shard not loaded throws instead of
 * answering "absent". Changes are recorded in place; edits() gives the files to write.
 */
export class ShardedIndex implements IndexView {
  private readonly shards = new Map<string, Shard>();
  private readonly dirty = new Set<string>();
  private readonly root: IndexRoot;
  private readonly rootText: string | undefined;
  /** Shards present in the tree read from; null when everything is in memory already (new, version 1, whole). */
  private readonly readShards: ShardReader | null;
  private readonly present: ReadonlySet<string>;
  private readonly listed: ShardNamespaces | undefined;
  /**
   * Whether the root may differ from rootText: not for an index opened from its text until an entry's change reaches
   * it, so a sync changing no file list does not serialize the root (the fleet's list of Karmada files) to compare.
   */
  private rootEdited: boolean;

  private constructor(
    root: IndexRoot,
    rootText: string | undefined,
    readShards: ShardReader | null,
    present: ReadonlySet<string>,
    listed?: ShardNamespaces,
  ) {
    this.root = root;
    this.rootText = rootText;
    this.readShards = readShards;
    this.present = present;
    this.listed = listed;
    this.rootEdited = rootText === undefined || readShards === null;
  }

  /**
   * From the root text (undefined: no index yet) and a reader of the shards present in the same tree. A version 1
   * file is taken whole, and every shard counts as changed, so the next render writes version 2. `listed`, when
   * given, says which shards may hold a namespace's templates (templatesIn).
   */
  static open(
    rootText: string | undefined,
    present: ReadonlySet<string>,
    readShards: ShardReader,
    listed?: ShardNamespaces,
  ): ShardedIndex {
    if (rootText === undefined) return new ShardedIndex(emptyRoot(), undefined, null, new Set());
    const file = parseIndexFile(rootText);
    if (file.version === 2) return new ShardedIndex(file.root, rootText, readShards, present, listed);
    const index = new ShardedIndex(emptyRoot(), rootText, null, new Set());
    index.fill(file.whole);
    // Its entries' `karmada` flags are what the Flotilla that wrote it decided, by the first rule.
    index.root.karmadaFilesRule = 1;
    for (const id of ALL_SHARDS) index.dirty.add(id);
    return index;
  }

  /**
   * An empty index that replaces `old` (the index of the tree the render writes over, if any): shards of `old` left
   * empty are removed by edits().
   */
  static replacing(old: ShardedIndex | null): ShardedIndex {
    const index = new ShardedIndex(emptyRoot(), old?.rootText, null, old?.present ?? new Set());
    for (const id of index.present) index.dirty.add(id);
    return index;
  }

  /** A whole index in memory (a snapshot render, a folder), with its derived parts computed. */
  static fromWhole(whole: OutputIndex): ShardedIndex {
    const index = new ShardedIndex(emptyRoot(), undefined, null, new Set());
    index.fill(whole);
    return index;
  }

  private fill(whole: OutputIndex): void {
    for (const [path, entry] of Object.entries(whole.files)) this.setFile(path, entry);
    for (const [key, entry] of Object.entries(whole.templates)) this.setTemplate(key, entry);
    this.dirty.clear();
  }

  /** Reads the shards holding these templates, files and their parents' entries, unless loaded already. */
  async load(want: { templates?: Iterable<string>; files?: Iterable<string> }): Promise<void> {
    const ids = new Set<string>();
    for (const key of want.templates ?? []) ids.add(shardOf(key));
    for (const path of want.files ?? []) ids.add(shardOf(path));
    await this.loadShards(ids);
  }

  async loadAll(): Promise<void> {
    await this.loadShards(ALL_SHARDS);
  }

  /**
   * Every template entry of the given namespaces, without parsing every shard whole (nor keeping what is read: the
   * shards not loaded stay so). A change to namespaced policies concerns their namespaces' templates only, a few
   * hundred of a fleet's tens of thousands, and parsing all 256 shards was most of such a sync. A shard's template
   * section holds one entry per line (serializeShard), so only the lines naming one of the namespaces are parsed; a
   * shard not written that way is parsed whole. A namespace's templates fall in some of the shards only: those the
   * local list (`listed`) says hold none of the namespaces are not read at all, and the namespaces of the shards it
   * does not know (missing, or of another tree) are taken from their lines and given to it.
   */
  async templatesIn(namespaces: ReadonlySet<string>): Promise<[string, IndexEntry][]> {
    const inScope = (key: string) => namespaces.has(namespaceOfKey(key));
    const out: [string, IndexEntry][] = [];
    const unread: string[] = [];
    const unknown = new Set<string>();
    for (const id of ALL_SHARDS) {
      const shard = this.shards.get(id);
      if (shard) {
        for (const key of shard.templates.keys()) if (inScope(key)) out.push([key, shard.templates.get(key)!]);
      } else if (this.readShards && this.present.has(id)) {
        const holds = this.listed?.holdsAny(id, namespaces);
        if (holds === false) continue;
        unread.push(id);
        if (holds === undefined && this.listed) unknown.add(id);
      }
    }
    if (unread.length === 0) return out;
    const needles = [...namespaces].map((ns) => `/${ns}/`);
    const learned = new Map<string, Set<string>>();
    for (const [id, text] of await this.readShards!(unread)) {
      const learn = unknown.has(id) ? new Set<string>() : undefined;
      if (learn) learned.set(id, learn);
      const lines = templateLines(text);
      if (!lines) {
        const { templates } = parseShard(text);
        for (const key of templates.keys()) {
          learn?.add(namespaceOfKey(key));
          if (inScope(key)) out.push([key, templates.get(key)!]);
        }
        continue;
      }
      for (const line of lines) {
        if (learn) learn.add(namespaceOfKey(lineKey(line)[0]));
        if (!needles.some((needle) => line.includes(needle))) continue;
        const [key, entry] = Object.entries(JSON.parse(`{${line}}`) as Record<string, IndexEntry>)[0]!;
        if (inScope(key)) out.push([key, entry]);
      }
    }
    if (learned.size > 0) await this.listed!.learn(learned);
    return out;
  }

  /** The namespaces of a loaded shard's template entries (what the local list keeps of it); undefined when not loaded. */
  namespacesOfShard(id: string): Set<string> | undefined {
    const shard = this.shards.get(id);
    if (!shard) return undefined;
    const out = new Set<string>();
    for (const key of shard.templates.keys()) out.add(namespaceOfKey(key));
    return out;
  }

  /** The template keys of each of these shards (ids), each shard read and kept unless loaded already. */
  async templateKeysOf(ids: Iterable<string>): Promise<Map<string, string[]>> {
    const wanted = [...ids];
    await this.loadShards(wanted);
    return new Map(wanted.map((id) => [id, [...this.shard(id).templates.keys()]]));
  }

  private async loadShards(ids: Iterable<string>): Promise<void> {
    const missing = [...ids].filter((id) => !this.shards.has(id));
    if (missing.length === 0) return;
    const found = this.readShards
      ? await this.readShards(missing.filter((id) => this.present.has(id)))
      : new Map<string, string>();
    for (const id of missing) {
      const text = found.get(id);
      this.shards.set(id, text === undefined ? emptyShard() : parseShard(text));
    }
  }

  private shard(id: string): Shard {
    let shard = this.shards.get(id);
    if (!shard) {
      if (this.readShards)
        throw new Error(`internal error: index shard ${id} was used before it was read; please report this`);
      this.shards.set(id, (shard = emptyShard()));
    }
    return shard;
  }

  template(key: string): IndexEntry | undefined {
    return this.shard(shardOf(key)).templates.get(key);
  }

  parentsOf(key: string): readonly string[] {
    return this.shard(shardOf(key)).requiredBy.get(key) ?? [];
  }

  file(path: string): FileEntry | undefined {
    return this.shard(shardOf(path)).files.get(path);
  }

  /** Source files holding policies, clusters and other Karmada objects: read on every incremental sync. */
  karmadaFiles(): readonly string[] {
    return this.root.karmadaFiles;
  }

  /** Whether karmadaFiles() lists every file the current rule (KARMADA_FILES_RULE) takes: not on an older index. */
  karmadaFilesByCurrentRule(): boolean {
    return this.root.karmadaFilesRule === KARMADA_FILES_RULE;
  }

  /** Records that every file entry's `karmada` flag, and so karmadaFiles(), is now what the current rule says. */
  setKarmadaFilesByCurrentRule(): void {
    if (this.karmadaFilesByCurrentRule()) return;
    this.root.karmadaFilesRule = KARMADA_FILES_RULE;
    this.rootEdited = true;
  }

  /**
   * Kind → the source files (a unit by its marker) whose CustomResourceDefinitions declare it cluster-scoped: with the
   * files a sync reads, what says whether an object of a custom kind has a namespace.
   */
  clusterScopedKinds(): Readonly<Record<string, readonly string[]>> {
    return this.root.clusterScopedKinds;
  }

  /** Number of source files the index names: 0 means the source read as empty. */
  sourceFileCount(): number {
    return this.root.sourceFiles;
  }

  /** Templates whose binding holds graceful eviction tasks. */
  evictingTemplates(): readonly string[] {
    return this.root.evicting;
  }

  /** Templates whose binding waits on cluster status (their entry has `waiting`). */
  pendingTemplates(): readonly string[] {
    return this.root.pending;
  }

  /** Templates held because another object's output holds their paths: every sync renders them again. */
  blockedTemplates(): readonly string[] {
    return this.root.blocked;
  }

  /** Templates waiting for their policy's dependentOverrides: every sync renders them again. */
  awaitingTemplates(): readonly string[] {
    return this.root.awaiting;
  }

  /** Templates whose application may fail over: the reconciler watches their health (entry `applicationFailover`). */
  applicationFailoverTemplates(): readonly string[] {
    return this.root.applicationFailover;
  }

  /** Templates whose dispatching is suspended on some of their clusters (entry `suspended`): the applier skips them there. */
  suspendedTemplates(): readonly string[] {
    return this.root.suspended;
  }

  /**
   * The ResourceQuotas FederatedResourceQuotas make (entry `quotaOverall`): the status writers give each quota its
   * status as soon as it exists, as Karmada's status controller does, whether or not any member holds it.
   */
  quotaTemplates(): readonly string[] {
    return this.root.quotas;
  }

  /** The key of every template, no entry parsed (a reader after kinds or one kind's objects); needs loadAll() first. */
  templateKeys(): string[] {
    return ALL_SHARDS.flatMap((id) => [...this.shard(id).templates.keys()]);
  }

  /** Every template entry; needs loadAll() first. */
  templates(): [string, IndexEntry][] {
    return ALL_SHARDS.flatMap((id) => this.shard(id).templates.entries());
  }

  /**
   * The template entries whose line (`"<key>":<JSON value>`, as serializeShard writes it) `mayMatter` takes, and every
   * entry set since its shard was read: a walk over the fleet that can tell most entries apart by what their lines
   * contain parses only the others. Needs loadAll() first.
   */
  templatesWhere(mayMatter: (line: string) => boolean): [string, IndexEntry][] {
    return ALL_SHARDS.flatMap((id) => this.shard(id).templates.entriesWhere(mayMatter));
  }

  /** Every file entry; needs loadAll() first. */
  files(): [string, FileEntry][] {
    return ALL_SHARDS.flatMap((id) => this.shard(id).files.entries());
  }

  /** The file entries whose line `mayMatter` takes, and every entry set since its shard was read (as templatesWhere). */
  filesWhere(mayMatter: (line: string) => boolean): [string, FileEntry][] {
    return ALL_SHARDS.flatMap((id) => this.shard(id).files.entriesWhere(mayMatter));
  }

  toWhole(): OutputIndex {
    return { files: Object.fromEntries(this.files()), templates: Object.fromEntries(this.templates()) };
  }

  /** Sets or (undefined) removes a template's entry; who-requires-whom and the evicting list follow. */
  setTemplate(key: string, entry: IndexEntry | undefined): void {
    const id = shardOf(key);
    const shard = this.shard(id);
    const old = shard.templates.get(key);
    // The same entry rendered again: its shard's bytes would be too (serializeShard writes each entry's JSON).
    if (old === entry || (old && entry && shard.templates.holds(key, entry))) return;
    const oldDeps = new Set(old?.deps ?? []);
    const newDeps = new Set(entry?.deps ?? []);
    for (const dep of oldDeps) if (!newDeps.has(dep)) this.editParents(dep, (list) => list.filter((k) => k !== key));
    for (const dep of newDeps) if (!oldDeps.has(dep)) this.editParents(dep, (list) => [...list, key].sort());
    if (entry) shard.templates.set(key, entry);
    else shard.templates.delete(key);
    this.dirty.add(id);
    this.rootEdited = true;
    // The root lists the templates whose entry says so: each list follows the entry.
    this.root.evicting = listed(this.root.evicting, key, (entry?.evicting ?? []).length > 0);
    this.root.pending = listed(this.root.pending, key, entry?.waiting !== undefined);
    this.root.blocked = listed(this.root.blocked, key, entry?.blocked === true);
    this.root.awaiting = listed(this.root.awaiting, key, entry?.awaiting === true);
    this.root.applicationFailover = listed(
      this.root.applicationFailover,
      key,
      entry?.applicationFailover !== undefined,
    );
    this.root.suspended = listed(this.root.suspended, key, (entry?.suspended ?? []).length > 0);
    this.root.quotas = listed(this.root.quotas, key, entry?.quotaOverall !== undefined);
  }

  private editParents(dep: string, edit: (list: string[]) => string[]): void {
    const id = shardOf(dep);
    const shard = this.shard(id);
    const list = edit(shard.requiredBy.get(dep) ?? []);
    if (list.length > 0) shard.requiredBy.set(dep, list);
    else shard.requiredBy.delete(dep);
    this.dirty.add(id);
  }

  /** Sets or (undefined) removes a source file's entry; the file count and the Karmada file list follow. */
  setFile(path: string, entry: FileEntry | undefined): void {
    const id = shardOf(path);
    const shard = this.shard(id);
    const old = shard.files.get(path);
    if (old === entry || (old && entry && shard.files.holds(path, entry))) return;
    this.rootEdited = true;
    this.root.sourceFiles += (entry ? 1 : 0) - (old ? 1 : 0);
    if (Boolean(old?.karmada) !== Boolean(entry?.karmada)) {
      this.root.karmadaFiles = entry?.karmada
        ? [...this.root.karmadaFiles, path].sort()
        : this.root.karmadaFiles.filter((p) => p !== path);
    }
    const wasScoped = old?.clusterScoped ?? [];
    const scoped = entry?.clusterScoped ?? [];
    if (wasScoped.join() !== scoped.join()) {
      const kinds = { ...this.root.clusterScopedKinds };
      for (const kind of wasScoped) {
        const files = (kinds[kind] ?? []).filter((p) => p !== path);
        if (files.length > 0) kinds[kind] = files;
        else delete kinds[kind];
      }
      for (const kind of scoped) kinds[kind] = [...(kinds[kind] ?? []), path].sort();
      this.root.clusterScopedKinds = kinds;
    }
    if (entry) shard.files.set(path, entry);
    else shard.files.delete(path);
    this.dirty.add(id);
  }

  /** The files to write for the changes made: changed shards (null: now empty) and the root when it changed. */
  async edits(): Promise<Map<string, string | null>> {
    const out = new Map<string, string | null>();
    // Every shard changes on a cold render, each some MB of JSON at 50,000 templates: a turn between them.
    const turns = eventLoopTurns();
    for (const id of [...this.dirty].sort()) {
      if (turns.due()) await turns.give();
      const shard = this.shard(id);
      if (!isEmpty(shard)) out.set(shardPath(id), serializeShard(shard));
      else if (this.present.has(id)) out.set(shardPath(id), null);
    }
    const root = this.rootEdited ? serializeRoot(this.root) : this.rootText;
    if (root !== this.rootText) out.set(INDEX_PATH, root!);
    return out;
  }

  /** Every file of the index, for a folder: the root, and each shard (null: empty, remove it). */
  allFiles(): Map<string, string | null> {
    const out = new Map<string, string | null>([[INDEX_PATH, serializeRoot(this.root)]]);
    for (const id of ALL_SHARDS) {
      const shard = this.shard(id);
      out.set(shardPath(id), isEmpty(shard) ? null : serializeShard(shard));
    }
    return out;
  }

  /**
   * Whether the derived parts (who requires whom, file count, Karmada files, evicting and pending templates) agree with the
   * entries: what `verify` checks besides the entries themselves. Needs loadAll() first.
   */
  derivedPartsAgree(): boolean {
    const rebuilt = ShardedIndex.fromWhole(this.toWhole());
    // Not derived from the entries: the rule they were written by.
    rebuilt.root.karmadaFilesRule = this.root.karmadaFilesRule;
    if (serializeRoot(rebuilt.root) !== serializeRoot(this.root)) return false;
    // Entries as they are, not as their lines were laid out (by hand, say): the entries themselves are checked apart.
    return ALL_SHARDS.every((id) => serializeShard(rebuilt.shard(id)) === serializeShard(this.shard(id), true));
  }
}

/**
 * A sorted list of template keys with `key` in it or not, as `member` says; the same array when nothing changes, else
 * a copy (callers may hold the old one). Found by bisection: a render that evicts thousands of templates adds each.
 */
function listed(list: string[], key: string, member: boolean): string[] {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  if (member === (list[lo] === key)) return list;
  return member ? [...list.slice(0, lo), key, ...list.slice(lo)] : [...list.slice(0, lo), ...list.slice(lo + 1)];
}

/** A root's list as listed() keeps it: sorted (a root edited by hand may not be). */
function sortedList(list: string[] | undefined): string[] {
  return list ? [...list].sort() : [];
}

function emptyRoot(): IndexRoot {
  return {
    version: 2,
    sourceFiles: 0,
    karmadaFilesRule: KARMADA_FILES_RULE,
    karmadaFiles: [],
    evicting: [],
    pending: [],
    blocked: [],
    awaiting: [],
    applicationFailover: [],
    suspended: [],
    quotas: [],
    clusterScopedKinds: {},
  };
}

/** Every file of a whole index, for a folder (`render --out-dir`): the root, and each shard (null: empty, remove it). */
export function indexFiles(whole: OutputIndex): Map<string, string | null> {
  return ShardedIndex.fromWhole(whole).allFiles();
}

/** The whole index as a folder holds it (path → text): a version 2 root and its shards, or a version 1 file. */
export function indexOfFolder(files: ReadonlyMap<string, string>): OutputIndex {
  const text = files.get(INDEX_PATH);
  if (text === undefined) return emptyIndex();
  const file = parseIndexFile(text);
  if (file.version === 1) return file.whole;
  const whole = emptyIndex();
  for (const id of ALL_SHARDS) {
    const shard = files.get(shardPath(id));
    if (shard === undefined) continue;
    const parsed = parseShard(shard);
    for (const [path, entry] of parsed.files.entries()) whole.files[path] = entry;
    for (const [key, entry] of parsed.templates.entries()) whole.templates[key] = entry;
  }
  return whole;
}

/**
 * `changes` laid over a whole index, for renders that keep the index in memory (a snapshot): templates set or
 * (null) removed; files stay.
 */
export function applyTemplateChanges(whole: OutputIndex, changes: ReadonlyMap<string, IndexEntry | null>): OutputIndex {
  const templates = { ...whole.templates };
  for (const [key, entry] of changes) {
    if (entry) templates[key] = entry;
    else delete templates[key];
  }
  return { files: whole.files, templates };
}

/** An IndexView over a whole index in memory. */
export function viewOfWhole(whole: OutputIndex): IndexView {
  const parents = new Map<string, string[]>();
  for (const key of Object.keys(whole.templates).sort()) {
    for (const dep of whole.templates[key]!.deps ?? []) {
      const list = parents.get(dep);
      if (list) list.push(key);
      else parents.set(dep, [key]);
    }
  }
  return { template: (key) => whole.templates[key], parentsOf: (key) => parents.get(key) ?? [] };
}
