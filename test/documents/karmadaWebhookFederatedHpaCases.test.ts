// FederatedHPAs and CronFederatedHPAs read from Git are held to Karmada's webhooks: ValidateFederatedHPA
// (pkg/util/lifted/validatingfhpa.go, run by pkg/webhook/federatedhpa after its mutating defaults) and
// validateCronFederatedHPASpec (pkg/webhook/cronfederatedhpa/validating.go). Cases from
// pkg/util/lifted/validatingfhpa_test.go, pkg/webhook/federatedhpa/validating_test.go and
// pkg/webhook/cronfederatedhpa/validating_test.go; each lifted function's input is placed in an otherwise valid object.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { classifyDocuments } from '../../src/documents/classifyDocuments.ts';
import { parseDocuments } from '../../src/documents/parseDocuments.ts';
import { validateCronFederatedHpa, validateFederatedHpa } from '../../src/documents/schema/validateFederatedHpa.ts';

type Obj = Record<string, unknown>;
type Case = [name: string, input: Obj, wantErr: boolean];

const AUTOSCALING = 'autoscaling.karmada.io/v1alpha1';

const fhpa = (spec: Obj, metadata: Obj = { name: 'test-fhpa', namespace: 'default' }): Obj => ({
  apiVersion: AUTOSCALING,
  kind: 'FederatedHPA',
  metadata,
  spec,
});

/** A valid spec, with `extra` replacing or adding fields. */
const spec = (extra: Obj = {}): Obj => ({
  scaleTargetRef: { kind: 'Deployment', name: 'test-deployment' },
  minReplicas: 1,
  maxReplicas: 10,
  ...extra,
});

function check(cases: Case[], validate: (input: Obj) => unknown[]) {
  for (const [name, input, wantErr] of cases) {
    const issues = validate(input);
    assert.is(issues.length > 0, wantErr, `${name}: ${JSON.stringify(issues)}`);
  }
}

const checkSpecs = (cases: Case[]) => check(cases, (s) => validateFederatedHpa(fhpa(s)));
const withMetric = (metric: Obj) => spec({ metrics: [metric] });
const withScaleUp = (rules: Obj | undefined) => spec({ behavior: rules === undefined ? {} : { scaleUp: rules } });

const cpu50 = { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } };
const rps100 = {
  describedObject: { kind: 'Service', name: 'my-service' },
  metric: { name: 'requests-per-second' },
  target: { type: 'Value', value: '100' },
};
const pps1k = { metric: { name: 'packets-per-second' }, target: { type: 'AverageValue', averageValue: '1k' } };

test('the FederatedHPA webhook refuses minReplicas 0 and admits the same object at 1', () => {
  // federatedhpa/validating_test.go "Handle_ValidationFederatedHPASpecFails_DeniesAdmission" and
  // "Handle_ValidationSucceeds_AllowsAdmission".
  const webhookSpec = (minReplicas: number) => ({
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'test-app' },
    minReplicas,
    maxReplicas: 10,
    behavior: {
      scaleUp: {
        stabilizationWindowSeconds: 0,
        policies: [
          { periodSeconds: 15, type: 'Pods', value: 4 },
          { periodSeconds: 15, type: 'Percent', value: 100 },
        ],
      },
      scaleDown: { stabilizationWindowSeconds: 300, policies: [{ periodSeconds: 15, type: 'Percent', value: 100 }] },
    },
    metrics: [
      { type: 'Pods', pods: { metric: { name: 'http_requests' }, target: { averageValue: '700m', type: 'Value' } } },
    ],
  });
  const meta = { name: 'test-app', namespace: 'test-namespace' };
  assert.equal(
    validateFederatedHpa(fhpa(webhookSpec(0), meta)).map((i) => i.path.join('.')),
    ['spec.minReplicas'],
  );
  assert.equal(validateFederatedHpa(fhpa(webhookSpec(1), meta)), []);
});

test('a FederatedHPA whose name is not a DNS subdomain is refused, its spec aside', () => {
  // validatingfhpa_test.go TestValidateFederatedHPA "valid FederatedHPA", "invalid name", "invalid spec".
  const classify = (value: Obj) => {
    const { documents, problems } = parseDocuments('t/h.yaml', new TextEncoder().encode(JSON.stringify(value)));
    return classifyDocuments('t/h.yaml', documents, problems);
  };
  assert.equal(classify(fhpa(spec({ metrics: [{ type: 'Resource', resource: cpu50 }] }))).problems, []);
  const badName = classify(fhpa(spec(), { name: 'invalid/name', namespace: 'default' }));
  assert.ok(badName.problems.length > 0 && badName.templates.length === 0);
  assert.ok(validateFederatedHpa(fhpa({ minReplicas: 0, maxReplicas: 0 })).length > 0);
});

