// Tenant rows on bounds: a pull request decides replica counts, spread constraints and file sizes, and anyone can
// open connections to the reconciler's listener or replay a webhook they saw. None of it may make validate or plan
// run without bound, or stop anything else. Each row times validate and plan on the attacking commit (the bound
// asserted is generous, the machine is shared; the row shows what was measured) and checks the rest still works.
import { writeFileSync, truncateSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { planCommand } from '../../../src/commands/planCommand.ts';
import { validateText } from '../../helpers/validateText.ts';
import { DEFAULT_PARSE_LIMITS } from '../../../src/documents/parseDocuments.ts';
import type { ProblemCode } from '../../../src/errors/codes.ts';
import {
  baseFiles,
  clusterRegistration,
  CLUSTERS,
  clusterYaml,
  configMap,
  configMapPolicy,
  deployment,
  makeFleet,
  manifestOf,
  RENDERED_REF,
  SOURCE_REF,
} from '../../helpers/fleet.ts';
import type { Expectations, Scenario } from '../helpers/frame.ts';
import { since } from '../helpers/frame.ts';
import { startRemoteReconciler } from '../helpers/remote.ts';
import { forgeHeaders, postGithubPush } from '../../helpers/forgeDeliveries.ts';

const FRESH = 'templates/fresh.yaml';

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; s: number }> {
  const started = performance.now();
  const value = await run();
  return { value, s: since(started) };
}

async function validate(dir: string): Promise<{ code: number; text: string; s: number }> {
  const { value, s } = await timed(() => validateText(dir));
  return { ...value, s };
}

async function plan(dir: string): Promise<{ code: number; text: string; s: number }> {
  let text = '';
  const { value: code, s } = await timed(() =>
    planCommand({
      repo: dir,
      rev: 'HEAD',
      sourceRef: SOURCE_REF,
      outputRef: RENDERED_REF,
      clusterStatusFile: undefined,
      output: 'text',
      out: (t) => void (text += t),
      err: (t) => void (text += t),
      base: 'HEAD~1',
      head: 'HEAD',
    }),
  );
  return { code, text, s };
}

/**
 * Pushes `files` (plus a fresh ConfigMap) onto a rendered base fleet, then: validate and plan finish (their times go
 * into the row, untested: the bounds are the expected problem, which names the limit that stopped the work, and the
 * RSS), the expected problem at file:line, and the rest of the commit rendered by the sync. `prepare` may write to the work
 * tree before the commit (a sparse file).
 */
