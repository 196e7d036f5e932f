import type { KindInterpreter } from './customizations.ts';
import type { ObjectRef } from '../api/kinds.ts';
import { customDependencies } from './customizations.ts';
import { podSpecOf } from './podTemplate.ts';
import { podDependencies } from './podDependencies.ts';
import { derivedServiceName } from '../names/serviceImportNames.ts';

// biome-ignore lint/suspicious/noExplicitAny: walks an untyped Kubernetes manifest by field name
type Obj = Record<string, any>;

/**
 * Karmada's native GetDependencies (default/native/dependencies.go), all in the object's namespace:
 * - workloads (Pod, Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob): what the pod template references
 *   (podReferences.ts); a StatefulSet's PVCs named like one of its volumeClaimTemplates are left out;
 * - Ingress: the Secrets its spec.tls entries name.
 * - ServiceImport: the Service `derived-<name>` (getServiceImportDependencies). Karmada's second dependency, the
 *   EndpointSlices labelled kubernetes.io/service-name=derived-<name>, exists on no branch: the applier derives those
 *   slices from the status branch for the clusters the ServiceImport goes to (deriveImportedServices.ts).
 * A declared dependencyInterpretation hook replaces all of it. The order is Karmada's, as the binding's
 * dependencies annotation records it.
 */
/** The annotation a propagateDeps binding records its dependencies in (Karmada's DependenciesAnnotationKey). */
export const DEPENDENCIES_ANNOTATION = 'resourcebinding.karmada.io/dependencies';

/** The kinds Karmada's native interpreter reads dependencies of (default/native/dependencies.go). */
const NATIVE_DEPENDENCY_KINDS = new Set([
  'apps/v1/Deployment',
  'apps/v1/ReplicaSet',
  'batch/v1/Job',
  'batch/v1/CronJob',
  'v1/Pod',
  'apps/v1/DaemonSet',
  'apps/v1/StatefulSet',
  'networking.k8s.io/v1/Ingress',
  'multicluster.x-k8s.io/v1alpha1/ServiceImport',
]);

/** Whether dependencies of the kind are interpreted at all (Karmada's HookEnabled for InterpretDependency). */
export function hasDependencyHook(apiVersion: string, kind: string, custom?: KindInterpreter): boolean {
  return (
    custom?.lua?.dependencyInterpretation !== undefined ||
    custom?.dependencyInterpretation !== undefined ||
    custom?.thirdParty?.getDependencies !== undefined ||
    NATIVE_DEPENDENCY_KINDS.has(`${apiVersion}/${kind}`)
  );
}

export function interpretDependencies(
  manifest: Record<string, unknown>,
  namespace: string,
  custom?: KindInterpreter,
): ObjectRef[] {
  const declared = custom ? customDependencies(custom, manifest, namespace) : undefined;
  if (declared) return declared;
  const secret = (name: string): ObjectRef => ({ apiVersion: 'v1', kind: 'Secret', namespace, name });
  if (`${manifest.apiVersion}/${manifest.kind}` === 'multicluster.x-k8s.io/v1alpha1/ServiceImport') {
    const name = (manifest.metadata as Obj | undefined)?.name;
    return typeof name === 'string' && name
      ? [{ apiVersion: 'v1', kind: 'Service', namespace, name: derivedServiceName(name) }]
      : [];
  }
  if (`${manifest.apiVersion}/${manifest.kind}` === 'networking.k8s.io/v1/Ingress') {
    // getIngressDependencies lists spec.tls as written, a Secret named twice twice. Karmada fails the whole
    // interpretation on a TLS entry without secretName (VerifyDependencies); such an entry uses the controller's
    // default certificate, so Flotilla skips it and keeps the others.
    const tls = ((manifest.spec as Obj | undefined)?.tls ?? []) as Obj[];
    return tls.flatMap((t) => (typeof t?.secretName === 'string' && t.secretName !== '' ? [secret(t.secretName)] : []));
  }
  const pod = podSpecOf(manifest) as Obj | undefined;
  if (!pod) return [];
  // GetDependenciesFromPodTemplate's order: ConfigMaps, Secrets, the ServiceAccount, PVCs.
  const found = podDependencies(pod, namespace).map((d) => ({ ...d, namespace }));
  if (manifest.kind !== 'StatefulSet') return found;
  // Karmada compares the claim name (not the volume name) with the templates' names.
  const templates = new Set(
    (((manifest.spec as Obj | undefined)?.volumeClaimTemplates ?? []) as Obj[]).map((t) => t?.metadata?.name),
  );
  return found.filter((d) => d.kind !== 'PersistentVolumeClaim' || !templates.has(d.name));
}
