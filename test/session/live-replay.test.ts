import {createServer, type Server} from 'node:http';
import {cardsOf} from '../../src/presentation/entry.js';
import {mkdtemp, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {openSession} from '../../src/host/open-session.js';
import {referencePresenters} from '../../src/acp/reference-presenters.js';
import {SessionFold} from '../../src/session/fold/fold.js';
import {openSessionLog} from '../../src/session/reader/read-session-log.js';

let server: Server;
let base: string;

beforeAll(async () => {
	server = createServer((request, response) => {
		response.writeHead(200, {'content-type': 'text/html; charset=utf-8'});
		response.end('<html><body><h1>Menu</h1><p>Tea &amp; cake</p></body></html>');
	});
	await new Promise<void>(done => server.listen(0, '127.0.0.1', done));
	const address = server.address();
	base = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
});

afterAll(async () => {
	await new Promise(done => server.close(done));
});

describe('live equals replay', () => {
	it('folds the events a session wrote back into exactly the live cards', async () => {
		const workspace = await mkdtemp(join(tmpdir(), 'cardterm-live-'));
		const logPath = join(workspace, 'session.jsonl');
		await writeFile(join(workspace, 'notes.txt'), 'alpha\nbeta\ngamma\n');
		await writeFile(join(workspace, 'script.mjs'), '');
		const session = await openSession({
			cwd: workspace,
			logPath,
			policy: async (exec, next) => (exec.name === 'bash' && JSON.stringify(exec.arguments).includes('forbidden') ? {kind: 'deny', reason: 'not on my watch'} : next()),
		});
		const run = async (name: string, args: unknown, signal = new AbortController().signal) => session.runtime.runCall(name, args, {signal});

		await run('bash', {command: 'printf "one\\n"; printf "two\\n" >&2', description: 'Print to both streams'});
		await run('bash', {command: 'exit 4', description: 'Fail on purpose'});
		await run('bash', {command: 'echo forbidden', description: 'A denied command'});
		const aborted = new AbortController();
		aborted.abort();
		await run('bash', {command: 'echo never', description: 'Cancelled before dispatch'}, aborted.signal);
		const midway = new AbortController();
		const sleeping = run('bash', {command: 'sleep 5', description: 'Cancelled while running'}, midway.signal);
		setTimeout(() => midway.abort(), 200);
		await sleeping;
		await run('write', {file_path: 'made.txt', content: 'x\ny\n'});
		await run('edit', {file_path: 'notes.txt', old_string: 'beta', new_string: 'BETA'});
		await run('edit', {file_path: 'notes.txt', old_string: 'nope', new_string: 'x'});
		await run('read', {file_path: 'notes.txt'});
		await run('grep', {pattern: 'alpha|BETA'});
		await run('glob', {pattern: '*.txt'});
		await run('web_fetch', {url: `${base}/menu.html`});
		await run('todo_write', {todos: [{content: 'Check replay', status: 'in_progress'}]});
		await run('bash', {command: 'sleep 30', description: 'A background job', run_in_background: true});
		await run('job_list', {});
		await run('job_kill', {job_id: 'bash-1'});
		await run('run_code', {code: 'const r = await tools.read({file_path: "notes.txt"}); console.log(r.totalLines); return 1', description: 'Read notes from a program'});
		await run('nope', {});
		const live = [...cardsOf(session.fold.entries)];
		await session.close();

		const log = await openSessionLog(logPath);
		const replay = new SessionFold(referencePresenters(workspace));
		for await (const event of log.events) {
			replay.apply(event);
		}

		expect(log.diagnostics).toEqual([]);
		expect(live.map(card => [card.name, card.status])).toEqual([
			['bash', 'ok'], ['bash', 'ok'], ['bash', 'error'], ['bash', 'cancelled'], ['bash', 'cancelled'],
			['write', 'ok'], ['edit', 'ok'], ['edit', 'error'], ['read', 'ok'], ['grep', 'ok'], ['glob', 'ok'],
			['web_fetch', 'ok'], ['todo_write', 'ok'], ['bash', 'ok'], ['job_list', 'ok'], ['job_kill', 'ok'],
			['run_code', 'ok'], ['nope', 'error'],
		]);
		expect(live[1]!.outcome).toBe('failed');
		expect(live[16]!.children.map(child => [child.callId, child.name, child.status])).toEqual([[`${live[16]!.callId}:code:1`, 'read', 'ok']]);
		expect(cardsOf(replay.entries)).toEqual(live);
	}, 60_000);
});
