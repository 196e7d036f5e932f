import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenBounded, type BoundedListener, type ListenerLimits } from './boundedListener.ts';
import type { ReconcilerMetrics } from './createReconcilerMetrics.ts';
import { RecentDeliveries } from './RecentDeliveries.ts';
import { ReplayWindow } from './ReplayWindow.ts';
import { FORGES, verifyWebhook, type Forge } from './verifyWebhook.ts';

export interface EndpointOptions {
  host: string;
  /** 0 = any free port. */
  port: number;
  metrics: ReconcilerMetrics;
  /** /readyz: 200 when ready, else 503 with the reason. */
  readiness: () => { ready: boolean; reason: string };
  /** Webhooks answer 404 when absent. */
  webhookSecret: string | undefined;
  /** An accepted delivery: a hint to fetch and reconcile now (its payload is never trusted for anything else). */
  onWebhook: (forge: Forge, deliveryId: string | undefined) => void;
  log: (entry: Record<string, unknown>) => void;
  /** Bodies above this are refused with 413 before the signature is checked. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Delivery ids kept for replay detection. Default 1,000. */
  rememberDeliveries?: number;
  /** How long an accepted body is remembered: the same signed body again within it starts nothing. Default 24 h. */
  replayWindowMs?: number;
  /**
   * The source commit the last pass processed. A push delivery whose `after` is that commit is answered 200 and
   * starts nothing: the fleet already shows it.
   */
  processedCommit?: () => string | undefined;
  /** Connection and timeout bounds; every field has a default fit for a forge and a kubelet probe. */
  limits?: ListenerLimits;
  /** More routes (the dashboard at /ui/): asked first, and true when it answered the request. */
  routes?: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;
}

export type Endpoints = BoundedListener;

/** The reconciler's HTTP side: /healthz, /readyz, /metrics and POST /hooks/<forge>. Plain HTTP; bind it to loopback or put TLS in front. */
export async function serveEndpoints(opts: EndpointOptions): Promise<Endpoints> {
  const deliveries = new RecentDeliveries(opts.rememberDeliveries ?? 1000);
  const bodies = new ReplayWindow(opts.replayWindowMs, opts.rememberDeliveries ?? 1000);
  const maxBody = opts.maxBodyBytes ?? 1024 * 1024;
  const listener = await listenBounded({ host: opts.host, port: opts.port, limits: opts.limits }, (req, res) => {
    handle(req, res).catch((err: unknown) => {
      opts.log({ step: 'http', error: (err as Error).message, path: req.url });
      if (!res.headersSent) send(res, 500, { error: 'internal error' });
      else res.destroy();
    });
  });
  return listener;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (opts.routes && (await opts.routes(req, res))) return;
    if (url.pathname === '/healthz') return sendText(res, 200, 'ok\n');
    if (url.pathname === '/readyz') {
      const r = opts.readiness();
      return sendText(res, r.ready ? 200 : 503, `${r.ready ? 'ok' : `not ready: ${r.reason}`}\n`);
    }
    if (url.pathname === '/metrics') {
      const text = await opts.metrics.registry.metrics();
      res.writeHead(200, { 'Content-Type': opts.metrics.registry.contentType });
      res.end(text);
      return;
    }
    const hook = /^\/hooks\/([a-z]+)\/?$/.exec(url.pathname);
    if (hook) return handleHook(hook[1]!, req, res);
    send(res, 404, {
      error: `no such endpoint ${url.pathname}; try /healthz, /readyz, /metrics or POST /hooks/{${FORGES.join(',')}}`,
    });
  }

  async function handleHook(name: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!(FORGES as readonly string[]).includes(name))
      return send(res, 404, { error: `unknown forge ${name}; use one of ${FORGES.join(', ')}` });
    const forge = name as Forge;
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return send(res, 405, { error: 'webhooks are POSTed' });
    }
    if (!opts.webhookSecret)
      return send(res, 404, { error: 'webhooks are off; start flotilla run with --webhook-secret-env VAR' });
    const body = await readCapped(req, maxBody);
    if (!body) {
      opts.metrics.recordWebhook(forge, 'too_large');
      res.setHeader('Connection', 'close');
      return send(res, 413, { error: `body over ${maxBody} bytes` });
    }
    const verdict = verifyWebhook(forge, req.headers, body, opts.webhookSecret);
    if (!verdict.ok) {
      opts.metrics.recordWebhook(forge, 'unauthorized');
      opts.log({ step: 'webhook', forge, rejected: verdict.reason });
      return send(res, 401, { error: verdict.reason });
    }
    // Recorded only once the signature holds, so nobody without the secret can fill the window.
    if (verdict.deliveryId !== undefined && !deliveries.remember(`${forge}:${verdict.deliveryId}`)) {
      opts.metrics.recordWebhook(forge, 'duplicate');
      opts.log({ step: 'webhook', forge, delivery: verdict.deliveryId, rejected: 'replayed delivery' });
      return send(res, 409, { error: `delivery ${verdict.deliveryId} was already received` });
    }
    // The delivery id is not signed: a captured body replayed under a new id is the same body.
    const digest = createHash('sha256').update(body).digest('hex');
    if (!bodies.remember(`${forge}:${digest}`)) {
      opts.metrics.recordWebhook(forge, 'duplicate');
      opts.log({ step: 'webhook', forge, delivery: verdict.deliveryId ?? null, rejected: 'replayed body' });
      return send(res, 409, { error: `this body (sha256 ${digest.slice(0, 12)}) was already received` });
    }
    const after = pushedCommit(body);
    if (after !== undefined && after === opts.processedCommit?.()) {
      opts.metrics.recordWebhook(forge, 'duplicate');
      opts.log({
        step: 'webhook',
        forge,
        delivery: verdict.deliveryId ?? null,
        ignored: `commit ${after} already processed`,
      });
      return send(res, 200, { accepted: false, reason: `commit ${after} was already processed` });
    }
    opts.metrics.recordWebhook(forge, 'accepted');
    opts.log({ step: 'webhook', forge, delivery: verdict.deliveryId ?? null, accepted: true });
    opts.onWebhook(forge, verdict.deliveryId);
    send(res, 202, { accepted: true, delivery: verdict.deliveryId ?? null });
  }
}

/** A push payload's `after` (GitHub, GitLab and Gitea all name the pushed commit so), when it names a commit. */
function pushedCommit(body: Buffer): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  const after = (parsed as { after?: unknown } | null)?.after;
  return typeof after === 'string' && /^([0-9a-f]{40}|[0-9a-f]{64})$/.test(after) && !/^0+$/.test(after)
    ? after
    : undefined;
}

/** The raw body, or null once it passes `max` bytes (the rest is not read). */
async function readCapped(req: IncomingMessage, max: number): Promise<Buffer | null> {
  if (Number(req.headers['content-length'] ?? 0) > max) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > max) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(`${JSON.stringify(body)}\n`);
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(text);
}
