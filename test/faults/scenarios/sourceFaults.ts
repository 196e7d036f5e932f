// Source faults: the config repo reads wrong or not at all. Flotilla must hold the last good state (members keep
// every object, the output branch keeps its tree), say so, and converge as soon as the source reads again.
import nodeFs from 'node:fs';
import { openRepo } from '../../../src/commits/openRepo.ts';
import type { Scenario } from '../helpers/frame.ts';
import { since } from '../helpers/frame.ts';
import { baseFiles, clusterRegistration, configMap, configMapPolicy } from '../../helpers/fleet.ts';
import { manifests } from '../helpers/compareOutputs.ts';
import { describeLost, withPipeline, type Pipeline } from '../helpers/pipeline.ts';
import { makeFleet, managedOn, refOf, RENDERED, renderedKeys } from '../helpers/processes.ts';
import { startRemoteReconciler } from '../helpers/remote.ts';
import type { Expectations } from '../helpers/frame.ts';

/** Resolves with the promise, or rejects once `ms` have passed: a hung pass must fail the row, not the run. */
function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} still running after ${ms / 1000} s`)), ms);
  });
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}

/** The remote Git host stalls while a commit deleting two ConfigMaps waits: the pass must time out and hold. */
async function fetchTimesOut(expect: Expectations) {
  const fleet = await makeFleet({ members: ['member1'], readyDelayMs: 0 });
  const remote = await startRemoteReconciler(fleet, { fetchIdleTimeoutMs: 500 });
  try {
    const files: Record<string, string> = {
      'clusters/member1.yaml': clusterRegistration('member1'),
      'policies/cms.yaml': configMapPolicy(['member1']),
    };
    for (let i = 0; i < 4; i++) files[`templates/cm-${i}.yaml`] = configMap(`cm-${i}`, `v${i}`);
    fleet.push(files, 'Four ConfigMaps');
    await within(20_000, 'the first pass', remote.reconciler.kick('start'));
    const member = fleet.members[0]!;
    const baseline = renderedKeys(fleet, 'member1');
    expect.equal([...managedOn(member).keys()].sort(), baseline, 'baseline on member1');
    const renderedBefore = refOf(fleet, RENDERED);

    fleet.push(
      { 'templates/cm-2.yaml': null, 'templates/cm-3.yaml': null, 'templates/cm-new.yaml': configMap('cm-new', 'new') },
      'Drop cm-2 and cm-3, add cm-new',
    );
    remote.git.stall(true);
    const stalledAt = remote.git.requests.length;
    const started = performance.now();
    await within(10_000, 'a pass whose fetch stalls', remote.reconciler.kick('fetch'));
    const seconds = since(started);
    const last = remote.reconciler.lastPass;
    expect.equal(last?.ok, false, 'the pass with a stalled fetch failed');
    expect.that(/timed out/i.test(last?.error ?? ''), `it says the fetch timed out: ${last?.error}`);
    expect.that(remote.git.requests.length > stalledAt, 'the fetch reached the stalled host');
    const readyz = await fetch(`${remote.reconciler.url}/readyz`);
    expect.equal(readyz.status, 503, '/readyz while the source times out');
    expect.that((await readyz.text()).includes('timed out'), '/readyz names the timeout');
    expect.equal(refOf(fleet, RENDERED), renderedBefore, 'rendered head while the source times out');
    const lostDuring = baseline.filter((k) => !managedOn(member).has(k));
    expect.equal(lostDuring, [], 'objects deleted on member1 while the source timed out');

    remote.git.stall(false);
    const recovering = performance.now();
    await within(20_000, 'the pass after the host answers again', remote.reconciler.kick('fetch'));
    const recovery = since(recovering);
    expect.equal(remote.reconciler.lastPass?.ok, true, 'the pass after the host answers again');
    const wanted = renderedKeys(fleet, 'member1');
    expect.equal([...managedOn(member).keys()].sort(), wanted, 'member1 after recovery = the new head');
    const lostAfter = wanted.filter((k) => !managedOn(member).has(k));
    return {
      outcome: `pass failed after ${seconds.toFixed(1)} s (fetch timed out), /readyz 503; output and members held; next fetch converged`,
      lost: lostDuring.length + lostAfter.length,
      recovery_s: recovery,
    };
  } finally {
    await remote.close();
    await fleet.cleanup();
  }
}

/**
 * node's fs whose reads fail for the files `fail` picks, as an unreadable disk or a hung NFS mount would: the
 * asynchronous readFile (isomorphic-git) and the synchronous calls the object reader uses (readFileSync, openSync).
 */
function faultyFs(fail: (file: string) => string | undefined): typeof nodeFs {
  const check = (file: unknown) => {
    const code = fail(String(file));
    if (code) throw Object.assign(new Error(`${code}: injected failure reading ${String(file)}`), { code });
  };
  const readFile = (async (file: nodeFs.PathLike, ...rest: unknown[]) => {
    check(file);
    return (nodeFs.promises.readFile as (...a: unknown[]) => Promise<unknown>)(file, ...rest);
  }) as typeof nodeFs.promises.readFile;
  const readFileSync = ((file: nodeFs.PathOrFileDescriptor, ...rest: unknown[]) => {
    if (typeof file !== 'number') check(file);
    return (nodeFs.readFileSync as (...a: unknown[]) => unknown)(file, ...rest);
  }) as typeof nodeFs.readFileSync;
  const openSync = ((file: nodeFs.PathLike, ...rest: unknown[]) => {
    check(file);
    return (nodeFs.openSync as (...a: unknown[]) => number)(file, ...rest);
  }) as typeof nodeFs.openSync;
  return { ...nodeFs, readFileSync, openSync, promises: { ...nodeFs.promises, readFile } } as typeof nodeFs;
}

/** Converged baseline: everything rendered and on every member. */
async function baseline(p: Pipeline) {
  await p.reconcile();
  const expected = await p.expected();
  const lost = p.lost(expected);
  if (lost.length) throw new Error(`baseline did not converge: ${describeLost(lost)}`);
  return { expected, output: manifests(await p.fleet.output()) };
}

export const sourceFaultScenarios: Scenario[] = [
  {
    group: 'source',
    name: 'fetch times out',
    speed: 'fast',
    run: fetchTimesOut,
    injected: 'the remote Git host accepts the fetch and never answers, while a commit dropping 2 ConfigMaps waits',
  },
  {
    group: 'source',
    name: 'empty tree',
    injected: 'a commit deleting every file (templates, policies, clusters)',
    speed: 'fast',
    run: (expect) =>
      withPipeline(async (p) => {
        const base = await baseline(p);
        p.fleet.work.commit(
          Object.fromEntries(Object.keys(baseFiles()).map((f) => [f, null])),
          'Oops: everything deleted',
        );
        const pass = await p.reconcile();
        const problems = pass.rendered.flatMap((r) => r.problems);
        expect.that(
          problems.some((x) => x.code === 'SOURCE_EMPTY' && x.severity === 'error'),
          `render reports SOURCE_EMPTY; got ${problems.map((x) => x.code).join(', ') || 'nothing'}`,
        );
        const held = manifests(await p.fleet.output());
        expect.equal([...held.keys()], [...base.output.keys()], 'rendered manifests after the empty commit');
        expect.equal(
          pass.delivery?.clusters.get('member1')?.results.filter((r) => r.prune).length ?? 0,
          0,
          'objects pruned on member1',
        );
        const lostDuring = p.lost(base.expected);
        p.fleet.work.commit(baseFiles(), 'Restore everything');
        const started = performance.now();
        await p.reconcileUntil(async () => p.lost(await p.expected()).length === 0);
        const recovery = since(started);
        expect.equal(errorsOf(await p.reconcile()), [], 'errors after the revert');
        return {
          outcome: 'SOURCE_EMPTY: output tree and members kept; restoring the files renders normally',
          lost: lostDuring.length + p.lost(base.expected).length,
          recovery_s: recovery,
        };
      }),
  },
  {
    group: 'source',
    name: 'watched branch missing',
    injected: 'main renamed away (git branch -m main old)',
    speed: 'fast',
    run: (expect) =>
      withPipeline(async (p) => {
        const base = await baseline(p);
        const head = await p.fleet.renderedHead();
        p.fleet.work.git('branch', '-m', 'main', 'old');
        const failure = await p.reconcile().then(
          () => undefined,
          (e: Error & { code?: string }) => e,
        );
        expect.equal(failure?.code, 'SOURCE_BRANCH_MISSING', 'error code');
        expect.that(/fix:/.test(failure?.message ?? ''), 'the error says how to fix it');
        expect.equal(await p.fleet.renderedHead(), head, 'rendered head');
        const lostDuring = p.lost(base.expected);
        p.fleet.work.git('branch', '-m', 'old', 'main');
        const started = performance.now();
        await p.reconcile();
        return {
          outcome: `held: ${failure?.code ?? 'no error'}; nothing rendered or applied`,
          lost: lostDuring.length + p.lost(base.expected).length,
          recovery_s: since(started),
        };
      }),
  },
  {
    group: 'source',
    name: 'repo unreadable',
    injected: 'every object read fails with EACCES while a new commit waits',
    speed: 'fast',
    run: (expect) =>
      withPipeline(async (p) => {
        const base = await baseline(p);
        const head = await p.fleet.renderedHead();
        p.fleet.work.commit(
          { 'templates/cm-new.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-new\ndata:\n  a: b\n' },
          'New ConfigMap',
        );
        const broken = await openRepo(
          p.fleet.work.dir,
          faultyFs((f) => (f.includes('/objects/') ? 'EACCES' : undefined)),
        );
        const failure = await p.reconcile({ repo: broken }).then(
          () => undefined,
          (e: Error) => e,
        );
        expect.that(failure, 'the pass fails loudly');
        expect.equal(await p.fleet.renderedHead(), head, 'rendered head');
        const lostDuring = p.lost(base.expected);
        const started = performance.now();
        await p.reconcile();
        const recovery = since(started);
        expect.that(
          p.live('member2', { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'cm-new' }),
          'the waiting commit is applied once the repo reads again',
        );
        return {
          outcome: `pass failed (${(failure as NodeJS.ErrnoException | undefined)?.code ?? '?'}); output and members kept`,
          lost: lostDuring.length + p.lost(base.expected).length,
          recovery_s: recovery,
        };
      }),
  },
  {
    group: 'source',
    name: 'read times out mid-render',
    injected: 'object reads fail with ETIMEDOUT after the first 5 of a pass',
    speed: 'fast',
    run: (expect) =>
      withPipeline(async (p) => {
        const base = await baseline(p);
        const head = await p.fleet.renderedHead();
        p.fleet.work.commit(
          {
            'templates/cm-0.yaml': null,
            'templates/cm-new.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-new\ndata:\n  a: b\n',
          },
          'Swap cm-0 for cm-new',
        );
        let reads = 0;
        const flaky = await openRepo(
          p.fleet.work.dir,
          faultyFs((f) => (f.includes('/objects/') && ++reads > 5 ? 'ETIMEDOUT' : undefined)),
        );
        const failure = await p.reconcile({ repo: flaky }).then(
          () => undefined,
          (e: Error) => e,
        );
        expect.that(failure, 'the pass fails loudly');
        expect.equal(await p.fleet.renderedHead(), head, 'rendered head (no half-written output)');
        const lostDuring = p.lost(base.expected);
        const started = performance.now();
        await p.reconcile();
        const recovery = since(started);
        const now = await p.expected();
        expect.equal(p.lost(now).length, 0, 'objects of the new head missing after recovery');
        return {
          outcome: 'pass failed; no partial output; next pass renders and applies the commit',
          lost: lostDuring.length + p.lost(now).length,
          recovery_s: recovery,
        };
      }),
  },
];

function errorsOf(result: Awaited<ReturnType<Pipeline['reconcile']>>) {
  return result.rendered
    .flatMap((r) => r.problems)
    .filter((x) => x.severity === 'error')
    .map((x) => x.code);
}
