// A deterministic fleet: resource templates (ConfigMap + Deployment + Service per app), Clusters with
// regions, zones and labels, PropagationPolicies selecting ~10-30% of the clusters, OverridePolicies for
// ~10% of the templates, and one status per cluster. Pure: the same size and seed give the same bytes.
import { stringify } from 'yaml';
import type { Cluster } from '../../src/api/cluster.ts';
import type {
  ClusterAffinity,
  OverridePolicy,
  PropagationPolicy,
  ReplicaSchedulingStrategy,
} from '../../src/api/policy.ts';
import { createRng, type Rng } from './prng.ts';
import { UNITS, unitEdit, unitFiles } from './fleetUnits.ts';

export type FleetSize = 'S' | 'M' | 'L' | 'XL';

export const FLEET_SIZES: Record<FleetSize, { templates: number; clusters: number }> = {
  S: { templates: 100, clusters: 10 },
  M: { templates: 2_000, clusters: 50 },
  L: { templates: 10_000, clusters: 100 },
  // Argo CD's largest published scale: 50k applications on 500 clusters.
  XL: { templates: 50_000, clusters: 500 },
};

/** One source file rewritten, for the incremental sync figures. */
export interface FileEdit {
  path: string;
  text: string;
  what: string;
}

export interface Fleet {
  /** Source repo path → YAML text, in path order. */
  files: Map<string, string>;
  /** Clusters with status, sorted by name: what the scheduler sees when capacity is known. */
  clusters: Cluster[];
  /** `--cluster-status` stream: every Cluster with status.resourceSummary and a Ready condition. */
  clusterStatus: string;
  edits: { template: FileEdit; policy: FileEdit; cluster: FileEdit; override: FileEdit; unit: FileEdit };
  counts: {
    templates: number;
    clusters: number;
    propagationPolicies: number;
    overridePolicies: number;
    namespaces: number;
    /** Helm charts and Kustomize folders, rendered by the pinned tools. */
    units: number;
  };
}

const PROVIDERS: Record<string, string[]> = {
  aws: ['us-east-1', 'us-west-2', 'eu-west-1', 'ap-southeast-1'],
  gcp: ['us-central1', 'europe-west4', 'asia-northeast1'],
  azure: ['eastus', 'westeurope'],
};
const REGIONS = Object.values(PROVIDERS).flat();
const ENVIRONMENTS = ['prod', 'prod', 'prod', 'prod', 'prod', 'staging', 'staging', 'staging', 'dev', 'dev'];
const TIERS = ['gold', 'silver', 'bronze'];
const POOLS = ['pool-a', 'pool-b', 'pool-c', 'pool-d'];
const SHARDS = 10;
const APPS_PER_NAMESPACE = 10;
const API_ENABLEMENTS = [
  {
    groupVersion: 'v1',
    resources: ['ConfigMap', 'Namespace', 'Pod', 'Secret', 'Service', 'ServiceAccount'].map((kind) => ({
      name: `${kind.toLowerCase()}s`,
      kind,
    })),
  },
  {
    groupVersion: 'apps/v1',
    resources: ['DaemonSet', 'Deployment', 'ReplicaSet', 'StatefulSet'].map((kind) => ({
      name: `${kind.toLowerCase()}s`,
      kind,
    })),
  },
  {
    groupVersion: 'batch/v1',
    resources: [
      { name: 'jobs', kind: 'Job' },
      { name: 'cronjobs', kind: 'CronJob' },
    ],
  },
];
const yamlOptions = { lineWidth: 0, aliasDuplicateObjects: false } as const;

