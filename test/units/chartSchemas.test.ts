import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import { archivedSchemaProblems, schemaFileProblems } from '../../src/units/chartSchemas.ts';
import { makeConfigRepoWith, MEMBERS, type ConfigRepo } from '../helpers/fleet.ts';
import { helmGuestbook } from './unitFixtures.ts';

const repos: ConfigRepo[] = [];
const hostDir = mkdtempSync(path.join(os.tmpdir(), 'flotilla-host-'));
test.after(() => {
  for (const r of repos) r.cleanup();
  rmSync(hostDir, { recursive: true, force: true });
});

const bytes = (text: string) => new TextEncoder().encode(text);

/** A gzipped tar of these files, each under the chart's folder `chart/`, as `helm package` writes one. */
function tgz(files: Record<string, Uint8Array | string>): Uint8Array {
  const blocks: Buffer[] = [];
  for (const [name, content] of Object.entries(files)) {
    const body = Buffer.from(typeof content === 'string' ? bytes(content) : content);
    const h = Buffer.alloc(512);
    h.write(`chart/${name}`, 0);
    h.write('0000644\0', 100);
    h.write(`${body.length.toString(8).padStart(11, '0')}\0`, 124);
    h.write('        ', 148);
    h.write('0', 156);
    h.write('ustar\x0000', 257);
    let sum = 0;
    for (const b of h) sum += b;
    h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    blocks.push(h, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  return gzipSync(Buffer.concat([...blocks, Buffer.alloc(1024)]));
}

test('a values schema naming a file: URL in $ref, $id, id or $schema (any case) is refused at its line', () => {
  const schema = `{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "object",
  "definitions": {"port": {"type": "integer"}},
  "properties": {
    "port": {"$ref": "#/definitions/port"},
    "a": {"$ref": "FILE:///etc/passwd"},
    "b": {"$id": "file:///etc/", "properties": {"c": {"$ref": "passwd"}}},
    "id": {"type": "string", "default": "file:///only/a/value"}
  }
}`;
  assert.equal(
    schemaFileProblems('web/values.schema.json', bytes(schema)).map((p) => [p.line, p.code, p.message.split(':')[0]]),
    [
      [7, 'INVALID_VALUE', 'web/values.schema.json names "FILE'],
      [8, 'INVALID_VALUE', 'web/values.schema.json names "file'],
    ],
  );
  // Go's JSON reader stops after the first value; what follows would be read by nothing here.
  assert.equal(
    schemaFileProblems('web/values.schema.json', bytes('{"type": "object"} {"$ref": "file:///etc/passwd"}')).map(
      (p) => p.code,
    ),
    ['INVALID_VALUE'],
  );
});

test("a packed subchart's schema, and a schema packed in a packed subchart, are read before helm reads them", () => {
  const inner = tgz({ 'Chart.yaml': 'name: inner\n', 'values.schema.json': '{"$ref": "file:///etc/shadow"}' });
  const outer = tgz({ 'Chart.yaml': 'name: outer\n', 'charts/inner-0.1.0.tgz': inner });
  assert.equal(
    archivedSchemaProblems('web/charts/outer-0.1.0.tgz', outer).map((p) => [p.file, p.message.split(' names')[0]]),
    [['web/charts/outer-0.1.0.tgz', 'web/charts/outer-0.1.0.tgz:charts/inner-0.1.0.tgz:values.schema.json']],
  );
  let deep = inner;
  for (let i = 0; i < 5; i++) deep = tgz({ 'Chart.yaml': 'name: c\n', [`charts/c${i}-0.1.0.tgz`]: deep });
  assert.equal(
    archivedSchemaProblems('web/charts/deep-0.1.0.tgz', deep).map((p) => p.code),
    ['INVALID_VALUE'],
  );
});

test('an archive of archives shares one budget: past 64 packed charts or 32 MiB in all, it is refused once and the rest goes unread', () => {
  // Each holds 4 MiB of zeros, a few KiB packed: 100 of them beside each other in one archive.
  const zeros = tgz({ 'Chart.yaml': 'name: z\n', 'templates/zeros.yaml': new Uint8Array(4 * 1024 * 1024) });
  const wide = tgz(Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`charts/z${i}-0.1.0.tgz`, zeros])));
  const problems = archivedSchemaProblems('web/charts/wide-0.1.0.tgz', wide);
  assert.is(problems.length, 1);
  assert.match(problems[0]!.message, 'web/charts/wide-0.1.0.tgz:charts/z');
  assert.match(problems[0]!.message, 'unpacks to more than 32 MiB with the charts packed beside and around it');
  // Small ones: the count stops them.
  const small = tgz({ 'Chart.yaml': 'name: s\n' });
  const many = tgz(Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`charts/s${i}-0.1.0.tgz`, small])));
  const counted = archivedSchemaProblems('web/charts/many-0.1.0.tgz', many);
  assert.is(counted.length, 1);
  assert.match(counted[0]!.message, 'web/charts/many-0.1.0.tgz holds more than 64 packed charts at every depth');
});

