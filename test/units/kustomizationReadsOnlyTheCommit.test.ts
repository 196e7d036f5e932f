// A kustomization from a pull request reads only the commit: YAML that kustomize reads one way and Flotilla's check
// another (an alias, a merge key, a field written twice or in another case) cannot name a base outside the repository.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { readCommitInfo } from '../../src/commits/readCommitInfo.ts';
import { resolveRev } from '../../src/commits/resolveRev.ts';
import { readUnitLayout } from '../../src/units/readUnitLayout.ts';
import { renderUnit } from '../../src/units/renderUnit.ts';
import { makeConfigRepoWith, type ConfigRepo } from '../helpers/fleet.ts';

const repos: ConfigRepo[] = [];
// A folder of the host beside the render's private copy (both under the temporary folder): a kustomization there
// reads a file of its own, which kustomize allows for a base.
const host = mkdtempSync(path.join(tmpdir(), 'flotilla-host-secret-'));
writeFileSync(path.join(host, 'kustomization.yaml'), 'configMapGenerator:\n  - name: leak\n    files: [secret.txt]\n');
writeFileSync(path.join(host, 'secret.txt'), 'HOST-SECRET-VALUE\n');
test.after(() => {
  for (const r of repos) r.cleanup();
  rmSync(host, { recursive: true, force: true });
});

// From <tmp>/flotilla-unit-XXXX/src/apps/web, four levels up is the temporary folder.
const outside = `../../../../${path.basename(host)}`;

const variants: Record<string, string> = {
  'a merge key': `<<: {resources: [${outside}]}\n`,
  'an alias': `namePrefix: &p ${outside}\nresources: [*p]\n`,
  'a field written twice': `resources: [ok.yaml]\nresources: [${outside}]\n`,
  'a field in capitals': `RESOURCES: [${outside}]\n`,
  'a field with a long s': `reſources: [${outside}]\n`,
};

for (const [how, kustomization] of Object.entries(variants))
  test(`a kustomization naming a host folder through ${how} is held with a located problem, and nothing of the host is output`, async () => {
    const r = makeConfigRepoWith(
      repos,
      {
        'apps/web/kustomization.yaml': kustomization,
        'apps/web/ok.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ok\n',
      },
      how,
    );
    const repo = await openRepo(r.dir);
    const tree = (await readCommitInfo(repo, await resolveRev(repo, 'HEAD'))).tree;
    const layout = await readUnitLayout(repo, tree, undefined, {});
    const unit = layout.units.find((u) => u.dir === 'apps/web')!;
    const out = await renderUnit(repo, tree, unit);
    assert.not.ok(JSON.stringify(out).includes('HOST-SECRET-VALUE'), 'the host file was output');
    assert.ok(out.unreadable);
    assert.equal(
      out.problems.map((p) => [p.file, p.code]),
      [['apps/web/kustomization.yaml', 'INVALID_VALUE']],
    );
  });

// A built-in plugin's configuration names files kustomize loads when it configures the plugin, and a URL there is
// fetched: one on the loopback even past the render's refusing proxy (Go's HTTP client takes none for it).
const loopback: { url: string; requests: string[]; close: () => Promise<void> } = await new Promise((resolve) => {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    res.end('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ok\ndata:\n  from: LOOPBACK-SERVICE-BODY\n');
  });
  server.listen(0, '127.0.0.1', () =>
    resolve({
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      requests,
      close: () => new Promise((done) => server.close(() => done())),
    }),
  );
});
test.after(() => loopback.close());