export function generateFleet(size: FleetSize, seed = 'flotilla-bench', withUnits = true): Fleet {
  const { templates, clusters: clusterCount } = FLEET_SIZES[size];
  const rng = createRng(`${seed}/${size}`);
  const files = new Map<string, string>();

  const clusters = Array.from({ length: clusterCount }, (_, i) => buildCluster(rng, i));
  for (const c of clusters) files.set(clusterPath(c), stringify(withoutStatus(c), yamlOptions));

  const apps = Math.ceil(templates / 3);
  const namespaces = Math.ceil(apps / APPS_PER_NAMESPACE);
  const deployments: { app: string; ns: string }[] = [];
  for (let j = 0; j < templates; j++) {
    const a = Math.floor(j / 3);
    const ns = namespaceOf(a);
    const app = `app-${String(a).padStart(5, '0')}`;
    const base = `templates/${ns}/${app}`;
    const appRng = createRng(`${seed}/${size}/${app}`);
    const tier = appRng.pick(['frontend', 'backend', 'worker']);
    switch (j % 3) {
      case 0:
        files.set(`${base}/configmap.yaml`, stringify(buildConfigMap(appRng, app, ns, tier), yamlOptions));
        break;
      case 1:
        files.set(`${base}/deployment.yaml`, stringify(buildDeployment(appRng, app, ns, tier, 'v1'), yamlOptions));
        deployments.push({ app, ns });
        break;
      default:
        files.set(`${base}/service.yaml`, stringify(buildService(app, ns, tier), yamlOptions));
    }
  }

  let propagationPolicies = 0;
  for (let n = 0; n < namespaces; n++) {
    const ns = `team-${String(n).padStart(4, '0')}`;
    files.set(`policies/${ns}/propagation.yaml`, stringify(namespacePolicy(rng, ns, clusters), yamlOptions));
    propagationPolicies++;
  }
  // ~8% of the apps are pinned by a higher-priority policy of their own.
  for (const d of deployments) {
    if (!rng.chance(0.08)) continue;
    files.set(
      `policies/${d.ns}/${d.app}-propagation.yaml`,
      stringify(appPolicy(rng, d.app, d.ns, clusters), yamlOptions),
    );
    propagationPolicies++;
  }
  const overridden = rng.sample(deployments, Math.min(deployments.length, Math.round(templates * 0.1)));
  for (const d of overridden)
    files.set(
      `policies/${d.ns}/${d.app}-override.yaml`,
      stringify(overridePolicy(rng, d.app, d.ns, clusters), yamlOptions),
    );

  // Helm and Kustomize units spread over the team namespaces, each namespace's policy selecting their objects.
  const unitNamespaces = Array.from(
    { length: withUnits ? UNITS[size] : 0 },
    (_, i) => `team-${String(i % namespaces).padStart(4, '0')}`,
  );
  unitNamespaces.forEach((ns, i) => {
    for (const [p, text] of unitFiles(i, ns)) files.set(p, text);
  });

  const clusterStatus = clusters.map((c) => stringify(c, yamlOptions)).join('---\n');
  const sorted = new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return {
    files: sorted,
    clusters: [...clusters].sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1)),
    clusterStatus,
    edits: { ...buildEdits(sorted, clusters, deployments, overridden, seed), unit: unitEdit(unitNamespaces[0]!) },
    counts: {
      templates,
      clusters: clusterCount,
      propagationPolicies,
      overridePolicies: overridden.length,
      namespaces,
      units: unitNamespaces.length,
    },
  };
}

function namespaceOf(app: number): string {
  return `team-${String(Math.floor(app / APPS_PER_NAMESPACE)).padStart(4, '0')}`;
}

function clusterPath(c: Cluster): string {
  return `clusters/${c.metadata.name}.yaml`;
}

function withoutStatus(c: Cluster): Cluster {
  const { status: _status, ...rest } = c;
  return rest;
}

