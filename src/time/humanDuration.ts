/** kubectl's AGE format (k8s.io/apimachinery/pkg/util/duration.HumanDuration), e.g. 45s, 5m30s, 95m, 3h20m, 4d. */
export function humanDuration(ms: number): string {
  // Go's int(d.Seconds()) truncates toward zero: -1.9s is still "0s", within the two seconds of clock skew allowed.
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8)
    return hours % 24 === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  const years = Math.floor(hours / 24 / 365);
  const days = Math.floor(hours / 24) % 365;
  if (years < 8) return days === 0 ? `${years}y` : `${years}y${days}d`;
  return `${years}y`;
}
