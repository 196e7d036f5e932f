import type { ResourceRegistry } from '../resources/ResourceRegistry.ts';
import type { ResourceType, Subresource } from '../types.ts';

export interface ApiPath {
  group: string;
  version: string;
  rt: ResourceType;
  namespace?: string;
  name?: string;
  subresource?: Subresource;
  /** Reached through the deprecated `/watch/` prefix, which serves only watches. */
  watch?: boolean;
}

export type ParsedPath =
  | { type: 'resource'; path: ApiPath }
  | { type: 'unknown-resource'; group: string; version: string; plural: string }
  | { type: 'none' };

/**
 * `/api/v1/namespaces/default/pods/web/status` → pods in default, name web, subresource status.
 * `/api/v1/namespaces/foo` is the Namespace foo itself, and `/api/v1/namespaces/foo/status` its status,
 * which is why parsing needs the registry: a segment after the namespace is a resource only if one exists.
 */
export function parseApiPath(registry: ResourceRegistry, pathname: string): ParsedPath {
  const segments = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  let group: string;
  let version: string;
  let rest: string[];
  if (segments[0] === 'api' && segments.length >= 3) {
    group = '';
    version = segments[1]!;
    rest = segments.slice(2);
  } else if (segments[0] === 'apis' && segments.length >= 4) {
    group = segments[1]!;
    version = segments[2]!;
    rest = segments.slice(3);
  } else return { type: 'none' };
  const watch = rest[0] === 'watch' && rest.length >= 2;
  if (watch) rest = rest.slice(1);

  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    const candidate = registry.byPlural(group, version, rest[2]!);
    if (candidate?.namespaced) {
      namespace = rest[1];
      rest = rest.slice(2);
    }
  }
  const [plural, name, subresource, ...extra] = rest;
  if (!plural || extra.length > 0) return { type: 'none' };
  const rt = registry.byPlural(group, version, plural);
  if (!rt) return { type: 'unknown-resource', group, version, plural };
  if (subresource && !rt.subresources.includes(subresource as Subresource))
    return { type: 'unknown-resource', group, version, plural: `${plural}/${subresource}` };
  return {
    type: 'resource',
    path: {
      group,
      version,
      rt,
      ...(namespace !== undefined ? { namespace } : {}),
      ...(name ? { name } : {}),
      ...(subresource ? { subresource: subresource as Subresource } : {}),
      ...(watch ? { watch } : {}),
    },
  };
}
