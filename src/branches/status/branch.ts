// The status branch: what the applier, the agents and the status controller write back (cluster status, template
// status, inventories, commit statuses). Its layout and files are a contract for other tools (docs/BRANCHES.md).

/** The status branch's default short name. */
export const STATUS_BRANCH = 'flotilla/status';
export const DEFAULT_STATUS_REF = `refs/heads/${STATUS_BRANCH}`;
