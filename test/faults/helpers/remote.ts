// A remote config repo for the reconciler: the fleet's bare repo served by `git http-backend` on loopback, whose
// server can stall (accept every request, answer none) like a hung Git host, and logs what reached it.
import path from 'node:path';
import type { ListenerLimits } from '../../../src/passes/boundedListener.ts';
import { startReconciler, type Reconciler } from '../../../src/passes/startReconciler.ts';
import { startGitHttpServer, type GitHttpServer } from '../../helpers/gitHttpServer.ts';
import { reconcilerOptions, type Fleet } from '../../helpers/fleet.ts';
import { LogEvents } from '../../helpers/logEvents.ts';

export interface RemoteReconciler {
  reconciler: Reconciler;
  events: LogEvents;
  git: GitHttpServer;
  close(): Promise<void>;
}

/** The reconciler in this process on the fleet's repo as a remote over HTTP; no cron fetch, no resync. */
export async function startRemoteReconciler(
  fleet: Fleet,
  opts: { webhookSecret?: string; fetchIdleTimeoutMs?: number; listenLimits?: ListenerLimits } = {},
): Promise<RemoteReconciler> {
  fleet.git(fleet.bare, 'config', 'http.receivepack', 'true');
  const git = await startGitHttpServer(path.dirname(fleet.bare));
  const events = new LogEvents();
  try {
    const reconciler = await startReconciler(
      reconcilerOptions(fleet, events.log, {
        source: {
          kind: 'remote',
          url: `${git.url}/${path.basename(fleet.bare)}`,
          mirrorDir: path.join(fleet.root, 'mirror.git'),
          fetchSchedule: '0 0 1 1 *',
          ...(opts.fetchIdleTimeoutMs !== undefined ? { fetchIdleTimeoutMs: opts.fetchIdleTimeoutMs } : {}),
        },
        listen: { host: '127.0.0.1', port: 0, ...(opts.listenLimits ? { limits: opts.listenLimits } : {}) },
        ...(opts.webhookSecret ? { webhookSecret: opts.webhookSecret } : {}),
      }),
    );
    return {
      reconciler,
      events,
      git,
      async close() {
        // The Git host first: a pass stuck on a stalled request ends when its socket goes, and stop() waits for it.
        await git.close();
        await reconciler.stop();
      },
    };
  } catch (err) {
    await git.close();
    throw err;
  }
}
