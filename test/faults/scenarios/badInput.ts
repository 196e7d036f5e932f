// Bad input: each push must give an error naming path:line and a fix, change nothing that was rendered, and
// still render the rest of the commit (a new ConfigMap `fresh` pushed beside the bad change). Then the fixing
// push must bring everything back; its render time is the row's recovery.
import { validateText } from '../../helpers/validateText.ts';
import type { ProblemCode } from '../../../src/errors/codes.ts';
import { formatProblem, type Problem } from '../../../src/errors/problem.ts';
import {
  baseFiles,
  CLUSTERS,
  clusterYaml,
  configMap,
  type Fleet,
  makeFleet,
  manifestOf,
  policy,
} from '../../helpers/fleet.ts';
import { changed, errorsOf, manifests, missing } from '../helpers/compareOutputs.ts';
import type { Expectations, Scenario } from '../helpers/frame.ts';
import { since } from '../helpers/frame.ts';

interface BadPush {
  name: string;
  injected: string;
  /** The bad change (null deletes a file). */
  files: () => Record<string, string | Buffer | null>;
  /** The problem the push must raise. */
  problem: { code: ProblemCode; file: string; line?: number; severity?: 'error' | 'warning'; orFile?: string };
  /** Output paths the push may legitimately change (e.g. a template it edits correctly). */
  mayChange?: string[];
}

const FRESH = 'templates/fresh.yaml';

function findProblem(problems: readonly Problem[], want: BadPush['problem']): Problem | undefined {
  return problems.find(
    (p) =>
      p.code === want.code &&
      (p.file === want.file || p.file === want.orFile) &&
      (want.line === undefined || p.line === want.line),
  );
}

/** The shared shape of a bad push: baseline, bad push (+ fresh), checks, fixing push. */
async function badPush(def: BadPush, expect: Expectations) {
  const base = baseFiles();
  const fleet = await makeFleet({ files: base });
  try {
    await fleet.sync();
    const baseline = manifests(await fleet.output());
    const mayChange = new Set(def.mayChange ?? []);
    const guarded = new Map([...baseline].filter(([p]) => !mayChange.has(p)));
    const bad = def.files();
    fleet.work.commit({ ...bad, [FRESH]: configMap('fresh') }, `Bad push: ${def.name}`);
    const sync = await fleet.sync();
    const after = await fleet.output();

    const severity = def.problem.severity ?? 'error';
    const problems = sync.reports.flatMap((r) => r.problems);
    const found = findProblem(problems, def.problem);
    if (
      expect.that(
        found,
        `no ${def.problem.code} at ${def.problem.file}${def.problem.line ? `:${def.problem.line}` : ''}; got ${problems.map((p) => `${p.code}@${p.file}:${p.line}`).join(', ') || 'no problems'}`,
      )
    ) {
      expect.equal(found!.severity, severity, 'severity');
      expect.that(found!.line >= 1 && found!.column >= 1, 'the problem names a line and column');
      expect.that(found!.fix.trim().length > 0, 'the problem says how to fix it');
      expect.that(formatProblem(found!).startsWith(`${found!.file}:${found!.line}:`), 'printed as path:line:col');
    }
    const v = await validateText(fleet.work.dir);
    expect.equal(v.code, severity === 'error' ? 1 : 0, 'flotilla validate exit code');
    expect.that(
      v.text.includes(`${def.problem.file}:`) && v.text.includes(def.problem.code) && v.text.includes('fix:'),
      `flotilla validate names ${def.problem.file}, ${def.problem.code} and the fix`,
    );
    const output = await fleet.outputText('.flotilla/index.json');
    expect.that(output !== undefined, 'the output branch still has its index');

    // Objects the push may rewrite must still exist: only their bytes may change.
    const lostNow = missing(baseline, after);
    const touched = changed(guarded, after);
    expect.equal(touched, [], 'rendered objects changed by the bad push');
    const freshOut = CLUSTERS.filter((c) => after.has(manifestOf(c, 'ConfigMap', 'fresh')));
    expect.equal(freshOut, [...CLUSTERS], 'clusters that received the rest of the commit (ConfigMap fresh)');

    // The fix: every file the bad push touched goes back to what it was.
    const fix: Record<string, string | null> = {};
    for (const path of Object.keys(bad)) fix[path] = base[path] ?? null;
    fleet.work.commit(fix, 'Fix the bad push');
    const started = performance.now();
    const fixed = await fleet.sync();
    const recovery = since(started);
    expect.equal(
      errorsOf(fixed).map((p) => p.code),
      [],
      'errors left after the fixing push',
    );
    const final = await fleet.output();
    const lostAfterFix = missing(baseline, final);
    expect.equal(lostAfterFix, [], 'objects missing after the fixing push');
    const where = found ? `${found.code} at ${found.file}:${found.line}` : 'no error';
    return {
      outcome: `${where}; ${touched.length ? `${touched.length} rendered objects changed` : 'output kept'}; rest rendered`,
      lost: lostNow.length + lostAfterFix.length,
      recovery_s: recovery,
    };
  } finally {
    await fleet.cleanup();
  }
}

