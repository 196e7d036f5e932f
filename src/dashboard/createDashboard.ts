import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzip } from 'node:zlib';
import { RENDERED_BRANCH } from '../branches/rendered/branch.ts';
import { STATUS_BRANCH } from '../branches/status/branch.ts';
import { openRepo } from '../commits/openRepo.ts';
import { readBranchHead } from '../commits/readRef.ts';
import type { GitRepo } from '../commits/types.ts';
import type { Problem } from '../errors/problem.ts';
import type { ConfigModel } from '../api/model.ts';
import { watchLocalRefs, type RefWatcher } from '../passes/watchLocalRefs.ts';
import type { TemplateExplanation } from '../works/renderTemplates.ts';
import { readExplanations } from '../views/readExplanations.ts';
import { readFleet, tooLargeToRead, type Fleet } from '../views/readFleet.ts';
import { hasUiToken, isLoopbackHost, TOKEN_COOKIE } from './checkUiAccess.ts';
import { contentSecurityPolicy } from './contentSecurityPolicy.ts';
import { readAttention, type AttentionView, type FailedAppliesCache } from './readAttention.ts';
import { clusterDiffTooLarge, CommitChangesCache, readChanges, readClusterDiff } from './readChanges.ts';
import { TreeTooLargeError } from '../commits/TreeTooLargeError.ts';
import { SourceTooLargeError } from '../outputs/SourceTooLargeError.ts';
import { sourceLimitsOf, type RenderLimits } from '../outputs/sourceLimits.ts';
import { headsOf, readFleetClusters, readFleetView, type FleetClusters } from './readFleetView.ts';
import { explainTemplate } from './explainTemplate.ts';
import { placementOf, readObjectTrace, type ObjectPlacement, type ObjectTrace } from './readObjectTrace.ts';
import {
  catalogWorkloads,
  parseLabelFilter,
  WORKLOAD_SORTS,
  type WorkloadCatalog,
  type WorkloadSort,
} from './selectWorkloads.ts';
import { keptAnswer } from './keptAnswer.ts';
import { oneAtATime } from './oneAtATime.ts';
import { acceptsGzip } from './acceptsGzip.ts';
import { resolveRev } from '../commits/resolveRev.ts';
import { RevNotFoundError } from '../commits/RevNotFoundError.ts';
import { loadUiAssets } from './uiAssets.ts';
import { OffThreadJobs } from './runOffThread.ts';

export interface DashboardOptions {
  /** The repository holding the three branches: a local repo, or the reconciler's mirror of a remote one. */
  gitdir: string;
  /** Default main. */
  sourceBranch?: string;
  /** Required from every request when set (bearer, cookie or ?token=); the caller decides when it must be. */
  token?: string;
  /** Called with one entry per request that failed on the server's side, and as each plan starts and ends. */
  log?: (entry: Record<string, unknown>) => void;
  now?: () => Date;
  /**
   * The reconciler's --max-source-files and --max-output-bytes: a source commit the render reads is read here within
   * the same bounds, neither refused below them nor walked past them. Absent: the defaults.
   */
  limits?: RenderLimits;
  /** Heap in MB a plan's (or the validation list's) render may use on its thread; default DEFAULT_JOB_MEMORY_MB. */
  jobMemoryMb?: number;
}

/** The dashboard as a request handler, mounted at /ui/ by `flotilla run`, `flotilla up` and `flotilla ui`. */
export interface Dashboard {
  /** Answers a request under /ui and returns true; false for any other path, which the caller answers. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /** Ends the event streams and stops watching the branches. */
  close(): Promise<void>;
}

interface Explained {
  model: ConfigModel;
  explanations: ReadonlyMap<string, TemplateExplanation>;
  problems: Problem[];
}

/** Placements and object traces kept per set of heads (a trace of a template on 30 clusters is ~75 KB). */
const MAX_CACHED_PLACEMENTS = 256;
const MAX_CACHED_OBJECTS = 64;
/** Plans kept per set of heads: the form is asked for a handful of revision pairs, each two whole renders. */
const MAX_CACHED_PLANS = 8;
/**
 * Event streams open at once. Each holds a connection for as long as the client likes, and the listener takes 256
 * in all: without this bound one client opening streams in a loop would use every connection, and no page, API call
 * or webhook could be answered. A browser opens one per tab (and at most 6 connections to a host over HTTP/1.1).
 */
