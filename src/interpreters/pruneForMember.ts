import { cloneParsedValue } from '../patches/cloneParsedValue.ts';

/**
 * Fields Karmada removes before a manifest goes to a member (default/native/prune/prune.go): what the
 * API server populates, status, and member-specific fields per kind; and a Job's ttlSecondsAfterFinished, which
 * every Work drops (ctrlutil/work.go runs RemoveJobTTLSeconds) so that a member does not delete a finished Job the
 * control plane still propagates. Returns a new object.
 */
export function pruneForMember(manifest: Record<string, unknown>): Record<string, unknown> {
  // biome-ignore lint/suspicious/noExplicitAny: walks an untyped Kubernetes manifest by field name
  const out = cloneParsedValue(manifest) as Record<string, any>;
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
      // Karmada reads clusterIP with NestedString, which finds nothing in a null (or any non-string): then both stay.
      if (typeof out.spec?.clusterIP === 'string' && out.spec.clusterIP !== 'None') {
        delete out.spec.clusterIP;
        delete out.spec.clusterIPs;
      }
      break;
    case 'ServiceAccount':
      if (Array.isArray(out.secrets)) {
        const prefix = `${meta?.name}-token-`;
        // Karmada's loop moves on after removing an entry, so the one that slid into its place is not looked at:
        // of two token secrets in a row, the second stays (prune.go removeServiceAccountIrrelevantField).
        const secrets = [...out.secrets];
        for (let i = 0; i < secrets.length; i++) if (secrets[i]?.name?.startsWith(prefix)) secrets.splice(i, 1);
        out.secrets = secrets;
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
