/** A git timestamp in the author's own zone, ISO 8601: `2023-11-14T22:13:20+05:30`. offset as in Date#getTimezoneOffset. */
export function formatGitDate(timestamp: number, timezoneOffset: number): string {
  const local = new Date((timestamp - timezoneOffset * 60) * 1000).toISOString().slice(0, 19);
  const east = -timezoneOffset;
  const abs = Math.abs(east);
  return `${local}${east < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}
