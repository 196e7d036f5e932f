// A plan is read where Secrets are not: a PR comment, a CI log, a terminal over a shoulder. Its diffs show a Secret's
// keys and whether each value changed, never a value, as `kubectl diff` does (pkg/cmd/diff/diff.go, Masker) and Argo
// CD's diff does (gitops-engine pkg/diff HideSecretData, which also covers stringData and last-applied).
import { manifestYaml } from '../branches/rendered/manifestYaml.ts';
import { isSecret } from '../interpreters/isSecret.ts';
import { parseYamlValue } from '../yaml/blockYaml.ts';

type Obj = Record<string, unknown>;

const MASK = '***';
const MASK_BEFORE = '*** (before)';
const MASK_AFTER = '*** (after)';
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
const UNREADABLE = '# not shown: a Secret that does not parse as YAML\n';

/**
 * Both sides of one object's diff with a Secret's values masked: `***` where a key's value is the same on both
 * sides or on one side only, `*** (before)` and `*** (after)` where it changed, so the diff still shows which keys
 * changed. Texts that are not a Secret on either side come back as they are (null stays null: no such side).
 */
export function maskSecretValues(before: string | null, after: string | null): [string | null, string | null] {
  if (!mentionsSecret(before) && !mentionsSecret(after)) return [before, after];
  const from = read(before);
  const to = read(after);
  if (from === undefined || to === undefined) {
    // Which side is the Secret cannot be told from a text that does not parse: neither side is shown.
    return [before === null ? null : UNREADABLE, after === null ? null : UNREADABLE];
  }
  if (!isSecret(from ?? undefined) && !isSecret(to ?? undefined)) return [before, after];
  const masked = [from && { ...from }, to && { ...to }] as const;
  for (const field of ['data', 'stringData'] as const)
    mask(
      masked,
      (o) => o[field],
      (o, v) => (o[field] = v),
    );
  mask(
    masked,
    (o) =>
      annotationsOf(o)?.[LAST_APPLIED] === undefined ? undefined : { [LAST_APPLIED]: annotationsOf(o)![LAST_APPLIED] },
    (o, v) => (o.metadata = { ...(o.metadata as Obj), annotations: { ...annotationsOf(o), ...v } }),
  );
  return [
    masked[0] ? manifestYaml(masked[0]) : before === null ? null : UNREADABLE,
    masked[1] ? manifestYaml(masked[1]) : after === null ? null : UNREADABLE,
  ];
}

/** Masks the map `get` reads on each side that has one, writing the masked copy back with `set`. */
function mask(
  sides: readonly [Obj | null, Obj | null],
  get: (o: Obj) => unknown,
  set: (o: Obj, value: Obj) => void,
): void {
  const [a, b] = sides.map((o) => {
    const v = o ? get(o) : undefined;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;
  });
  const maskedA: Obj = {};
  const maskedB: Obj = {};
  for (const k of Object.keys(a ?? {})) {
    const changed = b !== undefined && Object.hasOwn(b, k) && !sameValue(a![k], b[k]);
    maskedA[k] = changed ? MASK_BEFORE : MASK;
  }
  for (const k of Object.keys(b ?? {})) {
    const changed = a !== undefined && Object.hasOwn(a, k) && !sameValue(a[k], b![k]);
    maskedB[k] = changed ? MASK_AFTER : MASK;
  }
  if (a) set(sides[0]!, maskedA);
  if (b) set(sides[1]!, maskedB);
}

function sameValue(x: unknown, y: unknown): boolean {
  return JSON.stringify(x) === JSON.stringify(y);
}

function annotationsOf(o: Obj): Obj | undefined {
  const annotations = (o.metadata as { annotations?: unknown } | undefined)?.annotations;
  return annotations && typeof annotations === 'object' ? (annotations as Obj) : undefined;
}

function mentionsSecret(text: string | null): boolean {
  return text !== null && text.includes('Secret');
}

/** The object of a side: null for no side (or an empty document), undefined when the text does not parse. */
function read(text: string | null): Obj | null | undefined {
  if (text === null) return null;
  try {
    const value = parseYamlValue(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : null;
  } catch {
    return undefined;
  }
}
