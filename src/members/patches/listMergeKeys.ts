// patchMergeKey / listMapKeys of the built-in types' associative lists, by field name. Both strategic merge
// patch and server-side apply merge these lists item by item; every other list is atomic (replaced whole).
// A field name maps to candidate keys; the first one present on an item is used (container ports key on
// containerPort, Service ports on port).
const MERGE_KEYS: Record<string, string[]> = {
  containers: ['name'],
  initContainers: ['name'],
  ephemeralContainers: ['name'],
  env: ['name'],
  volumes: ['name'],
  volumeMounts: ['mountPath'],
  volumeDevices: ['devicePath'],
  ports: ['containerPort', 'port'],
  imagePullSecrets: ['name'],
  conditions: ['type'],
  ownerReferences: ['uid'],
  hostAliases: ['ip'],
  resourceClaims: ['name'],
  topologySpreadConstraints: ['topologyKey'],
};

/** Scalar lists merged as sets. */
const SET_LISTS = new Set(['finalizers']);

export function listMergeKey(field: string | undefined, items: unknown[]): string | undefined {
  const candidates = field ? MERGE_KEYS[field] : undefined;
  if (!candidates) return undefined;
  const first = items.find((item) => item !== null && typeof item === 'object') as Record<string, unknown> | undefined;
  if (!first) return candidates[0];
  return candidates.find((key) => key in first) ?? candidates[0];
}

export function isSetList(field: string | undefined): boolean {
  return field !== undefined && SET_LISTS.has(field);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
