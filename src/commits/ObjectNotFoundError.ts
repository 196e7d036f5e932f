/**
 * No loose object and no pack holds this oid. The code is isomorphic-git's, which callers and the
 * tests already match on.
 */
export class ObjectNotFoundError extends Error {
  readonly code = 'NotFoundError' as const;
  readonly data: { oid: string };

  constructor(oid: string) {
    super(
      `object ${oid} is not in the repository; fix: fetch the missing history, or re-render from a commit that exists`,
    );
    this.name = 'ObjectNotFoundError';
    this.data = { oid };
  }
}
