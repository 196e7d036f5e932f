// node --import tsx scripts/bench/replicaThroughput.ts [--clusters 20] [--objects 50]
// What one replica of `flotilla run --leader-elect` applies per minute here: N emulated members (in this process,
// so they share its CPU: a pessimistic figure), each given the same M ConfigMaps, applied by one reconcile pass over
// all N clusters (a replica's shard). Three passes are timed: create everything, change everything, nothing changed.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openRepo } from '../../src/commits/openRepo.ts';
import { connectKubeconfig } from '../../src/deliveries/connectKubeTarget.ts';
import { reconcileOnce } from '../../src/reconcile.ts';
import { clusterRegistration, configMap, configMapPolicy, makeFleet } from '../../test/helpers/fleet.ts';

const { values } = parseArgs({
  options: { clusters: { type: 'string', default: '20' }, objects: { type: 'string', default: '50' } },
});
const N = Number(values.clusters);
const M = Number(values.objects);
const names = Array.from({ length: N }, (_, i) => `member${String(i + 1).padStart(3, '0')}`);
const fleet = await makeFleet({ members: names, readyDelayMs: 0 });
try {
  const files = (version: string) => {
    const out: Record<string, string> = { 'policies/configmaps.yaml': configMapPolicy(names) };
    for (const c of names) out[`clusters/${c}.yaml`] = clusterRegistration(c);
    for (let i = 0; i < M; i++) out[`templates/cm-${i}.yaml`] = configMap(`cm-${i}`, { value: version, i: String(i) });
    return out;
  };
  const kubes = await connectKubeconfig(path.join(fleet.credentials, 'members.config'), { timeoutMs: 30_000 });
  const pass = async (label: string) => {
    const repo = await openRepo(fleet.bare);
    const started = performance.now();
    const result = await reconcileOnce({
      repo,
      sourceRef: 'refs/heads/main',
      outputRef: 'refs/heads/flotilla/rendered',
      statusRef: 'refs/heads/flotilla/status',
      clusters: kubes,
      render: true,
      log: () => undefined,
    });
    const s = (performance.now() - started) / 1000;
    const objects = [...(result.delivery?.clusters.values() ?? [])].reduce((n, d) => n + d.results.length, 0);
    process.stdout.write(
      `${label.padEnd(22)} ${s.toFixed(2)} s  ${result.writes} member writes  ${objects} objects  ` +
        `${Math.round((N / s) * 60)} clusters/min  ${Math.round((objects / s) * 60)} objects/min\n`,
    );
  };
  process.stdout.write(`${N} clusters × ${M} ConfigMaps (+ their namespace), one pass each, render included\n`);
  fleet.push(files('v1'), 'v1');
  await pass('create all');
  fleet.push(files('v2'), 'v2');
  await pass('change all');
  await pass('nothing changed');
  await Promise.all([...kubes.values()].map((k) => k.close()));
} finally {
  await fleet.cleanup();
}
