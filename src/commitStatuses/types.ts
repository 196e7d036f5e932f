// Commit statuses as Flotilla reports them to a forge: one per member cluster on the source commit it applied.

export type ForgeKind = 'github' | 'gitlab' | 'gitea';

export const FORGE_KINDS: readonly ForgeKind[] = ['github', 'gitlab', 'gitea'];

/** Where and as whom to report. The token itself is never part of it: only the name of the variable holding it. */
export interface ForgeConfig {
  forge: ForgeKind;
  /** API root: https://api.github.com, https://gitlab.com/api/v4, https://gitea.example.com/api/v1. No trailing slash. */
  apiUrl: string;
  /** owner/name on GitHub and Gitea; the project's full path (group/sub/name) or numeric id on GitLab. */
  repo: string;
  /** The environment variable holding the token. */
  tokenEnv: string;
  /** Linked from each status (e.g. the status branch in the forge's web UI); absent = no link. */
  targetUrl?: string;
}

/**
 * Flotilla's own verdict per cluster; each forge maps it onto its states. `held` (prune safety is waiting for a
 * Flotilla-Allow-Prune trailer) is its own verdict because only Gitea has a state for "look at this" (warning).
 */
export type ApplyVerdict = 'success' | 'failure' | 'error' | 'held';

export interface CommitStatus {
  /** flotilla/apply/<cluster>: one status line per member, updated in place on each pass. */
  context: string;
  verdict: ApplyVerdict;
  description: string;
}

/** One HTTP request to a forge, without the credential: the sender adds it at the last moment. */
export interface ForgeRequest {
  method: 'POST';
  url: string;
  headers: Record<string, string>;
  body: string;
}
