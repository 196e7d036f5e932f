// The reads behind a CrossCluster MultiClusterService's status conditions (multiClusterServiceConditions.ts): the
// rendered commit's MultiClusterServices and their Services' bindings, the endpoints the providers recorded and the
// consumers' inventories on the status branch, and the status files already there.
import { bindingPath } from '../branches/rendered/outputPaths.ts';
import { readExportedEndpoints } from '../branches/status/exportedEndpoints.ts';
import { MULTI_CLUSTER_SERVICE_STATUS_FOLDER } from '../branches/status/multiClusterServiceStatus.ts';
import { readInventories } from '../branches/status/readInventories.ts';
import { listFolderFiles } from '../commits/listFolderFiles.ts';
import { readBlobs } from '../commits/readBlobs.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { readTextFiles } from '../commits/readPathOids.ts';
import { readRef } from '../commits/readRef.ts';
import type { GitRepo } from '../commits/types.ts';
import { dispatchEndpointSlices, isCrossCluster } from '../interpreters/dispatchEndpointSlices.ts';
import { parseYamlValue } from '../yaml/blockYaml.ts';
import { readMultiClusterServiceContext } from './collectExportedEndpoints.ts';
import {
  multiClusterServiceStatusEdits,
  type MultiClusterServiceFacts,
  type MultiClusterServiceStatusEdits,
} from './multiClusterServiceConditions.ts';

const MCS_NAME_ANNOTATION = 'multiclusterservice.karmada.io/name';

/** The status files to write for the rendered commit's MultiClusterServices; none to write is an empty edit set. */
export async function readMultiClusterServiceStatus(
  repo: GitRepo,
  renderedCommit: string,
  statusRef: string,
  now: Date,
): Promise<MultiClusterServiceStatusEdits> {
  const statusHead = await readRef(repo, statusRef);
  const existing = new Map<string, string>();
  if (statusHead) {
    const files = await listFolderFiles(
      repo,
      (await readCommitInfo(repo, statusHead)).tree,
      MULTI_CLUSTER_SERVICE_STATUS_FOLDER,
    );
    const blobs = await readBlobs(
      repo,
      [...files.values()].map((f) => f.oid),
    );
    const decoder = new TextDecoder();
    for (const [path, f] of files) existing.set(path, decoder.decode(blobs.get(f.oid)!));
  }
  const context = await readMultiClusterServiceContext(repo, renderedCommit, statusRef);
  if (!context) return { edits: new Map(), lines: [] }; // unreadable: the files stay as they are
  const services = context.services.filter(({ mcs }) => isCrossCluster(mcs));
  if (services.length === 0) return multiClusterServiceStatusEdits([], existing, now);

  const tree = (await readCommitInfo(repo, renderedCommit)).tree;
  const serviceRef = (namespace: string, name: string) => ({ apiVersion: 'v1', kind: 'Service', namespace, name });
  const bindings = await readTextFiles(
    repo,
    tree,
    services.map(({ mcs }) => bindingPath(serviceRef(mcs.metadata.namespace ?? 'default', mcs.metadata.name))),
  );
  const exported = await readExportedEndpoints(repo, statusRef);
  const clusters = [...context.registered.keys()];
  const inventories = await readInventories(repo, statusRef, clusters);
  const facts: MultiClusterServiceFacts[] = services.map(({ path, mcs }) => {
    const namespace = mcs.metadata.namespace ?? 'default';
    const text = bindings.get(bindingPath(serviceRef(namespace, mcs.metadata.name)));
    let claimedBy: unknown;
    try {
      claimedBy = text
        ? (parseYamlValue(text) as { metadata?: { annotations?: Record<string, string> } }).metadata?.annotations?.[
            MCS_NAME_ANNOTATION
          ]
        : undefined;
    } catch {
      claimedBy = undefined;
    }
    return {
      mcs,
      serviceClaimed: claimedBy === mcs.metadata.name,
      dispatch: clusters.map((consumer) => ({
        consumer,
        expected: dispatchEndpointSlices(consumer, [{ path, mcs }], context.registered, exported).map(
          (d) => (d.manifest.metadata as { name: string }).name,
        ),
        held: new Set(
          (inventories.get(consumer)?.objects ?? [])
            .filter((o) => o.kind === 'EndpointSlice' && o.namespace === namespace)
            .map((o) => o.name),
        ),
      })),
    };
  });
  return multiClusterServiceStatusEdits(facts, existing, now);
}
