// A shell as a new user of `flotilla up` has one, for tests that paste the commands Flotilla prints or documents.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { KUBECTL } from '../deliveries/helpers/e2e.ts';
import { runProgram, type ProgramResult } from './runProgram.ts';

/** No git identity, `kubectl` (pinned, private cache) and `curl` on PATH; everything else under `home`. */
export function userShellEnv(home: string): NodeJS.ProcessEnv {
  const bin = path.join(home, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(
    path.join(bin, 'kubectl'),
    `#!/bin/sh\nexec ${KUBECTL} --cache-dir ${path.join(home, 'kube-cache')} "$@"\n`,
  );
  // curl may be missing: this one does what the printed line asks of it (-s URL) with Node's fetch.
  writeFileSync(
    path.join(bin, 'curl'),
    `#!/bin/sh\n[ "$1" = "-s" ] || { echo "curl shim: only -s URL" >&2; exit 2; }\nexec ${process.execPath} -e 'fetch(process.argv[1]).then(async (r) => { process.stdout.write(await r.text()); process.exitCode = r.ok ? 0 : 22; })' "$2"\n`,
  );
  for (const f of ['kubectl', 'curl']) chmodSync(path.join(bin, f), 0o755);
  return {
    PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: home,
    LANG: 'C',
    GIT_CONFIG_GLOBAL: path.join(home, 'gitconfig-none'),
    GIT_CONFIG_NOSYSTEM: '1',
  };
}

/** One pasted line, run by /bin/sh in `cwd`. */
export function sh(line: string, cwd: string, env: NodeJS.ProcessEnv): Promise<ProgramResult> {
  return runProgram('/bin/sh', ['-c', line], { cwd, env, timeout: 30_000 });
}
