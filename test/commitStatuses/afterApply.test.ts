// The afterApply hook of reconcileOnce: called with what was delivered, and unable to fail the pass.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { RenderedDelivery } from '../../src/deliveries/applyRendered.ts';
import { reconcileOnce } from '../../src/reconcile.ts';
import { commitRendered, RENDERED_REF, Scratch } from '../deliveries/helpers/e2e.ts';

const scratch = new Scratch();
test.after(() => scratch.cleanup());

test('the hook gets the delivery with its source commit; a hook that throws is logged and the pass still returns', async () => {
  const repo = await scratch.repo();
  await commitRendered(repo, {}, 'c'.repeat(40));
  const seen: RenderedDelivery[] = [];
  const logs: Record<string, unknown>[] = [];
  const base = {
    repo,
    sourceRef: 'refs/heads/main',
    outputRef: RENDERED_REF,
    clusters: new Map(),
    render: false,
    log: (e: Record<string, unknown>) => logs.push(e),
  };
  const ok = await reconcileOnce({
    ...base,
    afterApply: async (d) => {
      seen.push(d);
    },
  });
  assert.is(seen[0]?.sourceCommit, 'c'.repeat(40));
  assert.ok(ok.delivery);
  const failing = await reconcileOnce({
    ...base,
    afterApply: async () => {
      throw new Error('forge is down');
    },
  });
  assert.ok(failing.delivery, 'the pass completed');
  assert.equal(
    logs.filter((e) => e.step === 'afterApply'),
    [{ step: 'afterApply', sourceCommit: 'c'.repeat(40), error: 'forge is down' }],
  );
});

test.run();
