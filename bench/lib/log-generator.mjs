// A seeded, deterministic session-log generator (contract.md §E3.7, §E3.9 shapes).
// The same seed and event count always give the same bytes: no clock, no Math.random.
// Tool names, arguments, content texts and `meta` follow the reference tools (§E2.1–§E2.10), so a
// replay builds the structured cards (terminal, diff, read, search, web), not generic fallbacks.

/** mulberry32: a small, fast, seeded PRNG returning floats in [0, 1). */
export function random(seed) {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6D2B79F5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
	};
}

const CWD = '/home/u/proj';
const START_TIME = 1_790_000_000_000;
const WORDS = ['config', 'render', 'parse', 'session', 'card', 'layout', 'index', 'stream', 'buffer', 'width', 'token', 'event', 'fold', 'pager', 'cache', 'theme', 'result', 'value', 'schema', 'registry', 'spill', 'window', 'search', 'match', 'cursor', 'frame', 'signal', 'worker'];
const DIRS = ['src', 'src/session', 'src/layout', 'src/cli', 'src/tools', 'test', 'test/session', 'components', 'docs', 'scripts'];
const EXTENSIONS = ['ts', 'ts', 'ts', 'tsx', 'js', 'json', 'md', 'py', 'go', 'rs', 'yaml', 'sh', 'txt'];
const COMMANDS = ['npm test', 'npm run build', 'git status', 'git log --oneline -20', 'ls -la src', 'npx tsc --noEmit', 'cat package.json', 'rg TODO src', 'node scripts/check.mjs', 'npx vitest run test/session', 'make lint', 'python3 tools/gen.py', 'go test ./...', 'cargo check'];

/** Helpers bound to one PRNG. */
function pickers(next) {
	const int = (min, max) => min + Math.floor(next() * (max - min + 1));
	const pick = (list) => list[Math.floor(next() * list.length)];
	const chance = (p) => next() < p;
	// Skewed 1..max (mean ≈ max / 4 for max 200): most outputs are short, a few are long.
	const skewed = (max) => Math.max(1, Math.min(max, Math.floor(max * next() ** 2.9) + 1));
	const word = () => pick(WORDS);
	const path = () => `${pick(DIRS)}/${word()}-${word()}.${pick(EXTENSIONS)}`;
	const sentence = (count) => Array.from({length: count}, word).join(' ');
	const codeLine = (index) => {
		const indent = '\t'.repeat(int(0, 3));
		switch (int(0, 5)) {
			case 0: return `${indent}const ${word()}${index} = ${word()}(${int(0, 9999)}, '${word()}');`;
			case 1: return `${indent}if (${word()}.${word()} === undefined) {`;
			case 2: return `${indent}return ${word()}.map((item) => item.${word()} + ${int(1, 99)});`;
			case 3: return `${indent}// ${sentence(int(3, 9))}`;
			case 4: return `${indent}}`;
			default: return `${indent}export function ${word()}${index}(${word()}: string): number {`;
		}
	};

	return {int, pick, chance, skewed, word, path, sentence, codeLine};
}

/** One line of shell output; some with ANSI colour, as test runners and compilers print. */
function outputLine(p, index, colored) {
	switch (p.int(0, 6)) {
		case 0: return colored ? `\u001b[32m ✓\u001b[39m test/${p.word()}.test.ts > ${p.sentence(p.int(2, 6))} \u001b[2m(${p.int(1, 300)}ms)\u001b[22m` : ` ✓ test/${p.word()}.test.ts > ${p.sentence(p.int(2, 6))} (${p.int(1, 300)}ms)`;
		case 1: return colored ? `\u001b[31m ✗\u001b[39m ${p.path()}:${p.int(1, 900)}:${p.int(1, 80)} \u001b[1m${p.sentence(p.int(3, 8))}\u001b[22m` : `${p.path()}(${p.int(1, 900)},${p.int(1, 80)}): error TS${p.int(1000, 7999)}: ${p.sentence(p.int(3, 8))}`;
		case 2: return `-rw-r--r--  1 u u ${String(p.int(10, 99_999)).padStart(6)} Dec  2 11:${String(p.int(0, 59)).padStart(2, '0')} ${p.word()}-${p.word()}.${p.pick(EXTENSIONS)}`;
		case 3: return `${p.int(0x1000000, 0xfffffff).toString(16)} ${p.sentence(p.int(3, 10))}`;
		case 4: return `${p.path()}:${p.int(1, 900)}: ${p.codeLine(index).trim()}`;
		case 5: return `  ${p.sentence(p.int(4, 14))}`;
		default: return `[${index}] ${p.word()} ${p.word()}=${p.int(0, 1_000_000)} ok`;
	}
}

