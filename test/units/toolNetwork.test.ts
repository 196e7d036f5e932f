// A tool a render runs reaches no service of the host running it: Go's HTTP client skips the refusing proxy for
// loopback hosts, so where the platform lets this process make a network namespace, the tool gets one of its own.
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_TOOL_LIMITS, networkIsolation, runTool } from '../../src/units/runTool.ts';

function platformMakesNetworkNamespaces(): boolean {
  try {
    execFileSync('unshare', ['-rn', '/bin/sh', '-c', 'exit 0'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

test('a tool run cannot connect to a service on the loopback where the platform gives it a network namespace', async () => {
  const connections: string[] = [];
  const server = createServer((socket) => {
    connections.push(String(socket.remoteAddress));
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  try {
    const isolated = platformMakesNetworkNamespaces();
    assert.is((await networkIsolation()) !== undefined, isolated);
    const connect = `const s = require('node:net').connect(${port}, '127.0.0.1');
      s.on('connect', () => { process.stdout.write('connected'); s.end(); });
      s.on('error', (e) => { process.stderr.write(e.code); process.exitCode = 3; });`;
    const run = await runTool(process.execPath, ['-e', connect], {
      cwd: process.cwd(),
      env: {},
      limits: DEFAULT_TOOL_LIMITS,
    });
    if (isolated) {
      assert.is(run.code, 3, run.stderr);
      assert.match(run.stderr, /ENETUNREACH|ECONNREFUSED/);
      assert.equal(connections, []);
    } else {
      // Without a namespace the checks before a run are all there is: the tool reaches the loopback as before.
      assert.is(Buffer.from(run.stdout).toString(), 'connected');
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('a tool run in its own network namespace still runs as the tool, with its exit code, output and memory bound', async () => {
  const run = await runTool(process.execPath, ['-e', 'process.stdout.write("out"); process.exit(7)'], {
    cwd: process.cwd(),
    env: {},
    limits: DEFAULT_TOOL_LIMITS,
  });
  assert.equal([run.code, Buffer.from(run.stdout).toString(), run.timedOut], [7, 'out', false]);
});

test.run();
