// One long frame from an ACP agent (a big file read, a long command's output), read as the client
// reads its stdout: `readFrames` over a stream fed 64 KiB at a time, as a pipe delivers it, until
// the message is out. Floor: `JSON.parse` of the same line, measured in the same run, interleaved.
//   npm run build && node bench/acp-long-frame.mjs [--sizes 1,8,30] [--runs 5]
// The ratio must not grow with the size: the reader scans each read once and joins the line once.
// The last figure is the ratio at the largest size over the ratio at the smallest (target ≤ 1.5).
// Measured 2026-12-04 23:00 UTC (2 cores, load ~1): 1, 8, 30 MB in 5.0, 37 and 122 ms, 4.4×, 4.0×
// and 3.9× the parse (decoding the reads, joining the line, the stream; growth 0.88). Before,
// the reader appended each read to one string and rescanned it from the start: 1, 8, 16 MB in 9.7,
// 364 and 1 402 ms, 8.7×, 41× and 83× the parse (quadratic).
import {Readable} from 'node:stream';
import {parseArgs} from 'node:util';
import {readFrames} from '../dist/src/acp/frame-reader.js';
import {figure} from './lib/stats.mjs';

const {values} = parseArgs({options: {sizes: {type: 'string', default: '1,8,30'}, runs: {type: 'string', default: '5'}}});
const runs = Number(values.runs);
const READ = 64 * 1024;

/** The agent's stdout carrying `line`, 64 KiB per read, read by the client's frame reader until the message is out. */
async function readLine(line) {
	const input = new Readable({read() {}});
	const reader = readFrames(input, {onMalformed(frame) {
		throw new Error(`the long frame was refused: ${frame.reason}`);
	}, onUpdate() {}}).getReader();
	const bytes = Buffer.from(line);
	for (let at = 0; at < bytes.length; at += READ) {
		input.push(bytes.subarray(at, at + READ));
	}

	input.push(null);
	let messages = 0;
	for (let next = await reader.read(); !next.done; next = await reader.read()) {
		messages++;
	}

	if (messages !== 1) {
		throw new Error(`read ${messages} messages of one frame`);
	}
}

const ratios = [];
for (const mb of values.sizes.split(',').map(Number)) {
	const line = `${JSON.stringify({jsonrpc: '2.0', id: 1, result: {content: [{type: 'text', text: 'line of a big file\n'.repeat(Math.ceil(mb * 1024 * 1024 / 19))}]}})}\n`;
	const reads = [];
	const parses = [];
	for (let run = 0; run < runs + 1; run++) {
		let started = performance.now();
		// one read at a time
		await readLine(line);
		const read = performance.now() - started;
		started = performance.now();
		JSON.parse(line);
		const parse = performance.now() - started;
		if (run > 0) {
			reads.push(read);
			parses.push(parse);
		}
	}

	const one = figure(`acp frame of ${mb} MB read in 64 KiB reads (floor: JSON.parse of the line)`, reads, {floor: parses, target: 'flat across sizes', met: undefined});
	ratios.push(one.ratio);
	process.stdout.write(`${JSON.stringify(one)}\n`);
}

const growth = ratios.at(-1) / ratios[0];
process.stdout.write(`${JSON.stringify({name: 'acp long frame: ratio at the largest size / at the smallest', median: Math.round(growth * 100) / 100, unit: '×', target: '≤ 1.5', met: growth <= 1.5})}\n`);
