/**
 * Which paths of a commit are config: every *.yaml / *.yml / *.json (as kubectl reads a folder), except under dot-folders (.github, .git…)
 * and paths matched by `.flotillaignore` (gitignore-style: `#` comments, `*` and `**` globs, a leading
 * `/` anchors to the repo root, a trailing `/` matches folders, `!` re-includes).
 */
export interface IgnoreRules {
  rules: { regex: RegExp; negate: boolean; dirOnly: boolean }[];
}

export const IGNORE_FILE = '.flotillaignore';

export function parseIgnoreFile(text: string): IgnoreRules {
  const rules: IgnoreRules['rules'] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const negate = line.startsWith('!');
    if (negate) line = line.slice(1);
    const dirOnly = line.endsWith('/');
    if (dirOnly) line = line.slice(0, -1);
    const anchored = line.startsWith('/') || line.slice(0, -1).includes('/');
    if (line.startsWith('/')) line = line.slice(1);
    const body = line
      .split('**')
      .map((part) =>
        part
          .split('*')
          .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('[^/]*'),
      )
      .join('.*');
    rules.push({ regex: new RegExp(`${anchored ? '^' : '(^|/)'}${body}$`), negate, dirOnly });
  }
  return { rules };
}

export function isConfigFile(path: string, ignore?: IgnoreRules): boolean {
  if (!/\.(?:ya?ml|json)$/i.test(path)) return false;
  const segments = path.split('/');
  if (segments.some((s) => s.startsWith('.'))) return false;
  if (!ignore || ignore.rules.length === 0) return true;
  let ignored = false;
  // A rule matches the file itself or any folder above it, so `templates/old/` ignores its contents.
  for (let i = 1; i <= segments.length; i++) {
    const prefix = segments.slice(0, i).join('/');
    const isDir = i < segments.length;
    for (const rule of ignore.rules) {
      if (rule.dirOnly && !isDir) continue;
      if (rule.regex.test(prefix)) ignored = !rule.negate;
    }
  }
  return !ignored;
}
