import type { RenderedDelivery } from '../deliveries/applyRendered.ts';
import type { ForgeConfig } from './types.ts';
import { writeCommitStatuses } from './writeCommitStatuses.ts';

/**
 * The `afterApply` hook of reconcileOnce that reports each cluster's apply to the forge. It keeps what it reported
 * across passes, so a steady state sends nothing.
 */
export function commitStatusHook(
  config: ForgeConfig,
  token: string,
  log: (entry: Record<string, unknown>) => void,
  fetchImpl?: typeof fetch,
): (delivery: RenderedDelivery) => Promise<void> {
  const sent = new Map<string, string>();
  return async (delivery) => {
    await writeCommitStatuses({ config, token, delivery, log, sent, ...(fetchImpl ? { fetch: fetchImpl } : {}) });
    // Only the newest commit can change again: older entries are dropped so a long-running daemon stays small.
    for (const key of sent.keys()) if (!key.startsWith(`${delivery.sourceCommit} `)) sent.delete(key);
  };
}
