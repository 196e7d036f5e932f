import type { GoJsonScan } from '../../api/goJsonScan.ts';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ApiError,
  badRequest,
  invalid,
  invalidFields,
  notFound,
  statusDetailsJson,
  type FieldError,
  tooLargeResourceVersion,
} from '../ApiError.ts';
import { serverSideApply } from '../apply/serverSideApply.ts';
import { trackUpdate } from '../apply/trackUpdate.ts';
import { typedPatchErrors, typedPatchFailure } from '../apply/typedPatchErrors.ts';
import { apiServiceAvailability, withAvailableCondition } from '../controllers/apiServiceController.ts';
import { deleteDependents, finalizersOnDelete, orphanDependents } from '../controllers/garbageCollector.ts';
import { quotaRefusal } from '../resources/quotaUsage.ts';
import { jsonPatch, jsonPatchUnknownFields } from '../patches/jsonPatch.ts';
import { mapPatchDecodeError } from '../patches/mapPatchDecodeError.ts';
import { mergePatch } from '../patches/mergePatch.ts';
import { strategicMergePatch } from '../patches/strategicMergePatch.ts';
import { admitPod } from '../resources/admitPod.ts';
import { podGracePeriod } from '../resources/podGracePeriod.ts';
import { containerLogRefusal, podStreamContainer } from '../resources/podStreamContainer.ts';
import { defaultObject, type Allocators } from '../resources/defaultObject.ts';
import { initialStatus, prepareForCreate } from '../resources/prepareForCreate.ts';
import {
  allocationError,
  dropTypeDependentFields,
  keepAllocatedValues,
  NODE_PORTS,
} from '../resources/serviceAllocation.ts';
import { validateConfigData } from '../resources/validateConfigData.ts';
import {
  customResourceErrors,
  customResourceSchema,
  customResourceStatusErrors,
  decodeCustomResource,
  defaultInPlace,
  readStored,
} from '../resources/customResourceSchema.ts';
import { nameInvalidReasons } from '../resources/validateObjectName.ts';
import { invalidValue } from '../resources/fieldErrors.ts';
import { stringFieldsDecodeError } from '../resources/decodeStringFields.ts';
import { decodeMicroTimes } from '../resources/microTimeFields.ts';
import { goFormatValue, strictErrorsInOrder, validateFieldNames } from '../resources/unknownFieldValidation.ts';
import { objectShape, type ValueShape } from '../../api/listSemantics.ts';
import { storedJsonText } from '../../patches/patchJsonText.ts';
import { dropEmptyFields, dropNullFields } from '../../api/unknownFields.ts';
import { objectAndTemplateMetaViolations, objectMetaViolations } from '../../labels/objectMetaRules.ts';
import { validateWorkloadAndAccess } from '../resources/validateWorkloadAndAccess.ts';
import { leaseSpecErrors } from '../resources/validateLease.ts';
import { allowsCreateOnUpdate, allowsUnconditionalUpdate } from '../resources/updatePolicy.ts';
import { validateImmutableFields } from '../resources/validateImmutableFields.ts';
import { hpaFromV1, isHpaV1, servedAs } from '../resources/hpaVersions.ts';
import { groupVersionOf, resourceKeyOf } from '../resources/ResourceRegistry.ts';
import { parseFieldSelector } from '../selectors/parseFieldSelector.ts';
import { convertFieldSelector, matchesFieldSet, selectableFieldsOf } from '../selectors/selectableFields.ts';
import { matchesLabelRequirements, parseLabelSelector } from '../selectors/parseLabelSelector.ts';
import {
  checkNoNewFinalizers,
  checkUidPrecondition,
  generationChanged,
  type WriteScope,
} from '../store/ObjectStore.ts';
import type { KubeObject, ResourceType } from '../types.ts';
import type { ApiPath } from './parseApiPath.ts';
import { type RequestBody, readBody, readRequestBody, summarizeBody } from './readBody.ts';
import { serveReview } from './serveReview.ts';
import { nameFromGenerateName } from '../store/randomSuffix.ts';
import { formatLabelSelector } from '../../labels/formatLabelSelector.ts';
import { renderTable } from './renderTable.ts';
import { sendJson, sendText } from './respond.ts';
import { answerUnrouted, methodNotSupported, restfulMethodNotAllowed, unroutedScope } from './unroutedRequest.ts';
import type { ServerContext } from './ServerContext.ts';
import { serveMetrics } from './serveMetrics.ts';
import { serveWatch } from './serveWatch.ts';
import { waitUntilFresh } from './waitUntilFresh.ts';
import { formatTime } from '../../time/formatTime.ts';
import { decodeContinue, encodeContinue } from './continueToken.ts';
import {
  checkPodLogOptions,
  parseDeleteOptions,
  parseIncludeObject,
  parseListOptions,
  parseWriteOptions,
  propagationOf,
  queryBool,
  requestedPropagation,
  type DeleteOptions,
  type ListOptions,
  type WriteOptions,
} from './requestOptions.ts';

const PROTECTED_NAMESPACES = new Set(['default', 'kube-system', 'kube-public']);
const SERVER_OWNED_METADATA = [
  'uid',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'generation',
  'managedFields',
  'selfLink',
];

