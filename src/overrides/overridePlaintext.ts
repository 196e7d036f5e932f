// plaintext: the rule's plaintext overriders as one RFC 6902 JSON patch on the whole manifest.
import type { PlaintextOverrider } from '../api/policy.ts';
import { applyJsonPatch } from '../patches/jsonPatch.ts';
import { isManifest, type Manifest, type OverrideStep } from './overrideStep.ts';

/**
 * `add` creates or replaces a member (an existing map is replaced whole, not merged); patching under a missing
 * path fails; an omitted value is written as null. The failure names the operation, e.g. "plaintext[1]".
 */
export function applyPlaintextOverriders(
  manifest: Manifest,
  overriders: readonly PlaintextOverrider[] | undefined,
): OverrideStep {
  const operations = (overriders ?? []).map((o) => ({ op: o.operator, path: o.path, value: o.value }));
  if (operations.length === 0) return { ok: true, manifest };
  const result = applyJsonPatch(manifest, operations);
  if (!result.ok) return { ok: false, overrider: `plaintext[${result.index}]`, message: result.message };
  if (!isManifest(result.document))
    return { ok: false, overrider: 'plaintext', message: 'the patch did not leave an object' };
  return { ok: true, manifest: result.document };
}
