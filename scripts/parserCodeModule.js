// outputs/parserCode.js of a build of src/ (dist/ by scripts/build.js, the tests' bundle by scripts/testBuild.js): the
// digest of the parsing code (src/outputs/parserCode.ts) computed from src/ now, so the built code never reads
// sources, which a build does not hold.
import { writeFileSync } from 'node:fs';
import path from 'node:path';

/** The module that stands for src/outputs/parserCode.ts in a build: it returns `digest`, computed at build time. */
export function parserCodeModuleText(digest) {
  return [
    '// Written at build time: the digest of the parsing code src/outputs/parserCode.ts computes from src/.',
    'export function parserCodeDigest() {',
    `  return '${digest}';`,
    '}',
    '',
  ].join('\n');
}

/**
 * Writes `outDir`/outputs/parserCode.js with the digest of `srcDir`, using the build's own parserSources.js, and
 * returns the digest.
 */
export async function writeParserCodeModule(outDir, srcDir) {
  const { parserSourcesDigest } = await import(path.join(outDir, 'outputs', 'parserSources.js'));
  const digest = parserSourcesDigest(srcDir);
  writeFileSync(path.join(outDir, 'outputs', 'parserCode.js'), parserCodeModuleText(digest));
  return digest;
}
