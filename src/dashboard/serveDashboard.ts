import { listenBounded, type BoundedListener } from '../passes/boundedListener.ts';
import { createDashboard, type DashboardOptions } from './createDashboard.ts';

export interface ServedDashboard {
  /** Base URL, e.g. http://127.0.0.1:9465 (the page is at /ui/). */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The dashboard on a listener of its own (`flotilla ui`), with the same bounds as the reconciler's listener
 * (listenBounded). Everything but /ui is 404; / redirects to /ui/.
 */
export async function serveDashboard(
  opts: DashboardOptions & { host: string; port: number },
): Promise<ServedDashboard> {
  const dashboard = await createDashboard(opts);
  let listener: BoundedListener;
  try {
    listener = await listenBounded({ host: opts.host, port: opts.port }, (req, res) => {
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
  } catch (err) {
    await dashboard.close();
    throw err;
  }
  return {
    url: listener.url,
    close: async () => {
      await dashboard.close();
      await listener.close();
    },
  };
}
