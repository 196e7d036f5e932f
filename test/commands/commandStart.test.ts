// What a command loads before it does anything: `flotilla help` and a command's --help answer without loading the Git
// transport (isomorphic-git), the Lua interpreter of resource customizations (wasmoon) or the Kubernetes client, so a
// script or a person asking for usage does not wait for the whole pipeline. Measured as the CommonJS packages in
// Node's module cache when the process exits (those three are CommonJS, loaded into it even from ES modules).
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FLOTILLA_BIN } from '../helpers/flotillaBin.ts';
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

async function loadedBy(args: string[]): Promise<string[]> {
  const r = await runProgram(process.execPath, ['--import', RECORD_PACKAGES, FLOTILLA_BIN, ...args], {
    cwd: path.dirname(FLOTILLA_BIN),
  });
  assert.is(r.code, 0, r.stderr);
  const line = /\nloaded packages: (.*)\n/.exec(r.stderr);
  assert.ok(line, `the recorder ran: ${r.stderr}`);
  return line![1]!.split(' ').filter(Boolean);
}

for (const args of [['help'], ['validate', '--help'], ['render', '--help'], ['plan', '--help']]) {
  test(`flotilla ${args.join(' ')} answers without loading ${HEAVY.join(', ')}`, async () => {
    const loaded = await loadedBy(args);
    for (const heavy of HEAVY) assert.not.ok(loaded.includes(heavy), `${heavy} loaded: ${loaded.join(' ')}`);
  });
}

test('the recorder sees a command that does load them: flotilla get --help loads isomorphic-git', async () => {
  assert.ok((await loadedBy(['get', '--help'])).includes('isomorphic-git'));
});

test.run();