test('replica bounds: minReplicas at least 1, maxReplicas at least 1 and at least minReplicas', () => {
  // validatingfhpa_test.go TestValidateFederatedHPASpec.
  checkSpecs([
    ['valid spec', withMetric({ type: 'Resource', resource: cpu50 }), false],
    ['invalid minReplicas', spec({ minReplicas: 0 }), true],
    ['maxReplicas less than minReplicas', spec({ minReplicas: 5, maxReplicas: 3 }), true],
    ['invalid scaleTargetRef', spec({ scaleTargetRef: { kind: '', name: 'test-deployment' } }), true],
    ['invalid metrics', withMetric({ type: 'Resource' }), true],
    ['invalid behavior', spec({ behavior: { scaleDown: { stabilizationWindowSeconds: -1 } } }), true],
    ['maxReplicas less than 1', spec({ maxReplicas: 0 }), true],
    ['minReplicas equals maxReplicas', spec({ minReplicas: 5, maxReplicas: 5 }), false],
  ]);
});

test('scaleTargetRef needs a kind and a name, each a valid path segment', () => {
  // validatingfhpa_test.go TestValidateCrossVersionObjectReference.
  const ref = (r: Obj) => spec({ scaleTargetRef: r });
  checkSpecs([
    ['valid reference', ref({ kind: 'Deployment', name: 'my-deployment' }), false],
    ['missing kind', ref({ name: 'my-deployment' }), true],
    ['missing name', ref({ kind: 'Deployment' }), true],
    ['invalid kind', ref({ kind: 'Invalid/Kind', name: 'my-deployment' }), true],
    ['invalid name', ref({ kind: 'Deployment', name: 'my/deployment' }), true],
  ]);
});

test('behavior: windows, select policies and policies are checked on each side; none written is fine', () => {
  // validatingfhpa_test.go TestValidateBehavior, TestValidateScalingRules, TestValidateScalingPolicy.
  const percent = { type: 'Percent', value: 100, periodSeconds: 15 };
  const policy = (p: Obj) => withScaleUp({ policies: [p] });
  checkSpecs([
    [
      'valid behavior',
      spec({
        behavior: {
          scaleUp: { stabilizationWindowSeconds: 60, policies: [percent] },
          scaleDown: { stabilizationWindowSeconds: 300, policies: [percent] },
        },
      }),
      false,
    ],
    ['invalid scale up stabilization window', withScaleUp({ stabilizationWindowSeconds: -1 }), true],
    [
      'invalid scale down policy',
      spec({ behavior: { scaleDown: { policies: [{ type: 'Percent', value: -1, periodSeconds: 15 }] } } }),
      true,
    ],
    ['nil behavior', spec(), false],
    ['nil rules', withScaleUp(undefined), false],
    ...(['Max', 'Min', 'Disabled'].map((selectPolicy) => [
      `valid rules with ${selectPolicy} select policy`,
      withScaleUp({ stabilizationWindowSeconds: 300, selectPolicy, policies: [percent] }),
      false,
    ]) as Case[]),
    ['negative stabilization window', withScaleUp({ stabilizationWindowSeconds: -1, policies: [percent] }), true],
    [
      'stabilization window exceeding max',
      withScaleUp({ stabilizationWindowSeconds: 3601, policies: [percent] }),
      true,
    ],
    ['invalid select policy', withScaleUp({ selectPolicy: 'InvalidPolicy', policies: [percent] }), true],
    ['no policies', withScaleUp({ policies: [] }), true],
    ['invalid policy', policy({ type: 'InvalidType', value: 0, periodSeconds: 0 }), true],
    ['valid pods scaling policy', policy({ type: 'Pods', value: 1, periodSeconds: 15 }), false],
    ['valid percent scaling policy', policy({ type: 'Percent', value: 10, periodSeconds: 15 }), false],
    ['invalid policy type', policy({ type: 'InvalidType', value: 1, periodSeconds: 15 }), true],
    ['zero value', policy({ type: 'Pods', value: 0, periodSeconds: 15 }), true],
    ['negative value', policy({ type: 'Pods', value: -1, periodSeconds: 15 }), true],
    ['zero period seconds', policy({ type: 'Pods', value: 1, periodSeconds: 0 }), true],
    ['negative period seconds', policy({ type: 'Pods', value: 1, periodSeconds: -1 }), true],
    ['period seconds exceeding max', policy({ type: 'Pods', value: 1, periodSeconds: 1801 }), true],
  ]);
});

