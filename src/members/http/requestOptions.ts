import { goStringSliceText } from '../../text/goSyntax.ts';
import { type ApiError, badRequest, invalidFields, type FieldError } from '../ApiError.ts';

// The query parameters of a request decoded and validated the way kube-apiserver v1.32 does it: the
// url.Values -> meta/v1 options conversions (k8s.io/apimachinery pkg/runtime/conversion.go and
// pkg/apis/meta/v1/zz_generated.conversion.go), a failed conversion answered 400 BadRequest, then the
// options validation (pkg/apis/meta/v1/validation, pkg/apis/meta/internalversion/validation) answered
// 422 Invalid against the options kind. Only the first value of a repeated parameter counts, except dryRun.

const forbidden = (field: string, detail: string): FieldError => ({
  type: 'FieldValueForbidden',
  field,
  body: `Forbidden: ${detail}`,
});
const required = (field: string, detail: string): FieldError => ({
  type: 'FieldValueRequired',
  field,
  body: `Required value: ${detail}`,
});
const notSupported = (field: string, value: string, supported: string[]): FieldError => ({
  type: 'FieldValueNotSupported',
  field,
  body: `Unsupported value: ${value}: supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`,
});

/** errors.NewInvalid for an options kind: `ListOptions.meta.k8s.io "" is invalid: field: body`. */
export function invalidOptions(kind: string, errors: FieldError[]): ApiError {
  return invalidFields(kind, 'meta.k8s.io', '', errors);
}

/**
 * A boolean parameter: absent is undefined; `0` or any case of `false` is false; anything else, the empty
 * string included, is true (Convert_Slice_string_To_bool). So `watch=True` from the Python client and a bare
 * `?watch` both mean true, and no value is ever rejected.
 */
export function queryBool(params: URLSearchParams, name: string): boolean | undefined {
  const value = params.get(name);
  if (value === null) return undefined;
  return !(value === '0' || value.toLowerCase() === 'false');
}

const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);

/** Go's strconv.ParseInt(s, 10, 64), with its error text. The result is exact for the values that matter (< 2^53). */
export function parseInt64(text: string): number {
  if (!/^[+-]?[0-9]+$/.test(text)) throw new Error(`strconv.ParseInt: parsing ${JSON.stringify(text)}: invalid syntax`);
  const value = BigInt(text);
  if (value > INT64_MAX || value < INT64_MIN)
    throw new Error(`strconv.ParseInt: parsing ${JSON.stringify(text)}: value out of range`);
  return Number(value);
}

/** An int64 parameter: absent is undefined, unparsable is a 400 carrying strconv's message. */
export function queryInt64(params: URLSearchParams, name: string): number | undefined {
  const value = params.get(name);
  if (value === null) return undefined;
  try {
    return parseInt64(value);
  } catch (error) {
    throw badRequest((error as Error).message);
  }
}

const DURATION_UNITS = new Set(['ns', 'us', '\u00b5s', '\u03bcs', 'ms', 's', 'm', 'h']);

/** Checks text against Go's time.ParseDuration grammar and returns its error message, or undefined when valid. */
export function goDurationError(text: string): string | undefined {
  const quoted = JSON.stringify(text);
  let rest = text.replace(/^[-+]/, '');
  if (rest === '0') return undefined;
  if (rest === '') return `time: invalid duration ${quoted}`;
  while (rest !== '') {
    const number = /^([0-9]*)(\.([0-9]*))?/.exec(rest)!;
    if (number[1] === '' && (number[3] ?? '') === '') return `time: invalid duration ${quoted}`;
    rest = rest.slice(number[0].length);
    const unit = /^[^0-9.]*/.exec(rest)![0];
    if (unit === '') return `time: missing unit in duration ${quoted}`;
    if (!DURATION_UNITS.has(unit)) return `time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}`;
    rest = rest.slice(unit.length);
  }
  return undefined;
}

