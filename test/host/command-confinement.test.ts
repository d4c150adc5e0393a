/**
Commands confined in the modes that do not ask before each (issue 31): in bypass and accept-edits
mode bash runs inside bwrap — a write outside the workspace and the temp directory, a write into
`.git`, and a network connection are refused, while the workspace stays writable; in ask mode the
same commands run unconfined (so each check here can fail). Where bwrap cannot run, the session
says commands are unconfined, and why.
*/
import {existsSync} from 'node:fs';
import {mkdir, mkdtemp, readFile, realpath, rm, writeFile} from 'node:fs/promises';
import {createServer, type Server} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {spawnerPid} from '../../src/builtin/bash/spawner.js';
import {probeConfinement, sessionConfinement} from '../../src/host/command-confinement.js';
import {openSession} from '../../src/host/open-session.js';
import {SessionMode, type SessionModeName} from '../../src/host/session-mode.js';

const found = await probeConfinement();
const missing = 'unavailable' in found ? found.unavailable : undefined;

let workspace = '';
let outside = '';
let server: Server | undefined;
beforeEach(async () => {
	workspace = await realpath(await mkdtemp(join(tmpdir(), 'cardterm-confine-')));
	await mkdir(join(workspace, '.git'));
	await writeFile(join(workspace, '.git', 'config'), 'safe\n');
	// Outside both the workspace and the temp directory.
	outside = join('/var/tmp', `cardterm-confine-${process.pid}-${Date.now()}`);
});

afterEach(async () => {
	await rm(workspace, {recursive: true, force: true});
	await rm(outside, {force: true});
	server?.close();
});

async function listening(): Promise<number> {
	server = createServer(socket => {
		// The command closes its end as soon as it connected: a reset then is the client's going, not a failure.
		socket.on('error', () => undefined);
		socket.end('hello\n');
	});
	await new Promise<void>(resolve => {
		server!.listen(0, '127.0.0.1', resolve);
	});
	const address = server.address();
	return typeof address === 'object' && address !== null ? address.port : 0;
}

/** Run each command with bash in a session in `mode` (no rules: nothing asks); each one's exit code and output. */
async function run(mode: SessionModeName, commands: readonly string[], options: {readonly commandNetwork?: boolean} = {}): Promise<string[]> {
	const session = await openSession({cwd: workspace, mode: new SessionMode(mode, options)});
	try {
		const said: string[] = [];
		for (const command of commands) {
			const result = await session.runtime.runCall('bash', {command, description: 'try'}, {signal: new AbortController().signal});
			const value = result.isError ? {} : result.value as {exitCode?: number; stdout?: {text: string}};
			said.push(`${value.exitCode ?? 'error'} ${(value.stdout?.text ?? '').trim()}`);
		}

		return said;
	} finally {
		await session.close();
	}
}

