/**
 * Fault run on SQLite (issue 8, part 3): the reference server (worker off) and one or two `ecf worker`
 * processes share a SQLite file in a temp data dir; the DGII simulator, in its own process, injects 5xx,
 * dropped connections before and after processing, slow responses and uploads answered after the worker's
 * transport timeout; workers are SIGKILLed at random moments and restarted. Every request ends with one
 * 202, one stored row, one terminal verdict, one reception at the authority, consecutive e-NCF per type.
 * See faults/run.ts for the run and faults/check.ts for what is asserted. Reduced: a few hundred documents;
 * full (`ECF_RELIABILITY=full`): 10,000.
 */
import { describe, it } from 'vitest';
import { FULL, scale } from './mode.js';
import { checkFaultRun } from './faults/check.js';
import { runFaultScenario } from './faults/run.js';

const DOCS = scale(300, 10_000);

describe('fault run: SQLite', () => {
  it(
    `${DOCS} documents under authority faults and worker kills: all terminal, none lost, none sent twice`,
    async () => {
      const result = await runFaultScenario({ storage: 'sqlite', docs: DOCS, full: FULL, seed: 20_261_121 });
      checkFaultRun(result, DOCS);
    },
    scale(240_000, 4 * 3_600_000),
  );
});
