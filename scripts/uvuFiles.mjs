// `node --import tsx scripts/uvuFiles.mjs FILE…`: runs the given uvu suite files in this process as the uvu CLI runs
// the files it finds: each imported, then every queued suite run, then uvu's summary. Paths are relative to the
// current folder.
// `… scripts/uvuFiles.mjs --dealt MARKER`: a shard of scripts/test.js. It takes one file at a time from the parent
// (IPC), imports it, runs its suites with their summary, and prints MARKER on a line of its own; the parent then
// sends the next file, or null when there is none left.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { run } from 'uvu/run';

const args = process.argv.slice(2);
if (args[0] !== '--dealt') {
  await run(args.map((name) => ({ name, file: path.resolve(name) })));
} else {
  const marker = args[1];
  // What uvu/run sets before importing suites: test.run() then queues each suite for exec() instead of running it.
  globalThis.UVU_DEFER = 1;
  const { exec } = await import('uvu');
  let last = Promise.resolve();
  process.on('message', (name) => {
    if (name === null) return process.disconnect();
    last = last.then(async () => {
      globalThis.UVU_QUEUE.length = 0;
      globalThis.UVU_INDEX = 0;
      globalThis.UVU_QUEUE.push([name]);
      await import(pathToFileURL(path.resolve(name)).href);
      await exec();
      process.stdout.write(`${marker}\n`);
    });
  });
}