test('a metric names a supported type and populates that source only', () => {
  // validatingfhpa_test.go TestValidateMetricSpec.
  const containerCpu = { name: 'cpu', container: 'app', target: { type: 'Utilization', averageUtilization: 50 } };
  checkSpecs([
    ['valid resource metric', withMetric({ type: 'Resource', resource: cpu50 }), false],
    ['empty metric type', withMetric({}), true],
    ['invalid metric type', withMetric({ type: 'InvalidType' }), true],
    ['object metric without object', withMetric({ type: 'Object' }), true],
    ['pods metric without pods', withMetric({ type: 'Pods' }), true],
    ['resource metric without resource', withMetric({ type: 'Resource' }), true],
    ['container resource metric without container resource', withMetric({ type: 'ContainerResource' }), true],
    ['multiple metric sources', withMetric({ type: 'Resource', resource: cpu50, pods: {} }), true],
    ['valid object metric', withMetric({ type: 'Object', object: rps100 }), false],
    [
      'valid container resource metric',
      withMetric({ type: 'ContainerResource', containerResource: containerCpu }),
      false,
    ],
    [
      'multiple metric sources - object and container resource',
      withMetric({ type: 'Object', object: rps100, containerResource: containerCpu }),
      true,
    ],
    [
      'multiple metric sources - all types',
      withMetric({
        type: 'Object',
        object: rps100,
        pods: pps1k,
        resource: cpu50,
        containerResource: { ...containerCpu, name: 'memory' },
      }),
      true,
    ],
    ['mismatched type and source - object', withMetric({ type: 'Pods', object: rps100 }), true],
    [
      'mismatched type and source - container resource',
      withMetric({ type: 'Resource', containerResource: containerCpu }),
      true,
    ],
  ]);
});

test('each metric source is checked: described object, metric name, container, and the target it needs', () => {
  // validatingfhpa_test.go TestValidateObjectSource, TestValidatePodsSource, TestValidateContainerResourceSource,
  // TestValidateResourceSource, TestValidateMetricIdentifier.
  const object = (o: Obj) => withMetric({ type: 'Object', object: o });
  const pods = (p: Obj) => withMetric({ type: 'Pods', pods: p });
  const container = (c: Obj) => withMetric({ type: 'ContainerResource', containerResource: c });
  const resource = (r: Obj) => withMetric({ type: 'Resource', resource: r });
  const utilization50 = { type: 'Utilization', averageUtilization: 50 };
  checkSpecs([
    ['valid object metric', object(rps100), false],
    ['missing described object', object({ metric: rps100.metric, target: rps100.target }), true],
    ['missing metric name', object({ describedObject: rps100.describedObject, target: rps100.target }), true],
    ['missing target value and average value', object({ ...rps100, target: { type: 'Value' } }), true],
    ['valid pods metric', pods(pps1k), false],
    [
      'valid pods metric with selector',
      pods({ ...pps1k, metric: { name: 'packets-per-second', selector: { matchLabels: { app: 'web' } } } }),
      false,
    ],
    ['missing metric name (pods)', pods({ metric: {}, target: pps1k.target }), true],
    ['missing average value', pods({ metric: pps1k.metric, target: { type: 'AverageValue' } }), true],
    ['invalid target type', pods({ metric: pps1k.metric, target: { type: 'Utilization', value: '1k' } }), true],
    ['valid container resource metric', container({ name: 'cpu', container: 'app', target: utilization50 }), false],
    ['missing resource name', container({ container: 'app', target: utilization50 }), true],
    ['missing container name', container({ name: 'cpu', target: utilization50 }), true],
    [
      'both average utilization and average value set (container)',
      container({ name: 'cpu', container: 'app', target: { ...utilization50, averageValue: '100m' } }),
      true,
    ],
    [
      'neither average utilization nor average value set (container)',
      container({ name: 'cpu', container: 'app', target: { type: 'Utilization' } }),
      true,
    ],
    ['valid utilization', resource(cpu50), false],
    [
      'valid average value',
      resource({ name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } }),
      false,
    ],
    ['empty resource name', resource({ name: '', target: utilization50 }), true],
    ['missing target', resource({ name: 'cpu' }), true],
    [
      'both utilization and value set',
      resource({ name: 'cpu', target: { ...utilization50, averageValue: '100m' } }),
      true,
    ],
    ['neither utilization nor value set', resource({ name: 'cpu', target: { type: 'Utilization' } }), true],
    ['valid identifier', pods({ ...pps1k, metric: { name: 'my-metric' } }), false],
    ['empty name', pods({ ...pps1k, metric: { name: '' } }), true],
    ['invalid name', pods({ ...pps1k, metric: { name: 'my/metric' } }), true],
  ]);
});

