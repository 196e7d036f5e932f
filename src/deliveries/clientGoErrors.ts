// A failed request to a member as client-go's error says it: the text Karmada's execution controller writes after
// "Failed to apply all manifests (0/1): " in a Work's Applied condition. Karmada's object watcher talks to members
// through client-go's dynamic client, so an answer outside 2xx reads as rest/request.go and apimachinery's
// NewGenericServerResponse word it: a Status body's message, else a fixed sentence per code.
import type { KubeResponse } from './KubeTarget.ts';

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

const GO_ESCAPES: Record<string, string> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '"': '\\"',
  '\\': '\\\\',
};

/** Go's %q of a string: double quotes, Go's escapes for quotes, backslashes and control characters. */
export function goQuote(s: string): string {
  return `"${s.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what Go escapes
    /[\x00-\x1f\x7f"\\]/g,
    (c) => GO_ESCAPES[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  )}"`;
}
