import type { ApplyVerdict, CommitStatus, ForgeConfig, ForgeKind, ForgeRequest } from './types.ts';

/** Each forge's words for Flotilla's verdicts (GitHub: pending|success|failure|error; GitLab: …|failed|canceled; Gitea: …|warning). */
const STATES: Record<ForgeKind, Record<ApplyVerdict, string>> = {
  github: { success: 'success', failure: 'failure', error: 'error', held: 'failure' },
  gitlab: { success: 'success', failure: 'failed', error: 'failed', held: 'failed' },
  gitea: { success: 'success', failure: 'failure', error: 'error', held: 'warning' },
};

/** GitHub rejects a description over 140 characters with 422; the others take more, 255 keeps them readable. */
const DESCRIPTION_LIMIT: Record<ForgeKind, number> = { github: 140, gitlab: 255, gitea: 255 };

/**
 * The create-commit-status request of each forge, without the credential. Pure.
 * GitHub:  POST {api}/repos/{owner}/{repo}/statuses/{sha}   {state, context, description, target_url}
 * GitLab:  POST {api}/projects/{url-encoded path or id}/statuses/{sha}   {state, name, description, target_url}
 * Gitea:   POST {api}/repos/{owner}/{repo}/statuses/{sha}   {state, context, description, target_url}
 */
export function buildForgeRequest(config: ForgeConfig, sha: string, status: CommitStatus): ForgeRequest {
  const state = STATES[config.forge][status.verdict];
  const description = truncate(status.description, DESCRIPTION_LIMIT[config.forge]);
  const link = config.targetUrl ? { target_url: config.targetUrl } : {};
  const json = { 'Content-Type': 'application/json', 'User-Agent': 'flotilla' };
  switch (config.forge) {
    case 'github':
      return {
        method: 'POST',
        url: `${config.apiUrl}/repos/${ownerRepo(config.repo)}/statuses/${sha}`,
        headers: { ...json, Accept: 'application/vnd.github+json', 'X-GitHub-Api-Version': '2022-11-28' },
        body: JSON.stringify({ state, context: status.context, description, ...link }),
      };
    case 'gitlab':
      return {
        method: 'POST',
        url: `${config.apiUrl}/projects/${encodeURIComponent(config.repo)}/statuses/${sha}`,
        headers: { ...json, Accept: 'application/json' },
        body: JSON.stringify({ state, name: status.context, description, ...link }),
      };
    case 'gitea':
      return {
        method: 'POST',
        url: `${config.apiUrl}/repos/${ownerRepo(config.repo)}/statuses/${sha}`,
        headers: { ...json, Accept: 'application/json' },
        body: JSON.stringify({ state, context: status.context, description, ...link }),
      };
  }
}

/** The header that carries the token, per forge: kept apart so nothing else ever holds it. */
export function authHeader(forge: ForgeKind, token: string): Record<string, string> {
  switch (forge) {
    case 'github':
      return { Authorization: `Bearer ${token}` };
    case 'gitlab':
      return { 'PRIVATE-TOKEN': token };
    case 'gitea':
      return { Authorization: `token ${token}` };
  }
}

function ownerRepo(repo: string): string {
  const [owner, name] = repo.split('/');
  return `${encodeURIComponent(owner!)}/${encodeURIComponent(name!)}`;
}

function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}