test('a metric target has a known type and positive amounts', () => {
  // validatingfhpa_test.go TestValidateMetricTarget; each target sits in a source that needs exactly that amount.
  const resource = (target: Obj) => withMetric({ type: 'Resource', resource: { name: 'cpu', target } });
  const object = (target: Obj) => withMetric({ type: 'Object', object: { ...rps100, target } });
  const pods = (target: Obj) => withMetric({ type: 'Pods', pods: { ...pps1k, target } });
  checkSpecs([
    ['valid utilization target', resource({ type: 'Utilization', averageUtilization: 80 }), false],
    ['valid value target', object({ type: 'Value', value: '100' }), false],
    ['valid average value target', pods({ type: 'AverageValue', averageValue: '100' }), false],
    ['missing type', resource({ averageUtilization: 80 }), true],
    ['invalid type', resource({ type: 'InvalidType', averageUtilization: 80 }), true],
    ['negative utilization', resource({ type: 'Utilization', averageUtilization: -1 }), true],
    ['negative value', object({ type: 'Value', value: '-100' }), true],
    ['negative average value', pods({ type: 'AverageValue', averageValue: '-50' }), true],
  ]);
});

// ---------------------------------------------------------------- CronFederatedHPA

const cron = (s: Obj): Obj => ({
  apiVersion: AUTOSCALING,
  kind: 'CronFederatedHPA',
  metadata: { name: 'cron', namespace: 'default' },
  spec: s,
});
const toFhpa = { apiVersion: AUTOSCALING, kind: 'FederatedHPA', name: 'bar' };
const toWorkload = { kind: 'foo', name: 'bar' };

test('CronFederatedHPA rules: a workload needs targetReplicas of 0 or more, a FederatedHPA positive min and max bounds', () => {
  // cronfederatedhpa/validating_test.go Test_validateCronFederatedHPASpec, every case.
  const rule = (r: Obj) => ({ name: 'bar', schedule: '0 0 13 * 1', ...r });
  check(
    [
      [
        'normal Deployment',
        {
          scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'foo' },
          rules: [{ name: 'bar', schedule: '0 0 13 * 5', targetReplicas: 1 }],
        },
        false,
      ],
      [
        'normal FederatedHPA',
        { scaleTargetRef: toFhpa, rules: [rule({ targetReplicas: 2, targetMinReplicas: 1, targetMaxReplicas: 3 })] },
        false,
      ],
      [
        'unsupported kind in apiVersion: autoscaling.karmada.io/v1alpha1',
        { scaleTargetRef: { ...toFhpa, kind: 'Test', name: 'foo' }, rules: [rule({ targetReplicas: 1 })] },
        true,
      ],
      [
        'unspecified spec.scaleTargetRef.kind',
        { scaleTargetRef: { name: 'foo' }, rules: [rule({ targetReplicas: 1 })] },
        true,
      ],
      [
        'unspecified spec.scaleTargetRef.name',
        { scaleTargetRef: { kind: 'foo' }, rules: [rule({ targetReplicas: 1 })] },
        true,
      ],
      [
        'duplicated spec.rules[*].name',
        { scaleTargetRef: toWorkload, rules: [rule({ targetReplicas: 1 }), rule({ targetReplicas: 1 })] },
        true,
      ],
      [
        'invalid cron',
        { scaleTargetRef: toWorkload, rules: [rule({ schedule: '0 0 13 *', targetReplicas: 1 })] },
        true,
      ],
      ['invalid timezone', { scaleTargetRef: toWorkload, rules: [rule({ timeZone: 'A/B', targetReplicas: 1 })] }, true],
      ['nil targetReplicas', { scaleTargetRef: toWorkload, rules: [rule({})] }, true],
      ['targetReplicas is less than 0', { scaleTargetRef: toWorkload, rules: [rule({ targetReplicas: -1 })] }, true],
      [
        'nil targetMinReplicas and targetMaxReplicas when scaling FHPA',
        { scaleTargetRef: toFhpa, rules: [rule({ targetReplicas: -1 })] },
        true,
      ],
      [
        'targetMinReplicas is less than 0 when scaling FHPA',
        { scaleTargetRef: toFhpa, rules: [rule({ targetMinReplicas: -1, targetReplicas: 1 })] },
        true,
      ],
      [
        'targetMaxReplicas is less than 0 when scaling FHPA',
        { scaleTargetRef: toFhpa, rules: [rule({ targetMaxReplicas: -1, targetReplicas: 1 })] },
        true,
      ],
      [
        'targetMaxReplicas is less than targetMinReplicas when scaling FHPA',
        { scaleTargetRef: toFhpa, rules: [rule({ targetMinReplicas: 3, targetMaxReplicas: 1, targetReplicas: 1 })] },
        true,
      ],
    ],
    (s) => validateCronFederatedHpa(cron(s)),
  );
});

