// Every failure a client sees is a Kubernetes `Status` object; this class carries one until the HTTP edge
// writes it. Messages copy the real API server's wording because kubectl prints them verbatim.

export type StatusReason =
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Invalid'
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'MethodNotAllowed'
  | 'UnsupportedMediaType'
  | 'Expired'
  | 'InternalError'
  | 'ServiceUnavailable'
  | 'Timeout'
  | 'NotAcceptable'
  // StatusReasonUnknown: what the server answers an error no layer turned into an API status.
  | '';

export interface StatusCause {
  type?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  /** Sent as the Retry-After header too when positive. */
  retryAfterSeconds?: number;
}

/**
 * StatusDetails as metav1 marshals it: every field omitempty (a core kind's group "" and an unnamed object's name
 * are left out), and a cause's type goes out under its JSON name `reason`.
 */
export function statusDetailsJson(details: StatusDetails): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ['name', 'group', 'kind', 'uid'] as const) if (details[key]) out[key] = details[key];
  if (details.causes?.length)
    out.causes = details.causes.map((c) => ({
      ...(c.type ? { reason: c.type } : {}),
      ...(c.message ? { message: c.message } : {}),
      ...(c.field ? { field: c.field } : {}),
    }));
  if (details.retryAfterSeconds) out.retryAfterSeconds = details.retryAfterSeconds;
  return out;
}

export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: StatusReason,
    message: string,
    readonly details?: StatusDetails,
    /** The Status's ListMeta: an expired list page's token for the rest of the list. */
    readonly listMeta?: { continue?: string },
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toStatus(): Record<string, unknown> {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: this.listMeta ?? {},
      status: 'Failure',
      message: this.message,
      ...(this.reason ? { reason: this.reason } : {}),
      ...(this.details ? { details: statusDetailsJson(this.details) } : {}),
      code: this.code,
    };
  }
}

/**
 * storage.NewTooLargeResourceVersionError: a read at a resourceVersion the store has not reached. The watch cache
 * asks the client to retry after a second; etcd's read at an exact revision gives no delay.
 */
export function tooLargeResourceVersion(requested: number, current: number, retryAfterSeconds: number): ApiError {
  return new ApiError(504, 'Timeout', `Timeout: Too large resource version: ${requested}, current: ${current}`, {
    causes: [{ type: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    retryAfterSeconds,
  });
}

/** `deployments.apps` / `pods`: the qualified resource name used in messages. */
export function qualifiedResource(group: string, plural: string): string {
  return group ? `${plural}.${group}` : plural;
}

export const notFound = (group: string, plural: string, name: string): ApiError =>
  new ApiError(404, 'NotFound', `${qualifiedResource(group, plural)} "${name}" not found`, {
    name,
    group,
    kind: plural,
  });

export const alreadyExists = (group: string, plural: string, name: string): ApiError =>
  new ApiError(409, 'AlreadyExists', `${qualifiedResource(group, plural)} "${name}" already exists`, {
    name,
    group,
    kind: plural,
  });

export const staleConflict = (group: string, plural: string, name: string): ApiError =>
  new ApiError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualifiedResource(group, plural)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    { name, group, kind: plural },
  );

/**
 * A failed uid or resourceVersion precondition: the storage layer's InvalidObj error, which the registry answers as a
 * conflict quoting it whole (`key`: the object's etcd key).
 */
export const preconditionFailed = (
  group: string,
  plural: string,
  name: string,
  key: string,
  detail: string,
): ApiError =>
  new ApiError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualifiedResource(group, plural)} "${name}": StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: ${detail}`,
    { name, group, kind: plural },
  );

export const badRequest = (message: string): ApiError => new ApiError(400, 'BadRequest', message);

/** One failed check of a field: Go's field.Error as the API server renders it. */
export interface FieldError {
  type:
    | 'FieldValueForbidden'
    | 'FieldValueNotSupported'
    | 'FieldValueRequired'
    | 'FieldValueInvalid'
    | 'FieldValueTooLong'
    | 'FieldValueTooMany'
    | 'FieldValueDuplicate'
    | 'FieldValueNotFound';
  field: string;
  /** The message without the field: `Forbidden: ...`, `Unsupported value: "x": supported values: ...`. */
  body: string;
}

/** errors.NewInvalid: `Secret "x" is invalid: field: body`, or `[a, b]` for several, each also a cause. */
export function invalidFields(kind: string, group: string, name: string, errors: FieldError[]): ApiError {
  const lines = errors.map((e) => `${e.field}: ${e.body}`);
  const joined = lines.length === 1 ? lines[0] : `[${lines.join(', ')}]`;
  return new ApiError(422, 'Invalid', `${group ? `${kind}.${group}` : kind} "${name}" is invalid: ${joined}`, {
    ...(name ? { name } : {}),
    group,
    kind,
    causes: errors.map((e) => ({ type: e.type, message: e.body, field: e.field })),
  });
}

export const invalid = (kind: string, group: string, name: string, field: string, detail: string): ApiError =>
  new ApiError(422, 'Invalid', `${group ? `${kind}.${group}` : kind} "${name}" is invalid: ${field}: ${detail}`, {
    name,
    group,
    kind,
    causes: [{ type: 'FieldValueInvalid', message: detail, field }],
  });
