import type { GitRepo } from '../../commits/types.ts';
import type { ShardNamespaces } from './outputIndex.ts';
import { readShardList, saveShardList } from './shardListFile.ts';

/**
 * Which namespaces each output index shard's templates are in, kept beside the object store
 * (`<gitdir>/flotilla-index-namespaces.json`), so a change to a namespace's policies reads the shards holding that
 * namespace's templates (a third of them at L) instead of all 256 (outputIndex.ts, templatesIn). It is derived from
 * the shards and keyed by each shard's blob oid, so an entry never goes stale: a shard the list does not know (the
 * list missing, unreadable, cut short by a crash, or kept for another tree) is read, as without the list, and learned.
 * Kept for one output tree: each save keeps the entries of one tree's shards only, so it stays the size of one index
 * (some 20 KB at L). Written whole to a file of its own and renamed over the old one: a reader sees one writer's
 * list or another's, each true of the shards it names. A cache only: it never reaches a branch, and deleting it costs
 * one slower policy sync.
 *
 * Layout: `{"format":1,"namespaces":[...],"shards":{"<oid>":<set>}}`, a set being the hex bitmap over `namespaces`
 * (bit i of the number the hex spells, least significant last: namespace i) or, when shorter, the list of indexes.
 */
const LIST_FILE = 'flotilla-index-namespaces.json';
const FORMAT = 1;

type EncodedSet = string | number[];

export class IndexNamespaceList {
  readonly #names: readonly string[];
  readonly #indexOf: ReadonlyMap<string, number>;
  readonly #encoded: Map<string, EncodedSet>;
  readonly #decoded = new Map<string, ReadonlySet<string>>();
  /** What the file held as read: a save that would write the same bytes writes nothing. */
  readonly #text: string | undefined;

  private constructor(names: readonly string[], encoded: Map<string, EncodedSet>, text: string | undefined) {
    this.#names = names;
    this.#indexOf = new Map(names.map((name, i) => [name, i]));
    this.#encoded = encoded;
    this.#text = text;
  }

  /** The list on disk; an empty one when there is none, or it is not whole or not of this format. */
  static read(repo: GitRepo): IndexNamespaceList {
    const text = readShardList(repo, LIST_FILE);
    return (text !== undefined ? IndexNamespaceList.parse(text) : undefined) ?? IndexNamespaceList.empty();
  }

  static empty(): IndexNamespaceList {
    return new IndexNamespaceList([], new Map(), undefined);
  }

