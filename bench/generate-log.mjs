// Writes a deterministic benchmark session log:
//   node bench/generate-log.mjs [--events N] [--seed S] [--shape large|small] [--out FILE]
// Defaults: 100 000 events (about 100 MB; --shape small: about 60 MB of a chatty session's small
// events), seed 1, stdout when --out is absent.
import {closeSync, openSync, writeSync} from 'node:fs';
import {parseArgs} from 'node:util';
import {generateLogLines} from './lib/log-generator.mjs';

/** A line that makes a message entry: the person's message or the model's answer (the small shape's answers all have text). */
function isMessageLine(line) {
	const {type, data} = JSON.parse(line);
	return type === 'assistant/message' || (type === 'user/message' && data?.source?.kind === 'user');
}

/**
Streams `events` events (plus the header) to `fd` in ~1 MiB writes; returns the bytes written. With
`messages`, stops after the line of the `messages`-th message instead (`events` is then a cap).
*/
export function writeLog(fd, {events, seed, shape, messages}) {
	let pending = [];
	let size = 0;
	let total = 0;
	let count = 0;
	let messagesLeft = messages;
	const flush = () => {
		const buffer = Buffer.from(pending.join(''));
		writeSync(fd, buffer);
		total += buffer.length;
		pending = [];
		size = 0;
	};

	for (const line of generateLogLines({events, seed, shape})) {
		pending.push(line, '\n');
		size += line.length + 1;
		if (size > 1 << 20) {
			flush();
		}

		count++;
		if (count > events || (messagesLeft !== undefined && count > 1 && isMessageLine(line) && --messagesLeft === 0)) {
			break;
		}
	}

	flush();
	return total;
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const {values} = parseArgs({options: {events: {type: 'string', default: '100000'}, seed: {type: 'string', default: '1'}, shape: {type: 'string', default: 'large'}, out: {type: 'string'}}});
	const events = Number(values.events);
	const seed = Number(values.seed);
	if (!Number.isInteger(events) || events < 0 || !Number.isInteger(seed)) {
		console.error('generate-log: --events and --seed must be integers (events ≥ 0)');
		process.exit(2);
	}

	const fd = values.out === undefined ? 1 : openSync(values.out, 'w');
	const bytes = writeLog(fd, {events, seed, shape: values.shape});
	if (values.out !== undefined) {
		closeSync(fd);
		console.error(`generate-log: ${events} events, ${bytes} bytes → ${values.out}`);
	}
}
