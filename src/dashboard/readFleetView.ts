import { groupOf } from '../api/kinds.ts';
import { isControlPlaneApi } from '../bindings/matchPolicy.ts';
import type { TargetCluster } from '../api/binding.ts';
import type { ResourceBinding } from '../api/binding.ts';
import { bindingPath } from '../branches/rendered/outputPaths.ts';
import {
  clusterStatusPath,
  HEARTBEAT_ANNOTATION,
  type AppliedRecord,
  type ClusterStatusFile,
} from '../branches/status/statusFiles.ts';
import { kindColumns } from '../views/kindColumns.ts';
import { readDocuments, type Fleet } from '../views/readFleet.ts';
import { readClusterViews, readTemplateViews } from '../views/readListing.ts';
import { selectWorkloads, type LabelRequirement, type WorkloadCatalog, type WorkloadQuery } from './selectWorkloads.ts';
import { readClusterFolders } from './readClusterFolders.ts';

type Obj = Record<string, unknown>;

/** The three branch heads a view was read from; the page compares them with what the live stream announces. */
export interface Heads {
  source: string;
  rendered: string | null;
  status: string | null;
}

export function headsOf(fleet: Fleet): Heads {
  return {
    source: fleet.source.commit.oid,
    rendered: fleet.rendered?.commit.oid ?? null,
    status: fleet.status?.commit.oid ?? null,
  };
}

/** GET /ui/api/fleet: the clusters table and one page of the workloads × clusters matrix. */
export interface FleetView {
  heads: Heads;
  /** `flotilla get clusters -o json`. */
  clusters: { apiVersion: 'v1'; kind: 'List'; items: Obj[] };
  /** Per cluster: what it last applied (status branch applied/<c>.yaml) and whether nothing newer waits for it. */
  applied: Record<string, AppliedRecord & { upToDate: boolean }>;
  /** Per Pull cluster: when its agent last posted status (the status file's flotilla.io/last-heartbeat). */
  heartbeats: Record<string, string>;
  workloads: {
    total: number;
    offset: number;
    limit: number;
    namespaces: string[];
    kinds: string[];
    /** Every cluster a row can have a cell for: the registered ones, in name order. */
    clusterNames: string[];
    items: WorkloadRow[];
  };
}

export interface WorkloadRow {
  key: string;
  /** `flotilla get <kind> NAME -n NS -o json`: the template with its aggregated status. */
  object: Obj;
  /** kubectl's columns for the kind (READY, UP-TO-DATE, … for a Deployment), as `get` prints them. */
  columns: { headers: string[]; cells: string[] };
  /** The binding's spec.clusters (the scheduler's result, replicas per cluster); empty when not scheduled. */
  placement: TargetCluster[];
  /** The index entry's clusters: where a manifest is rendered (dependencies included). */
  clusters: string[];
  /**
   * Set for a Karmada control-plane kind (FederatedHPA, MultiClusterService, ...): never propagated itself, so the
   * row says so instead of showing a workload placed nowhere.
   */
  controlPlane?: string;
}

/** The clusters part of the fleet view: the same for every page and filter, so read once per set of heads. */
export interface FleetClusters {
  clusters: FleetView['clusters'];
  applied: FleetView['applied'];
  heartbeats: FleetView['heartbeats'];
  names: string[];
}

export async function readFleetClusters(fleet: Fleet): Promise<FleetClusters> {
  const views = await readClusterViews(fleet);
  const folders = await readClusterFolders(fleet);
  const applied: FleetView['applied'] = {};
  for (const [name, v] of views)
    if (v.applied) applied[name] = { ...v.applied, upToDate: (folders.get(name) ?? null) === v.applied.folderTree };
  const heartbeats: FleetView['heartbeats'] = {};
  if (fleet.status) {
    const files = await readDocuments(fleet.repo, fleet.status, [...views.keys()].map(clusterStatusPath));
    for (const name of views.keys()) {
      const file = files.get(clusterStatusPath(name))?.[0] as ClusterStatusFile | undefined;
      const beat = file?.metadata?.annotations?.[HEARTBEAT_ANNOTATION];
      if (beat) heartbeats[name] = beat;
    }
  }
  return {
    clusters: { apiVersion: 'v1', kind: 'List', items: [...views.values()].map((v) => v.cluster as unknown as Obj) },
    applied,
    heartbeats,
    names: [...views.keys()],
  };
}

/** Reads what the fleet view shows; of the workloads only the page's templates, statuses and bindings are read. */
export async function readFleetView(
  fleet: Fleet,
  clusters: FleetClusters,
  q: WorkloadQuery,
  labels: readonly LabelRequirement[],
  catalog?: WorkloadCatalog,
): Promise<FleetView> {
  const selection = selectWorkloads(catalog ?? (await fleet.rendered?.index.whole())?.templates ?? {}, q, labels);
  const rows = fleet.rendered ? await readTemplateViews(fleet, selection.page) : [];
  const bindingPaths = selection.page.map((p) => bindingPath(p.ref));
  const bindings = fleet.rendered ? await readDocuments(fleet.repo, fleet.rendered, bindingPaths) : new Map();
  return {
    heads: headsOf(fleet),
    clusters: clusters.clusters,
    applied: clusters.applied,
    heartbeats: clusters.heartbeats,
    workloads: {
      total: selection.total,
      offset: selection.offset,
      limit: selection.limit,
      namespaces: selection.namespaces,
      kinds: selection.kinds,
      clusterNames: clusters.names,
      items: rows.map((r, i) => {
        const cols = kindColumns(r.ref.kind);
        const binding = bindings.get(bindingPaths[i]!)?.[0] as ResourceBinding | undefined;
        return {
          key: selection.page[i]!.key,
          object: r.object,
          columns: { headers: cols.headers, cells: cols.cells(r.manifest, r.status, { wide: false, now: new Date() }) },
          placement: binding?.spec?.clusters ?? [],
          clusters: r.entry.clusters,
          ...(isControlPlaneApi(r.ref.apiVersion)
            ? { controlPlane: `control plane: ${groupOf(r.ref.apiVersion)} is never propagated to clusters` }
            : {}),
        };
      }),
    },
  };
}
