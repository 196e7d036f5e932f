// The rendered branch: per-cluster manifests, bindings and the output index, one commit per rendered source commit.
// Pull agents, Argo CD or Flux pointed at a folder, the applier and `flotilla verify` read it: its layout, files and
// trailers are a versioned contract (docs/BRANCHES.md).

/** The rendered branch's default short name. */
export const RENDERED_BRANCH = 'flotilla/rendered';
export const DEFAULT_RENDERED_REF = `refs/heads/${RENDERED_BRANCH}`;
