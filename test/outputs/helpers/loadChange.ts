import { openRepo } from '../../../src/commits/openRepo.ts';
import { loadSource } from '../../../src/outputs/loadSource.ts';
import { openOutputIndex } from '../../../src/branches/rendered/readOutputIndex.ts';
import type { ConfigRepo } from '../../helpers/fleet.ts';

/**
 * What a sync of commit `next` loads when the output branch, as it stands, rendered commit `from`: the model it reads
 * and the templates it finds affected.
 */
export async function loadChange(r: ConfigRepo, from: string, next: string): ReturnType<typeof loadSource> {
  const repo = await openRepo(r.dir);
  const index = await openOutputIndex(repo, r.git('rev-parse', 'flotilla/rendered^{tree}'));
  return loadSource(repo, r.git('rev-parse', `${next}^{tree}`), {
    tree: r.git('rev-parse', `${from}^{tree}`),
    index: index!,
  });
}
