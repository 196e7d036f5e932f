// The Lease API calls leader election and shard membership make, one attempt each: the elector's loop is the retry.
import type { KubeTarget } from '../deliveries/KubeTarget.ts';
import { statusMessage } from '../deliveries/sendRequest.ts';
import type { LeaseObject } from './leaseRecord.ts';

export interface LeaseClient {
  /** null when the Lease does not exist. */
  get(namespace: string, name: string, timeoutMs: number): Promise<LeaseObject | null>;
  /** Throws LeaseConflictError when it exists already. */
  create(lease: LeaseObject, timeoutMs: number): Promise<LeaseObject>;
  /** A PUT carrying the resourceVersion read: throws LeaseConflictError when the Lease changed since. */
  update(lease: LeaseObject, timeoutMs: number): Promise<LeaseObject>;
  /** The Leases of a namespace with this label selector. */
  list(namespace: string, labelSelector: string, timeoutMs: number): Promise<LeaseObject[]>;
  /** Deletes the Lease if it is still at `resourceVersion`; false when it changed or is gone. */
  delete(namespace: string, name: string, resourceVersion: string, timeoutMs: number): Promise<boolean>;
}

/** Someone else wrote the Lease first (HTTP 409): optimistic concurrency said no. */
export class LeaseConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LeaseConflictError';
  }
}

const base = (namespace: string) => `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(namespace)}/leases`;

/** A LeaseClient on the host cluster's API server. */
export function kubeLeaseClient(kube: KubeTarget): LeaseClient {
  const fail = (what: string, res: { status: number; body: unknown; headers: Record<string, string> }) => {
    const message = `${what}: ${statusMessage(res)}`;
    return res.status === 409 ? new LeaseConflictError(message) : new Error(message);
  };
  const write = async (method: 'POST' | 'PUT', lease: LeaseObject, timeoutMs: number) => {
    const { namespace, name } = lease.metadata;
    const res = await kube.request({
      method,
      path: method === 'POST' ? base(namespace) : `${base(namespace)}/${encodeURIComponent(name)}`,
      body: JSON.stringify(lease),
      contentType: 'application/json',
      timeoutMs,
    });
    if (res.status !== 200 && res.status !== 201)
      throw fail(`${method === 'POST' ? 'create' : 'update'} Lease ${namespace}/${name}`, res);
    return res.body as LeaseObject;
  };
  return {
    async get(namespace, name, timeoutMs) {
      const res = await kube.request({
        method: 'GET',
        path: `${base(namespace)}/${encodeURIComponent(name)}`,
        timeoutMs,
      });
      if (res.status === 404) return null;
      if (res.status !== 200) throw fail(`get Lease ${namespace}/${name}`, res);
      return res.body as LeaseObject;
    },
    create: (lease, timeoutMs) => write('POST', lease, timeoutMs),
    update: (lease, timeoutMs) => write('PUT', lease, timeoutMs),
    async delete(namespace, name, resourceVersion, timeoutMs) {
      const res = await kube.request({
        method: 'DELETE',
        path: `${base(namespace)}/${encodeURIComponent(name)}`,
        body: JSON.stringify({ apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { resourceVersion } }),
        contentType: 'application/json',
        timeoutMs,
      });
      if (res.status === 404 || res.status === 409) return false;
      if (res.status !== 200 && res.status !== 202) throw fail(`delete Lease ${namespace}/${name}`, res);
      return true;
    },
    async list(namespace, labelSelector, timeoutMs) {
      const res = await kube.request({ method: 'GET', path: base(namespace), query: { labelSelector }, timeoutMs });
      if (res.status !== 200) throw fail(`list Leases in ${namespace}`, res);
      return ((res.body as { items?: LeaseObject[] }).items ?? []).map((l) => ({
        ...l,
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
      }));
    },
  };
}
