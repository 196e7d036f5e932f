import { createHash } from 'node:crypto';
import { groupOf, type ObjectRef } from '../../api/kinds.ts';
import { bindingName } from '../../names/bindingName.ts';

/**
 * The output layout is a contract read by the applier, Pull agents and external tools:
 *   clusters/<cluster>/<namespace>/<kind>[.<group>]_<name>.yaml   namespaced objects
 *   clusters/<cluster>/_cluster/<kind>[.<group>]_<name>.yaml      cluster-scoped objects
 *   bindings/<namespace or _cluster>/<name>-<kind>.yaml           ResourceBinding / ClusterResourceBinding
 * A path depends only on (group, kind, namespace, name). `_` and `.` cannot appear in a kind, nor `_` in a group
 * or namespace (documents/checkObjectName.ts), so two identities share a manifest path only when their kinds differ
 * in case alone; a binding file name has no group. Templates that would still share a path are an error at both
 * (outputPathKeys). Names were checked for `/`, `..` and NUL at parse time, and assertInside() re-checks every path
 * before it is written.
 */
export const CLUSTER_SCOPED_FOLDER = '_cluster';
/**
 * Objects released under preserveResourcesOnDeletion, per cluster (`{"<cluster>": [refKey…]}`): their template was
 * deleted or its result left the cluster. The applier leaves them on the member without Karmada's and Flotilla's claim
 * labels and annotations, and forgets them instead of pruning. An entry leaves when the template comes back to that
 * cluster.
 */
export const RELEASED_PATH = '.flotilla/released.json';

/** The released file's content: cluster → refKeys of the templates released there ('' or absent: none). */
export function parseReleasedFile(text: string | undefined): Map<string, Set<string>> {
  if (!text) return new Map();
  return new Map(
    Object.entries(JSON.parse(text) as Record<string, string[]>).map(([cluster, keys]) => [cluster, new Set(keys)]),
  );
}
/** The registered clusters of the rendered source commit, `{"clusters": [{"name", "syncMode"}…]}` (registeredClusters.ts). */
export const CLUSTERS_PATH = '.flotilla/clusters.json';

export function manifestPath(cluster: string, ref: ObjectRef): string {
  // A render asks once per cluster for each template: the part after the cluster is made and checked once per ref.
  let tail = manifestTails.get(ref);
  if (tail === undefined) {
    const group = groupOf(ref.apiVersion);
    const file = fileSafe(`${ref.kind.toLowerCase()}${group ? `.${group}` : ''}_${ref.name}`);
    tail = assertInside('clusters/-/', `clusters/-/${ref.namespace || CLUSTER_SCOPED_FOLDER}/${file}.yaml`).slice(11);
    manifestTails.set(ref, tail);
  }
  if (!isPathSegment(cluster)) assertInside(`clusters/${cluster}/`, `clusters/${cluster}/${tail}`);
  return `clusters/${cluster}/${tail}`;
}
const manifestTails = new WeakMap<ObjectRef, string>();

/** What assertInside asks of each segment of a path, for one segment. */
function isPathSegment(s: string): boolean {
  return s !== '' && s !== '.' && s !== '..' && !s.includes('/') && !s.includes('\\') && !s.includes('\0');
}

/**
 * The paths an object would take, with the cluster left out: two templates with a key in common would overwrite each
 * other's manifest or binding file. A manifest path holds the group, so only kinds differing in case collide there;
 * a binding file is named as Karmada names the binding (<name>-<kind>), so the same kind and name in two API groups
 * collide, as do names differing only in ':' against '.'. Checked once per commit (documents/assembleModel.ts).
 */
export function outputPathKeys(ref: ObjectRef): string[] {
  const manifest = manifestPath('-', ref).slice(clusterFolder('-').length);
  return [`manifest:${manifest}`, `binding:${bindingPath(ref)}`];
}

export function clusterFolder(cluster: string): string {
  return `clusters/${cluster}/`;
}

/** The cluster whose folder holds `path`, or undefined for a path outside every cluster's folder. */
export function clusterOfPath(path: string): string | undefined {
  if (!path.startsWith('clusters/')) return undefined;
  const end = path.indexOf('/', 9);
  return end > 9 ? path.slice(9, end) : undefined;
}

export function bindingPath(ref: ObjectRef): string {
  return assertInside(
    'bindings/',
    `bindings/${ref.namespace || CLUSTER_SCOPED_FOLDER}/${fileSafe(bindingName(ref.kind, ref.name))}.yaml`,
  );
}

/** File names are limited to 255 bytes: long names keep a readable prefix plus a hash of the whole. */
function fileSafe(base: string): string {
  if (Buffer.byteLength(base) <= 240) return base;
  const hash = createHash('sha1').update(base).digest('hex').slice(0, 16);
  return `${base.slice(0, 200)}~${hash}`;
}

export function assertInside(folder: string, path: string): string {
  const segments = path.split('/');
  if (
    !path.startsWith(folder) ||
    segments.some((s) => s === '' || s === '.' || s === '..') ||
    path.includes('\0') ||
    path.includes('\\')
  ) {
    throw new Error(
      `internal error: output path ${JSON.stringify(path)} would leave ${folder}; names are checked at parse time, please report this`,
    );
  }
  return path;
}
