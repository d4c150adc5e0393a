// Preload (`node --import ./bench/lib/report-rss.mjs …`): prints the process's peak RSS on exit,
// as `bench-max-rss-kb N` on stderr.
import {writeSync} from 'node:fs';

process.on('exit', () => {
	writeSync(2, `\nbench-max-rss-kb ${process.resourceUsage().maxRSS}\n`);
});
