// A failed request to a member as client-go's error says it: the text Karmada's execution controller writes after
// "Failed to apply all manifests (0/1): " in a Work's Applied condition. Karmada's object watcher talks to members
// through client-go's dynamic client, so an answer outside 2xx reads as rest/request.go and apimachinery's
// NewGenericServerResponse word it (a Status body's message, else a fixed sentence per code), and no answer at all
// reads as Go's net/url Error: `<Op> "<URL>": <net error>`. Verbs and URLs are those of the request Flotilla sent.
import type { KubeRequest, KubeResponse } from './KubeTarget.ts';
import { goQuote } from '../text/goQuote.ts';

/** The URL a request goes to: the target's server, the path, then the query in the request's order. */
export function requestUrl(server: string, req: Pick<KubeRequest, 'path' | 'query'>): URL {
  const url = new URL(server + req.path);
  for (const [k, v] of Object.entries(req.query ?? {})) url.searchParams.set(k, v);
  return url;
}

/** client-go caps the body it quotes (maxUnstructuredResponseTextBytes). */
const MAX_QUOTED_BYTES = 2048;

/**
 * client-go's error for an answer outside 2xx. A JSON Status of a failure is its message whole; any other body gives
 * the generic sentence of its code, quoting the body's text only where client-go does (403, 406, 415, a 5xx without
 * a sentence of its own) and only when it is text (no Content-Type, or text/*): a JSON or binary body is "unknown".
 */
export function responseErrorText(res: Pick<KubeResponse, 'status' | 'body' | 'headers'>): string {
  const type = mediaType(res.headers['content-type']);
  // No Content-Type: client-go decodes with its own, application/json; an undecodable type is never a Status.
  const decodable = type === '' || type === 'application/json';
  const status = (decodable ? asJson(res.body) : undefined) as
    | { kind?: unknown; status?: unknown; message?: unknown }
    | undefined;
  if (status && typeof status === 'object' && status.kind === 'Status' && status.status === 'Failure')
    return typeof status.message === 'string' ? status.message : '';
  const text = type === '' || type.startsWith('text/');
  const raw = typeof res.body === 'string' ? res.body : res.body === undefined ? '' : JSON.stringify(res.body);
  const serverMessage = text
    ? Buffer.from(raw, 'utf8').subarray(0, MAX_QUOTED_BYTES).toString('utf8').trim()
    : 'unknown';
  return genericServerMessage(res.status, serverMessage);
}

/** apimachinery's NewGenericServerResponse message; the dynamic client names no resource, so nothing follows it. */
function genericServerMessage(code: number, serverMessage: string): string {
  switch (code) {
    case 409:
      return 'the server reported a conflict';
    case 404:
      return 'the server could not find the requested resource';
    case 400:
      return 'the server rejected our request for an unknown reason';
    case 401:
      return 'the server has asked for the client to provide credentials';
    case 403:
      return serverMessage;
    case 406:
      return serverMessage === '' || serverMessage === 'unknown'
        ? 'the server was unable to respond with a content type that the client supports'
        : serverMessage;
    case 415:
      return serverMessage;
    case 405:
      return 'the server does not allow this method on the requested resource';
    case 422:
      return 'the server rejected our request due to an error in our request';
    case 503:
      return 'the server is currently unable to handle the request';
    case 504:
      return 'the server was unable to return a response in the time allotted, but may still be processing the request';
    case 429:
      return 'the server has received too many requests and has asked us to try again later';
    default:
      return code >= 500
        ? `an error on the server (${goQuote(serverMessage)}) has prevented the request from succeeding`
        : `the server responded with the status code ${code} but did not return more information`;
  }
}

/** What undici's fetch rejects with when no answer came: the useful part is in `cause`. */
interface NetCause {
  code?: string;
  message?: string;
  syscall?: string;
  address?: string;
  port?: number;
  host?: string;
  cert?: { subjectaltname?: string };
  socket?: { localAddress?: string; localPort?: number; remoteAddress?: string; remotePort?: number };
}

/**
 * Go's net/url Error for a request that got no answer: `Patch "https://host:6443/...": dial tcp 127.0.0.1:6443:
 * connect: connection refused`. The net error is Go's wording of what Node saw; one Go would word differently
 * from anything Node tells (an unknown code) keeps Node's message.
 */
export function transportErrorText(method: string, url: URL, err: unknown): string {
  return `${method.slice(0, 1)}${method.slice(1).toLowerCase()} ${goQuote(url.href)}: ${goNetError(url, err)}`;
}

function goNetError(url: URL, err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  // client-go puts the client's timeout on the request's context, which expires first.
  if (err.name === 'TimeoutError') return 'context deadline exceeded';
  const cause = ((err as { cause?: NetCause }).cause ?? {}) as NetCause;
  const remote = hostPort(
    cause.socket?.remoteAddress ?? cause.address ?? url.hostname,
    cause.socket?.remotePort ?? cause.port ?? defaultPort(url),
  );
  const local = cause.socket?.localAddress ? `${hostPort(cause.socket.localAddress, cause.socket.localPort)}->` : '';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  switch (cause.code) {
    case 'ECONNREFUSED':
      return `dial tcp ${remote}: connect: connection refused`;
    case 'ECONNRESET':
      return cause.syscall === 'connect'
        ? `dial tcp ${remote}: connect: connection reset by peer`
        : `read tcp ${local}${remote}: read: connection reset by peer`;
    case 'EPIPE':
      return `write tcp ${local}${remote}: write: broken pipe`;
    case 'EHOSTUNREACH':
      return `dial tcp ${remote}: connect: no route to host`;
    case 'ENETUNREACH':
      return `dial tcp ${remote}: connect: network is unreachable`;
    case 'ETIMEDOUT':
      return `dial tcp ${remote}: connect: connection timed out`;
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `dial tcp ${remote}: i/o timeout`;
    case 'ENOTFOUND':
      return `dial tcp: lookup ${host}: no such host`;
    // The server closed the connection before any answer: Go's transport returns the read's io.EOF.
    case 'UND_ERR_SOCKET':
      return 'EOF';
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
      return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
    case 'CERT_HAS_EXPIRED':
    case 'CERT_NOT_YET_VALID':
      return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `tls: failed to verify certificate: ${hostnameError(host, cause.cert?.subjectaltname ?? '')}`;
    // Node cannot tell an HTTP answer from other garbage here; Go's wording for the latter is true of both.
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
      return 'tls: first record does not look like a TLS handshake';
    default:
      return cause.message ?? err.message;
  }
}

/** crypto/x509 HostnameError: the names of the host's kind (IP or DNS) the certificate is valid for. */
function hostnameError(host: string, subjectAltName: string): string {
  const entries = subjectAltName.split(', ').filter(Boolean);
  const isIp = /^[\d.]+$/.test(host) || host.includes(':');
  const valid = entries
    .filter((e) => e.startsWith(isIp ? 'IP Address:' : 'DNS:'))
    .map((e) => e.slice(e.indexOf(':') + 1));
  if (isIp && valid.length === 0)
    return `x509: cannot validate certificate for ${host} because it doesn't contain any IP SANs`;
  if (valid.length === 0) return `x509: certificate is not valid for any names, but wanted to match ${host}`;
  return `x509: certificate is valid for ${valid.join(', ')}, not ${host}`;
}

function hostPort(address: string, port: number | string | undefined): string {
  const bare = address.replace(/^\[|\]$/g, '');
  return `${bare.includes(':') ? `[${bare}]` : bare}:${port}`;
}

function defaultPort(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

/** The body as client-go's JSON decoder reads it: a body that came without a Content-Type is still parsed. */
function asJson(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}
