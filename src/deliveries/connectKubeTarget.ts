import { KubeConfig } from '@kubernetes/client-node';
import type { RequestOptions } from 'node:https';
import { Agent, fetch } from 'undici';
import type { ApiResource, KubeRequest, KubeResponse, KubeTarget } from './KubeTarget.ts';
import { requestUrl } from './clientGoErrors.ts';

export interface ConnectOptions {
  /** Context to use; the kubeconfig's current context when absent. */
  context?: string;
  /** Name reported for the cluster; defaults to the context name. */
  name?: string;
  /** Default per-request deadline. Default 15,000 ms. */
  timeoutMs?: number;
  /** Keep-alive connections to this member. Default 8. */
  connections?: number;
  /** How long auth headers (tokens, exec plugins) are reused before asking the kubeconfig again. Default 60,000 ms. */
  authTtlMs?: number;
}

/**
 * A KubeTarget for one kubeconfig context. client-node is used only to resolve the kubeconfig (CA, client
 * certificate, token, exec/auth plugins); requests go through undici fetch on ONE keep-alive Agent per cluster,
 * because client-node builds a new Agent (a new TLS connection) for every call and drops unknown fields of
 * built-in kinds from request bodies (ENGINEERING-NOTES §A gotchas 2 and 3).
 */
export async function connectKubeTarget(kc: KubeConfig, opts: ConnectOptions = {}): Promise<KubeTarget> {
  // Work on a copy: setCurrentContext mutates, and the caller may share one KubeConfig between members.
  const own = new KubeConfig();
  own.loadFromOptions({
    clusters: kc.clusters,
    users: kc.users,
    contexts: kc.contexts,
    currentContext: opts.context ?? kc.getCurrentContext(),
  });
  const context = own.getCurrentContext();
  const cluster = own.getCurrentCluster();
  if (!cluster)
    throw new Error(
      `kubeconfig context ${JSON.stringify(context)} names no cluster; fix: check the contexts section of the kubeconfig`,
    );
  const server = cluster.server.replace(/\/+$/, '');

  const readAuth = async () => {
    const o: RequestOptions = {};
    await own.applyToHTTPSOptions(o);
    return o;
  };
  const first = await readAuth();
  const agent = new Agent({
    connect: {
      ca: first.ca as string | Buffer | undefined,
      cert: first.cert as string | Buffer | undefined,
      key: first.key as string | Buffer | undefined,
      servername: first.servername,
      rejectUnauthorized: !cluster.skipTLSVerify,
    },
    keepAliveTimeout: 30_000,
    connections: opts.connections ?? 8,
  });

  const ttl = opts.authTtlMs ?? 60_000;
  let auth = { headers: headersOf(first), at: Date.now() };
  const authHeaders = async () => {
    if (Date.now() - auth.at > ttl) auth = { headers: headersOf(await readAuth()), at: Date.now() };
    return auth.headers;
  };

  const stats = { requests: 0, writes: 0 };
  const timeoutMs = opts.timeoutMs ?? 15_000;
  return {
    name: opts.name ?? context,
    server,
    discovery: new Map<string, Promise<ApiResource[] | null>>(),
    stats,
    async request(req: KubeRequest): Promise<KubeResponse> {
      const url = requestUrl(server, req);
      const headers: Record<string, string> = { Accept: 'application/json', ...(await authHeaders()) };
      if (req.contentType) headers['Content-Type'] = req.contentType;
      stats.requests++;
      if (req.method !== 'GET') stats.writes++;
      const res = await fetch(url, {
        method: req.method,
        headers,
        body: req.body,
        dispatcher: agent,
        signal: AbortSignal.timeout(req.timeoutMs ?? timeoutMs),
      });
      const text = await res.text();
      const type = res.headers.get('content-type') ?? '';
      let body: unknown = text;
      if (type.includes('json') && text) {
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
      }
      return { status: res.status, body, headers: Object.fromEntries(res.headers) };
    },
    close: () => agent.close(),
  };
}

/** One KubeTarget per context of a kubeconfig file, keyed by context name. */
export async function connectKubeconfig(
  path: string,
  opts: Omit<ConnectOptions, 'context' | 'name'> = {},
): Promise<Map<string, KubeTarget>> {
  const kc = new KubeConfig();
  kc.loadFromFile(path);
  const out = new Map<string, KubeTarget>();
  for (const ctx of kc.getContexts()) out.set(ctx.name, await connectKubeTarget(kc, { ...opts, context: ctx.name }));
  return out;
}

function headersOf(o: RequestOptions): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(o.headers ?? {})) if (v !== undefined) out[k] = String(v);
  if (o.auth) out.Authorization = `Basic ${Buffer.from(o.auth).toString('base64')}`;
  return out;
}
