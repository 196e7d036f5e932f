// Process faults: `flotilla run` and `flotilla agent` as real child processes over a bare config repo and
// emulated members (in this process, so the test reads their stores directly). Expected state comes from the
// rendered branch (git ls-tree), actual state from each member's store and the status branch's inventories.
import path from 'node:path';
import { groupOf } from '../../../src/api/kinds.ts';
import { openRepo } from '../../../src/commits/openRepo.ts';
import { connectKubeconfig } from '../../../src/deliveries/connectKubeTarget.ts';
import type { Member } from '../../../src/members/startMember.ts';
import { reconcileOnce } from '../../../src/reconcile.ts';
import { type Fleet, makeFleet } from '../../helpers/fleet.ts';
import { LogEvents } from '../../helpers/logEvents.ts';
import { spawnFlotilla, type Child } from '../../helpers/spawnFlotilla.ts';

export { LogEvents, spawnFlotilla, type Child };

const MANAGED = 'karmada.io/managed';
export const RENDERED = 'flotilla/rendered';
export const STATUS = 'flotilla/status';

/** `flotilla run` on the fleet's bare repo, members from the credentials folder, no resync, any free port. */
export function spawnRun(fleet: Fleet, env: Record<string, string> = {}): Child {
  return spawnFlotilla(
    ['run', '--repo', fleet.bare, '--credentials-dir', fleet.credentials, '--listen', '127.0.0.1:0', '--resync', '0'],
    env,
  );
}

/** Identity of an object as a rendered path names it: `<namespace>/<kind>[.<group>]/<name>`. */
function keyOf(apiVersion: string, kind: string, namespace: string, name: string): string {
  const group = groupOf(apiVersion);
  return `${namespace}/${kind.toLowerCase()}${group ? `.${group}` : ''}/${name}`;
}

/** What the rendered branch says `cluster` runs (keys as keyOf), read with git. */
export function renderedKeys(fleet: Fleet, cluster: string, rev = RENDERED): string[] {
  const out = fleet.git(fleet.bare, 'ls-tree', '-r', '--name-only', rev, '--', `clusters/${cluster}/`);
  return out
    .split('\n')
    .filter(Boolean)
    .map((p) => {
      const [, , namespace, file] = p.split('/');
      const m = /^(.+?)_(.+)\.yaml$/.exec(file!)!;
      return `${namespace}/${m[1]}/${m[2]}`;
    })
    .sort();
}

/** The objects Flotilla manages on a member, key → uid, read from its store. */
export function managedOn(member: Member): Map<string, string> {
  const out = new Map<string, string>();
  for (const resource of member.store.resources()) {
    for (const o of member.store.list(resource)) {
      if (o.metadata.labels?.[MANAGED] !== 'true') continue;
      out.set(
        keyOf(String(o.apiVersion), String(o.kind), o.metadata.namespace ?? '', o.metadata.name!),
        o.metadata.uid!,
      );
    }
  }
  return out;
}

/** The status branch's inventory of `cluster` (keys as keyOf); undefined when there is none. */
export function inventoryKeys(fleet: Fleet, cluster: string): string[] | undefined {
  let text: string;
  try {
    text = fleet.git(fleet.bare, 'show', `${STATUS}:inventories/${cluster}.json`);
  } catch {
    return undefined;
  }
  const parsed = JSON.parse(text) as {
    objects: { apiVersion: string; kind: string; namespace?: string; name: string }[];
  };
  return parsed.objects.map((o) => keyOf(o.apiVersion, o.kind, o.namespace ?? '', o.name)).sort();
}

export function refOf(fleet: Fleet, branch: string): string {
  return fleet.git(fleet.bare, 'for-each-ref', '--format=%(objectname)', `refs/heads/${branch}`);
}

/** Output commits that name `sourceCommit` (a source commit must be rendered once). */
export function outputCommitsFor(fleet: Fleet, sourceCommit: string): number {
  return fleet
    .git(fleet.bare, 'log', '--format=%H', '--grep', `Source-Commit: ${sourceCommit}`, RENDERED)
    .split('\n')
    .filter(Boolean).length;
}

/** Resolves on the first write Flotilla makes to a managed object on the member (creation or change). */
export function firstManagedWrite(member: Member, match: (name: string) => boolean = () => true): Promise<void> {
  return new Promise<void>((resolve) => {
    const unsubscribe = member.store.subscribe((ev) => {
      if (ev.type !== 'DELETED' && ev.object.metadata.labels?.[MANAGED] === 'true' && match(ev.object.metadata.name!)) {
        unsubscribe();
        resolve();
      }
    });
  });
}

/** One reconcile pass in this process, on the fleet's repo and members: the converged state a fault starts from. */
export async function reconcileInProcess(fleet: Fleet, clusters?: readonly string[]): Promise<void> {
  const kubes = await connectKubeconfig(path.join(fleet.credentials, 'members.config'), { timeoutMs: 5_000 });
  try {
    const chosen = new Map([...kubes].filter(([name]) => !clusters || clusters.includes(name)));
    await reconcileOnce({
      repo: await openRepo(fleet.bare),
      sourceRef: 'refs/heads/main',
      outputRef: `refs/heads/${RENDERED}`,
      statusRef: `refs/heads/${STATUS}`,
      clusters: chosen,
      render: true,
      log: () => undefined,
    });
  } finally {
    await Promise.all([...kubes.values()].map((k) => k.close()));
  }
}

export { makeFleet, type Fleet };
