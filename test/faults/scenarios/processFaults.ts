// Process faults: the reconciler (`flotilla run`) killed with -9 at each step of a pass, the Pull agent killed
// mid-apply, and two reconcilers started on one repo. Afterwards a restarted process must converge: each member
// holds exactly what the rendered branch gives it (objects that survived keep their uid: nothing re-created), the
// status branch describes the rendered head with inventories equal to the rendered folders, each source commit
// is rendered once, and nothing is lost.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { openRepo } from '../../../src/commits/openRepo.ts';
import { connectKubeconfig } from '../../../src/deliveries/connectKubeTarget.ts';
import { LOCK_FILE } from '../../../src/passes/acquireRepoLock.ts';
import { runAgentPass } from '../../../src/pullAgent.ts';
import { clusterRegistration, configMap, configMapPolicy, deployment, weightedPolicy } from '../../helpers/fleet.ts';
import type { Expectations, Scenario, ScenarioResult } from '../helpers/frame.ts';
import { since } from '../helpers/frame.ts';
import {
  firstManagedWrite,
  inventoryKeys,
  makeFleet,
  managedOn,
  outputCommitsFor,
  reconcileInProcess,
  refOf,
  RENDERED,
  renderedKeys,
  spawnFlotilla,
  spawnRun,
  STATUS,
  type Child,
  type Fleet,
} from '../helpers/processes.ts';

const PUSH = ['member1', 'member2'];
const CONFIGMAPS = 12;
const NEW = 10;
const cmName = (i: number) => `cm-${String(i).padStart(2, '0')}`;
const newName = (i: number) => `cm-new-${String(i).padStart(2, '0')}`;
const PASS_TIMEOUT_MS = 30_000;

function baseFiles(clusters: readonly string[], pull = false): Record<string, string> {
  const files: Record<string, string> = { 'policies/configmaps.yaml': configMapPolicy([...clusters]) };
  for (const c of clusters)
    files[`clusters/${c}.yaml`] = pull
      ? clusterRegistration(c).replace('syncMode: Push', 'syncMode: Pull')
      : clusterRegistration(c);
  if (!pull) {
    files['templates/web.yaml'] = deployment('web', 2);
    files['policies/web.yaml'] = weightedPolicy('web', [...clusters]);
  }
  for (let i = 0; i < CONFIGMAPS; i++) files[`templates/${cmName(i)}.yaml`] = configMap(cmName(i), `v${i}`);
  return files;
}

/** The change each row propagates: ten ConfigMaps added, one changed, one removed, web scaled 2 → 4. */
function change(pull = false): Record<string, string | null> {
  const files: Record<string, string | null> = {
    'templates/cm-01.yaml': configMap('cm-01', 'changed'),
    'templates/cm-03.yaml': null,
  };
  if (!pull) files['templates/web.yaml'] = deployment('web', 4);
  for (let i = 0; i < NEW; i++) files[`templates/${newName(i)}.yaml`] = configMap(newName(i), `new ${i}`);
  return files;
}

const newOn = (fleet: Fleet, i: number) =>
  [...managedOn(fleet.members[i]!).keys()].filter((k) => k.includes('/cm-new-')).length;

interface Converged {
  lost: number;
  recreated: number;
}

/**
 * The end state every row demands: members = rendered folders (nothing missing, nothing extra), surviving objects
 * not re-created, inventories = rendered folders, status describes the rendered head. Returns what was lost.
 */
function checkConverged(
  expect: Expectations,
  fleet: Fleet,
  clusters: readonly string[],
  before: readonly Map<string, string>[],
  sourceCommit: string,
): Converged {
  let lost = 0;
  let recreated = 0;
  for (const [i, cluster] of clusters.entries()) {
    const wanted = renderedKeys(fleet, cluster);
    const live = managedOn(fleet.members[i]!);
    const missing = wanted.filter((k) => !live.has(k));
    lost += missing.length;
    expect.equal(missing, [], `${cluster}: rendered objects missing`);
    expect.equal(
      [...live.keys()].filter((k) => !wanted.includes(k)),
      [],
      `${cluster}: managed objects beyond the rendered folder`,
    );
    const again = [...before[i]!].filter(([k, uid]) => live.has(k) && live.get(k) !== uid).map(([k]) => k);
    recreated += again.length;
    expect.equal(again, [], `${cluster}: objects deleted and re-created`);
    expect.equal(inventoryKeys(fleet, cluster), wanted, `${cluster}: status inventory vs rendered folder`);
  }
  expect.that(wantedHasNew(fleet, clusters[0]!), 'the rendered head holds the change');
  expect.equal(outputCommitsFor(fleet, sourceCommit), 1, 'output commits for the source commit');
  const statusMessage = fleet.git(fleet.bare, 'log', '-1', '--format=%B', STATUS);
  expect.that(
    statusMessage.includes(`Rendered-Commit: ${refOf(fleet, RENDERED)}`),
    'the status head describes the rendered head',
  );
  return { lost, recreated };
}