/**
Yields the log's lines (without newlines): the header, then exactly `events` events with
contiguous seq. The tail may be an open turn (a pending card), as in a log still being written.
`shape`: 'large' (the default, ≈1 KB an event: long outputs, diffs, reads) or 'small' (a chatty
session of ≈600 B an event: see `generateSmallEventLines`).
*/
export function * generateLogLines({events, seed, shape = 'large'}) {
	if (shape === 'small') {
		yield * generateSmallEventLines({events, seed});
		return;
	}

	if (shape !== 'large') {
		throw new Error(`log-generator: unknown shape ${shape}`);
	}

	const next = random(seed);
	const p = pickers(next);
	yield JSON.stringify({type: 'session', version: 0, id: `s-bench-${seed}`, createdAt: START_TIME, cwd: CWD, delegationDepth: 0});
	let seq = 0;
	let time = START_TIME;
	let callCount = 0;
	let messageCount = 0;
	const event = (type, data, extra) => {
		time += p.int(1, 400);
		const line = JSON.stringify({type, seq, time, data, ...extra});
		seq++;
		return line;
	};

	for (let turn = 1; seq < events; turn++) {
		yield event('turn/start', {turn});
		const steps = p.int(1, 5);
		let aborted = false;
		for (let step = 1; step <= steps && seq < events && !aborted; step++) {
			yield event('step/start', {turn, step});
			if (step === 1) {
				yield event('user/message', {id: `u-${turn}`, role: 'user', content: [{type: 'text', text: p.sentence(p.int(4, 30))}], source: {kind: 'user'}}, {surfaceOp: 'append'});
			}

			const calls = p.chance(0.1) ? [] : Array.from({length: p.int(1, 4)}, () => makeCall(p, ++callCount));
			const content = [];
			if (calls.length === 0 || p.chance(0.3)) {
				content.push({type: 'text', text: p.sentence(p.int(8, 80))});
			}

			for (const call of calls) {
				content.push({type: 'tool-call', id: call.id, name: call.name, arguments: call.arguments});
			}

			messageCount++;
			yield event('assistant/message', {turn, step, message: {id: `a-${messageCount}`, role: 'assistant', content, source: {kind: 'model', provider: 'bench', model: 'bench-model'}}}, {surfaceOp: 'append'});
			for (const call of calls) {
				const callSeq = seq;
				yield event('tool/call', {turn, step, callId: call.id, name: call.name, arguments: call.arguments});
				if (call.todos !== undefined) {
					yield event('todo/write', {todos: call.todos});
				}

				// A cancelled turn: this call is aborted, the rest of the step never runs.
				const cancel = p.chance(0.01);
				const result = cancel ? abortedResult() : call.result;
				const data = {turn, step, message: {id: `r-${call.number}`, role: 'user', source: {kind: 'tool', callId: call.id}, content: [{type: 'tool-result', toolCallId: call.id, content: [{type: 'text', text: result.text}], isError: result.isError}]}};
				if (result.error !== undefined) {
					data.error = result.error;
				}

				if (result.meta !== undefined) {
					data.meta = result.meta;
				}

				yield event('tool/result', data, {sourceEventSeqs: [callSeq], surfaceOp: 'append'});
				if (cancel) {
					aborted = true;
					break;
				}
			}

			yield event('step/end', {turn, step});
		}

		yield event('turn/end', {turn, reason: aborted ? {kind: 'aborted', reason: {kind: 'user'}} : {kind: 'completed'}});
	}

	// Generators above may overshoot by a few events; the caller stops at `events` (see `writeLog`).
}

