import type { IncomingMessage } from 'node:http';
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
