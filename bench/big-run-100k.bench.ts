/**
 * Issue 33's second target: big-run.bench.ts with a sheet of 100,000 rows whose row-echo outputs
 * are about 2 KB of text inline (a run's detail of about 25 MB a part, about 250 MB in all), sent
 * in parts of 10,000 under one consent, watched to its end with the first part's page open,
 * outputs saved, results workbooks written. The sandbox runs 16 tasks at once of 5 ms each, so
 * that the 100,000 tasks end in minutes rather than hours. Each setting can still be overridden
 * from the environment (see big-run.bench.ts).
 */
process.env.BIG_RUN_ROWS ??= '100000'
process.env.BIG_RUN_PART_ROWS ??= '10000'
process.env.BIG_RUN_INLINE ??= '1'
process.env.BIG_RUN_CONCURRENCY ??= '16'
process.env.BIG_RUN_TASK_MS ??= '5'
await import('./big-run.bench')

export {}