function wantedHasNew(fleet: Fleet, cluster: string): boolean {
  return renderedKeys(fleet, cluster).filter((k) => k.includes('/cm-new-')).length === NEW;
}

interface KillPoint {
  /** FLOTILLA_FAULT_PAUSE_AT for the first process. */
  pause?: 'output-commit' | 'status-commit';
  /** Member latency while the first process runs, so it is still at work when it dies. */
  latencyMs?: number;
  /** Resolves at the moment to kill. */
  when(run: Child, fleet: Fleet, head: string): Promise<void>;
  /** What must hold at the kill (proves the step); returns a few words for the outcome. */
  atKill(expect: Expectations, fleet: Fleet, base: { rendered: string; status: string }): string;
  /** Checks on the restarted process's log. */
  onRestart?(expect: Expectations, run: Child): void;
}

/** Baseline (converged in-process), a push, `flotilla run` killed -9 at the point, a second one converging. */
async function killReconciler(expect: Expectations, point: KillPoint): Promise<ScenarioResult> {
  const fleet = await makeFleet({ members: PUSH, readyDelayMs: 0 });
  const children: Child[] = [];
  try {
    fleet.push(baseFiles(PUSH), 'Base fleet');
    await reconcileInProcess(fleet);
    const base = { rendered: refOf(fleet, RENDERED), status: refOf(fleet, STATUS) };
    const before = fleet.members.map(managedOn);
    if (before.some((m) => m.size !== CONFIGMAPS + 1))
      throw new Error(`baseline did not converge: ${before.map((m) => m.size).join(', ')} managed objects`);
    const head = fleet.push(change(), 'Ten ConfigMaps more, cm-01 changed, cm-03 removed, web 2 → 4');

    if (point.latencyMs) for (const m of fleet.members) await m.faults.set({ latencyMs: point.latencyMs });
    const first = spawnRun(fleet, point.pause ? { FLOTILLA_FAULT_PAUSE_AT: point.pause } : {});
    children.push(first);
    await point.when(first, fleet, head);
    await first.kill9();
    expect.that(!first.events.entries.some((e) => e.step === 'pass'), 'the first process never finished its pass');
    expect.that(existsSync(path.join(fleet.bare, LOCK_FILE)), 'killed -9, it left its repo lock');
    const atKill = point.atKill(expect, fleet, base);
    const atKillUids = fleet.members.map(managedOn);
    for (const m of fleet.members) await m.faults.reset();

    const started = performance.now();
    const second = spawnRun(fleet);
    children.push(second);
    const pass = await second.events.next(
      'a pass of the restarted reconciler',
      (e) => e.step === 'pass',
      PASS_TIMEOUT_MS,
      true,
    );
    const recovery = since(started);
    expect.equal([pass.error, pass.sourceCommit], [undefined, head], 'the restarted pass: error and source commit');
    const lock = second.events.entries.find((e) => e.step === 'lock' && e.tookOver);
    expect.equal(
      (lock?.tookOver as { pid?: number } | undefined)?.pid,
      first.child.pid,
      "the dead process's repo lock taken over",
    );
    point.onRestart?.(expect, second);
    expect.equal(await second.stop(), 0, 'clean stop of the restarted reconciler');
    expect.that(!existsSync(path.join(fleet.bare, LOCK_FILE)), 'the repo lock released: no reconciler left');

    // Objects there at the kill, and those of the baseline, are the same objects now (none deleted and re-created).
    const merged = before.map((m, i) => new Map([...m, ...atKillUids[i]!]));
    const { lost, recreated } = checkConverged(expect, fleet, PUSH, merged, head);
    return {
      outcome: `${atKill}; restarted: converged in one pass, ${recreated} re-created, inventories = rendered folders`,
      lost,
      recovery_s: recovery,
    };
  } finally {
    for (const c of children) await c.kill9();
    await fleet.cleanup();
  }
}

const refLock = (fleet: Fleet, branch: string) =>
  existsSync(path.join(fleet.bare, 'refs', 'heads', ...branch.split('/')) + '.lock');

