/** A byte count as problem messages print it: mebibytes with one decimal, as FILE_TOO_LARGE always has. */
export function formatMiB(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * A byte count that may be small (what is left of a budget, an operator's low limit): in bytes under 100 KiB, where
 * formatMiB would print 0.0 or 0.1 MiB for anything from 0 to 150 KiB, else as formatMiB prints it.
 */
export function formatSize(bytes: number): string {
  return bytes < 100 * 1024 ? `${bytes} bytes` : formatMiB(bytes);
}
