/** A byte count as problem messages print it: mebibytes with one decimal, as FILE_TOO_LARGE always has. */
export function formatMiB(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