function removedLock(branch: string) {
  return (expect: Expectations, run: Child) => {
    const removed = run.events.entries.flatMap((e) =>
      e.step === 'lock' && Array.isArray(e.removedStaleRefLocks) ? (e.removedStaleRefLocks as string[]) : [],
    );
    expect.that(
      removed.includes(`refs/heads/${branch}.lock`),
      `the restarted reconciler removed the stale ${branch} ref lock (removed: ${removed.join(', ') || 'none'})`,
    );
  };
}

/**
 * Baseline via an in-process agent pass, a render, `flotilla agent` killed -9 mid-apply or holding the status ref
 * lock, `flotilla agent --once` converging.
 */
async function killAgent(expect: Expectations, at: 'mid-apply' | 'status-commit'): Promise<ScenarioResult> {
  const fleet = await makeFleet({ members: ['member3'], readyDelayMs: 0 });
  const children: Child[] = [];
  const kubeconfig = path.join(fleet.credentials, 'members.config');
  const kubes = await connectKubeconfig(kubeconfig, { timeoutMs: 5_000 });
  try {
    fleet.push(baseFiles(['member3'], true), 'Base fleet, member3 in Pull mode');
    await reconcileInProcess(fleet, []);
    const agentPass = async () =>
      runAgentPass({
        cluster: 'member3',
        kube: kubes.get('member3')!,
        source: { kind: 'local', repo: await openRepo(fleet.bare) },
        log: () => undefined,
      });
    const baseline = await agentPass();
    if (!baseline.ok) throw new Error(`baseline agent pass failed: ${baseline.problems.join('; ')}`);
    const before = [managedOn(fleet.members[0]!)];
    const head = fleet.push(change(true), 'Ten ConfigMaps more, cm-01 changed, cm-03 removed');
    await reconcileInProcess(fleet, []);

    const member = fleet.members[0]!;
    const statusBefore = refOf(fleet, STATUS);
    const agentArgs = ['agent', '--cluster', 'member3', '--repo', fleet.bare, '--kubeconfig', kubeconfig];
    let atKillWords: string;
    let started: number;
    if (at === 'mid-apply') {
      await member.faults.set({ latencyMs: 100 });
      const first = spawnFlotilla([...agentArgs, '--interval', '3600']);
      children.push(first);
      await firstManagedWrite(member, (name) => name.startsWith('cm-new-'));
      await first.kill9();
      const partial = newOn(fleet, 0);
      expect.that(partial >= 1 && partial < NEW, `killed mid-apply: ${partial} of ${NEW} new ConfigMaps applied`);
      atKillWords = `killed with ${partial}/${NEW} new objects applied`;
      await member.faults.reset();
      started = performance.now();
    } else {
      const first = spawnFlotilla([...agentArgs, '--interval', '3600'], { FLOTILLA_FAULT_PAUSE_AT: 'status-commit' });
      children.push(first);
      await first.events.next('the pause before the status commit', (e) => e.step === 'pause', PASS_TIMEOUT_MS, true);
      await first.kill9();
      const lock = path.join(fleet.bare, 'refs', 'heads', 'flotilla', 'status.lock');
      expect.that(existsSync(lock), 'the status ref lock left behind');
      expect.that(
        readFileSync(lock, 'utf8').includes(`pid=${first.child.pid} `),
        'the lock names the killed agent as its holder',
      );
      expect.that(refOf(fleet, STATUS) !== statusBefore, 'the planned inventory was committed before the apply');
      expect.equal(newOn(fleet, 0), NEW, 'new objects on member3 at the kill (apply done)');
      // The lock names a pid of this host that no longer runs: the next writer takes it over at once, no 10 s wait.
      started = performance.now();
      atKillWords =
        "killed holding the status ref lock (its pid written in it); --once at once took the dead pid's lock over";
    }
    const atKill = managedOn(member);

    const second = spawnFlotilla([...agentArgs, '--once']);
    children.push(second);
    const end = await second.exited;
    const recovery = since(started);
    expect.equal(
      end.code,
      0,
      `flotilla agent --once after the kill: exit code (stderr: ${second.stderr().slice(0, 300)})`,
    );
    const apply = second.events.entries.find((e) => e.step === 'apply');
    expect.equal(apply?.sourceCommit, head, "the agent applied the head's render");

    const wanted = renderedKeys(fleet, 'member3');
    const live = managedOn(member);
    const missing = wanted.filter((k) => !live.has(k));
    expect.equal(missing, [], 'member3: rendered objects missing');
    expect.equal(
      [...live.keys()].filter((k) => !wanted.includes(k)),
      [],
      'member3: managed objects beyond the rendered folder',
    );
    const merged = new Map([...before[0]!, ...atKill]);
    const recreated = [...merged].filter(([k, uid]) => live.has(k) && live.get(k) !== uid).map(([k]) => k);
    expect.equal(recreated, [], 'member3: objects deleted and re-created');
    expect.equal(inventoryKeys(fleet, 'member3'), wanted, 'member3: status inventory vs rendered folder');
    expect.that(refOf(fleet, STATUS) !== statusBefore, 'the status branch moved');
    return {
      outcome: `${atKillWords}; agent --once converged, ${recreated.length} re-created, inventory = folder`,
      lost: missing.length,
      recovery_s: recovery,
    };
  } finally {
    for (const c of children) await c.kill9();
    await Promise.all([...kubes.values()].map((k) => k.close()));
    await fleet.cleanup();
  }
}

