import nodeFs from 'node:fs';
import path from 'node:path';
import git from 'isomorphic-git';
import { gitHttp, GIT_HTTP_IDLE_TIMEOUT_MS } from '../commits/gitHttp.ts';
import { parseRemoteUrl, redactedError, redactUrlsIn } from '../commits/remoteUrl.ts';
import { readRef } from '../commits/readRef.ts';
import { updateRef } from '../commits/updateRef.ts';
import { replayCommits } from '../commits/replayCommits.ts';

export interface RemoteMirror {
  /** The local bare mirror every other stage reads and writes. */
  readonly gitdir: string;
  /** Fetches the source branch and moves the mirror's copy to the remote's head, whatever it is (force-pushes included). */
  fetchSource(): Promise<{ head: string | null; moved: boolean }>;
  /** Pushes the output branches that moved since they were last pushed; a rejected push is reported, not thrown. */
  pushOutputs(): Promise<{ pushed: string[]; rejected: { ref: string; error: string }[] }>;
  /**
   * Several replicas on one remote (--leader-elect): brings each output branch to the remote's head. A branch with
   * nothing unpushed moves to the remote's head; one where both moved is replayed onto it when it is shared
   * (`sharedBranches`: each writer owns its paths) and otherwise reset to it, since another writer's commit won.
   */
  syncOutputs(): Promise<{ moved: string[]; replayed: string[]; dropped: string[] }>;
}

export interface MirrorOptions {
  url: string;
  gitdir: string;
  sourceBranch: string;
  /** Short branch names written here and pushed back, e.g. flotilla/rendered and flotilla/status. */
  outputBranches: readonly string[];
  /** A fetch or push that receives nothing for this long fails (the pass reports it; the next one tries again). Default 30 s. */
  idleTimeoutMs?: number;
  /**
   * Output branches other processes push too (the status branch, with several replicas): a push the remote refuses
   * because it moved is replayed onto the remote's head and pushed again.
   */
  sharedBranches?: readonly string[];
}

/** Credentials in a URL (https://user:token@host/…) are for the Git server only, never for files or logs. */
export { redactUrl } from '../commits/remoteUrl.ts';

/** A mirror's default place: one folder per remote, named after host and path, under `root`. */
export function defaultMirrorDir(root: string, url: string): string {
  const u = new URL(url);
  return path.join(root, `${u.host}${u.pathname}`.replace(/\.git$/, '').replace(/[^A-Za-z0-9._-]+/g, '_') + '.git');
}

/**
 * A remote config repo, reconciled through a local bare mirror: fetched with isomorphic-git (smart HTTP),
 * and the rendered and status branches pushed back so the remote holds what the reconciler did. On first
 * open, output branches the remote already has are fetched, so a new mirror resumes where the last one left off.
 */
export async function openRemoteMirror(opts: MirrorOptions): Promise<RemoteMirror> {
  const { gitdir } = opts;
  // The credential stays in memory (onAuth); the URL isomorphic-git stores and sees carries none.
  const { url, onAuth } = parseRemoteUrl(opts.url);
  const fs = nodeFs;
  const cache = {};
  const http = gitHttp(opts.idleTimeoutMs ?? GIT_HTTP_IDLE_TIMEOUT_MS);
  if (!fs.existsSync(path.join(gitdir, 'HEAD'))) {
    // Owner-only: the mirror holds the whole config repo and what Flotilla rendered from it.
    fs.mkdirSync(gitdir, { recursive: true, mode: 0o700 });
    await git.init({ fs, gitdir, bare: true, defaultBranch: opts.sourceBranch });
  }
  fs.chmodSync(gitdir, 0o700);
  // isomorphic-git maps fetched branches through the remote's refspec.
  await git.addRemote({ fs, gitdir, remote: 'origin', url, force: true });
  fs.chmodSync(path.join(gitdir, 'config'), 0o600);
  const repo = { dir: gitdir, gitdir, bare: true, fs, cache };
  const fetchBranch = async (branch: string): Promise<string | null> => {
    const res = await git
      .fetch({ fs, http, gitdir, url, onAuth, ref: branch, remoteRef: branch, singleBranch: true, tags: false, cache })
      .catch((err: unknown) => {
        throw redactedError(err);
      });
    return res.fetchHead;
  };
  for (const branch of opts.outputBranches) {
    const ref = `refs/heads/${branch}`;
    if (await readRef(repo, ref)) continue;
    const remoteHead = await fetchBranch(branch).catch(() => null); // absent on the remote: nothing to resume
    if (remoteHead) await updateRef(repo, ref, remoteHead, null);
  }
  const lastPushed = new Map<string, string | null>();
  for (const branch of opts.outputBranches) lastPushed.set(branch, await readRef(repo, `refs/heads/${branch}`));
  const shared = new Set(opts.sharedBranches ?? []);

  /** One output branch brought to the remote's head (see syncOutputs). */
  const syncBranch = async (branch: string): Promise<'moved' | 'replayed' | 'dropped' | undefined> => {
    const ref = `refs/heads/${branch}`;
    const remote = await fetchBranch(branch).catch(() => null);
    if (!remote) return undefined;
    const local = await readRef(repo, ref);
    const known = lastPushed.get(branch) ?? null;
    if (local === remote) {
      lastPushed.set(branch, remote);
      return undefined;
    }
    if (remote === known) return undefined; // only we moved: pushed next
    let outcome: 'moved' | 'replayed' | 'dropped' = 'moved';
    let head = remote;
    if (local !== null && local !== known) {
      if (shared.has(branch)) {
        head = await replayCommits(repo, known, local, remote);
        outcome = 'replayed';
      } else outcome = 'dropped';
    }
    await updateRef(repo, ref, head, local);
    lastPushed.set(branch, remote);
    return outcome;
  };

  return {
    gitdir,
    async fetchSource() {
      const ref = `refs/heads/${opts.sourceBranch}`;
      const head = await fetchBranch(opts.sourceBranch);
      const before = await readRef(repo, ref);
      if (!head || head === before) return { head, moved: false };
      await updateRef(repo, ref, head, before);
      return { head, moved: true };
    },
    async pushOutputs() {
      const pushed: string[] = [];
      const rejected: { ref: string; error: string }[] = [];
      for (const branch of opts.outputBranches) {
        const ref = `refs/heads/${branch}`;
        const now = await readRef(repo, ref);
        if (!now || now === lastPushed.get(branch)) continue;
        // A shared branch another replica pushed meanwhile: ours replayed onto theirs, and pushed again.
        for (let attempt = 1; ; attempt++) {
          const head = await readRef(repo, ref);
          try {
            const res = await git.push({ fs, http, gitdir, url, onAuth, ref, remoteRef: ref, cache });
            const status = res.refs[ref];
            if (res.ok && (!status || status.ok)) {
              lastPushed.set(branch, head);
              pushed.push(branch);
              break;
            }
            if (!shared.has(branch) || attempt >= 5) {
              rejected.push({ ref: branch, error: redactUrlsIn(status?.error ?? res.error ?? 'rejected') });
              break;
            }
          } catch (err) {
            if (!shared.has(branch) || attempt >= 5) {
              rejected.push({ ref: branch, error: redactUrlsIn((err as Error).message) });
              break;
            }
          }
          await syncBranch(branch).catch(() => undefined);
        }
      }
      return { pushed, rejected };
    },
    async syncOutputs() {
      const out = { moved: [] as string[], replayed: [] as string[], dropped: [] as string[] };
      for (const branch of opts.outputBranches) {
        const outcome = await syncBranch(branch);
        if (outcome) out[outcome].push(branch);
      }
      return out;
    },
  };
}
