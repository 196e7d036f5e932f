import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseNodeSpecs } from '../../src/members/parseNodeSpecs.ts';
import { runKubectl } from './helpers/memberHarness.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'flotilla-serve-'));

test.after(() => rmSync(dir, { recursive: true, force: true }));

test('--nodes takes a count or name:cpu:memory:pods entries', () => {
  assert.equal(
    parseNodeSpecs('2', 'm1').map((n) => n.name),
    ['m1-node-1', 'm1-node-2'],
  );
  assert.equal(parseNodeSpecs('big:32:128Gi,small:2:4Gi:20', 'm1'), [
    { name: 'big', cpu: '32', memory: '128Gi', pods: '110' },
    { name: 'small', cpu: '2', memory: '4Gi', pods: '20' },
  ]);
});

test('runMemberServe prints the kubeconfig path, serves kubectl, and exits cleanly on SIGTERM', async () => {
  const dataDir = path.join(dir, 'data');
  const script = `import('${path.join(root, 'src/members/serveCommand.ts')}').then((m) => m.runMemberServe(${JSON.stringify(['--name', 'edge', '--port', '0', '--data-dir', dataDir, '--nodes', 'n1:4:8Gi'])}))`;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    const kubeconfig = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no kubeconfig line; stderr: ${stderr}`)), 15_000);
      child.stdout.on('data', (c) => {
        stdout += c;
        const m = /^kubeconfig: (.+)$/m.exec(stdout);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
    });
    assert.is(kubeconfig, path.join(dataDir, 'kubeconfig'));
    const nodes = await runKubectl([
      '--kubeconfig',
      kubeconfig,
      '--cache-dir',
      path.join(dir, 'cache'),
      'get',
      'nodes',
      '-o',
      'name',
    ]);
    assert.is(nodes.stdout.trim(), 'node/n1', nodes.stderr);
  } finally {
    child.kill('SIGTERM');
  }
  assert.is(await exited, 0);
  assert.ok(existsSync(path.join(dataDir, 'state.json')));
});

test.run();
