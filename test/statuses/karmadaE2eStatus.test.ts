// Karmada's resource status collection end-to-end scenarios (test/e2e/suites/base/resource_test.go), the Git way:
// a template and a PropagationPolicy naming every member are rendered (renderTemplates, the pure core of a render),
// each member runs what the rendered branch gives it and shows the status its controllers would (written inline
// here: a Kind member with one schedulable node), and the status branch's builder (buildStatusFiles, as the status
// pass runs it with the rendered binding's clusters as targets) gives the template's aggregated status, which is what
// Karmada's e2e reads from the template in karmada-apiserver.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import type { ObjectRef } from '../../src/api/kinds.ts';
import type { Template } from '../../src/api/model.ts';
import { templateStatusPath } from '../../src/branches/status/statusFiles.ts';
import type { ClusterDelivery } from '../../src/deliveries/applyRendered.ts';
import type { ApplyResult } from '../../src/deliveries/types.ts';
import { buildStatusFiles, type ClusterReport } from '../../src/statuses/buildStatusFiles.ts';
import { renderTemplates } from '../../src/works/renderTemplates.ts';
import { coldRenderInput, memberCluster, modelOf, propagationPolicy, templateOf } from '../helpers/inMemoryModel.ts';

type Obj = Record<string, any>;
const MEMBERS = ['member1', 'member2', 'member3'];
const NOW = new Date('2026-01-02T03:04:05Z');

const refOf = (t: Template): ObjectRef => t.ref;

/** Render `templates` under one PropagationPolicy selecting each of them and placing them on `clusters`. */
async function render(templates: Template[], clusters: readonly string[] = MEMBERS, placement: Obj = {}) {
  const model = modelOf({
    templates,
    policies: [
      propagationPolicy('status', {
        resourceSelectors: templates.map((t) => ({ apiVersion: t.ref.apiVersion, kind: t.ref.kind, name: t.ref.name })),
        placement: { clusterAffinity: { clusterNames: [...clusters] }, ...placement },
      }),
    ],
    clusters: MEMBERS.map((m) => memberCluster(m)),
  });
  const out = await renderTemplates(coldRenderInput(model));
  assert.equal(out.problems, []);
  const texts = new Map([...out.edits].filter((e): e is [string, string] => typeof e[1] === 'string'));
  /** The manifest the rendered branch gives `cluster` for `ref`, if any. */
  const manifest = (cluster: string, ref: ObjectRef): Obj | undefined => {
    for (const [path, text] of texts) {
      if (!path.startsWith(`clusters/${cluster}/`)) continue;
      const m = parse(text) as Obj;
      if (m.kind === ref.kind && m.metadata?.name === ref.name) return m;
    }
    return undefined;
  };
  /** The clusters the template's binding targets (its spec.clusters), as the status pass reads them. */
  const targets = (ref: ObjectRef): Set<string> => {
    for (const [path, text] of texts) {
      if (!path.startsWith('bindings/')) continue;
      const b = parse(text) as Obj;
      if (b.spec?.resource?.kind === ref.kind && b.spec?.resource?.name === ref.name)
        return new Set((b.spec.clusters ?? []).map((c: { name: string }) => c.name));
    }
    return new Set();
  };
  return { manifest, targets };
}
type Rendered = Awaited<ReturnType<typeof render>>;

/** What a member shows for an object it runs: the rendered manifest with the status its controllers set. */
type MemberStatus = (cluster: string, manifest: Obj, index: number, rendered: Rendered) => Obj | undefined;

const delivery = (cluster: string, results: ApplyResult[], previous: ObjectRef[]): ClusterReport => ({
  cluster,
  delivery: {
    cluster,
    results,
    inventory: results.filter((r) => !r.prune).map((r) => r.ref),
    previousInventory: previous,
    writes: 0,
    notes: [],
    durationMs: 0,
  } satisfies ClusterDelivery,
});

/**
 * One apply-and-status pass over every member: each member gets what `rendered` gives it (or loses what it no
 * longer does), shows `status` for it, and the status branch (`branch`, updated in place) is rebuilt from that.
 */