const aliasBomb = (): string => {
  const lines = [
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata:',
    '  name: cm-1',
    '  namespace: default',
    'x0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ];
  for (let i = 1; i <= 9; i++) lines.push(`x${i}: &a${i} [${Array.from({ length: 9 }, () => `*a${i - 1}`).join(',')}]`);
  lines.push('data:', '  value: "cm-1"');
  return `${lines.join('\n')}\n`;
};

const nested = (depth: number): string =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-1\n  namespace: default\ndata:\n  value: cm-1\nextra: ${'['.repeat(depth)}1${']'.repeat(depth)}\n`;

const policyWith = (body: string) =>
  `apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata:\n  name: p2\n  namespace: default\nspec:\n${body}`;

const cm1 = (c: string) => manifestOf(c, 'ConfigMap', 'cm-1');

const BAD_PUSHES: BadPush[] = [
  {
    name: 'YAML alias bomb',
    injected: 'cm-1.yaml: 9 levels of 9 aliases (387M nodes)',
    files: () => ({ 'templates/cm-1.yaml': aliasBomb() }),
    problem: { code: 'YAML_TOO_COMPLEX', file: 'templates/cm-1.yaml' },
  },
  {
    name: 'deep nesting',
    injected: 'cm-1.yaml: a value nested 5,000 levels deep',
    files: () => ({ 'templates/cm-1.yaml': nested(5000) }),
    problem: { code: 'YAML_TOO_COMPLEX', file: 'templates/cm-1.yaml' },
  },
  {
    name: '20 MB file',
    injected: 'cm-1.yaml grows to 20 MiB',
    files: () => ({ 'templates/cm-1.yaml': `${configMap('cm-1')}# ${'x'.repeat(20 * 1024 * 1024)}\n` }),
    problem: { code: 'FILE_TOO_LARGE', file: 'templates/cm-1.yaml', line: 1 },
  },
  {
    name: 'binary file',
    injected: 'a PNG saved as templates/logo.yaml',
    files: () => ({
      'templates/logo.yaml': Buffer.from([
        0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52,
      ]),
    }),
    problem: { code: 'FILE_NOT_TEXT', file: 'templates/logo.yaml', line: 1 },
  },
  {
    name: 'invalid UTF-8',
    injected: 'cm-1.yaml: bytes FF FE in a value on line 8',
    files: () => ({
      'templates/cm-1.yaml': Buffer.concat([
        Buffer.from(configMap('cm-1')),
        Buffer.from('  bad: "'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('"\n'),
      ]),
    }),
    problem: { code: 'FILE_NOT_TEXT', file: 'templates/cm-1.yaml', line: 8 },
  },
  {
    name: 'unknown Karmada kind',
    injected: 'policy.karmada.io kind PropagationPolicyy',
    files: () => ({
      'policies/typo.yaml': policyWith('  resourceSelectors:\n    - apiVersion: v1\n      kind: ConfigMap\n').replace(
        'kind: PropagationPolicy\n',
        'kind: PropagationPolicyy\n',
      ),
    }),
    problem: { code: 'INVALID_VALUE', file: 'policies/typo.yaml', line: 2 },
  },
  {
    name: 'unknown field',
    injected: 'policy: spec.placement.clusterAfinity (typo)',
    files: () => ({ 'policies/everything.yaml': policy().replace('clusterAffinity:', 'clusterAfinity:') }),
    problem: { code: 'UNKNOWN_FIELD', file: 'policies/everything.yaml', line: 13 },
  },
  {
    name: 'duplicate object',
    injected: 'ConfigMap cm-1 defined again in copy.yaml',
    files: () => ({ 'templates/copy.yaml': configMap('cm-1', { value: 'other' }) }),
    problem: { code: 'DUPLICATE_OBJECT', file: 'templates/copy.yaml' },
  },
  {
    name: 'OverridePolicy patch fails',
    injected: 'plaintext overrider removes a path that does not exist',
    files: () => ({
      'templates/cm-1.yaml': configMap('cm-1', { value: 'changed' }),
      'policies/override.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata:
  name: broken
  namespace: default
spec:
  resourceSelectors:
    - apiVersion: v1
      kind: ConfigMap
      name: cm-1
  overrideRules:
    - overriders:
        plaintext:
          - path: /spec/does/not/exist
            operator: remove
`,
    }),
    problem: { code: 'OVERRIDE_FAILED', file: 'templates/cm-1.yaml' },
  },
  {
    name: 'name with ../',
    injected: 'ConfigMap named ../../../etc/passwd',
    files: () => ({ 'templates/evil.yaml': configMap('../../../etc/passwd') }),
    problem: { code: 'INVALID_NAME', file: 'templates/evil.yaml', line: 4 },
  },
  {
    name: 'absolute name',
    injected: 'ConfigMap named /etc/passwd',
    files: () => ({ 'templates/evil.yaml': configMap('/etc/passwd') }),
    problem: { code: 'INVALID_NAME', file: 'templates/evil.yaml', line: 4 },
  },
  {
    name: 'namespace with slashes',
    injected: 'namespace a/b/../../clusters',
    files: () => ({ 'templates/evil.yaml': configMap('evil', { a: 'b' }, 'a/b/../../clusters') }),
    problem: { code: 'INVALID_NAME', file: 'templates/evil.yaml', line: 5 },
  },
  {
    name: 'name with NUL',
    injected: 'ConfigMap named "a\\0b"',
    files: () => ({ 'templates/evil.yaml': configMap('evil').replace('name: evil', 'name: "a\\0b"') }),
    problem: { code: 'INVALID_NAME', file: 'templates/evil.yaml', line: 4 },
  },
  {
    name: 'very long name',
    injected: 'ConfigMap name of 300 characters',
    files: () => ({ 'templates/evil.yaml': configMap('a'.repeat(300)) }),
    problem: { code: 'INVALID_NAME', file: 'templates/evil.yaml', line: 4 },
  },
  {
    name: 'Cluster with inline credentials',
    injected: 'member2.yaml gains a bearer token',
    files: () => ({ 'clusters/member2.yaml': `${clusterYaml('member2')}  secretRef:\n    token: ${LEAK}\n` }),
    problem: { code: 'INLINE_CREDENTIALS', file: 'clusters/member2.yaml' },
  },
  {
    // cm-2 changes in the same push: a re-render must still find member2 (its last good definition).
    name: 'cluster name reused',
    injected: 'clusters/copy.yaml registers member2 again; cm-2 edited in the same push',
    files: () => ({
      'clusters/copy.yaml': clusterYaml('member2', { region: 'elsewhere' }),
      'templates/cm-2.yaml': configMap('cm-2', { value: 'v2' }),
    }),
    problem: { code: 'DUPLICATE_OBJECT', file: 'clusters/copy.yaml', orFile: 'clusters/member2.yaml' },
    mayChange: CLUSTERS.map((c) => manifestOf(c, 'ConfigMap', 'cm-2')),
  },
  {
    name: 'policy defined twice',
    injected: 'policies/copy.yaml defines PropagationPolicy everything again; cm-2 edited in the same push',
    files: () => ({
      'policies/copy.yaml': policy(['member1']),
      'templates/cm-2.yaml': configMap('cm-2', { value: 'v2' }),
    }),
    problem: { code: 'DUPLICATE_OBJECT', file: 'policies/copy.yaml', orFile: 'policies/everything.yaml' },
    mayChange: CLUSTERS.map((c) => manifestOf(c, 'ConfigMap', 'cm-2')),
  },
  {
    name: 'Karmada kind misspelt in place',
    injected: 'policies/everything.yaml: kind PropagationPolicy becomes PropagatonPolicy',
    files: () => ({
      'policies/everything.yaml': policy().replace('kind: PropagationPolicy', 'kind: PropagatonPolicy'),
      'templates/cm-2.yaml': configMap('cm-2', { value: 'v2' }),
    }),
    problem: { code: 'INVALID_VALUE', file: 'policies/everything.yaml', line: 2 },
    mayChange: CLUSTERS.map((c) => manifestOf(c, 'ConfigMap', 'cm-2')),
  },
];

/** A secret-looking token that must never reach the output branch. */
export const LEAK = 'sk-flotilla-fault-suite-0123456789abcdef';

export const badInputScenarios: Scenario[] = BAD_PUSHES.map((def) => ({
  group: 'bad input',
  name: def.name,
  injected: def.injected,
  speed: 'fast',
  run: (expect) => badPush(def, expect),
}));

/** Scenarios whose push is legal in form but asks for something odd: each has its own checks. */
async function withFleet<T>(fn: (fleet: Fleet, baseline: Map<string, string>) => Promise<T>): Promise<T> {
  const fleet = await makeFleet({ files: baseFiles() });
  try {
    await fleet.sync();
    return await fn(fleet, manifests(await fleet.output()));
  } finally {
    await fleet.cleanup();
  }
}

badInputScenarios.push(
  {
    group: 'bad input',
    name: 'policy selecting nothing',
    injected: 'a second policy selects Secrets; there are none',
    speed: 'fast',
    run: (expect) =>
      withFleet(async (fleet, baseline) => {
        fleet.work.commit(
          {
            'policies/idle.yaml': policyWith(
              '  resourceSelectors:\n    - apiVersion: v1\n      kind: Secret\n  placement:\n    clusterAffinity:\n      clusterNames: [member1]\n',
            ),
          },
          'Idle policy',
        );
        await fleet.sync();
        const v = await validateText(fleet.work.dir);
        expect.that(
          /policies\/idle\.yaml:\d+:\d+ +warning +POLICY_SELECTS_NOTHING/.test(v.text),
          `validate warns POLICY_SELECTS_NOTHING at policies/idle.yaml:line; got:\n${v.text}`,
        );
        expect.equal(v.code, 0, 'a warning does not fail validate');
        const after = await fleet.output();
        expect.equal(changed(baseline, after), [], 'rendered objects changed');
        return {
          outcome: 'POLICY_SELECTS_NOTHING warning with path:line; output unchanged',
          lost: missing(baseline, after).length,
        };
      }),
  },
  {
    group: 'bad input',
    name: 'conflicting policies',
    injected: 'a second policy, same priority, claims every ConfigMap for member1 only',
    speed: 'fast',
    run: (expect) =>
      withFleet(async (fleet, baseline) => {
        // "aaa" sorts first, so a fresh match would pick it: the existing claim must stick (Karmada: no preemption).
        fleet.work.commit(
          {
            'policies/aaa.yaml': policyWith(
              '  resourceSelectors:\n    - apiVersion: v1\n      kind: ConfigMap\n  placement:\n    clusterAffinity:\n      clusterNames: [member1]\n',
            ).replace('name: p2', 'name: aaa'),
          },
          'Competing policy',
        );
        await fleet.sync();
        const after = await fleet.output();
        expect.equal(changed(baseline, after), [], 'rendered objects changed');
        return {
          outcome: 'existing claims stick (no preemption); output unchanged',
          lost: missing(baseline, after).length,
        };
      }),
  },
  {
    group: 'bad input',
    name: 'template deleted and re-added in one push',
    injected: 'two commits pushed together: rm cm-1, then add it back',
    speed: 'fast',
    run: (expect) =>
      withFleet(async (fleet, baseline) => {
        const text = fleet.work.show('HEAD', 'templates/cm-1.yaml');
        fleet.work.commit({ 'templates/cm-1.yaml': null }, 'Remove cm-1');
        fleet.work.commit({ 'templates/cm-1.yaml': `${text}\n` }, 'Add cm-1 back');
        const sync = await fleet.sync();
        expect.equal(sync.reports.length, 2, 'output commits, one per source commit');
        const after = await fleet.output();
        expect.equal(
          CLUSTERS.filter((c) => after.has(cm1(c))),
          [...CLUSTERS],
          'clusters holding cm-1 at the head',
        );
        return {
          outcome: 'both commits rendered in order; the head holds cm-1 on every cluster',
          lost: missing(baseline, after).length,
        };
      }),
  },
  {
    group: 'bad input',
    name: 'merge commit',
    injected: 'a feature branch adding cm-feature merged with --no-ff',
    speed: 'fast',
    run: (expect) =>
      withFleet(async (fleet, baseline) => {
        fleet.work.git('checkout', '-q', '-b', 'feature');
        fleet.work.commit({ 'templates/cm-feature.yaml': configMap('cm-feature') }, 'Feature');
        fleet.work.git('checkout', '-q', 'main');
        fleet.work.commit({ 'templates/cm-main.yaml': configMap('cm-main') }, 'Main moves on');
        fleet.work.git(
          '-c',
          'user.name=Ada',
          '-c',
          'user.email=ada@example.com',
          'merge',
          '-q',
          '--no-ff',
          '-m',
          'Merge feature',
          'feature',
        );
        await fleet.sync();
        const after = await fleet.output();
        const want = CLUSTERS.flatMap((c) => [
          manifestOf(c, 'ConfigMap', 'cm-feature'),
          manifestOf(c, 'ConfigMap', 'cm-main'),
        ]);
        expect.equal(
          want.filter((p) => !after.has(p)),
          [],
          'objects of both parents missing at the merge',
        );
        return {
          outcome: "merge rendered with both parents' objects",
          lost: missing(baseline, after).length + want.filter((p) => !after.has(p)).length,
        };
      }),
  },
  {
    group: 'bad input',
    name: 'empty commit',
    injected: 'git commit --allow-empty',
    speed: 'fast',
    run: (expect) =>
      withFleet(async (fleet, baseline) => {
        const before = await fleet.output();
        fleet.work.commit({}, 'Nothing');
        const sync = await fleet.sync();
        const after = await fleet.output();
        expect.that(sync.reports[0]?.outputCommit, 'an output commit records that the source commit was seen');
        expect.equal(sync.reports[0]?.filesWritten, 0, 'manifests written');
        expect.equal(changed(manifests(before), after), [], 'rendered objects changed');
        return { outcome: 'an output commit saying "No change on any cluster"', lost: missing(baseline, after).length };
      }),
  },
  {
    group: 'bad input',
    name: 'force-push rewriting history',
    injected: 'main reset one commit back, a different commit pushed over it',
    speed: 'fast',
    run: (expect) =>
      withFleet(async (fleet) => {
        fleet.work.commit({ 'templates/cm-gone.yaml': configMap('cm-gone') }, 'To be rewritten');
        await fleet.sync();
        fleet.work.git('reset', '-q', '--hard', 'HEAD~1');
        fleet.work.commit({ 'templates/cm-new.yaml': configMap('cm-new') }, 'Rewritten');
        const sync = await fleet.sync();
        expect.that(sync.forcePushed, 'sync notices the force-push');
        const after = await fleet.output();
        // Expected state: exactly what the rewritten head says (its files rendered, the dropped commit's gone).
        const expected = new Set(
          CLUSTERS.flatMap((c) => [
            ...Object.keys(baseFiles())
              .filter((p) => p.startsWith('templates/'))
              .map((p) => {
                const name = p.slice('templates/'.length, -'.yaml'.length);
                return name === 'web'
                  ? manifestOf(c, 'Deployment', 'web', 'default', 'apps')
                  : manifestOf(c, 'ConfigMap', name);
              }),
            manifestOf(c, 'ConfigMap', 'cm-new'),
          ]),
        );
        const lost = [...expected].filter((p) => !after.has(p));
        expect.equal(
          CLUSTERS.filter((c) => after.has(manifestOf(c, 'ConfigMap', 'cm-gone'))),
          [],
          'clusters still holding the rewritten-away cm-gone',
        );
        return { outcome: "new head rendered; the rewritten commit's object removed", lost: lost.length };
      }),
  },
);
