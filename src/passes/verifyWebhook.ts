import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export const FORGES = ['github', 'gitlab', 'gitea', 'generic'] as const;
export type Forge = (typeof FORGES)[number];

export type WebhookVerdict =
  | { ok: true; forge: Forge; deliveryId: string | undefined }
  | { ok: false; forge: Forge; reason: string };

/** Where each forge puts its proof and its delivery id (header names as node lowercases them). */
const FORMS: Record<Forge, { proof: readonly string[]; delivery: readonly string[]; check: (proof: string, body: Buffer, secret: string) => boolean }> = {
  // GitHub: X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>.
  github: { proof: ['x-hub-signature-256'], delivery: ['x-github-delivery'], check: (p, b, s) => equalText(p, `sha256=${hmac(s, b)}`) },
  // GitLab sends the secret itself in X-Gitlab-Token; there is no signature over the body.
  gitlab: { proof: ['x-gitlab-token'], delivery: ['x-gitlab-event-uuid'], check: (p, _b, s) => equalText(p, s) },
  // Gitea and Forgejo: bare hex HMAC-SHA256 of the raw body.
  gitea: { proof: ['x-gitea-signature', 'x-forgejo-signature'], delivery: ['x-gitea-delivery', 'x-forgejo-delivery'], check: (p, b, s) => equalText(p, hmac(s, b)) },
  generic: { proof: ['x-flotilla-signature'], delivery: ['x-flotilla-delivery'], check: (p, b, s) => equalText(p, `sha256=${hmac(s, b)}`) },
};

/**
 * Checks one webhook delivery against the shared secret, over the raw body bytes as received (re-serialized JSON
 * would not match). Pure apart from hashing: deciding what a replay means is the caller's.
 */
export function verifyWebhook(forge: Forge, headers: IncomingHttpHeaders, body: Buffer, secret: string): WebhookVerdict {
  const form = FORMS[forge];
  const proof = firstHeader(headers, form.proof);
  if (proof === undefined) return { ok: false, forge, reason: `missing ${form.proof.join(' or ')} header` };
  if (!form.check(proof, body, secret)) return { ok: false, forge, reason: `${forge === 'gitlab' ? 'token' : 'signature'} does not match` };
  return { ok: true, forge, deliveryId: firstHeader(headers, form.delivery) };
}

/** Signs a body as the generic form expects: for scripts and tests that call the hook themselves. */
export function signGeneric(body: Buffer | string, secret: string): string {
  return `sha256=${hmac(secret, Buffer.from(body))}`;
}

function hmac(secret: string, body: Buffer): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * Constant time whatever the inputs: both sides are hashed first, so timingSafeEqual always compares 32 bytes
 * and neither the length nor the first differing byte of the expected value leaks.
 */
function equalText(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function firstHeader(headers: IncomingHttpHeaders, names: readonly string[]): string | undefined {
  for (const name of names) {
    const v = headers[name];
    const text = Array.isArray(v) ? v[0] : v;
    if (text !== undefined && text !== '') return text.trim();
  }
  return undefined;
}
