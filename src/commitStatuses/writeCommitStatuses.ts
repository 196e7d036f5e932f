import type { RenderedDelivery } from '../deliveries/applyRendered.ts';
import { authHeader, buildForgeRequest } from './buildForgeRequest.ts';
import { buildCommitStatuses } from './buildCommitStatuses.ts';
import type { CommitStatus, ForgeConfig, ForgeRequest } from './types.ts';

export interface WriteCommitStatusesOptions {
  config: ForgeConfig;
  /** Read from the environment variable config.tokenEnv by the caller; never logged, never in Git. */
  token: string;
  delivery: RenderedDelivery;
  /** One structured line per status written or failed; the token never appears in it. */
  log: (entry: Record<string, unknown>) => void;
  /** Statuses already reported, by `sha context`, and what they said: unchanged ones are not sent again. */
  sent?: Map<string, string>;
  /** Attempts per status on 5xx, 429 or no answer. Default 3. */
  attempts?: number;
  /** Injected for tests: the HTTP client and the pause between attempts. */
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  timeoutMs?: number;
}

export interface CommitStatusResult {
  context: string;
  /** `unchanged`: the same status was reported for this commit before, so nothing was sent. */
  outcome: 'sent' | 'unchanged' | 'failed';
  attempts: number;
  httpStatus?: number;
}

/**
 * Sets one commit status per cluster on the delivery's source commit. Never throws: a forge that is down, slow or
 * refusing costs a log line, never the reconcile pass. Statuses identical to what this process already reported for
 * the same commit are skipped: a reconciler passing every few seconds would otherwise hit GitHub's limit of 1,000
 * statuses per commit and context.
 */
export async function writeCommitStatuses(opts: WriteCommitStatusesOptions): Promise<CommitStatusResult[]> {
  const sha = opts.delivery.sourceCommit;
  if (!sha) {
    opts.log({ step: 'commitStatus', skipped: 'the rendered commit names no Source-Commit' });
    return [];
  }
  const results: CommitStatusResult[] = [];
  for (const status of buildCommitStatuses(opts.delivery)) {
    const key = `${sha} ${status.context}`;
    const said = `${status.verdict} ${status.description}`;
    if (opts.sent?.get(key) === said) {
      results.push({ context: status.context, outcome: 'unchanged', attempts: 0 });
      continue;
    }
    const result = await send(opts, buildForgeRequest(opts.config, sha, status), status);
    if (result.outcome === 'sent') opts.sent?.set(key, said);
    results.push(result);
    opts.log({
      step: 'commitStatus',
      forge: opts.config.forge,
      sourceCommit: sha,
      context: status.context,
      verdict: status.verdict,
      outcome: result.outcome,
      attempts: result.attempts,
      ...(result.httpStatus ? { httpStatus: result.httpStatus } : {}),
      ...('error' in result ? { error: result.error } : {}),
    });
  }
  return results;
}

async function send(
  opts: WriteCommitStatusesOptions,
  req: ForgeRequest,
  status: CommitStatus,
): Promise<CommitStatusResult & { error?: string }> {
  const doFetch = opts.fetch ?? fetch;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const attempts = opts.attempts ?? 3;
  const redact = (text: string) => (opts.token ? text.split(opts.token).join('***') : text);
  let error = '';
  for (let attempt = 1; ; attempt++) {
    let httpStatus: number | undefined;
    try {
      const res = await doFetch(req.url, {
        method: req.method,
        headers: { ...req.headers, ...authHeader(opts.config.forge, opts.token) },
        body: req.body,
        signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
      });
      httpStatus = res.status;
      const text = await res.text().catch(() => '');
      if (res.ok) return { context: status.context, outcome: 'sent', attempts: attempt, httpStatus };
      // GitLab answers 400 when the status already is in that state ("Cannot transition status via :run from
      // :running"): what we wanted to say is what it says.
      if (opts.config.forge === 'gitlab' && res.status === 400 && /Cannot transition status/i.test(text)) {
        return { context: status.context, outcome: 'sent', attempts: attempt, httpStatus };
      }
      error = redact(`HTTP ${res.status}: ${forgeMessage(text)}${hint(opts.config, res.status)}`);
      if (res.status < 500 && res.status !== 429)
        return { context: status.context, outcome: 'failed', attempts: attempt, httpStatus, error };
    } catch (err) {
      // `fetch failed` keeps the useful part (ECONNREFUSED, a timeout, a TLS error) in its cause.
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code ?? cause?.message;
      error = redact(`${err instanceof Error ? err.message : String(err)}${why ? ` (${why})` : ''}`);
    }
    if (attempt >= attempts)
      return {
        context: status.context,
        outcome: 'failed',
        attempts: attempt,
        ...(httpStatus ? { httpStatus } : {}),
        error,
      };
    await sleep(Math.min(2_000, 200 * 2 ** (attempt - 1)));
  }
}

/** The `message` of a forge's JSON error, else the start of the body. */
function forgeMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown; errors?: unknown };
    if (body.message)
      return `${JSON.stringify(body.message)}${body.errors ? ` ${JSON.stringify(body.errors)}` : ''}`.slice(0, 300);
  } catch {
    // not JSON: the text itself
  }
  return text.slice(0, 300);
}

function hint(config: ForgeConfig, status: number): string {
  if (status === 401) return `; fix: the token in ${config.tokenEnv} was refused: check it is set and not expired`;
  if (status === 403 || status === 404) {
    return `; fix: check --forge-repo ${config.repo} and that the token in ${config.tokenEnv} may write commit statuses there (GitHub: repo:status or "Commit statuses: write"; GitLab: api scope, Developer role; Gitea: write:repository)`;
  }
  return '';
}
