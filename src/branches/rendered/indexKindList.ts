import type { GitRepo } from '../../commits/types.ts';
import { readShardList, saveShardList } from './shardListFile.ts';

/**
 * Which kinds (`<apiVersion>/<kind>`) each output index shard's templates have, kept beside the object store
 * (`<gitdir>/flotilla-index-kinds.json`), so a read command resolving a type word, or looking for the fleet's CRDs,
 * reads the shards that hold the kinds it asks about instead of all 256 (62 MB of shards at 50,000 templates). Derived
 * from the shards and keyed by each shard's blob oid, as the namespace list is (indexNamespaceList.ts): an entry never
 * goes stale, a shard the list does not know is read and learned, and each save keeps one tree's shards. Written whole
 * to a file of its own and renamed over the old one. A cache only: it never reaches a branch, and deleting it costs
 * one slower read.
 *
 * Layout: `{"format":1,"shards":{"<oid>":["<apiVersion>/<kind>",...]}}`, each shard's kinds in the order its keys
 * first name them.
 */
const LIST_FILE = 'flotilla-index-kinds.json';
const FORMAT = 1;

export class IndexKindList {
  readonly #kinds: Map<string, readonly string[]>;
  /** What the file held as read: a save that would write the same bytes writes nothing. */
  readonly #text: string | undefined;

  private constructor(kinds: Map<string, readonly string[]>, text: string | undefined) {
    this.#kinds = kinds;
    this.#text = text;
  }

  /** The list on disk; an empty one when there is none, or it is not whole or not of this format. */
  static read(repo: GitRepo): IndexKindList {
    const text = readShardList(repo, LIST_FILE);
    return (text !== undefined ? IndexKindList.parse(text) : undefined) ?? new IndexKindList(new Map(), undefined);
  }

  /** The list a file's text holds; undefined when the text is not a whole list of this format. */
  static parse(text: string): IndexKindList | undefined {
    let parsed: { format?: unknown; shards?: unknown };
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      return undefined; // cut short, or not ours
    }
    const { format, shards } = parsed ?? {};
    if (format !== FORMAT || typeof shards !== 'object' || shards === null || Array.isArray(shards)) return undefined;
    const kinds = new Map<string, readonly string[]>();
    for (const [oid, list] of Object.entries(shards as Record<string, unknown>)) {
      if (!/^[0-9a-f]{40}$/.test(oid) || !Array.isArray(list) || !list.every(isKindPrefix)) return undefined;
      kinds.set(oid, list as string[]);
    }
    return new IndexKindList(kinds, text);
  }

  /** The kinds of the shard with this blob oid; undefined when the list does not know it. */
  kindsOf(oid: string): readonly string[] | undefined {
    return this.#kinds.get(oid);
  }

  /** Learns the kinds of the shard with this blob oid. */
  set(oid: string, kinds: readonly string[]): void {
    this.#kinds.set(oid, kinds);
  }

  /** The text of the list of these shards (blob oids; those it does not know are left out). */
  textFor(oids: Iterable<string>): string {
    const shards: Record<string, readonly string[]> = {};
    for (const oid of [...new Set(oids)].sort()) {
      const kinds = this.#kinds.get(oid);
      if (kinds) shards[oid] = kinds;
    }
    return `${JSON.stringify({ format: FORMAT, shards })}\n`;
  }

  /** Saves the list of one tree's shards (their blob oids), whole (shardListFile.ts). */
  async save(repo: GitRepo, oids: Iterable<string>): Promise<void> {
    const text = this.textFor(oids);
    if (text !== this.#text) await saveShardList(repo, LIST_FILE, text);
  }
}

/**
 * The kinds template keys name (`<apiVersion>/<kind>/<namespace>/<name>`), each once, in the order of the keys: a
 * key's last two parts hold no '/', so its kind is the rest, told without parsing the key.
 */
export function kindsOfKeys(keys: Iterable<string>): string[] {
  const seen = new Set<string>();
  for (const key of keys) seen.add(kindPrefixOf(key));
  return [...seen];
}

/** `<apiVersion>/<kind>` of a template key. */
export function kindPrefixOf(key: string): string {
  return key.slice(0, key.lastIndexOf('/', key.lastIndexOf('/') - 1));
}

function isKindPrefix(value: unknown): value is string {
  return typeof value === 'string' && value.includes('/');
}
