// A remote config repo for the reconciler: the fleet's bare repo served by `git http-backend` on loopback, behind a
// proxy that can stall (accept every request, answer none) like a hung Git host, and that logs what reached it.
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import type { ListenerLimits } from '../../../src/passes/serveEndpoints.ts';
import { startReconciler, type Reconciler } from '../../../src/passes/startReconciler.ts';
import { startGitHttpServer, type GitHttpServer } from '../../helpers/gitHttpServer.ts';
import type { Fleet } from '../../passes/helpers/fleet.ts';
import { LogEvents } from '../../helpers/logEvents.ts';

export interface StallingProxy {
  url: string;
  /** Requests that reached the proxy, stalled or not. */
  requests: string[];
  stall(on: boolean): void;
  close(): Promise<void>;
}

export async function startStallingProxy(target: string): Promise<StallingProxy> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  let stalled = false;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests.push(`${req.method} ${req.url}`);
    if (stalled) return; // never answered: the socket stays open until the client gives up or the proxy closes
    const upstream = request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    stall: (on) => { stalled = on; },
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

export interface RemoteReconciler {
  reconciler: Reconciler;
  events: LogEvents;
  git: GitHttpServer;
  proxy: StallingProxy;
  close(): Promise<void>;
}

/** The reconciler in this process on the fleet's repo as a remote (through the proxy); no cron fetch, no resync. */
export async function startRemoteReconciler(fleet: Fleet, opts: { webhookSecret?: string; fetchIdleTimeoutMs?: number; listenLimits?: ListenerLimits } = {}): Promise<RemoteReconciler> {
  fleet.git(fleet.bare, 'config', 'http.receivepack', 'true');
  const git = await startGitHttpServer(path.dirname(fleet.bare));
  const proxy = await startStallingProxy(git.url);
  const events = new LogEvents();
  try {
    const reconciler = await startReconciler({
      source: {
        kind: 'remote', url: `${proxy.url}/${path.basename(fleet.bare)}`, mirrorDir: path.join(fleet.root, 'mirror.git'), fetchSchedule: '0 0 1 1 *',
        ...(opts.fetchIdleTimeoutMs !== undefined ? { fetchIdleTimeoutMs: opts.fetchIdleTimeoutMs } : {}),
      },
      clusters: { kind: 'registered', credentialsDir: fleet.credentials, fallbackKubeconfig: undefined },
      resyncMs: 0, listen: { host: '127.0.0.1', port: 0, ...(opts.listenLimits ? { limits: opts.listenLimits } : {}) }, log: events.log,
      ...(opts.webhookSecret ? { webhookSecret: opts.webhookSecret } : {}),
    });
    return {
      reconciler, events, git, proxy,
      async close() {
        // The proxy first: a pass stuck on a stalled request ends when its socket goes, and stop() waits for it.
        await proxy.close();
        await reconciler.stop();
        await git.close();
      },
    };
  } catch (err) {
    await proxy.close();
    await git.close();
    throw err;
  }
}