/**
 * `?timeout=` on any request that is not long-running (watches, logs): a Go duration, else a 400 before
 * anything else is looked at, authentication included (the request-deadline filter).
 */
export function checkRequestTimeout(params: URLSearchParams): void {
  const value = params.get('timeout') ?? '';
  if (value === '') return;
  const error = goDurationError(value);
  if (error) throw badRequest(`invalid timeout specified in the request URL - ${error}`);
}

export interface ListOptions {
  labelSelector: string;
  fieldSelector: string;
  watch: boolean;
  allowWatchBookmarks: boolean;
  resourceVersion: string;
  resourceVersionMatch: string;
  timeoutSeconds?: number;
  limit: number;
  continue: string;
  sendInitialEvents?: boolean;
}

/**
 * The options of a collection GET: decoded, defaulted as v1.32 does with its WatchList feature on by default
 * (a watch from no resourceVersion or "0" becomes sendInitialEvents=true, resourceVersionMatch=NotOlderThan),
 * then validated.
 */
export function parseListOptions(params: URLSearchParams): ListOptions {
  const options: ListOptions = {
    labelSelector: params.get('labelSelector') ?? '',
    fieldSelector: params.get('fieldSelector') ?? '',
    watch: queryBool(params, 'watch') ?? false,
    allowWatchBookmarks: queryBool(params, 'allowWatchBookmarks') ?? false,
    resourceVersion: params.get('resourceVersion') ?? '',
    resourceVersionMatch: params.get('resourceVersionMatch') ?? '',
    limit: queryInt64(params, 'limit') ?? 0,
    continue: params.get('continue') ?? '',
  };
  const timeoutSeconds = queryInt64(params, 'timeoutSeconds');
  if (timeoutSeconds !== undefined) options.timeoutSeconds = timeoutSeconds;
  const sendInitialEvents = queryBool(params, 'sendInitialEvents');
  if (sendInitialEvents !== undefined) options.sendInitialEvents = sendInitialEvents;

  if (
    options.sendInitialEvents === undefined &&
    options.resourceVersionMatch === '' &&
    options.watch &&
    (options.resourceVersion === '' || options.resourceVersion === '0')
  ) {
    options.sendInitialEvents = true;
    options.resourceVersionMatch = 'NotOlderThan';
  }
  const errors = options.watch ? watchOptionErrors(options) : listOptionErrors(options);
  if (errors.length > 0) throw invalidOptions('ListOptions', errors);
  return options;
}

