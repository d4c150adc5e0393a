#!/usr/bin/env node
/**
A scripted ACP agent for cardterm's tests, written with the SDK's agent side over stdio (loopback
only: it talks to the process that spawned it and nothing else).

The first word of each prompt picks what the turn does:
  tour        every session/update kind, partial tool-call updates, diff content, a terminal the
              client runs, a plan, commands, a mode change, usage, an update kind nobody knows
  permission  a call that first appears inside session/request_permission; the answer decides it
  permission-all  the same, offering all four option kinds (reject always too)
  permission-pair two calls asking at once (the second before the first is answered)
  permission-none a permission request that offers no option at all
  fs          fs/read_text_file, fs/write_text_file (a new file), a read outside the workspace
  fs-edit     an edit call on screen whose fs/write_text_file changes config.ts
  term-write  a command in a client terminal that creates built.txt and appends to notes.md
  terminal    terminal/create|output|wait_for_exit|kill|release on a long command
  colours     a command in the client's terminal printing 256-colour and 24-bit text, then a read
              of notes.md (a card with a file location)
  slow        streams a chunk, then waits for session/cancel (answers `cancelled`)
  deaf        starts a detached grandchild, streams a chunk, then ignores everything, cancel included
  crash       streams a chunk and a pending call, writes to stderr and exits 3
  malformed   writes frames that are not JSON-RPC and a response to nothing, then answers normally
  hostile     terminal escape sequences (clear screen, OSC title and link, bidi override, BEL) in
              every field an update, a permission question and an unknown kind can carry
  stream N MS  N message chunks, one every MS ms (bench/acp-chunk-latency.mjs)
  endless [MS] [deaf]  message chunks for ever (one every MS ms, else as fast as the pipe takes
              them) until session/cancel; `deaf` ignores the cancel too
  bench N     N updates: text chunks with a tool call every tenth (bench/acp-session.mjs)
  long        an 80-line Markdown answer ending in "Next steps" (test/fixtures/long-answer.mjs), in chunks
  colors      a command whose output has 256-colour and 24-bit colours and a 200-column line
  secrets     a command in the client's terminal printing OPENAI_API_KEY (or `withheld`), then a
              message quoting the key from the agent's own environment
  terminals N  (hostile) creates up to N terminals running `sleep 300`, stopping at the first refusal,
              says how many it got and the refusal, then releases them
  flood N BYTES  (hostile) N terminals at once, each asking to keep BYTES of output and printing twice
              that; waits for each, says what each kept, releases them
  unread N BYTES MS  (hostile) a terminal keeping BYTES of output; then N terminal/output requests
              written raw while the agent reads nothing for MS ms (its stdin unread), then goes on
  blocks      answers with the prompt's blocks other than text, as JSON (resource links, embedded resources)
  anything else: `You said: <prompt>`

Flags: --load advertises session/load (replays a short history on load); --auth requires
`authenticate` before session/new; --hang-new never answers session/new; --hang-initialize never
answers initialize; --id=ID names the new session ID; --mcp-http says it takes HTTP MCP servers
(the `mcp` prompt answers with the mcpServers it was given, as JSON); --embedded advertises
promptCapabilities.embeddedContext; --image says it takes image blocks (promptCapabilities.image;
a prompt with images answers what it got), and without it an image block is refused as invalid
params, as ACP's schema check does.
*/
import {spawn} from 'node:child_process';
import {writeSync} from 'node:fs';
import {Readable, Writable} from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import {longAnswer} from '../fixtures/long-answer.mjs';

const {methods, RequestError} = acp;
const flags = new Set(process.argv.slice(2));
let authenticated = !flags.has('--auth');
/** Whether the client advertised ACP's compaction updates (`clientCapabilities.session.compaction`): only then may an agent send them. */
let compactionUpdates = false;
let sessions = 0;
/** The MCP servers the client gave in session/new or session/load (the `mcp` prompt tells them). */
let mcpServersGiven;
/** The mode session/set_mode chose, by session. */
const modes = new Map();
/** Cancellation waiters of the running prompt, per session. */
const cancelled = new Map();

const sleep = ms => new Promise(resolve => {
	setTimeout(resolve, ms);
});

function textOf(prompt) {
	return prompt.filter(block => block.type === 'text').map(block => block.text).join('\n').trim();
}

async function update(client, sessionId, body) {
	await client.notify(methods.client.session.update, {sessionId, update: body});
}

const chunk = (kind, text) => ({sessionUpdate: kind, content: {type: 'text', text}});