/** Routes one request on a resource path to its verb. */
export async function handleResource(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  path: ApiPath,
  url: URL,
): Promise<void> {
  const method = req.method ?? 'GET';
  const { rt, name, subresource } = path;
  const unrouted = unroutedScope(path, method);
  if (unrouted) return answerUnrouted(res, unrouted);
  if (rt.computed === 'metrics') return serveMetrics(ctx, req, res, path, url);
  if (rt.computed === 'review') return serveReview(req, res, rt);
  if (path.watch) return watchThroughPrefix(ctx, req, res, path, url);
  if (!name) {
    if (method === 'GET') {
      const options = parseListOptions(url.searchParams);
      if (!options.watch) return await listObjects(ctx, req, res, path, url, options);
      const table = acceptsTable(req) ? parseIncludeObject(url.searchParams) : undefined;
      serveWatch(
        ctx,
        req,
        res,
        rt,
        {
          ...(path.namespace !== undefined ? { namespace: path.namespace } : {}),
          matches: selectorFilter(options, rt),
        },
        options,
        table !== undefined,
      );
      return;
    }
    if (method === 'POST') return createObject(ctx, req, res, path, url);
    if (method === 'DELETE') return deleteCollection(ctx, req, res, path, url);
    // The CRD handler takes any method as RequestInfo's verb: an update or patch then finds no name to write.
    if (rt.crd && (method === 'PUT' || method === 'PATCH')) throw badRequest('name must be provided');
    throw methodNotAllowed(rt, method);
  }
  if (subresource === 'log') {
    // LogREST validates the options before it reads the pod, so bad options on a missing pod are a 422, not a 404.
    checkPodLogOptions(url.searchParams, name);
    const pod = requireObject(ctx, path);
    const container = podStreamContainer(pod, url.searchParams.get('container') ?? '');
    // A pod no node runs has no log location, and the API server streams an empty body for it.
    if (!pod.spec?.nodeName) {
      sendText(res, 200, '');
      return;
    }
    const refusal = containerLogRefusal(pod, container, queryBool(url.searchParams, 'previous') ?? false);
    if (refusal) throw badRequest(refusal);
    sendText(res, 200, `flotilla member emulator: pod ${pod.metadata.name} is simulated and writes no logs\n`);
    return;
  }
  if (subresource === 'exec' || subresource === 'attach' || subresource === 'portforward') {
    // kubectl exec, attach and port-forward reach the kubelet through here; an emulated pod has no process to reach.
    const pod = requireObject(ctx, path);
    if (subresource !== 'portforward') podStreamContainer(pod, url.searchParams.get('container') ?? '');
    if (!pod.spec?.nodeName) throw badRequest(`pod ${name} does not have a host assigned`);
    const verb = subresource === 'portforward' ? 'forward a port to' : `${subresource} to`;
    throw badRequest(
      `pod ${pod.metadata.name} is simulated by the flotilla member emulator and runs no process: there is nothing to ${verb}`,
    );
  }
  if (subresource === 'scale') return handleScale(ctx, req, res, path, url);
  // namespaces/finalize (FinalizeREST) only updates: a PUT whose spec.finalizers replace the stored ones, status kept.
  if (subresource === 'finalize') {
    if (method !== 'PUT') throw methodNotAllowed(rt, method);
    return replaceObject(ctx, req, res, path, url);
  }
  if (method === 'GET') {
    // A get at a resourceVersion is served by the watch cache, no older than it.
    const requested = Number(url.searchParams.get('resourceVersion') || 0);
    if (requested > 0) await waitUntilFresh(ctx.store, requested, ctx.freshReadTimeoutMs);
    const object = withVersion(requireObject(ctx, path), rt);
    if (acceptsTable(req))
      sendJson(
        res,
        200,
        renderTable(rt, [object], ctx.now().getTime(), tableOptions(url, object.metadata.resourceVersion!)),
      );
    else sendJson(res, 200, object);
    return;
  }
  if (method === 'PUT') return replaceObject(ctx, req, res, path, url);
  if (method === 'PATCH') return patchObject(ctx, req, res, path, url);
  if (method === 'DELETE') return deleteObject(ctx, req, res, path, url);
  throw methodNotAllowed(rt, method);
}

/**
 * `/api/v1/watch/namespaces/default/pods[/name]`: the deprecated watch endpoints, a watch whatever the query
 * says; the item form watches that one object through a metadata.name field selector.
 */
function watchThroughPrefix(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  path: ApiPath,
  url: URL,
): void {
  const method = req.method ?? 'GET';
  if (method !== 'GET' || path.subresource) throw methodNotAllowed(path.rt, method);
  // Decoded and validated as the query says (so without ?watch it is validated, and defaulted, as a list).
  const options = { ...parseListOptions(url.searchParams), watch: true };
  if (path.name) {
    const named = parseFieldSelector(options.fieldSelector).find((r) => r.path === 'metadata.name');
    if (options.fieldSelector === '') options.fieldSelector = `metadata.name=${path.name}`;
    else if (!named || named.op !== '=' || named.value !== path.name)
      throw badRequest("fieldSelector metadata.name doesn't match requested name");
  }
  const table = acceptsTable(req) ? parseIncludeObject(url.searchParams) : undefined;
  serveWatch(
    ctx,
    req,
    res,
    path.rt,
    {
      ...(path.namespace !== undefined ? { namespace: path.namespace } : {}),
      matches: selectorFilter(options, path.rt),
    },
    options,
    table !== undefined,
  );
}

/**
 * A method the resource's handler lacks: for a built-in kind go-restful has no route for it; the CRD handler names
 * the verb RequestInfo made of it.
 */
function methodNotAllowed(rt: ResourceType, method: string): ApiError {
  if (!rt.crd) return restfulMethodNotAllowed();
  const verb = method === 'POST' ? 'create' : method === 'PUT' ? 'update' : method.toLowerCase();
  return methodNotSupported(rt.group, rt.plural, verb);
}

function acceptsTable(req: IncomingMessage): boolean {
  return (req.headers.accept ?? '').includes('as=Table');
}

function tableOptions(url: URL, resourceVersion: string) {
  return { includeObject: parseIncludeObject(url.searchParams), resourceVersion } as const;
}

function selectorFilter(
  options: Pick<ListOptions, 'labelSelector' | 'fieldSelector'>,
  rt: ResourceType,
): (o: KubeObject) => boolean {
  const labels = parseLabelSelector(options.labelSelector);
  const fields = convertFieldSelector(rt, parseFieldSelector(options.fieldSelector));
  // Most lists and watches select by no field: no object's field set is built for them.
  if (fields.length === 0) return (o) => matchesLabelRequirements(labels, o.metadata.labels);
  const fieldSet = selectableFieldsOf(rt);
  return (o) => matchesLabelRequirements(labels, o.metadata.labels) && matchesFieldSet(fields, fieldSet(o));
}

function withVersion(object: KubeObject, rt: ResourceType): KubeObject {
  return { ...servedAs(readStored(rt, object), rt), apiVersion: groupVersionOf(rt), kind: rt.kind };
}

/** The row objects are stored under: autoscaling/v1 HPAs are stored as v2 (hpaVersions.ts). */
function storageType(ctx: ServerContext, rt: ResourceType): ResourceType {
  return isHpaV1(rt) ? (ctx.registry.byKind(rt.group, rt.kind, 'v2') ?? rt) : rt;
}

/** How the lists of `rt`'s objects, as stored, merge. */
function shapeOf(ctx: ServerContext, rt: ResourceType): ValueShape {
  const stored = storageType(ctx, rt);
  return objectShape(groupVersionOf(stored), stored.kind, stored.schema);
}

/** A written object in the shape it is stored in (`stored`: the object it replaces). */
function toStorage(rt: ResourceType, object: KubeObject, stored?: KubeObject): KubeObject {
  return isHpaV1(rt) ? hpaFromV1(object, stored) : object;
}

function requireObject(ctx: ServerContext, path: ApiPath): KubeObject {
  const object = ctx.store.get(resourceKeyOf(path.rt), path.rt.namespaced ? path.namespace : undefined, path.name!);
  if (!object) throw notFound(path.rt.group, path.rt.plural, path.name!);
  return readStored(path.rt, object);
}

function timestamp(ctx: ServerContext): string {
  return formatTime(ctx.now());
}

/** The field manager of a non-apply write: `fieldManager`, else (absent or empty) the User-Agent's first word, as the API server does. */
function managerOf(req: IncomingMessage, options: WriteOptions): string {
  return options.fieldManager || (req.headers['user-agent'] ?? 'unknown').split('/')[0]!.slice(0, 128);
}

