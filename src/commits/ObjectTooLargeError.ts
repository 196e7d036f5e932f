/**
 * An object is larger than the reader allowed, known from its header before any of it was inflated: a commit
 * can hold a blob of gigabytes that compresses to a few kilobytes, and inflating it first is what exhausted
 * the heap.
 */
export class ObjectTooLargeError extends Error {
  readonly code = 'ObjectTooLargeError' as const;
  readonly data: { oid: string; size: number; limit: number };

  constructor(oid: string, size: number, limit: number) {
    super(`object ${oid} is ${size} bytes, over the ${limit}-byte limit of this read`);
    this.name = 'ObjectTooLargeError';
    this.data = { oid, size, limit };
  }
}