async function tour(client, sessionId, cwd) {
	const say = async body => update(client, sessionId, body);
	await say(chunk('agent_thought_chunk', 'Thinking about '));
	await say(chunk('agent_thought_chunk', 'the plan.'));
	await say(chunk('agent_message_chunk', 'Looking at '));
	await say(chunk('agent_message_chunk', 'the **project**.'));
	await say({sessionUpdate: 'plan', entries: [
		{content: 'Read the notes', priority: 'high', status: 'completed'},
		{content: 'Fix the config', priority: 'medium', status: 'in_progress'},
		{content: 'Run the tests', priority: 'low', status: 'pending'},
	]});
	await say({sessionUpdate: 'available_commands_update', availableCommands: [{name: 'review', description: 'Review the changes'}, {name: 'test', description: 'Run the tests', input: {hint: 'filter'}}]});
	await say({sessionUpdate: 'current_mode_update', currentModeId: 'code'});
	// A read: pending with half an input, then completed with text content (the update patches only some fields).
	await say({sessionUpdate: 'tool_call', toolCallId: 'call_read', title: 'Read notes.md', kind: 'read', status: 'pending', rawInput: {}});
	await say({sessionUpdate: 'tool_call_update', toolCallId: 'call_read', rawInput: {path: 'notes.md'}, locations: [{path: `${cwd}/notes.md`, line: 1}]});
	await say({sessionUpdate: 'tool_call_update', toolCallId: 'call_read', status: 'completed', content: [{type: 'content', content: {type: 'text', text: '# Notes\n- DEBUG is on\n'}}]});
	// An edit with a diff: the completed update sends only the status.
	await say({sessionUpdate: 'tool_call', toolCallId: 'call_edit', title: 'Edit config.ts', kind: 'edit', status: 'in_progress', locations: [{path: `${cwd}/config.ts`}],
		content: [{type: 'diff', path: `${cwd}/config.ts`, oldText: 'export const DEBUG = true;\nexport const level = "info";\n', newText: 'export const DEBUG = false;\nexport const level = "info";\n'}]});
	await say({sessionUpdate: 'tool_call_update', toolCallId: 'call_edit', status: 'completed'});
	// A new file: oldText absent.
	await say({sessionUpdate: 'tool_call', toolCallId: 'call_new', title: 'Write hello.txt', kind: 'edit', status: 'completed', content: [{type: 'diff', path: 'hello.txt', newText: 'hello\n'}]});
	// A command in the client's own terminal.
	const terminal = await client.request(methods.client.terminal.create, {sessionId, command: 'printf', args: ['one\\ntwo\\n'], cwd});
	await say({sessionUpdate: 'tool_call', toolCallId: 'call_sh', title: 'printf one two', kind: 'execute', status: 'in_progress', rawInput: {command: 'printf "one\\ntwo\\n"'}, content: [{type: 'terminal', terminalId: terminal.terminalId}]});
	await client.request(methods.client.terminal.waitForExit, {sessionId, terminalId: terminal.terminalId});
	await say({sessionUpdate: 'tool_call_update', toolCallId: 'call_sh', status: 'completed'});
	await client.request(methods.client.terminal.release, {sessionId, terminalId: terminal.terminalId});
	// A command whose output is only in Zed's _meta extension (a terminal the client never created).
	await say({sessionUpdate: 'tool_call', toolCallId: 'call_meta', title: 'ls', kind: 'execute', status: 'in_progress', content: [{type: 'terminal', terminalId: 'their-term'}]});
	await say({sessionUpdate: 'tool_call_update', toolCallId: 'call_meta', status: 'completed', _meta: {terminal_output: {terminal_id: 'their-term', data: 'a.txt\nb.txt\n'}, terminal_exit: {terminal_id: 'their-term', exit_code: 2}}});
	// A search that fails.
	await say({sessionUpdate: 'tool_call', toolCallId: 'call_grep', title: 'Search TODO', kind: 'search', status: 'in_progress', rawInput: {pattern: 'TODO'}});
	await say({sessionUpdate: 'tool_call_update', toolCallId: 'call_grep', status: 'failed', content: [{type: 'content', content: {type: 'text', text: 'rg: not found'}}]});
	await say({sessionUpdate: 'usage_update', used: 1200, size: 200_000, cost: {amount: 0.01, currency: 'USD'}});
	await say({sessionUpdate: 'session_info_update', title: 'Tour of the project'});
	await say({sessionUpdate: 'future_update', something: 1});
	await say(chunk('agent_message_chunk', 'Done: DEBUG is off.'));
	return 'end_turn';
}

