// commandOverrider / argsOverrider: add or remove tokens of a named container's command or args.
import type { CommandArgsOverrider } from '../api/policy.ts';
import type { JsonPatchOperation } from '../patches/jsonPatch.ts';
import {
  applyEachAsPatch,
  isManifest,
  nestedField,
  podSpecPath,
  type Manifest,
  type OverrideStep,
} from './overrideStep.ts';

export type CommandArgsField = 'command' | 'args';

/**
 * Each overrider in turn, each as its own patch, for a Pod or a workload only (other kinds are left alone).
 * Every container with the given name is changed (not initContainers). `add` appends the tokens, creating the
 * field when absent; `remove` deletes every occurrence of each listed token; other operators keep the list.
 * A missing field is created even by `remove`, which then writes an empty list.
 */
export function applyCommandArgsOverriders(
  manifest: Manifest,
  field: CommandArgsField,
  overriders: readonly CommandArgsOverrider[] | undefined,
): OverrideStep {
  return applyEachAsPatch(
    manifest,
    overriders,
    field === 'command' ? 'commandOverrider' : 'argsOverrider',
    (current, overrider) => {
      const patches = buildPatches(current, field, overrider);
      return typeof patches === 'string' ? patches : { patches };
    },
  );
}

/** The new token list for one container. */
export function overrideTokens(current: readonly string[], overrider: CommandArgsOverrider): string[] {
  const value = overrider.value ?? [];
  switch (overrider.operator) {
    case 'add':
      return [...current, ...value];
    case 'remove': {
      const removed = new Set(value);
      return current.filter((token) => !removed.has(token));
    }
    default:
      return [...current];
  }
}

function buildPatches(
  manifest: Manifest,
  field: CommandArgsField,
  overrider: CommandArgsOverrider,
): JsonPatchOperation[] | string {
  const specPath = podSpecPath(manifest.kind);
  if (!specPath) return [];
  const containersPath = [...specPath, 'containers'];
  const containers = nestedField(manifest, containersPath);
  if (containers === undefined || containers === null) return [];
  if (!Array.isArray(containers)) return `failed to retrieve path(${containersPath.join('/')}) from rawObj: not a list`;
  const patches: JsonPatchOperation[] = [];
  for (const [index, container] of containers.entries()) {
    if (!isManifest(container)) return `container ${index} at ${containersPath.join('/')} is not an object`;
    if (container.name !== overrider.containerName) continue;
    const path = `/${containersPath.join('/')}/${index}/${field}`;
    const existing = container[field];
    if (existing === undefined || existing === null) {
      patches.push({ op: 'add', path, value: overrideTokens([], overrider) });
      continue;
    }
    if (!Array.isArray(existing)) return `${path} is not a list`;
    patches.push({ op: 'replace', path, value: overrideTokens(existing.map(String), overrider) });
  }
  return patches;
}