function abortedResult() {
	return {text: 'Error: tool call aborted', isError: true, error: {name: 'AbortError', code: 'ABORTED'}};
}

/** One tool call with its arguments and (successful, failed or errored) result. */
function makeCall(p, number) {
	const id = `call_${number}`;
	const roll = p.int(0, 99);
	const tool = roll < 42 ? bashCall : roll < 57 ? editCall : roll < 60 ? writeCall : roll < 74 ? readCall : roll < 82 ? grepCall : roll < 86 ? globCall : roll < 90 ? webFetchCall : roll < 94 ? webSearchCall : roll < 96 ? todoCall : roll < 97 ? backgroundCall : errorCall;
	const {name, args, result, todos} = tool(p, number);
	return {id, number, name, arguments: JSON.stringify(args), result, todos};
}

function bashCall(p) {
	const command = p.pick(COMMANDS);
	const args = {command, description: `Run ${p.sentence(p.int(3, 6))}`};
	if (p.chance(0.1)) {
		args.workdir = p.pick(DIRS);
	}

	const count = p.skewed(200);
	const colored = p.chance(0.25);
	const lines = Array.from({length: count}, (_, index) => outputLine(p, index, colored));
	let text = lines.join('\n');
	if (p.chance(0.1)) {
		text += `\n[stderr]\n${p.sentence(p.int(3, 9))}\n`;
	}

	const exit = p.int(0, 99);
	if (exit < 3) {
		text += `\n[timed out after 120000ms]\n[killed by signal: SIGTERM]`;
	} else if (exit < 18) {
		text += `\n[exit code: ${p.pick([1, 1, 1, 2, 127])}]`;
	}

	return {name: 'bash', args, result: {text, isError: false}};
}

function backgroundCall(p, number) {
	const args = {command: 'npm run dev', description: 'Start the dev server', run_in_background: true};
	return {name: 'bash', args, result: {text: `started background job bash-${number}`, isError: false}};
}

/** 3-line-context hunks of an edit: one per changed region (meta.diffs, §E2.5). */
function hunks(p, filePath, count) {
	const diffs = [];
	let start = p.int(1, 400);
	for (let index = 0; index < count; index++) {
		const before = Array.from({length: 3}, (_, k) => p.codeLine(start + k));
		const after = Array.from({length: 3}, (_, k) => p.codeLine(start + k + 10));
		const removed = Array.from({length: p.skewed(48)}, (_, k) => p.codeLine(start + k + 3));
		const added = Array.from({length: p.skewed(48)}, (_, k) => p.codeLine(start + k + 3));
		diffs.push({path: filePath, oldText: [...before, ...removed, ...after].join('\n'), newText: [...before, ...added, ...after].join('\n')});
		start += p.int(60, 400);
	}

	return diffs;
}

function editCall(p) {
	const filePath = p.path();
	const replaceAll = p.chance(0.15);
	const diffs = hunks(p, filePath, replaceAll ? p.int(2, 3) : 1);
	const oldLines = diffs[0].oldText.split('\n');
	const newLines = diffs[0].newText.split('\n');
	const args = {file_path: filePath, old_string: oldLines[3], new_string: newLines[3]};
	if (replaceAll) {
		args.replace_all = true;
	}

	if (p.chance(0.06)) {
		return {name: 'edit', args, result: {text: `Error: old_string was not found in "${CWD}/${filePath}"`, isError: true, error: {name: 'FsError', code: 'FS_EDIT_NOT_FOUND'}}};
	}

	const text = replaceAll ? `The file ${CWD}/${filePath} has been updated. All occurrences were successfully replaced.` : `The file ${CWD}/${filePath} has been updated successfully.`;
	return {name: 'edit', args, result: {text, isError: false, meta: {diffs}}};
}

