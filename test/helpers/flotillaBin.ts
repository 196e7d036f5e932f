// The flotilla command the tests start as `node FLOTILLA_BIN …`. scripts/test.js bundles src/ just before the
// suites run (scripts/testBuild.js) and names its cli.js in FLOTILLA_TEST_BIN, which starts in a fifth of the CPU tsx
// takes; a suite run by uvu alone starts bin/flotilla.js, which runs src/ through tsx. Both run the code as it is now.
import path from 'node:path';

export const FLOTILLA_BIN = process.env.FLOTILLA_TEST_BIN || path.resolve(import.meta.dirname, '../../bin/flotilla.js');
