// Tenant rows for credentials, files and terminals: a pull request names a kubeconfig that is not its to name
// (`../`, an absolute path, a symlink out of --credentials-dir, an exec plugin at a path its author can predict),
// an agent runs with a token in its repo URL, an author name carries terminal escapes. Each row runs the real
// reconciler (or agent, or CLI) and checks that the legitimate cluster still got its objects (lost) and that
// nothing escaped: no object on a member the change had no credential for, no command run, no token in a file,
// no escape on the terminal.
import { existsSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { validateCommand } from '../../../src/commands/validateCommand.ts';
import { historyCommand } from '../../../src/commands/historyCommand.ts';
import { connectKubeconfig } from '../../../src/deliveries/connectKubeTarget.ts';
import { renderKubeconfig } from '../../../src/members/writeKubeconfig.ts';
import { parseTrailers } from '../../../src/branches/rendered/trailers.ts';
import { startReconciler } from '../../../src/passes/startReconciler.ts';
import { openAgentSource, runAgentPass } from '../../../src/pullAgent.ts';
import {
  baseFiles,
  clusterRegistration,
  configMap,
  configMapPolicy,
  type Fleet,
  makeFleet,
  manifestOf,
  reconcilerOptions,
} from '../../helpers/fleet.ts';
import { LogEvents } from '../../helpers/logEvents.ts';
import { startGitHttpServer } from '../../helpers/gitHttpServer.ts';
import type { Expectations, Scenario } from '../helpers/frame.ts';

function intruder(kubeconfigPath: string): string {
  return `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: intruder\nspec:\n  syncMode: Push\n  kubeconfigRef:\n    path: ${JSON.stringify(kubeconfigPath)}\n    context: member2\n`;
}

/** A kubeconfig for member2 whose user runs a shell that leaves `marker` behind (and then authenticates). */
function execKubeconfig(fleet: Fleet, marker: string): string {
  const m = fleet.members[1]!;
  const credential = JSON.stringify({
    apiVersion: 'client.authentication.k8s.io/v1beta1',
    kind: 'ExecCredential',
    status: { token: m.token },
  });
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'member2',
    clusters: [
      {
        name: 'member2',
        cluster: { server: m.url, 'certificate-authority-data': Buffer.from(m.caPem).toString('base64') },
      },
    ],
    users: [
      {
        name: 'member2',
        user: {
          exec: {
            apiVersion: 'client.authentication.k8s.io/v1beta1',
            command: '/bin/sh',
            args: ['-c', `touch ${marker}; echo '${credential}'`],
            interactiveMode: 'Never',
          },
        },
      },
    ],
    contexts: [{ name: 'member2', context: { cluster: 'member2', user: 'member2' } }],
  });
}

interface KubeconfigAttack {
  /** Puts the attacker's file in place; returns the kubeconfigRef.path the pull request writes. */
  plant(fleet: Fleet): string;
  /** --credentials-dir; default the fleet's credentials folder. */
  credentialsDir?(fleet: Fleet): string;
  /** The path member1's own registration uses, relative to the credentials dir. */
  memberPath?: string;
  /** Words the refusal must hold. */
  reason: string;
  /**
   * Where the path is refused: by validation (a `..` or absolute path is wrong from the text alone, so the reviewer's
   * CI and the output commit say so and the Cluster is never registered), or when the reconciler connects.
   */
  refusedBy: 'validation' | 'connect';
}

/**
 * member1 registered as it should be; the pull request adds Cluster "intruder" naming member2's credentials by a
 * path it should not reach, and places a ConfigMap on both. member1 must get it, member2 must not.
 */
