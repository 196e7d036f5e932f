import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { RunOptions } from '../../src/commands/runCommand.ts';
import { runRefusal } from '../helpers/runOptions.ts';

async function refusal(leaderElect: RunOptions['leaderElect'], extra: Partial<RunOptions> = {}): Promise<string> {
  const message = await runRefusal({ credentialsDir: '/tmp', ...extra, leaderElect });
  assert.ok(message, 'expected a usage error');
  return message;
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