function buildCluster(rng: Rng, i: number): Cluster {
  const provider = rng.pick(['aws', 'aws', 'aws', 'gcp', 'gcp', 'azure']);
  const region = rng.pick(PROVIDERS[provider]!);
  const suffixes = provider === 'aws' ? ['a', 'b', 'c'] : provider === 'gcp' ? ['-a', '-b', '-c'] : ['-1', '-2', '-3'];
  const zones = rng
    .sample(suffixes, rng.int(1, 3))
    .sort()
    .map((s) => `${region}${s}`);
  const cpu = rng.pick([64, 128, 256, 512]);
  const memoryGi = cpu * rng.pick([4, 8]);
  const pods = rng.int(11, 55) * 100;
  const used = 0.2 + rng.next() * 0.5;
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: {
      name: `member-${String(i + 1).padStart(3, '0')}`,
      labels: {
        environment: rng.pick(ENVIRONMENTS),
        tier: rng.pick(TIERS),
        pool: rng.pick(POOLS),
        shard: `s${i % SHARDS}`,
        gpu: rng.chance(0.15) ? 'true' : 'false',
        'topology.flotilla.io/provider': provider,
      },
    },
    spec: {
      syncMode: 'Push',
      apiEndpoint: `https://member-${i + 1}.${region}.example.com:6443`,
      provider,
      region,
      zones,
    },
    status: {
      kubernetesVersion: 'v1.32.4',
      apiEnablements: API_ENABLEMENTS,
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'ClusterReady',
          message: 'cluster is healthy and ready to accept workloads',
        },
        {
          type: 'CompleteAPIEnablements',
          status: 'True',
          reason: 'CompleteAPIEnablements',
          message: 'collected complete APIs from the cluster',
        },
      ],
      resourceSummary: {
        allocatable: { cpu: String(cpu), memory: `${memoryGi}Gi`, pods: String(pods) },
        allocated: {
          cpu: `${Math.round(cpu * used * 1000)}m`,
          memory: `${Math.round(memoryGi * used)}Gi`,
          pods: String(Math.round(pods * used)),
        },
      },
    },
  };
}

function buildConfigMap(rng: Rng, app: string, ns: string, tier: string): Record<string, unknown> {
  const data: Record<string, string> = { 'log-level': rng.pick(['info', 'debug', 'warn']), 'listen-port': '8080' };
  for (let k = rng.int(3, 12); k > 0; k--)
    data[`feature-${rng.int(100, 999)}`] = rng.pick(['enabled', 'disabled', String(rng.int(1, 5000))]);
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `${app}-config`, namespace: ns, labels: appLabels(app, ns, tier) },
    data,
  };
}

function buildDeployment(rng: Rng, app: string, ns: string, tier: string, tag: string): Record<string, unknown> {
  const cpu = rng.pick([100, 250, 500, 1000, 2000]);
  const memory = rng.pick([128, 256, 512, 1024, 2048, 4096]);
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: app, namespace: ns, labels: appLabels(app, ns, tier) },
    spec: {
      replicas: rng.int(1, 12),
      selector: { matchLabels: { 'app.kubernetes.io/name': app } },
      template: {
        metadata: { labels: { 'app.kubernetes.io/name': app, 'app.kubernetes.io/part-of': ns } },
        spec: {
          containers: [
            {
              name: app,
              image: `registry.example.com/${ns}/${app}:${tag}.${rng.int(0, 20)}.${rng.int(0, 99)}`,
              ports: [{ name: 'http', containerPort: 8080 }],
              envFrom: [{ configMapRef: { name: `${app}-config` } }],
              env: [
                { name: 'LOG_LEVEL', valueFrom: { configMapKeyRef: { name: `${app}-config`, key: 'log-level' } } },
                { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
              ],
              resources: {
                requests: { cpu: `${cpu}m`, memory: `${memory}Mi` },
                limits: { cpu: `${cpu * 2}m`, memory: `${memory * 2}Mi` },
              },
              readinessProbe: { httpGet: { path: '/healthz', port: 'http' }, periodSeconds: 10 },
            },
          ],
        },
      },
    },
  };
}

function buildService(app: string, ns: string, tier: string): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: app, namespace: ns, labels: appLabels(app, ns, tier) },
    spec: {
      type: 'ClusterIP',
      selector: { 'app.kubernetes.io/name': app },
      ports: [{ name: 'http', port: 80, targetPort: 'http' }],
    },
  };
}

function appLabels(app: string, ns: string, tier: string): Record<string, string> {
  return { 'app.kubernetes.io/name': app, 'app.kubernetes.io/part-of': ns, 'app.kubernetes.io/component': tier };
}

function namespacePolicy(rng: Rng, ns: string, clusters: readonly Cluster[]): PropagationPolicy {
  const selector = { matchLabels: { 'app.kubernetes.io/part-of': ns } };
  return {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name: `${ns}-apps`, namespace: ns },
    spec: {
      resourceSelectors: [
        { apiVersion: 'apps/v1', kind: 'Deployment', labelSelector: selector },
        { apiVersion: 'v1', kind: 'Service', labelSelector: selector },
      ],
      propagateDeps: true,
      placement: placementFor(rng, clusters),
    },
  };
}