/** `colours`: output in extended colours (the screen maps them to the terminal's depth), then a card the pager can open. */
async function colours(client, sessionId, cwd) {
	const say = async body => update(client, sessionId, body);
	const terminal = await client.request(methods.client.terminal.create, {sessionId, command: 'printf', args: ['\\033[38;5;208morange\\033[0m \\033[38;2;255;0;128mpink\\033[0m\\n'], cwd});
	await say({sessionUpdate: 'tool_call', toolCallId: 'call_colours', title: 'printf colours', kind: 'execute', status: 'in_progress', rawInput: {command: 'printf colours'}, content: [{type: 'terminal', terminalId: terminal.terminalId}]});
	await client.request(methods.client.terminal.waitForExit, {sessionId, terminalId: terminal.terminalId});
	await say({sessionUpdate: 'tool_call_update', toolCallId: 'call_colours', status: 'completed'});
	await client.request(methods.client.terminal.release, {sessionId, terminalId: terminal.terminalId});
	await say({sessionUpdate: 'tool_call', toolCallId: 'call_notes', title: 'Read notes.md', kind: 'read', status: 'completed', rawInput: {path: 'notes.md'}, locations: [{path: `${cwd}/notes.md`, line: 1}], content: [{type: 'content', content: {type: 'text', text: '# Notes\n- DEBUG is on\n'}}]});
	return 'end_turn';
}

