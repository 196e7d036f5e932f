import { createHash } from 'node:crypto';

/**
 * The page's Content-Security-Policy: scripts only from Flotilla itself plus the one inline script, the import map
 * (browsers take no external import map), allowed by its hash; no inline styles or event handlers, nothing framed,
 * no requests anywhere but back to Flotilla. `html` is the page as served. Pure.
 */
export function contentSecurityPolicy(html: string): string {
  const maps = [...html.matchAll(/<script type="importmap">([\s\S]*?)<\/script>/g)].map(
    (m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`,
  );
  return [
    "default-src 'none'",
    `script-src 'self' ${maps.join(' ')}`.trim(),
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
