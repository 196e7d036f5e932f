// Security rows that the product supports today (webhook signatures come with `flotilla run`): members demand
// their token, no credential reaches the output or status branches or the logs, the Markdown plan is inert,
// and the member's CA key and token are readable by their owner only.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { startMember, type Member } from '../../../src/members/startMember.ts';
import { readPlan } from '../../../src/plans/readPlan.ts';
import { renderPlanMarkdown } from '../../../src/plans/renderPlanMarkdown.ts';
import {
  baseFiles,
  clusterRegistration,
  clusterYaml,
  configMap,
  configMapPolicy,
  makeFleet,
  policy,
} from '../../helpers/fleet.ts';
import type { Scenario } from '../helpers/frame.ts';
import { STATUS_REF, withPipeline } from '../helpers/pipeline.ts';
import { LEAK } from './badInput.ts';
import { hmacHex, postGithubPush } from '../../helpers/forgeDeliveries.ts';
import { since } from '../helpers/frame.ts';
import { startRemoteReconciler } from '../helpers/remote.ts';

async function get(member: Member, urlPath: string, token: string | null): Promise<number> {
  const dispatcher = new Agent({ connect: { ca: member.caPem } });
  try {
    const res = await request(`${member.url}${urlPath}`, {
      headers: token === null ? {} : { authorization: `Bearer ${token}` },
      dispatcher,
    });
    await res.body.text();
    return res.statusCode;
  } finally {
    await dispatcher.close();
  }
}

/** Every file under `dir` whose mode gives anything to group or others. */
function looseModes(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    if ((statSync(d).mode & 0o077) !== 0)
      out.push(`${path.relative(dir, d) || '.'}/ ${(statSync(d).mode & 0o777).toString(8)}`);
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if ((statSync(full).mode & 0o077) !== 0)
        out.push(`${path.relative(dir, full)} ${(statSync(full).mode & 0o777).toString(8)}`);
    }
  };
  walk(dir);
  return out;
}

const SECRET = 'webhook-s3cret';
const githubSignature = (body: string, secret: string) => `sha256=${hmacHex(body, secret)}`;
const deliver = postGithubPush;

