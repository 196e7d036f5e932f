import { NoClusterClientError, type KubeRequest, type KubeResponse, type KubeTarget } from './KubeTarget.ts';
import { requestUrl, transportErrorText } from './clientGoErrors.ts';

export interface RetryPolicy {
  /** Attempts in all, the first included. Default 5. */
  attempts: number;
  /** Delay before the first retry; doubles each time. Default 100 ms. */
  baseDelayMs: number;
  /** Cap on one delay. Default 2,000 ms. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseDelayMs: 100, maxDelayMs: 2_000 };

/** No response after every attempt: refused, reset, TLS failure or timeout. `unreachable` lets callers stop early. */
export class KubeUnreachableError extends Error {
  readonly code = 'CLUSTER_UNREACHABLE' as const;
  constructor(
    readonly cluster: string,
    readonly attempts: number,
    cause: unknown,
    /** The last attempt's failure as client-go's error says it (Karmada's words); absent when nothing was sent. */
    readonly error?: string,
  ) {
    super(
      cause instanceof NoClusterClientError
        ? `cluster ${cluster}: ${cause.message}`
        : `cluster ${cluster} did not answer after ${attempts} attempts: ${describeNetworkError(cause)}`,
      { cause },
    );
    this.name = 'KubeUnreachableError';
  }
}

/**
 * One request with bounded exponential backoff (with jitter) on answers that say "try again" (429 and 5xx) and on
 * no answer at all. Other statuses come back at once. After the last attempt a retryable HTTP status is returned
 * as is, while a network failure throws KubeUnreachableError. Retry-After (seconds) is honoured up to maxDelayMs.
 */
export async function sendRequest(
  kube: KubeTarget,
  req: KubeRequest,
  policy: RetryPolicy = DEFAULT_RETRY,
  sleep: (ms: number) => Promise<void> = defaultSleep,
): Promise<KubeResponse> {
  let lastError: unknown;
  for (let attempt = 1; ; attempt++) {
    let res: KubeResponse | undefined;
    try {
      res = await kube.request(req);
      if (!isRetryableStatus(res.status)) return res;
    } catch (err) {
      // No client at all: nothing to wait for.
      if (err instanceof NoClusterClientError) throw new KubeUnreachableError(kube.name, attempt, err);
      lastError = err;
    }
    if (attempt >= policy.attempts) {
      if (res) return res;
      throw new KubeUnreachableError(kube.name, attempt, lastError, clientGoText(kube, req, lastError));
    }
    const retryAfter = Number(res?.headers['retry-after']);
    const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
    const delay =
      Number.isFinite(retryAfter) && retryAfter > 0
        ? Math.min(policy.maxDelayMs, retryAfter * 1000)
        : backoff * (0.5 + Math.random() / 2);
    await sleep(delay);
  }
}

export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/** `fetch failed` hides the useful part in `cause`: ECONNREFUSED, ECONNRESET, a certificate error, a timeout. */
export function describeNetworkError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  if (err.name === 'TimeoutError') return 'request timed out';
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `${cause.code}${cause.message ? ` (${cause.message})` : ''}`;
  return cause?.message ?? err.message;
}

/**
 * The message of a Kubernetes Status body, whole: it is what client-go's error says, which Karmada writes whole into a
 * Work's Applied condition (every field error of a refused object, however many). Any other body (a proxy's page, an
 * unexpected document) is shortened.
 */
export function statusMessage(res: KubeResponse): string {
  const reason = statusReason(res);
  if (reason !== undefined) return `HTTP ${res.status}: ${reason}`;
  const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
  return `HTTP ${res.status}: ${String(text).slice(0, 300)}`;
}

/** The message of a Kubernetes Status body, which is all client-go's StatusError says; undefined for any other body. */
export function statusReason(res: KubeResponse): string | undefined {
  const body = res.body as { message?: unknown } | string | undefined;
  return body && typeof body === 'object' && typeof body.message === 'string' ? body.message : undefined;
}

/** Undefined for a target without a server URL (a scripted one): there is no URL to name. */
function clientGoText(kube: KubeTarget, req: KubeRequest, err: unknown): string | undefined {
  if (!URL.canParse(kube.server)) return undefined;
  return transportErrorText(req.method, requestUrl(kube.server, req), err);
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
