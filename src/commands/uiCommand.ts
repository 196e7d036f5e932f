import path from 'node:path';
import { exposedWithoutToken, isLoopbackHost } from '../dashboard/checkUiAccess.ts';
import { UsageError } from '../errors/UsageError.ts';
import { parseListen } from './runOptions.ts';

export const DEFAULT_UI_LISTEN = '127.0.0.1:9465';

export const UI_USAGE = `usage: flotilla ui --repo PATH [--source-branch main] [--listen ${DEFAULT_UI_LISTEN}|HOST:PORT] [--ui-token-env VAR]`;

export const UI_OPTIONS = {
  repo: { type: 'string' },
  'source-branch': { type: 'string', default: 'main' },
  listen: { type: 'string', default: DEFAULT_UI_LISTEN },
  'ui-token-env': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export interface UiOptions {
  repo: string | undefined;
  sourceBranch: string;
  listen: string;
  uiTokenEnv: string | undefined;
  /** The value of that variable, read by cli.ts. */
  uiToken: string | undefined;
  cwd: string;
  out: (s: string) => void;
  err: (s: string) => void;
  stopSignal: Promise<void>;
}

/**
 * `flotilla ui`: the read-only dashboard over a repo's branches, for a repo no reconciler serves (a clone, a mirror,
 * a CI checkout). Loopback unless a token is given. Exit 0 after Ctrl-C.
 */
export async function uiCommand(opts: UiOptions): Promise<number> {
  if (!opts.repo) throw new UsageError(`--repo is required\n${UI_USAGE}`);
  if (/^[a-z+]+:\/\/|^[^/]+@[^/]+:/i.test(opts.repo))
    throw new UsageError(
      `--repo ${opts.repo.replace(/\/\/[^@/]*@/, '//***@')}: flotilla ui reads a repository on this machine; fix: git clone --mirror it (and git fetch to follow it), or open the dashboard of the flotilla run that reconciles it`,
    );
  const listen = parseListen(opts.listen, { defaultListen: DEFAULT_UI_LISTEN, off: false });
  if (!listen) throw new UsageError(`--listen off: the dashboard needs an address; ${UI_USAGE}`);
  if (opts.uiTokenEnv && !opts.uiToken)
    throw new UsageError(
      `--ui-token-env ${opts.uiTokenEnv}: that variable is unset or empty; fix: export ${opts.uiTokenEnv}=$(openssl rand -hex 32)`,
    );
  if (!isLoopbackHost(listen.host) && !opts.uiToken)
    throw new UsageError(`--listen ${opts.listen}: ${exposedWithoutToken(opts.listen)}`);
  // Imported once the flags are read: a usage error answers without loading the dashboard's reads.
  const { serveDashboard } = await import('../dashboard/serveDashboard.ts');
  const served = await serveDashboard({
    gitdir: path.resolve(opts.cwd, opts.repo),
    sourceBranch: opts.sourceBranch,
    host: listen.host,
    port: listen.port,
    ...(opts.uiToken ? { token: opts.uiToken } : {}),
    log: (e) => opts.err(`${JSON.stringify({ time: new Date().toISOString(), ...e })}\n`),
  }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'EADDRINUSE')
      throw new UsageError(
        `--listen ${opts.listen}: that address is in use; fix: pick another port, e.g. --listen 127.0.0.1:0`,
      );
    throw err;
  });
  opts.out(
    `Dashboard: ${served.url}/ui/${opts.uiToken ? ` (open ${served.url}/ui/?token=<the value of ${opts.uiTokenEnv}> once)` : ''}\n`,
  );
  opts.err('flotilla ui: read-only; Ctrl-C stops\n');
  await opts.stopSignal;
  await served.close();
  // The answer to Ctrl-C: nothing serves that address any more, and the repo was only read.
  opts.err(`flotilla ui: stopped serving ${served.url}/ui/; ${opts.repo} was only read, nothing in it changed\n`);
  return 0;
}
