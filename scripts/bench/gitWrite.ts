// Times the src/commits write path: 20,000 ~600-byte manifests in 100 folders as one commit
// into a fresh repo (cold), then a 1-file commit on top. Usage: node --import tsx scripts/bench/gitWrite.ts
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildCommit } from '../../src/commits/buildCommit.ts';
import { diffTrees } from '../../src/commits/diffTrees.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { PackWriter } from '../../src/commits/PackWriter.ts';
import { readCommitInfo } from '../../src/commits/readCommitInfo.ts';
import { resolveRev } from '../../src/commits/resolveRev.ts';
import { updateRef } from '../../src/commits/updateRef.ts';
import { writeTreeEdits } from '../../src/commits/writeTreeEdits.ts';

const who = { name: 'Flotilla', email: 'flotilla@example.com', timestamp: 1700000000, timezoneOffset: 0 };

function manifest(cluster: number, i: number): Uint8Array {
  const name = `app-${cluster}-${i}`;
  return Buffer.from(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: team-${i % 17}
  labels:
    app.kubernetes.io/name: ${name}
    app.kubernetes.io/part-of: flotilla-bench
    cluster.flotilla.io/member: member${cluster}
spec:
  replicas: ${1 + (i % 5)}
  selector:
    matchLabels:
      app: ${name}
  template:
    metadata:
      labels:
        app: ${name}
    spec:
      containers:
        - name: main
          image: registry.example.com/team-${i % 17}/${name}:v${i % 13}.${cluster % 7}.${i}
          ports:
            - containerPort: ${8000 + (i % 100)}
          resources:
            requests: { cpu: ${50 + (i % 20) * 10}m, memory: ${64 + (i % 8) * 32}Mi }
            limits: { cpu: ${200 + (i % 10) * 50}m, memory: ${256 + (i % 4) * 128}Mi }
`);
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'flotilla-bench-'));
try {
  const repoPath = path.join(root, 'repo.git');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', repoPath]);

  const edits = new Map<string, Uint8Array>();
  let bytes = 0;
  for (let c = 0; c < 100; c++) {
    for (let i = 0; i < 200; i++) {
      const content = manifest(c, i);
      bytes += content.length;
      edits.set(`works/member${c}/deployment-${i}.yaml`, content);
    }
  }

  let t = performance.now();
  const repo = await openRepo(repoPath);
  const pack = new PackWriter(repo);
  const tree = await writeTreeEdits(repo, pack, null, edits);
  const tBuilt = performance.now();
  const c1 = buildCommit(pack, { tree, parents: [], message: 'render 1\n', author: who, committer: who });
  const r1 = await pack.flush();
  await updateRef(repo, 'refs/heads/main', c1, null);
  const cold = performance.now() - t;
  console.log(
    `cold: ${edits.size} blobs (avg ${Math.round(bytes / edits.size)} B), ${r1.written} objects, ` +
      `${cold.toFixed(0)} ms (trees+hashing ${(tBuilt - t).toFixed(0)} ms, pack+ref ${(performance.now() - tBuilt).toFixed(0)} ms), ` +
      `pack ${(fs.statSync(r1.packFile!).size / 1e6).toFixed(1)} MB`,
  );

  // #1 pays isomorphic-git's first load of the pack (idx parse + whole .pack read) and JIT warm-up;
  // #2 reuses that cache; #3 opens a new GitRepo, so only the pack load is paid again.
  const runs = [
    ['1-file commit #1 (first read of the pack)', repo],
    ['1-file commit #2 (warm cache)', repo],
    ['1-file commit #3 (new GitRepo, empty cache)', null],
  ] as const;
  for (const [label, given] of runs) {
    t = performance.now();
    const r = given ?? (await openRepo(repoPath));
    const head = await resolveRev(r, 'main');
    const base = await readCommitInfo(r, head);
    const p = new PackWriter(r);
    const newTree = await writeTreeEdits(
      r,
      p,
      base.tree,
      new Map([['works/member42/deployment-7.yaml', Buffer.from(`# edit ${label}\n`)]]),
    );
    const c = buildCommit(p, { tree: newTree, parents: [head], message: 'render\n', author: who, committer: who });
    const res = await p.flush();
    await updateRef(r, 'refs/heads/main', c, head);
    const ms = performance.now() - t;
    const t2 = performance.now();
    const diff = await diffTrees(r, base.tree, newTree);
    console.log(
      `${label}: ${res.written} objects, ${ms.toFixed(1)} ms; diffTrees ${diff.length} change in ${(performance.now() - t2).toFixed(1)} ms`,
    );
  }

  t = performance.now();
  execFileSync('git', ['--git-dir', repoPath, 'fsck', '--strict', '--no-dangling']);
  console.log(`git fsck --strict: clean (${(performance.now() - t).toFixed(0)} ms)`);
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