function writeScope(rt: ResourceType, subresource: string | undefined): WriteScope {
  if (subresource === 'status') return 'status';
  return rt.subresources.includes('status') ? 'main' : 'all';
}

/**
 * The defaults a write gets, a Service's addresses with them: on update (`current`) what the new type no longer uses
 * is cleared and what was allocated is kept first; then the free ones are handed out and those asked for by value
 * checked.
 */
function defaultAndAllocate(
  ctx: ServerContext,
  rt: ResourceType,
  object: KubeObject,
  current: KubeObject | undefined,
): void {
  if (current && rt.kind === 'Service') {
    dropTypeDependentFields(current, object);
    keepAllocatedValues(current, object);
  }
  defaultObject(rt.kind, object, serviceAllocators(ctx));
  if (rt.kind === 'Service') allocateRequested(ctx, object, current);
}

/** The registry's allocation of the cluster IPs and node ports a Service write names: 422 when out of range or taken. */
function allocateRequested(ctx: ServerContext, service: KubeObject, before: KubeObject | undefined): void {
  const others = ctx.store
    .list('/services')
    .filter((s) => s.metadata.namespace !== service.metadata.namespace || s.metadata.name !== service.metadata.name);
  const failed = allocationError(service, before, {
    clusterIPs: new Set(others.flatMap((s) => s.spec?.clusterIPs ?? [])),
    nodePorts: new Set(
      others.flatMap((s) => [
        ...(s.spec?.ports ?? []).map((p: { nodePort?: number }) => p?.nodePort),
        s.spec?.healthCheckNodePort,
      ]),
    ),
  });
  if (failed)
    throw invalidFields('Service', '', service.metadata.name ?? '', [{ type: 'FieldValueInvalid', ...failed }]);
}

/** Service addresses not taken by a stored Service nor already handed out for the object being written. */
function serviceAllocators(ctx: ServerContext): Allocators {
  const services = () => ctx.store.list('/services');
  const givenPorts = new Set<number>();
  return {
    clusterIP: () => {
      const used = new Set(services().map((s) => s.spec?.clusterIP));
      for (let i = 10; ; i++) {
        const ip = `10.96.${Math.floor(i / 250)}.${(i % 250) + 1}`;
        if (!used.has(ip)) return ip;
      }
    },
    nodePort: () => {
      const used = new Set(services().flatMap((s) => (s.spec?.ports ?? []).map((p: any) => p?.nodePort)));
      for (let port = NODE_PORTS.first; port <= NODE_PORTS.last; port++) {
        if (used.has(port) || givenPorts.has(port)) continue;
        givenPorts.add(port);
        return port;
      }
      throw new ApiError(500, 'InternalError', 'Internal error occurred: failed to allocate a nodePort: range is full');
    },
  };
}

/**
 * A built-in kind's body decoded as the API server decodes it into its Go type: fields the type does not declare are
 * refused under `fieldValidation=Strict` (kubectl's default) and otherwise dropped, with a warning each under `Warn`.
 */
function checkFieldNames(
  res: ServerResponse,
  rt: ResourceType,
  body: KubeObject,
  options: WriteOptions,
  how?: Parameters<typeof validateFieldNames>[4],
): void {
  const schema = customResourceSchema(rt);
  // A patch's strict error quotes the patched object as it was before the decoder pruned it.
  const patch = schema && how?.patch ? { invalidValue: storedJsonText(body), ...how.patch } : how?.patch;
  // A custom resource's decoder prunes what its schema lacks whatever fieldValidation says, then defaults it.
  const pruned = schema && decodeCustomResource(body, schema);
  const warnings = validateFieldNames(groupVersionOf(rt), rt.kind, body, options.fieldValidation, {
    ...how,
    ...(patch ? { patch } : {}),
    ...(pruned ? { pruned: pruned.map((path) => ({ path })) } : {}),
  });
  // A field set to null decodes to Go's zero value, which is not written back: never stored, never returned.
  if (!schema) dropNullFields(body, groupVersionOf(rt), rt.kind);
  if (warnings.length > 0)
    res.setHeader(
      'Warning',
      warnings.map((w) => `299 - ${JSON.stringify(w)}`),
    );
}

/**
 * The object being written (`previous` on update) decoded as its Go type, a 400 when it cannot be (its MicroTimes are
 * re-encoded in place), then the kind's validation, as a 422 naming every problem.
 */
function validate(rt: ResourceType, object: KubeObject, previous?: KubeObject, badName: FieldError[] = []): void {
  if (!rt.crd) {
    const undecodable = stringFieldsDecodeError(rt.group, rt.version, rt.kind, object);
    if (undecodable) throw badRequest(undecodable);
    // Decoding into the Go type also re-encodes its MicroTimes: what is stored is what the API server would return.
    const badTime = decodeMicroTimes(rt.group, rt.kind, object);
    if (badTime)
      throw badRequest(`${rt.kind} in version "${rt.version}" cannot be handled as a ${rt.kind}: ${badTime}`);
  }
  const meta = [...badName, ...metadataErrors(rt, object)];
  const schema = customResourceSchema(rt);
  if (schema) {
    const errors = [...meta, ...customResourceErrors(object, schema, previous)];
    if (errors.length > 0) throw invalidFields(rt.kind, rt.group, object.metadata.name ?? '', errors);
    return;
  }
  const errors = [
    ...meta,
    ...(rt.group === '' ? validateConfigData(rt.kind, object, previous) : []),
    ...validateWorkloadAndAccess(rt.group, rt.kind, object, previous),
    ...(rt.group === 'coordination.k8s.io' && rt.kind === 'Lease' ? leaseSpecErrors(object.spec) : []),
    ...validateImmutableFields(rt.group, rt.kind, object, previous),
  ];
  if (errors.length > 0) throw invalidFields(rt.kind, rt.group, object.metadata.name ?? '', errors);
}

/** The object an update of the main resource stores: the strategy keeps the stored status. */
function withStatusOf(next: KubeObject, current: KubeObject): KubeObject {
  const { status: _, ...rest } = next;
  return current.status === undefined ? rest : { ...rest, status: current.status };
}

/**
 * The status strategy's validation of a custom resource: its status against the schema's, its spec not read (the
 * strategy validates the stored object with the written status).
 */
function validateStatus(rt: ResourceType, object: KubeObject, current: KubeObject): void {
  const schema = customResourceSchema(rt);
  const written: KubeObject = { ...current, status: object.status };
  if (object.status === undefined) delete written.status;
  const errors = schema ? customResourceStatusErrors(written, current, schema) : [];
  if (errors.length > 0) throw invalidFields(rt.kind, rt.group, object.metadata.name ?? '', errors);
}