async function boundedPush(
  expect: Expectations,
  def: {
    files: Record<string, string>;
    base?: Record<string, string>;
    prepare?: (dir: string) => void;
    problem?: { code: ProblemCode; file: string; line?: number; message?: RegExp };
    /** Resident memory validate and plan may add (measured: +0 to 2 MB with the blob refused, +144 MB inflating it). */
    maxRssGrowthMb?: number;
  },
): Promise<{ outcome: string; lost: number }> {
  const fleet = await makeFleet({ files: def.base ?? baseFiles() });
  try {
    await fleet.sync();
    if (def.maxRssGrowthMb !== undefined) {
      // Loading validate's and plan's modules and warming them up grows RSS too: pay that before measuring.
      fleet.work.commit({ 'templates/warm-up.yaml': configMap('warm-up') }, 'A harmless change');
      await validate(fleet.work.dir);
      await plan(fleet.work.dir);
    }
    def.prepare?.(fleet.work.dir);
    fleet.work.commit({ ...def.files, [FRESH]: configMap('fresh') }, 'The attacking change');
    const rssBefore = process.memoryUsage().rss;
    const v = await validate(fleet.work.dir);
    const p = await plan(fleet.work.dir);
    const rssGrowthMb = (process.memoryUsage().rss - rssBefore) / 1024 / 1024;
    if (def.maxRssGrowthMb !== undefined)
      expect.that(
        rssGrowthMb < def.maxRssGrowthMb,
        `validate and plan grew RSS by ${rssGrowthMb.toFixed(0)} MB (bound ${def.maxRssGrowthMb} MB)`,
      );
    if (def.problem) {
      const where = `${def.problem.file}:${def.problem.line ?? ''}`;
      expect.that(
        v.text.includes(where) && v.text.includes(def.problem.code) && v.text.includes('fix:'),
        `validate names ${where} ${def.problem.code} and a fix; got: ${v.text.slice(0, 400)}`,
      );
    }
    const sync = await fleet.sync();
    const problems = sync.reports.flatMap((r) => r.problems);
    if (def.problem) {
      const want = def.problem;
      expect.that(
        problems.some(
          (x) =>
            x.code === want.code &&
            x.file === want.file &&
            (want.line === undefined || x.line === want.line) &&
            (!want.message || want.message.test(x.message)),
        ),
        `the sync reports ${want.code} at ${want.file}; got ${problems.map((x) => `${x.code}@${x.file}:${x.line}`).join(', ') || 'none'}`,
      );
    }
    const output = await fleet.output();
    const fresh = CLUSTERS.filter((c) => output.has(manifestOf(c, 'ConfigMap', 'fresh')));
    expect.equal(fresh, [...CLUSTERS], 'clusters that received the rest of the commit');
    return {
      outcome: `validate ${v.s.toFixed(2)} s (exit ${v.code}), plan ${p.s.toFixed(2)} s (exit ${p.code})${def.problem ? `, ${def.problem.code} at ${def.problem.file}${def.problem.line ? `:${def.problem.line}` : ''}` : ''}; rest of the commit rendered; RSS +${Math.max(0, rssGrowthMb).toFixed(0)} MB`,
      lost: CLUSTERS.length - fresh.length,
    };
  } finally {
    await fleet.cleanup();
  }
}

function dividedPolicy(name: string, selector: string, placement: string): string {
  return `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: ${name}
  namespace: default
spec:
  resourceSelectors:
    - apiVersion: apps/v1
      kind: Deployment
      name: ${selector}
  placement:
${placement}`;
}

const SLOW_HEAD = 'POST /hooks/github HTTP/1.1\r\nHost: flotilla\r\nContent-Type: application/json\r\n';

/**
 * Opens a connection from `from` that sends part of a request head and then nothing; resolves on connect. `closed`
 * resolves to the first line the server answered before closing it, '' when it closed it without a word.
 */
function slowConnection(url: string, from: string): Promise<{ socket: net.Socket; closed: Promise<string> }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port: Number(port), localAddress: from });
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
    });
    const closed = new Promise<string>((done) => socket.once('close', () => done(answer.split('\r\n')[0] ?? '')));
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.off('error', reject);
      socket.on('error', () => undefined);
      socket.write(SLOW_HEAD);
      resolve({ socket, closed });
    });
  });
}

const SECRET = 'tenant-webhook-s3cret';
/** A push delivery of `body` under delivery id `delivery`, signed with SECRET. */
const deliver = (url: string, body: string, delivery: string) =>
  postGithubPush(url, body, forgeHeaders('github', body, delivery, SECRET));

