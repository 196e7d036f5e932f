import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseAutoscalerFlags } from '../../src/commands/autoscalerFlags.ts';
import { parseListen } from '../../src/commands/runOptions.ts';
import { parseDuration } from '../../src/time/parseDuration.ts';
import { runRefusal } from '../helpers/runOptions.ts';

test('durations as Flux writes them, 0 disables, anything else says how to write one', () => {
  assert.is(parseDuration('5m'), 300_000);
  assert.is(parseDuration('1h30m'), 5_400_000);
  assert.is(parseDuration('250ms'), 250);
  assert.is(parseDuration('1.5s'), 1500);
  assert.is(parseDuration('0'), 0);
  for (const bad of ['5', 'm5', '5 minutes', '5m junk', '']) {
    const r = parseDuration(bad);
    assert.instance(r, Error, bad);
    assert.match((r as Error).message, 'write it like 30s, 5m');
  }
});

test('--listen: HOST:PORT, [v6]:PORT, :PORT, PORT, off', () => {
  assert.equal(parseListen('127.0.0.1:9464'), { host: '127.0.0.1', port: 9464 });
  assert.equal(parseListen('[::1]:80'), { host: '::1', port: 80 });
  assert.equal(parseListen(':0'), { host: '127.0.0.1', port: 0 });
  assert.equal(parseListen('9464'), { host: '127.0.0.1', port: 9464 });
  assert.is(parseListen('off'), null);
  assert.throws(() => parseListen('localhost'), /write HOST:PORT/);
  assert.throws(() => parseListen('1.2.3.4:70000'), /write HOST:PORT/);
});

test('--cluster-failure-threshold / --cluster-success-threshold: a bad duration is a usage error naming the flag', async () => {
  for (const flag of ['clusterFailureThreshold', 'clusterSuccessThreshold'] as const) {
    assert.match(
      await runRefusal({ [flag]: '30 seconds' }),
      flag === 'clusterFailureThreshold'
        ? '--cluster-failure-threshold "30 seconds" is not a duration'
        : '--cluster-success-threshold "30 seconds" is not a duration',
    );
  }
});

test('--cluster-status-update-frequency / --graceful-eviction-timeout: bad durations, and a zero grace period, are usage errors naming the flag', async () => {
  const failure = (extra: Record<string, string>) => runRefusal(extra);
  assert.match(
    await failure({ clusterStatusUpdateFrequency: '10 s' }),
    '--cluster-status-update-frequency "10 s" is not a duration',
  );
  assert.match(
    await failure({ gracefulEvictionTimeout: 'ten minutes' }),
    '--graceful-eviction-timeout "ten minutes" is not a duration',
  );
  assert.match(await failure({ gracefulEvictionTimeout: '0' }), '--graceful-eviction-timeout 0: must be at least 1s');
});

test('--credentials-dir must not hold, or sit inside, the working tree of a local clone (the default . in the clone included)', async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'flotilla-creds-clash-'));
  try {
    const clone = path.join(root, 'clone');
    execFileSync('git', ['init', '-q', clone]);
    mkdirSync(path.join(root, 'credentials'));
    for (const [credentialsDir, words] of [
      [undefined, 'the default, the working directory) is inside the working tree'],
      [root, 'holds the working tree'],
      [path.join(clone, 'sub'), 'is inside the working tree'],
    ] as const) {
      const message = await runRefusal({ repo: clone, cwd: clone, credentialsDir });
      assert.match(message, words, String(credentialsDir));
      assert.match(message, 'fix: pass --credentials-dir naming a folder that holds only kubeconfigs');
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("--horizontal-pod-autoscaler-*: karmada-controller-manager's FederatedHPA flags and defaults, bad values refused naming the flag", async () => {
  assert.equal(parseAutoscalerFlags({}), {
    syncPeriodMs: 15_000,
    tolerance: 0.1,
    downscaleStabilizationMs: 300_000,
    cpuInitializationPeriodMs: 300_000,
    initialReadinessDelayMs: 30_000,
  });
  assert.equal(
    parseAutoscalerFlags({
      'horizontal-pod-autoscaler-tolerance': '0.25',
      'horizontal-pod-autoscaler-downscale-stabilization': '0',
      'horizontal-pod-autoscaler-sync-period': '1m',
    }),
    {
      syncPeriodMs: 60_000,
      tolerance: 0.25,
      downscaleStabilizationMs: 0,
      cpuInitializationPeriodMs: 300_000,
      initialReadinessDelayMs: 30_000,
    },
  );
  const refusal = (autoscaler: Record<string, string>) => runRefusal({ autoscaler });
  assert.match(
    await refusal({ 'horizontal-pod-autoscaler-tolerance': 'ten percent' }),
    '--horizontal-pod-autoscaler-tolerance ten percent: write a number of 0 or more',
  );
  assert.match(
    await refusal({ 'horizontal-pod-autoscaler-tolerance': '-0.1' }),
    '--horizontal-pod-autoscaler-tolerance -0.1: write a number of 0 or more',
  );
  assert.match(
    await refusal({ 'horizontal-pod-autoscaler-sync-period': '0' }),
    '--horizontal-pod-autoscaler-sync-period 0: must be more than 0',
  );
  assert.match(
    await refusal({ 'horizontal-pod-autoscaler-initial-readiness-delay': '30 s' }),
    '--horizontal-pod-autoscaler-initial-readiness-delay "30 s" is not a duration',
  );
});

test.run();
