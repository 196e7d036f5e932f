import { ApiError } from '../ApiError.ts';
import { MESSAGES, PROTOBUF_API_VERSIONS, PROTOBUF_KINDS, type MessageSchema } from './messageSchemas.ts';
import { formatTime } from '../../time/formatTime.ts';

/** "k8s\0": the prefix of every Kubernetes protobuf body, before a runtime.Unknown envelope. */
const MAGIC = [0x6b, 0x38, 0x73, 0x00];

type Json = string | number | boolean | null | Json[] | { [k: string]: Json };

interface WireField {
  field: number;
  /** 0 varint, 2 length-delimited (the only wire types Kubernetes messages use, besides fixed64 for doubles). */
  wire: number;
  varint?: bigint;
  bytes?: Uint8Array;
}

/**
 * A `application/vnd.kubernetes.protobuf` request body as the JSON object the API server would have decoded: the
 * runtime.Unknown envelope's apiVersion/kind plus the message, with Go's zero values left out as `omitempty` would.
 * Kinds and fields without a schema are refused with 415, as a real server refuses protobuf for custom resources,
 * rather than silently losing data.
 */
export function decodeProtobuf(body: Uint8Array): Record<string, unknown> {
  if (body.length < 4 || MAGIC.some((b, i) => body[i] !== b))
    throw unsupported('the body does not start with the k8s protobuf prefix');
  const envelope = readFields(body.subarray(4));
  const typeMeta = envelope.find((f) => f.field === 1)?.bytes;
  const raw = envelope.find((f) => f.field === 2)?.bytes ?? new Uint8Array();
  const meta = typeMeta ? readFields(typeMeta) : [];
  const text = (f?: WireField) => (f?.bytes ? new TextDecoder().decode(f.bytes) : '');
  const apiVersion = text(meta.find((f) => f.field === 1));
  const kind = text(meta.find((f) => f.field === 2));
  if (!PROTOBUF_KINDS.has(kind) || (PROTOBUF_API_VERSIONS[kind] ?? apiVersion) !== apiVersion)
    throw unsupported(`protobuf bodies of kind ${JSON.stringify(kind)} are not supported by this emulator`);
  const object = decodeMessage(raw, kind) as Record<string, unknown> | undefined;
  return { apiVersion, kind, ...(object ?? {}) };
}

