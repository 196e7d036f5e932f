// Webhook deliveries signed as each forge signs them, per its docs: the tests' own signer, independent of the
// product's verifier (only the generic Flotilla scheme is the product's, so its signer is the product's too).
import { createHmac } from 'node:crypto';
import { signGeneric, type Forge } from '../../src/passes/verifyWebhook.ts';

/** HMAC-SHA256 of `body` in hex, the digest GitHub (behind `sha256=`) and Gitea send. */
export const hmacHex = (body: string, secret: string): string =>
  createHmac('sha256', secret).update(body).digest('hex');

/** The headers `forge` sends with a push delivery `id` of `body`, signed with `secret`. */
export function forgeHeaders(forge: Forge, body: string, id: string, secret: string): Record<string, string> {
  switch (forge) {
    case 'github':
      return {
        'X-Hub-Signature-256': `sha256=${hmacHex(body, secret)}`,
        'X-GitHub-Delivery': id,
        'X-GitHub-Event': 'push',
      };
    case 'gitlab':
      return { 'X-Gitlab-Token': secret, 'X-Gitlab-Event-UUID': id, 'X-Gitlab-Event': 'Push Hook' };
    case 'gitea':
      return { 'X-Gitea-Signature': hmacHex(body, secret), 'X-Gitea-Delivery': id, 'X-Gitea-Event': 'push' };
    case 'generic':
      return { 'X-Flotilla-Signature': signGeneric(body, secret), 'X-Flotilla-Delivery': id };
  }
}

/** POSTs a GitHub push delivery with exactly `headers` (a test chooses what to sign, or not) to `url`; the HTTP status. */
export async function postGithubPush(url: string, body: string, headers: Record<string, string>): Promise<number> {
  const res = await fetch(`${url}/hooks/github`, {
    method: 'POST',
    body,
    headers: { 'Content-Type': 'application/json', 'X-GitHub-Event': 'push', ...headers },
  });
  await res.text();
  return res.status;
}