export const MAX_EVENT_STREAMS = 32;
/**
 * Event streams from one client address: below the listener's 32 connections per address, so a client at its
 * stream bound is answered 503 with the reason, and still has connections left for the page and its API calls.
 */
export const MAX_EVENT_STREAMS_PER_ADDRESS = 16;
/**
 * Bytes of events a stream may have queued unread. A client that stops reading would otherwise make the process
 * keep every event for it for as long as the connection lives; past this it is closed and the browser reconnects.
 */
export const MAX_UNREAD_EVENT_BYTES = 64 * 1024;

/** Below this an answer goes as it is: gzip's header and the work cost more than they save. */
const GZIP_FROM_BYTES = 1024;

const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
};

/**
 * Read-only: every route is a GET that reads the branches through the views the CLI prints (`-o json` shapes), and
 * nothing here writes to the repo. What the branches say is read once per set of heads and kept until one moves.
 */
export async function createDashboard(opts: DashboardOptions): Promise<Dashboard> {
  const sourceBranch = opts.sourceBranch ?? 'main';
  const refs = {
    source: `refs/heads/${sourceBranch}`,
    rendered: `refs/heads/${RENDERED_BRANCH}`,
    status: `refs/heads/${STATUS_BRANCH}`,
  };
  const assets = loadUiAssets();
  const index = assets.get('/ui/index.html')!;
  const csp = contentSecurityPolicy(index.body.toString('utf8'));
  const now = opts.now ?? (() => new Date());
  const sourceLimits = sourceLimitsOf(opts.limits);
  let repo: GitRepo = await openRepo(opts.gitdir);

  // One read of the branches per set of heads: a page load's several requests, and every client, share it.
  let cached:
    | {
        key: string;
        fleet: Promise<Fleet>;
        clusters?: Promise<FleetClusters>;
        attention?: Promise<AttentionView>;
        /** The rendered index's templates parsed and sorted for the matrix's pages. */
        catalog?: WorkloadCatalog;
        /** One template's placement per key, as asked; bounded, dropped with the heads. */
        placements: Map<string, Promise<ObjectPlacement>>;
        objects: Map<string, Promise<ObjectTrace | null>>;
        /** `plan -o json` per resolved base and head sha: the heads (status, autoscaling) are the rest of its input. */
        plans: Map<string, Promise<JsonBytes>>;
      }
    | undefined;
  const headsKey = async () =>
    (await Promise.all([refs.source, refs.rendered, refs.status].map((r) => readBranchHead(repo, r)))).join(' ');
  const current = async () => {
    const key = await headsKey();
    if (cached?.key !== key) {
      // A fresh GitRepo per set of heads: packs written since (a gc, a push) are found, as the reconciler does.
      repo = await openRepo(opts.gitdir);
      const fleet = readFleet(repo, {
        rev: refs.source,
        renderedRef: refs.rendered,
        statusRef: refs.status,
        reader: 'the dashboard',
        ...(opts.limits?.maxSourceFiles !== undefined ? { limits: sourceLimits } : {}),
      });
      cached = { key, fleet, placements: new Map(), objects: new Map(), plans: new Map() };
      fleet.catch(() => {
        if (cached?.fleet === fleet) cached = undefined;
      });
    }
    return cached;
  };
  const fleetClusters = async () => {
    const c = await current();
    if (!c.clusters) {
      c.clusters = c.fleet.then(readFleetClusters);
      c.clusters.catch(() => undefined); // awaited below; a read ahead nobody awaits must not count as unhandled
    }
    const fleet = await c.fleet;
    c.catalog ??= catalogWorkloads((await fleet.rendered?.index.whole())?.templates ?? {});
    c.catalog.sorted('namespace'); // the page's first order, sorted ahead with the rest
    return { fleet, clusters: await c.clusters, catalog: c.catalog };
  };
  // Read ahead: when the heads move (and at start) the fleet view's shared part is read before anyone asks, so a
  // page request right after a push answers from memory. A failure here is the next request's to report.
  const readAhead = () => void fleetClusters().catch(() => undefined);
  // The whole-commit render behind a placement when no render can be continued from (seconds at 10,000 templates) is
  // kept while the source and rendered heads stay: a status move alone (every Pull cluster's heartbeat, every few
  // seconds) is not worth another render; a move that changes placement re-renders, which moves rendered.
  let whole: { key: string; explained: Promise<Explained> } | undefined;
  const explained = async (): Promise<Explained> => {
    const [source, rendered] = (await current()).key.split(' ');
    const key = `${source} ${rendered}`;
    if (whole?.key !== key) {
      const read = readExplanations(repo, {
        rev: refs.source,
        outputRef: refs.rendered,
        now: now(),
        ...(opts.limits ? { limits: opts.limits } : {}),
      }).then(({ model, output }) => ({
        model,
        explanations: output.explanations,
        problems: [...model.problems, ...output.problems],
      }));
      whole = { key, explained: read };
      read.catch(() => whole?.explained === read && (whole = undefined));
    }
    return whole.explained;
  };

  // One template scheduled as the next sync would, not the whole commit rendered (seconds at 10,000 templates);
  // without a render to continue from, the whole commit is rendered, as `flotilla explain` does.
  const placementOne = async (c: NonNullable<typeof cached>, key: string): Promise<ObjectPlacement> => {
    const fleet = await c.fleet;
    const one = await explainTemplate(repo, key, refs, now(), sourceLimits).catch((err: unknown) => {
      throw tooLargeToRead(fleet, fleet.source.commit.oid, err);
    });
    if (!one) return placementOf(fleet, key, await explained());
    return { heads: headsOf(fleet), key, ...one };
  };

  // A plan renders two whole revisions (11 s of CPU at 3,000 templates × 400 clusters) and the validation list one: on
  // the event loop they held /healthz, webhooks, syncs and applies for that long (the reconciler's, under flotilla
  // run). Each runs on a thread of its own, its heap bounded; plans still take turns, so asked in a loop they have
  // at most half of one core and one thread's memory.
  const jobs = new OffThreadJobs(opts.jobMemoryMb);
  const planning = oneAtATime((seconds) =>
    Object.assign(
      new Error(
        `plans render both revisions in full beside the reconciler, and take turns: ask again in ${seconds} s, or run flotilla plan --base BASE --head HEAD, which renders in a process of its own`,
      ),
      { status: 503, retryAfter: seconds },
    ),
  );
  // Validation errors are the source commit's, read against the rendered branch: kept while both heads stay.
  let validation: { key: string; items: Promise<Buffer> } | undefined;
  const validationItemsJson = (source: string, rendered: string): Promise<Buffer> => {
    const key = `${source} ${rendered}`;
    if (validation?.key !== key) {
      const items = jobs.run({
        kind: 'validation',
        gitdir: repo.gitdir,
        source,
        renderedRef: refs.rendered,
        now: now().toISOString(),
        ...(opts.limits ? { limits: opts.limits } : {}),
      });
      validation = { key, items };
      items.catch(() => validation?.items === items && (validation = undefined));
    }
    return validation.items;
  };

  const commitChanges = new CommitChangesCache();
  const failedApplies: FailedAppliesCache = new Map();

  // Live: every open page gets the heads whenever a branch moves (the local refs, watched as the reconciler does).
  const streams = new Set<ServerResponse>();
  const streamsFrom = (address: string) => [...streams].filter((s) => s.req.socket.remoteAddress === address).length;
  const sendEvent = (s: ServerResponse, data: string) => {
    if (s.writableLength > MAX_UNREAD_EVENT_BYTES) s.destroy();
    else s.write(data);
  };
  let lastSent = '';
  const announce = async () => {
    const key = await headsKey().catch(() => lastSent);
    if (key === lastSent) return;
    lastSent = key;
    const [source, rendered, status] = key.split(' ');
    readAhead();
    const data = `event: heads\ndata: ${JSON.stringify({ source: source || null, rendered: rendered || null, status: status || null })}\n\n`;
    for (const s of streams) sendEvent(s, data);
  };
  lastSent = await headsKey();
  readAhead();
  const watchers: RefWatcher[] = [];
  for (const branch of [sourceBranch, RENDERED_BRANCH, STATUS_BRANCH])
    watchers.push(await watchLocalRefs(repo.gitdir, branch, () => void announce()));
  // Proxies close idle connections; a comment line now and then keeps the stream open through them.
  const keepAlive = setInterval(() => {
    for (const s of streams) sendEvent(s, ': keep-alive\n\n');
  }, 15_000);
  keepAlive.unref();

  const api: Record<string, (url: URL) => Promise<unknown>> = {
    '/ui/api/fleet': async (url) => {
      const q = url.searchParams;
      const labels = parseLabelFilter(q.get('label') ?? '');
      if (!labels) throw badRequest(`label ${q.get('label')}: write key=value, key!=value or key, comma-separated`);
      const sort = q.get('sort') ?? 'namespace';
      if (!(WORKLOAD_SORTS as readonly string[]).includes(sort))
        throw badRequest(`sort ${sort}: use ${WORKLOAD_SORTS.join(', ')}`);
      const { fleet, clusters, catalog } = await fleetClusters();
      return readFleetView(
        fleet,
        clusters,
        {
          ...optional('namespace', q.get('namespace')),
          ...optional('cluster', q.get('cluster')),
          ...optional('kind', q.get('kind')),
          ...optional('name', q.get('name')),
          sort: sort as WorkloadSort,
          descending: q.get('order') === 'desc',
          offset: Number(q.get('offset') ?? 0) || 0,
          limit: Number(q.get('limit') ?? 50) || 50,
        },
        labels,
        catalog,
      );
    },
    '/ui/api/object': async (url) => {
      const key = url.searchParams.get('key') ?? '';
      const c = await current();
      const trace = await keptAnswer(c.objects, key, MAX_CACHED_OBJECTS, async () =>
        readObjectTrace(await c.fleet, key, { renderedRef: refs.rendered, statusRef: refs.status }),
      );
      if (!trace) throw notFound(`no template ${key} on ${RENDERED_BRANCH}`);
      return trace;
    },
    '/ui/api/explain': async (url) => {
      const key = url.searchParams.get('key') ?? '';
      const c = await current();
      const placement = await keptAnswer(c.placements, key, MAX_CACHED_PLACEMENTS, () => placementOne(c, key));
      // A template the source head no longer has but the rendered branch still holds is answered (its nulls say so);
      // a key neither knows names nothing, as /ui/api/object says for it.
      const rendered = (await c.fleet).rendered;
      if (!placement.source && !placement.explanation && !(await rendered?.index.entriesOf([key]))?.has(key))
        throw notFound(`no template ${key} at the head of ${sourceBranch} or on ${RENDERED_BRANCH}`);
      return placement;
    },
    '/ui/api/changes': async (url) =>
      readChanges(
        await (await current()).fleet,
        Math.min(Math.max(1, Number(url.searchParams.get('limit') ?? 30) || 30), 200),
        commitChanges,
        sourceLimits,
      ),
    '/ui/api/diff': async (url) => {
      const commit = url.searchParams.get('commit') ?? '';
      const cluster = url.searchParams.get('cluster') ?? '';
      // A cluster is one folder under clusters/: `.` and `..` name none, and would read as an empty diff.
      if (!/^[0-9a-f]{40}$/.test(commit) || !cluster || cluster.includes('/') || cluster === '.' || cluster === '..')
        throw badRequest('diff needs commit=<40-hex rendered commit>&cluster=<name>');
      await current();
      const diff = await readClusterDiff(repo, commit, cluster, sourceLimits).catch((err: unknown) => {
        throw err instanceof TreeTooLargeError ? tooLarge(clusterDiffTooLarge(commit, cluster, err)) : err;
      });
      return { commit, cluster, diff };
    },
    '/ui/api/plan': async (url) => {
      const base = url.searchParams.get('base');
      const head = url.searchParams.get('head');
      if (!base || !head) throw badRequest('plan needs base=REV&head=REV, as flotilla plan --base --head');
      const c = await current();
      const [baseSha, headSha] = await Promise.all([resolveRev(repo, base), resolveRev(repo, head)]).catch(
        (err: unknown) => {
          throw err instanceof RevNotFoundError ? notFound(err.message) : err;
        },
      );
      return keptAnswer(c.plans, `${baseSha} ${headSha}`, MAX_CACHED_PLANS, () =>
        planning(async () => {
          const started = performance.now();
          opts.log?.({ step: 'dashboard', plan: 'start', base: baseSha, head: headSha });
          const json = await jobs
            .run({
              kind: 'plan',
              gitdir: repo.gitdir,
              base: baseSha,
              head: headSha,
              ...(opts.limits ? { limits: opts.limits } : {}),
            })
            .finally(() => {
              const ms = Math.round(performance.now() - started);
              opts.log?.({ step: 'dashboard', plan: 'end', base: baseSha, head: headSha, ms });
            });
          return new JsonBytes(json);
        }),
      );
    },
    // Validation errors need the whole source commit rendered (seconds at 10,000 templates): asked apart.
    '/ui/api/attention': async () => {
      const c = await current();
      if (!c.attention) {
        const attention = c.fleet.then((fleet) => readAttention(fleet, [], failedApplies));
        c.attention = attention;
        attention.catch(() => c.attention === attention && (c.attention = undefined));
      }
      return c.attention;
    },
    '/ui/api/validation': async () => {
      const heads = headsOf(await (await current()).fleet);
      const items = await validationItemsJson(heads.source, heads.rendered ?? '');
      // The items as the thread wrote them, not parsed here and written again: {heads, items} as before.
      return new JsonBytes(
        Buffer.concat([
          Buffer.from(`{"heads":${JSON.stringify(heads)},"items":`),
          items.subarray(0, -1),
          Buffer.from('}\n'),
        ]),
      );
    },
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/ui' && !url.pathname.startsWith('/ui/')) return false;
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      sendJson(res, 405, { error: 'the dashboard is read-only: GET only' });
      return true;
    }
    // A page of another origin (another port of this machine is another origin, and the same site) may make the
    // browser ask here: it cannot read the answer, but it can set the work going, a plan's whole renders among it, and
    // without a token no cookie is needed. Browsers say where a request comes from (Fetch Metadata): only the page's
    // own requests, and a person opening it from a link or the address bar, are answered.
    const fetchMeta = {
      ...optional('site', header(req, 'sec-fetch-site')),
      ...optional('mode', header(req, 'sec-fetch-mode')),
      ...optional('dest', header(req, 'sec-fetch-dest')),
    };
    if (!fromThisPage({ ...fetchMeta, path: url.pathname })) {
      sendJson(res, 403, {
        error: `a request from another site (Sec-Fetch-Site: ${req.headers['sec-fetch-site']}) is not answered; open the dashboard at its own address`,
      });
      return true;
    }
    // Without a token the page is for this machine only: a Host that is not a loopback name is a page elsewhere
    // reaching it through DNS rebinding (a name of theirs resolving to 127.0.0.1), which must not read the fleet.
    if (opts.token === undefined && !isLoopbackHost(hostOf(req.headers.host))) {
      sendJson(res, 403, {
        error: `Host ${req.headers.host ?? '(none)'} is not this machine's; open the dashboard as http://127.0.0.1:PORT/ui/`,
      });
      return true;
    }
    const queryToken = url.searchParams.get('token');
    if (
      !hasUiToken(opts.token, {
        authorization: req.headers.authorization,
        cookie: req.headers.cookie,
        query: queryToken,
      })
    ) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="flotilla"');
      sendJson(res, 401, {
        error: 'this dashboard needs its token: open /ui/?token=<token> once, or send Authorization: Bearer <token>',
      });
      return true;
    }
    if (queryToken !== null) {
      // The token leaves the address bar (and history, and Referer) at once: a cookie carries it from here on.
      res.setHeader(
        'Set-Cookie',
        `${TOKEN_COOKIE}=${encodeURIComponent(queryToken)}; Path=/ui; HttpOnly; SameSite=Strict; Max-Age=86400`,
      );
      url.searchParams.delete('token');
      res.writeHead(303, { Location: `${url.pathname}${url.search}` });
      res.end();
      return true;
    }
    if (url.pathname === '/ui') {
      res.writeHead(308, { Location: '/ui/' });
      res.end();
      return true;
    }
    if (url.pathname === '/ui/api/events') {
      if (streams.size >= MAX_EVENT_STREAMS) {
        res.setHeader('Retry-After', '30');
        sendJson(res, 503, {
          error: `${MAX_EVENT_STREAMS} event streams are open already; close a dashboard tab or wait for one to end`,
        });
        return true;
      }
      if (streamsFrom(req.socket.remoteAddress ?? '') >= MAX_EVENT_STREAMS_PER_ADDRESS) {
        res.setHeader('Retry-After', '30');
        sendJson(res, 503, {
          error: `${MAX_EVENT_STREAMS_PER_ADDRESS} event streams are open from your address already; close a dashboard tab or wait for one to end`,
        });
        return true;
      }
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        Connection: 'keep-alive',
      });
      const [source, rendered, status] = lastSent.split(' ');
      res.write(
        `retry: 2000\nevent: heads\ndata: ${JSON.stringify({ source: source || null, rendered: rendered || null, status: status || null })}\n\n`,
      );
      streams.add(res);
      req.on('close', () => streams.delete(res));
      return true;
    }
    const route = api[url.pathname];
    if (route) {
      try {
        sendJson(res, 200, await route(url));
      } catch (err) {
        // A commit too large to read is the request's to fix, like a bad one: answered, not logged as a failure.
        const status = err instanceof SourceTooLargeError ? 422 : (err as { status?: number }).status;
        const retryAfter = (err as { retryAfter?: number }).retryAfter;
        if (retryAfter !== undefined) res.setHeader('Retry-After', String(retryAfter));
        if (status) sendJson(res, status, { error: (err as Error).message });
        else {
          opts.log?.({ step: 'dashboard', path: url.pathname, error: (err as Error).message });
          sendJson(res, 500, { error: (err as Error).message, code: (err as { code?: string }).code ?? null });
        }
      }
      return true;
    }
    const asset = assets.get(url.pathname === '/ui/' ? '/ui/index.html' : url.pathname);
    if (!asset) {
      sendJson(res, 404, { error: `no such page ${url.pathname}; the dashboard is at /ui/` });
      return true;
    }
    res.writeHead(200, {
      'Content-Type': asset.type,
      'Content-Length': asset.body.length,
      'Cache-Control': 'no-cache',
      ...(asset === index ? { 'Content-Security-Policy': csp } : {}),
    });
    res.end(req.method === 'HEAD' ? undefined : asset.body);
    return true;
  }

  return {
    handle,
    close: async () => {
      clearInterval(keepAlive);
      for (const s of streams) s.end();
      streams.clear();
      await Promise.all(watchers.map((w) => w.close()));
      await jobs.close();
    },
  };
}

