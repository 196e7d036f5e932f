/**
 * Fields Karmada removes before a manifest goes to a member (default/native/prune/prune.go): what the
 * API server populates, status, and member-specific fields per kind; and a Job's ttlSecondsAfterFinished, which
 * every Work drops (ctrlutil/work.go runs RemoveJobTTLSeconds) so that a member does not delete a finished Job the
 * control plane still propagates. Returns a new object.
 */
export function pruneForMember(manifest: Record<string, unknown>): Record<string, unknown> {
  // biome-ignore lint/suspicious/noExplicitAny: walks an untyped Kubernetes manifest by field name
  const out = copyManifest(manifest) as Record<string, any>;
  delete out.status;
  const meta = out.metadata as Record<string, unknown> | undefined;
  if (meta) {
    for (const f of [
      'creationTimestamp',
      'deletionTimestamp',
      'deletionGracePeriodSeconds',
      'generation',
      'managedFields',
      'resourceVersion',
      'selfLink',
      'uid',
      'ownerReferences',
      'finalizers',
    ])
      delete meta[f];
  }
  const annotations = meta?.annotations as Record<string, string> | undefined;
  switch (out.kind) {
    case 'Deployment':
      if (annotations) {
        delete annotations['deployment.kubernetes.io/revision'];
        delete annotations['deployment.kubernetes.io/revision-history'];
      }
      break;
    case 'Job':
      if (out.spec && typeof out.spec === 'object') delete out.spec.ttlSecondsAfterFinished;
      if (out.spec?.manualSelector !== true) {
        const match = out.spec?.selector?.matchLabels as Record<string, string> | undefined;
        if (match) for (const k of ['controller-uid', 'batch.kubernetes.io/controller-uid']) delete match[k];
        const labels = out.spec?.template?.metadata?.labels as Record<string, string> | undefined;
        if (labels)
          for (const k of [
            'controller-uid',
            'job-name',
            'batch.kubernetes.io/controller-uid',
            'batch.kubernetes.io/job-name',
          ])
            delete labels[k];
      }
      break;
    case 'Service':
      if (out.spec && out.spec.clusterIP !== undefined && out.spec.clusterIP !== 'None') {
        delete out.spec.clusterIP;
        delete out.spec.clusterIPs;
      }
      break;
    case 'ServiceAccount':
      if (Array.isArray(out.secrets)) {
        const prefix = `${meta?.name}-token-`;
        out.secrets = out.secrets.filter((s: { name?: string }) => !s?.name?.startsWith(prefix));
      }
      break;
    case 'Secret':
      if (out.type === 'kubernetes.io/service-account-token') {
        if (annotations) delete annotations['kubernetes.io/service-account.uid'];
        out.data = null;
      }
      break;
    case 'PersistentVolumeClaim':
      if (annotations?.['volume.kubernetes.io/selected-node']) delete annotations['volume.kubernetes.io/selected-node'];
      break;
  }
  return out;
}

/**
 * What structuredClone gives for a parsed manifest (plain maps and lists of scalars, one copy for a part the YAML
 * shares through an alias), several times faster: it was a twentieth of a cold render's main thread, once per
 * template. Anything else (a Date, a class instance, an array with other properties) is left to structuredClone.
 */
function copyManifest(value: unknown, copies = new Map<object, unknown>()): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const known = copies.get(value);
  if (known !== undefined) return known;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (Array.isArray(value) && proto === Array.prototype) {
    const list = value as unknown[];
    const out = new Array<unknown>(list.length);
    copies.set(value, out);
    let own = 0;
    for (let i = 0; i < list.length; i++) {
      if (!Object.hasOwn(list, i)) continue; // a hole stays one
      out[i] = copyManifest(list[i], copies);
      own++;
    }
    if (Object.keys(list).length === own) return out;
  } else if (proto === Object.prototype || proto === null) {
    const out: Record<string, unknown> = {};
    copies.set(value, out);
    const map = value as Record<string, unknown>;
    for (const key of Object.keys(map)) {
      const copied = copyManifest(map[key], copies);
      // A `__proto__` key is data, as structuredClone (and the YAML reader) keeps it, not the prototype.
      if (key === '__proto__')
        Object.defineProperty(out, key, { value: copied, writable: true, enumerable: true, configurable: true });
      else out[key] = copied;
    }
    return out;
  }
  const cloned = structuredClone(value);
  copies.set(value, cloned);
  return cloned;
}
