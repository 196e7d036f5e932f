import { isAlias, isMap, isPair, isScalar, isSeq, type Document, type Node, type Scalar } from 'yaml';
import type { ProblemCode } from '../errors/codes.ts';
import { unsafeInteger, keyStringOf, plainKeyString } from './goYamlSchema.ts';
import { setDataKey } from './setDataKey.ts';

/**
 * One parsed YAML document as the JSON kubectl sends: go-yaml v2's decoding into interface{} (merge keys applied in
 * order, so a later key wins; aliases copied) and sigs.k8s.io/yaml's conversion to JSON (non-string keys become
 * strings; null and collection keys, and .inf/.nan values, have no JSON form and fail the file). Scalars arrive
 * already resolved by GO_YAML_TAGS; the plain keys are resolved here from their text, since a float key is
 * written the way Go formats a float32 and an int key with all its digits.
 */
export function documentValue(
  doc: Document.Parsed,
  maxAliasCount: number,
  duplicates?: DuplicateKey[],
  maxAliasedBytes = Number.POSITIVE_INFINITY,
  exactIntegers = false,
): unknown {
  if (!doc.contents) return null;
  return new Converter(doc, maxAliasCount, duplicates, maxAliasedBytes, exactIntegers).value(doc.contents);
}

/**
 * A key a mapping sets twice (after kubectl's reading: `yes` and `ON` are both "true"): go-yaml v2 keeps the last
 * value, and so does this reading; the earlier one is lost.
 */
export interface DuplicateKey {
  key: string;
  /** Where the later key is. */
  offset: number;
  /** Where the first one is. */
  firstOffset: number;
}

/** What makes a document unreadable for kubectl, at the node that does it. */
export class DocumentValueError extends Error {
  constructor(
    message: string,
    readonly offset: number,
    readonly code: ProblemCode,
    readonly fix: string,
  ) {
    super(message);
  }
}

const QUOTE_FIX = 'quote it (for example "…") so it stays text, or write what kubectl can carry as JSON';

class Converter {
  #aliases = 0;
  /** Source bytes copied by alias expansions so far: a few aliases of a large anchor multiply a file as surely as many. */
  #aliasedBytes = 0;
  readonly #active = new Set<Node>();

  constructor(
    readonly doc: Document.Parsed,
    readonly maxAliasCount: number,
    readonly duplicates?: DuplicateKey[],
    readonly maxAliasedBytes = Number.POSITIVE_INFINITY,
    /** An int beyond 2^53 as a BigInt of its exact value: for text Flotilla writes back as YAML, never as JSON. */
    readonly exactIntegers = false,
  ) {}

