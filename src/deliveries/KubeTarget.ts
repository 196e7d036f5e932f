// The applier's view of one member cluster: a single-attempt HTTP call plus the per-cluster caches.
// An interface rather than a class so tests can hand in a scripted fake; connectKubeTarget.ts makes the real one.

export type KubeMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface KubeRequest {
  method: KubeMethod;
  /** Absolute API path, e.g. /apis/apps/v1/namespaces/default/deployments/web. */
  path: string;
  query?: Record<string, string>;
  body?: string;
  contentType?: string;
  /** Per-request deadline; the target's default when absent. */
  timeoutMs?: number;
}

export interface KubeResponse {
  status: number;
  /** Parsed JSON when the server sent JSON, otherwise the raw text. */
  body: unknown;
  headers: Record<string, string>;
}

/** One row of an APIResourceList, the part the applier needs. */
export interface ApiResource {
  name: string;
  kind: string;
  namespaced: boolean;
}

/**
 * A registered Push cluster no connection could be made for (its kubeconfig missing, refused or unreadable): what
 * its target answers every request with. Karmada's cluster status controller then reports Ready=False
 * StatusCollectionFailed ("failed to create a ClusterClient"), so the cluster is tainted and avoided, instead of
 * keeping the last status it had.
 */
export class NoClusterClientError extends Error {
  constructor(readonly why: string) {
    super(`failed to create a ClusterClient: ${why}`);
    this.name = 'NoClusterClientError';
  }
}

/** The target of a cluster no connection could be made for: every request fails with `why`, at once. */
export function unconnectedTarget(name: string, why: string): KubeTarget {
  const error = new NoClusterClientError(why);
  return {
    name,
    server: '',
    request: () => Promise.reject(error),
    discovery: new Map(),
    stats: { requests: 0, writes: 0 },
    close: async () => undefined,
  };
}

/** Counters of the HTTP requests actually sent; `writes` counts POST, PUT, PATCH and DELETE. */
export interface KubeStats {
  requests: number;
  writes: number;
}

export interface KubeTarget {
  /** The member cluster's name (the kubeconfig context name unless told otherwise). */
  readonly name: string;
  readonly server: string;
  /**
   * One attempt. Resolves with any HTTP status (callers decide what 404 or 409 mean); rejects only when no
   * response arrived (refused, reset, TLS failure, timeout). Retries are the caller's business: sendRequest.ts.
   */
  request(req: KubeRequest): Promise<KubeResponse>;
  /** groupVersion → its resources, or null when the server does not serve that groupVersion (404). Kept per cluster. */
  readonly discovery: Map<string, Promise<ApiResource[] | null>>;
  readonly stats: KubeStats;
  /** Closes the keep-alive connections. */
  close(): Promise<void>;
}