function appPolicy(rng: Rng, app: string, ns: string, clusters: readonly Cluster[]): PropagationPolicy {
  return {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name: `${app}-pinned`, namespace: ns },
    spec: {
      resourceSelectors: [
        { apiVersion: 'apps/v1', kind: 'Deployment', name: app },
        { apiVersion: 'v1', kind: 'Service', name: app },
      ],
      priority: 10,
      propagateDeps: true,
      placement: placementFor(rng, clusters),
    },
  };
}

function placementFor(rng: Rng, clusters: readonly Cluster[]): PropagationPolicy['spec']['placement'] {
  const { affinity, selected } = chooseAffinity(rng, clusters);
  const roll = rng.next();
  let replicaScheduling: ReplicaSchedulingStrategy;
  if (roll < 0.4) replicaScheduling = { replicaSchedulingType: 'Duplicated' };
  else if (roll < 0.7) {
    const byName = selected.length <= 4;
    const groups = byName
      ? selected.map((c) => [c.metadata.name])
      : [...new Set(selected.map((c) => c.spec.region!))].sort().map((r) => [r]);
    replicaScheduling = {
      replicaSchedulingType: 'Divided',
      replicaDivisionPreference: 'Weighted',
      weightPreference: {
        staticWeightList: groups.map(([value]) => ({
          targetCluster: byName
            ? { clusterNames: [value!] }
            : { fieldSelector: { matchExpressions: [{ key: 'region', operator: 'In', values: [value!] }] } },
          weight: rng.int(1, 4),
        })),
      },
    };
  } else {
    replicaScheduling = {
      replicaSchedulingType: 'Divided',
      replicaDivisionPreference: 'Weighted',
      weightPreference: { dynamicWeight: 'AvailableReplicas' },
    };
  }
  return { clusterAffinity: affinity, replicaScheduling };
}

/** A label + field selector matching 10-30% of the clusters (at least one). */
function chooseAffinity(rng: Rng, clusters: readonly Cluster[]): { affinity: ClusterAffinity; selected: Cluster[] } {
  const lo = Math.max(1, Math.ceil(clusters.length * 0.1));
  const hi = Math.max(lo, Math.floor(clusters.length * 0.3));
  for (let attempt = 0; attempt < 200; attempt++) {
    const affinity: ClusterAffinity = {};
    const label = rng.int(0, 3);
    if (label === 0) affinity.labelSelector = { matchLabels: { environment: rng.pick(['prod', 'staging', 'dev']) } };
    else if (label === 1)
      affinity.labelSelector = {
        matchExpressions: [{ key: 'tier', operator: 'In', values: rng.sample(TIERS, rng.int(1, 2)).sort() }],
      };
    else if (label === 2)
      affinity.labelSelector = {
        matchLabels: { environment: 'prod' },
        matchExpressions: [{ key: 'pool', operator: 'In', values: rng.sample(POOLS, rng.int(1, 3)).sort() }],
      };
    const field = rng.int(0, 2);
    if (field === 0)
      affinity.fieldSelector = {
        matchExpressions: [{ key: 'region', operator: 'In', values: rng.sample(REGIONS, rng.int(2, 5)).sort() }],
      };
    else if (field === 1)
      affinity.fieldSelector = {
        matchExpressions: [{ key: 'provider', operator: 'In', values: [rng.pick(Object.keys(PROVIDERS))] }],
      };
    if (!affinity.labelSelector && !affinity.fieldSelector) continue;
    const selected = clusters.filter((c) => matches(affinity, c));
    if (selected.length >= lo && selected.length <= hi) return { affinity, selected };
  }
  const shards = rng
    .sample(
      Array.from({ length: SHARDS }, (_, i) => `s${i}`),
      2,
    )
    .sort();
  const affinity: ClusterAffinity = {
    labelSelector: { matchExpressions: [{ key: 'shard', operator: 'In', values: shards }] },
  };
  return { affinity, selected: clusters.filter((c) => matches(affinity, c)) };
}

