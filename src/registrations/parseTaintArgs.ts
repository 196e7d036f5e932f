import type { Taint } from '../api/cluster.ts';
import { labelValueProblems, qualifiedNameProblems } from '../labels/labelFormats.ts';
import { RegistrationError } from './RegistrationError.ts';

export type TaintEffect = Taint['effect'];
export const TAINT_EFFECTS: readonly TaintEffect[] = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** One word of `flotilla taint NAME …`: add `key[=value]:Effect`, or remove `key-` (every effect) / `key:Effect-`. */
export type TaintChange =
  | { action: 'add'; key: string; value?: string; effect: TaintEffect }
  | { action: 'remove'; key: string; effect?: TaintEffect };

/**
 * karmadactl's taint syntax (its lifted kubectl ParseTaints), word by word. Pure; throws RegistrationError BAD_TAINT
 * naming the word and the fix. The additions come first, then the removals, as karmadactl applies them; one command
 * may not both add and remove a taint (karmadactl's Validate).
 */
export function parseTaintArgs(words: readonly string[]): TaintChange[] {
  if (words.length === 0) throw bad('', 'no taint given');
  const changes = words.map(parseOne);
  const adds = changes.filter((c) => c.action === 'add');
  const seen = new Set<string>();
  for (const c of adds) {
    const id = `${c.key}:${c.effect}`;
    if (seen.has(id)) throw bad(id, 'the same key and effect are given twice');
    seen.add(id);
  }
  const removes = changes.filter((c) => c.action === 'remove');
  // karmadactl's Validate: a taint may not be both added (or modified) and removed by one command.
  const conflicts = removes.filter((r) => adds.some((a) => a.key === r.key && (!r.effect || a.effect === r.effect)));
  if (conflicts.length > 0)
    throw bad(
      conflicts.map((r) => `${r.key}${r.effect ? `:${r.effect}` : ''}-`).join(' '),
      'a taint cannot be both added and removed in the same command; run two commands',
    );
  return [...adds, ...removes];
}

function parseOne(word: string): TaintChange {
  const remove = word.endsWith('-');
  const body = remove ? word.slice(0, -1) : word;
  const colon = body.lastIndexOf(':');
  const keyValue = colon >= 0 ? body.slice(0, colon) : body;
  const effectWord = colon >= 0 ? body.slice(colon + 1) : undefined;
  if (!remove && effectWord === undefined) throw bad(word, 'an added taint needs an effect');
  const effect = effectWord === undefined ? undefined : parseEffect(word, effectWord);
  // kubectl's and karmadactl's parseTaint: without an effect the whole word is the key (`key=value-` is refused).
  const eq = effectWord === undefined ? -1 : keyValue.indexOf('=');
  const key = eq >= 0 ? keyValue.slice(0, eq) : keyValue;
  const value = eq >= 0 ? keyValue.slice(eq + 1) : undefined;
  checkKey(word, key);
  if (value !== undefined && labelValueProblems(value).length > 0) {
    throw bad(
      word,
      `value "${value}" is not a valid label value (at most 63 alphanumerics, '-', '_' or '.', starting and ending alphanumeric)`,
    );
  }
  // A removal matches by key and effect: a value written in it is read and dropped.
  if (remove) return effect ? { action: 'remove', key, effect } : { action: 'remove', key };
  if (effect === 'PreferNoSchedule')
    throw bad(
      word,
      "a Cluster takes no PreferNoSchedule taint (Karmada's API refuses it); use NoSchedule or NoExecute",
    );
  return { action: 'add', key, ...(value ? { value } : {}), effect: effect! };
}

function parseEffect(word: string, effect: string): TaintEffect {
  const found = TAINT_EFFECTS.find((e) => e === effect);
  if (!found) throw bad(word, `unknown effect "${effect}"; use ${TAINT_EFFECTS.join(', ')}`);
  return found;
}

function checkKey(word: string, key: string): void {
  if (qualifiedNameProblems(key).length > 0)
    throw bad(word, `key "${key}" is not a qualified name ([prefix/]name, name: 1-63 alphanumerics, '-', '_', '.')`);
}

function bad(word: string, why: string): RegistrationError {
  return new RegistrationError(
    'BAD_TAINT',
    `taint "${word}": ${why}; fix: write key=value:Effect, key:Effect, key:Effect- or key- (Effect: ${TAINT_EFFECTS.join(', ')})`,
  );
}
