// A chart from a pull request cannot take the host's memory: a template that builds an ever larger string writes
// nothing (no output cap applies) and can finish well inside the timeout, so the tool's address space is bounded.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { readCommitInfo } from '../../src/commits/readCommitInfo.ts';
import { resolveRev } from '../../src/commits/resolveRev.ts';
import { renderUnit } from '../../src/units/renderUnit.ts';
import { makeConfigRepoWith, type ConfigRepo } from '../helpers/fleet.ts';

const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const unit = { dir: 'grow', tool: 'helm' as const, marker: 'grow/Chart.yaml', inputs: ['grow/'], problems: [] };
// 2^24 doublings of 8 bytes: a 128 MiB string, about 640 MB of the tool's memory, more than the 1 GiB of address
// space below allows; 2^10 is a few KiB.
const chart = (doublings: number) => ({
  'grow/Chart.yaml': 'apiVersion: v2\nname: grow\nversion: 0.1.0\n',
  'grow/templates/cm.yaml': `{{- $x := "aaaaaaaa" }}{{- range until ${doublings} }}{{- $x = printf "%s%s" $x $x }}{{- end }}
apiVersion: v1
kind: ConfigMap
metadata:
  name: grow
data:
  size: "{{ len $x }}"
`,
});
const limits = { timeoutMs: 60_000, maxOutputBytes: 16 * 1024 * 1024, maxMemoryBytes: 1024 * 1024 * 1024 };

async function render(doublings: number) {
  const r = makeConfigRepoWith(repos, chart(doublings), `${doublings} doublings`);
  const repo = await openRepo(r.dir);
  const tree = (await readCommitInfo(repo, await resolveRev(repo, 'HEAD'))).tree;
  return renderUnit(repo, tree, unit, limits);
}

test('a chart that builds a value past the memory bound is stopped and held with the reason; one within it renders', async () => {
  const grown = await render(24);
  assert.ok(grown.unreadable);
  assert.equal(
    grown.problems.map((p) => [p.file, p.code]),
    [['grow/Chart.yaml', 'UNIT_FAILED']],
  );
  assert.match(grown.problems[0]!.message, 'needed more than 1024 MiB of memory and was stopped');
  const small = await render(10);
  assert.not.ok(small.unreadable, JSON.stringify(small.problems));
  assert.equal(
    small.templates.map((t) => (t.manifest.data as { size: string }).size),
    [String(8 * 2 ** 10)],
  );
});

test.run();
