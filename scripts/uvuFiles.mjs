// `node --import tsx scripts/uvuFiles.mjs FILE…`: runs the given uvu suite files in this process, in the order given,
// as the uvu CLI runs the files it finds (each imported, then every queued suite run, then uvu's summary). The files
// are paths relative to the current folder; scripts/test.js starts one of these per shard.
import path from 'node:path';
import { run } from 'uvu/run';

const suites = process.argv.slice(2).map((name) => ({ name, file: path.resolve(name) }));
await run(suites);