describe.skipIf(missing !== undefined)(`bash confined by bwrap (skipped: ${missing ?? 'bwrap works here'})`, () => {
	it('bypass: the workspace and the temp directory are writable; outside them, .git and the network are refused', async () => {
		const port = await listening();
		const said = await run('bypass', [
			'echo in > inside.txt && echo wrote',
			`echo out > ${outside} && echo wrote`,
			'echo evil > .git/config && echo wrote',
			`exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected`,
			`echo tmp > ${join(tmpdir(), `cardterm-confine-tmp-${process.pid}`)} && echo wrote`,
		]);
		expect(said[0]).toBe('0 wrote');
		expect(said[1]).toMatch(/^1 $/u);
		expect(said[2]).toMatch(/^1 $/u);
		expect(said[3]).toMatch(/^1 $/u);
		expect(said[4]).toBe('0 wrote');
		expect(await readFile(join(workspace, 'inside.txt'), 'utf8')).toBe('in\n');
		expect(existsSync(outside)).toBe(false);
		expect(await readFile(join(workspace, '.git', 'config'), 'utf8')).toBe('safe\n');
		await rm(join(tmpdir(), `cardterm-confine-tmp-${process.pid}`), {force: true});
	});

	it('with the person\'s sandbox.network, a confined command connects but still cannot write outside', async () => {
		const port = await listening();
		const said = await run('bypass', [`exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected`, `echo out > ${outside} && echo wrote`], {commandNetwork: true});
		expect(said[0]).toBe('0 connected');
		expect(said[1]).toMatch(/^1 $/u);
		expect(existsSync(outside)).toBe(false);
	});

	it('bypass, once the sandbox\'s own spawner starts the commands: the same refusals, and a .git made in the session is guarded from the next command on', async () => {
		await rm(join(workspace, '.git'), {recursive: true});
		const port = await listening();
		const session = await openSession({cwd: workspace, mode: new SessionMode('bypass')});
		const say = async (command: string, workdir?: string): Promise<string> => {
			const result = await session.runtime.runCall('bash', {command, description: 'try', ...(workdir === undefined ? {} : {workdir})}, {signal: new AbortController().signal});
			const value = result.isError ? {} : result.value as {exitCode?: number; stdout?: {text: string}};
			return `${value.exitCode ?? 'error'} ${(value.stdout?.text ?? '').trim()}`;
		};

		try {
			// The sandbox's arguments name no directory: bwrap keeps the one it was started in, the command's workdir.
			await mkdir(join(workspace, 'sub'));
			expect(await say('pwd; cat /proc/$PPID/comm', 'sub')).toBe(`0 ${join(workspace, 'sub')}\nbwrap`);
			// The first commands start directly under bwrap while the spawner starts inside the sandbox; then it starts them.
			let parent = '';
			for (let attempt = 0; attempt < 200 && parent !== '0 node'; attempt++) {
				parent = await say('cat /proc/$PPID/comm');
			}

			expect(parent).toBe('0 node');
			expect(await say('pwd', 'sub')).toBe(`0 ${join(workspace, 'sub')}`);
			expect(await say(`echo out > ${outside} && echo wrote`)).toMatch(/^1 $/u);
			expect(await say(`exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected`)).toMatch(/^1 $/u);
			expect(await say('mkdir .git && echo safe > .git/config && echo made')).toBe('0 made');
			// The sandbox now guards .git: another one, so the next command cannot write it.
			expect(await say('echo evil > .git/config && echo wrote')).toMatch(/^1 $/u);
			expect(await readFile(join(workspace, '.git', 'config'), 'utf8')).toBe('safe\n');
			expect(existsSync(outside)).toBe(false);
		} finally {
			await session.close();
		}
	});

	it('a live session (warmCommands) starts its sandbox\'s spawner before any command: its first command runs inside it', async () => {
		const session = await openSession({cwd: workspace, mode: new SessionMode('bypass'), warmCommands: true});
		try {
			const sandbox = await session.confinement.confine();
			expect(sandbox?.[0]).toBe('bwrap');
			for (let waited = 0; waited < 10_000 && spawnerPid(sandbox) === undefined; waited += 10) {
				await new Promise(resolve => setTimeout(resolve, 10));
			}

			expect(spawnerPid(sandbox)).toBeDefined();
			const result = await session.runtime.runCall('bash', {command: 'cat /proc/$PPID/comm', description: 'try'}, {signal: new AbortController().signal});
			expect(result.isError ? result : (result.value as {stdout: {text: string}}).stdout.text.trim()).toBe('node');
		} finally {
			await session.close();
		}
	});

	it('ask mode runs the same commands unconfined (each refusal above is the sandbox\'s)', async () => {
		const port = await listening();
		const said = await run('ask', [`echo out > ${outside} && echo wrote`, `exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected`]);
		expect(said).toEqual(['0 wrote', '0 connected']);
	});
});

describe('where bwrap cannot run', () => {
	it('names why, and the session says commands are unconfined in the modes that would confine them', async () => {
		expect(await probeConfinement('cardterm-no-such-bwrap')).toEqual({unavailable: 'cardterm-no-such-bwrap is not installed'});
		let mode = 'edits';
		const confinement = sessionConfinement('/w', () => mode, async () => ({unavailable: 'No permissions to create new namespace'}));
		expect(await confinement.confine()).toBeUndefined();
		expect(confinement.state()).toBe('commands unconfined (bwrap: No permissions to create new namespace)');
		mode = 'ask';
		expect(confinement.state()).toBeUndefined();
	});

	it('says in the status line when the person\'s config lets confined commands reach the network, and drops --unshare-net only then', async () => {
		const open = sessionConfinement('/w', () => 'bypass', async () => ({bwrap: 'bwrap'}), {network: true});
		expect(await open.confine()).not.toContain('--unshare-net');
		expect(open.state()).toBe('commands confined (bwrap, network allowed)');
		const closed = sessionConfinement('/w', () => 'bypass', async () => ({bwrap: 'bwrap'}));
		expect(await closed.confine()).toContain('--unshare-net');
		expect(closed.state()).toBe('commands confined (bwrap)');
	});
});