const inlineEntry = `{apiVersion: builtin, kind: PatchTransformer, metadata: {name: p}, path: "${loopback.url}/inline.yaml"}`;
const pluginVariants: Record<string, { files: Record<string, string>; at: [string, number] }> = {
  'a transformer file': {
    files: {
      'apps/web/kustomization.yaml': 'resources: [ok.yaml]\ntransformers: [patch.yaml]\n',
      'apps/web/patch.yaml': `apiVersion: builtin\nkind: PatchTransformer\nmetadata:\n  name: p\nPath: ${loopback.url}/patch.yaml\n`,
    },
    at: ['apps/web/patch.yaml', 5],
  },
  'a generator file, by key=URL': {
    files: {
      'apps/web/kustomization.yaml': 'resources: [ok.yaml]\ngenerators: [gen.yaml]\n',
      'apps/web/gen.yaml': `apiVersion: builtin\nkind: ConfigMapGenerator\nmetadata:\n  name: g\nfiles:\n  - local.txt\n  - k=${loopback.url}/gen\n`,
      'apps/web/local.txt': 'local\n',
    },
    at: ['apps/web/gen.yaml', 7],
  },
  'a folder of replacements named as transformers': {
    files: {
      'apps/web/kustomization.yaml': 'resources: [ok.yaml]\ntransformers: [configs]\n',
      'apps/web/configs/kustomization.yaml': 'resources: [replace.yaml]\n',
      'apps/web/configs/replace.yaml': `apiVersion: builtin\nkind: ReplacementTransformer\nmetadata:\n  name: r\nreplacements:\n  - path: ${loopback.url}/replacements.yaml\n`,
    },
    at: ['apps/web/configs/replace.yaml', 6],
  },
  'an inline transformer whose text a hand-made tree also holds as a file': {
    files: {
      'apps/web/kustomization.yaml': `resources: [ok.yaml]\ntransformers:\n  - '${inlineEntry}'\n`,
      [`apps/web/${inlineEntry.replace('//', '/')}`]: 'x: y\n',
    },
    at: ['apps/web/kustomization.yaml', 3],
  },
};

for (const [how, { files, at }] of Object.entries(pluginVariants))
  test(`a plugin configuration in ${how} naming a URL on the loopback is held at its line, and nothing is fetched`, async () => {
    const r = makeConfigRepoWith(
      repos,
      { ...files, 'apps/web/ok.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ok\n' },
      how,
    );
    const repo = await openRepo(r.dir);
    const tree = (await readCommitInfo(repo, await resolveRev(repo, 'HEAD'))).tree;
    const layout = await readUnitLayout(repo, tree, undefined, {});
    const unit = layout.units.find((u) => u.dir === 'apps/web')!;
    const out = await renderUnit(repo, tree, unit);
    assert.equal(loopback.requests, []);
    assert.not.ok(JSON.stringify(out).includes('LOOPBACK-SERVICE-BODY'));
    assert.ok(out.unreadable);
    assert.equal(
      out.problems.map((p) => [p.file, p.line, p.code]),
      [[...at, 'INVALID_VALUE']],
    );
  });

test('plugin configurations that load files of the commit, in a file and inline, render', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      'apps/web/kustomization.yaml':
        "resources: [ok.yaml]\ntransformers:\n  - patch.yaml\n  - '{apiVersion: builtin, kind: PatchTransformer, metadata: {name: q}, path: more.yaml}'\n",
      'apps/web/patch.yaml': 'apiVersion: builtin\nkind: PatchTransformer\nmetadata:\n  name: p\npath: data.yaml\n',
      'apps/web/data.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ok\ndata:\n  a: b\n',
      'apps/web/more.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ok\ndata:\n  c: d\n',
      'apps/web/ok.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ok\n',
    },
    'local plugin files',
  );
  const repo = await openRepo(r.dir);
  const tree = (await readCommitInfo(repo, await resolveRev(repo, 'HEAD'))).tree;
  const layout = await readUnitLayout(repo, tree, undefined, {});
  const out = await renderUnit(repo, tree, layout.units.find((u) => u.dir === 'apps/web')!);
  assert.equal(out.problems, []);
  assert.equal(
    out.templates.map((t) => t.manifest.data),
    [{ a: 'b', c: 'd' }],
  );
});

test.run();
