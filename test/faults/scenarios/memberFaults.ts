// Member faults, through the member emulator's fault knobs: member2 misbehaves while a change is pushed. Member1
// must converge in the same pass, retries against member2 must stay bounded and back off, status must say what
// really happened, and once member2 heals one more pass must converge it with nothing lost and nothing extra.
import { parse } from 'yaml';
import type { KubeRequest, KubeTarget } from '../../../src/deliveries/KubeTarget.ts';
import type { ReconcileResult } from '../../../src/reconcile.ts';
import type { Expectations, Scenario } from '../helpers/frame.ts';
import { since } from '../helpers/frame.ts';
import { configMap } from '../../helpers/fleet.ts';
import { describeLost, STATUS_REF, withPipeline, type ExpectedObject, type Pipeline } from '../helpers/pipeline.ts';

const CM_NEW = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'cm-new' };
const CM_3 = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'cm-3' };

/** Baseline, then the change every member scenario pushes: one object added, one changed, one removed. */
async function pushChange(p: Pipeline): Promise<ExpectedObject[]> {
  await p.reconcile();
  const lost = p.lost(await p.expected());
  if (lost.length) throw new Error(`baseline did not converge: ${describeLost(lost)}`);
  p.fleet.work.commit(
    {
      'templates/cm-new.yaml': configMap('cm-new'),
      'templates/cm-1.yaml': configMap('cm-1', { value: 'v2' }),
      'templates/cm-3.yaml': null,
    },
    'Add cm-new, change cm-1, drop cm-3',
  );
  // Rendered now, applied by the scenario's next pass: the expected state is the new head's folders.
  await p.fleet.sync();
  return p.expected();
}

/** The head's objects are on member1 and member1 only lost cm-3: the healthy member was not held back. */
function member1Converged(p: Pipeline, expected: readonly ExpectedObject[], expect: Expectations): void {
  expect.equal(
    describeLost(p.lost(expected.filter((e) => e.cluster === 'member1'))),
    '',
    'member1 objects missing after the faulty pass',
  );
  expect.that(!p.live('member1', CM_3), 'member1 pruned cm-3 in the same pass');
  expect.equal(
    (p.live('member1', { ...CM_3, name: 'cm-1' }) as { data?: { value?: string } } | undefined)?.data?.value,
    'v2',
    'member1 cm-1 value',
  );
}

async function statusFile(p: Pipeline, path: string): Promise<Record<string, any> | undefined> {
  try {
    return parse(p.fleet.work.show(STATUS_REF.replace('refs/heads/', ''), path)) as Record<string, any>;
  } catch {
    return undefined;
  }
}

/** Heal, then reconcile until member2 holds the head and not cm-3; returns seconds taken. */
async function heal(p: Pipeline, expected: readonly ExpectedObject[], undo: () => Promise<void>): Promise<number> {
  await undo();
  const started = performance.now();
  await p.reconcileUntil(() => p.lost(expected).length === 0 && !p.live('member2', CM_3));
  return since(started);
}

function member2Writes(result: ReconcileResult): number {
  return result.delivery?.clusters.get('member2')?.writes ?? 0;
}

/** Wraps a KubeTarget so a fault starts after `after` requests: a partition in the middle of an apply. */
function partitionAfter(kube: KubeTarget, after: number, cut: () => Promise<void>): KubeTarget {
  let seen = 0;
  return {
    get name() {
      return kube.name;
    },
    get server() {
      return kube.server;
    },
    get discovery() {
      return kube.discovery;
    },
    get stats() {
      return kube.stats;
    },
    close: () => kube.close(),
    async request(req: KubeRequest) {
      if (++seen === after) await cut();
      return kube.request(req);
    },
  };
}

type Condition = { type: string; status: string; reason?: string; lastTransitionTime?: string };
const readyIn = async (p: Pipeline, cluster: string) =>
  ((await statusFile(p, `clusters/${cluster}.yaml`))?.status?.conditions as Condition[] | undefined)?.find(
    (c) => c.type === 'Ready',
  );
const secondsApart = (a: string | undefined, b: Date) => (a ? Math.abs(Date.parse(a) - b.getTime()) / 1000 : Infinity);

