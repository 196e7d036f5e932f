import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { KubeRequest, KubeTarget } from '../../src/deliveries/KubeTarget.ts';
import { FencedError, fenceTarget } from '../../src/shards/fenceTarget.ts';

test('a fenced member: writes go out only while the replica owns the cluster, reads always', async () => {
  const sent: string[] = [];
  const kube: KubeTarget = {
    name: 'member1',
    server: 'https://127.0.0.1:1',
    discovery: new Map(),
    stats: { requests: 0, writes: 0 },
    request: async (req: KubeRequest) => {
      sent.push(req.method);
      return { status: 200, body: {}, headers: {} };
    },
    close: async () => undefined,
  };
  let owns = true;
  const fenced = fenceTarget(kube, () => owns);
  await fenced.request({ method: 'PATCH', path: '/api/v1/namespaces/default/configmaps/a' });
  owns = false;
  await fenced.request({ method: 'GET', path: '/api/v1/namespaces/default/configmaps/a' });
  for (const method of ['PATCH', 'PUT', 'POST', 'DELETE'] as const) {
    try {
      await fenced.request({ method, path: '/api/v1/namespaces/default/configmaps/a' });
      assert.unreachable(`${method} must be refused`);
    } catch (err) {
      assert.instance(err, FencedError);
      assert.match((err as Error).message, 'no longer owns');
    }
  }
  assert.equal(sent, ['PATCH', 'GET']);
  assert.is(fenced.discovery, kube.discovery, 'the discovery cache is shared');
});

test.run();