function writeCall(p) {
	const filePath = p.path();
	const content = `${Array.from({length: p.skewed(120)}, (_, k) => p.codeLine(k)).join('\n')}\n`;
	const create = p.chance(0.6);
	const text = `<path>${CWD}/${filePath}</path>\n<type>file</type>\n<content>\n${create ? 'Created file' : 'Updated file'}\n</content>`;
	const meta = {diffs: create ? [] : hunks(p, filePath, p.int(1, 2))};
	return {name: 'write', args: {file_path: filePath, content}, result: {text, isError: false, meta}};
}

const LANGS = {ts: 'ts', tsx: 'tsx', js: 'js', json: 'json', md: 'md', py: 'py', go: 'go', rs: 'rs', yaml: 'yaml', sh: 'sh'};

function readCall(p) {
	const filePath = p.path();
	const totalLines = p.int(5, 2000);
	const windowed = p.chance(0.3);
	const offset = windowed ? p.int(1, Math.max(1, totalLines - 10)) : 1;
	const limit = windowed ? p.int(5, 80) : undefined;
	const count = Math.max(1, Math.min(limit ?? p.skewed(100), totalLines - offset + 1));
	const lines = Array.from({length: count}, (_, k) => ({number: offset + k, text: p.codeLine(offset + k)}));
	const last = offset + count - 1;
	const footer = last >= totalLines ? `(End of file - total ${totalLines} lines)` : `(Showing lines ${offset}-${last} of ${totalLines}. Use offset=${last + 1} to continue.)`;
	const body = `${lines.map(line => `${line.number}: ${line.text}`).join('\n')}\n\n${footer}`;
	const absolute = `${CWD}/${filePath}`;
	const args = {file_path: filePath};
	if (windowed) {
		args.offset = offset;
		args.limit = limit;
	}

	const meta = {path: absolute, offset, lines, totalLines};
	const lang = LANGS[filePath.slice(filePath.lastIndexOf('.') + 1)];
	if (lang !== undefined) {
		meta.lang = lang;
	}

	return {name: 'read', args, result: {text: `<path>${absolute}</path>\n<type>file</type>\n<content>\n${body}\n</content>`, isError: false, meta}};
}

function grepCall(p) {
	const pattern = p.chance(0.5) ? p.word() : `${p.word()}\\(`;
	const args = {pattern};
	if (p.chance(0.4)) {
		args.include = '*.ts';
	}

	const fileCount = p.chance(0.1) ? 0 : p.skewed(25);
	const files = Array.from({length: fileCount}, () => ({path: p.path(), matches: Array.from({length: p.skewed(8)}, () => ({lineNumber: p.int(1, 900), line: p.codeLine(0)}))}));
	const total = files.reduce((sum, file) => sum + file.matches.length, 0);
	if (total === 0) {
		return {name: 'grep', args, result: {text: 'No matches found', isError: false, meta: {shape: 'matches', files: [], truncated: false, total: 0}}};
	}

	const groups = files.map(file => `${file.path}\n${file.matches.map(match => `Line ${match.lineNumber}: ${match.line}`).join('\n')}`);
	const text = `Found ${total} match${total === 1 ? '' : 'es'}\n\n${groups.join('\n\n')}`;
	return {name: 'grep', args, result: {text, isError: false, meta: {shape: 'matches', files, truncated: false, total}}};
}

function globCall(p) {
	const pattern = p.pick(['**/*.ts', 'src/**/*.tsx', '*.md', 'test/**/*.test.ts', '**/package.json']);
	const total = p.skewed(180);
	const paths = Array.from({length: Math.min(total, 100)}, () => p.path());
	const truncated = total > 100;
	const text = truncated ? `${paths.join('\n')}\n\n(Showing 100 of ${total} paths. The complete result could not be saved; narrow pattern or path to see more.)` : paths.join('\n');
	return {name: 'glob', args: {pattern}, result: {text, isError: false, meta: {shape: 'paths', paths, truncated, total}}};
}

