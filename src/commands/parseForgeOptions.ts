import { FORGE_KINDS, type ForgeConfig, type ForgeKind } from '../commitStatuses/types.ts';
import { UsageError } from '../errors/UsageError.ts';

/** The flags, in node:util parseArgs form, for a command that reports commit statuses (`run`). */
export const FORGE_ARG_OPTIONS = {
  forge: { type: 'string' },
  'forge-url': { type: 'string' },
  'forge-repo': { type: 'string' },
  'forge-token-env': { type: 'string' },
  'forge-target-url': { type: 'string' },
} as const;

/** Help lines for those flags. */
export const FORGE_HELP = `Commit statuses (after each apply, one per cluster on the source commit, context flotilla/apply/<cluster>):
  --forge github|gitlab|gitea   Report to this forge (off when absent)
  --forge-url URL               API root (default https://api.github.com, https://gitlab.com/api/v4; Gitea: required,
                                e.g. https://gitea.example.com/api/v1)
  --forge-repo REPO             owner/name (GitLab: group/project path or numeric project id)
  --forge-token-env VAR         Environment variable holding the token (default GITHUB_TOKEN, GITLAB_TOKEN, GITEA_TOKEN)
  --forge-target-url URL        Link shown with each status (optional)
`;

const DEFAULT_API: Partial<Record<ForgeKind, string>> = {
  github: 'https://api.github.com',
  gitlab: 'https://gitlab.com/api/v4',
};
const DEFAULT_TOKEN_ENV: Record<ForgeKind, string> = {
  github: 'GITHUB_TOKEN',
  gitlab: 'GITLAB_TOKEN',
  gitea: 'GITEA_TOKEN',
};

/**
 * The forge configuration from parsed flags; undefined when --forge is absent (no statuses). Throws UsageError
 * naming the flag and the fix. Pure: the token is read separately (readForgeToken), by the caller that owns the env.
 */
export function parseForgeOptions(
  values: Partial<Record<keyof typeof FORGE_ARG_OPTIONS, string | undefined>>,
): ForgeConfig | undefined {
  const forge = values.forge;
  if (forge === undefined) {
    const stray = (['forge-url', 'forge-repo', 'forge-token-env', 'forge-target-url'] as const).find(
      (k) => values[k] !== undefined,
    );
    if (stray) throw new UsageError(`--${stray} needs --forge github|gitlab|gitea`);
    return undefined;
  }
  if (!(FORGE_KINDS as readonly string[]).includes(forge))
    throw new UsageError(`--forge ${forge}: use github, gitlab or gitea (Forgejo: gitea)`);
  const kind = forge as ForgeKind;
  const apiUrl = (values['forge-url'] ?? DEFAULT_API[kind])?.replace(/\/+$/, '');
  if (!apiUrl)
    throw new UsageError(`--forge ${kind} needs --forge-url, the API root, e.g. https://gitea.example.com/api/v1`);
  let parsed: URL;
  try {
    parsed = new URL(apiUrl);
  } catch {
    throw new UsageError(
      `--forge-url ${apiUrl} is not a URL; e.g. ${DEFAULT_API[kind] ?? 'https://gitea.example.com/api/v1'}`,
    );
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new UsageError(`--forge-url ${apiUrl}: use an http(s) URL`);
  if (parsed.username || parsed.password)
    throw new UsageError(
      '--forge-url must not carry credentials; put the token in the variable named by --forge-token-env',
    );
  const repo = values['forge-repo'];
  if (!repo)
    throw new UsageError(
      `--forge ${kind} needs --forge-repo, e.g. ${kind === 'gitlab' ? 'group/project' : 'owner/name'}`,
    );
  const twoParts = /^[^/\s]+\/[^/\s]+$/.test(repo);
  if (kind === 'gitlab' ? !(/^\d+$/.test(repo) || /^[^\s]+\/[^\s]+$/.test(repo)) : !twoParts) {
    throw new UsageError(
      `--forge-repo ${repo}: use ${kind === 'gitlab' ? 'the project path (group/project) or its numeric id' : 'owner/name'}`,
    );
  }
  const tokenEnv = values['forge-token-env'] ?? DEFAULT_TOKEN_ENV[kind];
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(tokenEnv))
    throw new UsageError(
      `--forge-token-env ${tokenEnv}: give the name of an environment variable, not the token itself`,
    );
  return {
    forge: kind,
    apiUrl,
    repo,
    tokenEnv,
    ...(values['forge-target-url'] ? { targetUrl: values['forge-target-url'] } : {}),
  };
}

/** The token from the environment the caller hands in (cli.ts owns process.env). Throws UsageError when unset. */
export function readForgeToken(config: ForgeConfig, env: Readonly<Record<string, string | undefined>>): string {
  const token = env[config.tokenEnv]?.trim();
  if (!token)
    throw new UsageError(
      `--forge ${config.forge}: environment variable ${config.tokenEnv} is empty; fix: export ${config.tokenEnv}=<a token that may write commit statuses>`,
    );
  return token;
}
