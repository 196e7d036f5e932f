import { execFile, spawn } from 'node:child_process';

export interface ToolRun {
  /** Exit code; null when killed (timeout, output cap). */
  code: number | null;
  stdout: Uint8Array;
  stderr: string;
  timedOut: boolean;
  /** Output went over the cap: the run was killed and stdout is incomplete. */
  overflowed: boolean;
}

export interface ToolLimits {
  /** Default 60 s: a chart that loops is killed, not waited for. */
  timeoutMs: number;
  /** Default 16 MiB of manifests from one unit. */
  maxOutputBytes: number;
  /**
   * Default 2 GiB: the address space the tool may use (`ulimit -v`, where the platform's sh has it). A template can
   * build a string in memory without writing a byte (`printf "%s%s" $x $x` in a loop), so neither the timeout nor the
   * output cap stops it before the host runs out of memory and the reconciler beside it is killed.
   */
  maxMemoryBytes?: number;
}

export const DEFAULT_TOOL_LIMITS: ToolLimits = {
  timeoutMs: 60_000,
  maxOutputBytes: 16 * 1024 * 1024,
  maxMemoryBytes: 2 * 1024 * 1024 * 1024,
};

/** What Go's runtime prints when an allocation is refused: the tool hit maxMemoryBytes. */
export function ranOutOfMemory(stderr: string): boolean {
  return /^fatal error: (out of memory|runtime: out of memory)/m.test(stderr);
}

/** Runs a tool to completion, killing it at the timeout or once its output passes the cap. */
const STDERR_KEPT = 32 * 1024;

/**
 * The `unshare` that gives a tool a network namespace of its own (only a loopback, and that down), or undefined where
 * the platform does not let this process make one (a container without user namespaces, no util-linux), asked once.
 * Helm and kustomize reach the network through Go's HTTP client, which a refusing proxy stops for every host but
 * `localhost` and loopback addresses: those it connects to itself (golang.org/x/net/http/httpproxy), so a URL a pull
 * request builds where no check before the run can see it (a kustomize plugin folder that patches its own path) would
 * reach the reconciler's own loopback services. Without a namespace, those checks are all there is.
 */
export function networkIsolation(): Promise<string | undefined> {
  isolation ??= new Promise((resolve) => {
    if (process.platform !== 'linux') return resolve(undefined);
    execFile(
      '/bin/sh',
      ['-c', 'u=$(command -v unshare) && "$u" -rn /bin/sh -c "exit 0" && echo "$u"'],
      { timeout: 10_000 },
      (err, stdout) => resolve(err ? undefined : stdout.trim() || undefined),
    );
  });
  return isolation;
}
let isolation: Promise<string | undefined> | undefined;

export async function runTool(
  file: string,
  args: readonly string[],
  opts: { cwd: string; env: Record<string, string>; limits: ToolLimits },
): Promise<ToolRun> {
  const unshare = await networkIsolation();
  return new Promise((resolve, reject) => {
    const kib = Math.floor((opts.limits.maxMemoryBytes ?? DEFAULT_TOOL_LIMITS.maxMemoryBytes!) / 1024);
    // sh sets the limit and becomes the tool (exec), so the kill below reaches the tool itself; a sh without
    // `ulimit -v` runs it unbounded rather than not at all. unshare execs sh in turn, in the same process.
    const shell = ['/bin/sh', '-c', `ulimit -v ${kib} 2>/dev/null; exec "$0" "$@"`, file, ...args];
    const stdio: ['ignore', 'pipe', 'pipe'] = ['ignore', 'pipe', 'pipe'];
    const child =
      process.platform === 'win32'
        ? spawn(file, args, { cwd: opts.cwd, env: opts.env, stdio })
        : unshare
          ? spawn(unshare, ['-rn', ...shell], { cwd: opts.cwd, env: opts.env, stdio })
          : spawn(shell[0]!, shell.slice(1), { cwd: opts.cwd, env: opts.env, stdio });
    const chunks: Buffer[] = [];
    let size = 0;
    // The error's start names the file and line, its end the cause (Helm nests a looping include a thousand deep):
    // both are kept, the middle of a long one dropped.
    let stderrHead = '';
    let stderrTail = '';
    let timedOut = false;
    let overflowed = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, opts.limits.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      if (overflowed) return;
      size += chunk.length;
      if (size > opts.limits.maxOutputBytes) {
        overflowed = true;
        child.kill('SIGKILL');
        return;
      }
      chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      const room = STDERR_KEPT - stderrHead.length;
      if (room > 0) stderrHead += text.slice(0, room);
      if (text.length > room) stderrTail = (stderrTail + text.slice(Math.max(room, 0))).slice(-STDERR_KEPT);
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const stderr = stderrHead + stderrTail;
      // sh could not become the tool (gone, another platform's build): as spawn's own error would say.
      if ((code === 126 || code === 127) && size === 0 && stderr.includes(`exec: ${file}:`)) {
        reject(Object.assign(new Error(stderr.slice(stderr.indexOf('exec: ') + 6).trim()), { code: 'ENOENT' }));
        return;
      }
      resolve({ code, stdout: Buffer.concat(chunks), stderr, timedOut, overflowed });
    });
  });
}
