// imageOverrider: rewrites one component (Registry, Repository, Tag) of container images.
import type { ImageOverrider } from '../api/policy.ts';
import type { JsonPatchOperation } from '../patches/jsonPatch.ts';
import {
  formatImage,
  parseImage,
  tagOrDigest,
  withTagOrDigest,
  withoutTagOrDigest,
  type ImageComponents,
} from './parseImage.ts';
import {
  applyEachAsPatch,
  isManifest,
  nestedField,
  podSpecPath,
  type Manifest,
  type OverrideStep,
} from './overrideStep.ts';

/**
 * Each overrider in turn, each as its own patch. Without a predicate every `containers[*].image` of a Pod or a
 * workload (not initContainers) is rewritten and other kinds are left alone; with one, the image at
 * predicate.path is.
 */
export function applyImageOverriders(
  manifest: Manifest,
  overriders: readonly ImageOverrider[] | undefined,
): OverrideStep {
  return applyEachAsPatch(manifest, overriders, 'imageOverrider', (current, overrider) => {
    const patches = overrider.predicate
      ? patchesWithPredicate(current, overrider, overrider.predicate.path)
      : patchesForContainers(current, overrider);
    return typeof patches === 'string' ? patches : { patches };
  });
}

/** The new image string, or an error message when the current image does not parse. */
export function overrideImage(
  current: string,
  overrider: ImageOverrider,
): { ok: true; image: string } | { ok: false; message: string } {
  const parsed = parseImage(current);
  if (!parsed.ok) return { ok: false, message: `failed to parse image value(${current}), error: ${parsed.message}` };
  const value = overrider.value ?? '';
  const image = changeComponent(parsed.image, overrider, value);
  if (!image) return { ok: false, message: `unsupported image component(${String(overrider.component)})` };
  return { ok: true, image: formatImage(image) };
}

function changeComponent(
  image: ImageComponents,
  overrider: ImageOverrider,
  value: string,
): ImageComponents | undefined {
  // `add` concatenates strings: registry "a.b" + ".test" is "a.b.test"; an unknown operator changes nothing.
  switch (overrider.component) {
    case 'Registry':
      if (overrider.operator === 'add') return { ...image, hostname: image.hostname + value };
      if (overrider.operator === 'replace') return { ...image, hostname: value };
      if (overrider.operator === 'remove') return { ...image, hostname: '' };
      return image;
    case 'Repository':
      if (overrider.operator === 'add') return { ...image, repository: image.repository + value };
      if (overrider.operator === 'replace') return { ...image, repository: value };
      if (overrider.operator === 'remove') return { ...image, repository: '' };
      return image;
    case 'Tag':
      if (overrider.operator === 'add') return withTagOrDigest(image, tagOrDigest(image) + value);
      if (overrider.operator === 'replace') return withTagOrDigest(image, value);
      if (overrider.operator === 'remove') return withoutTagOrDigest(image);
      return image;
    default:
      return undefined;
  }
}

function patchesForContainers(manifest: Manifest, overrider: ImageOverrider): JsonPatchOperation[] | string {
  const specPath = podSpecPath(manifest.kind);
  if (!specPath) return [];
  const containers = nestedField(manifest, [...specPath, 'containers']);
  if (containers === undefined || containers === null) return [];
  if (!Array.isArray(containers))
    return `failed to convert ${String(manifest.kind)}: /${specPath.join('/')}/containers is not a list`;
  const patches: JsonPatchOperation[] = [];
  for (const [index, container] of containers.entries()) {
    if (!isManifest(container))
      return `failed to convert ${String(manifest.kind)}: container ${index} is not an object`;
    const image = container.image ?? '';
    if (typeof image !== 'string')
      return `failed to convert ${String(manifest.kind)}: container ${index} image is not a string`;
    const result = overrideImage(image, overrider);
    if (!result.ok) return result.message;
    patches.push(replaceImage(`/${specPath.join('/')}/containers/${index}/image`, result.image));
  }
  return patches;
}

function patchesWithPredicate(
  manifest: Manifest,
  overrider: ImageOverrider,
  path: string,
): JsonPatchOperation[] | string {
  const current = imageAtPredicate(manifest, path);
  if (!current.ok) return `failed to obtain imageValue with predicate path(${path}), error: ${current.message}`;
  if (!path.startsWith('/')) return 'imagePath should be start with / character';
  const result = overrideImage(current.image, overrider);
  if (!result.ok) return result.message;
  return [replaceImage(path, result.image)];
}

/**
 * Karmada marshals its patch with `value,omitempty`, so an image that comes out empty (the repository removed from
 * "nginx") is sent without a value, which evanphx/json-patch writes as null.
 */
function replaceImage(path: string, image: string): JsonPatchOperation {
  return image === '' ? { op: 'replace', path } : { op: 'replace', path, value: image };
}

/**
 * Karmada's own walk for predicate.path (not a JSON pointer read): segments split on `/` without `~` escapes;
 * a list consumes the next segment as its index and must hold objects; the last segment must be a string.
 */
function imageAtPredicate(
  manifest: Manifest,
  path: string,
): { ok: true; image: string } | { ok: false; message: string } {
  const segments = path.replace(/^\/+|\/+$/g, '').split('/');
  let current: Manifest = manifest;
  for (let index = 0; index < segments.length - 1; index++) {
    const segment = segments[index] as string;
    const next = current[segment];
    if (Array.isArray(next)) {
      const itemToken = segments[index + 1] ?? '';
      const item = /^[+-]?[0-9]+$/.test(itemToken) ? next[Number(itemToken)] : undefined;
      if (!/^[+-]?[0-9]+$/.test(itemToken))
        return { ok: false, message: `path(${itemToken}) of rawObj's is not number` };
      if (!isManifest(item))
        return { ok: false, message: `path(${itemToken}) of rawObj's does not name an object in the list` };
      current = item;
      index++;
    } else if (isManifest(next)) {
      current = next;
    } else {
      return {
        ok: false,
        message: `path(${segment}) of rawObj's type is not map[string]interface{} and []interface{}`,
      };
    }
  }
  const last = segments[segments.length - 1] as string;
  const image = current[last];
  if (typeof image !== 'string') return { ok: false, message: `failed to convert path(${last}) to string` };
  return { ok: true, image };
}
