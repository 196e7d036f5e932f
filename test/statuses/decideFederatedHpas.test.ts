// A FederatedHPA or CronFederatedHPA that turns invalid in a later commit goes on under its last valid definition (or,
// with none, keeps its last decision or status file), as Karmada's webhook refuses the update and the last valid object
// keeps running; one removed from Git loses it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  autoscaledReplicas,
  autoscalerPath,
  cronAutoscalerPath,
  type AutoscalerDecisionFile,
  parseAutoscalerDecision,
  parseCronAutoscaler,
  type CronAutoscalerFile,
} from '../../src/branches/status/autoscalerDecisions.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { bindingPath } from '../../src/branches/rendered/outputPaths.ts';
import type { GitRepo } from '../../src/commits/types.ts';
import { decideFederatedHpas, newAutoscalerMemory } from '../../src/statuses/decideFederatedHpas.ts';
import { readRef } from '../../src/commits/readRef.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { makeConfigRepo, RENDERED_REF, SOURCE_REF } from '../helpers/fleet.ts';

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx}]}
`;
const fhpa = (min: number, max: number) => `apiVersion: autoscaling.karmada.io/v1alpha1
kind: FederatedHPA
metadata: {name: web, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: ${min}
  maxReplicas: ${max}
`;
const cron = (schedule: string) => `apiVersion: autoscaling.karmada.io/v1alpha1
kind: CronFederatedHPA
metadata: {name: web-cron, namespace: default}
spec:
  scaleTargetRef: {apiVersion: autoscaling.karmada.io/v1alpha1, kind: FederatedHPA, name: web}
  rules: [{name: day, schedule: "${schedule}", targetMinReplicas: 3}]
`;
const DECISION = parseAutoscalerDecision(`apiVersion: autoscaling.karmada.io/v1alpha1
kind: FederatedHPA
metadata: {namespace: default, name: web}
scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
desiredReplicas: 4
currentReplicas: 2
reason: cpu resource utilization (percentage of request) above target
ableToScale: SucceededRescale
metrics: []
lastScaleTime: "2026-01-01T00:00:00Z"
`);
const CRON_STATUS = parseCronAutoscaler(`apiVersion: autoscaling.karmada.io/v1alpha1
kind: CronFederatedHPA
metadata: {namespace: default, name: web-cron}
scaleTargetRef: {apiVersion: autoscaling.karmada.io/v1alpha1, kind: FederatedHPA, name: web}
executionHistories: []
`);

const WEB_BINDING = bindingPath({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' });

async function decide(files: Record<string, string | null>) {
  const config = makeConfigRepo();
  try {
    const commit = config.commit({ 'templates/web.yaml': DEPLOYMENT, ...files });
    const repo = await openRepo(config.dir);
    return await decideFederatedHpas({
      repo,
      sourceCommit: commit,
      renderedCommit: commit,
      existing: new Map([[autoscalerPath('default', 'web'), DECISION]]),
      existingCrons: new Map([[cronAutoscalerPath('default', 'web-cron'), CRON_STATUS]]),
      clusters: new Map(),
      ready: new Set(),
      now: new Date('2026-01-01T00:01:00Z'),
      memory: newAutoscalerMemory(),
    });
  } finally {
    config.cleanup();
  }
}

/** One status pass over `commit` with no members, at `now`: what the CronFederatedHPAs' statuses become. */
function cronPass(
  repo: GitRepo,
  commit: string,
  memory: ReturnType<typeof newAutoscalerMemory>,
  now: string,
  existingCrons: ReadonlyMap<string, CronAutoscalerFile> = new Map(),
) {
  return decideFederatedHpas({
    repo,
    sourceCommit: commit,
    renderedCommit: commit,
    existing: new Map(),
    existingCrons,
    clusters: new Map(),
    ready: new Set(),
    now: new Date(now),
    memory,
  });
}

/** The CronFederatedHPA's status after a pass at 00:00:30 and one at 00:01:30 given the first's: one "* * * * *" run. */
async function statusAfterOneMinute(repo: GitRepo, commit: string, path: string): Promise<CronAutoscalerFile> {
  const memory = newAutoscalerMemory();
  const first = await cronPass(repo, commit, memory, '2026-01-01T00:00:30Z');
  const second = await cronPass(
    repo,
    commit,
    memory,
    '2026-01-01T00:01:30Z',
    new Map([[path, parseCronAutoscaler(first.edits.get(path)!)]]),
  );
  return parseCronAutoscaler(second.edits.get(path)!);
}

test('an invalid FederatedHPA and CronFederatedHPA keep their last decision and status', async () => {
  const out = await decide({ 'templates/web-fhpa.yaml': fhpa(2, 1), 'templates/web-cron.yaml': cron('0 8 * *') });
  assert.equal([...out.edits.keys()], []);
  assert.equal(out.lines, []);
});

test('a FederatedHPA and CronFederatedHPA that turn invalid go on under their last valid definition in the rendered history, until one is valid again', async () => {
  const config = makeConfigRepo();
  const target = (name: string, min: number, max: number) =>
    fhpa(min, max).replace('kind: Deployment, name: web', `kind: Deployment, name: ${name}`);
  try {
    const repo = await openRepo(config.dir);
    const memory = newAutoscalerMemory();
    let existing = new Map<string, AutoscalerDecisionFile>();
    let existingCrons = new Map<string, CronAutoscalerFile>();
    let minute = 0;
    /** Commits and renders `files`, then runs one status pass over the render, a minute after the last. */
    const step = async (files: Record<string, string>, at = new Date(Date.UTC(2026, 0, 1, 0, minute++, 30))) => {
      config.commit({ 'templates/api.yaml': DEPLOYMENT.replaceAll('web', 'api'), ...files });
      const { reports } = await syncRepo(repo, { sourceRef: SOURCE_REF, outputRef: RENDERED_REF });
      const out = await decideFederatedHpas({
        repo,
        sourceCommit: (await readRef(repo, SOURCE_REF))!,
        renderedCommit: (await readRef(repo, RENDERED_REF))!,
        existing,
        existingCrons,
        clusters: new Map(),
        ready: new Set(),
        now: at,
        memory,
      });
      const decision = out.edits.get(autoscalerPath('default', 'web'));
      if (decision) existing = new Map([[autoscalerPath('default', 'web'), parseAutoscalerDecision(decision)]]);
      const status = out.edits.get(cronAutoscalerPath('default', 'web-cron'));
      if (status) existingCrons = new Map([[cronAutoscalerPath('default', 'web-cron'), parseCronAutoscaler(status)]]);
      const history = existingCrons.get(cronAutoscalerPath('default', 'web-cron'))?.executionHistories?.[0];
      return {
        problems: reports.flatMap((r) => r.problems),
        target: existing.get(autoscalerPath('default', 'web'))?.scaleTargetRef.name,
        gitReplicas: existing.get(autoscalerPath('default', 'web'))?.gitReplicas,
        next: history?.nextExecutionTime,
        ran: history?.successfulExecutions,
      };
    };
    const valid = await step({
      'templates/web.yaml': DEPLOYMENT,
      'templates/web-fhpa.yaml': target('web', 1, 4),
      'templates/web-cron.yaml': cron('0 8 * * *'),
    });
    assert.equal([valid.target, valid.gitReplicas, valid.next], ['web', 1, '2026-01-01T08:00:00Z']);

    // Invalid: another target with minReplicas above maxReplicas, a schedule of four fields. Git's count moves.
    const broken = await step({
      'templates/web.yaml': DEPLOYMENT.replace('replicas: 1', 'replicas: 2'),
      'templates/web-fhpa.yaml': target('api', 3, 1),
      'templates/web-cron.yaml': cron('0 9 * *'),
    });
    assert.equal(
      [broken.target, broken.gitReplicas, broken.next],
      ['web', 2, '2026-01-01T08:00:00Z'],
      'decided on the last valid spec, from the new count',
    );
    const reported = (file: string, line: number) =>
      broken.problems.find((p) => p.file === file && p.line === line && p.severity === 'error' && p.fix);
    assert.ok(reported('templates/web-fhpa.yaml', 7), 'maxReplicas, at its line, with the fix');
    assert.ok(reported('templates/web-cron.yaml', 6), 'the schedule, at its line, with the fix');

    // Still invalid a commit later, at 08:00:30: the walk goes past the renders that read it invalid; the rule runs.
    const still = await step(
      { 'templates/web.yaml': DEPLOYMENT.replace('replicas: 1', 'replicas: 3') },
      new Date('2026-01-01T08:00:30Z'),
    );
    assert.equal([still.target, still.gitReplicas, still.next], ['web', 3, '2026-01-02T08:00:00Z']);
    assert.equal(still.ran?.length, 1, 'the last valid rule ran at 08:00');

    const fixed = await step(
      { 'templates/web-fhpa.yaml': target('api', 1, 4), 'templates/web-cron.yaml': cron('0 9 * * *') },
      new Date('2026-01-01T08:01:30Z'),
    );
    assert.equal([fixed.target, fixed.next], ['api', '2026-01-01T09:00:00Z'], 'the new spec at once');
  } finally {
    config.cleanup();
  }
});

test('a FederatedHPA in a file that stops parsing goes on under its definition of the last render that read the file', async () => {
  const config = makeConfigRepo();
  try {
    const repo = await openRepo(config.dir);
    let existing = new Map<string, AutoscalerDecisionFile>();
    const pass = async (files: Record<string, string>, minute: number) => {
      config.commit(files);
      await syncRepo(repo, { sourceRef: SOURCE_REF, outputRef: RENDERED_REF });
      const out = await decideFederatedHpas({
        repo,
        sourceCommit: (await readRef(repo, SOURCE_REF))!,
        renderedCommit: (await readRef(repo, RENDERED_REF))!,
        existing,
        clusters: new Map(),
        ready: new Set(),
        now: new Date(Date.UTC(2026, 0, 1, 0, minute)),
        memory: newAutoscalerMemory(),
      });
      const text = out.edits.get(autoscalerPath('default', 'web'));
      if (text) existing = new Map([[autoscalerPath('default', 'web'), parseAutoscalerDecision(text)]]);
      return text;
    };
    await pass({ 'templates/web.yaml': DEPLOYMENT, 'templates/web-fhpa.yaml': fhpa(1, 4) }, 0);
    const text = await pass(
      {
        'templates/web.yaml': DEPLOYMENT.replace('replicas: 1', 'replicas: 2'),
        'templates/web-fhpa.yaml': `${fhpa(1, 4)}spec: [\n`,
      },
      1,
    );
    assert.ok(text, 'not deleted');
    assert.is(parseAutoscalerDecision(text).gitReplicas, 2, "decided again, from Git's new count");
  } finally {
    config.cleanup();
  }
});

test('a FederatedHPA and CronFederatedHPA removed from Git lose their decision and status', async () => {
  const out = await decide({});
  assert.equal([...out.edits.entries()].sort(), [
    ['autoscalers/default/web.yaml', null],
    ['cronautoscalers/default/web-cron.yaml', null],
  ]);
});

test('a CronFederatedHPA rule whose target the config repo lacks records a failed execution, and applies nothing', async () => {
  const config = makeConfigRepo();
  try {
    const commit = config.commit({
      'templates/web.yaml': DEPLOYMENT,
      'templates/nope-cron.yaml': `apiVersion: autoscaling.karmada.io/v1alpha1
kind: CronFederatedHPA
metadata: {name: nope-cron, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: nope}
  rules: [{name: every-minute, schedule: "* * * * *", targetReplicas: 3}]
`,
      'templates/nohpa-cron.yaml': `apiVersion: autoscaling.karmada.io/v1alpha1
kind: CronFederatedHPA
metadata: {name: nohpa-cron, namespace: default}
spec:
  scaleTargetRef: {apiVersion: autoscaling.karmada.io/v1alpha1, kind: FederatedHPA, name: nohpa}
  rules: [{name: every-minute, schedule: "* * * * *", targetMaxReplicas: 3}]
`,
    });
    const repo = await openRepo(config.dir);
    const toFhpa = await statusAfterOneMinute(repo, commit, cronAutoscalerPath('default', 'nohpa-cron'));
    assert.is(
      toFhpa.executionHistories?.[0]?.failedExecutions?.[0]?.message,
      'federatedhpas.autoscaling.karmada.io "nohpa" not found',
    );
    const status = await statusAfterOneMinute(repo, commit, cronAutoscalerPath('default', 'nope-cron'));
    const history = status.executionHistories?.[0];
    assert.equal(history?.successfulExecutions ?? [], []);
    // The API server's NotFound, as Karmada's ScaleWorkloads records it.
    assert.is(history?.failedExecutions?.[0]?.message, 'deployments.apps "nope" not found');
    assert.is(status.applied, undefined);
  } finally {
    config.cleanup();
  }
});

test("a CronFederatedHPA rule's next execution follows its schedule and suspend at once; a suspended rule has none", async () => {
  const config = makeConfigRepo();
  const cronWith = (schedule: string, suspend: boolean) => `apiVersion: autoscaling.karmada.io/v1alpha1
kind: CronFederatedHPA
metadata: {name: web-cron, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  rules: [{name: day, schedule: "${schedule}", targetReplicas: 3, suspend: ${suspend}}]
`;
  try {
    const repo = await openRepo(config.dir);
    const memory = newAutoscalerMemory();
    const path = cronAutoscalerPath('default', 'web-cron');
    let existingCrons = new Map<string, CronAutoscalerFile>();
    const next = async (schedule: string, suspend: boolean) => {
      const commit = config.commit({
        'templates/web.yaml': DEPLOYMENT,
        'templates/web-cron.yaml': cronWith(schedule, suspend),
      });
      const out = await cronPass(repo, commit, memory, '2026-01-01T00:00:30Z', existingCrons);
      const text = out.edits.get(path);
      if (text) existingCrons = new Map([[path, parseCronAutoscaler(text)]]);
      return existingCrons.get(path)?.executionHistories?.[0]?.nextExecutionTime;
    };
    assert.is(await next('0 8 * * *', false), '2026-01-01T08:00:00Z');
    assert.is(await next('0 9 * * *', false), '2026-01-01T09:00:00Z', 'the edited schedule, at once');
    assert.is(await next('0 9 * * *', true), undefined, 'suspended');
  } finally {
    config.cleanup();
  }
});

test("a CronFederatedHPA's rule histories keep the order the rules first came in, as Karmada appends a new rule's", async () => {
  // cronfederatedhpa_controller.go: updateRuleHistory appends a history for a rule it has none for; a rule removed
  // loses its history (removeCronFHPAHistory); the others stay where they were.
  const config = makeConfigRepo();
  const rule = (name: string) => `{name: ${name}, schedule: "0 8 * * *", targetReplicas: 2}`;
  const cronOf = (...names: string[]) => `apiVersion: autoscaling.karmada.io/v1alpha1
kind: CronFederatedHPA
metadata: {name: web-cron, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  rules: [${names.map(rule).join(', ')}]
`;
  try {
    const repo = await openRepo(config.dir);
    const memory = newAutoscalerMemory();
    const path = cronAutoscalerPath('default', 'web-cron');
    let existingCrons = new Map<string, CronAutoscalerFile>();
    const order = async (...names: string[]) => {
      const commit = config.commit({ 'templates/web.yaml': DEPLOYMENT, 'templates/web-cron.yaml': cronOf(...names) });
      const out = await cronPass(repo, commit, memory, '2026-01-01T00:00:30Z', existingCrons);
      const text = out.edits.get(path);
      if (text) existingCrons = new Map([[path, parseCronAutoscaler(text)]]);
      return existingCrons.get(path)?.executionHistories?.map((h) => h.ruleName);
    };
    assert.equal(await order('a', 'b'), ['a', 'b']);
    assert.equal(await order('c', 'b', 'a'), ['a', 'b', 'c'], 'a new rule is appended; the others keep their places');
    assert.equal(await order('d', 'a', 'c'), ['a', 'c', 'd'], 'a removed rule goes');
  } finally {
    config.cleanup();
  }
});

test("a CronFederatedHPA rule whose targetMinReplicas exceeds the FederatedHPA's maxReplicas fails as Karmada's webhook refuses the update", async () => {
  const config = makeConfigRepo();
  const withRule = (rule: string) => `apiVersion: autoscaling.karmada.io/v1alpha1
kind: CronFederatedHPA
metadata: {name: web-cron, namespace: default}
spec:
  scaleTargetRef: {apiVersion: autoscaling.karmada.io/v1alpha1, kind: FederatedHPA, name: web}
  rules: [{name: every-minute, schedule: "* * * * *", ${rule}}]
`;
  try {
    const repo = await openRepo(config.dir);
    const path = cronAutoscalerPath('default', 'web-cron');
    const run = async (rule: string) => {
      const commit = config.commit({
        'templates/web.yaml': DEPLOYMENT,
        'templates/web-fhpa.yaml': fhpa(2, 4),
        'templates/web-cron.yaml': withRule(rule),
      });
      return statusAfterOneMinute(repo, commit, path);
    };
    const above = await run('targetMinReplicas: 6');
    assert.is(above.applied, undefined);
    assert.is(above.executionHistories?.[0]?.successfulExecutions, undefined);
    assert.is(
      above.executionHistories?.[0]?.failedExecutions?.[0]?.message,
      'admission webhook "federatedhpa.karmada.io" denied the request: spec.maxReplicas: Invalid value: 4: must be greater than or equal to `minReplicas`',
    );
    const below = await run('targetMaxReplicas: 1');
    assert.match(below.executionHistories?.[0]?.failedExecutions?.[0]?.message ?? '', /Invalid value: 1: must be/);
    // Both moved together stay valid.
    const both = await run('targetMinReplicas: 6, targetMaxReplicas: 8');
    assert.equal(both.applied && [both.applied.minReplicas, both.applied.maxReplicas], [6, 8]);
  } finally {
    config.cleanup();
  }
});

test("a CronFederatedHPA's successful execution records the rule's targets as written, as Karmada's history does", async () => {
  const config = makeConfigRepo();
  try {
    const commit = config.commit({
      'templates/web.yaml': DEPLOYMENT,
      'templates/web-cron.yaml': `apiVersion: autoscaling.karmada.io/v1alpha1
kind: CronFederatedHPA
metadata: {name: web-cron, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  rules: [{name: every-minute, schedule: "* * * * *", targetReplicas: 3, targetMinReplicas: 2}]
`,
    });
    const repo = await openRepo(config.dir);
    const status = await statusAfterOneMinute(repo, commit, cronAutoscalerPath('default', 'web-cron'));
    assert.equal(status.executionHistories[0]?.successfulExecutions, [
      {
        scheduleTime: '2026-01-01T00:01:00Z',
        executionTime: '2026-01-01T00:01:30Z',
        appliedReplicas: 3,
        appliedMinReplicas: 2,
      },
    ]);
    // The workload takes targetReplicas alone.
    assert.is(status.applied?.replicas, 3);
    assert.is(status.applied?.minReplicas, undefined);
  } finally {
    config.cleanup();
  }
});

test('a FederatedHPA that cannot read its scale keeps the conditions that pass did not set and its last metrics, as Karmada keeps them', async () => {
  const config = makeConfigRepo();
  try {
    // Scheduled to member1, which is not Ready: no scale.
    const rendered = config.commit({ [WEB_BINDING]: 'spec: {clusters: [{name: member1}]}\n' });
    const commit = config.commit({
      [WEB_BINDING]: null,
      'templates/web.yaml': DEPLOYMENT,
      'templates/web-fhpa.yaml': fhpa(1, 4),
    });
    const path = autoscalerPath('default', 'web');
    const before = {
      ...DECISION,
      gitReplicas: 1,
      metrics: [
        {
          resource: 'cpu',
          targetUtilization: 50,
          currentUtilization: 90,
          currentAverageValue: '90m',
          pods: { member1: 2 },
        },
      ],
      conditions: [
        { type: 'AbleToScale' as const, status: 'True' as const, reason: 'ReadyForNewScale', message: 'm' },
        { type: 'ScalingActive' as const, status: 'True' as const, reason: 'ValidMetricFound', message: 'm' },
        { type: 'ScalingLimited' as const, status: 'True' as const, reason: 'TooManyReplicas', message: 'm' },
      ],
    };
    const out = await decideFederatedHpas({
      repo: await openRepo(config.dir),
      sourceCommit: commit,
      renderedCommit: rendered,
      existing: new Map([[path, before]]),
      clusters: new Map(),
      ready: new Set(),
      now: new Date('2026-01-01T00:01:00Z'),
      memory: newAutoscalerMemory(),
    });
    const after = parseAutoscalerDecision(out.edits.get(path)!);
    assert.equal(
      after.conditions?.map((c) => `${c.type}=${c.status} ${c.reason}`),
      [
        'AbleToScale=False FailedGetScale',
        'ScalingActive=True ValidMetricFound',
        'ScalingLimited=True TooManyReplicas',
      ],
    );
    assert.is(after.ableToScale, 'FailedGetScale');
    assert.equal(after.metrics, before.metrics);
    assert.match(out.lines[0] ?? '', /keeps 4 replicas \(AbleToScale=False FailedGetScale: /);
  } finally {
    config.cleanup();
  }
});

test("a CronFederatedHPA's maxReplicas on a FederatedHPA holds until Git edits that field, as a user's update wins in Karmada", async () => {
  const config = makeConfigRepo();
  const withRule = (rule: string) => `apiVersion: autoscaling.karmada.io/v1alpha1
kind: CronFederatedHPA
metadata: {name: web-cron, namespace: default}
spec:
  scaleTargetRef: {apiVersion: autoscaling.karmada.io/v1alpha1, kind: FederatedHPA, name: web}
  rules: [{name: ${rule}, schedule: "* * * * *", target${rule === 'max' ? 'Max' : 'Min'}Replicas: ${rule === 'max' ? 10 : 8}}]
`;
  try {
    const repo = await openRepo(config.dir);
    const path = cronAutoscalerPath('default', 'web-cron');
    // The max rule runs over maxReplicas 4 in Git, then Git changes the FederatedHPA and a min rule runs.
    const afterEdit = async (fhpaInGit: string) => {
      const memory = newAutoscalerMemory();
      let existing = new Map<string, CronAutoscalerFile>();
      const pass = async (files: Record<string, string>, now: string) => {
        const out = await cronPass(
          repo,
          config.commit({ 'templates/web.yaml': DEPLOYMENT, ...files }),
          memory,
          now,
          existing,
        );
        const text = out.edits.get(path);
        if (text) existing = new Map([[path, parseCronAutoscaler(text)]]);
        return existing.get(path)!;
      };
      await pass(
        { 'templates/web-fhpa.yaml': fhpa(1, 4), 'templates/web-cron.yaml': withRule('max') },
        '2026-01-01T00:00:30Z',
      );
      const ran = await pass({}, '2026-01-01T00:01:30Z');
      assert.equal([ran.applied?.maxReplicas, ran.applied?.gitMaxReplicas], [10, 4]);
      return pass(
        { 'templates/web-fhpa.yaml': fhpaInGit, 'templates/web-cron.yaml': withRule('min') },
        '2026-01-01T00:02:30Z',
      );
    };
    // maxReplicas edited to 6: the user's 6 wins over the rule's 10, and min 8 is refused over it.
    const edited = await afterEdit(fhpa(1, 6));
    assert.match(edited.executionHistories[0]?.failedExecutions?.[0]?.message ?? '', /Invalid value: 6: must be/);
    // minReplicas edited, maxReplicas left alone: the rule's 10 stays, and min 8 fits under it.
    const untouched = await afterEdit(fhpa(2, 4));
    assert.is(untouched.executionHistories[0]?.failedExecutions, undefined);
    assert.equal([untouched.applied?.minReplicas, untouched.applied?.maxReplicas], [8, 10]);
  } finally {
    config.cleanup();
  }
});

test('a CronFederatedHPA or FederatedHPA deleted and added again starts afresh: no rule run made up for the time it was gone', async () => {
  const config = makeConfigRepo();
  const hourly = `apiVersion: autoscaling.karmada.io/v1alpha1
kind: CronFederatedHPA
metadata: {name: web-cron, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  rules: [{name: hourly, schedule: "0 * * * *", targetReplicas: 3}]
`;
  try {
    const repo = await openRepo(config.dir);
    const memory = newAutoscalerMemory();
    const path = cronAutoscalerPath('default', 'web-cron');
    const fhpaKey = 'autoscaling.karmada.io/v1alpha1/FederatedHPA/default/web';
    const first = await cronPass(
      repo,
      config.commit({
        'templates/web.yaml': DEPLOYMENT,
        'templates/web-cron.yaml': hourly,
        'templates/web-fhpa.yaml': fhpa(1, 4),
      }),
      memory,
      '2026-01-01T08:50:00Z',
    );
    memory.history.set(fhpaKey, { recommendations: [{ at: 0, replicas: 4 }], scaleUpEvents: [], scaleDownEvents: [] });
    const gone = await cronPass(
      repo,
      config.commit({ 'templates/web-cron.yaml': null, 'templates/web-fhpa.yaml': null }),
      memory,
      '2026-01-01T08:55:00Z',
      new Map([[path, parseCronAutoscaler(first.edits.get(path)!)]]),
    );
    assert.is(gone.edits.get(path), null);
    assert.is(memory.history.has(fhpaKey), false, "the FederatedHPA's recommendations are dropped");
    const back = await cronPass(
      repo,
      config.commit({ 'templates/web-cron.yaml': hourly }),
      memory,
      '2026-01-01T09:05:00Z',
    );
    const status = parseCronAutoscaler(back.edits.get(path)!);
    assert.equal(status.executionHistories, [{ ruleName: 'hourly', nextExecutionTime: '2026-01-01T10:00:00Z' }]);
    assert.is(status.applied, undefined);
  } finally {
    config.cleanup();
  }
});

test("a FederatedHPA whose workload no policy propagates, or that is scheduled nowhere, says so as Karmada's AbleToScale does", async () => {
  const config = makeConfigRepo();
  try {
    const repo = await openRepo(config.dir);
    const path = autoscalerPath('default', 'web');
    const able = async (binding: string | null, deployment = DEPLOYMENT) => {
      const rendered = config.commit({ [WEB_BINDING]: binding ?? '# none\n' });
      const commit = config.commit({
        [WEB_BINDING]: null,
        'templates/web.yaml': deployment,
        'templates/web-fhpa.yaml': fhpa(1, 4),
      });
      const out = await decideFederatedHpas({
        repo,
        sourceCommit: commit,
        renderedCommit: binding === null ? commit : rendered,
        existing: new Map(),
        clusters: new Map(),
        ready: new Set(),
        now: new Date('2026-01-01T00:01:00Z'),
        memory: newAutoscalerMemory(),
      });
      const c = parseAutoscalerDecision(out.edits.get(path)!).conditions![0]!;
      return `${c.reason}: ${c.message}`;
    };
    assert.is(
      await able(null),
      'FailedGetBinding: the HPA controller was unable to get the binding by scaleTargetRef: target resource has no label',
    );
    assert.is(
      await able(
        null,
        DEPLOYMENT.replace(
          'metadata: {name: web, namespace: default}',
          'metadata: {name: web, namespace: default, labels: {app: web}}',
        ),
      ),
      'FailedGetBinding: the HPA controller was unable to get the binding by scaleTargetRef: no label of policy permanent-id found',
    );
    assert.is(
      await able('spec: {clusters: []}\n'),
      'FailedGetTargetClusters: the HPA controller was unable to get the target clusters from binding: binding has no schedulable clusters',
    );
    assert.match(await able('spec: {clusters: [{name: member1}]}\n'), /^FailedGetScale: /);
  } finally {
    config.cleanup();
  }
});

test("a FederatedHPA whose workload the config repo lacks says so as Karmada's FailedGetScaleTargetRef, and decides nothing", async () => {
  const config = makeConfigRepo();
  try {
    const repo = await openRepo(config.dir);
    const path = autoscalerPath('default', 'web');
    const pass = async (files: Record<string, string | null>, existing?: AutoscalerDecisionFile) => {
      const commit = config.commit(files);
      const out = await decideFederatedHpas({
        repo,
        sourceCommit: commit,
        renderedCommit: commit,
        existing: new Map(existing ? [[path, existing]] : []),
        clusters: new Map(),
        ready: new Set(),
        now: new Date('2026-01-01T00:01:00Z'),
        memory: newAutoscalerMemory(),
      });
      const text = out.edits.get(path);
      return { file: text ? parseAutoscalerDecision(text) : undefined, lines: out.lines };
    };
    const missing = await pass({ 'templates/web.yaml': null, 'templates/web-fhpa.yaml': fhpa(1, 4) });
    assert.equal(missing.file?.conditions, [
      {
        type: 'AbleToScale',
        status: 'False',
        reason: 'FailedGetScaleTargetRef',
        message: 'the HPA controller was unable to get the target reference object: deployments.apps "web" not found',
      },
    ]);
    assert.equal([missing.file?.currentReplicas, missing.file?.desiredReplicas], [0, 0]);
    assert.match(missing.lines[0] ?? '', /point spec\.scaleTargetRef \(templates\/web-fhpa\.yaml:1\)/);
    // A decision made before the workload went keeps its counts in the status, and the render does not use them.
    const gone = await pass({}, { ...DECISION, gitReplicas: 1 });
    assert.equal([gone.file?.desiredReplicas, gone.file?.ableToScale], [4, 'FailedGetScaleTargetRef']);
    assert.equal([...autoscaledReplicas(new Map([[path, gone.file!]])).keys()], []);
    assert.is((await pass({}, gone.file)).file, undefined, 'nothing new to say');
    // Added back with Git's 1 replica, it starts from 1, not from the 4 decided before.
    const back = await pass({ 'templates/web.yaml': DEPLOYMENT }, gone.file);
    assert.equal([back.file?.currentReplicas, back.file?.desiredReplicas], [1, 1]);
  } finally {
    config.cleanup();
  }
});

test("the source is read within the renders' --max-source-files: a FederatedHPA in a file past it is not read, as the render does not read it", async () => {
  const config = makeConfigRepo();
  try {
    const commit = config.commit({ 'templates/web.yaml': DEPLOYMENT, 'templates/zz-fhpa.yaml': fhpa(2, 5) });
    const repo = await openRepo(config.dir);
    const pass = (maxSourceFiles: number) =>
      decideFederatedHpas({
        repo,
        sourceCommit: commit,
        renderedCommit: commit,
        existing: new Map(),
        clusters: new Map(),
        ready: new Set(),
        now: new Date('2026-01-01T00:01:00Z'),
        memory: newAutoscalerMemory(),
        limits: { maxSourceFiles },
      });
    assert.equal([...(await pass(1)).edits.keys()], [], 'the second file is past a limit of one');
    assert.equal([...(await pass(2)).edits.keys()], [autoscalerPath('default', 'web')]);
  } finally {
    config.cleanup();
  }
});

test.run();