async function kubeconfigAttack(
  expect: Expectations,
  attack: KubeconfigAttack,
): Promise<{ outcome: string; lost: number }> {
  const fleet = await makeFleet({ members: ['member1', 'member2'], readyDelayMs: 0 });
  const events = new LogEvents();
  const marker = path.join(fleet.root, 'pwned');
  let reconciler: Awaited<ReturnType<typeof startReconciler>> | undefined;
  try {
    const ref = attack.plant(fleet);
    const member1 = clusterRegistration('member1').replace(
      'path: members.config',
      `path: ${attack.memberPath ?? 'members.config'}`,
    );
    reconciler = await startReconciler({
      source: { kind: 'local', path: fleet.bare },
      clusters: {
        kind: 'registered',
        credentialsDir: attack.credentialsDir?.(fleet) ?? fleet.credentials,
        fallbackKubeconfig: undefined,
      },
      resyncMs: 0,
      log: events.log,
    });
    fleet.push(
      {
        'clusters/member1.yaml': member1,
        'clusters/intruder.yaml': intruder(ref),
        'policies/cms.yaml': configMapPolicy(['member1', 'intruder']),
        'templates/cm.yaml': configMap('tenant-cm', 'v1'),
      },
      'Add intruder',
    );
    // Registrations come from the last render: the first pass renders them, the next one connects and applies.
    for (let i = 0; i < 3 && !fleet.members[0]!.store.get('/configmaps', 'default', 'tenant-cm'); i++) {
      await reconciler.kick('test');
    }
    const skipped = events.entries.find((e) => e.step === 'clusters' && e.cluster === 'intruder' && e.skipped);
    const onMember2 = fleet.members[1]!.store.get('/configmaps', 'default', 'tenant-cm');
    const logs = JSON.stringify(events.entries);
    const refusal =
      attack.refusedBy === 'connect'
        ? String(skipped?.skipped ?? '')
        : fleet
            .git(fleet.bare, 'log', '-1', '--format=%B', 'flotilla/rendered')
            .split('\n')
            .filter((l) => l.includes('spec.kubeconfigRef.path') || l.includes('fix:'))
            .join('\n');
    expect.that(
      refusal.includes(attack.reason),
      `the refusal (${attack.refusedBy}) names the reason (${attack.reason}): ${refusal}`,
    );
    expect.that(refusal.includes('fix:'), 'the refusal says how to fix it');
    expect.that(!onMember2, 'nothing reached member2 through a kubeconfig the change had no right to');
    expect.that(!existsSync(marker), 'no kubeconfig command ran');
    expect.that(!logs.includes(fleet.members[1]!.token), "member2's token is not in the logs");
    expect.that(
      !events.entries.some((e) => e.step === 'clusters' && e.cluster === 'intruder' && e.connected),
      'the intruder never connected',
    );
    const lost = fleet.members[0]!.store.get('/configmaps', 'default', 'tenant-cm') ? 0 : 1;
    const outcome = [
      refusal.includes(attack.reason)
        ? `intruder refused at ${attack.refusedBy === 'connect' ? 'connect' : 'validation (INVALID_VALUE, never registered)'} (${attack.reason})`
        : 'intruder NOT refused',
      lost ? 'member1 missing its ConfigMap' : 'member1 applied',
      onMember2 ? 'member2 WRITTEN' : 'member2 untouched',
      existsSync(marker) ? 'the exec command RAN' : 'no command run',
    ];
    return { outcome: outcome.join(', '), lost };
  } finally {
    await reconciler?.stop();
    await fleet.cleanup();
  }
}

/** member2's kubeconfig, as another team keeps it outside this reconciler's credentials folder. */
function otherTeamsKubeconfig(fleet: Fleet): string {
  const file = path.join(fleet.root, 'other-team.config');
  writeFileSync(
    file,
    renderKubeconfig([fleet.members[1]!].map((m) => ({ name: 'member2', url: m.url, caPem: m.caPem, token: m.token }))),
    { mode: 0o600 },
  );
  return file;
}

/** Every file under `dir` whose bytes contain `needle`. */
function filesContaining(dir: string, needle: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && readFileSync(path.join(e.parentPath, e.name)).includes(needle))
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: these control characters are what it matches
const TERMINAL_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

