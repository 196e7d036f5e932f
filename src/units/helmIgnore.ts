/**
 * A chart's .helmignore as helm applies it when it packs the chart (`helm dependency build` of a `file://` dependency),
 * pure: one pattern a line (`#` comments), a trailing `/` for folders only, a pattern with a `/` matched against the
 * path from the chart's folder (a leading `/` anchors it there), one without against the file's name; `*`, `?` and
 * `[...]` as Go's filepath.Match; lines are tried in order, and `!` works as helm's (not git's) does. helm always adds
 * `templates/.?*`. A folder ignored is skipped whole. A `**` line, which helm refuses, is skipped here.
 */
export function helmIgnoreRules(text: string): (path: string, isDir: boolean) => boolean {
  const rules: { negate: boolean; mustDir: boolean; match: (path: string) => boolean }[] = [];
  for (const raw of [...text.split('\n'), 'templates/.?*']) {
    let rule = raw.trim();
    if (rule === '' || rule.startsWith('#') || rule.includes('**')) continue;
    const negate = rule.startsWith('!');
    if (negate) rule = rule.slice(1);
    const mustDir = rule.endsWith('/');
    if (mustDir) rule = rule.slice(0, -1);
    if (rule === '') continue;
    const re = globToRegExp(rule.replace(/^\//, ''));
    const whole = rule.includes('/');
    rules.push({ negate, mustDir, match: (p) => re.test(whole ? p : p.slice(p.lastIndexOf('/') + 1)) });
  }
  return (path, isDir) => {
    if (path === '' || path === '.') return false;
    for (const r of rules) {
      // helm's pkg/ignore: a `!` line ignores what it does not match (and, for a folder pattern, every file), so
      // it keeps only what it names; what it names goes on to the next line.
      if (r.negate) {
        if ((r.mustDir && !isDir) || !r.match(path)) return true;
        continue;
      }
      if (r.mustDir && !isDir) continue;
      if (r.match(path)) return true;
    }
    return false;
  };
}

/** Go's filepath.Match pattern as a regular expression over the whole name. */
function globToRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '\\' && i + 1 < glob.length) out += `\\${glob[++i]}`;
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) return /(?!)/;
      const body = glob.slice(i + 1, end).replace(/^\^/, '^');
      out += `[${body.replace(/\\(?!\])/g, '\\\\')}]`;
      i = end;
    } else out += c.replace(/[.+^${}()|\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}
