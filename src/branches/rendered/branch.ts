// The rendered branch: per-cluster manifests, bindings and the output index, one commit per rendered source commit.
// Pull agents, Argo CD or Flux pointed at a folder, the applier and `flotilla verify` read it: its layout, files and
// trailers are a versioned contract (docs/BRANCHES.md).

/** The rendered branch's default short name. */
export const RENDERED_BRANCH = 'flotilla/rendered';

/** The edition of the rendered branch's format (docs/BRANCHES.md), recorded on each commit (branches/formatVersion.ts). */
export const RENDERED_FORMAT_VERSION = 1;
