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