/** ValidateObjectMeta's labels, annotations and finalizers, and a built-in workload's pod template's (every kind). */
function metadataErrors(rt: ResourceType, object: KubeObject): FieldError[] {
  const apiVersion = rt.group ? `${rt.group}/${rt.version}` : rt.version;
  const found = rt.crd
    ? objectMetaViolations(object.metadata)
    : objectAndTemplateMetaViolations(object as unknown as Record<string, unknown>, apiVersion, rt.kind);
  return found.map((v) => ({ type: v.type, field: v.field, body: v.detail }));
}

/**
 * The create-time steps after defaulting and field tracking, as the API server orders them: the object gets
 * its uid, mutating admission runs (pods get their ServiceAccount), then the kind's strategy (Job selectors).
 */
function admitCreate(ctx: ServerContext, rt: ResourceType, object: KubeObject): void {
  object.metadata.uid = randomUUID();
  if (rt.kind === 'Pod' && rt.group === '')
    admitPod(object, (name) => ctx.store.get('/serviceaccounts', object.metadata.namespace, name));
  prepareForCreate(rt.kind, object);
  const status = rt.crd ? undefined : initialStatus(rt.kind, object);
  if (status && rt.subresources.includes('status')) object.status = status;
  // The APIService strategy's PrepareForCreate: a Local one is available from its create on.
  if (rt.group === 'apiregistration.k8s.io' && !object.spec?.service)
    object.status = {
      conditions: withAvailableCondition([], apiServiceAvailability(object, NO_LOOKUPS), timestamp(ctx)),
    };
}

/**
 * The ResourceQuota admission plugin, a validating one: after the kind's validation, a create the namespace's quotas
 * cannot hold is forbidden (a dry run's too), naming the quota and what it exceeds.
 */
function admitQuota(ctx: ServerContext, rt: ResourceType, object: KubeObject): void {
  const refusal = quotaRefusal(ctx.store, resourceKeyOf(rt), object, Date.parse(timestamp(ctx)));
  if (refusal)
    throw new ApiError(403, 'Forbidden', `${rt.plural} "${object.metadata.name}" is forbidden: ${refusal}`, {
      name: object.metadata.name!,
      ...(rt.group ? { group: rt.group } : {}),
      kind: rt.plural,
    });
}

/** A Local APIService's availability reads nothing. */
const NO_LOOKUPS = {
  service: () => undefined,
  endpoints: () => undefined,
  servesLocally: () => false,
};

function checkTypeMeta(body: KubeObject, rt: ResourceType): void {
  const gv = groupVersionOf(rt);
  if (body.apiVersion !== undefined && body.apiVersion !== gv) {
    throw badRequest(
      `the API version in the data (${body.apiVersion}) does not match the expected API version (${gv})`,
    );
  }
  if (body.kind !== undefined && body.kind !== rt.kind) {
    throw badRequest(`the kind in the data (${body.kind}) does not match the expected kind (${rt.kind})`);
  }
}

/**
 * A create or update body Go's decoder cannot read: its serializer fails to find the kind before anything else
 * (SimpleMetaFactory.Interpret), and the handler's transformDecodeError quotes the start of the body.
 */
function refuseUndecodableObject(rt: ResourceType, read: RequestBody): void {
  const syntaxError = read.json?.syntaxError;
  if (syntaxError)
    throw badRequest(
      `the object provided is unrecognized (must be of type ${rt.kind}): couldn't get version/kind; json parse error: ${syntaxError} (${summarizeBody(read.bytes)})`,
    );
}

function asObject(body: unknown): KubeObject {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw badRequest('the request body must be a JSON object');
  const object = body as KubeObject;
  if (object.metadata === undefined || object.metadata === null) object.metadata = {};
  if (typeof object.metadata !== 'object') throw badRequest('metadata must be an object');
  return object;
}

/**
 * A create's name: none at all is refused at once; a malformed one is ValidateObjectMeta's first errors, which the
 * kind's validation adds the rest to, so one 422 names every problem.
 */
function nameErrors(rt: ResourceType, name: string | undefined): FieldError[] {
  if (!name) throw invalid(rt.kind, rt.group, '', 'metadata.name', 'Required value: name or generateName is required');
  return nameInvalidReasons(rt.group, rt.kind, name).map((reason) => invalidValue('metadata.name', name, reason));
}

/**
 * The handlers' checkName (endpoints/handlers/rest.go), for an update and for a patched object alike: the object
 * must carry the URL's name, so leaving it out of a PUT, or patching it away or to another, is refused.
 */
function checkNameMatchesUrl(object: KubeObject, path: ApiPath): void {
  const name = object.metadata.name ?? '';
  if (name !== path.name)
    throw badRequest(`the name of the object (${name}) does not match the name on the URL (${path.name})`);
}