function decodeMessage(bytes: Uint8Array, name: string): Json | undefined {
  if (name === 'Time') {
    const seconds = readFields(bytes).find((f) => f.field === 1)?.varint;
    return seconds ? formatTime(new Date(Number(seconds) * 1000)) : undefined;
  }
  if (name === 'MicroTime') {
    // metav1.MicroTime keeps microseconds: the nanos are truncated to them (micro_time_proto.go).
    const fields = readFields(bytes);
    const seconds = Number(BigInt.asIntN(64, fields.find((f) => f.field === 1)?.varint ?? 0n));
    const nanos = Number(fields.find((f) => f.field === 2)?.varint ?? 0n);
    if (seconds === 0 && nanos === 0) return undefined;
    const micros = String(Math.floor(nanos / 1000)).padStart(6, '0');
    return formatTime(new Date(seconds * 1000)).replace(/Z$/, `.${micros}Z`);
  }
  if (name === 'Quantity') return stringOf(readFields(bytes).find((f) => f.field === 1)?.bytes) || undefined;
  const schema: MessageSchema | undefined = MESSAGES[name];
  if (!schema) throw unsupported(`no protobuf schema for ${name}`);
  const out: Record<string, Json> = {};
  for (const f of readFields(bytes)) {
    const spec = schema[f.field];
    if (!spec) {
      // Go marshals every non-pointer field, set or not; only a field that carries something is data we would lose.
      if (isEmpty(f)) continue;
      throw unsupported(
        `field ${f.field} of ${name} is not supported by this emulator; send the object as JSON (kubectl apply -f)`,
      );
    }
    const colon = spec.indexOf(':');
    const key = spec.slice(0, colon);
    const pointer = spec[colon + 1] === '*';
    const type = spec.slice(colon + (pointer ? 2 : 1));
    if (key === '') {
      // An embedded Go struct (`json:",inline"`): its own message on the wire, its fields beside ours in JSON.
      const inline = decodeMessage(f.bytes ?? new Uint8Array(), type);
      if (inline && typeof inline === 'object' && !Array.isArray(inline)) Object.assign(out, inline);
    } else if (type.startsWith('[]')) {
      const item = decodeValue(f, type.slice(2), true);
      if (item !== undefined) (out[key] = (out[key] as Json[] | undefined) ?? []).push(item);
    } else if (type.startsWith('map<')) {
      const entry = readFields(f.bytes ?? new Uint8Array());
      const k = stringOf(entry.find((e) => e.field === 1)?.bytes);
      const valueField = entry.find((e) => e.field === 2) ?? { field: 2, wire: 2, bytes: new Uint8Array() };
      const value = decodeValue(valueField, type.slice(4, -1), true);
      (out[key] = (out[key] as Record<string, Json> | undefined) ?? {})[k] = value ?? '';
    } else {
      const value = decodeValue(f, type, pointer);
      if (value !== undefined) out[key] = value;
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** One field's value; undefined for a zero value that `omitempty` would drop (kept when `keepZero`). */
function decodeValue(f: WireField, type: string, keepZero: boolean): Json | undefined {
  switch (type) {
    case 'string': {
      const s = stringOf(f.bytes);
      return s || keepZero ? s : undefined;
    }
    case 'bytes':
      return Buffer.from(f.bytes ?? new Uint8Array()).toString('base64');
    case 'int': {
      // int32/int64 are two's-complement varints: 10 bytes for a negative number.
      const n = Number(BigInt.asIntN(64, f.varint ?? 0n));
      return n !== 0 || keepZero ? n : undefined;
    }
    case 'bool':
      return f.varint !== 0n || keepZero ? f.varint !== 0n : undefined;
    case 'IntOrString': {
      // intstr.IntOrString {type, intVal, strVal} is a bare number or string in JSON.
      const parts = readFields(f.bytes ?? new Uint8Array());
      if (parts.find((p) => p.field === 1)?.varint === 1n) return stringOf(parts.find((p) => p.field === 3)?.bytes);
      const n = Number(BigInt.asIntN(32, parts.find((p) => p.field === 2)?.varint ?? 0n));
      return n !== 0 || keepZero ? n : undefined;
    }
    default:
      return decodeMessage(f.bytes ?? new Uint8Array(), type) ?? (keepZero && type !== 'Time' ? {} : undefined);
  }
}

function readFields(bytes: Uint8Array): WireField[] {
  const out: WireField[] = [];
  let pos = 0;
  const varint = (): bigint => {
    let result = 0n;
    for (let shift = 0n; ; shift += 7n) {
      if (pos >= bytes.length) throw unsupported('truncated protobuf varint');
      const b = bytes[pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return result;
    }
  };
  while (pos < bytes.length) {
    const key = Number(varint());
    const field = key >>> 3;
    const wire = key & 7;
    if (wire === 0) out.push({ field, wire, varint: varint() });
    else if (wire === 2) {
      const length = Number(varint());
      if (pos + length > bytes.length) throw unsupported('truncated protobuf field');
      out.push({ field, wire, bytes: bytes.subarray(pos, pos + length) });
      pos += length;
    } else if (wire === 1 || wire === 5) {
      const size = wire === 1 ? 8 : 4;
      out.push({ field, wire, bytes: bytes.subarray(pos, pos + size) });
      pos += size;
    } else throw unsupported(`protobuf wire type ${wire} is not supported`);
  }
  return out;
}

function isEmpty(f: WireField): boolean {
  return f.wire === 0 ? f.varint === 0n : f.wire === 2 ? (f.bytes?.length ?? 0) === 0 : false;
}

function stringOf(bytes: Uint8Array | undefined): string {
  return bytes ? new TextDecoder().decode(bytes) : '';
}

function unsupported(detail: string): ApiError {
  return new ApiError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml (${detail})`,
  );
}
