import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ReconcilerMetrics } from './createReconcilerMetrics.ts';
import { RecentDeliveries } from './RecentDeliveries.ts';
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
}

export interface Endpoints {
  readonly url: string;
  close(): Promise<void>;
}

/** The reconciler's HTTP side: /healthz, /readyz, /metrics and POST /hooks/<forge>. Plain HTTP; bind it to loopback or put TLS in front. */
export async function serveEndpoints(opts: EndpointOptions): Promise<Endpoints> {
  const deliveries = new RecentDeliveries(opts.rememberDeliveries ?? 1000);
  const maxBody = opts.maxBodyBytes ?? 1024 * 1024;
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      opts.log({ step: 'http', error: (err as Error).message, path: req.url });
      if (!res.headersSent) send(res, 500, { error: 'internal error' });
      else res.destroy();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
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
    send(res, 404, { error: `no such endpoint ${url.pathname}; try /healthz, /readyz, /metrics or POST /hooks/{${FORGES.join(',')}}` });
  }

  async function handleHook(name: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!(FORGES as readonly string[]).includes(name)) return send(res, 404, { error: `unknown forge ${name}; use one of ${FORGES.join(', ')}` });
    const forge = name as Forge;
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return send(res, 405, { error: 'webhooks are POSTed' });
    }
    if (!opts.webhookSecret) return send(res, 404, { error: 'webhooks are off; start flotilla run with --webhook-secret-env VAR' });
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
    opts.metrics.recordWebhook(forge, 'accepted');
    opts.log({ step: 'webhook', forge, delivery: verdict.deliveryId ?? null, accepted: true });
    opts.onWebhook(forge, verdict.deliveryId);
    send(res, 202, { accepted: true, delivery: verdict.deliveryId ?? null });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    }),
  };
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
