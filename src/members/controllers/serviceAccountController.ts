import { trackUpdate } from '../apply/trackUpdate.ts';
import { objectShape } from '../../api/listSemantics.ts';
import type { KubeObject, StoreEvent } from '../types.ts';
import { activeNamespace, NAMESPACES } from './activeNamespace.ts';
import type { Controller } from './Controller.ts';
import type { ControllerDeps } from './ControllerDeps.ts';

const SERVICEACCOUNTS = '/serviceaccounts';
const DEFAULT_ACCOUNT = 'default';
export const CONTROLLER_MANAGER = 'kube-controller-manager';

/**
 * kube-controller-manager's serviceaccount controller (pkg/controller/serviceaccount): every Active namespace
 * has a ServiceAccount named `default`, created when the namespace appears and recreated when deleted. Since
 * v1.24 it carries no token Secret.
 */
export function serviceAccountController(deps: ControllerDeps): Controller {
  const { store, registry } = deps;

  function reconcile(namespace: string): void {
    if (!activeNamespace(store, namespace)) return;
    if (store.get(SERVICEACCOUNTS, namespace, DEFAULT_ACCOUNT)) return;
    const account: KubeObject = {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: DEFAULT_ACCOUNT, namespace },
    };
    account.metadata.managedFields = trackUpdate(
      undefined,
      account,
      CONTROLLER_MANAGER,
      'v1',
      deps.now(),
      objectShape('v1', 'ServiceAccount'),
    );
    store.create(registry.byResourceKey(SERVICEACCOUNTS)!, account);
  }

  return {
    name: 'serviceaccount',
    keysFor(event: StoreEvent): string[] {
      if (event.resource === NAMESPACES && event.type !== 'DELETED') return [event.object.metadata.name!];
      if (event.resource === SERVICEACCOUNTS && event.type === 'DELETED') return [event.object.metadata.namespace!];
      return [];
    },
    reconcile,
    initialKeys: () => store.list(NAMESPACES).map((n) => n.metadata.name!),
  };
}