export const tenantBoundsScenarios: Scenario[] = [
  {
    group: 'tenant',
    name: 'huge replicas',
    speed: 'fast',
    injected: 'a Deployment with replicas 2147483647 divided over the clusters; another with replicas 1000000000000',
    run: (expect) =>
      boundedPush(expect, {
        files: {
          'templates/web.yaml': deployment('web', 1_000_000_000_000),
          'templates/wide.yaml': deployment('wide', 2147483647),
          'policies/wide.yaml': dividedPolicy(
            'wide',
            'wide',
            `    clusterAffinity:
      clusterNames: [${CLUSTERS.join(', ')}]
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        staticWeightList:
          - targetCluster: { clusterNames: [member1] }
            weight: 3
          - targetCluster: { clusterNames: [member2] }
            weight: 1
`,
          ),
        },
        // deployment(): `replicas:` is line 9.
        problem: { code: 'INVALID_VALUE', file: 'templates/web.yaml', line: 9 },
      }),
  },
  {
    group: 'tenant',
    name: 'many-region spread',
    speed: 'fast',
    injected: 'a region spread over 28 one-cluster regions asking for 14 clusters in up to 28 regions',
    run: (expect) => {
      const regions = Array.from({ length: 28 }, (_, i) => `region${String(i).padStart(2, '0')}`);
      const clusters = [...CLUSTERS, ...regions.map((r) => `in-${r}`)];
      const base = { ...baseFiles(4, CLUSTERS) };
      for (const [i, r] of regions.entries())
        base[`clusters/in-${r}.yaml`] = clusterYaml(clusters[i + CLUSTERS.length]!, { region: r });
      return boundedPush(expect, {
        base,
        files: {
          'templates/spread.yaml': deployment('spread', 28),
          'policies/spread.yaml': dividedPolicy(
            'spread',
            'spread',
            `    clusterAffinity:
      clusterNames: [${regions.map((r) => `in-${r}`).join(', ')}]
    spreadConstraints:
      - spreadByField: region
        minGroups: 1
        maxGroups: 28
      - spreadByField: cluster
        minGroups: 14
        maxGroups: 28
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Aggregated
`,
          ),
        },
        problem: { code: 'UNSCHEDULABLE', file: 'templates/spread.yaml', message: /more than 200000 search steps/ },
      });
    },
  },
  {
    group: 'tenant',
    name: 'oversized blob',
    speed: 'fast',
    injected: `a 64 MiB file of zeros under templates/ (compresses to some 64 KiB; the limit is ${DEFAULT_PARSE_LIMITS.maxFileBytes / 1024 / 1024} MiB)`,
    run: (expect) =>
      boundedPush(expect, {
        files: {},
        // Sparse: the test process never holds the 64 MiB either.
        prepare: (dir) => {
          const file = path.join(dir, 'templates/zeros.yaml');
          writeFileSync(file, '');
          truncateSync(file, 64 * 1024 * 1024);
        },
        problem: { code: 'FILE_TOO_LARGE', file: 'templates/zeros.yaml', line: 1 },
        maxRssGrowthMb: 48,
      }),
  },
  {
    group: 'tenant',
    name: 'slow-loris on the listener',
    speed: 'fast',
    injected: '120 connections from one address sending half a request head, then nothing; a push hooked meanwhile',
    run: async (expect) => {
      const fleet = await makeFleet({ members: ['member1'], readyDelayMs: 0 });
      const limits = {
        headersTimeoutMs: 500,
        requestTimeoutMs: 1000,
        timeoutCheckIntervalMs: 100,
        maxConnectionsPerAddress: 16,
      };
      const remote = await startRemoteReconciler(fleet, { webhookSecret: SECRET, listenLimits: limits });
      const slow: { socket: net.Socket; closed: Promise<string> }[] = [];
      try {
        const url = remote.reconciler.url!;
        for (let i = 0; i < 120; i++) slow.push(await slowConnection(url, '127.0.0.2'));
        const health = await timed(async () => (await fetch(`${url}/healthz`)).status);
        expect.equal(health.value, 200, '/healthz under the slow connections');
        const head = fleet.push(
          {
            'clusters/member1.yaml': clusterRegistration('member1'),
            'policies/cms.yaml': configMapPolicy(['member1']),
            'templates/cm.yaml': configMap('during-loris', 'v1'),
          },
          'A ConfigMap',
        );
        const started = performance.now();
        expect.equal(
          await deliver(url, JSON.stringify({ ref: 'refs/heads/main', after: head }), 'loris-1'),
          202,
          'a good delivery during the load',
        );
        const pass = await remote.events.next('the pass of the hooked push', (e) => e.step === 'pass', 20_000, true);
        const recovery = since(started);
        expect.equal([pass.error, pass.sourceCommit], [undefined, head], 'the pass: error and source commit');
        const applied = Boolean(fleet.members[0]!.store.get('/configmaps', 'default', 'during-loris'));
        expect.that(applied, 'the pushed ConfigMap applied during the load');
        let timer: NodeJS.Timeout | undefined;
        const deadline = new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), 15_000);
        });
        const answers = await Promise.race([Promise.all(slow.map((s) => s.closed)), deadline]);
        clearTimeout(timer);
        if (
          expect.that(answers !== 'timeout', 'every slow connection closed by the server (15 s safety net)') &&
          answers !== 'timeout'
        ) {
          // Told apart by what the server answered, not by when: over the cap a connection is closed as accepted,
          // without a word; the others get node's 408 at the headers timeout.
          expect.equal(
            answers.filter((a) => a === '').length,
            120 - limits.maxConnectionsPerAddress,
            'connections closed unanswered, as accepted',
          );
          expect.equal(
            [...new Set(answers.filter((a) => a !== ''))],
            ['HTTP/1.1 408 Request Timeout'],
            'what the others were answered',
          );
        }
        return {
          outcome: `/healthz 200 in ${health.s.toFixed(2)} s; ${120 - limits.maxConnectionsPerAddress} over the per-address cap closed at once, the rest after the ${limits.headersTimeoutMs} ms headers timeout; the hooked push applied`,
          lost: applied ? 0 : 1,
          recovery_s: recovery,
        };
      } finally {
        for (const s of slow) s.socket.destroy();
        await remote.close();
        await fleet.cleanup();
      }
    },
  },
  {
    group: 'tenant',
    name: 'webhook replay',
    speed: 'fast',
    injected: 'a signed push delivery replayed 10 times under new delivery ids',
    run: async (expect) => {
      const fleet = await makeFleet({ members: ['member1'], readyDelayMs: 0 });
      const remote = await startRemoteReconciler(fleet, { webhookSecret: SECRET });
      try {
        const url = remote.reconciler.url!;
        const head = fleet.push(
          {
            'clusters/member1.yaml': clusterRegistration('member1'),
            'policies/cms.yaml': configMapPolicy(['member1']),
            'templates/cm.yaml': configMap('replayed', 'v1'),
          },
          'A ConfigMap',
        );
        const body = JSON.stringify({ ref: 'refs/heads/main', after: head });
        const started = performance.now();
        expect.equal(await deliver(url, body, 'original'), 202, 'the original delivery');
        await remote.events.next('the pass of the original delivery', (e) => e.step === 'pass', 20_000, true);
        const recovery = since(started);
        const passes = remote.events.entries.filter((e) => e.step === 'pass').length;
        const fetches = remote.events.entries.filter((e) => e.step === 'fetch').length;
        const replays: number[] = [];
        for (let i = 0; i < 10; i++) replays.push(await deliver(url, body, `replay-${i}`));
        expect.equal(replays, Array(10).fill(409), 'the replays under new delivery ids');
        const metrics = await remote.reconciler.metrics.registry.metrics();
        expect.equal(
          /flotilla_triggers_total\{trigger="webhook"\} (\d+)/.exec(metrics)?.[1],
          '1',
          'passes asked for by webhooks',
        );
        expect.equal(remote.events.entries.filter((e) => e.step === 'pass').length, passes, 'passes after the replays');
        expect.equal(
          remote.events.entries.filter((e) => e.step === 'fetch').length,
          fetches,
          'fetches after the replays',
        );
        const applied = Boolean(fleet.members[0]!.store.get('/configmaps', 'default', 'replayed'));
        expect.that(applied, 'the pushed ConfigMap applied once');
        return {
          outcome: 'the delivery 202 and one pass; 10 replays under new ids 409, no fetch, no pass',
          lost: applied ? 0 : 1,
          recovery_s: recovery,
        };
      } finally {
        await remote.close();
        await fleet.cleanup();
      }
    },
  },
];
