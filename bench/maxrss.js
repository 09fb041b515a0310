// --import hook of the memory benchmark: at exit, appends the process's peak resident set size
// (process.resourceUsage().maxRSS, in KiB) to the file named by BENCH_MAXRSS_FILE.
import { appendFileSync } from 'node:fs';

const out = process.env.BENCH_MAXRSS_FILE;
if (out) process.on('exit', () => appendFileSync(out, `${process.resourceUsage().maxRSS}\n`));
