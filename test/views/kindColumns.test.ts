// The columns `flotilla get <kind>` prints for a template, cell by cell as kubectl's printers (pkg/printers/
// internalversion/printers.go) print the same object with the same status.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { kindColumns } from '../../src/views/kindColumns.ts';

type Obj = Record<string, unknown>;
const NOW = new Date('2026-02-01T12:00:00Z');
const row = (kind: string, m: Obj, s?: Obj, wide = false) => {
  const cols = kindColumns(kind);
  return [...cols.cells(m, s, { wide, now: NOW }), ...(wide ? cols.wideCells(m, s) : [])];
};
const podTemplate = { template: { spec: { containers: [{ name: 'app', image: 'app:1' }] } } };

test('Service columns: each type is reached at what getServiceExternalIP says, the selector sorted', () => {
  const svc = (spec: Obj, status?: Obj) => row('Service', { spec }, status, true);
  assert.equal(svc({ selector: { z: '1', app: 'web' }, ports: [{ port: 80 }] }), [
    'ClusterIP',
    '<none>',
    '<none>',
    '80/TCP',
    'app=web,z=1',
  ]);
  assert.equal(svc({ type: 'ExternalName', externalName: 'db.example.com' }), [
    'ExternalName',
    '<none>',
    'db.example.com',
    '<none>',
    '<none>',
  ]);
  assert.equal(
    svc({
      type: 'NodePort',
      clusterIPs: ['10.0.0.9'],
      externalIPs: ['1.2.3.4'],
      ports: [{ port: 80, nodePort: 30080 }],
    }).slice(0, 4),
    ['NodePort', '10.0.0.9', '1.2.3.4', '80:30080/TCP'],
  );
  assert.is(svc({ type: 'LoadBalancer' })[2], '<pending>');
  const balanced = {
    loadBalancer: { ingress: [{ hostname: 'lb.example.com' }, { ip: '9.9.9.9' }, { ip: '9.9.9.9' }] },
  };
  assert.is(svc({ type: 'LoadBalancer', externalIPs: ['1.2.3.4'] }, balanced)[2], '9.9.9.9,lb.example.com,1.2.3.4');
  // Without -o wide the balancer's addresses are clipped to 16 characters.
  assert.is(row('Service', { spec: { type: 'LoadBalancer' } }, balanced)[2], '9.9.9.9,lb.ex...');
  assert.is(svc({ type: 'Other' })[2], '<unknown>');
});

test('Deployment and DaemonSet selectors print as metav1.FormatLabelSelector and labels.FormatLabels do', () => {
  const selector = {
    matchLabels: { tier: 'front', app: 'web' },
    matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'dev'] }],
  };
  assert.is(
    row('Deployment', { spec: { selector, ...podTemplate } }, undefined, true)[5],
    'app=web,env in (dev,prod),tier=front',
  );
  const ds = row(
    'DaemonSet',
    {
      spec: {
        selector: { matchLabels: { b: '2', a: '1' } },
        template: { spec: { nodeSelector: { zz: 'x', 'kubernetes.io/os': 'linux' }, containers: [] } },
      },
    },
    undefined,
    true,
  );
  assert.is(ds[5], 'kubernetes.io/os=linux,zz=x');
  assert.is(ds[8], 'a=1,b=2');
});

test('Job columns: STATUS from its conditions, COMPLETIONS from completions or parallelism, DURATION from its start', () => {
  const job = (spec: Obj, status?: Obj) => row('Job', { spec: { ...spec, ...podTemplate } }, status);
  assert.equal(job({ parallelism: 3 }), ['Running', '0/1 of 3', '']);
  assert.equal(job({}, { succeeded: 1 }), ['Running', '1/1', '']);
  assert.equal(
    job(
      { completions: 5 },
      {
        succeeded: 5,
        startTime: '2026-02-01T11:00:00Z',
        completionTime: '2026-02-01T11:03:10Z',
        conditions: [{ type: 'Complete', status: 'True' }],
      },
    ),
    ['Complete', '5/5', '3m10s'],
  );
  assert.equal(job({}, { startTime: '2026-02-01T09:00:00Z', conditions: [{ type: 'Failed', status: 'True' }] }), [
    'Failed',
    '0/1',
    '3h',
  ]);
  assert.is(job({}, { conditions: [{ type: 'Suspended', status: 'True' }] })[0], 'Suspended');
  assert.equal(kindColumns('Job').headers, ['STATUS', 'COMPLETIONS', 'DURATION']);
});

test('CronJob, Ingress and PodDisruptionBudget have their kubectl columns', () => {
  const cronJob = kindColumns('CronJob');
  assert.equal(cronJob.headers, ['SCHEDULE', 'TIMEZONE', 'SUSPEND', 'ACTIVE', 'LAST SCHEDULE']);
  assert.equal(row('CronJob', { spec: { schedule: '0 2 * * *', jobTemplate: { spec: podTemplate } } }), [
    '0 2 * * *',
    '<none>',
    'False',
    '0',
    '<none>',
  ]);
  assert.equal(
    row(
      'CronJob',
      { spec: { schedule: '@hourly', timeZone: 'Etc/UTC', suspend: true } },
      { active: [{ name: 'j' }], lastScheduleTime: '2026-02-01T11:55:00Z' },
    ),
    ['@hourly', 'Etc/UTC', 'True', '1', '5m'],
  );
  assert.equal(kindColumns('Ingress').headers, ['CLASS', 'HOSTS', 'ADDRESS', 'PORTS']);
  const rules = [{ host: 'a' }, { host: 'b' }, {}, { host: 'c' }, { host: 'd' }];
  assert.equal(
    row(
      'Ingress',
      { spec: { ingressClassName: 'nginx', rules, tls: [{}] } },
      { loadBalancer: { ingress: [{ ip: '5.6.7.8' }] } },
    ),
    ['nginx', 'a,b,c + 2 more...', '5.6.7.8', '80, 443'],
  );
  assert.equal(row('Ingress', { spec: { rules: [{}] } }), ['<none>', '*', '', '80']);
  assert.equal(kindColumns('PodDisruptionBudget').headers, ['MIN AVAILABLE', 'MAX UNAVAILABLE', 'ALLOWED DISRUPTIONS']);
  assert.equal(row('PodDisruptionBudget', { spec: { maxUnavailable: '25%' } }, { disruptionsAllowed: 2 }), [
    'N/A',
    '25%',
    '2',
  ]);
});

test.run();