test('a CronFederatedHPA scaling a FederatedHPA is refused with nil bounds alone, whatever its targetReplicas', () => {
  // cronfederatedhpa/validating.go: the FederatedHPA branch returns before targetReplicas is looked at.
  const messages = validateCronFederatedHpa(
    cron({ scaleTargetRef: toFhpa, rules: [{ name: 'bar', schedule: '0 0 13 * 1', targetReplicas: -1 }] }),
  ).map((i) => (i as { message: string }).message);
  assert.equal(messages.length, 1);
  assert.match(messages[0]!, 'targetMinReplicas and targetMaxReplicas cannot be nil at the same time');
});

test('a schedule the webhook cannot read is refused: @midnight is not among its descriptors', () => {
  // cronfederatedhpa/validating.go validates a schedule with gronx.IsValid (github.com/adhocore/gronx v1.6.3, go.mod),
  // whose descriptors are @yearly @annually @monthly @weekly @daily @hourly @always @5minutes @10minutes @15minutes
  // @30minutes @everysecond: "@midnight" stays one segment and is "invalid cron format".
  const rules = [{ name: 'night', schedule: '@midnight', targetReplicas: 1 }];
  assert.ok(validateCronFederatedHpa(cron({ scaleTargetRef: toWorkload, rules })).length > 0);
  const daily = [{ name: 'night', schedule: '@daily', targetReplicas: 1 }];
  assert.equal(validateCronFederatedHpa(cron({ scaleTargetRef: toWorkload, rules: daily })), []);
});

test('a rule timeZone is a tzdata name as written, as Go time.LoadLocation reads it; the other names ICU knows are refused', () => {
  // cronfederatedhpa/validating.go validates timeZone with time.LoadLocation, which finds a name as a file of tzdata
  // (alpine's, then Go's embedded copy): Java's three-letter ids, SystemV/* and US/Pacific-New are none, and case
  // counts. "" and UTC are UTC before any lookup; Local is the controller's zone; Factory is a tzdata zone.
  const issues = (timeZone: string) =>
    validateCronFederatedHpa(
      cron({ scaleTargetRef: toWorkload, rules: [{ name: 'r', schedule: '0 8 * * *', targetReplicas: 1, timeZone }] }),
    );
  for (const refused of ['PST', 'IST', 'JST', 'us/eastern', 'SystemV/EST5', 'US/Pacific-New', 'CUBA', 'utc']) {
    const found = issues(refused);
    assert.is(found.length, 1, refused);
    assert.match((found[0] as { message: string }).message, `unknown time zone ${refused}`);
  }
  for (const admitted of ['US/Eastern', 'Cuba', 'Factory', 'EST', 'Etc/GMT+5', 'GMT0', 'UTC', '', 'Local'])
    assert.equal(issues(admitted), [], admitted);
});

test('a step from "?" is refused as the webhook refuses it, though the controller would read it as "*"', () => {
  // gronx v1.6.3 validator.go inStep: a step whose start is neither "*" nor "0" parses its start with strconv.Atoi, so
  // "?/15" is an error at any time; robfig/cron reads "?" as "*".
  const issue = (schedule: string) =>
    validateCronFederatedHpa(cron({ scaleTargetRef: toWorkload, rules: [{ name: 'r', schedule, targetReplicas: 1 }] }));
  assert.match(
    (issue('?/15 * * * *')[0] as { message: string }).message,
    'invalid cron format (the webhook reads no step from "?": write */15)',
  );
  assert.ok(issue('0 9 1,?/7 * *').length > 0, 'in a list');
  assert.ok(issue('0 9 * * ?/2').length > 0, 'day of week');
  assert.equal(issue('*/15 * ? * ?'), []);
});

test.run();