/** member1's clock 1 h behind, member2's 2 h ahead: status times and Ready damping follow Flotilla's clock only. */
async function clockSkew(expect: Expectations, p: Pipeline) {
  const HOUR = 3_600_000;
  await p.members.get('member1')!.faults.set({ clockSkewMs: -HOUR });
  await p.members.get('member2')!.faults.set({ clockSkewMs: 2 * HOUR });
  let clock = 0;
  const now = () => new Date(Date.now() + clock);
  const tick = (ms: number) => {
    clock += ms;
    p.advanceClock(ms);
  };
  await p.reconcile();
  const expected = await p.expected();
  expect.equal(describeLost(p.lost(expected)), '', 'baseline under skew');
  const created = (cluster: string) =>
    String(
      (p.live(cluster, { ...CM_3, name: 'cm-0' })?.metadata as { creationTimestamp?: string } | undefined)
        ?.creationTimestamp,
    );
  expect.that(
    Math.abs(secondsApart(created('member2'), now()) - 7200) < 120,
    `member2 stamps its objects 2 h ahead (cm-0 created ${created('member2')})`,
  );
  expect.that(
    Math.abs(secondsApart(created('member1'), now()) - 3600) < 120,
    `member1 stamps its objects 1 h behind (cm-0 created ${created('member1')})`,
  );
  for (const cluster of ['member1', 'member2']) {
    const ready = await readyIn(p, cluster);
    expect.that(
      ready?.status === 'True' && secondsApart(ready.lastTransitionTime, now()) < 120,
      `${cluster}: Ready=True stamped with Flotilla's clock (${ready?.lastTransitionTime})`,
    );
  }
  // A member 2 h ahead that stops answering is still damped for 30 s of Flotilla's time, not taken as long gone.
  const member2 = p.members.get('member2')!;
  await member2.faults.set({ refuse: true });
  await p.reconcile();
  expect.equal(
    (await readyIn(p, 'member2'))?.status,
    'True',
    'member2 Ready after one failed probe (damped, despite its clock)',
  );
  tick(31_000);
  await p.reconcile();
  const down = await readyIn(p, 'member2');
  expect.equal(down?.status, 'False', 'member2 Ready after 30 s of failed probes');
  expect.that(
    secondsApart(down?.lastTransitionTime, now()) < 120,
    `NotReady stamped with Flotilla's clock (${down?.lastTransitionTime})`,
  );
  await member2.faults.set({ refuse: false });
  await p.reconcile();
  expect.equal(
    (await readyIn(p, 'member2'))?.status,
    'False',
    'member2 back for 0 s: still NotReady (its clock 2 h ahead does not count)',
  );
  const started = performance.now();
  tick(31_000);
  await p.reconcile();
  expect.equal((await readyIn(p, 'member2'))?.status, 'True', 'member2 Ready after the success threshold');
  const lost = p.lost(expected);
  return {
    outcome:
      "objects stamped -1 h / +2 h by the members; Ready times from Flotilla's clock; damping 30 s each way as without skew",
    lost: lost.length,
    recovery_s: since(started),
  };
}

