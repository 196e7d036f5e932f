// A scripted KubeTarget: each request is answered by `handler`, and every request is recorded.
import type { ApiResource, KubeRequest, KubeResponse, KubeTarget } from '../../../src/deliveries/KubeTarget.ts';

export function fakeKube(
  name: string,
  handler: (req: KubeRequest) => KubeResponse | Promise<KubeResponse>,
): KubeTarget & { log: KubeRequest[] } {
  const log: KubeRequest[] = [];
  const stats = { requests: 0, writes: 0 };
  return {
    name,
    server: 'https://fake.invalid',
    discovery: new Map<string, Promise<ApiResource[] | null>>(),
    stats,
    log,
    async request(req) {
      log.push(req);
      stats.requests++;
      if (req.method !== 'GET') stats.writes++;
      return handler(req);
    },
    close: async () => undefined,
  };
}

export function json(status: number, body: unknown): KubeResponse {
  return { status, body, headers: { 'content-type': 'application/json' } };
}

export const NO_WAIT = { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 };