function webFetchCall(p) {
	const url = `https://docs.example.org/${p.word()}/${p.word()}.html`;
	if (p.chance(0.1)) {
		return {name: 'web_fetch', args: {url}, result: {text: `Error: web_fetch: timed out after 30000ms fetching ${url}`, isError: true, error: {name: 'WebFetchError', code: 'WEB_FETCH_TIMEOUT'}}};
	}

	const body = Array.from({length: p.skewed(80)}, (_, k) => (k % 9 === 0 ? `## ${p.sentence(p.int(2, 5))}` : p.sentence(p.int(6, 22)))).join('\n\n');
	const truncated = p.chance(0.05);
	const statusCode = p.chance(0.05) ? 404 : 200;
	const text = `Fetched ${url} (HTTP ${statusCode})\n\n${body}${truncated ? '\n\n(Content truncated. Fetch a more specific URL or section for the full text.)' : ''}`;
	return {name: 'web_fetch', args: {url}, result: {text, isError: false, meta: {url, statusCode, truncated}}};
}

function webSearchCall(p) {
	const queries = [p.sentence(p.int(2, 5))];
	const sources = Array.from({length: p.int(0, 8)}, () => ({url: `https://${p.word()}.example.com/${p.word()}`, title: p.sentence(p.int(2, 6)), snippet: p.sentence(p.int(6, 20)), publishedAt: `2026-0${p.int(1, 9)}-1${p.int(0, 9)}`}));
	const answer = p.sentence(p.int(10, 40));
	const list = sources.length === 0 ? 'No results found.' : `Sources:\n${sources.map(source => `- [${source.title}](${source.url}) — ${source.snippet} (${source.publishedAt})`).join('\n')}`;
	const text = `${answer}\n\n${list}\n\nCite the relevant URLs above as markdown links in your answer.`;
	return {name: 'web_search', args: {queries}, result: {text, isError: false, meta: {sources, truncated: false, answer}}};
}

function todoCall(p) {
	const todos = Array.from({length: p.int(1, 6)}, (_, k) => ({content: `${p.sentence(p.int(2, 6))} ${k}`, status: k === 0 ? 'in_progress' : p.pick(['pending', 'completed'])}));
	const counts = {pending: 0, inProgress: 0, completed: 0};
	for (const todo of todos) {
		counts[todo.status === 'in_progress' ? 'inProgress' : todo.status]++;
	}

	return {name: 'todo_write', args: {todos}, todos, result: {text: `Updated todo list: ${counts.pending} pending, ${counts.inProgress} in progress, ${counts.completed} completed.`, isError: false}};
}

/** Invalid arguments or an unknown tool: classed errors of the pipeline (§E3.5). */
function errorCall(p) {
	if (p.chance(0.5)) {
		return {name: 'read', args: {file_path: ''}, result: {text: 'Error: invalid arguments: "file_path" must not be blank', isError: true, error: {name: 'ToolArgsError', code: 'INVALID_ARGS'}}};
	}

	return {name: 'deploy', args: {target: p.word()}, result: {text: 'Error: unknown tool "deploy"', isError: true, error: {name: 'ToolNotFoundError', code: 'UNKNOWN_TOOL'}}};
}

/** The log as an array of `events` + 1 lines (header first). */
export function generateLog({events, seed, shape}) {
	const lines = [];
	for (const line of generateLogLines({events, seed, shape})) {
		lines.push(line);
		if (lines.length > events) {
			break;
		}
	}

	return lines;
}

// ---------------------------------------------------------------------------------------------
// The small-events shape: what a chatty real session looks like (compare the corpus's logs). Many
// turns of short user and assistant messages (Markdown, reasoning, usage), small tool calls with
// one-line results, turn and step events, and some notices (titles, plugin context, retries, plan
// mode). Nearly every event is a few hundred bytes, so per-event costs dominate, not big payloads.

