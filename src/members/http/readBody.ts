import type { IncomingMessage } from 'node:http';
import { type GoJsonScan, scanGoJson } from '../../api/goJsonScan.ts';
import { parseYamlValue } from '../../yaml/blockYaml.ts';
import { ApiError, badRequest } from '../ApiError.ts';
import { decodeProtobuf } from '../protobuf/decodeProtobuf.ts';

const MAX_BODY = 16 * 1024 * 1024;

async function readBytes(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new ApiError(413, 'BadRequest', 'request entity too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * JSON for every content type except apply patches, which are YAML (JSON is valid YAML), and protobuf, which
 * client-go's typed clients (kubectl create) always use for built-in kinds.
 */
export async function readBody(req: IncomingMessage): Promise<unknown> {
  const bytes = await readBytes(req);
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('application/vnd.kubernetes.protobuf') && bytes.length > 0) return decodeProtobuf(bytes);
  const text = bytes.toString('utf8');
  if (text.trim() === '') return undefined;
  if (type.includes('protobuf'))
    throw new ApiError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml`,
    );
  try {
    return type.includes('yaml') ? parseYamlValue(text) : JSON.parse(text);
  } catch (error) {
    throw badRequest(`error decoding request body: ${(error as Error).message}`);
  }
}

/** A body as the create, update and patch handlers see it: its bytes, and for JSON what Go's decoder makes of them. */
export interface RequestBody {
  value: unknown;
  bytes: Buffer;
  /** Present for a JSON body; the value is undefined when it names a syntax error. */
  json?: GoJsonScan;
}

/**
 * Like readBody, but a JSON body is checked the way kube-apiserver's decoders check it, so that each handler can word
 * a syntax error as its own decoder does and see keys written twice, which JSON.parse silently folds into the last.
 */
export async function readRequestBody(req: IncomingMessage): Promise<RequestBody> {
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (type.includes('yaml') || type.includes('protobuf')) return { value: await readBody(req), bytes: Buffer.alloc(0) };
  const bytes = await readBytes(req);
  const json = scanGoJson(bytes);
  return { value: json.syntaxError ? undefined : JSON.parse(bytes.toString('utf8')), bytes, json };
}

/** The API server's summarizeData: up to 30 bytes of a body that opens an object, hexadecimal otherwise. */
export function summarizeBody(bytes: Uint8Array): string {
  if (bytes.length === 0) return '<empty>';
  const cut = bytes.subarray(0, 30);
  const more = bytes.length > 30 ? ' ...' : '';
  return (bytes[0] === 0x7b ? Buffer.from(cut).toString('utf8') : Buffer.from(cut).toString('hex')) + more;
}