/** Two `flotilla run` on one repo at the same moment: one gets the lock, the other is refused and writes nothing. */
async function twoReconcilers(expect: Expectations): Promise<ScenarioResult> {
  const fleet = await makeFleet({ members: PUSH, readyDelayMs: 0 });
  const children: Child[] = [];
  try {
    const head = fleet.push(baseFiles(PUSH), 'Base fleet');
    const started = performance.now();
    const runs = [spawnRun(fleet), spawnRun(fleet)];
    children.push(...runs);
    const loserIndex = await Promise.race(runs.map((r, i) => r.exited.then(() => i)));
    const loser = runs[loserIndex]!;
    const winner = runs[1 - loserIndex]!;
    expect.equal((await loser.exited).code, 2, 'exit code of the refused reconciler');
    expect.that(
      /another reconciler holds .*pid \d+/.test(loser.stderr()),
      `the refusal names the holder: ${loser.stderr().trim()}`,
    );
    expect.equal(
      loser.events.entries.filter((e) => ['render', 'apply', 'status', 'pass'].includes(String(e.step))).length,
      0,
      'steps run by the refused reconciler',
    );
    const pass = await winner.events.next("the winner's pass", (e) => e.step === 'pass', PASS_TIMEOUT_MS, true);
    const seconds = since(started);
    expect.equal([pass.error, pass.sourceCommit], [undefined, head], "the winner's pass: error and source commit");
    expect.equal(await winner.stop(), 0, 'clean stop of the winner');
    // Nothing written twice: every status commit changes the tree (the planned inventory, then the status, then
    // what status passes observe), and only one process wrote (the loser ran no step, asserted above).
    const trees = fleet.git(fleet.bare, 'log', '--format=%T', STATUS).trim().split('\n');
    expect.equal(new Set(trees).size, trees.length, 'status commits that changed nothing');
    const statusCommits = String(trees.length);
    const { lost } = checkConvergedFresh(expect, fleet, head);
    return {
      outcome: `one ran; the other exited 2 (lock held by pid ${winner.child.pid}) before any step; 1 output commit, ${statusCommits} status commits, none repeating`,
      lost,
      recovery_s: seconds,
    };
  } finally {
    for (const c of children) await c.kill9();
    await fleet.cleanup();
  }
}

function checkConvergedFresh(expect: Expectations, fleet: Fleet, head: string): { lost: number } {
  let lost = 0;
  for (const [i, cluster] of PUSH.entries()) {
    const wanted = renderedKeys(fleet, cluster);
    const live = managedOn(fleet.members[i]!);
    const missing = wanted.filter((k) => !live.has(k));
    lost += missing.length;
    expect.equal(missing, [], `${cluster}: rendered objects missing`);
    expect.equal(wanted.length, CONFIGMAPS + 1, `${cluster}: rendered objects`);
    expect.equal(inventoryKeys(fleet, cluster), wanted, `${cluster}: status inventory vs rendered folder`);
  }
  expect.equal(outputCommitsFor(fleet, head), 1, 'output commits for the source commit');
  return { lost };
}

