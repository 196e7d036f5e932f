import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiError } from '../ApiError.ts';

// Go's encoding/json writes these as \u escapes even inside strings (HTML-safe output, and the two line separators
// JavaScript once could not parse); JSON.stringify leaves them raw. They only occur inside strings, so a replace
// over the whole text changes no structure.
const GO_ESCAPED = /[<>&\u2028\u2029]/g;

function goEscape(text: string): string {
  return text.replace(GO_ESCAPED, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** json.Marshal's bytes: compact, HTML-safe, no newline. */
export function marshalJson(body: unknown): string {
  return goEscape(JSON.stringify(body));
}

/**
 * The bytes kube-apiserver's JSON serializer writes for an object it negotiated: json.Encoder's (compact, ended by a
 * newline) or, for a pretty request, json.MarshalIndent's (two-space indent, no newline). Watch events use the
 * compact form whatever the request asks.
 */
export function encodeJson(body: unknown, pretty: boolean): string {
  return pretty ? goEscape(JSON.stringify(body, null, 2)) : `${marshalJson(body)}\n`;
}

/**
 * negotiation.isPrettyPrint: a `pretty` query parameter decides when it parses as a Go bool (anything else is not
 * pretty); without one, browsers, curl and wget get indented JSON.
 */
export function wantsPrettyJson(req: IncomingMessage | undefined): boolean {
  if (!req) return false;
  const query = (req.url ?? '').split('?')[1] ?? '';
  const pretty = query.includes('pretty') ? new URLSearchParams(query).get('pretty') : null;
  if (pretty) return ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(pretty);
  const agent = req.headers['user-agent'] ?? '';
  return agent.startsWith('curl') || agent.startsWith('Wget') || agent.startsWith('Mozilla/5.0');
}

function send(res: ServerResponse, code: number, text: string, contentType: string): void {
  res.writeHead(code, {
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-cache, private',
  });
  res.end(text);
}

/** An API object or Status, as responsewriters.WriteObjectNegotiated writes it in JSON. */
export function sendJson(res: ServerResponse, code: number, body: unknown, contentType = 'application/json'): void {
  send(res, code, encodeJson(body, wantsPrettyJson(res.req)), contentType);
}

/** responsewriters.WriteRawJSON (/version): always indented, whoever asks. */
export function sendRawJson(res: ServerResponse, code: number, body: unknown): void {
  send(res, code, encodeJson(body, true), 'application/json');
}

/** A document kube-openapi serves: json.Marshal's bytes as they are. */
export function sendMarshaledJson(res: ServerResponse, code: number, body: unknown): void {
  send(res, code, marshalJson(body), 'application/json');
}

export function sendStatus(res: ServerResponse, error: ApiError): void {
  // responsewriters.ErrorNegotiated turns a Status's retry delay into the header clients back off by.
  if (error.details?.retryAfterSeconds) res.setHeader('Retry-After', String(error.details.retryAfterSeconds));
  sendJson(res, error.code, error.toStatus());
}

export function sendText(res: ServerResponse, code: number, text: string): void {
  send(res, code, text, 'text/plain; charset=utf-8');
}