/** `bench N`: N updates, as a busy turn sends them: mostly text chunks, a tool call (start and end) every tenth. */
async function bench(client, sessionId, count) {
	for (let index = 0; index < count; index++) {
		if (index % 10 === 9) {
			const toolCallId = `bench-${index}`;
			await update(client, sessionId, {sessionUpdate: 'tool_call', toolCallId, title: `Read file${index}.ts`, kind: 'read', status: 'in_progress', rawInput: {path: `file${index}.ts`}});
			await update(client, sessionId, {sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', content: [{type: 'content', content: {type: 'text', text: `line one of ${index}\nline two\n`}}]});
			index++;
		} else {
			await update(client, sessionId, chunk('agent_message_chunk', `word${index} `));
		}
	}

	return 'end_turn';
}

/** `secrets`: what a command in the client's terminal sees of the key, and the key itself said by the agent (which has it). */
async function secrets(client, sessionId, cwd) {
	const {terminalId} = await client.request(methods.client.terminal.create, {sessionId, command: 'sh', args: ['-c', 'printf "%s\\n" "${OPENAI_API_KEY:-withheld}"'], cwd});
	await update(client, sessionId, {sessionUpdate: 'tool_call', toolCallId: 'call_env', title: 'print the key', kind: 'execute', status: 'in_progress', rawInput: {command: 'printf "%s\\n" "$OPENAI_API_KEY"'}, content: [{type: 'terminal', terminalId}]});
	await client.request(methods.client.terminal.waitForExit, {sessionId, terminalId});
	await update(client, sessionId, {sessionUpdate: 'tool_call_update', toolCallId: 'call_env', status: 'completed'});
	await client.request(methods.client.terminal.release, {sessionId, terminalId});
	await update(client, sessionId, chunk('agent_message_chunk', `My key is ${process.env.OPENAI_API_KEY ?? 'unset'}.`));
	return 'end_turn';
}

/** `terminals N`: as many terminals as the client lets it keep (each `sleep 300`), then all released. */
async function manyTerminals(client, sessionId, cwd, count) {
	const created = [];
	let refused = 'none';
	for (let index = 0; index < count; index++) {
		try {
			created.push((await client.request(methods.client.terminal.create, {sessionId, command: 'sleep', args: ['300'], cwd})).terminalId);
		} catch (error) {
			refused = `${error.code} ${error.message}${error.data?.details === undefined ? '' : ` (${error.data.details})`}`;
			break;
		}
	}

	for (const terminalId of created) {
		await client.request(methods.client.terminal.release, {sessionId, terminalId});
	}

	await update(client, sessionId, chunk('agent_message_chunk', `created ${created.length}; refused: ${refused}`));
	return 'end_turn';
}

/** A command printing `bytes` bytes of `x`. */
const printer = bytes => ({command: 'sh', args: ['-c', `head -c ${bytes} /dev/zero | tr '\\0' x`]});

/** `flood N BYTES`: N terminals at once, each asking to keep BYTES and printing twice that. */
async function flood(client, sessionId, cwd, count, bytes) {
	const results = await Promise.all(Array.from({length: count}, async () => {
		try {
			const {terminalId} = await client.request(methods.client.terminal.create, {sessionId, ...printer(2 * bytes), cwd, outputByteLimit: bytes});
			await client.request(methods.client.terminal.waitForExit, {sessionId, terminalId});
			const {output, truncated} = await client.request(methods.client.terminal.output, {sessionId, terminalId});
			await client.request(methods.client.terminal.release, {sessionId, terminalId});
			return `${output.length}${truncated ? ' truncated' : ''}`;
		} catch (error) {
			return `refused ${error.code}`;
		}
	}));
	const tally = new Map();
	for (const result of results) {
		tally.set(result, (tally.get(result) ?? 0) + 1);
	}

	await update(client, sessionId, chunk('agent_message_chunk', `kept: ${[...tally].map(([result, times]) => `${times}× ${result}`).join(', ')}`));
	return 'end_turn';
}

/**
`unread N BYTES MS`: a terminal keeping BYTES of output, then N terminal/output requests written
straight to stdout while this process reads nothing for MS ms (its event loop is blocked, so its stdin
is not read), as an agent that stopped reading does. The answers are read afterwards (the SDK names
each as a response to no request of its own, on stderr).
*/
async function unread(client, sessionId, cwd, count, bytes, ms) {
	const {terminalId} = await client.request(methods.client.terminal.create, {sessionId, ...printer(bytes), cwd, outputByteLimit: bytes});
	await client.request(methods.client.terminal.waitForExit, {sessionId, terminalId});
	for (let index = 0; index < count; index++) {
		writeSync(1, `${JSON.stringify({jsonrpc: '2.0', id: `unread-${index}`, method: 'terminal/output', params: {sessionId, terminalId}})}\n`);
	}

	Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
	await client.request(methods.client.terminal.release, {sessionId, terminalId});
	await update(client, sessionId, chunk('agent_message_chunk', `asked ${count} times without reading`));
	return 'end_turn';
}

async function permission(client, sessionId, {rejectAlways = false, none = false} = {}) {
	const toolCall = {toolCallId: 'call_rm', title: 'rm -rf build', kind: 'execute', status: 'pending', rawInput: {command: 'rm -rf build'}};
	const answer = await client.request(methods.client.session.requestPermission, {sessionId, toolCall, options: none ? [] : [
		{optionId: 'proceed_once', name: 'Allow', kind: 'allow_once'},
		{optionId: 'proceed_always', name: 'Always allow', kind: 'allow_always'},
		{optionId: 'abort', name: 'Reject', kind: 'reject_once'},
		...(rejectAlways ? [{optionId: 'never', name: 'Never allow', kind: 'reject_always'}] : []),
	]});
	const chosen = answer.outcome.outcome === 'selected' ? answer.outcome.optionId : 'cancelled';
	const allowed = chosen === 'proceed_once' || chosen === 'proceed_always';
	await update(client, sessionId, {sessionUpdate: 'tool_call_update', toolCallId: 'call_rm', status: allowed ? 'completed' : 'failed',
		content: [{type: 'content', content: {type: 'text', text: allowed ? 'removed build' : 'the user refused'}}]});
	await update(client, sessionId, chunk('agent_message_chunk', `Permission: ${chosen}.`));
	return 'end_turn';
}

async function permissionPair(client, sessionId) {
	const ask = async (toolCallId, command) => client.request(methods.client.session.requestPermission, {sessionId, toolCall: {toolCallId, title: command, kind: 'execute', status: 'pending', rawInput: {command}}, options: [
		{optionId: 'once', name: 'Allow', kind: 'allow_once'},
		{optionId: 'abort', name: 'Reject', kind: 'reject_once'},
	]});
	const answers = await Promise.all([ask('call_a', 'make a'), ask('call_b', 'make b')]);
	const chosen = answers.map(answer => answer.outcome.outcome === 'selected' ? answer.outcome.optionId : 'cancelled');
	await update(client, sessionId, chunk('agent_message_chunk', `Answers: ${chosen.join(', ')}.`));
	return 'end_turn';
}

async function fileSystem(client, sessionId, cwd) {
	const notes = await client.request(methods.client.fs.readTextFile, {sessionId, path: `${cwd}/notes.md`, line: 2, limit: 1});
	await client.request(methods.client.fs.writeTextFile, {sessionId, path: `${cwd}/out/new.txt`, content: 'fresh\n'});
	let refused = 'no error';
	try {
		await client.request(methods.client.fs.readTextFile, {sessionId, path: '/etc/hostname'});
	} catch (error) {
		refused = `error ${error.code}`;
	}

	await update(client, sessionId, chunk('agent_message_chunk', `Line 2: ${JSON.stringify(notes.content)}; outside: ${refused}.`));
	return 'end_turn';
}

/** `fs-edit`: an edit call on screen whose write goes through the client (as Gemini CLI edits). */
async function fileSystemEdit(client, sessionId, cwd) {
	const path = `${cwd}/config.ts`;
	const {content} = await client.request(methods.client.fs.readTextFile, {sessionId, path});
	const changed = content.replace('DEBUG = true', 'DEBUG = false');
	await update(client, sessionId, {sessionUpdate: 'tool_call', toolCallId: 'call_cfg', title: 'Edit config.ts', kind: 'edit', status: 'in_progress', locations: [{path}], content: [{type: 'diff', path, oldText: content, newText: changed}]});
	await client.request(methods.client.fs.writeTextFile, {sessionId, path, content: changed});
	await update(client, sessionId, {sessionUpdate: 'tool_call_update', toolCallId: 'call_cfg', status: 'completed'});
	return 'end_turn';
}

/** `term-write`: a command in a client terminal that changes files (no write through the client). */
async function terminalWrite(client, sessionId, cwd) {
	const {terminalId} = await client.request(methods.client.terminal.create, {sessionId, command: 'sh', args: ['-c', 'printf "by a command\\n" > built.txt && printf "changed\\n" >> notes.md'], cwd});
	await update(client, sessionId, {sessionUpdate: 'tool_call', toolCallId: 'call_build', title: 'build', kind: 'execute', status: 'in_progress', content: [{type: 'terminal', terminalId}]});
	await client.request(methods.client.terminal.waitForExit, {sessionId, terminalId});
	await client.request(methods.client.terminal.release, {sessionId, terminalId});
	await update(client, sessionId, {sessionUpdate: 'tool_call_update', toolCallId: 'call_build', status: 'completed'});
	return 'end_turn';
}

async function terminalLifecycle(client, sessionId, cwd) {
	const {terminalId} = await client.request(methods.client.terminal.create, {sessionId, command: 'sh', args: ['-c', 'echo started; echo $FAKE_VAR; sleep 30'], env: [{name: 'FAKE_VAR', value: 'from-env'}], cwd, outputByteLimit: 1000});
	await update(client, sessionId, {sessionUpdate: 'tool_call', toolCallId: 'call_long', title: 'sleep 30', kind: 'execute', status: 'in_progress', content: [{type: 'terminal', terminalId}]});
	let output = await client.request(methods.client.terminal.output, {sessionId, terminalId});
	for (let tries = 0; !output.output.includes('from-env') && tries < 200; tries++) {
		await sleep(20);
		output = await client.request(methods.client.terminal.output, {sessionId, terminalId});
	}

	await client.request(methods.client.terminal.kill, {sessionId, terminalId});
	const exit = await client.request(methods.client.terminal.waitForExit, {sessionId, terminalId});
	await update(client, sessionId, {sessionUpdate: 'tool_call_update', toolCallId: 'call_long', status: 'completed'});
	await client.request(methods.client.terminal.release, {sessionId, terminalId});
	let afterRelease = 'usable';
	try {
		await client.request(methods.client.terminal.output, {sessionId, terminalId});
	} catch (error) {
		afterRelease = `error ${error.code}`;
	}

	await update(client, sessionId, chunk('agent_message_chunk', `output ${JSON.stringify(output.output)}, exit ${JSON.stringify(exit)}, after release ${afterRelease}.`));
	return 'end_turn';
}

async function waitForCancel(client, sessionId) {
	await update(client, sessionId, chunk('agent_message_chunk', 'Working slowly…'));
	await update(client, sessionId, {sessionUpdate: 'tool_call', toolCallId: 'call_slow', title: 'sleep', kind: 'execute', status: 'in_progress'});
	await new Promise(resolve => {
		cancelled.set(sessionId, resolve);
	});
	return 'cancelled';
}

/** Says nothing at all until the person cancels (an agent thinking before its first word, as Gemini CLI does). */
async function waitSilently(sessionId) {
	await new Promise(resolve => {
		cancelled.set(sessionId, resolve);
	});
	return 'cancelled';
}

async function crash(client, sessionId) {
	await update(client, sessionId, chunk('agent_message_chunk', 'About to fail'));
	await update(client, sessionId, {sessionUpdate: 'tool_call', toolCallId: 'call_doomed', title: 'doomed', kind: 'other', status: 'in_progress'});
	process.stderr.write('fatal: the fake agent crashed on purpose\n');
	setTimeout(() => process.exit(3), 20);
	return new Promise(() => {});
}

async function malformed(client, sessionId) {
	process.stdout.write('this is not json\n');
	process.stdout.write('[1,2]\n');
	process.stdout.write('{"no":"jsonrpc"}\n');
	process.stdout.write('{"jsonrpc":"2.0","id":"never-asked","result":{}}\n');
	await sleep(20);
	await update(client, sessionId, chunk('agent_message_chunk', 'Still here.'));
	return 'end_turn';
}

/** Sequences that would act on the terminal if written raw: clear screen, an OSC title, an OSC 8 link, a bidi override, BEL. */
const HOSTILE = '\u001B[2J\u001B]0;pwned\u0007\u001B]8;;https://evil.example\u001B\\link\u001B]8;;\u001B\\\u202Eevil\u0007';

async function hostile(client, sessionId, cwd) {
	const say = async body => update(client, sessionId, body);
	await say(chunk('agent_thought_chunk', `thinking ${HOSTILE}`));
	await say(chunk('agent_message_chunk', `answer ${HOSTILE}`));
	await say({sessionUpdate: 'plan', entries: [{content: `step ${HOSTILE}`, priority: 'high', status: 'pending'}]});
	await say({sessionUpdate: 'available_commands_update', availableCommands: [{name: `cmd${HOSTILE}`, description: `does ${HOSTILE}`}]});
	await say({sessionUpdate: 'current_mode_update', currentModeId: `mode${HOSTILE}`});
	await say({sessionUpdate: 'session_info_update', title: `title ${HOSTILE}`});
	await say({sessionUpdate: 'usage_update', used: 1, size: 10, cost: {amount: 0.5, currency: `USD${HOSTILE}`}});
	await say({sessionUpdate: `kind${HOSTILE}`});
	await say({sessionUpdate: 'tool_call', toolCallId: `id${HOSTILE}`, title: `title ${HOSTILE}`, kind: 'execute', status: 'in_progress', rawInput: {command: `echo ${HOSTILE}`}, locations: [{path: `${cwd}/file${HOSTILE}.txt`, line: 1}]});
	await say({sessionUpdate: 'tool_call_update', toolCallId: `id${HOSTILE}`, status: 'completed', content: [{type: 'content', content: {type: 'text', text: `output ${HOSTILE}`}}], rawOutput: {stdout: `raw ${HOSTILE}`}});
	await say({sessionUpdate: 'tool_call', toolCallId: 'call_diff', title: `edit ${HOSTILE}`, kind: 'edit', status: 'completed', content: [{type: 'diff', path: `${cwd}/d${HOSTILE}.txt`, oldText: `old ${HOSTILE}\n`, newText: `new ${HOSTILE}\n`}]});
	await say({sessionUpdate: 'tool_call', toolCallId: 'call_meta', title: 'ls', kind: 'execute', status: 'completed', content: [{type: 'terminal', terminalId: 't'}], _meta: {terminal_output: {terminal_id: 't', data: `meta ${HOSTILE}\n`}, terminal_exit: {terminal_id: 't', exit_code: 1}}});
	const answer = await client.request(methods.client.session.requestPermission, {sessionId, toolCall: {toolCallId: 'call_ask', title: `ask ${HOSTILE}`, kind: 'execute', status: 'pending', rawInput: {command: `rm ${HOSTILE}`}}, options: [
		{optionId: 'ok', name: `Allow ${HOSTILE}`, kind: 'allow_once'},
		{optionId: 'no', name: `Reject ${HOSTILE}`, kind: 'reject_once'},
	]});
	await say({sessionUpdate: 'tool_call_update', toolCallId: 'call_ask', status: answer.outcome.outcome === 'selected' && answer.outcome.optionId === 'ok' ? 'completed' : 'failed'});
	process.stderr.write(`stderr ${HOSTILE}\n`);
	return 'end_turn';
}

const app = acp.agent({name: 'fake-agent'})
	.onRequest(methods.agent.initialize, async ({params}) => {
		compactionUpdates = params.clientCapabilities?.session?.compaction !== undefined && params.clientCapabilities?.session?.compaction !== null;
		if (flags.has('--hang-initialize')) {
			// An agent that starts but never answers the handshake.
			await new Promise(() => {});
		}

		return {
			protocolVersion: acp.PROTOCOL_VERSION,
			agentCapabilities: {loadSession: flags.has('--load'), ...(flags.has('--mcp-http') ? {mcpCapabilities: {http: true}} : {}), ...(flags.has('--embedded') || flags.has('--image') ? {promptCapabilities: {...(flags.has('--embedded') ? {embeddedContext: true} : {}), ...(flags.has('--image') ? {image: true} : {})}} : {})},
			authMethods: flags.has('--auth') ? [{id: 'fake-login', name: 'Fake login', description: `Run fake-login (client fs: ${params.clientCapabilities?.fs?.readTextFile === true})`}] : [],
			agentInfo: {name: 'fake-agent', version: '1.0.0'},
		};
	})
	.onRequest(methods.agent.authenticate, ({params}) => {
		if (params.methodId !== 'fake-login') {
			throw RequestError.invalidParams(undefined, `unknown method ${params.methodId}`);
		}

		authenticated = true;
		return {};
	})
	.onRequest(methods.agent.session.new, async ({params}) => {
		mcpServersGiven = params.mcpServers;
		if (flags.has('--hang-new')) {
			// pi-acp with a pi it cannot drive: session/new never answers.
			await new Promise(() => {});
		}

		if (!authenticated) {
			throw RequestError.authRequired();
		}

		const named = [...flags].find(flag => flag.startsWith('--id='));
		return {sessionId: named === undefined ? `fake-${++sessions}` : named.slice('--id='.length), modes: {currentModeId: 'ask', availableModes: [{id: 'ask', name: 'Ask'}, {id: 'code', name: 'Code'}]}};
	})
	.onRequest(methods.agent.session.setMode, async ({params}) => {
		// session/set_mode: only the modes session/new announced; `mode` prompts say which one is on.
		if (!['ask', 'code'].includes(params.modeId)) {
			throw RequestError.invalidParams(undefined, `unknown mode ${params.modeId}`);
		}

		modes.set(params.sessionId, params.modeId);
		return {};
	})
	.onRequest(methods.agent.session.load, async ({params, client}) => {
		mcpServersGiven = params.mcpServers;
		await update(client, params.sessionId, chunk('user_message_chunk', 'What was the plan?'));
		await update(client, params.sessionId, chunk('agent_message_chunk', 'The plan was to fix the config.'));
		return {};
	})
	.onRequest(methods.agent.session.prompt, async ({params, client}) => {
		const images = params.prompt.filter(block => block.type === 'image');
		if (images.length > 0) {
			if (!flags.has('--image')) {
				throw RequestError.invalidParams(undefined, 'image content is not supported by this agent');
			}

			const seen = images.map(block => `${block.mimeType} ${Buffer.from(block.data, 'base64').length} bytes${Buffer.from(block.data, 'base64').subarray(1, 4).toString('latin1') === 'PNG' ? ' (a PNG)' : ''}`);
			await update(client, params.sessionId, chunk('agent_message_chunk', `Saw ${textOf(params.prompt)} and ${seen.join(', ')}.`));
			return {stopReason: 'end_turn'};
		}

		const text = textOf(params.prompt);
		const word = text.split(/\s+/)[0];
		const cwd = process.cwd();
		switch (word) {
			case 'mode': {
				await update(client, params.sessionId, chunk('agent_message_chunk', `mode is ${modes.get(params.sessionId) ?? 'ask'}`));
				return {stopReason: 'end_turn'};
			}

			case 'mcp': {
				await update(client, params.sessionId, chunk('agent_message_chunk', JSON.stringify(mcpServersGiven)));
				return {stopReason: 'end_turn'};
			}

			case 'blocks': {
				// The prompt's blocks other than text, as JSON (what `@` references sent).
				const blocks = params.prompt.filter(block => block.type !== 'text');
				await update(client, params.sessionId, chunk('agent_message_chunk', JSON.stringify(blocks)));
				return {stopReason: 'end_turn'};
			}

			case 'tour': return {stopReason: await tour(client, params.sessionId, cwd)};
			case 'compact': {
				// Claude Code's adapter's shape: a compaction opens, its summary streams, it completes.
				if (!compactionUpdates) {
					await update(client, params.sessionId, chunk('agent_message_chunk', 'Compacted (the client cannot show compaction updates).'));
					return {stopReason: 'end_turn'};
				}

				await update(client, params.sessionId, {sessionUpdate: 'compaction_update', compactionId: 'cmp-1', status: 'in_progress'});
				await update(client, params.sessionId, {sessionUpdate: 'compaction_summary_chunk', compactionId: 'cmp-1', content: {type: 'text', text: 'Kept: fix the config.'}});
				await update(client, params.sessionId, {sessionUpdate: 'compaction_update', compactionId: 'cmp-1', status: 'completed'});
				await update(client, params.sessionId, chunk('agent_message_chunk', 'Compacted.'));
				return {stopReason: 'end_turn'};
			}
			case 'permission': return {stopReason: await permission(client, params.sessionId)};
			case 'permission-all': return {stopReason: await permission(client, params.sessionId, {rejectAlways: true})};
			case 'permission-pair': return {stopReason: await permissionPair(client, params.sessionId)};
			case 'permission-none': return {stopReason: await permission(client, params.sessionId, {none: true})};
			case 'fs': return {stopReason: await fileSystem(client, params.sessionId, cwd)};
			case 'fs-edit': return {stopReason: await fileSystemEdit(client, params.sessionId, cwd)};
			case 'term-write': return {stopReason: await terminalWrite(client, params.sessionId, cwd)};
			case 'terminal': return {stopReason: await terminalLifecycle(client, params.sessionId, cwd)};
			case 'colours': return {stopReason: await colours(client, params.sessionId, cwd)};
			case 'slow': return {stopReason: await waitForCancel(client, params.sessionId)};
			case 'silent': return {stopReason: await waitSilently(params.sessionId)};
			case 'deaf': {
				// A grandchild in a session of its own: stopping the agent's tree must reach it too.
				const child = spawn('sleep', ['300'], {detached: true, stdio: 'ignore'});
				await update(client, params.sessionId, chunk('agent_message_chunk', `Not listening (child ${child.pid}).`));
				return new Promise(() => {});
			}

			case 'crash': return {stopReason: await crash(client, params.sessionId)};
			case 'malformed': return {stopReason: await malformed(client, params.sessionId)};
			case 'hostile': return {stopReason: await hostile(client, params.sessionId, cwd)};
			case 'stream': {
				// `stream N MS`: N message chunks `tick<i>z`, one every MS ms (bench/acp-chunk-latency.mjs).
				const [, count = '20', every = '50'] = text.split(/\s+/);
				for (let index = 1; index <= Number(count); index++) {
					await sleep(Number(every));
					await update(client, params.sessionId, chunk('agent_message_chunk', `tick${index}z `));
				}

				return {stopReason: 'end_turn'};
			}

			case 'bench': return {stopReason: await bench(client, params.sessionId, Number(text.split(/\s+/)[1] ?? 1000))};
			case 'endless': {
				const [, every = '0', deaf] = text.split(/\s+/);
				let stop = false;
				if (deaf !== 'deaf') {
					cancelled.set(params.sessionId, () => {
						stop = true;
					});
				}

				while (!stop) {
					await update(client, params.sessionId, chunk('agent_message_chunk', 'The quick brown fox jumps over the lazy dog. '.repeat(4)));
					// Lets the cancel in between chunks (a pipe that takes every write would never let it).
					await (Number(every) > 0 ? sleep(Number(every)) : new Promise(resolve => {
						setImmediate(resolve);
					}));
				}

				return {stopReason: 'cancelled'};
			}

			case 'colors': {
				// Output only in Zed's _meta extension: the client runs nothing.
				await update(client, params.sessionId, {sessionUpdate: 'tool_call', toolCallId: 'call_colors', title: 'ls --color', kind: 'execute', status: 'in_progress', content: [{type: 'terminal', terminalId: 'their-term'}]});
				const data = `\u001B[38;5;208morange\u001B[0m \u001B[38;2;10;20;30mdeep\u001B[0m\n${'long-line-'.repeat(20)}\n`;
				await update(client, params.sessionId, {sessionUpdate: 'tool_call_update', toolCallId: 'call_colors', status: 'completed', _meta: {terminal_output: {terminal_id: 'their-term', data}, terminal_exit: {terminal_id: 'their-term', exit_code: 0}}});
				await update(client, params.sessionId, chunk('agent_message_chunk', `Listed ${'the files in colour, '.repeat(10)}done.`));
				return {stopReason: 'end_turn'};
			}

			case 'long': {
				for (const line of longAnswer().split(/(?<=\n)/)) {
					await update(client, params.sessionId, chunk('agent_message_chunk', line));
				}

				return {stopReason: 'end_turn'};
			}

			case 'secrets': return {stopReason: await secrets(client, params.sessionId, cwd)};
			case 'terminals': return {stopReason: await manyTerminals(client, params.sessionId, cwd, Number(text.split(/\s+/)[1] ?? 100))};
			case 'flood': {
				const [, count = '10', bytes = '1048576'] = text.split(/\s+/);
				return {stopReason: await flood(client, params.sessionId, cwd, Number(count), Number(bytes))};
			}

			case 'unread': {
				const [, count = '100', bytes = '1048576', ms = '3000'] = text.split(/\s+/);
				return {stopReason: await unread(client, params.sessionId, cwd, Number(count), Number(bytes), Number(ms))};
			}

			default: {
				await update(client, params.sessionId, chunk('agent_message_chunk', `You said: ${text}`));
				return {stopReason: 'end_turn'};
			}
		}
	})
	.onNotification(methods.agent.session.cancel, ({params}) => {
		cancelled.get(params.sessionId)?.();
		cancelled.delete(params.sessionId);
	});

const connection = app.connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
await connection.closed;
