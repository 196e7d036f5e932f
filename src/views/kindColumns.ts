type Obj = Record<string, unknown>;

/** kubectl's columns for one kind, between NAME and AGE; `wide` ones come after AGE with -o wide. */
export interface KindColumns {
  headers: string[];
  cells: (manifest: Obj, status: Obj | undefined) => string[];
  wideHeaders: string[];
  wideCells: (manifest: Obj, status: Obj | undefined) => string[];
}

const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const get = (o: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((acc, k) => (acc && typeof acc === 'object' ? (acc as Obj)[k] : undefined), o);

function containers(m: Obj): { names: string; images: string } {
  const list = (get(m, 'spec', 'template', 'spec', 'containers') ??
    get(m, 'spec', 'jobTemplate', 'spec', 'template', 'spec', 'containers') ??
    []) as { name?: string; image?: string }[];
  return {
    names: list.map((c) => c.name ?? '').join(',') || '<none>',
    images: list.map((c) => c.image ?? '').join(',') || '<none>',
  };
}

function selector(m: Obj): string {
  const labels = get(m, 'spec', 'selector', 'matchLabels') as Record<string, string> | undefined;
  return labels && Object.keys(labels).length
    ? Object.entries(labels)
        .map(([k, v]) => `${k}=${v}`)
        .join(',')
    : '<none>';
}

const NONE: KindColumns = { headers: [], cells: () => [], wideHeaders: [], wideCells: () => [] };

/** The printer columns kubectl shows for the kinds templates usually are; other kinds get NAME AGE only. Pure. */
export function kindColumns(kind: string): KindColumns {
  switch (kind) {
    case 'Deployment':
      return {
        headers: ['READY', 'UP-TO-DATE', 'AVAILABLE'],
        cells: (m, s) => [
          `${num(s?.readyReplicas)}/${typeof get(m, 'spec', 'replicas') === 'number' ? get(m, 'spec', 'replicas') : 1}`,
          String(num(s?.updatedReplicas)),
          String(num(s?.availableReplicas)),
        ],
        wideHeaders: ['CONTAINERS', 'IMAGES', 'SELECTOR'],
        wideCells: (m) => [containers(m).names, containers(m).images, selector(m)],
      };
    case 'StatefulSet':
      return {
        headers: ['READY'],
        cells: (m, s) => [
          `${num(s?.readyReplicas)}/${typeof get(m, 'spec', 'replicas') === 'number' ? get(m, 'spec', 'replicas') : 1}`,
        ],
        wideHeaders: ['CONTAINERS', 'IMAGES'],
        wideCells: (m) => [containers(m).names, containers(m).images],
      };
    case 'DaemonSet':
      return {
        headers: ['DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'NODE SELECTOR'],
        cells: (m, s) => {
          const ns = get(m, 'spec', 'template', 'spec', 'nodeSelector') as Record<string, string> | undefined;
          return [
            s?.desiredNumberScheduled,
            s?.currentNumberScheduled,
            s?.numberReady,
            s?.updatedNumberScheduled,
            s?.numberAvailable,
          ]
            .map((v) => String(num(v)))
            .concat(
              ns && Object.keys(ns).length
                ? Object.entries(ns)
                    .map(([k, v]) => `${k}=${v}`)
                    .join(',')
                : '<none>',
            );
        },
        wideHeaders: ['CONTAINERS', 'IMAGES', 'SELECTOR'],
        wideCells: (m) => [containers(m).names, containers(m).images, selector(m)],
      };
    case 'Job':
      return {
        headers: ['COMPLETIONS'],
        cells: (m, s) => [
          `${num(s?.succeeded)}/${typeof get(m, 'spec', 'completions') === 'number' ? get(m, 'spec', 'completions') : 1}`,
        ],
        wideHeaders: ['CONTAINERS', 'IMAGES'],
        wideCells: (m) => [containers(m).names, containers(m).images],
      };
    case 'Service':
      return {
        headers: ['TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)'],
        cells: (m, s) => {
          const ports = ((get(m, 'spec', 'ports') ?? []) as { port?: number; protocol?: string; nodePort?: number }[])
            .map((p) => `${p.port ?? ''}${p.nodePort ? `:${p.nodePort}` : ''}/${p.protocol ?? 'TCP'}`)
            .join(',');
          const ingress = ((get(s, 'loadBalancer', 'ingress') ?? []) as { ip?: string; hostname?: string }[])
            .map((i) => i.ip ?? i.hostname ?? '')
            .filter(Boolean);
          const type = (get(m, 'spec', 'type') as string | undefined) ?? 'ClusterIP';
          return [
            type,
            (get(m, 'spec', 'clusterIP') as string | undefined) ?? '<none>',
            ingress.join(',') || (type === 'LoadBalancer' ? '<pending>' : '<none>'),
            ports || '<none>',
          ];
        },
        wideHeaders: ['SELECTOR'],
        wideCells: (m) => {
          const sel = get(m, 'spec', 'selector') as Record<string, string> | undefined;
          return [
            sel && Object.keys(sel).length
              ? Object.entries(sel)
                  .map(([k, v]) => `${k}=${v}`)
                  .join(',')
              : '<none>',
          ];
        },
      };
    case 'ConfigMap':
      return {
        ...NONE,
        headers: ['DATA'],
        cells: (m) => [
          String(Object.keys((m.data ?? {}) as Obj).length + Object.keys((m.binaryData ?? {}) as Obj).length),
        ],
      };
    case 'Secret':
      return {
        ...NONE,
        headers: ['TYPE', 'DATA'],
        cells: (m) => [
          (m.type as string | undefined) ?? 'Opaque',
          String(Object.keys({ ...((m.data ?? {}) as Obj), ...((m.stringData ?? {}) as Obj) }).length),
        ],
      };
    case 'CronFederatedHPA':
      // Karmada's printer columns (pkg/apis/autoscaling/v1alpha1/cronfederatedhpa_types.go); a FederatedHPA has its
      // own view (federatedHpaViews.ts).
      return {
        ...NONE,
        headers: ['REFERENCE-KIND', 'REFERENCE-NAME'],
        cells: (m) => [
          String(get(m, 'spec', 'scaleTargetRef', 'kind') ?? '<none>'),
          String(get(m, 'spec', 'scaleTargetRef', 'name') ?? '<none>'),
        ],
      };
    case 'Namespace':
      return { ...NONE, headers: ['STATUS'], cells: () => ['Active'] };
    default:
      return NONE;
  }
}
