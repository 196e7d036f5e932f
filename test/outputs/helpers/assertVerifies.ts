import * as assert from 'uvu/assert';
import { verifyOutput } from '../../../src/audits/verifyOutput.ts';
import { openRepo } from '../../../src/commits/openRepo.ts';
import { RENDERED_REF, type ConfigRepo } from '../../helpers/fleet.ts';

/** The output branch is what a cold render of its source gives; a failure names what differs, is missing or extra. */
export async function assertVerifies(r: ConfigRepo): Promise<void> {
  const report = await verifyOutput(await openRepo(r.dir), { outputRef: RENDERED_REF });
  assert.ok(
    report.ok,
    `verify: ${JSON.stringify({ differs: report.differs, missing: report.missing, extra: report.extra })}`,
  );
}
