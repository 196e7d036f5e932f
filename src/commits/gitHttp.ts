import type { HttpClient } from 'isomorphic-git';
import http from 'isomorphic-git/http/node';

/** How long a fetch or push may wait without receiving a byte before it fails. */
export const GIT_HTTP_IDLE_TIMEOUT_MS = 30_000;

/**
 * isomorphic-git's node HTTP client with an idle timeout. Without one, a Git server that accepts the connection
 * and then stalls holds the fetch (and with it the reconciler's single-flight pass queue, or the agent's loop)
 * forever. The timeout is on the socket going quiet, not on the whole transfer, so a slow but moving clone of a
 * large repo is not cut off.
 */
export function gitHttp(idleTimeoutMs: number = GIT_HTTP_IDLE_TIMEOUT_MS): HttpClient {
  return {
    request: (req) =>
      http.request({ ...req, fetchOptions: { ...(req.fetchOptions as object | undefined), timeout: idleTimeoutMs } }),
  };
}
