// End-to-end scaffolding: emulated members on loopback, a kubeconfig for them, kubectl pinned to 1.32 with a
// private cache, and a Git repo whose rendered branch the tests write directly (the renderer is tested elsewhere).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { stringify } from 'yaml';
import { buildCommit } from '../../../src/commits/buildCommit.ts';
import { openRepo } from '../../../src/commits/openRepo.ts';
import { PackWriter } from '../../../src/commits/PackWriter.ts';
import { readRef } from '../../../src/commits/readRef.ts';
import type { GitRepo } from '../../../src/commits/types.ts';
import { connectKubeconfig } from '../../../src/deliveries/connectKubeTarget.ts';
import type { KubeTarget } from '../../../src/deliveries/KubeTarget.ts';
import { updateRef } from '../../../src/commits/updateRef.ts';
import { writeTreeEdits } from '../../../src/commits/writeTreeEdits.ts';
import type { Member, MemberOptions } from '../../../src/members/startMember.ts';
import { writeKubeconfig } from '../../../src/members/writeKubeconfig.ts';
import { manifestPath } from '../../../src/branches/rendered/outputPaths.ts';
import { makeFleet, type ConfigRepo } from '../../helpers/fleet.ts';
import { runProgram, type ProgramResult } from '../../helpers/runProgram.ts';
import { KUBECTL, MemberHarness } from '../../members/helpers/memberHarness.ts';

export { KUBECTL };
export const RENDERED_REF = 'refs/heads/flotilla/rendered';

/** The members harness with what the delivery tests add: a kubeconfig file and a bare repo among its temp dirs. */
export class Scratch extends MemberHarness {
  dir(prefix = 'flotilla-deliveries-'): string {
    return this.tempDir(prefix);
  }

  member(name: string, options: Partial<MemberOptions> = {}): Promise<Member> {
    return this.start({ name, dataDir: this.dir(`flotilla-${name}-`), readyDelayMs: 100, ...options });
  }

  kubeconfig(members: Member[]): string {
    const file = path.join(this.dir('flotilla-kubeconfig-'), 'members.config');
    writeKubeconfig(file, members);
    return file;
  }

  async repo(): Promise<GitRepo> {
    const dir = path.join(this.dir('flotilla-repo-'), 'repo.git');
    execFileSync('git', ['init', '-q', '--bare', dir], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    });
    return openRepo(dir);
  }
}

/** Emulated members connected through their kubeconfig, and a config repo: what reconcileOnce runs against. */
export interface MemberFleet {
  config: ConfigRepo;
  /** The config repo as the reconciler opens it. */
  repo: GitRepo;
  kubes: Map<string, KubeTarget>;
  /** The emulated members, in the order named (their fault knobs). */
  members: Member[];
  /** kubectl 1.32 against the members (`--context <name>`), with the fleet's private cache. */
  kubectl(args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }>;
  cleanup(): Promise<void>;
}

/** Starts the named members (with `memberOptions`, e.g. HPA timings) and commits `files` as the config repo's first commit. */
export async function startMemberFleet(
  names: string[],
  files: Record<string, string>,
  message: string,
  memberOptions: Partial<MemberOptions> = {},
): Promise<MemberFleet> {
  const fleet = await makeFleet({ members: names, files, message, memberOptions });
  let kubes = new Map<string, KubeTarget>();
  const cleanup = async () => {
    await Promise.all([...kubes.values()].map((kube) => kube.close()));
    await fleet.cleanup();
  };
  try {
    const kubeconfig = path.join(fleet.credentials, 'members.config');
    const cache = path.join(fleet.root, 'kubectl-cache');
    kubes = await connectKubeconfig(kubeconfig, { timeoutMs: 3_000 });
    return {
      config: fleet.work,
      repo: fleet.repo,
      kubes,
      members: fleet.members,
      kubectl: (args, input) => kubectl(kubeconfig, cache, args, input),
      cleanup,
    };
  } catch (err) {
    // The suite's test.after never sees a fleet that failed to start: stop what did start here.
    await cleanup();
    throw err;
  }
}

let clock = 1_700_000_000;

/**
 * Writes the rendered branch as `clusters` describes it (cluster → manifests), one commit with a Source-Commit trailer;
 * `files` (path → text) are written as they are, e.g. a binding under bindings/.
 */
export async function commitRendered(
  repo: GitRepo,
  clusters: Record<string, Record<string, unknown>[]>,
  source = 'a'.repeat(40),
  files: Record<string, string> = {},
): Promise<string> {
  const edits = new Map<string, Uint8Array | null>();
  for (const [p, text] of Object.entries(files)) edits.set(p, new TextEncoder().encode(text));
  for (const [cluster, objects] of Object.entries(clusters)) {
    for (const o of objects) {
      const meta = o.metadata as { name: string; namespace?: string };
      const p = manifestPath(cluster, {
        apiVersion: String(o.apiVersion),
        kind: String(o.kind),
        namespace: meta.namespace ?? '',
        name: meta.name,
      });
      edits.set(p, new TextEncoder().encode(stringify(o)));
    }
  }
  const pack = new PackWriter(repo);
  const tree = await writeTreeEdits(repo, pack, null, edits);
  const head = await readRef(repo, RENDERED_REF);
  const who = { name: 'T', email: 't@example.com', timestamp: clock++, timezoneOffset: 0 };
  const commit = buildCommit(pack, {
    tree,
    parents: head ? [head] : [],
    message: `render\n\nSource-Commit: ${source}\n`,
    author: who,
    committer: who,
  });
  await pack.flush();
  await updateRef(repo, RENDERED_REF, commit, head);
  return commit;
}

/** A manifest as the renderer writes it: labelled ours, with the conflict-resolution and source-commit annotations. */
export function rendered(
  apiVersion: string,
  kind: string,
  name: string,
  namespace: string | undefined,
  body: Record<string, unknown> = {},
  conflict: 'abort' | 'overwrite' = 'abort',
  source = 'a'.repeat(40),
): Record<string, unknown> {
  return {
    apiVersion,
    kind,
    metadata: {
      name,
      ...(namespace ? { namespace } : {}),
      labels: { 'karmada.io/managed': 'true' },
      annotations: { 'work.karmada.io/conflict-resolution': conflict, 'flotilla.io/source-commit': source },
    },
    ...body,
  };
}

export function kubectl(kubeconfig: string, cacheDir: string, args: string[], input?: string): Promise<ProgramResult> {
  return runProgram(KUBECTL, ['--kubeconfig', kubeconfig, '--cache-dir', cacheDir, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: cacheDir },
    timeout: 30_000,
    input: input ?? '',
  });
}

/** Polls `check` until truthy or the deadline passes. */
export async function waitFor<T>(
  what: string,
  check: () => T | Promise<T>,
  timeoutMs = 15_000,
  intervalMs = 50,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await check();
    if (last) return last as NonNullable<T>;
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}; last value: ${JSON.stringify(last)?.slice(0, 500)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
