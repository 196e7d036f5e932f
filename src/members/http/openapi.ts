import { createHash } from 'node:crypto';
import type { ResourceRegistry } from '../resources/ResourceRegistry.ts';

// kubectl apply --server-side downloads openapi v3 only to find, for the kind it applies, a PATCH operation
// tagged with x-kubernetes-group-version-kind; it does no client-side schema validation. So each group
// version document lists the item paths with that tag and a fieldValidation parameter, and no schemas.

const gvPath = (group: string, version: string) => (group ? `apis/${group}/${version}` : `api/${version}`);

export function openapiGroupVersionDocument(
  registry: ResourceRegistry,
  group: string,
  version: string,
): object | undefined {
  const types = registry.inGroupVersion(group, version);
  if (types.length === 0) return undefined;
  const paths: Record<string, object> = {};
  const parameters = [
    { name: 'fieldValidation', in: 'query', schema: { type: 'string', uniqueItems: true } },
    { name: 'fieldManager', in: 'query', schema: { type: 'string', uniqueItems: true } },
    { name: 'force', in: 'query', schema: { type: 'boolean', uniqueItems: true } },
    { name: 'dryRun', in: 'query', schema: { type: 'string', uniqueItems: true } },
  ];
  for (const rt of types) {
    const base = `/${gvPath(group, version)}${rt.namespaced ? '/namespaces/{namespace}' : ''}/${rt.plural}`;
    const gvk = { group: rt.group, version: rt.version, kind: rt.kind };
    const op = (action: string) => ({
      operationId: `${action}${rt.kind}`,
      'x-kubernetes-action': action,
      'x-kubernetes-group-version-kind': gvk,
      parameters,
      responses: { '200': { description: 'OK' } },
    });
    // Computed kinds (metrics.k8s.io) are read-only, as metrics-server's document says.
    if (rt.computed === 'review') {
      paths[base] = { post: op('post') };
      continue;
    }
    paths[`${base}/{name}`] = rt.computed
      ? { get: op('get') }
      : { get: op('get'), put: op('put'), patch: op('patch'), delete: op('delete') };
    paths[base] = rt.computed ? { get: op('list') } : { get: op('list'), post: op('post') };
  }
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'v1.32.0' }, paths, components: { schemas: {} } };
}

/** The `/openapi/v3` index; the hash changes whenever the documents do, which is what kubectl's cache keys on. */
export function openapiIndex(registry: ResourceRegistry): object {
  const paths: Record<string, object> = {};
  for (const { group, versions } of registry.groupVersions()) {
    for (const version of versions) {
      const doc = JSON.stringify(openapiGroupVersionDocument(registry, group, version));
      const hash = createHash('sha512').update(doc).digest('hex').slice(0, 32).toUpperCase();
      paths[gvPath(group, version)] = { serverRelativeURL: `/openapi/v3/${gvPath(group, version)}?hash=${hash}` };
    }
  }
  return { paths };
}

// kubectl reads /openapi/v2 (as protobuf) whenever it validates on the client: every item of a `kind: List`, and
// any kind openapi v3 does not list and no CRD declares. Without the document kubectl stops with "the server could
// not find the requested resource"; kube-apiserver always serves one. This one has no definitions, like the v3
// documents, so kubectl finds no schema, skips the client-side check and leaves it to the server's field
// validation, and a kind nobody serves ends at kubectl's "no matches for kind … ensure CRDs are installed first".
const OPENAPI_V2_TITLE = 'Kubernetes';
const OPENAPI_V2_VERSION = 'v1.32.0';

/** kube-openapi's handler: JSON, or gnostic's openapi_v2.Document under either protobuf subtype it accepts. */
const OPENAPI_V2_FORMATS = [
  { subType: 'json', contentType: 'application/json' },
  {
    subType: 'com.github.proto-openapi.spec.v2@v1.0+protobuf',
    contentType: 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
  },
  {
    subType: 'com.github.proto-openapi.spec.v2.v1.0+protobuf',
    contentType: 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
  },
] as const;

export interface OpenapiV2Response {
  contentType: string;
  body: Buffer;
}

/**
 * The `/openapi/v2` answer for an Accept header, as kube-openapi negotiates it: clauses by descending q (ties keep
 * their order), the first that one of the formats matches wins (`*` matches any type or subtype); none is a 406,
 * shown here as undefined. An empty header means any.
 */
export function openapiV2Response(accept: string): OpenapiV2Response | undefined {
  const clauses = (accept.trim() === '' ? '*/*' : accept)
    .split(',')
    .map((clause, index) => {
      const [range = '', ...params] = clause.split(';').map((p) => p.trim());
      const q = params.find((p) => /^q=/i.test(p));
      const [type = '', subType = ''] = range.split('/');
      return { type, subType, q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((c) => c.type !== '' && c.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const clause of clauses) {
    if (clause.type !== 'application' && clause.type !== '*') continue;
    const format = OPENAPI_V2_FORMATS.find((f) => clause.subType === f.subType || clause.subType === '*');
    if (!format) continue;
    const body =
      format.subType === 'json'
        ? Buffer.from(
            JSON.stringify({
              swagger: '2.0',
              info: { title: OPENAPI_V2_TITLE, version: OPENAPI_V2_VERSION },
              paths: {},
              definitions: {},
            }),
          )
        : openapiV2Protobuf();
    return { contentType: format.contentType, body };
  }
  return undefined;
}

/** gnostic's Document: swagger (1), info (2: title 1, version 2), empty paths (8) and definitions (9). */
function openapiV2Protobuf(): Buffer {
  const field = (number: number, bytes: Buffer) =>
    Buffer.concat([Buffer.from([(number << 3) | 2]), varint(bytes.length), bytes]);
  const text = (number: number, value: string) => field(number, Buffer.from(value));
  return Buffer.concat([
    text(1, '2.0'),
    field(2, Buffer.concat([text(1, OPENAPI_V2_TITLE), text(2, OPENAPI_V2_VERSION)])),
    field(8, Buffer.alloc(0)),
    field(9, Buffer.alloc(0)),
  ]);
}

function varint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}
