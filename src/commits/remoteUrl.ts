// A Git remote given as https://user:token@host/repo.git carries a credential. It must reach the Git server and
// nothing else: not the mirror's config (isomorphic-git's addRemote stores the URL it is given, in a file
// other users of the machine may read), not a log line, not an error message. So the URL is split once into
// the address (stored, logged) and the credential (handed to isomorphic-git's onAuth callback, in memory).
import type { AuthCallback } from 'isomorphic-git';

export interface RemoteUrl {
  /** The URL without credentials: what is stored and what isomorphic-git is asked to fetch. */
  url: string;
  /** What to log and put in errors: `https://***@host/path` when the URL carried credentials. */
  shown: string;
  /** isomorphic-git's auth callback when the URL carried credentials (asked when the server answers 401). */
  onAuth: AuthCallback | undefined;
}

/** Splits `url` into its address and its credential. Pure. */
export function parseRemoteUrl(url: string): RemoteUrl {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { url, shown: redactUrlsIn(url), onAuth: undefined };
  }
  if (!u.username && !u.password) return { url, shown: url, onAuth: undefined };
  const auth = { username: decodeURIComponent(u.username), password: decodeURIComponent(u.password) };
  u.username = '';
  u.password = '';
  const bare = u.toString();
  return { url: bare, shown: bare.replace(/^([a-z][a-z0-9+.-]*:\/\/)/i, '$1***@'), onAuth: () => auth };
}

/** `url` as logs and errors may show it: `https://***@host/path` when it carries credentials. Pure. */
export function redactUrl(url: string): string {
  return parseRemoteUrl(url).shown;
}

/**
 * `text` (an error message, a log value) with the userinfo of every URL in it replaced by `***`: errors from
 * libraries and servers may echo the URL they were given. Pure.
 */
export function redactUrlsIn(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@'"<>]+@/gi, '$1***@');
}

/** `err` with any URL credential in its message replaced by `***`, for errors thrown past a Git call. */
export function redactedError(err: unknown): unknown {
  if (err instanceof Error) err.message = redactUrlsIn(err.message);
  return err;
}