/** Target namespace of a write: the URL's, which the body may repeat but not contradict. */
function namespaceFor(rt: ResourceType, path: ApiPath, body: KubeObject): string | undefined {
  if (!rt.namespaced) return undefined;
  const fromBody = body.metadata.namespace;
  if (fromBody && path.namespace && fromBody !== path.namespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  return path.namespace ?? fromBody ?? 'default';
}

const INCONSISTENT_CONTINUE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** Whether a list reads at exactly its resourceVersion (storage.ValidateListOptions' withRev). */
function exactListVersion(options: ListOptions): boolean {
  const rv = Number(options.resourceVersion);
  if (options.resourceVersion === '' || !(rv > 0)) return false;
  return options.resourceVersionMatch === 'Exact' || (options.resourceVersionMatch === '' && options.limit > 0);
}

/** Where the emulator's store order puts an object; continue tokens point at one. */
const storeKey = (o: KubeObject): string => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;

async function listObjects(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  path: ApiPath,
  url: URL,
  options: ListOptions,
): Promise<void> {
  const { rt } = path;
  if (options.resourceVersion !== '' && options.resourceVersion !== '0' && !/^[0-9]+$/.test(options.resourceVersion)) {
    // The storage layer's parse error is not an API status, so the real server answers it as an unknown 500.
    throw new ApiError(
      500,
      '',
      `resourceVersion: Invalid value: ${JSON.stringify(options.resourceVersion)}: strconv.ParseUint: parsing ${JSON.stringify(options.resourceVersion)}: invalid syntax`,
    );
  }
  const matches = selectorFilter(options, rt);
  const namespace = path.namespace;
  const requested = Number(options.resourceVersion || 0);
  if (options.continue === '' && requested > ctx.store.resourceVersion) {
    // An exact read goes to etcd, which has no such revision yet; any other is the watch cache's, which waits.
    if (exactListVersion(options)) throw tooLargeResourceVersion(requested, ctx.store.resourceVersion, 0);
    await waitUntilFresh(ctx.store, requested, ctx.freshReadTimeoutMs);
  }
  let resourceVersion = ctx.store.resourceVersion;
  let startKey: string | undefined;
  let stored: KubeObject[] | undefined;
  if (options.continue !== '') {
    const point = decodeContinue(options.continue);
    if (options.resourceVersion !== '' && options.resourceVersion !== '0')
      throw badRequest('specifying resource version is not allowed when using continue');
    startKey = point.startKey;
    // A page reads the list as it was at the first page's resourceVersion; -1 (the token of an expired list) reads
    // the latest.
    if (point.resourceVersion > 0) {
      resourceVersion = point.resourceVersion;
      stored = ctx.store.listAt(resourceKeyOf(rt), namespace, resourceVersion);
      if (!stored)
        throw new ApiError(410, 'Expired', INCONSISTENT_CONTINUE, undefined, {
          continue: encodeContinue({ resourceVersion: -1, startKey: point.startKey }),
        });
    }
  } else if (exactListVersion(options)) {
    // resourceVersionMatch=Exact, or a resourceVersion with a limit (the legacy paged read): etcd's read at it.
    resourceVersion = Number(options.resourceVersion);
    stored = ctx.store.listAt(resourceKeyOf(rt), namespace, resourceVersion);
    if (!stored) throw new ApiError(410, 'Expired', 'The resourceVersion for the provided list is too old.');
  }
  let all = (stored ?? ctx.store.list(resourceKeyOf(rt), namespace)).filter(matches).map((o) => withVersion(o, rt));
  if (startKey !== undefined) all = all.filter((o) => storeKey(o).localeCompare(startKey) >= 0);
  // A list from resourceVersion "0" is served whole from the watch cache, whatever its limit (computeListLimit).
  const limit = options.resourceVersion === '0' ? 0 : options.limit;
  const items = limit > 0 ? all.slice(0, limit) : all;
  const next = limit > 0 ? all[limit] : undefined;
  const continueToken = next ? encodeContinue({ resourceVersion, startKey: storeKey(next) }) : undefined;
  // PrepareContinueToken counts the rest only when nothing is filtered out (the store's count includes misses).
  const counted = options.labelSelector === '' && options.fieldSelector === '';
  if (acceptsTable(req)) {
    sendJson(
      res,
      200,
      renderTable(rt, items, ctx.now().getTime(), {
        ...tableOptions(url, String(resourceVersion)),
        ...(continueToken ? { continueToken } : {}),
      }),
    );
    return;
  }
  sendJson(res, 200, {
    kind: `${rt.kind}List`,
    apiVersion: groupVersionOf(rt),
    metadata: {
      resourceVersion: String(resourceVersion),
      ...(continueToken ? { continue: continueToken } : {}),
      ...(continueToken && counted ? { remainingItemCount: all.length - limit } : {}),
    },
    items,
  });
}

async function createObject(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  path: ApiPath,
  url: URL,
): Promise<void> {
  const { rt } = path;
  const options = parseWriteOptions(url.searchParams, 'CreateOptions');
  const read = await readRequestBody(req);
  refuseUndecodableObject(rt, read);
  const body = asObject(read.value);
  checkTypeMeta(body, rt);
  checkFieldNames(res, rt, body, options, read.json ? { scan: read.json } : undefined);
  const namespace = namespaceFor(rt, path, body);
  const object: KubeObject = structuredClone(body);
  // The resourceVersion stays for storage to refuse (or drop): a dry run answers it back, as its copy keeps it.
  for (const key of SERVER_OWNED_METADATA) delete object.metadata[key];
  if (!object.metadata.name && object.metadata.generateName) {
    object.metadata.name = nameFromGenerateName(object.metadata.generateName);
  }
  storeCreated(ctx, req, res, rt, options, object, namespace);
}

/** The end of every create: defaults, managedFields, admission, validation, store write; a 201. */
function storeCreated(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  rt: ResourceType,
  options: WriteOptions,
  created: KubeObject,
  namespace: string | undefined,
): void {
  let object = created;
  const badName = nameErrors(rt, object.metadata.name);
  if (namespace !== undefined) object.metadata.namespace = namespace;
  if (rt.subresources.includes('status')) delete object.status;
  object.apiVersion = groupVersionOf(rt);
  object.kind = rt.kind;
  object = toStorage(rt, object);
  defaultAndAllocate(ctx, rt, object, undefined);
  dropOmittedFields(ctx, rt, object);
  object.metadata.managedFields = trackUpdate(
    undefined,
    object,
    managerOf(req, options),
    groupVersionOf(rt),
    timestamp(ctx),
    shapeOf(ctx, rt),
  );
  admitCreate(ctx, rt, object);
  validate(rt, object, undefined, badName);
  admitQuota(ctx, rt, object);
  if (options.dryRun) {
    sendJson(res, 201, withVersion(dryRunCreated(ctx, rt, object), rt));
    return;
  }
  sendJson(res, 201, withVersion(ctx.store.create(storageType(ctx, rt), object), rt));
}

/**
 * What a dryRun=All create answers without storing: refused as the real create would be, with the system fields a
 * create fills (FillObjectMetaSystemFields), and encoded as the stored object is, so the empty fields Go omits are
 * gone (`kubectl diff` compares this with what `get` returns).
 */
function dryRunCreated(ctx: ServerContext, rt: ResourceType, object: KubeObject): KubeObject {
  ctx.store.checkCreate(storageType(ctx, rt), object);
  const filled: KubeObject = {
    ...object,
    metadata: {
      ...object.metadata,
      uid: object.metadata.uid ?? randomUUID(),
      creationTimestamp: timestamp(ctx),
      ...(rt.tracksGeneration ? { generation: 1 } : {}),
    },
  };
  dropOmittedFields(ctx, rt, filled);
  return filled;
}

/** Store.Update's answer to a PUT without a resourceVersion where the kind allows none (Go's %#v of uint64 0). */
const UNCONDITIONAL_UPDATE_REFUSED = 'Invalid value: 0x0: must be specified for an update';

async function replaceObject(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  path: ApiPath,
  url: URL,
): Promise<void> {
  const { rt } = path;
  const options = parseWriteOptions(url.searchParams, 'UpdateOptions');
  const read = await readRequestBody(req);
  refuseUndecodableObject(rt, read);
  const body = asObject(read.value);
  checkTypeMeta(body, rt);
  checkFieldNames(res, rt, body, options, read.json ? { scan: read.json } : undefined);
  const namespace = namespaceFor(rt, path, body);
  checkNameMatchesUrl(body, path);
  const current = readStored(rt, ctx.store.get(resourceKeyOf(rt), namespace, path.name!));
  // An update's uid is the registry's precondition (defaultUpdatedObjectInfo.Preconditions): a PUT of an object
  // deleted and made again under the same name is refused, not applied to the newcomer; nor is one of an object
  // deleted since it was read made again by a PUT.
  const uid = body.metadata.uid;
  // Storage reads a missing object as not found unless the kind may be created by a PUT (ignoreNotFound).
  if (!current && (path.subresource || !allowsCreateOnUpdate(rt))) throw notFound(rt.group, rt.plural, path.name!);
  if (typeof uid === 'string' && uid !== '') checkUidPrecondition(rt, namespace, path.name!, current, uid);
  if (!current) {
    // Created as a POST would be, with the metadata it read wiped (rest.WipeObjectMetaSystemFields).
    const created: KubeObject = structuredClone(body);
    for (const key of [...SERVER_OWNED_METADATA, 'resourceVersion']) delete created.metadata[key];
    return storeCreated(ctx, req, res, rt, options, created, namespace);
  }
  if (!allowsUnconditionalUpdate(rt) && [undefined, '', '0'].includes(body.metadata.resourceVersion))
    throw invalid(rt.plural, rt.group, path.name!, 'metadata.resourceVersion', UNCONDITIONAL_UPDATE_REFUSED);
  const next: KubeObject = structuredClone(body);
  if (namespace !== undefined) next.metadata.namespace = namespace;
  for (const key of SERVER_OWNED_METADATA) delete next.metadata[key];
  return writeUpdate(ctx, req, res, path, options, current, toStorage(rt, next, current));
}

/**
 * Leaves out the empty fields Go omits when it encodes `object` (a `minReadySeconds: 0`), in place. An update's
 * managedFields are computed from the object the typed round trip gives (structured-merge-diff compares typed
 * values), so a manager that wrote such a zero owns nothing there, and a later apply of another value meets no
 * conflict.
 */
function dropOmittedFields(ctx: ServerContext, rt: ResourceType, object: KubeObject): void {
  const stored = storageType(ctx, rt);
  dropEmptyFields(object, groupVersionOf(stored), stored.kind);
}

/** The end of every non-apply update: defaults, managedFields, precondition, store write. */
function writeUpdate(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  path: ApiPath,
  options: WriteOptions,
  current: KubeObject,
  next: KubeObject,
): void {
  const { rt } = path;
  const scope = writeScope(rt, path.subresource);
  const subresource = path.subresource === 'status' || path.subresource === 'finalize' ? path.subresource : undefined;
  if (scope !== 'status') {
    defaultAndAllocate(ctx, rt, next, current);
    validate(rt, scope === 'main' ? withStatusOf(next, current) : next, current);
  } else validateStatus(rt, next, current);
  dropOmittedFields(ctx, rt, next);
  const tracked: KubeObject =
    scope === 'status'
      ? { ...current, status: next.status }
      : { ...next, ...(scope === 'main' ? { status: current.status } : {}) };
  const managedFields = trackUpdate(
    current,
    tracked,
    managerOf(req, options),
    groupVersionOf(rt),
    timestamp(ctx),
    shapeOf(ctx, rt),
    subresource,
  );
  // The status subresource changes only status, but the managedFields entry it records lives in metadata,
  // so it is written as a whole object built from the stored one.
  const write: KubeObject =
    scope === 'status'
      ? { ...tracked, metadata: { ...current.metadata, managedFields, resourceVersion: next.metadata.resourceVersion } }
      : { ...next, metadata: { ...next.metadata, managedFields } };
  if (scope === 'status' && write.status === undefined) delete write.status;
  if (options.dryRun) {
    sendJson(res, 200, withVersion(dryRunResult(current, write, storageType(ctx, rt)), rt));
    return;
  }
  const stored = ctx.store.update(storageType(ctx, rt), write, scope === 'status' ? 'all' : scope, current);
  sendJson(res, 200, withVersion(stored, rt));
}

/**
 * What an update would store, without storing it: identity fields come from the live object, the generation
 * goes up when the spec changes and the empty fields Go omits are left out, as the store's update would (kubectl
 * diff shows the difference against a real cluster). `rt` is the stored type.
 */
function dryRunResult(current: KubeObject, next: KubeObject, rt: ResourceType): KubeObject {
  const { uid, creationTimestamp, generation, resourceVersion } = current.metadata;
  checkNoNewFinalizers(rt, current.metadata.name!, current, next);
  // A copy: `next` may share nested objects with the stored one, which a dry run must leave as it is.
  const result = structuredClone(next);
  dropEmptyFields(result, groupVersionOf(rt), rt.kind);
  const bumped = rt.tracksGeneration && generationChanged(rt, current, result) ? (generation ?? 1) + 1 : generation;
  return {
    ...result,
    metadata: {
      ...result.metadata,
      uid,
      creationTimestamp,
      resourceVersion,
      ...(bumped !== undefined ? { generation: bumped } : {}),
    },
  };
}

async function patchObject(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  path: ApiPath,
  url: URL,
): Promise<void> {
  const { rt } = path;
  const contentType = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const options = parseWriteOptions(url.searchParams, 'PatchOptions', contentType === 'application/apply-patch+yaml');
  const read = await readRequestBody(req);
  const body = read.value;
  if (contentType === 'application/apply-patch+yaml') return applyObject(ctx, res, path, options, asObject(body));
  refuseUnreadablePatch(contentType, read, options.fieldValidation);
  const current = requireObject(ctx, path);
  // A patch is made against the object as its version shows it.
  const base = isHpaV1(rt) ? withVersion(current, rt) : current;
  let patched: unknown;
  switch (contentType) {
    case 'application/json-patch+json':
      patched = jsonPatch(base, body, options.fieldValidation);
      break;
    case 'application/merge-patch+json':
      refuseUndecodablePatch('merge', body, options.fieldValidation);
      patched = mergePatch(structuredClone(base), body);
      break;
    case 'application/strategic-merge-patch+json':
      if (!rt.strategicMerge)
        throw new ApiError(
          415,
          'UnsupportedMediaType',
          `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml`,
        );
      refuseUndecodablePatch('strategic', body, options.fieldValidation);
      patched = strategicMergePatch(structuredClone(base), body ?? {}, shapeOf(ctx, rt));
      break;
    default:
      throw new ApiError(
        415,
        'UnsupportedMediaType',
        `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json`,
      );
  }
  const next = asObject(patched);
  checkFieldNames(res, rt, next, options, {
    known: base,
    // The strategic patcher refuses with the patch map as the invalid value (applyPatchToObject), the others with the
    // patched object.
    patch: {
      errors: patchStrictErrors(contentType, body, read.json),
      ...(contentType === 'application/strategic-merge-patch+json' ? { invalidValue: goFormatValue(body ?? {}) } : {}),
    },
  });
  namespaceFor(rt, path, next);
  checkNameMatchesUrl(next, path);
  next.metadata.namespace = current.metadata.namespace;
  if (next.metadata.namespace === undefined) delete next.metadata.namespace;
  checkUidUnchanged(rt, current, next.metadata.uid);
  for (const key of SERVER_OWNED_METADATA) delete next.metadata[key];
  return writeUpdate(ctx, req, res, path, options, current, toStorage(rt, next, current));
}

/**
 * A patch body that is not JSON, worded by whichever decoder reads it first (endpoints/handlers/patch.go): the
 * handler's own strict decode under Strict or Warn, else jsonpatch.DecodePatch, evanphx's MergePatch (which says
 * only ErrBadJSONPatch) or the strategic patcher's map decode.
 */
function refuseUnreadablePatch(contentType: string, read: RequestBody, fieldValidation: string): void {
  const syntaxError = read.json?.syntaxError;
  if (!syntaxError) return;
  const strict = fieldValidation !== 'Ignore';
  if (contentType === 'application/json-patch+json')
    throw badRequest(strict ? `error decoding patch: ${syntaxError}` : syntaxError);
  if (contentType === 'application/merge-patch+json')
    throw badRequest(strict ? `error decoding patch: ${syntaxError}` : 'Invalid JSON Patch');
  if (contentType === 'application/strategic-merge-patch+json') throw badRequest(syntaxError);
}

/**
 * What the handler's strict decode of a JSON or merge patch body finds, in document order: a JSON patch's fields
 * jsonPatchOp lacks and its repeated keys, prefixed "json patch"; a merge or strategic patch's repeated keys, bare.
 */
function patchStrictErrors(contentType: string, body: unknown, scan: GoJsonScan | undefined): string[] {
  const empty: GoJsonScan = { duplicates: [], firstSeen: new Map() };
  if (contentType === 'application/json-patch+json')
    return strictErrorsInOrder(jsonPatchUnknownFields(body), scan ?? empty, 'json patch ');
  return strictErrorsInOrder([], scan ?? empty);
}

function refuseUndecodablePatch(kind: 'merge' | 'strategic', body: unknown, fieldValidation: string): void {
  const refusal = mapPatchDecodeError(kind, body, fieldValidation === 'Ignore');
  if (refusal) throw badRequest(refusal);
}

/** BeforeUpdate fills only an empty uid from the stored object; ValidateObjectMetaUpdate refuses another. */
function checkUidUnchanged(rt: ResourceType, current: KubeObject, uid: unknown): void {
  if (typeof uid === 'string' && uid !== '' && uid !== current.metadata.uid)
    throw invalid(
      rt.kind,
      rt.group,
      current.metadata.name!,
      'metadata.uid',
      `Invalid value: ${JSON.stringify(uid)}: field is immutable`,
    );
}

async function applyObject(
  ctx: ServerContext,
  res: ServerResponse,
  path: ApiPath,
  options: WriteOptions,
  applied: KubeObject,
): Promise<void> {
  const { rt } = path;
  const manager = options.fieldManager;
  if (!applied.apiVersion || !applied.kind) throw badRequest('apply requests must set apiVersion and kind');
  checkTypeMeta(applied, rt);
  const typedErrors = typedPatchErrors(applied, objectShape(groupVersionOf(rt), rt.kind, rt.schema));
  if (typedErrors.length > 0) throw typedPatchFailure(applied, typedErrors);
  // A custom resource's applied configuration is not decoded: typing it against the schema above refused what
  // pruning would drop.
  if (!rt.crd) checkFieldNames(res, rt, applied, options);
  const namespace = namespaceFor(rt, path, applied);
  const current = readStored(rt, ctx.store.get(resourceKeyOf(rt), namespace, path.name!));
  // The applied object keeps the live name when it leaves its own out; one that creates has only what it carries.
  checkNameMatchesUrl(current && applied.metadata.name === undefined ? current : applied, path);
  const subresource = path.subresource === 'status' ? ('status' as const) : undefined;
  if (!current && subresource) throw notFound(rt.group, rt.plural, path.name!);
  const merged = serverSideApply({
    live: current,
    applied: isHpaV1(rt) ? { ...toStorage(rt, applied, current), apiVersion: applied.apiVersion } : applied,
    manager,
    force: options.force ?? false,
    apiVersion: groupVersionOf(rt),
    shape: shapeOf(ctx, rt),
    ...(subresource ? { subresource } : {}),
    now: timestamp(ctx),
  });
  merged.metadata.name = path.name;
  if (namespace !== undefined) merged.metadata.namespace = namespace;
  // The apply field manager defaults what it merged, as a decoder would.
  const schema = customResourceSchema(rt);
  if (schema) defaultInPlace(merged, schema);
  if (!current) {
    const badName = nameErrors(rt, path.name);
    defaultAndAllocate(ctx, rt, merged, undefined);
    admitCreate(ctx, rt, merged);
    validate(rt, merged, undefined, badName);
    admitQuota(ctx, rt, merged);
    if (options.dryRun) {
      sendJson(res, 201, withVersion(dryRunCreated(ctx, rt, merged), rt));
      return;
    }
    sendJson(res, 201, withVersion(ctx.store.create(storageType(ctx, rt), merged), rt));
    return;
  }
  // The apply patcher merges the configuration's uid into the object it updates, as a patch's.
  checkUidUnchanged(rt, current, applied.metadata.uid);
  const scope = writeScope(rt, path.subresource);
  if (scope !== 'status') {
    defaultAndAllocate(ctx, rt, merged, current);
    validate(rt, scope === 'main' ? withStatusOf(merged, current) : merged, current);
  } else validateStatus(rt, merged, current);
  if (options.dryRun) {
    sendJson(res, 200, withVersion(dryRunResult(current, merged, storageType(ctx, rt)), rt));
    return;
  }
  // The apiserver's apply patcher merges the applied configuration, resourceVersion included, into the object its
  // GuaranteedUpdate stores: a resourceVersion in it is a precondition, as for any update.
  const precondition = (applied.metadata as { resourceVersion?: unknown } | undefined)?.resourceVersion;
  if (typeof precondition === 'string' && precondition !== '') merged.metadata.resourceVersion = precondition;
  const stored = ctx.store.update(storageType(ctx, rt), merged, scope === 'status' ? 'all' : scope, current);
  sendJson(res, 200, withVersion(stored, rt));
}

async function deleteObject(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  path: ApiPath,
  url: URL,
): Promise<void> {
  const { rt } = path;
  const options = parseDeleteOptions(url.searchParams, await readBody(req));
  const current = requireObject(ctx, path);
  if (rt.kind === 'Namespace' && PROTECTED_NAMESPACES.has(path.name!)) {
    throw new ApiError(403, 'Forbidden', `namespaces "${path.name}" is forbidden: this namespace may not be deleted`, {
      name: path.name!,
      kind: 'namespaces',
    });
  }
  // The namespace REST's Delete: once Terminating, the namespace goes only when its content is gone and its
  // spec.finalizers emptied, and asking again meanwhile is a conflict.
  if (rt.kind === 'Namespace' && current.metadata.deletionTimestamp && (current.spec?.finalizers ?? []).length > 0) {
    throw new ApiError(
      409,
      'Conflict',
      `Operation cannot be fulfilled on namespaces "${path.name}": The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.`,
      { name: path.name!, kind: 'namespaces' },
    );
  }
  const propagation = propagationOf(options);
  // Orphan and Foreground hold the object with the garbage collector's finalizer, which the collector removes
  // once the dependents are orphaned or gone; the reply is the object marked for deletion. Namespaces have
  // their own deletion (namespaceController).
  if (rt.kind === 'Namespace' && !options.dryRun) {
    if (propagation === 'Orphan') orphanDependents(ctx.store, ctx.registry, current.metadata.uid!);
    if (propagation === 'Foreground') deleteDependents(ctx.store, ctx.registry, current.metadata.uid!);
  }
  const result = ctx.store.delete(
    rt,
    path.namespace,
    path.name!,
    options.preconditions,
    gcFinalizersOf(rt, options),
    gracefulDeletionOf(rt, current, options.gracePeriodSeconds),
    options.dryRun,
  );
  if (!result.deleted) {
    // 202 only when the caller asked for cascading with orphanDependents=false, as the API server does.
    sendJson(res, options.orphanDependents === false ? 202 : 200, withVersion(result.object, rt));
    return;
  }
  // The pod registry answers with the pod it deleted (ReturnDeletedObject), others with a Status.
  if (isPod(rt)) {
    sendJson(res, 200, withVersion(result.object, rt));
    return;
  }
  sendJson(res, 200, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: statusDetailsJson({ name: path.name!, group: rt.group, kind: rt.plural, uid: current.metadata.uid! }),
  });
}

const isPod = (rt: ResourceType): boolean => rt.group === '' && rt.kind === 'Pod';

/** The finalizers a delete leaves an object with (finalizersOnDelete); a Namespace has its own deletion. */
function gcFinalizersOf(
  rt: ResourceType,
  options: DeleteOptions,
): ((current: readonly string[]) => string[]) | undefined {
  if (rt.kind === 'Namespace') return undefined;
  return (had) => finalizersOnDelete(had, requestedPropagation(options));
}

/**
 * What a delete gives a kind with graceful deletion (pods): its grace period and the one asked for, a negative one
 * taken as 1 (rest.BeforeDelete); else nothing.
 */
function gracefulDeletionOf(
  rt: ResourceType,
  object: KubeObject,
  requested: number | undefined,
): { period: number; requested: number | undefined } | undefined {
  if (!isPod(rt)) return undefined;
  const asked = requested !== undefined && requested < 0 ? 1 : requested;
  return { period: podGracePeriod(object, asked), requested: asked };
}

async function deleteCollection(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  path: ApiPath,
  url: URL,
): Promise<void> {
  const { rt } = path;
  const matches = selectorFilter(parseListOptions(url.searchParams), rt);
  const options = parseDeleteOptions(url.searchParams, await readBody(req));
  const deleted: KubeObject[] = [];
  for (const object of ctx.store.list(resourceKeyOf(rt), path.namespace).filter(matches)) {
    if (rt.kind === 'Namespace' && PROTECTED_NAMESPACES.has(object.metadata.name!)) continue;
    if (!options.dryRun)
      ctx.store.delete(
        rt,
        object.metadata.namespace,
        object.metadata.name!,
        undefined,
        // DeleteCollection deletes each object with the request's options, its propagation policy included.
        gcFinalizersOf(rt, options),
        gracefulDeletionOf(rt, object, options.gracePeriodSeconds),
      );
    deleted.push(withVersion(object, rt));
  }
  sendJson(res, 200, {
    kind: `${rt.kind}List`,
    apiVersion: groupVersionOf(rt),
    metadata: { resourceVersion: String(ctx.store.resourceVersion) },
    items: deleted,
  });
}

function toScale(object: KubeObject): KubeObject {
  const { name, namespace, uid, resourceVersion, creationTimestamp } = object.metadata;
  // metav1.FormatLabelSelector of the workload's selector, expressions included: what the HPA selects pods by.
  const selector = object.spec?.selector;
  const selectorText = selector && typeof selector === 'object' ? formatLabelSelector(selector) : '';
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name, namespace, uid, resourceVersion, creationTimestamp },
    spec: { replicas: object.spec?.replicas ?? 0 },
    // ScaleStatus.selector is omitempty: a custom resource without labelSelectorPath has none.
    status: { replicas: object.status?.replicas ?? 0, ...(selectorText ? { selector: selectorText } : {}) },
  };
}