export const securityScenarios: Scenario[] = [
  {
    group: 'security',
    name: 'webhook signatures',
    speed: 'fast',
    injected:
      'push hooks with a wrong signature, none, one over a modified body, a replayed delivery id; then a good one',
    run: async (expect) => {
      const fleet = await makeFleet({ members: ['member1'], readyDelayMs: 0 });
      const remote = await startRemoteReconciler(fleet, { webhookSecret: SECRET });
      try {
        const url = remote.reconciler.url!;
        const head = fleet.push(
          {
            'clusters/member1.yaml': clusterRegistration('member1'),
            'policies/cms.yaml': configMapPolicy(['member1']),
            'templates/cm.yaml': configMap('hooked', 'v1'),
          },
          'A ConfigMap',
        );
        const body = JSON.stringify({ ref: 'refs/heads/main', after: head });
        const atStart = remote.git.requests.length;
        const bad = [
          await deliver(url, body, {
            'X-Hub-Signature-256': githubSignature(body, 'not-the-secret'),
            'X-GitHub-Delivery': 'd-wrong',
          }),
          await deliver(url, body, { 'X-GitHub-Delivery': 'd-missing' }),
          await deliver(url, body.replace(head, '0'.repeat(40)), {
            'X-Hub-Signature-256': githubSignature(body, SECRET),
            'X-GitHub-Delivery': 'd-modified',
          }),
        ];
        expect.equal(bad, [401, 401, 401], 'wrong, missing, over a modified body');
        expect.equal(remote.git.requests.slice(atStart), [], 'requests to the Git host after the rejected hooks');
        expect.equal(
          remote.events.entries.filter((e) => e.step === 'fetch' || e.step === 'pass').length,
          0,
          'fetches and passes after the rejected hooks',
        );
        expect.that(
          !fleet.members[0]!.store.get('/configmaps', 'default', 'hooked'),
          'nothing applied after the rejected hooks',
        );

        const started = performance.now();
        const good = await deliver(url, body, {
          'X-Hub-Signature-256': githubSignature(body, SECRET),
          'X-GitHub-Delivery': 'd-1',
        });
        expect.equal(good, 202, 'a good delivery');
        const pass = await remote.events.next('the pass of the good hook', (e) => e.step === 'pass', 20_000, true);
        const recovery = since(started);
        expect.equal([pass.error, pass.sourceCommit], [undefined, head], 'the pass: error and source commit');
        expect.that(fleet.members[0]!.store.get('/configmaps', 'default', 'hooked'), 'the pushed ConfigMap applied');
        const afterGood = remote.git.requests.length;
        const fetches = remote.events.entries.filter((e) => e.step === 'fetch').length;
        const replay = await deliver(url, body, {
          'X-Hub-Signature-256': githubSignature(body, SECRET),
          'X-GitHub-Delivery': 'd-1',
        });
        expect.equal(replay, 409, 'the same delivery again');
        expect.equal(remote.git.requests.length, afterGood, 'requests to the Git host after the replay');
        const metrics = await remote.reconciler.metrics.registry.metrics();
        expect.equal(
          /flotilla_triggers_total\{trigger="webhook"\} (\d+)/.exec(metrics)?.[1],
          '1',
          'passes asked for by webhooks',
        );
        expect.equal(
          remote.events.entries.filter((e) => e.step === 'fetch').length,
          fetches,
          'fetches after the replay',
        );
        const lost = fleet.members[0]!.store.get('/configmaps', 'default', 'hooked') ? 0 : 1;
        return {
          outcome: `401, 401, 401 with no request to the Git host; the good one 202 and a pass; its replay 409, nothing fetched`,
          lost,
          recovery_s: recovery,
        };
      } finally {
        await remote.close();
        await fleet.cleanup();
      }
    },
  },
  {
    group: 'security',
    name: 'member token required',
    injected: 'API requests with no token and with a wrong token',
    speed: 'fast',
    run: async (expect) => {
      const dir = mkdtempSync(path.join(tmpdir(), 'flotilla-faults-auth-'));
      const member = await startMember({ name: 'member1', port: 0, dataDir: dir, readyDelayMs: 50 });
      try {
        const none = await get(member, '/api/v1/namespaces/default/configmaps', null);
        const wrong = await get(member, '/api/v1/namespaces/default/secrets', `${member.token}x`);
        const right = await get(member, '/api/v1/namespaces/default/configmaps', member.token);
        expect.equal([none, wrong, right], [401, 401, 200], 'status without token, with a wrong token, with the token');
        return { outcome: `401 without a token, 401 with a wrong one, 200 with the token`, lost: 0 };
      } finally {
        await member.stop();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  },
  {
    group: 'security',
    name: 'no credential in Git, status or logs',
    injected: "a Cluster with an inline token pushed; members' tokens in use",
    speed: 'fast',
    run: (expect) =>
      withPipeline(async (p) => {
        await p.reconcile();
        p.fleet.work.commit(
          { 'clusters/member2.yaml': `${clusterYaml('member2')}  secretRef:\n    token: ${LEAK}\n` },
          `Add a token ${LEAK.slice(0, 6)}`,
        );
        await p.reconcile();
        const secrets = [LEAK, ...[...p.members.values()].map((m) => m.token)];
        // Everything Flotilla wrote: every commit message and every file version of its two branches, and the logs.
        const written = [
          p.fleet.work.git('log', '-p', '--format=%B', 'flotilla/rendered'),
          p.fleet.work.git('log', '-p', '--format=%B', STATUS_REF.replace('refs/heads/', '')),
          JSON.stringify(p.logs),
        ].join('\n');
        const found = secrets.filter((s) => written.includes(s));
        expect.equal(found.length, 0, 'credentials found in what Flotilla wrote');
        expect.that(written.includes('INLINE_CREDENTIALS'), 'the output commit names the problem');
        return {
          outcome: `${secrets.length} secrets searched in ${Math.round(written.length / 1024)} KiB of branches and logs: none found`,
          lost: p.lost(await p.expected()).length,
        };
      }),
  },
  {
    group: 'security',
    name: 'Markdown plan escapes untrusted text',
    injected: 'HTML, @mentions, links and table pipes in a commit subject and a field name',
    speed: 'fast',
    run: async (expect) => {
      const fleet = await makeFleet({ files: baseFiles() });
      try {
        const base = fleet.work.git('rev-parse', 'HEAD');
        const hostile = '<img src=x onerror=alert(1)> @everyone [click](https://evil.example) | ` ** <script>';
        fleet.work.commit(
          {
            'templates/cm-0.yaml': configMap('cm-0', { value: hostile }),
            'policies/everything.yaml': policy().replace(
              '    clusterAffinity:',
              `    "<script>alert(1)</script>": true\n    clusterAffinity:`,
            ),
          },
          hostile,
        );
        const md = renderPlanMarkdown(await readPlan(fleet.repo, { base, head: 'HEAD' }));
        const outsideCode = md.replace(/```[\s\S]*?```/g, '');
        const raw = ['<img', '<script', '@everyone', '](https://'].filter((s) => outsideCode.includes(s));
        expect.equal(raw, [], 'active Markdown/HTML outside code blocks');
        expect.that(md.includes('script'), 'the field name is still shown (escaped)');
        return { outcome: 'HTML escaped, mentions and links defused in the PR comment', lost: 0 };
      } finally {
        await fleet.cleanup();
      }
    },
  },
  {
    group: 'security',
    name: 'member CA and token owner-only',
    injected: 'a data dir restored from a backup with modes 755/644',
    speed: 'fast',
    run: async (expect) => {
      const dir = mkdtempSync(path.join(tmpdir(), 'flotilla-faults-modes-'));
      const data = path.join(dir, 'member');
      try {
        const first = await startMember({ name: 'member1', port: 0, dataDir: data, readyDelayMs: 50 });
        first.flush();
        await first.stop();
        expect.equal(looseModes(data), [], 'files readable by others after a fresh start');
        // The backup: everything group/world readable.
        const loosen = (d: string) => {
          chmodSync(d, 0o755);
          for (const e of readdirSync(d, { withFileTypes: true })) {
            if (e.isDirectory()) loosen(path.join(d, e.name));
            else chmodSync(path.join(d, e.name), 0o644);
          }
        };
        loosen(data);
        mkdirSync(path.join(data, 'tls'), { recursive: true });
        writeFileSync(path.join(data, 'token'), first.token, { mode: 0o644 });
        const again = await startMember({ name: 'member1', port: 0, dataDir: data, readyDelayMs: 50 });
        await again.stop();
        const loose = looseModes(data);
        expect.equal(loose, [], 'files readable by others after a restart on the restored dir');
        return {
          outcome: 'data dir 700, CA key, server key, token and state 600, also after a loose restore',
          lost: 0,
        };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  },
];