/** Just the selector forms generated above (the real matcher is src/selectors). */
function matches(a: ClusterAffinity, c: Cluster): boolean {
  const labels = c.metadata.labels ?? {};
  for (const [k, v] of Object.entries(a.labelSelector?.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of a.labelSelector?.matchExpressions ?? [])
    if (!(e.values ?? []).includes(labels[e.key] ?? '\0')) return false;
  for (const e of a.fieldSelector?.matchExpressions ?? []) {
    const value = e.key === 'region' ? c.spec.region : e.key === 'provider' ? c.spec.provider : undefined;
    if (!(e.values ?? []).includes(value ?? '\0')) return false;
  }
  return true;
}

function overridePolicy(rng: Rng, app: string, ns: string, clusters: readonly Cluster[]): OverridePolicy {
  const region = rng.pick(clusters).spec.region!;
  return {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'OverridePolicy',
    metadata: { name: `${app}-overrides`, namespace: ns },
    spec: {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: app }],
      overrideRules: [
        {
          targetCluster: { fieldSelector: { matchExpressions: [{ key: 'region', operator: 'In', values: [region] }] } },
          overriders: {
            imageOverrider: [{ component: 'Registry', operator: 'replace', value: `registry.${region}.example.com` }],
          },
        },
        {
          targetCluster: { labelSelector: { matchLabels: { environment: 'prod' } } },
          overriders: {
            labelsOverrider: [
              {
                operator: 'add',
                value: { 'flotilla.io/overridden': 'prod', 'cost-center': `cc-${rng.int(100, 999)}` },
              },
            ],
          },
        },
      ],
    },
  };
}

/**
 * A new image tag on one Deployment, a new placement for one namespace policy, new labels on one cluster, another
 * registry and cost center in one OverridePolicy.
 */
function buildEdits(
  files: ReadonlyMap<string, string>,
  clusters: readonly Cluster[],
  deployments: readonly { app: string; ns: string }[],
  overridden: readonly { app: string; ns: string }[],
  seed: string,
): Omit<Fleet['edits'], 'unit'> {
  const d = deployments[Math.floor(deployments.length / 2)]!;
  const templatePath = `templates/${d.ns}/${d.app}/deployment.yaml`;
  const templateText = files.get(templatePath)!.replace(/(image: \S+):\S+/, '$1:v2.0.0-bench');

  const policyPath = `policies/${d.ns}/propagation.yaml`;
  const editRng = createRng(`${seed}/edit`);
  let policyText = files.get(policyPath)!;
  for (let i = 0; i < 20 && policyText === files.get(policyPath); i++)
    policyText = stringify(namespacePolicy(editRng, d.ns, clusters), yamlOptions);

  const c = clusters[Math.floor(clusters.length / 2)]!;
  const env = c.metadata.labels!.environment === 'prod' ? 'staging' : 'prod';
  const edited: Cluster = {
    ...withoutStatus(c),
    metadata: { ...c.metadata, labels: { ...c.metadata.labels, environment: env, pool: 'pool-z' } },
  };
  // The override of one Deployment: its registry (the clusters of one region) and its cost center (prod clusters).
  const o = overridden[Math.floor(overridden.length / 2)]!;
  const overridePath = `policies/${o.ns}/${o.app}-override.yaml`;
  const overrideText = files
    .get(overridePath)!
    .replace(/value: registry\.(\S+)\.example\.com/, 'value: mirror.$1.example.com')
    .replace(/cost-center: cc-\d+/, 'cost-center: cc-000');
  return {
    template: { path: templatePath, text: templateText, what: `image tag of Deployment ${d.ns}/${d.app}` },
    override: {
      path: overridePath,
      text: overrideText,
      what: `registry and cost center of OverridePolicy ${o.ns}/${o.app}-overrides`,
    },
    policy: { path: policyPath, text: policyText, what: `placement of PropagationPolicy ${d.ns}/${d.ns}-apps` },
    cluster: {
      path: clusterPath(c),
      text: stringify(edited, yamlOptions),
      what: `labels of Cluster ${c.metadata.name} (environment=${env}, pool=pool-z)`,
    },
  };
}