/** A uuid-shaped id from the PRNG (real logs carry these on every message). */
const uuid = (p) => {
	const hex = (count) => Array.from({length: count}, () => p.int(0, 15).toString(16)).join('');
	return `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
};

/** A short Markdown answer: a sentence or a few, sometimes inline code, emphasis or a short list. */
function shortMarkdown(p) {
	const sentences = Array.from({length: p.int(1, 8)}, () => {
		const text = p.sentence(p.int(6, 22));
		return `${text[0].toUpperCase()}${text.slice(1)}${p.chance(0.3) ? ` in \`${p.path()}\`` : ''}${p.chance(0.15) ? ` — **${p.word()}** ${p.word()}` : ''}.`;
	});
	const paragraph = sentences.join(' ');
	if (!p.chance(0.2)) {
		return paragraph;
	}

	const items = Array.from({length: p.int(2, 4)}, () => `- ${p.sentence(p.int(3, 9))}`);
	return `${paragraph}\n\n${items.join('\n')}`;
}

/** One small tool call with a one-line result: the reference tools' shapes (§E2.1–§E2.10). */
function smallCall(p, number) {
	const id = `call_${String(number).padStart(2, '0')}_${uuid(p).replaceAll('-', '').slice(0, 24)}`;
	const roll = p.int(0, 99);
	let name;
	let args;
	let text;
	let isError = false;
	let meta;
	if (roll < 45) {
		name = 'bash';
		const exit = p.chance(0.1) ? p.pick([1, 2]) : 0;
		args = {command: p.pick(['git status --short', 'pwd', 'npm test -- --silent', 'ls src', 'git rev-parse HEAD', 'node -v', 'wc -l src/index.ts']), description: `Run ${p.sentence(p.int(2, 5))}`};
		text = `${p.pick([` M ${p.path()}`, CWD, `Tests ${p.int(1, 400)} passed`, `${p.word()}.ts ${p.word()}.ts`, p.int(0x1000000, 0xfffffff).toString(16), 'v20.20.2', `${p.int(1, 900)} src/index.ts`])}\n${exit === 0 ? '' : `[exit code: ${exit}]`}`;
	} else if (roll < 65) {
		name = 'read';
		const path = p.path();
		const lineNumber = p.int(1, 400);
		const line = p.codeLine(lineNumber).trim();
		args = {file_path: path, offset: lineNumber, limit: 1};
		text = `<path>${CWD}/${path}</path>\n<type>file</type>\n<content>\n${lineNumber}: ${line}\n\n(Showing lines ${lineNumber}-${lineNumber} of ${lineNumber + p.int(0, 500)}. Use offset=${lineNumber + 1} to continue.)\n</content>`;
	} else if (roll < 78) {
		name = 'grep';
		const path = p.path();
		const match = {lineNumber: p.int(1, 900), line: p.codeLine(0)};
		args = {pattern: p.word()};
		text = `Found 1 match\n\n${path}\nLine ${match.lineNumber}: ${match.line}`;
		meta = {shape: 'matches', files: [{path, matches: [match]}], truncated: false, total: 1};
	} else if (roll < 86) {
		name = 'glob';
		const path = p.path();
		args = {pattern: `**/${p.word()}*.ts`};
		text = path;
		meta = {shape: 'paths', paths: [path], truncated: false, total: 1};
	} else if (roll < 96) {
		name = 'edit';
		const path = p.path();
		const line = p.int(1, 400);
		const before = p.codeLine(line);
		const after = p.codeLine(line + 1);
		args = {file_path: path, old_string: before.trim(), new_string: after.trim()};
		text = `The file ${CWD}/${path} has been updated successfully.`;
		meta = {diffs: [{path, oldText: before, newText: after}]};
	} else {
		name = 'deploy';
		args = {target: p.word()};
		text = 'Error: unknown tool "deploy"';
		isError = true;
	}

	return {id, name, arguments: JSON.stringify(args), text, isError, meta};
}

/** The small-events shape (see above). Deterministic in `seed`; stops after `events` events. */
export function * generateSmallEventLines({events, seed}) {
	const p = pickers(random(seed));
	yield JSON.stringify({type: 'session', version: 0, id: `s-bench-small-${seed}`, createdAt: START_TIME, cwd: CWD, delegationDepth: 0});
	let seq = 0;
	let time = START_TIME;
	let callCount = 0;
	const source = {kind: 'model', provider: 'bench', model: 'bench-model'};
	const event = (type, data, extra) => {
		time += p.int(1, 900);
		const line = JSON.stringify({type, seq, time, data, ...extra});
		seq++;
		return line;
	};

	for (let turn = 1; seq < events; turn++) {
		yield event('turn/start', {turn});
		if (turn === 1) {
			yield event('session/title', {title: p.sentence(4), messageSeqs: [seq + 2], source: {kind: 'fallback'}});
		}

		if (p.chance(0.25)) {
			// Injected context: a plugin's notice (its sections repeat the text, as real ones do).
			const sections = Array.from({length: p.int(1, 3)}, () => ({name: `${p.word()}:${p.word()}`, text: `${p.sentence(p.int(10, 30))}.`}));
			const text = `Current runtime context. This snapshot supersedes earlier ones.\n\n${sections.map((section) => section.text).join('\n\n')}`;
			yield event('user/message', {content: [{type: 'text', text}], source: {kind: 'plugin', plugin: 'bench-context', form: 'snapshot', sections}, role: 'user', id: uuid(p)}, {surfaceOp: 'append'});
		}

		const userText = `${p.sentence(p.int(4, 40))}?`;
		yield event('user/message', {content: [{type: 'text', text: userText}], source: {kind: 'user'}, role: 'user', id: uuid(p)}, {surfaceOp: 'append'});
		const steps = p.int(1, 6);
		let aborted = false;
		for (let step = 1; step <= steps && seq < events && !aborted; step++) {
			yield event('step/start', {turn, step});
			if (p.chance(0.02)) {
				yield event('llm/retry', {turn, step, attempt: p.int(1, 3), reason: 'rate limited (HTTP 429)'});
			}

			const calls = step === steps ? [] : Array.from({length: p.int(1, 3)}, () => smallCall(p, ++callCount));
			const content = [];
			if (p.chance(0.7)) {
				content.push({type: 'reasoning', text: p.sentence(p.int(10, 90))});
			}

			content.push({type: 'text', text: shortMarkdown(p)});
			for (const call of calls) {
				content.push({type: 'tool-call', id: call.id, name: call.name, arguments: call.arguments});
			}

			const usage = {inputTokens: p.int(2000, 60_000), outputTokens: p.int(20, 900), cacheReadTokens: p.int(0, 50_000), reasoningTokens: p.int(0, 300)};
			yield event('assistant/message', {turn, step, message: {role: 'assistant', content, source, id: uuid(p)}, usage}, {surfaceOp: 'append'});
			for (const call of calls) {
				const callSeq = seq;
				yield event('tool/call', {turn, step, callId: call.id, name: call.name, arguments: call.arguments});
				const cancel = p.chance(0.005);
				const data = {turn, step, message: {source: {kind: 'tool', callId: call.id}, content: [{type: 'tool-result', toolCallId: call.id, content: [{type: 'text', text: cancel ? 'Error: tool call aborted' : call.text}], isError: cancel || call.isError}], role: 'user', id: uuid(p)}};
				if (cancel) {
					data.error = {name: 'AbortError', code: 'ABORTED'};
				} else if (call.isError) {
					data.error = {name: 'ToolNotFoundError', code: 'UNKNOWN_TOOL'};
				} else if (call.meta !== undefined) {
					data.meta = call.meta;
				}

				yield event('tool/result', data, {sourceEventSeqs: [callSeq], surfaceOp: 'append'});
				if (cancel) {
					aborted = true;
					break;
				}
			}

			yield event('step/end', {turn, step});
		}

		if (p.chance(0.03)) {
			yield event('plan/mode', {mode: p.pick(['plan', 'default'])});
		}

		yield event('turn/end', {turn, reason: aborted ? {kind: 'aborted', reason: {kind: 'user'}} : {kind: 'completed'}});
	}
}