function pass(branch: Map<string, string>, rendered: Rendered, refs: ObjectRef[], status: MemberStatus) {
  const reports = MEMBERS.map((cluster, index) => {
    const results: ApplyResult[] = [];
    const previous: ObjectRef[] = [];
    for (const ref of refs) {
      const had = branch.get(templateStatusPath(ref));
      const wasThere =
        had !== undefined &&
        (parse(had).aggregatedStatus ?? []).some((i: { clusterName: string }) => i.clusterName === cluster);
      if (wasThere) previous.push(ref);
      const m = rendered.manifest(cluster, ref);
      if (m) {
        const live = { ...m, metadata: { ...m.metadata, generation: 1 } };
        const s = status(cluster, live, index, rendered);
        results.push({
          ref,
          action: wasThere ? 'configured' : 'created',
          message: 'applied',
          live: s ? { ...live, status: s } : live,
        });
      } else if (wasThere) results.push({ ref, prune: true, action: 'pruned', message: 'deleted' });
    }
    return delivery(cluster, results, previous);
  });
  for (const [path, text] of buildStatusFiles(branch, reports, NOW, undefined, undefined, rendered.targets)) {
    if (text === null) branch.delete(path);
    else branch.set(path, text);
  }
}

const statusFile = (branch: Map<string, string>, ref: ObjectRef): Obj => {
  const text = branch.get(templateStatusPath(ref));
  assert.ok(text, `a status file for ${ref.kind} ${ref.name}`);
  return parse(text!) as Obj;
};
const health = (file: Obj) => file.aggregatedStatus.map((i: Obj) => [i.clusterName, i.health]);
const allHealthy = MEMBERS.map((m) => [m, 'Healthy']);
const fullyApplied = (file: Obj) => file.conditions?.find((c: { type: string }) => c.type === 'FullyApplied')?.status;

// testhelper.NewDeployment: 3 replicas of nginx.
const deploymentTemplate = (name: string, replicas = 3, labels: Record<string, string> = { app: 'nginx' }) =>
  templateOf({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.19.0' }] } },
    },
  });

/** A member's Deployment controller once every pod of its spec.replicas is up. */
const deploymentReady: MemberStatus = (_c, m) => {
  const r = m.spec.replicas as number;
  return { observedGeneration: 1, replicas: r, updatedReplicas: r, readyReplicas: r, availableReplicas: r };
};

// resource_test.go "DeploymentStatus collection testing" / "deployment status collection testing"
test('a Deployment on every member shows their summed replicas, and follows a change of its replicas in Git', async () => {
  const branch = new Map<string, string>();
  const ref = refOf(deploymentTemplate('web'));
  pass(branch, await render([deploymentTemplate('web')]), [ref], deploymentReady);
  const counts = (s: Obj) => [s.replicas, s.updatedReplicas, s.readyReplicas, s.availableReplicas];
  const first = statusFile(branch, ref);
  assert.equal(counts(first.status), [9, 9, 9, 9], '3 replicas on each of 3 members');
  assert.equal(health(first), allHealthy);
  assert.is(fullyApplied(first), 'True');
  // framework.UpdateDeploymentReplicas(updateDeploymentReplicas = 2)
  pass(branch, await render([deploymentTemplate('web', 2)]), [ref], deploymentReady);
  assert.equal(counts(statusFile(branch, ref).status), [6, 6, 6, 6]);
});

const service = (name: string, type: string, port: Obj = {}) =>
  templateOf({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: 'default' },
    spec: { type, ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 80, ...port }] },
  });

// resource_test.go "ServiceStatus collection testing" / "service status collection testing"
test("a LoadBalancer Service's template status lists every member's load-balancer ingress", async () => {
  const branch = new Map<string, string>();
  const svc = service('lb', 'LoadBalancer');
  // Each member's load balancer gives the Service the address 172.19.1.<6 + its index>.
  pass(branch, await render([svc]), [svc.ref], (_c, _m, i) => ({
    loadBalancer: { ingress: [{ ip: `172.19.1.${i + 6}` }] },
  }));
  const file = statusFile(branch, svc.ref);
  assert.equal(
    (file.status.loadBalancer.ingress as Obj[]).map((g) => ({ ip: g.ip, hostname: g.hostname })),
    [6, 7, 8].map((n) => ({ ip: `172.19.1.${n}`, hostname: undefined })),
  );
  assert.equal(health(file), allHealthy, 'a LoadBalancer Service with an ingress is healthy');
});

