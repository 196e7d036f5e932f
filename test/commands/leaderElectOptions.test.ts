import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCommand, type RunOptions } from '../../src/commands/runCommand.ts';

const base: RunOptions = {
  repo: '/nonexistent',
  sourceBranch: 'main',
  credentialsDir: '/tmp',
  kubeconfig: undefined,
  listen: 'off',
  resync: '0',
  fetchSchedule: '* * * * *',
  webhookSecretEnv: undefined,
  webhookSecret: undefined,
  mirrorDir: undefined,
  cwd: '/',
  out: () => {},
  err: () => {},
  stopSignal: Promise.resolve(),
};

async function refusal(leaderElect: RunOptions['leaderElect'], extra: Partial<RunOptions> = {}): Promise<string> {
  try {
    await runCommand({ ...base, ...extra, leaderElect });
  } catch (err) {
    return (err as Error).message;
  }
  assert.unreachable('expected a usage error');
  return '';
}

test('--leader-elect timings are checked as client-go checks them, each refusal with a fix', async () => {
  assert.match(
    await refusal({ leaseDuration: '10s', renewDeadline: '10s', inCluster: { host: '10.0.0.1', port: '443' } }),
    'lease duration must be greater than the renew deadline',
  );
  assert.match(
    await refusal({ renewDeadline: '2s', retryPeriod: '2s', inCluster: { host: '10.0.0.1', port: '443' } }),
    /1\.2 × the retry period.*fix:/,
  );
  assert.match(await refusal({ leaseDuration: 'soon' }), '--leader-elect-lease-duration');
});

test('--leader-elect needs a host cluster, a Kubernetes-shaped --id and namespace', async () => {
  assert.match(await refusal({}), 'KUBERNETES_SERVICE_HOST');
  assert.match(await refusal({ context: 'host' }), '--leader-elect-context needs --leader-elect-kubeconfig');
  assert.match(await refusal({ id: 'Flotilla_0', inCluster: { host: 'h', port: '1' } }), /--id "Flotilla_0".*fix:/);
  assert.match(await refusal({ namespace: 'Flotilla', inCluster: { host: 'h', port: '1' } }), 'not a namespace name');
  assert.match(
    await refusal({ kubeconfig: '/nonexistent/host.config', id: 'r0' }),
    '--leader-elect: cannot use kubeconfig /nonexistent/host.config',
  );
});

test.run();