export const processFaultScenarios: Scenario[] = [
  {
    group: 'process',
    name: 'reconciler killed after render, before the output commit',
    speed: 'fast',
    injected:
      'kill -9 of flotilla run with the rendered objects written and flotilla/rendered.lock taken, ref not moved',
    run: (expect) =>
      killReconciler(expect, {
        pause: 'output-commit',
        when: (run) =>
          run.events
            .next('the pause before the output commit', (e) => e.step === 'pause', PASS_TIMEOUT_MS, true)
            .then(() => undefined),
        atKill(expect, fleet, base) {
          expect.equal(refOf(fleet, RENDERED), base.rendered, 'rendered ref at the kill');
          expect.that(refLock(fleet, RENDERED), 'the ref lock left behind');
          expect.equal(newOn(fleet, 0) + newOn(fleet, 1), 0, 'new objects on members at the kill');
          return 'killed holding the ref lock, nothing applied';
        },
        onRestart: removedLock(RENDERED),
      }),
  },
  {
    // Soak: its restart is an ordinary pass over a rendered commit, and two process starts cost the fast set ~7 s.
    group: 'process',
    name: 'reconciler killed after the output commit, before apply',
    speed: 'soak',
    injected: 'kill -9 of flotilla run on its render log line (members answer after 5 s)',
    run: (expect) =>
      killReconciler(expect, {
        latencyMs: 5_000,
        when: (run, _fleet, head) =>
          run.events
            .next(
              'the render of the head',
              (e) => e.step === 'render' && e.sourceCommit === head && Boolean(e.outputCommit),
              PASS_TIMEOUT_MS,
              true,
            )
            .then(() => undefined),
        atKill(expect, fleet, base) {
          expect.that(refOf(fleet, RENDERED) !== base.rendered, 'the output commit was made before the kill');
          expect.equal(newOn(fleet, 0) + newOn(fleet, 1), 0, 'new objects on members at the kill');
          return 'output committed, nothing applied';
        },
      }),
  },
  {
    group: 'process',
    name: 'reconciler killed mid-apply',
    speed: 'fast',
    injected: 'kill -9 of flotilla run at its first new object on member1 (members answer after 100 ms)',
    run: (expect) => {
      let partial = 0;
      return killReconciler(expect, {
        latencyMs: 100,
        when: (_run, fleet) => firstManagedWrite(fleet.members[0]!, (name) => name.startsWith('cm-new-')),
        atKill(expect, fleet, base) {
          expect.that(refOf(fleet, RENDERED) !== base.rendered, 'the output commit was made before the kill');
          // Before applying, the reconciler committed what the apply may create (the planned inventory).
          expect.that(refOf(fleet, STATUS) !== base.status, 'the planned inventory was committed before the apply');
          partial = newOn(fleet, 0) + newOn(fleet, 1);
          expect.that(
            partial >= 1 && partial < 2 * NEW,
            `killed mid-apply: ${partial} of ${2 * NEW} new objects applied`,
          );
          return `killed with ${partial}/${2 * NEW} new objects applied`;
        },
      });
    },
  },
  {
    group: 'process',
    name: 'reconciler killed mid status commit',
    speed: 'fast',
    injected: 'kill -9 of flotilla run with the status objects written and flotilla/status.lock taken, ref not moved',
    run: (expect) =>
      killReconciler(expect, {
        pause: 'status-commit',
        when: (run) =>
          run.events
            .next('the pause before the status commit', (e) => e.step === 'pause', PASS_TIMEOUT_MS, true)
            .then(() => undefined),
        atKill(expect, fleet, base) {
          expect.that(refOf(fleet, STATUS) !== base.status, 'the planned inventory was committed before the apply');
          expect.that(refLock(fleet, STATUS), 'the ref lock left behind');
          expect.equal(newOn(fleet, 0) + newOn(fleet, 1), 2 * NEW, 'new objects on members at the kill (apply done)');
          return 'killed after apply, holding the status ref lock';
        },
        onRestart: removedLock(STATUS),
      }),
  },
  {
    group: 'process',
    name: 'Pull agent killed mid-apply',
    speed: 'fast',
    injected: 'kill -9 of flotilla agent (member3) at its first new object (member answers after 100 ms)',
    run: (expect) => killAgent(expect, 'mid-apply'),
  },
  {
    // Soak: three agent processes; the lock take-over itself is also covered by test/commits/updateRef.test.ts.
    group: 'process',
    name: 'Pull agent killed mid status commit',
    speed: 'soak',
    injected: 'kill -9 of flotilla agent (member3) with its status objects written and flotilla/status.lock taken',
    run: (expect) => killAgent(expect, 'status-commit'),
  },
  {
    group: 'process',
    name: 'two reconcilers on one repo',
    speed: 'fast',
    injected: 'two flotilla run started at the same moment on one bare repo',
    run: twoReconcilers,
  },
];