export const memberFaultScenarios: Scenario[] = [
  {
    group: 'member',
    name: '5xx burst',
    injected: 'member2 answers every API request with 500 during a push',
    speed: 'fast',
    run: (expect) =>
      withPipeline(async (p) => {
        const expected = await pushChange(p);
        const member2 = p.members.get('member2')!;
        await member2.faults.set({ errorRate: 1 });
        const before = p.kubes.get('member2')!.stats.requests;
        const started = performance.now();
        await p.reconcile();
        const seconds = since(started);
        const requests = p.kubes.get('member2')!.stats.requests - before;
        member1Converged(p, expected, expect);
        const objects = expected.filter((e) => e.cluster === 'member2').length;
        // Each object: a read and a write at most, 5 attempts each; plus discovery and the status probe.
        const bound = 5 * (2 * objects + 8);
        expect.that(requests <= bound, `requests to member2 bounded: ${requests} <= ${bound}`);
        expect.that(
          seconds >= 0.7,
          `retries back off (pass took ${seconds.toFixed(2)} s; 4 backoffs of >= 50, 100, 200, 400 ms)`,
        );
        const status = await statusFile(p, 'templates/default/configmap_cm-new.yaml');
        const entry = (status?.aggregatedStatus as { clusterName: string; applied: boolean }[] | undefined)?.find(
          (i) => i.clusterName === 'member2',
        );
        expect.equal(entry?.applied, false, 'status: cm-new applied on member2');
        expect.that(!p.live('member2', CM_NEW), 'member2 got nothing while failing');
        expect.that(p.live('member2', CM_3), 'member2 kept cm-3 (nothing pruned on a failing member)');
        const recovery = await heal(p, expected, () => member2.faults.set({ errorRate: 0 }));
        return {
          outcome: `member1 converged in the pass; member2: ${requests} requests in ${seconds.toFixed(1)} s, status applied=false; healed next pass`,
          lost: p.lost(expected).length,
          recovery_s: recovery,
        };
      }),
  },
  {
    group: 'member',
    name: 'latency',
    injected: 'member2 adds 300 ms to every request',
    speed: 'fast',
    run: (expect) =>
      withPipeline(async (p) => {
        const expected = await pushChange(p);
        const member2 = p.members.get('member2')!;
        await member2.faults.set({ latencyMs: 300 });
        const pass = await p.reconcile();
        const d1 = pass.delivery?.clusters.get('member1')?.durationMs ?? -1;
        const d2 = pass.delivery?.clusters.get('member2')?.durationMs ?? -1;
        member1Converged(p, expected, expect);
        expect.equal(describeLost(p.lost(expected)), '', 'objects missing on a slow member after one pass');
        expect.that(d1 < d2, `member1 (${d1} ms) does not wait for member2 (${d2} ms)`);
        await member2.faults.set({ latencyMs: 0 });
        return {
          outcome: `both converged in one pass; apply took ${d1} ms on member1, ${d2} ms on member2`,
          lost: p.lost(expected).length,
        };
      }),
  },
  {
    group: 'member',
    name: 'connection refused',
    injected: 'member2 closes its port during a push',
    speed: 'fast',
    run: (expect) =>
      withPipeline(async (p) => {
        const expected = await pushChange(p);
        const member2 = p.members.get('member2')!;
        await member2.faults.set({ refuse: true });
        const started = performance.now();
        const pass = await p.reconcile();
        const seconds = since(started);
        member1Converged(p, expected, expect);
        const notes = pass.delivery?.clusters.get('member2')?.notes.join('; ') ?? '';
        expect.that(/did not answer/.test(notes), `member2 reported unreachable; notes: ${notes}`);
        // Fails fast, counted rather than timed: given up after its first request ran out of attempts.
        expect.that(
          /the remaining objects were not attempted/.test(notes),
          `an unreachable member is given up after its first request; notes: ${notes}`,
        );
        type Condition = { type: string; status: string; reason?: string };
        const readyOf = async () =>
          ((await statusFile(p, 'clusters/member2.yaml'))?.status?.conditions as Condition[] | undefined)?.find(
            (c) => c.type === 'Ready',
          );
        // Karmada's flap damping: one failed probe is not yet NotReady; 30 s of them are.
        expect.equal((await readyOf())?.status, 'True', 'status: member2 Ready after one failed probe (damped)');
        p.advanceClock(31_000);
        await p.reconcile();
        const ready = await readyOf();
        expect.equal(
          [ready?.status, ready?.reason],
          ['False', 'ClusterNotReachable'],
          'status: member2 Ready after the failure threshold',
        );
        // Back: the first good probe starts the success threshold; deletions on member2 wait until it is Ready again.
        const recovery = await heal(p, expected, async () => {
          await member2.faults.set({ refuse: false });
          await p.reconcile();
          p.advanceClock(31_000);
        });
        expect.equal(
          (await readyOf())?.status,
          'True',
          'status: member2 Ready after healing and the success threshold',
        );
        return {
          outcome: `member1 converged; member2 reported unreachable in ${seconds.toFixed(1)} s, Ready=False ClusterNotReachable after the 30 s threshold; healed next pass`,
          lost: p.lost(expected).length,
          recovery_s: recovery,
        };
      }),
  },
  {
    group: 'member',
    name: 'partition during apply',
    injected: 'member2 refuses connections from its 4th request of a pass on',
    speed: 'fast',
    run: (expect) =>
      withPipeline(async (p) => {
        const expected = await pushChange(p);
        const member2 = p.members.get('member2')!;
        const real = p.kubes.get('member2')!;
        const clusters = new Map(p.kubes);
        clusters.set(
          'member2',
          partitionAfter(real, 4, () => member2.faults.set({ refuse: true })),
        );
        await p.reconcile({ clusters });
        member1Converged(p, expected, expect);
        const before = p.managedCount('member2');
        const recovery = await heal(p, expected, () => member2.faults.set({ refuse: false }));
        const extra = p.managedCount('member2') - expected.filter((e) => e.cluster === 'member2').length;
        expect.equal(extra, 0, 'managed objects on member2 beyond the rendered folder');
        return {
          outcome: `partial pass (${before} managed objects); next pass converged, cm-3 pruned, no extras`,
          lost: p.lost(expected).length,
          recovery_s: recovery,
        };
      }),
  },
  {
    group: 'member',
    name: 'clock skew',
    speed: 'fast',
    injected: "member1's clock 1 h behind, member2's 2 h ahead; member2 then down and back",
    run: (expect) => withPipeline((p) => clockSkew(expect, p)),
  },
  {
    group: 'member',
    name: 'restarted with its data',
    injected: 'member2 stopped and started again on the same data dir',
    speed: 'fast',
    run: (expect) =>
      withPipeline(async (p) => {
        const expected = await pushChange(p);
        await p.reconcile();
        await p.members.get('member2')!.stop();
        await p.startMember('member2');
        const started = performance.now();
        const pass = await p.reconcile();
        expect.equal(member2Writes(pass), 0, 'writes to member2 after a restart with data');
        return {
          outcome: 'everything still there; the next pass wrote nothing',
          lost: p.lost(expected).length,
          recovery_s: since(started),
        };
      }),
  },
  {
    group: 'member',
    name: 'restarted empty',
    injected: 'member2 restarted with its state (etcd) wiped',
    speed: 'fast',
    run: (expect) =>
      withPipeline(async (p) => {
        const expected = await pushChange(p);
        await p.reconcile();
        await p.members.get('member2')!.stop();
        await p.startMember('member2', { empty: true });
        const wiped = p.lost(expected).filter((e) => e.cluster === 'member2').length;
        expect.that(wiped > 0, "the restart really lost member2's objects");
        const started = performance.now();
        const pass = await p.reconcile();
        const recovery = since(started);
        expect.equal(describeLost(p.lost(expected)), '', 'objects missing after one pass');
        return {
          outcome: `${wiped} objects gone; all re-applied in one pass (${member2Writes(pass)} writes)`,
          lost: p.lost(expected).length,
          recovery_s: recovery,
        };
      }),
  },
];
