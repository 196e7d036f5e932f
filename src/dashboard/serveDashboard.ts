import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { DEFAULT_LISTENER_LIMITS, listenerServerOptions } from '../passes/serveEndpoints.ts';
import { createDashboard, type DashboardOptions } from './createDashboard.ts';

export interface ServedDashboard {
  /** Base URL, e.g. http://127.0.0.1:9465 (the page is at /ui/). */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The dashboard on a listener of its own (`flotilla ui`), with the reconciler listener's bounds on headers, request
 * time and connections. Everything but /ui is 404; / redirects to /ui/.
 */
export async function serveDashboard(
  opts: DashboardOptions & { host: string; port: number },
): Promise<ServedDashboard> {
  const dashboard = await createDashboard(opts);
  const limits = DEFAULT_LISTENER_LIMITS;
  const sockets = new Set<Socket>();
  const server = createServer(listenerServerOptions(limits), (req, res) => {
    dashboard
      .handle(req, res)
      .then((handled) => {
        if (handled) return;
        if (req.url === '/' || req.url === '') {
          res.writeHead(302, { Location: '/ui/' });
          res.end();
          return;
        }
        res.writeHead(404, { 'Content-Type': 'application/json' });
        res.end(`${JSON.stringify({ error: `no such endpoint ${req.url}; the dashboard is at /ui/` })}\n`);
      })
      .catch((err: unknown) => {
        opts.log?.({ step: 'dashboard', error: (err as Error).message });
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      });
  });
  server.maxConnections = limits.maxConnections;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port, opts.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    await dashboard.close();
    throw err;
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: async () => {
      await dashboard.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
  };
}
