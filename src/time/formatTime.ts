/** RFC 3339 at second precision, as Kubernetes writes times. */
export function formatTime(t: Date): string {
  return t.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