test("a chart's values schema cannot bring a file of the host into validate's messages; one referring within itself renders", async () => {
  const secret = path.join(hostDir, 'secret.json');
  writeFileSync(secret, '{"type": "string", "enum": ["host-secret-value"]}');
  const repo = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      ...helmGuestbook(1),
      'helm-guestbook/values.schema.json': JSON.stringify({
        type: 'object',
        properties: { replicaCount: { $ref: `FILE://${secret}` } },
      }),
      'own-refs/Chart.yaml': 'apiVersion: v2\nname: own-refs\nversion: 0.1.0\n',
      'own-refs/values.yaml': 'port: 80\n',
      'own-refs/values.schema.json': JSON.stringify({
        $schema: 'http://json-schema.org/draft-07/schema#',
        definitions: { port: { type: 'integer' } },
        properties: { port: { $ref: '#/definitions/port' } },
      }),
      'own-refs/templates/cm.yaml':
        'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: own}\ndata: {port: "{{ .Values.port }}"}\n',
    },
    'units',
  );
  const snapshot = await renderSnapshot(await openRepo(repo.dir), 'HEAD');
  assert.equal(
    snapshot.model.problems.map((p) => [p.file, p.line, p.code]),
    [['helm-guestbook/values.schema.json', 1, 'INVALID_VALUE']],
  );
  assert.not.match(JSON.stringify(snapshot.model.problems), 'host-secret-value');
  assert.ok(snapshot.model.unreadableFiles.has('helm-guestbook/Chart.yaml'));
  assert.ok(snapshot.model.templates.has('v1/ConfigMap/default/own'));
});

test("a chart's values schema cannot make helm fetch from a service on the render's loopback, by URL or by a relative $ref under a loopback $id", async () => {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    res.end('{"type": "object", "description": "loopback-service-body"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  try {
    const schema = {
      type: 'object',
      properties: {
        a: { $ref: `http://127.0.0.1:${port}/a.json` },
        b: { $id: `http://LOCALHOST:${port}/d/`, $ref: 'b.json' },
        c: { $ref: `//[::ffff:127.0.0.1]:${port}/c.json` },
        d: { $ref: 'https://schemas.example.com/remote.json' },
      },
    };
    assert.equal(
      schemaFileProblems('web/values.schema.json', bytes(JSON.stringify(schema, null, 2))).map((p) => [
        p.line,
        p.message.split(' as ')[1],
      ]),
      [
        [
          5,
          '$ref: helm would read a service listening on the loopback of the host running the render, not of the commit',
        ],
        [
          8,
          '$id: helm would read a service listening on the loopback of the host running the render, not of the commit',
        ],
        [
          12,
          '$ref: helm would read a service listening on the loopback of the host running the render, not of the commit',
        ],
      ],
    );
    const repo = makeConfigRepoWith(
      repos,
      {
        ...MEMBERS,
        ...helmGuestbook(1),
        'helm-guestbook/values.schema.json': JSON.stringify({
          type: 'object',
          properties: { replicaCount: { $id: `http://127.0.0.1:${port}/s/`, $ref: 'r.json' } },
        }),
      },
      'units',
    );
    const snapshot = await renderSnapshot(await openRepo(repo.dir), 'HEAD');
    assert.equal(
      snapshot.model.problems.map((p) => [p.file, p.line, p.code]),
      [['helm-guestbook/values.schema.json', 1, 'INVALID_VALUE']],
    );
    assert.equal(requests, []);
    assert.not.match(JSON.stringify(snapshot.model.problems), 'loopback-service-body');
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test.run();
