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
import { clusterYaml } from '../../helpers/configRepo.ts';
import type { Scenario } from '../helpers/frame.ts';
import { configMap, makeFleet, policy } from '../helpers/fleet.ts';
import { STATUS_REF, withPipeline } from '../helpers/pipeline.ts';
import { LEAK } from './badInput.ts';

async function get(member: Member, urlPath: string, token: string | null): Promise<number> {
  const dispatcher = new Agent({ connect: { ca: member.caPem } });
  try {
    const res = await request(`${member.url}${urlPath}`, { headers: token === null ? {} : { authorization: `Bearer ${token}` }, dispatcher });
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
    if ((statSync(d).mode & 0o077) !== 0) out.push(`${path.relative(dir, d) || '.'}/ ${(statSync(d).mode & 0o777).toString(8)}`);
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if ((statSync(full).mode & 0o077) !== 0) out.push(`${path.relative(dir, full)} ${(statSync(full).mode & 0o777).toString(8)}`);
    }
  };
  walk(dir);
  return out;
}

export const securityScenarios: Scenario[] = [
  {
    group: 'security', name: 'member token required', injected: 'API requests with no token and with a wrong token', speed: 'fast',
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
    group: 'security', name: 'no credential in Git, status or logs', injected: 'a Cluster with an inline token pushed; members\' tokens in use', speed: 'fast',
    run: (expect) => withPipeline(async (p) => {
      await p.reconcile();
      p.fleet.work.commit({ 'clusters/member2.yaml': `${clusterYaml('member2')}  secretRef:\n    token: ${LEAK}\n` }, `Add a token ${LEAK.slice(0, 6)}`);
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
      return { outcome: `${secrets.length} secrets searched in ${Math.round(written.length / 1024)} KiB of branches and logs: none found`, lost: p.lost(await p.expected()).length };
    }),
  },
  {
    group: 'security', name: 'Markdown plan escapes untrusted text', injected: 'HTML, @mentions, links and table pipes in a commit subject and a field name', speed: 'fast',
    run: async (expect) => {
      const fleet = await makeFleet();
      try {
        const base = fleet.work.git('rev-parse', 'HEAD');
        const hostile = '<img src=x onerror=alert(1)> @everyone [click](https://evil.example) | ` ** <script>';
        fleet.work.commit({
          'templates/cm-0.yaml': configMap('cm-0', { value: hostile }),
          'policies/everything.yaml': policy().replace('    clusterAffinity:', `    "<script>alert(1)</script>": true\n    clusterAffinity:`),
        }, hostile);
        const md = renderPlanMarkdown(await readPlan(fleet.repo, { base, head: 'HEAD' }));
        const outsideCode = md.replace(/```[\s\S]*?```/g, '');
        const raw = ['<img', '<script', '@everyone', '](https://'].filter((s) => outsideCode.includes(s));
        expect.equal(raw, [], 'active Markdown/HTML outside code blocks');
        expect.that(md.includes('script'), 'the field name is still shown (escaped)');
        return { outcome: 'HTML escaped, mentions and links defused in the PR comment', lost: 0 };
      } finally {
        fleet.cleanup();
      }
    },
  },
  {
    group: 'security', name: 'member CA and token owner-only', injected: 'a data dir restored from a backup with modes 755/644', speed: 'fast',
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
        return { outcome: 'data dir 700, CA key, server key, token and state 600, also after a loose restore', lost: 0 };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  },
];


