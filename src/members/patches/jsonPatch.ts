import { isDeepStrictEqual } from 'node:util';
import { ApiError } from '../ApiError.ts';

interface Operation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  from?: string;
  value?: unknown;
}

const fail = (message: string) => new ApiError(422, 'Invalid', message);

function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw fail(`invalid JSON pointer "${pointer}"`);
  return pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function parentOf(doc: unknown, tokens: string[], path: string): { parent: Record<string, unknown> | unknown[]; last: string } {
  let node: unknown = doc;
  for (const token of tokens.slice(0, -1)) {
    if (Array.isArray(node)) node = node[Number(token)];
    else if (node !== null && typeof node === 'object') node = (node as Record<string, unknown>)[token];
    else node = undefined;
    if (node === undefined) throw fail(`jsonpatch: path "${path}" does not exist`);
  }
  if (node === null || typeof node !== 'object') throw fail(`jsonpatch: path "${path}" does not exist`);
  return { parent: node as Record<string, unknown> | unknown[], last: tokens[tokens.length - 1]! };
}

function read(doc: unknown, path: string): unknown {
  let node: unknown = doc;
  for (const token of parsePointer(path)) {
    if (Array.isArray(node)) node = node[Number(token)];
    else if (node !== null && typeof node === 'object') node = (node as Record<string, unknown>)[token];
    else return undefined;
  }
  return node;
}

function add(doc: unknown, path: string, value: unknown): unknown {
  const tokens = parsePointer(path);
  if (tokens.length === 0) return value;
  const { parent, last } = parentOf(doc, tokens, path);
  if (Array.isArray(parent)) {
    const index = last === '-' ? parent.length : Number(last);
    if (!(index >= 0 && index <= parent.length)) throw fail(`jsonpatch: index out of range in "${path}"`);
    parent.splice(index, 0, value);
  } else parent[last] = value;
  return doc;
}

function remove(doc: unknown, path: string): unknown {
  const tokens = parsePointer(path);
  const { parent, last } = parentOf(doc, tokens, path);
  if (Array.isArray(parent)) {
    const index = Number(last);
    if (!(index >= 0 && index < parent.length)) throw fail(`jsonpatch: index out of range in "${path}"`);
    parent.splice(index, 1);
  } else {
    if (!(last in parent)) throw fail(`jsonpatch: path "${path}" does not exist`);
    delete parent[last];
  }
  return doc;
}

/** RFC 6902 JSON patch, applied to a copy of `target`. */
export function jsonPatch(target: unknown, operations: unknown): unknown {
  if (!Array.isArray(operations)) throw new ApiError(400, 'BadRequest', 'json patch must be an array of operations');
  let doc = structuredClone(target);
  for (const op of operations as Operation[]) {
    switch (op.op) {
      case 'add': doc = add(doc, op.path, structuredClone(op.value)); break;
      case 'remove': doc = remove(doc, op.path); break;
      case 'replace': doc = add(remove(doc, op.path), op.path, structuredClone(op.value)); break;
      case 'move': { const v = read(doc, op.from!); doc = add(remove(doc, op.from!), op.path, v); break; }
      case 'copy': doc = add(doc, op.path, structuredClone(read(doc, op.from!))); break;
      case 'test':
        if (!isDeepStrictEqual(read(doc, op.path), op.value)) throw fail(`jsonpatch: test failed at "${op.path}"`);
        break;
      default: throw new ApiError(400, 'BadRequest', `unknown json patch operation "${(op as Operation).op}"`);
    }
  }
  return doc;
}
