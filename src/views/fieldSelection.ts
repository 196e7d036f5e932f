import { FieldSelectorError, parseFieldSelector } from '../fieldSelectors/parseFieldSelector.ts';
import {
  convertFieldSelector,
  matchesFieldSet,
  selectableFieldsOf,
  type SelectableResource,
} from '../fieldSelectors/selectableFields.ts';
import { groupOf, versionOf } from '../api/kinds.ts';
import type { Listing } from './readListing.ts';
import type { ResourceType } from './resolveResourceType.ts';
import type { CustomResourceView } from './resourceCategories.ts';

// The version kube-apiserver 1.32 prefers in each built-in group a template's kind can be in; kubectl names the
// resource it lists at that version.
const PREFERRED_VERSIONS: Record<string, string> = {
  '': 'v1',
  autoscaling: 'v2',
  'flowcontrol.apiserver.k8s.io': 'v1',
};

/** A resource as a member's API server serves it: what its field selectors read, and the version it is listed at. */
export interface ServedResource {
  selectable: SelectableResource;
  version: string;
}

/**
 * How the API server serves what `type` lists: Karmada's kinds as karmada-apiserver does (Cluster by its aggregated
 * apiserver, whose conversion is the default one; the rest as CRDs without selectable fields), a kind whose CRD the
 * repository holds as that CRD says, another kind of a Kubernetes group as kube-apiserver's built-in. Pure.
 */
export function servedResource(
  type: ResourceType,
  crds: readonly CustomResourceView[],
  listing: Pick<Listing, 'objects'>,
): ServedResource {
  const custom = (group: string, plural: string, namespaced: boolean, version: string): ServedResource => ({
    selectable: { group, plural, namespaced, customResource: { selectableFields: [] } },
    version,
  });
  switch (type.type) {
    case 'clusters':
      return {
        selectable: { group: 'cluster.karmada.io', plural: 'clusters', namespaced: false },
        version: 'v1alpha1',
      };
    case 'bindings':
      return type.scope === 'cluster'
        ? custom('work.karmada.io', 'clusterresourcebindings', false, 'v1alpha2')
        : custom('work.karmada.io', 'resourcebindings', true, 'v1alpha2');
    case 'works':
      return custom('work.karmada.io', 'works', true, 'v1alpha1');
    case 'federatedhpas':
      return custom('autoscaling.karmada.io', 'federatedhpas', true, 'v1alpha1');
    case 'federatedresourcequotas':
      return custom('policy.karmada.io', 'federatedresourcequotas', true, 'v1alpha1');
    case 'policies':
      return custom('policy.karmada.io', type.plural, !type.kind.startsWith('Cluster'), 'v1alpha1');
    case 'templates': {
      const group = type.group ?? '';
      const crd = crds.find((c) => c.group === group && c.kind === type.kind);
      if (crd)
        return {
          selectable: {
            group,
            plural: crd.plural,
            namespaced: crd.namespaced,
            customResource: { selectableFields: crd.versions[0]?.selectableFields ?? [] },
          },
          version: crd.versions[0]?.name ?? 'v1',
        };
      const apiVersion = (listing.objects[0] as { apiVersion?: unknown } | undefined)?.apiVersion;
      const listed = typeof apiVersion === 'string' && groupOf(apiVersion) === group ? versionOf(apiVersion) : 'v1';
      if (isBuiltInGroup(group))
        return {
          selectable: { group, plural: type.plural, namespaced: true },
          version: Object.hasOwn(PREFERRED_VERSIONS, group) ? PREFERRED_VERSIONS[group]! : 'v1',
        };
      const namespaced = listing.objects.some((o) => (o as { metadata?: { namespace?: unknown } }).metadata?.namespace);
      return custom(group, type.plural, namespaced || listing.objects.length === 0, listed);
    }
  }
}

/** kube-apiserver's own groups: the core group, unqualified names (apps, batch) and *.k8s.io. */
function isBuiltInGroup(group: string): boolean {
  return group === '' || !group.includes('.') || group.endsWith('.k8s.io');
}

/**
 * The listing's rows whose objects the field selector takes, as the API server selects them: parsed as
 * fields.ParseSelector, each label through the kind's conversion, matched on the kind's selectable fields. A selector
 * it refuses is its 400's message. Pure.
 */
export function selectByFields(listing: Listing, resource: SelectableResource, selector: string): Listing | string {
  let requirements: ReturnType<typeof convertFieldSelector>;
  try {
    requirements = convertFieldSelector(resource, parseFieldSelector(selector));
  } catch (err) {
    if (err instanceof FieldSelectorError) return err.message;
    throw err;
  }
  const fieldsOf = selectableFieldsOf(resource);
  const keep = listing.objects.map((o) => matchesFieldSet(requirements, fieldsOf(o)));
  return {
    ...listing,
    rows: listing.rows.filter((_, i) => keep[i]),
    objects: listing.objects.filter((_, i) => keep[i]),
  };
}

/** schema.GroupVersionResource's String(), as kubectl's list errors quote it (`apps/v1, Resource=deployments`). */
export function groupVersionResource(type: ResourceType, served: ServedResource): string {
  const { group, plural } = served.selectable;
  return `${group === '' ? '' : group}/${served.version}, Resource=${type.type === 'templates' ? type.plural : plural}`;
}