/**
 * Whether Fetch Metadata says a request is the page's own or a person opening the page: no such header (not a
 * browser, or an old one), same-origin, none (the address bar, a bookmark), or a link from elsewhere to a page, never
 * to the API (a frame or a link there would set its work going). Pure.
 */
export function fromThisPage(h: { site?: string; mode?: string; dest?: string; path: string }): boolean {
  if (h.site === undefined || h.site === 'same-origin' || h.site === 'none') return true;
  return h.mode === 'navigate' && h.dest === 'document' && !h.path.startsWith('/ui/api/');
}

/** The host part of a Host header: `127.0.0.1:9465` → `127.0.0.1`, `[::1]:80` → `::1`. */
function hostOf(header: string | undefined): string {
  const h = header ?? '';
  const v6 = /^\[([^\]]+)\]/.exec(h);
  return v6 ? v6[1]! : h.replace(/:\d+$/, '');
}

function header(req: IncomingMessage, name: string): string | null {
  const v = req.headers[name];
  return typeof v === 'string' ? v : null;
}

function optional<K extends string>(key: K, value: string | null): Partial<Record<K, string>> {
  return value ? ({ [key]: value } as Record<K, string>) : {};
}

function badRequest(message: string): Error {
  return Object.assign(new Error(message), { status: 400 });
}

