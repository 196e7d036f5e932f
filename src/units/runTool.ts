import { spawn } from 'node:child_process';

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

export function runTool(
  file: string,
  args: readonly string[],
  opts: { cwd: string; env: Record<string, string>; limits: ToolLimits },
): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    const kib = Math.floor((opts.limits.maxMemoryBytes ?? DEFAULT_TOOL_LIMITS.maxMemoryBytes!) / 1024);
    // sh sets the limit and becomes the tool (exec), so the kill below reaches the tool itself; a sh without
    // `ulimit -v` runs it unbounded rather than not at all.
    const child =
      process.platform === 'win32'
        ? spawn(file, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] })
        : spawn('/bin/sh', ['-c', `ulimit -v ${kib} 2>/dev/null; exec "$0" "$@"`, file, ...args], {
            cwd: opts.cwd,
            env: opts.env,
            stdio: ['ignore', 'pipe', 'pipe'],
          });
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