  /** The list a file's text holds; undefined when the text is not a whole list of this format. */
  static parse(text: string): IndexNamespaceList | undefined {
    let parsed: { format?: unknown; namespaces?: unknown; shards?: unknown };
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      return undefined; // cut short, or not ours
    }
    const { format, namespaces, shards } = parsed ?? {};
    if (format !== FORMAT || !Array.isArray(namespaces) || !namespaces.every((n) => typeof n === 'string'))
      return undefined;
    if (typeof shards !== 'object' || shards === null || Array.isArray(shards)) return undefined;
    const encoded = new Map<string, EncodedSet>();
    for (const [oid, set] of Object.entries(shards as Record<string, unknown>)) {
      const valid =
        /^[0-9a-f]{40}$/.test(oid) &&
        ((typeof set === 'string' && /^[0-9a-f]*$/.test(set) && set.length * 4 <= namespaces.length + 3) ||
          (Array.isArray(set) && set.every((i) => Number.isInteger(i) && i >= 0 && i < namespaces.length)));
      if (!valid) return undefined;
      encoded.set(oid, set as EncodedSet);
    }
    return new IndexNamespaceList(namespaces as string[], encoded, text);
  }

  /** The namespaces of the shard with this blob oid; undefined when the list does not know it. */
  namespacesOf(oid: string): ReadonlySet<string> | undefined {
    const known = this.#decoded.get(oid);
    if (known) return known;
    const set = this.#encoded.get(oid);
    if (set === undefined) return undefined;
    const out = new Set<string>();
    if (typeof set === 'string') {
      for (let d = 0; d < set.length; d++) {
        const nibble = Number.parseInt(set[set.length - 1 - d]!, 16);
        for (let b = 0; b < 4 && 4 * d + b < this.#names.length; b++)
          if ((nibble >> b) & 1) out.add(this.#names[4 * d + b]!);
      }
    } else {
      for (const i of set) out.add(this.#names[i]!);
    }
    this.#decoded.set(oid, out);
    return out;
  }

  /** Whether the shard with this blob oid holds a template of one of `namespaces`; undefined when not known. */
  holdsAny(oid: string, namespaces: ReadonlySet<string>): boolean | undefined {
    const set = this.#encoded.get(oid);
    if (set === undefined) return this.#decoded.has(oid) ? hasAny(this.#decoded.get(oid)!, namespaces) : undefined;
    for (const ns of namespaces) {
      const i = this.#indexOf.get(ns);
      if (i === undefined) continue; // in none of the shards the file knows
      if (typeof set === 'string' ? bitAt(set, i) : set.includes(i)) return true;
    }
    return false;
  }

  /** Whether the list knows the shard with this blob oid. */
  knows(oid: string): boolean {
    return this.#encoded.has(oid) || this.#decoded.has(oid);
  }

  /** Learns (or confirms) the namespaces of the shard with this blob oid. */
  set(oid: string, namespaces: ReadonlySet<string>): void {
    this.#encoded.delete(oid);
    this.#decoded.set(oid, namespaces);
  }

  /** The text of the list of these shards (blob oids; those it does not know are left out). */
  textFor(oids: Iterable<string>): string {
    const wanted = [...new Set(oids)].filter((oid) => this.knows(oid)).sort();
    // The usual save (a sync rewrote some shards of namespaces the list names already): the entries read stay as
    // they are, the new ones are encoded over the same names. Decoding every entry costs more than the rest of a save.
    if (wanted.every((oid) => this.#encoded.has(oid) || allNamed(this.#decoded.get(oid)!, this.#indexOf))) {
      const shards: Record<string, EncodedSet> = {};
      for (const oid of wanted)
        shards[oid] = this.#encoded.get(oid) ?? encode(this.#decoded.get(oid)!, this.#indexOf, this.#names.length);
      return `${JSON.stringify({ format: FORMAT, namespaces: this.#names, shards })}\n`;
    }
    // A namespace the list does not name yet: the names of the kept entries, sorted (those no shard holds any more go).
    const kept = new Map(wanted.map((oid) => [oid, this.namespacesOf(oid)!]));
    const names = [...new Set([...kept.values()].flatMap((set) => [...set]))].sort();
    const indexOf = new Map(names.map((name, i) => [name, i]));
    const shards: Record<string, EncodedSet> = {};
    for (const oid of [...kept.keys()].sort()) shards[oid] = encode(kept.get(oid)!, indexOf, names.length);
    return `${JSON.stringify({ format: FORMAT, namespaces: names, shards })}\n`;
  }

  /**
   * Saves the list of one tree's shards (their blob oids): written to a file of this process and renamed over the
   * list, so a crash or another writer never leaves half of one. A failure (a read-only repository) is ignored: the
   * list is a cache.
   */
  async save(repo: GitRepo, oids: Iterable<string>): Promise<void> {
    const text = this.textFor(oids);
    if (text !== this.#text) await saveShardList(repo, LIST_FILE, text);
  }
}

/**
 * The list as an index read from one tree sees it: shard id → that tree's blob oid. The file is read on first use
 * only (a sync that never asks for a namespace's templates does not read it), and what templatesIn learns is saved
 * for that tree at once.
 */
export function shardNamespacesOf(repo: GitRepo, shardOids: ReadonlyMap<string, string>): ShardNamespaces {
  let list: IndexNamespaceList | undefined;
  const opened = () => (list ??= IndexNamespaceList.read(repo));
  return {
    holdsAny(id, namespaces) {
      const oid = shardOids.get(id);
      return oid === undefined ? false : opened().holdsAny(oid, namespaces);
    },
    async learn(found) {
      const known = opened();
      for (const [id, namespaces] of found) {
        const oid = shardOids.get(id);
        if (oid !== undefined) known.set(oid, namespaces);
      }
      await known.save(repo, shardOids.values());
    },
  };
}

/**
 * After a render wrote a tree whose index shards are `shardOids` (id → blob oid): the list kept for that tree. A shard
 * the list knows keeps its entry; one it does not (the render wrote it) is learned from the index in memory when it is
 * loaded there (`namespacesOfShard`, what was just written), and left out otherwise, to be learned when read.
 */
export async function keepIndexNamespaces(
  repo: GitRepo,
  shardOids: ReadonlyMap<string, string>,
  namespacesOfShard: (id: string) => ReadonlySet<string> | undefined,
): Promise<void> {
  const list = IndexNamespaceList.read(repo);
  for (const [id, oid] of shardOids) {
    if (list.knows(oid)) continue;
    const namespaces = namespacesOfShard(id);
    if (namespaces) list.set(oid, namespaces);
  }
  await list.save(repo, shardOids.values());
}

/** Whether every namespace of `set` is among the names (their indexes). */
function allNamed(set: ReadonlySet<string>, indexOf: ReadonlyMap<string, number>): boolean {
  for (const ns of set) if (!indexOf.has(ns)) return false;
  return true;
}

function hasAny(set: ReadonlySet<string>, namespaces: ReadonlySet<string>): boolean {
  for (const ns of namespaces) if (set.has(ns)) return true;
  return false;
}

/** Bit i of a hex bitmap whose last digit holds bits 0-3 (least significant first). */
function bitAt(hex: string, i: number): boolean {
  const digit = hex.length - 1 - (i >> 2);
  return digit >= 0 && ((Number.parseInt(hex[digit]!, 16) >> (i & 3)) & 1) === 1;
}

const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');

/** A set as a hex bitmap over `count` names, or as the list of its indexes when that is shorter. */
function encode(set: ReadonlySet<string>, indexOf: ReadonlyMap<string, number>, count: number): EncodedSet {
  const digits = Math.ceil(count / 4);
  // An index takes about four characters, a hex digit four names.
  if (set.size * 4 < digits) return [...set].map((name) => indexOf.get(name)!).sort((a, b) => a - b);
  const nibbles = Buffer.alloc(digits, 0);
  for (const name of set) {
    const i = indexOf.get(name)!;
    nibbles[digits - 1 - (i >> 2)]! |= 1 << (i & 3);
  }
  for (let d = 0; d < digits; d++) nibbles[d] = HEX_DIGITS[nibbles[d]!]!;
  return nibbles.toString('latin1');
}