// resource_test.go "NodePort Service collection testing" / "NodePort service apply status collection testing"
test('a NodePort Service goes to every member with the node port its template holds, and is FullyApplied', async () => {
  const branch = new Map<string, string>();
  const svc = service('np', 'NodePort', { nodePort: 30080 });
  const rendered = await render([svc]);
  const nodePorts = new Set(MEMBERS.map((c) => rendered.manifest(c, svc.ref)?.spec.ports[0].nodePort));
  assert.equal([...nodePorts], [30080], 'one node port on every member');
  // A NodePort Service's member status (an empty load balancer) reflects nothing.
  pass(branch, rendered, [svc.ref], () => ({ loadBalancer: {} }));
  const file = statusFile(branch, svc.ref);
  assert.equal(
    file.aggregatedStatus.map((i: Obj) => [i.clusterName, i.applied]),
    MEMBERS.map((m) => [m, true]),
  );
  assert.is(fullyApplied(file), 'True');
  assert.equal(health(file), allHealthy);
});

// resource_test.go "IngressStatus collection testing" / "ingress status collection testing"
test("an Ingress's template status lists every member's load-balancer ingress", async () => {
  const branch = new Map<string, string>();
  const ing = templateOf({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: 'ing', namespace: 'default' },
    spec: {
      rules: [
        {
          host: 'www.demo.com',
          http: {
            paths: [
              {
                path: '/testpath',
                pathType: 'Prefix',
                backend: { service: { name: 'test', port: { number: 80 } } },
              },
            ],
          },
        },
      ],
    },
  });
  pass(branch, await render([ing]), [ing.ref], (_c, _m, i) => ({
    loadBalancer: { ingress: [{ ip: `172.19.2.${i + 6}` }] },
  }));
  assert.equal(statusFile(branch, ing.ref).status, {
    loadBalancer: { ingress: [{ ip: '172.19.2.6' }, { ip: '172.19.2.7' }, { ip: '172.19.2.8' }] },
  });
});

// resource_test.go "JobStatus collection testing" / "job status collection testing"
test('a Job run on every member shows one succeeded pod per member, and is Complete once each completed', async () => {
  const branch = new Map<string, string>();
  const job = templateOf({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'pi', namespace: 'default' },
    spec: {
      backoffLimit: 4,
      template: {
        spec: {
          restartPolicy: 'Never',
          containers: [
            { name: 'pi', image: 'perl:5.34.0', command: ['perl', '-Mbignum=bpi', '-wle', 'print bpi(2000)'] },
          ],
        },
      },
    },
  });
  pass(branch, await render([job]), [job.ref], (_c, _m, i) => ({
    succeeded: 1,
    startTime: `2026-01-02T03:0${i}:00Z`,
    completionTime: `2026-01-02T03:1${i}:00Z`,
    conditions: [
      { type: 'SuccessCriteriaMet', status: 'True' },
      { type: 'Complete', status: 'True' },
    ],
  }));
  const status = statusFile(branch, job.ref).status;
  assert.is(status.succeeded, 3);
  assert.equal(
    status.conditions.map((c: Obj) => [c.type, c.status]),
    [
      ['Complete', 'True'],
      ['SuccessCriteriaMet', 'True'],
    ],
  );
  assert.is(status.startTime, '2026-01-02T03:00:00Z', 'the earliest start');
  assert.is(status.completionTime, '2026-01-02T03:12:00Z', 'the latest completion');
});

const daemonSet = templateOf({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'ds', namespace: 'default' },
  spec: {
    selector: { matchLabels: { app: 'nginx' } },
    template: {
      metadata: { labels: { app: 'nginx' } },
      spec: { containers: [{ name: 'nginx', image: 'nginx:1.19.0' }] },
    },
  },
});
/** A member's DaemonSet controller with one schedulable node: one pod, up to date and ready. */
const oneNode: MemberStatus = () => ({
  observedGeneration: 1,
  currentNumberScheduled: 1,
  desiredNumberScheduled: 1,
  updatedNumberScheduled: 1,
  numberReady: 1,
  numberAvailable: 1,
  numberMisscheduled: 0,
});
const scheduled = (s: Obj) => [s.currentNumberScheduled, s.desiredNumberScheduled, s.updatedNumberScheduled];

