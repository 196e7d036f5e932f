// What a pod spec names, as Karmada's helper/pod.go and lifted/visitpod.go find it: the native GetDependencies of
// workloads and the Lua kube.getPodDependencies both start here.

// biome-ignore lint/suspicious/noExplicitAny: walks an untyped pod spec by field name
type Node = Record<string, any>;

export interface PodReferences {
  configMaps: Set<string>;
  secrets: Set<string>;
  persistentVolumeClaims: Set<string>;
  /** Its ServiceAccount, unless `default`. */
  serviceAccounts: Set<string>;
}

/**
 * ConfigMaps and Secrets from env, envFrom and volumes (projected too, and the secretRefs of the volume plugins that
 * take one), imagePullSecrets, PVCs from volumes, the ServiceAccount unless `default`. Empty names are skipped, as
 * visitpod.go's skipEmptyNames does.
 */
export function podReferences(pod: Node): PodReferences {
  const out: PodReferences = {
    configMaps: new Set(),
    secrets: new Set(),
    persistentVolumeClaims: new Set(),
    serviceAccounts: new Set(),
  };
  const add = (into: Set<string>, name: unknown) => {
    if (typeof name === 'string' && name !== '') into.add(name);
  };
  const list = (value: unknown): Node[] => (Array.isArray(value) ? value : []);
  for (const v of list(pod.volumes)) {
    add(out.configMaps, v?.configMap?.name);
    add(out.secrets, v?.secret?.secretName);
    add(out.secrets, v?.azureFile?.secretName);
    for (const plugin of ['cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos'])
      add(out.secrets, v?.[plugin]?.secretRef?.name);
    add(out.secrets, v?.csi?.nodePublishSecretRef?.name);
    add(out.persistentVolumeClaims, v?.persistentVolumeClaim?.claimName);
    for (const s of list(v?.projected?.sources)) {
      add(out.configMaps, s?.configMap?.name);
      add(out.secrets, s?.secret?.name);
    }
  }
  for (const c of [...list(pod.initContainers), ...list(pod.containers), ...list(pod.ephemeralContainers)]) {
    for (const e of list(c?.env)) {
      add(out.configMaps, e?.valueFrom?.configMapKeyRef?.name);
      add(out.secrets, e?.valueFrom?.secretKeyRef?.name);
    }
    for (const e of list(c?.envFrom)) {
      add(out.configMaps, e?.configMapRef?.name);
      add(out.secrets, e?.secretRef?.name);
    }
  }
  for (const s of list(pod.imagePullSecrets)) add(out.secrets, s?.name);
  // The template is read as the API server stores it: v1 conversion fills an empty serviceAccountName from the
  // deprecated serviceAccount (Convert_v1_PodSpec_To_core_PodSpec), which Karmada then reads.
  const serviceAccount =
    typeof pod.serviceAccountName === 'string' && pod.serviceAccountName !== ''
      ? pod.serviceAccountName
      : pod.serviceAccount;
  if (serviceAccount !== 'default') add(out.serviceAccounts, serviceAccount);
  return out;
}