  value(node: Node | null | undefined): unknown {
    if (node === null || node === undefined) return null;
    if (isScalar(node)) return this.#scalar(node);
    if (isAlias(node)) {
      const target = this.#follow(node);
      let value: unknown;
      this.#guard(target, () => {
        value = this.value(target);
      });
      return value;
    }
    if (isMap(node)) {
      const out: Record<string, unknown> = {};
      this.#mergeInto(out, node as Node);
      return out;
    }
    // An !!omap or !!pairs is a sequence of pairs: go-yaml gives kubectl each as a one-key mapping.
    if (isSeq(node))
      return node.items.map((item) =>
        isPair(item)
          ? { [this.#key(item.key as Node | null)]: this.value(item.value as Node | null) }
          : this.value(item as Node),
      );
    throw new DocumentValueError('this node has no JSON form', offsetOf(node), 'YAML_SYNTAX', QUOTE_FIX);
  }

  #scalar(node: Scalar): unknown {
    const v = node.value;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) {
        throw new DocumentValueError(
          `\`${node.source}\` reads as ${Number.isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf'}, which JSON cannot carry: kubectl refuses the file`,
          offsetOf(node),
          'YAML_NOT_JSON',
          QUOTE_FIX,
        );
      }
      if (this.exactIntegers && !Number.isSafeInteger(v) && node.type === 'PLAIN' && typeof node.source === 'string') {
        const exact = unsafeInteger(node.source);
        if (exact !== undefined) return BigInt(exact);
      }
      return v === 0 ? 0 : v; // JSON has no -0
    }
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
    if (v === undefined) return null;
    // !!binary: go-yaml decodes the base64 into a Go string of those bytes, which JSON then carries as text.
    if (v instanceof Uint8Array) return new TextDecoder().decode(v);
    // A tag the schema resolves to something else (a date): go-yaml hands over the text.
    return node.source ?? String(v);
  }

  /** Applies a mapping's pairs to `out` in order, as go-yaml does: a later key, merged or not, wins. */
  #mergeInto(out: Record<string, unknown>, node: Node): void {
    if (!isMap(node)) return;
    // The mapping's own keys (merged ones may be overridden by design), for its duplicates; only for the first visit
    // of a node, an alias's copies repeat it.
    const own = this.duplicates && !this.#active.has(node) ? new Map<string, number>() : undefined;
    for (const pair of node.items) {
      const key = pair.key as Node | null;
      if (isScalar(key) && key.source === '<<' && (key.type === 'PLAIN' || key.tag === 'tag:yaml.org,2002:merge')) {
        this.#merge(out, pair.value as Node | null);
        continue;
      }
      const name = this.#key(key);
      if (own) {
        const first = own.get(name);
        if (first === undefined) own.set(name, offsetOf(key));
        else this.duplicates!.push({ key: name, offset: offsetOf(key), firstOffset: first });
      }
      const value = this.value(pair.value as Node | null);
      setDataKey(out, name, value);
    }
  }

  #merge(out: Record<string, unknown>, node: Node | null): void {
    const wantMap = () =>
      new DocumentValueError(
        'a merge key (<<) takes a mapping or a list of mappings',
        offsetOf(node),
        'YAML_SYNTAX',
        'merge a mapping (an alias to one, or a list of them), or rename the key',
      );
    const target = isAlias(node) ? this.#follow(node) : node;
    if (isMap(target)) {
      this.#guard(target, () => this.#mergeInto(out, target));
      return;
    }
    if (!isSeq(target)) throw wantMap();
    // Backwards: an earlier mapping in the list takes precedence.
    for (let i = target.items.length - 1; i >= 0; i--) {
      const item = target.items[i] as Node;
      const m = isAlias(item) ? this.#follow(item) : item;
      if (!isMap(m)) throw wantMap();
      this.#guard(m, () => this.#mergeInto(out, m));
    }
  }

  #key(key: Node | null): string {
    const node = isAlias(key) ? this.#follow(key) : key;
    let result: { key: string } | { error: string };
    if (node === null || node === undefined) result = keyStringOf(null);
    else if (isScalar(node)) {
      result =
        node.type === 'PLAIN' && !node.tag && typeof node.source === 'string'
          ? plainKeyString(node.source)
          : keyStringOf(this.#scalar(node));
    } else result = keyStringOf({});
    if ('error' in result) {
      throw new DocumentValueError(result.error, offsetOf(key), 'YAML_NOT_JSON', 'quote the key, or remove it');
    }
    return result.key;
  }

  /** An alias's node, counted against the alias budget (every expansion, nested ones too, counts). */
  #follow(alias: Node): Node {
    if (++this.#aliases > this.maxAliasCount) {
      throw new DocumentValueError(
        `more than ${this.maxAliasCount} alias expansions`,
        offsetOf(alias),
        'YAML_TOO_COMPLEX',
        'expand the aliases by hand; anchors that multiply into huge documents are refused',
      );
    }
    const target = isAlias(alias) ? alias.resolve(this.doc) : undefined;
    if (!target) {
      throw new DocumentValueError(
        'an alias to an anchor that is not defined before it',
        offsetOf(alias),
        'YAML_SYNTAX',
        'define the anchor (&name) before the alias (*name)',
      );
    }
    const range = (target as { range?: [number, number, number] }).range;
    this.#aliasedBytes += range ? range[1] - range[0] : 0;
    if (this.#aliasedBytes > this.maxAliasedBytes) {
      throw new DocumentValueError(
        `aliases that copy more than ${this.maxAliasedBytes} bytes of the file`,
        offsetOf(alias),
        'YAML_TOO_COMPLEX',
        'expand the aliases by hand; anchors that multiply into huge documents are refused',
      );
    }
    if (this.#active.has(target)) {
      throw new DocumentValueError(
        'an anchor whose value contains its own alias',
        offsetOf(alias),
        'YAML_SYNTAX',
        'an alias cannot refer to the node it is inside',
      );
    }
    return target;
  }

  #guard(node: Node, fn: () => void): void {
    this.#active.add(node);
    try {
      fn();
    } finally {
      this.#active.delete(node);
    }
  }
}

function offsetOf(node: Node | null | undefined): number {
  return (node as { range?: [number, number, number] } | null)?.range?.[0] ?? 0;
}
