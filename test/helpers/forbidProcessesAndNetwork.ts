// Loaded before the unit suites (scripts/test.js): a unit test that starts a process or opens a socket, listening or
// connecting, fails with this error instead of passing as a pure test. Such a test belongs in an end-to-end folder.
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

function forbid(what: string): never {
  throw new Error(
    `a unit test ${what}: unit tests run no processes and use no network (a test folder that does is end-to-end: ` +
      'list it outside UNIT in scripts/test.js)',
  );
}

for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const) {
  (childProcess as Record<string, unknown>)[name] = (command: unknown) =>
    forbid(`started a process (${name} ${String(command)})`);
}
net.Server.prototype.listen = function listen(): never {
  return forbid('listened on a socket');
};
net.Socket.prototype.connect = function connect(): never {
  return forbid('opened a connection');
};
// `import { spawn } from 'node:child_process'` binds the ESM export, which follows the CommonJS object only once synced.
syncBuiltinESMExports();
