// Module hooks of shippedCode.mjs: src/…/x.ts resolves to dist/…/x.js, and a dist/ module loads as it is on disk
// (registered after tsx, these run first: tsx never sees the built code).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

let src = '';
let dist = '';

export function initialize(data) {
  ({ src, dist } = data);
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (!resolved.url.startsWith(src) || !resolved.url.endsWith('.ts')) return resolved;
  const built = `${dist}${resolved.url.slice(src.length, -'.ts'.length)}.js`;
  // One module from src/ beside the rest from dist/ would be two copies of the modules they share.
  if (!existsSync(fileURLToPath(built)))
    throw new Error(`${fileURLToPath(built)} was not built from ${fileURLToPath(resolved.url)} (scripts/build.js)`);
  return { url: built, format: 'module', shortCircuit: true };
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith(dist)) return nextLoad(url, context);
  return { format: 'module', source: readFileSync(fileURLToPath(url)), shortCircuit: true };
}
