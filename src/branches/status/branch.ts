// The status branch: what the applier, the agents and the status controller write back (cluster status, template
// status, inventories, commit statuses). Its layout and files are a contract for other tools (docs/BRANCHES.md).

/** The status branch's default short name. */
export const STATUS_BRANCH = 'flotilla/status';
export const DEFAULT_STATUS_REF = `refs/heads/${STATUS_BRANCH}`;

/** The edition of the status branch's format (docs/BRANCHES.md), recorded on each commit (branches/formatVersion.ts). */
export const STATUS_FORMAT_VERSION = 1;
