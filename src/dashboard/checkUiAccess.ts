import { createHash, timingSafeEqual } from 'node:crypto';

/** The cookie `?token=` sets, so the page's own requests (scripts, API, event stream) carry the token. */
export const TOKEN_COOKIE = 'flotilla_ui';

/** 127.0.0.0/8, ::1 and localhost: addresses only this machine reaches. Pure. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === '::ffff:127.0.0.1';
}

/**
 * Whether a request may read the dashboard: always without a token (loopback), else with the token as a bearer
 * header, in the cookie, or as `?token=` (which the handler turns into the cookie). Compared in constant time. Pure.
 */
export function hasUiToken(
  token: string | undefined,
  got: { authorization?: string | undefined; cookie?: string | undefined; query?: string | null },
): boolean {
  if (token === undefined) return true;
  const candidates = [
    /^Bearer\s+(.+)$/i.exec(got.authorization ?? '')?.[1]?.trim(),
    cookieValue(got.cookie, TOKEN_COOKIE),
    got.query ?? undefined,
  ];
  const want = digest(token);
  return candidates.some((c) => c !== undefined && c !== '' && timingSafeEqual(digest(c), want));
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** Why a non-loopback dashboard without a token is refused: said the same by `flotilla ui` and `flotilla run`. */
export function exposedWithoutToken(listen: string): string {
  return `the dashboard on ${listen} would be reachable from other machines without a login; fix: pass --ui-token-env VAR (a variable holding a long random token; open /ui/?token=... once), or listen on 127.0.0.1 and put it behind an authenticating proxy`;
}
