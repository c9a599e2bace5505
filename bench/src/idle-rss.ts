import { procStatusKb } from './proc-stats.js';
import { type Row, mb, verdict } from './stats.js';

/** Resident memory of a freshly started server that has served nothing yet (compiled, as `npm start` runs it). */
export async function measureIdleRss(o: { serverPid: number; settleMs: number; budgetMb: number }): Promise<Row[]> {
  // Startup garbage (migrations, the admin's password hash) is left for a moment to be collected.
  await new Promise((r) => setTimeout(r, o.settleMs));
  const kb = procStatusKb(o.serverPid, 'VmRSS');
  return [
    {
      what: 'server RSS at idle, right after start (compiled server process alone)',
      result: mb(kb),
      budget: `≤ ${o.budgetMb} MB`,
      met: verdict(kb > 0 && kb <= o.budgetMb * 1024),
      data: { rssKb: kb },
    },
  ];
}
