// What redacting secret values costs a session (issue 16, attacker item 6): the same events — a
// streamed answer's text deltas, tool calls with their live output and results — emitted through
// `openSession` with a log, with two keys set (every event walked and redacted) and with none (the
// floor: no redactor). Runs alternate, the first of each discarded; CPU time of this process.
//   npm run build && node bench/secret-redaction.mjs [--events N] (default 200 000)
// Prints one JSON line: {events, floorUsPerEvent, redactedUsPerEvent, ratio}.
import {mkdtemp, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {parseArgs} from 'node:util';
import {openSession} from '../dist/src/host/open-session.js';

const {values} = parseArgs({options: {events: {type: 'string'}, runs: {type: 'string'}}});
const count = Number(values.events ?? 200_000);
const runs = Number(values.runs ?? 4);
const keys = {commandEnv: {}, secrets: [{name: 'OPENAI_API_KEY', value: 'sk-proj-0123456789abcdefghijklmnopqrstuvwxyzABCD'}, {name: 'CARDTERM_SEARXNG_KEY', value: 'searx-0123456789abcdef'}]};
const none = {commandEnv: {}, secrets: []};
const output = 'alpha beta gamma delta\n'.repeat(40);

/** One event of a busy turn: mostly text deltas, a call with live output and a result every 50th. */
function draft(index) {
	const step = {turn: 1, step: 1};
	switch (index % 50) {
		case 47: return {type: 'tool/call', data: {...step, callId: `c${index}`, name: 'bash', arguments: JSON.stringify({command: `grep -rn word src/file${index}.ts`, description: 'search'})}};
		case 48: return {type: 'cardterm/tool-progress', data: {callId: `c${index - 1}`, stream: 'stdout', text: output}, ignorable: true};
		case 49: return {type: 'tool/result', data: {...step, message: {id: `r${index}`, role: 'user', source: {kind: 'tool', callId: `c${index - 2}`}, content: [{type: 'tool-result', toolCallId: `c${index - 2}`, isError: false, content: [{type: 'text', text: output}]}]}}};
		default: return {type: 'assistant/chunk', data: {...step, chunk: {type: 'text-delta', index: 0, text: `word${index} `}}};
	}
}

async function once(secrets) {
	const dir = await mkdtemp(join(tmpdir(), 'cardterm-redaction-bench-'));
	const session = await openSession({cwd: dir, logPath: join(dir, 'session.jsonl'), secrets});
	const before = process.cpuUsage();
	for (let index = 0; index < count; index++) {
		session.log.emit(draft(index));
	}

	await session.flush();
	const {user, system} = process.cpuUsage(before);
	await session.close();
	await rm(dir, {recursive: true, force: true});
	return (user + system) / count;
}

const floor = [];
const redacted = [];
for (let run = 0; run <= runs; run++) {
	const a = await once(none);
	const b = await once(keys);
	if (run > 0) {
		floor.push(a);
		redacted.push(b);
	}
}

const median = list => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const floorUs = median(floor);
const redactedUs = median(redacted);
console.log(JSON.stringify({events: count, floorUsPerEvent: Number(floorUs.toFixed(3)), redactedUsPerEvent: Number(redactedUs.toFixed(3)), ratio: Number((redactedUs / floorUs).toFixed(3))}));
