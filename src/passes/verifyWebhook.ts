import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export const FORGES = ['github', 'gitlab', 'gitea', 'generic'] as const;
export type Forge = (typeof FORGES)[number];

export type WebhookVerdict =
  | { ok: true; forge: Forge; deliveryId: string | undefined }
  | { ok: false; forge: Forge; reason: string };

/** Where each forge puts its proof and its delivery id (header names as node lowercases them). */
const FORMS: Record<
  Forge,
  {
    proof: readonly string[];
    delivery: readonly string[];
    check: (proof: string, body: Buffer, secret: string) => boolean;
  }
> = {
  // GitHub: X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>.
  github: {
    proof: ['x-hub-signature-256'],
    delivery: ['x-github-delivery'],
    check: (p, b, s) => equalText(p, `sha256=${hmac(s, b)}`),
  },
  // GitLab sends the secret itself in X-Gitlab-Token; there is no signature over the body.
  gitlab: { proof: ['x-gitlab-token'], delivery: ['x-gitlab-event-uuid'], check: (p, _b, s) => equalText(p, s) },
  // Gitea and Forgejo: bare hex HMAC-SHA256 of the raw body.
  gitea: {
    proof: ['x-gitea-signature', 'x-forgejo-signature'],
    delivery: ['x-gitea-delivery', 'x-forgejo-delivery'],
    check: (p, b, s) => equalText(p, hmac(s, b)),
  },
  generic: {
    proof: ['x-flotilla-signature'],
    delivery: ['x-flotilla-delivery'],
    check: (p, b, s) => equalText(p, `sha256=${hmac(s, b)}`),
  },
};

/**
 * Checks one webhook delivery against the shared secret, over the raw body bytes as received (re-serialized JSON
 * would not match). Pure apart from hashing: deciding what a replay means is the caller's.
 */
export function verifyWebhook(
  forge: Forge,
  headers: IncomingHttpHeaders,
  body: Buffer,
  secret: string,
  now = Date.now(),
): WebhookVerdict {
  if (forge === 'gitlab' && firstHeader(headers, ['webhook-signature']) !== undefined)
    return verifyStandardWebhook(forge, headers, body, secret, now);
  const form = FORMS[forge];
  const proof = firstHeader(headers, form.proof);
  if (proof === undefined) return { ok: false, forge, reason: `missing ${form.proof.join(' or ')} header` };
  if (!form.check(proof, body, secret))
    return { ok: false, forge, reason: `${forge === 'gitlab' ? 'token' : 'signature'} does not match` };
  return { ok: true, forge, deliveryId: firstHeader(headers, form.delivery) };
}

/**
 * How far a signed timestamp may be from this host's clock: the Standard Webhooks specification's five minutes.
 * A captured delivery replays for no longer than this, and the body digest window covers that time.
 */
export const SIGNED_TIMESTAMP_TOLERANCE_MS = 5 * 60 * 1000;

/**
 * GitLab's signing token (Standard Webhooks, behind the webhook_signing_token feature flag): `webhook-signature:
 * v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one or more space-separated. The
 * timestamp is signed, so a delivery older (or newer) than the tolerance is refused: the one forge form that
 * bounds a replay by time. A `whsec_` secret is the specification's base64 key; any other is used as its bytes.
 */
function verifyStandardWebhook(
  forge: Forge,
  headers: IncomingHttpHeaders,
  body: Buffer,
  secret: string,
  now: number,
): WebhookVerdict {
  const id = firstHeader(headers, ['webhook-id']);
  const timestamp = firstHeader(headers, ['webhook-timestamp']);
  const signatures = firstHeader(headers, ['webhook-signature']) ?? '';
  if (id === undefined || timestamp === undefined)
    return { ok: false, forge, reason: 'missing webhook-id or webhook-timestamp header' };
  const key = secret.startsWith('whsec_')
    ? Buffer.from(secret.slice('whsec_'.length), 'base64')
    : Buffer.from(secret, 'utf8');
  const expected = `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64')}`;
  // Every candidate is compared, so the time taken does not tell which one matched.
  const matches = signatures
    .split(' ')
    .filter(Boolean)
    .map((given) => equalText(given, expected));
  if (!matches.includes(true)) return { ok: false, forge, reason: 'signature does not match' };
  const seconds = /^\d{1,12}$/.test(timestamp) ? Number(timestamp) : NaN;
  if (!(Math.abs(now - seconds * 1000) <= SIGNED_TIMESTAMP_TOLERANCE_MS)) {
    return {
      ok: false,
      forge,
      reason: `signed timestamp ${timestamp} is more than ${SIGNED_TIMESTAMP_TOLERANCE_MS / 60000} minutes from this host's clock`,
    };
  }
  return { ok: true, forge, deliveryId: id };
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