/** A commit asked for that is past what one request may walk. */
function tooLarge(message: string): Error {
  return Object.assign(new Error(message), { status: 422 });
}

function notFound(message: string): Error {
  return Object.assign(new Error(message), { status: 404 });
}

/** An answer already written as JSON (newline-terminated), sent as it is. */
class JsonBytes {
  constructor(readonly bytes: Buffer) {}
}

/**
 * Answers of a kilobyte and more go gzipped to a client that takes it: the fleet answer of 400 clusters is 1.8 MB, most
 * of it each cluster's API list (the same for every member), and 23 KB gzipped; the page asks again on every branch
 * move. Compressed off the event loop (zlib's thread pool).
 */
function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = body instanceof JsonBytes ? body.bytes : Buffer.from(`${JSON.stringify(body)}\n`);
  const headers = {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
    Vary: 'Accept-Encoding',
  };
  if (text.length < GZIP_FROM_BYTES || !acceptsGzip(res.req.headers['accept-encoding'])) {
    res.writeHead(status, { ...headers, 'Content-Length': text.length });
    res.end(text);
    return;
  }
  gzip(text, (err, zipped) => {
    if (err) {
      res.writeHead(status, { ...headers, 'Content-Length': text.length });
      res.end(text);
    } else {
      res.writeHead(status, { ...headers, 'Content-Encoding': 'gzip', 'Content-Length': zipped.length });
      res.end(zipped);
    }
  });
}

/**
 * What /ui answers when the listener faces other machines and no token was given (`flotilla run --listen 0.0.0.0:…`
 * for webhooks): 403 with the reason, never the page.
 */
export function refusingDashboard(reason: string): Pick<Dashboard, 'handle'> {
  return {
    handle: async (req, res) => {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      if (path !== '/ui' && !path.startsWith('/ui/')) return false;
      sendJson(res, 403, { error: reason });
      return true;
    },
  };
}
