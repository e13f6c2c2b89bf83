/** What the benchmarks, drills and the simulator share: processes started and measured, load runs and their tables, Redis clean-up. */
export * from './load';
export * from './open-loop';
export * from './redis';
