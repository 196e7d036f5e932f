// Which kinds Karmada's resource interpreter judges the health of (HookEnabled for InterpretHealth): the native
// interpreter's kinds (pkg/resourceinterpreter/default/native/healthy.go, keyed by apiVersion and kind) and any kind a
// customization gives a health rule. Karmada's application failover acts only on these.
import type { KindInterpreter } from './customizations.ts';

const NATIVE_HEALTH_KINDS: ReadonlySet<string> = new Set([
  'apps/v1/Deployment',
  'apps/v1/StatefulSet',
  'apps/v1/ReplicaSet',
  'apps/v1/DaemonSet',
  'v1/Service',
  'networking.k8s.io/v1/Ingress',
  'v1/PersistentVolumeClaim',
  'v1/Pod',
  'policy/v1/PodDisruptionBudget',
]);

export function interpretsHealth(
  obj: { apiVersion?: unknown; kind?: unknown },
  custom: KindInterpreter | undefined,
): boolean {
  return (
    custom?.healthInterpretation?.rules !== undefined ||
    custom?.lua?.healthInterpretation !== undefined ||
    custom?.thirdParty?.interpretHealth !== undefined ||
    NATIVE_HEALTH_KINDS.has(`${String(obj.apiVersion)}/${String(obj.kind)}`)
  );
}
