// What a command loads before it does anything: `flotilla help` and a command's --help answer without loading the Git
// transport (isomorphic-git), the Lua interpreter of resource customizations (wasmoon) or the Kubernetes client, so a
// script or a person asking for usage does not wait for the whole pipeline. Measured as the CommonJS packages in
// Node's module cache when the process exits (those three are CommonJS, loaded into it even from ES modules).
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { configMap, makeConfigRepoWith, MEMBERS, type ConfigRepo } from '../helpers/fleet.ts';
import { FLOTILLA_BIN } from '../helpers/flotillaBin.ts';
import { KARMADA_E2E_RETAIN } from '../helpers/interpreterCustomizations.ts';
import { runProgram } from '../helpers/runProgram.ts';

/** Prints, as the process exits, the packages whose CommonJS modules it loaded. */
const RECORD_PACKAGES = `data:text/javascript,${encodeURIComponent(`
import { createRequire } from 'node:module';
const cache = createRequire(process.execPath).cache; // one cache for the process, whoever asks
process.on('exit', () => {
  const packages = new Set(Object.keys(cache).map((k) => /node_modules[\\\\/]((?:@[^\\\\/]+[\\\\/])?[^\\\\/]+)/.exec(k)?.[1]).filter(Boolean));
  process.stderr.write('\\nloaded packages: ' + [...packages].sort().join(' ') + '\\n');
});
`)}`;

const HEAVY = ['isomorphic-git', 'wasmoon', '@kubernetes/client-node'];

async function loadedBy(args: string[], code = 0): Promise<string[]> {
  const r = await runProgram(process.execPath, ['--import', RECORD_PACKAGES, FLOTILLA_BIN, ...args], {
    cwd: path.dirname(FLOTILLA_BIN),
  });
  assert.is(r.code, code, r.stderr);
  const line = /\nloaded packages: (.*)\n/.exec(r.stderr);
  assert.ok(line, `the recorder ran: ${r.stderr}`);
  return line![1]!.split(' ').filter(Boolean);
}

for (const args of [
  ['help'],
  ['validate', '--help'],
  ['render', '--help'],
  ['plan', '--help'],
  ['get', '--help'],
  ['run', '--help'],
  ['ui', '--help'],
  ['get', 'shards', '--help'],
]) {
  test(`flotilla ${args.join(' ')} answers without loading ${HEAVY.join(', ')}`, async () => {
    const loaded = await loadedBy(args);
    for (const heavy of HEAVY) assert.not.ok(loaded.includes(heavy), `${heavy} loaded: ${loaded.join(' ')}`);
  });
}

test('the recorder sees a command that does load them: flotilla run, given a repository, loads the Git transport and the Kubernetes client', async () => {
  // Refused (no such repository) once the reconciler's modules are loaded, before it starts.
  const loaded = await loadedBy(
    ['run', '--repo', path.join(path.dirname(FLOTILLA_BIN), 'no-such-repo'), '--listen', 'off'],
    3,
  );
  assert.ok(loaded.includes('isomorphic-git'), loaded.join(' '));
  assert.ok(loaded.includes('@kubernetes/client-node'), loaded.join(' '));
});

test('Lua is loaded when a resource customization is there to run: flotilla validate of a repo with one', async () => {
  const repos: ConfigRepo[] = [];
  try {
    const plain = makeConfigRepoWith(repos, { ...MEMBERS, 'templates/cm.yaml': configMap('cm') }, 'plain');
    assert.not.ok((await loadedBy(['validate', '--repo', plain.dir])).includes('wasmoon'));
    const customized = makeConfigRepoWith(
      repos,
      {
        ...MEMBERS,
        'templates/cm.yaml': configMap('cm'),
        'interpreters/retain.yaml': KARMADA_E2E_RETAIN,
      },
      'a Retain hook',
    );
    assert.ok((await loadedBy(['validate', '--repo', customized.dir])).includes('wasmoon'));
  } finally {
    for (const r of repos) r.cleanup();
  }
});

test.run();
