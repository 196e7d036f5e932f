// npm run test:faults [-- --json FILE] [--soak] [--only TEXT]
// Runs the reliability scenarios one after the other and prints the table: scenario, what was injected, what
// Flotilla did, objects lost, recovery time. Exit 1 when any row lost an object or missed an expectation.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { formatTable, runScenario, type RowReport } from '../test/faults/helpers/frame.ts';
import { SCENARIOS } from '../test/faults/scenarios/index.ts';

const { values } = parseArgs({
  options: {
    json: { type: 'string' },
    soak: { type: 'boolean', default: false },
    only: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  process.stdout.write(`Usage: npm run test:faults -- [--json FILE] [--soak] [--only TEXT]
  --json FILE   also write the rows as a JSON array of {scenario, injected, outcome, lost, recovery_s}
  --soak        add the long rows (full-size load); the default run stays within a few minutes
  --only TEXT   run only the scenarios whose name contains TEXT
`);
  process.exit(0);
}

const chosen = SCENARIOS.filter(
  (s) => (values.soak || s.speed === 'fast') && (!values.only || `${s.group}: ${s.name}`.includes(values.only)),
);
const reports: RowReport[] = [];
const started = performance.now();
for (const s of chosen) {
  const report = await runScenario(s);
  reports.push(report);
  process.stderr.write(
    `${report.failures.length ? 'FAIL' : 'ok  '} ${report.row.scenario} (${report.seconds.toFixed(1)} s)\n`,
  );
}
process.stdout.write(`\n${formatTable(reports)}`);
const failed = reports.filter((r) => r.failures.length > 0);
for (const r of failed)
  process.stdout.write(`\nFAIL ${r.row.scenario}\n${r.failures.map((f) => `  - ${f}`).join('\n')}\n`);
const lost = reports.reduce((n, r) => n + Math.max(0, r.row.lost), 0);
process.stdout.write(
  `\n${reports.length} scenarios, ${failed.length} failed, ${lost} objects lost, ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
);
if (values.json)
  writeFileSync(
    values.json,
    `${JSON.stringify(
      reports.map((r) => r.row),
      null,
      2,
    )}\n`,
  );
process.exit(failed.length > 0 ? 1 : 0);
