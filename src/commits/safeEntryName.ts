/**
 * Whether a tree entry's name is one git itself would check out (verify_path, fsck's hasDot/hasDotdot/hasDotgit):
 * not empty, not `.` or `..`, no `/` or NUL, not `.git` in any case (nor as Windows and macOS also read it, with
 * trailing dots or spaces). A hand-made tree can hold any name; a path built from `..` entries would leave the
 * folder a unit's files are written to, so such entries are not read at all.
 */
export function isSafeEntryName(name: string): boolean {
  if (name === '' || name === '.' || name === '..') return false;
  if (name.includes('/') || name.includes('\0')) return false;
  return name.replace(/[. ]+$/, '').toLowerCase() !== '.git';
}