// resource_test.go "DaemonSetStatus collection testing" / "daemonSet status collection testing"
test('a DaemonSet counts one scheduled pod per member, and one member fewer once the policy drops it', async () => {
  const branch = new Map<string, string>();
  pass(branch, await render([daemonSet]), [daemonSet.ref], oneNode);
  assert.equal(scheduled(statusFile(branch, daemonSet.ref).status), [3, 3, 3]);
  // The policy's clusterNames patched to all but the last member: member3 loses the DaemonSet and its entry.
  const fewer = await render([daemonSet], MEMBERS.slice(0, -1));
  assert.is(fewer.manifest('member3', daemonSet.ref), undefined);
  pass(branch, fewer, [daemonSet.ref], oneNode);
  const file = statusFile(branch, daemonSet.ref);
  assert.equal(scheduled(file.status), [2, 2, 2]);
  assert.equal(
    file.aggregatedStatus.map((i: Obj) => i.clusterName),
    ['member1', 'member2'],
  );
  assert.is(fullyApplied(file), 'True');
});

// testhelper.NewStatefulSet: 3 replicas.
const statefulSet = (replicas: number) =>
  templateOf({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'sts', namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'nginx' } },
      template: {
        metadata: { labels: { app: 'nginx' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.19.0' }] },
      },
    },
  });
const statefulSetReady: MemberStatus = (_c, m) => {
  const r = m.spec.replicas as number;
  return {
    observedGeneration: 1,
    replicas: r,
    readyReplicas: r,
    currentReplicas: r,
    updatedReplicas: r,
    availableReplicas: r,
  };
};
const sts = (s: Obj) => [s.replicas, s.readyReplicas, s.currentReplicas, s.updatedReplicas];

// resource_test.go "StatefulSetStatus collection testing" / "statefulSet status collection testing"
test('a StatefulSet on every member shows their summed replicas, and follows a change of its replicas in Git', async () => {
  const branch = new Map<string, string>();
  const ref = statefulSet(3).ref;
  pass(branch, await render([statefulSet(3)]), [ref], statefulSetReady);
  assert.equal(sts(statusFile(branch, ref).status), [9, 9, 9, 9]);
  // framework.UpdateStatefulSetReplicas(updateStatefulSetReplicas = 2)
  pass(branch, await render([statefulSet(2)]), [ref], statefulSetReady);
  assert.equal(sts(statusFile(branch, ref).status), [6, 6, 6, 6]);
});

// resource_test.go "PodDisruptionBudget collection testing" / "pdb status collection testing"
test("a PodDisruptionBudget propagated with its Deployment sums each member's expected pods and allowed disruptions", async () => {
  const branch = new Map<string, string>();
  const labels = { app: 'nginx-pdb' };
  const deploy = deploymentTemplate('guarded', 3, labels);
  const pdb = templateOf({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'guarded', namespace: 'default' },
    spec: { maxUnavailable: '50%', selector: { matchLabels: labels } },
  });
  /**
   * A member's disruption controller over the pods of the Deployment it runs: maxUnavailable rounds up from the
   * expected pods, every pod healthy.
   */
  const member: MemberStatus = (cluster, m, _i, rendered) => {
    if (m.kind === 'Deployment') return deploymentReady(cluster, m, _i, rendered);
    const expected = rendered.manifest(cluster, deploy.ref)!.spec.replicas as number;
    const desiredHealthy = expected - Math.ceil(expected * 0.5);
    return {
      observedGeneration: 1,
      expectedPods: expected,
      currentHealthy: expected,
      desiredHealthy,
      disruptionsAllowed: expected - desiredHealthy,
    };
  };
  pass(branch, await render([pdb, deploy]), [pdb.ref, deploy.ref], member);
  const file = statusFile(branch, pdb.ref);
  const status = file.status;
  assert.equal(health(file), allHealthy, 'currentHealthy reaches desiredHealthy on every member');
  assert.is(fullyApplied(file), 'True');
  assert.is(status.expectedPods, 3 * 3);
  assert.is(status.disruptionsAllowed, Math.ceil(3 * 0.5) * 3);
});

test.run();
