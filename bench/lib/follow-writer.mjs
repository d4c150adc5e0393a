// Appends generated events to FILE at RATE events/s for SECONDS, each stamped with its append time.
//   node bench/lib/follow-writer.mjs FILE RATE SECONDS
import {appendFileSync} from 'node:fs';
import {generateLogLines} from './log-generator.mjs';

const [file, rateText, secondsText] = process.argv.slice(2);
const rate = Number(rateText);
const total = Math.round(rate * Number(secondsText));
const source = generateLogLines({events: total, seed: 5});
source.next(); // the header is already in the file
let written = 0;
const started = Date.now();
await new Promise((resolve) => {
	const timer = setInterval(() => {
		const due = Math.min(total, Math.floor(((Date.now() - started) / 1000) * rate));
		const lines = [];
		const time = Date.now();
		for (; written < due; written++) {
			const event = JSON.parse(source.next().value);
			event.time = time;
			lines.push(`${JSON.stringify(event)}\n`);
		}

		if (lines.length > 0) {
			appendFileSync(file, lines.join(''));
		}

		if (written >= total) {
			clearInterval(timer);
			resolve();
		}
	}, 2);
});
