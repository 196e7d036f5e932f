// The agent refuses a cluster name the rendered branch does not register (.flotilla/clusters.json), through the
// real CLI: the renderer writes the file from a real config repo, an emulated member stands in for the cluster.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { Scratch } from '../deliveries/helpers/e2e.ts';
import { makeConfigRepo, MEMBERS, type ConfigRepo } from '../helpers/fleet.ts';
import { FLOTILLA_BIN as BIN } from '../helpers/flotillaBin.ts';

const scratch = new Scratch();
let config: ConfigRepo;
let kubeconfig: string;

test.before(async () => {
  kubeconfig = scratch.kubeconfig([await scratch.member('member3')]);
  config = makeConfigRepo();
  // member3 registered as a Pull cluster, with nothing placed on it: a ConfigMap goes to member1 only.
  config.commit(
    {
      ...MEMBERS,
      'clusters/member3.yaml': MEMBERS['clusters/member3.yaml'].replace('syncMode: Push', 'syncMode: Pull'),
      'templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: only-member1\ndata:\n  a: b\n',
      'policies/cm.yaml':
        'apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata:\n  name: cm\nspec:\n  resourceSelectors:\n    - {apiVersion: v1, kind: ConfigMap}\n  placement:\n    clusterAffinity: {clusterNames: [member1]}\n',
    },
    'three members, a ConfigMap on member1',
  );
  await syncRepo(await openRepo(config.dir), {
    sourceRef: 'refs/heads/main',
    outputRef: 'refs/heads/flotilla/rendered',
  });
});

test.after(async () => {
  config.cleanup();
  await scratch.cleanup();
});

const agent = (cluster: string, config_ = kubeconfig) =>
  new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      [
        BIN,
        'agent',
        '--cluster',
        cluster,
        '--context',
        'member3',
        '--repo',
        config.dir,
        '--kubeconfig',
        config_,
        '--once',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    child.stderr.on('data', (c) => {
      err += c;
    });
    child.on('close', (code) => resolve({ code, out, err }));
  });

/** The agent's JSON log line of one step. */
const logStep = (out: string, step: string) =>
  out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .find((l) => l.step === step);

test('the renderer records every registered cluster and its syncMode in .flotilla/clusters.json', () => {
  assert.equal(JSON.parse(config.show('flotilla/rendered', '.flotilla/clusters.json')), {
    clusters: [
      { name: 'member1', syncMode: 'Push' },
      { name: 'member2', syncMode: 'Push' },
      { name: 'member3', syncMode: 'Pull' },
    ],
  });
});

test('agent --once --cluster typo exits 1 naming the registered clusters, and writes no status for it', async () => {
  const typo = await agent('typo');
  assert.is(typo.code, 1, typo.out + typo.err);
  const line = logStep(typo.out, 'register');
  assert.match(String(line?.error), /^cluster typo is not registered; registered: member1, member2, member3; fix: /);
  assert.not.ok(config.git('branch', '--list', 'flotilla/status'), 'no status branch written for an unregistered name');

  const near = await agent('membr3');
  assert.is(near.code, 1);
  assert.match(
    near.out,
    'cluster membr3 is not registered; registered: member1, member2, member3 (did you mean member3?)',
  );
});

test('agent --once on a registered cluster with nothing placed on it still exits 0', async () => {
  const ok = await agent('member3');
  assert.is(ok.code, 0, ok.out + ok.err);
  assert.ok(config.ls('flotilla/status').includes('clusters/member3.yaml'));
});

test('agent --once exits 1 when the member does not answer, after recording that it did not', async () => {
  // A member that stopped: its kubeconfig names a port nothing listens on.
  const dead = path.join(path.dirname(kubeconfig), 'dead.config');
  writeFileSync(
    dead,
    readFileSync(kubeconfig, 'utf8').replace(/server: https:\/\/127\.0\.0\.1:\d+/g, 'server: https://127.0.0.1:1'),
  );
  const down = await agent('member3', dead);
  assert.is(down.code, 1, down.out + down.err);
  const line = logStep(down.out, 'member');
  assert.match(
    String(line?.error),
    /^the member did not answer: ClusterNotReachable: cluster is not reachable \(cluster member3 did not answer/,
  );
  const recorded = config.show('flotilla/status', 'clusters/member3.yaml');
  // Ready flips only after Karmada's failure threshold; the observation that starts it is recorded at once.
  assert.match(recorded, /flotilla\.io\/ready-observed: False since /, recorded);
});

test.run();