/** The scale subresource (`kubectl scale`): reads and writes spec.replicas through an autoscaling/v1 Scale. */
async function handleScale(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  path: ApiPath,
  url: URL,
): Promise<void> {
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'PUT' && method !== 'PATCH') throw methodNotAllowed(path.rt, method);
  const current = requireObject(ctx, path);
  const scale = toScale(current);
  if (method === 'GET') {
    sendJson(res, 200, scale);
    return;
  }
  const contentType = (req.headers['content-type'] ?? '').split(';')[0]!.trim();
  const apply = contentType === 'application/apply-patch+yaml';
  const options = parseWriteOptions(url.searchParams, method === 'PATCH' ? 'PatchOptions' : 'UpdateOptions', apply);
  const body = await readBody(req);
  let desired: KubeObject;
  if (method === 'PUT') desired = asObject(body);
  else if (method === 'PATCH') {
    desired = asObject(
      apply
        ? body
        : contentType === 'application/json-patch+json'
          ? jsonPatch(scale, body, options.fieldValidation)
          : mergePatch(structuredClone(scale), body),
    );
  } else throw methodNotAllowed(path.rt, method);
  const replicas = Number(desired.spec?.replicas);
  if (!Number.isInteger(replicas) || replicas < 0)
    throw invalid(
      'Scale',
      'autoscaling',
      path.name!,
      'spec.replicas',
      `Invalid value: ${desired.spec?.replicas}: must be greater than or equal to 0`,
    );
  // The API server keeps the scale subresource's managers on the workload itself (managedfields.ScaleHandler):
  // a Scale's spec.replicas is the workload's, so an apply through it conflicts with whoever owns that field.
  const manager = managerOf(req, options);
  const next = apply
    ? serverSideApply({
        live: current,
        applied: { metadata: {}, spec: { replicas } },
        manager,
        force: options.force ?? false,
        apiVersion: groupVersionOf(path.rt),
        shape: shapeOf(ctx, path.rt),
        subresource: 'scale',
        now: timestamp(ctx),
      })
    : structuredClone(current);
  if (!apply) {
    next.spec = { ...next.spec, replicas };
    next.metadata.managedFields = trackUpdate(
      current,
      next,
      manager,
      groupVersionOf(path.rt),
      timestamp(ctx),
      shapeOf(ctx, path.rt),
      'scale',
    );
  }
  if (desired.metadata?.resourceVersion) next.metadata.resourceVersion = desired.metadata.resourceVersion;
  // A custom resource's Scale is written through its main store, whose strategy validates the result against the
  // CRD's schema (apiextensions' ScaleREST.Update).
  if (path.rt.crd) validate(path.rt, next, current);
  const stored = options.dryRun ? next : ctx.store.update(path.rt, next, 'main', current);
  sendJson(res, 200, toScale(stored));
}
