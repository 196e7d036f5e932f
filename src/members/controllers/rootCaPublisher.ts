import { isDeepStrictEqual } from 'node:util';
import { objectShape } from '../../api/listSemantics.ts';
import { trackUpdate } from '../apply/trackUpdate.ts';
import type { KubeObject, StoreEvent } from '../types.ts';
import { activeNamespace, NAMESPACES } from './activeNamespace.ts';
import type { Controller } from './Controller.ts';
import type { ControllerDeps } from './ControllerDeps.ts';
import { CONTROLLER_MANAGER } from './serviceAccountController.ts';

const CONFIGMAPS = '/configmaps';
export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. ' +
  'No other usage is guaranteed across distributions of Kubernetes clusters.';

/**
 * kube-controller-manager's root-ca-cert-publisher (pkg/controller/certificates/rootcacertpublisher): every
 * Active namespace has a ConfigMap `kube-root-ca.crt` whose `ca.crt` is the CA the API server's certificate
 * chains to, with a description annotation. A deleted one is recreated; an edited one gets its data and
 * annotation put back (other edits stay).
 */
export function rootCaPublisher(deps: ControllerDeps, caPem: string): Controller {
  const { store, registry } = deps;
  const data = { 'ca.crt': caPem };

  function reconcile(namespace: string): void {
    if (!activeNamespace(store, namespace)) return;
    const rt = registry.byResourceKey(CONFIGMAPS)!;
    const current = store.get(CONFIGMAPS, namespace, ROOT_CA_CONFIGMAP);
    if (!current) {
      const created: KubeObject = {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: ROOT_CA_CONFIGMAP, namespace, annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION } },
        data,
      };
      created.metadata.managedFields = trackUpdate(
        undefined,
        created,
        CONTROLLER_MANAGER,
        'v1',
        deps.now(),
        objectShape('v1', 'ConfigMap'),
      );
      store.create(rt, created);
      return;
    }
    if (isDeepStrictEqual(current.data, data) && current.metadata.annotations?.[DESCRIPTION_ANNOTATION]) return;
    const next = structuredClone(current);
    next.data = { ...data };
    next.metadata.annotations = { ...(next.metadata.annotations ?? {}), [DESCRIPTION_ANNOTATION]: DESCRIPTION };
    next.metadata.managedFields = trackUpdate(
      current,
      next,
      CONTROLLER_MANAGER,
      'v1',
      deps.now(),
      objectShape('v1', 'ConfigMap'),
    );
    store.update(rt, next);
  }

  return {
    name: 'root-ca-cert-publisher',
    keysFor(event: StoreEvent): string[] {
      const o = event.object;
      if (event.resource === NAMESPACES)
        return event.type === 'ADDED' || (event.type === 'MODIFIED' && o.status?.phase === 'Active')
          ? [o.metadata.name!]
          : [];
      if (event.resource === CONFIGMAPS && event.type !== 'ADDED' && o.metadata.name === ROOT_CA_CONFIGMAP)
        return [o.metadata.namespace!];
      return [];
    },
    reconcile,
    initialKeys: () => store.list(NAMESPACES).map((n) => n.metadata.name!),
  };
}