function listOptionErrors(options: ListOptions): FieldError[] {
  const errors: FieldError[] = [];
  const match = options.resourceVersionMatch;
  if (match !== '') {
    if (options.resourceVersion === '')
      errors.push(
        forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'),
      );
    if (options.continue !== '')
      errors.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    if (match !== 'Exact' && match !== 'NotOlderThan')
      errors.push(notSupported('resourceVersionMatch', JSON.stringify(match), ['Exact', 'NotOlderThan', '']));
    if (match === 'Exact' && options.resourceVersion === '0')
      errors.push(
        forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'),
      );
  }
  if (options.sendInitialEvents !== undefined)
    errors.push(forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  return errors;
}

function watchOptionErrors(options: ListOptions): FieldError[] {
  const errors: FieldError[] = [];
  const match = options.resourceVersionMatch;
  if (options.sendInitialEvents !== undefined && match !== 'NotOlderThan') {
    errors.push(
      forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'),
    );
  }
  if (match !== '') {
    if (options.sendInitialEvents === undefined)
      errors.push(
        forbidden(
          'resourceVersionMatch',
          'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
        ),
      );
    if (match !== 'NotOlderThan')
      errors.push(notSupported('resourceVersionMatch', JSON.stringify(match), ['NotOlderThan']));
    if (options.continue !== '')
      errors.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
  }
  return errors;
}

export interface WriteOptions {
  dryRun: boolean;
  /** As given; empty when absent (the caller falls back to the User-Agent, or requires it for apply). */
  fieldManager: string;
  fieldValidation: string;
  /** Patch only: set when the request carried `force`. */
  force?: boolean;
}

const FIELD_VALIDATION = ['', 'Ignore', 'Strict', 'Warn'];

/** dryRun takes every value given, and each must be `All` (ValidateDryRun). */
function dryRunErrors(dryRun: string[]): FieldError[] {
  if (dryRun.every((v) => v === 'All')) return [];
  return [notSupported('dryRun', goStringSliceText(dryRun), ['All'])];
}

function fieldManagerErrors(manager: string): FieldError[] {
  const errors: FieldError[] = [];
  if (Buffer.byteLength(manager) > 128)
    errors.push({ type: 'FieldValueTooLong', field: 'fieldManager', body: 'Too long: may not be more than 128 bytes' });
  let position = 0;
  for (const char of manager) {
    if (!/^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(char)) {
      const code = char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      errors.push({
        type: 'FieldValueInvalid',
        field: 'fieldManager',
        body: `Invalid value: ${JSON.stringify(manager)}: invalid character U+${code} (at position ${position})`,
      });
    }
    position += Buffer.byteLength(char);
  }
  return errors;
}

/**
 * Options of create, update and patch (CreateOptions, UpdateOptions, PatchOptions). `force` is only for
 * apply patches, which in turn need a fieldManager.
 */
export function parseWriteOptions(
  params: URLSearchParams,
  kind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions',
  apply = false,
): WriteOptions {
  const dryRun = params.getAll('dryRun');
  const options: WriteOptions = {
    dryRun: dryRun.length > 0,
    fieldManager: params.get('fieldManager') ?? '',
    fieldValidation: params.get('fieldValidation') ?? '',
  };
  const errors: FieldError[] = [];
  if (kind === 'PatchOptions') {
    const force = queryBool(params, 'force');
    if (force !== undefined) options.force = force;
    if (apply && options.fieldManager === '') errors.push(required('fieldManager', 'is required for apply patch'));
    if (!apply && force !== undefined) errors.push(forbidden('force', 'may not be specified for non-apply patch'));
  }
  errors.push(...fieldManagerErrors(options.fieldManager), ...dryRunErrors(dryRun));
  if (!FIELD_VALIDATION.includes(options.fieldValidation))
    errors.push(notSupported('fieldValidation', JSON.stringify(options.fieldValidation), FIELD_VALIDATION));
  if (errors.length > 0) throw invalidOptions(kind, errors);
  return options;
}

/** `?includeObject=` of a Table request; anything but the three policies (or nothing) is a 400. */
export function parseIncludeObject(params: URLSearchParams): 'Metadata' | 'Object' | 'None' {
  const value = params.get('includeObject') ?? '';
  if (value === '') return 'Metadata';
  if (value === 'Metadata' || value === 'Object' || value === 'None') return value;
  throw badRequest(
    `Unable to convert to Table as requested: includeObject: Invalid value: ${JSON.stringify(value)}: must be 'Metadata', 'Object', 'None', or empty`,
  );
}

/**
 * The query of a pod's `log` subresource, decoded and validated (ValidatePodLogOptions) though the emulator's
 * pods write no logs: malformed numbers are 400s, out-of-range ones a 422 naming the pod.
 */
export function checkPodLogOptions(params: URLSearchParams, pod: string): void {
  const tailLines = queryInt64(params, 'tailLines');
  const limitBytes = queryInt64(params, 'limitBytes');
  const sinceSeconds = queryInt64(params, 'sinceSeconds');
  const errors: FieldError[] = [];
  const invalidValue = (field: string, value: number, detail: string): FieldError => ({
    type: 'FieldValueInvalid',
    field,
    body: `Invalid value: ${value}: ${detail}`,
  });
  if (tailLines !== undefined && tailLines < 0)
    errors.push(invalidValue('tailLines', tailLines, 'must be greater than or equal to 0'));
  if (limitBytes !== undefined && limitBytes < 1)
    errors.push(invalidValue('limitBytes', limitBytes, 'must be greater than 0'));
  if (sinceSeconds !== undefined && params.get('sinceTime') !== null)
    errors.push(forbidden('', 'at most one of `sinceTime` or `sinceSeconds` may be specified'));
  else if (sinceSeconds !== undefined && sinceSeconds < 1)
    errors.push(invalidValue('sinceSeconds', sinceSeconds, 'must be greater than 0'));
  // The both-given error is on the empty path, so it reads ": Forbidden: ..." like the real one.
  if (errors.length > 0) throw invalidFields('PodLogOptions', '', pod, errors);
}

export type PropagationPolicy = 'Foreground' | 'Background' | 'Orphan';

export interface DeleteOptions {
  dryRun: boolean;
  propagationPolicy?: PropagationPolicy;
  orphanDependents?: boolean;
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
}

/**
 * DeleteOptions come from the request body when it has one, and then the query is not read at all;
 * otherwise from the query. Either way they are validated alike.
 */
export function parseDeleteOptions(params: URLSearchParams, body: unknown): DeleteOptions {
  const options: DeleteOptions = { dryRun: false };
  let dryRun: string[];
  let propagation: unknown;
  if (body !== undefined) {
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      throw badRequest('the request body must be a DeleteOptions object');
    const given = body as Record<string, unknown>;
    dryRun = Array.isArray(given.dryRun) ? given.dryRun.map(String) : [];
    propagation = given.propagationPolicy ?? undefined;
    if (typeof given.orphanDependents === 'boolean') options.orphanDependents = given.orphanDependents;
    if (typeof given.gracePeriodSeconds === 'number') options.gracePeriodSeconds = given.gracePeriodSeconds;
    if (given.preconditions && typeof given.preconditions === 'object')
      options.preconditions = given.preconditions as DeleteOptions['preconditions'] & object;
  } else {
    dryRun = params.getAll('dryRun');
    propagation = params.get('propagationPolicy') ?? undefined;
    const orphan = queryBool(params, 'orphanDependents');
    if (orphan !== undefined) options.orphanDependents = orphan;
    const grace = queryInt64(params, 'gracePeriodSeconds');
    if (grace !== undefined) options.gracePeriodSeconds = grace;
  }
  options.dryRun = dryRun.length > 0;
  const errors: FieldError[] = [];
  if (propagation !== undefined) {
    if (options.orphanDependents !== undefined) {
      errors.push({
        type: 'FieldValueInvalid',
        field: 'propagationPolicy',
        body: `Invalid value: ${JSON.stringify(propagation)}: orphanDependents and deletionPropagation cannot be both set`,
      });
    }
    if (propagation === 'Foreground' || propagation === 'Background' || propagation === 'Orphan')
      options.propagationPolicy = propagation;
    else
      errors.push(
        notSupported('propagationPolicy', JSON.stringify(propagation), ['Foreground', 'Background', 'Orphan', 'nil']),
      );
  }
  errors.push(...dryRunErrors(dryRun));
  if (errors.length > 0) throw invalidOptions('DeleteOptions', errors);
  return options;
}

/** The policy a request names, if it names one: orphanDependents, the older field, is read first (store.go). */
export function requestedPropagation(options: DeleteOptions): PropagationPolicy | undefined {
  if (options.orphanDependents !== undefined) return options.orphanDependents ? 'Orphan' : 'Background';
  return options.propagationPolicy;
}

/**
 * What a delete does to dependents: the policy, else orphanDependents=true means Orphan, else Background
 * (parseDeleteOptions refuses both given).
 */
export function propagationOf(options: DeleteOptions): PropagationPolicy {
  return requestedPropagation(options) ?? 'Background';
}
