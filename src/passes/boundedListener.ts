import { createServer, type IncomingMessage, type ServerOptions, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * What one client can hold of the listener. Node's defaults let a connection send its headers for 60 s and its
 * request for 5 min, checked every 30 s, with no cap on connections: 20,000 slow connections exhausted the file
 * descriptors and stopped /healthz. Webhooks are small and forges answer in seconds, so the bounds can be tight.
 */
export interface ListenerLimits {
  /** Time to send the request headers (node server.headersTimeout); answered 408 and closed after. Default 10 s. */
  headersTimeoutMs?: number;
  /** Time to send the whole request, body included (node server.requestTimeout). Default 30 s. */
  requestTimeoutMs?: number;
  /** How often node looks for connections past those two timeouts (connectionsCheckingInterval). Default 1 s. */
  timeoutCheckIntervalMs?: number;
  /** Idle time of a kept-alive connection between requests (node server.keepAliveTimeout). Default 5 s. */
  keepAliveTimeoutMs?: number;
  /** Requests served on one kept-alive connection before it is closed (node server.maxRequestsPerSocket). Default 100. */
  maxRequestsPerSocket?: number;
  /** Open connections in all; more are closed as they are accepted (node server.maxConnections). Default 256. */
  maxConnections?: number;
  /**
   * Open connections from one client address; more are closed as they are accepted, so one client cannot take
   * the connections a forge or a kubelet probe from another address needs. Default 32.
   */
  maxConnectionsPerAddress?: number;
  /** Largest request head, request line and headers (node maxHeaderSize). Default 16 KiB. */
  maxHeaderBytes?: number;
}

export const DEFAULT_LISTENER_LIMITS: Required<ListenerLimits> = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  timeoutCheckIntervalMs: 1_000,
  keepAliveTimeoutMs: 5_000,
  maxRequestsPerSocket: 100,
  maxConnections: 256,
  maxConnectionsPerAddress: 32,
  maxHeaderBytes: 16 * 1024,
};

/** Node's server options that carry the listener's bounds on headers, request time and idle connections. */
export function listenerServerOptions(limits: Required<ListenerLimits>): ServerOptions {
  return {
    connectionsCheckingInterval: limits.timeoutCheckIntervalMs,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    maxHeaderSize: limits.maxHeaderBytes,
  };
}

export interface BoundedListener {
  /** Base URL, e.g. http://127.0.0.1:9465. */
  readonly url: string;
  /** Stops listening and ends every open connection. */
  close(): Promise<void>;
}

/**
 * An HTTP listener holding every bound above: the reconciler's endpoints and `flotilla ui` both face clients that
 * may be slow or hostile, so both take the same limits from here rather than each setting some of them.
 */
export async function listenBounded(
  at: { host: string; port: number; limits?: ListenerLimits | undefined },
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<BoundedListener> {
  const limits = { ...DEFAULT_LISTENER_LIMITS, ...at.limits };
  const sockets = new Set<Socket>();
  const perAddress = new Map<string, number>();
  const server = createServer(listenerServerOptions(limits), handler);
  server.maxConnections = limits.maxConnections;
  server.maxRequestsPerSocket = limits.maxRequestsPerSocket;
  server.on('connection', (s) => {
    const address = s.remoteAddress ?? '';
    const open = (perAddress.get(address) ?? 0) + 1;
    if (open > limits.maxConnectionsPerAddress) {
      s.destroy();
      return;
    }
    perAddress.set(address, open);
    sockets.add(s);
    s.on('close', () => {
      sockets.delete(s);
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(at.port, at.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}
