import { BUILTIN_RESOURCE_NAMES } from '../api/builtinResourceNames.ts';
import { compareKubeAwareVersions } from '../sorting/compareKubeAwareVersions.ts';
import { customResourceDefinitions, type Fleet } from './readFleet.ts';
import { readTemplates } from './readListing.ts';
import type { ResourceType } from './resolveResourceType.ts';

type Obj = Record<string, unknown>;

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
// The groups of `all`'s members in kube-apiserver's discovery order (their APIService priorities).
const GROUP_ORDER = ['', 'apps', 'autoscaling', 'batch'];

/** What a CustomResourceDefinition of the repository tells get about the resource it defines. */
export interface CustomResourceView {
  group: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  categories: readonly string[];
  /** The served versions, in the order discovery lists them (the first is the preferred one). */
  versions: ReadonlyArray<{ name: string; selectableFields: readonly string[] }>;
}

/**
 * kube-apiserver 1.32's built-in members of `all`, in the order kubectl's discovery lists them: the core group, then
 * the groups by their priority (apps, autoscaling, batch: the table's order too), each version's resources by name.
 * The other category, api-extensions, holds no kind a template propagates as a workload, and is left to CRDs here.
 */
const BUILT_IN_CATEGORIES: Record<string, ReadonlyArray<{ kind: string; group: string; plural: string }>> = {
  all: BUILTIN_RESOURCE_NAMES.filter((n) => n.categories.includes('all'))
    .map(({ kind, group, plural }) => ({ kind, group, plural }))
    .sort((a, b) => GROUP_ORDER.indexOf(a.group) - GROUP_ORDER.indexOf(b.group) || compare(a.plural, b.plural)),
};

/**
 * The resource types a category word stands for, as cli-runtime's discovery category expander reads them: the
 * built-in members, then the custom resources whose CRD lists the category. CRD groups come after every built-in one
 * (their APIService priority, 1000, is the lowest), ordered by name; in a group, resources by name. Undefined when
 * nothing joins the category (the word is then a resource type). Pure.
 */
export function expandCategory(word: string, crds: readonly CustomResourceView[]): ResourceType[] | undefined {
  const builtIn = Object.hasOwn(BUILT_IN_CATEGORIES, word) ? BUILT_IN_CATEGORIES[word]! : [];
  const custom = crds
    .filter((crd) => crd.categories.includes(word) && crd.versions.length > 0)
    .sort((a, b) => compare(a.group, b.group) || compare(a.plural, b.plural));
  const types: ResourceType[] = [
    ...builtIn.map((k) => ({ type: 'templates' as const, ...k })),
    ...custom.map((crd) => ({ type: 'templates' as const, kind: crd.kind, group: crd.group, plural: crd.plural })),
  ];
  return types.length > 0 ? types : undefined;
}

/** The repository's CustomResourceDefinitions (templates of apiextensions.k8s.io), as get reads them. */
export async function readCustomResources(fleet: Fleet): Promise<CustomResourceView[]> {
  if (!fleet.rendered) return [];
  const entries = await customResourceDefinitions(fleet.rendered.index);
  if (entries.length === 0) return [];
  return (await readTemplates(fleet, entries)).flatMap((crd) => {
    const view = crd ? customResourceView(crd) : undefined;
    return view ? [view] : [];
  });
}

/** A CRD read as discovery shows what it defines; undefined when it does not name a group, kind and plural. Pure. */
export function customResourceView(crd: Obj): CustomResourceView | undefined {
  const spec = (crd.spec ?? {}) as {
    group?: unknown;
    scope?: unknown;
    names?: { kind?: unknown; plural?: unknown; categories?: unknown };
    versions?: unknown;
  };
  const { group, names } = spec;
  if (typeof group !== 'string' || typeof names?.kind !== 'string' || typeof names.plural !== 'string')
    return undefined;
  const versions = (Array.isArray(spec.versions) ? (spec.versions as Obj[]) : [])
    .filter((v) => typeof v?.name === 'string' && v.served !== false)
    .map((v) => ({
      name: v.name as string,
      selectableFields: (Array.isArray(v.selectableFields) ? (v.selectableFields as Obj[]) : []).map((f) =>
        String(f?.jsonPath ?? ''),
      ),
    }))
    .sort((a, b) => compareKubeAwareVersions(a.name, b.name));
  return {
    group,
    kind: names.kind,
    plural: names.plural,
    namespaced: spec.scope !== 'Cluster',
    categories: Array.isArray(names.categories) ? names.categories.map(String) : [],
    versions,
  };
}