export const tenantCredentialScenarios: readonly Scenario[] = [
  {
    group: 'tenant',
    name: 'kubeconfigRef ../ out of --credentials-dir',
    speed: 'fast',
    injected: "a Cluster whose kubeconfigRef.path is ../other-team.config (another team's member2 credentials)",
    run: (expect) =>
      kubeconfigAttack(expect, {
        plant: (f) => {
          otherTeamsKubeconfig(f);
          return '../other-team.config';
        },
        reason: 'climbs out with ..',
        refusedBy: 'validation',
      }),
  },
  {
    group: 'tenant',
    name: 'kubeconfigRef absolute path',
    speed: 'fast',
    injected: "a Cluster whose kubeconfigRef.path is the absolute path of another team's kubeconfig",
    run: (expect) =>
      kubeconfigAttack(expect, {
        plant: (f) => otherTeamsKubeconfig(f),
        reason: 'is absolute',
        refusedBy: 'validation',
      }),
  },
  {
    group: 'tenant',
    name: 'kubeconfigRef symlink out',
    speed: 'fast',
    injected: "a symlink in the credentials folder to another team's kubeconfig, named by a Cluster",
    run: (expect) =>
      kubeconfigAttack(expect, {
        plant: (f) => {
          symlinkSync(otherTeamsKubeconfig(f), path.join(f.credentials, 'team-b.config'));
          return 'team-b.config';
        },
        reason: 'symlink',
        refusedBy: 'connect',
      }),
  },
  {
    group: 'tenant',
    name: 'kubeconfig exec plugin at a predictable path',
    speed: 'fast',
    injected:
      "the change commits evil.config (user.exec runs a shell) and names it; the credentials dir holds the clone, as flotilla up's",
    run: (expect) =>
      kubeconfigAttack(expect, {
        // As the demo: the credentials folder is the one that also holds the non-bare clone the change lands in.
        credentialsDir: (f) => f.root,
        memberPath: 'credentials/members.config',
        plant: (f) => {
          writeFileSync(path.join(f.work.dir, 'evil.config'), execKubeconfig(f, path.join(f.root, 'pwned')));
          return 'work/evil.config';
        },
        reason: 'user.exec',
        refusedBy: 'connect',
      }),
  },
  {
    group: 'tenant',
    name: 'token in the agent URL',
    speed: 'fast',
    injected: 'flotilla agent --repo http://bot:TOKEN@host/repo.git against a Git server that demands it',
    run: async (expect) => {
      const TOKEN = 'tok-d0a1c3b7e9f2';
      const fleet = await makeFleet({ members: ['member1'], readyDelayMs: 0 });
      const events = new LogEvents();
      const server = await startGitHttpServer(fleet.root, { basicAuth: `bot:${TOKEN}` });
      const kubes = await connectKubeconfig(path.join(fleet.credentials, 'members.config'), { timeoutMs: 5_000 });
      let reconciler: Awaited<ReturnType<typeof startReconciler>> | undefined;
      try {
        reconciler = await startReconciler(reconcilerOptions(fleet, events.log));
        fleet.push(
          {
            'clusters/member1.yaml': clusterRegistration('member1').replace('syncMode: Push', 'syncMode: Pull'),
            'policies/cms.yaml': configMapPolicy(['member1']),
            'templates/cm.yaml': configMap('pulled', 'v1'),
          },
          'Pull member1',
        );
        await reconciler.kick('test');
        await reconciler.stop();
        reconciler = undefined;
        const cache = path.join(fleet.root, 'agent-cache');
        const logs: Record<string, unknown>[] = [];
        const url = `${server.url.replace('http://', `http://bot:${TOKEN}@`)}/repo.git`;
        const source = await openAgentSource(url, 'member1', cache);
        const result = await runAgentPass({
          cluster: 'member1',
          kube: kubes.get('member1')!,
          source,
          log: (e) => logs.push(e),
        });
        expect.that(result.ok, `the agent pass: ${result.problems.join('; ')}`);
        expect.that(
          server.requests.some((r) => r.includes('git-receive-pack')),
          'status was pushed over HTTP',
        );
        const holding = filesContaining(cache, TOKEN);
        expect.equal(holding, [], 'files under the agent cache holding the token');
        expect.that(!JSON.stringify(logs).includes(TOKEN), 'the token is not in the agent log');
        const mirror = source.kind === 'remote' ? source.mirror.gitdir : '';
        const modes = [cache, mirror].map((d) => statSync(d).mode & 0o777);
        expect.equal(modes, [0o700, 0o700], 'modes of the cache folder and the mirror');
        expect.equal(statSync(path.join(mirror, 'config')).mode & 0o777, 0o600, 'mode of the mirror config');
        const lost = fleet.members[0]!.store.get('/configmaps', 'default', 'pulled') ? 0 : 1;
        return {
          outcome: `applied and pushed status with the token; ${holding.length} files under the mirror hold it; cache and mirror ${modes.map((m) => m.toString(8)).join('/')}`,
          lost,
        };
      } finally {
        await reconciler?.stop();
        await Promise.all([...kubes.values()].map((k) => k.close()));
        await server.close();
        await fleet.cleanup();
      }
    },
  },
  {
    group: 'tenant',
    name: 'ANSI escapes in an author name',
    speed: 'fast',
    injected:
      'a commit by "Mallory ESC[2J ESC]0;pwned BEL" with a CR and a bidi override in its subject, and an invalid file',
    run: async (expect) => {
      const fleet = await makeFleet({ files: baseFiles() });
      try {
        const hostile = 'Mallory\u001b[2J\u001b]0;pwned\u0007';
        fleet.work.commit(
          {
            'templates/tenant.yaml': configMap('tenant'),
            'templates/bad.yaml': 'kind: ConfigMap\nmetadata: {name: "\u001b[31mred"}\n',
          },
          'Add tenant\rOK: all good \u202Etxt.exe',
          { name: hostile, email: 'm@example.com' },
        );
        await fleet.sync();
        const out: string[] = [];
        const opts = {
          repo: fleet.work.dir,
          rev: 'main',
          sourceRef: 'refs/heads/main',
          outputRef: 'refs/heads/flotilla/rendered',
          clusterStatusFile: undefined,
          output: 'text' as const,
          out: (s: string) => out.push(s),
          err: (s: string) => out.push(s),
        };
        await historyCommand({ ...opts, target: 'configmap/tenant', namespace: 'default', cluster: undefined });
        await validateCommand(opts);
        const printed = out.join('');
        const leaked = TERMINAL_CONTROL.test(printed);
        expect.that(printed.includes('Mallory\\x1b[2J'), `history shows the name, escaped: ${printed.slice(0, 300)}`);
        expect.that(!leaked, 'no control character reached the terminal');
        const message = fleet.work.git('log', '-1', '--format=%B', 'flotilla/rendered');
        expect.that(
          !TERMINAL_CONTROL.test(message.replace(/\n/g, '')),
          'no control character in the output commit message',
        );
        expect.equal(
          parseTrailers(message)['Source-Commit'],
          fleet.work.git('rev-parse', 'main').trim(),
          'the Source-Commit trailer',
        );
        const lost = (await fleet.outputText(manifestOf('member1', 'ConfigMap', 'tenant'))) ? 0 : 1;
        return {
          outcome: leaked
            ? 'control characters reached the terminal'
            : 'history, validate and the output commit show the name and subject as text, escaped; no control character printed',
          lost,
        };
      } finally {
        await fleet.cleanup();
      }
    },
  },
];
