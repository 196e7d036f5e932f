/**
 * Whether a URL names this machine's loopback (pure): `localhost` or a loopback address, in any spelling a URL
 * parser normalises to one (`127.1`, `0x7f.1`, `[::1]`, `[::ffff:127.0.0.1]`, percent-escapes). Go's HTTP client
 * connects to such a host itself, whatever HTTP_PROXY says, so a tool run with a refusing proxy still reaches it. A
 * scheme-relative `//host/…` is read with http.
 */
export function loopbackUrl(value: string): boolean {
  const text = value.trim();
  let host: string;
  try {
    host = new URL(text.startsWith('//') ? `http:${text}` : text).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (/^127\.\d+\.\d+\.\d+$/.test(host)) return true;
  return host === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host);
}
