/**
`/undo` and `/redo` through the live session core over a real session: the reference tools change
real files, the commands take the changes back as `cardterm_undo` cards, and the log folds back to
the same cards (live == replay), with the model told what was undone.
*/
import {execFileSync} from 'node:child_process';
import {access, mkdtemp, readFile, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import type {ScrollbackEntry} from '../../components/session-model.js';
import {referencePresenters} from '../../src/acp/reference-presenters.js';
import {Conversation} from '../../src/agent/conversation.js';
import {openSession, type OpenedSession} from '../../src/host/open-session.js';
import {ChangeHistory} from '../../src/host/change-history.js';
import {sessionForks} from '../../src/host/session-forks.js';
import {nativeUndo, type SessionUndo} from '../../src/host/session-undo.js';
import {lineText} from '../../src/layout/text/spans.js';
import type {LiveSession} from '../../src/live/live-session.js';
import {cardsOf} from '../../src/presentation/entry.js';
import type {SessionEvent} from '../../src/session/events/events.js';
import {SessionFold} from '../../src/session/fold/fold.js';
import {openSessionLog} from '../../src/session/reader/read-session-log.js';
import {liveSessionFor, until} from '../live/live-session-harness.js';

type Opened = {workspace: string; logPath: string; shadowDir: string; session: OpenedSession; live: LiveSession; said: () => string[]};

/** A session over a new workspace holding `files`; its shadow repository outside it (`noGit`: no git on the PATH when it opens). */
async function opened(files: Record<string, string> = {}, {noGit = false}: {noGit?: boolean} = {}): Promise<Opened> {
	const workspace = await mkdtemp(join(tmpdir(), 'cardterm-undo-'));
	for (const [name, text] of Object.entries(files)) {
		 
		await writeFile(join(workspace, name), text);
	}

	// The workspace is a git work tree (the shadow snapshots only those); the user's repository is left alone.
	execFileSync('git', ['init', '--quiet'], {cwd: workspace});
	// The log lives outside the workspace, as the sessions folder does.
	const logPath = join(await mkdtemp(join(tmpdir(), 'cardterm-undo-log-')), 'session.jsonl');
	const session = await openSession({cwd: workspace, logPath});
	const shadowDir = join(await mkdtemp(join(tmpdir(), 'cardterm-undo-data-')), 'shadow');
	const path = process.env.PATH;
	if (noGit) {
		// The shadow repository takes its environment when it opens, synchronously.
		process.env.PATH = join(workspace, 'no-bin');
	}

	let undo: SessionUndo;
	try {
		undo = nativeUndo(session, workspace, shadowDir);
	} finally {
		process.env.PATH = path;
	}

	const forks = sessionForks(session)!;
	const live = liveSessionFor(session, {undo, forks});
	const written: ScrollbackEntry[] = [];
	live.onScrollback(entry => written.push(entry));
	const said = (): string[] => written.flatMap(entry => entry.kind === 'lines' ? [entry.lines.map(line => lineText(line)).join('\n')] : []);
	return {workspace, logPath, shadowDir, session, live, said};
}

/** Submit `line` and wait until the queue is empty and nothing runs. */
async function submit(live: LiveSession, line: string, said: () => string[]): Promise<string> {
	const before = said().length;
	live.submit(line);
	await until(() => said().length > before && live.getSnapshot().queue.length === 0);
	return said().slice(before).join('\n');
}

const text = async (path: string): Promise<string> => readFile(path, 'utf8');
const exists = async (path: string): Promise<boolean> => access(path).then(() => true, () => false);

async function replayed(logPath: string, workspace: string): Promise<{fold: SessionFold; events: SessionEvent[]}> {
	const log = await openSessionLog(logPath);
	const fold = new SessionFold(referencePresenters(workspace));
	const events: SessionEvent[] = [];
	for await (const event of log.events) {
		fold.apply(event);
		events.push(event);
	}

	expect(log.diagnostics).toEqual([]);
	return {fold, events};
}

const signal = new AbortController().signal;

describe('/undo and /redo', () => {
	it('takes back an edit, a created file and a second file of one turn, then puts them back; live == replay', async () => {
		const {workspace, logPath, session, live, said} = await opened({'app.ts': 'one\ntwo\nthree\nfour\n', 'lib.ts': 'export const a = 1;\n'});
		await session.runtime.turn(async step => {
			await step.call('edit', {file_path: 'app.ts', old_string: 'two', new_string: 'TWO'}, {signal});
			await step.call('write', {file_path: 'made/new.ts', content: 'fresh\n'}, {signal});
			await step.call('edit', {file_path: 'lib.ts', old_string: '1', new_string: '2'}, {signal});
			await step.call('edit', {file_path: 'app.ts', old_string: 'four', new_string: 'FOUR'}, {signal});
		});
		expect(await text(join(workspace, 'app.ts'))).toBe('one\nTWO\nthree\nFOUR\n');

		expect(await submit(live, '/undo', said)).toBe('undid the file changes of the last turn: app.ts, made/new.ts, lib.ts');
		expect(await text(join(workspace, 'app.ts'))).toBe('one\ntwo\nthree\nfour\n');
		expect(await text(join(workspace, 'lib.ts'))).toBe('export const a = 1;\n');
		expect(await exists(join(workspace, 'made/new.ts'))).toBe(false);

		expect(await submit(live, '/redo', said)).toBe('redid the last undo: app.ts, made/new.ts, lib.ts');
		expect(await text(join(workspace, 'app.ts'))).toBe('one\nTWO\nthree\nFOUR\n');
		expect(await text(join(workspace, 'made/new.ts'))).toBe('fresh\n');
		expect(await submit(live, '/redo', said)).toBe('nothing to redo: no undo since the last change');

		// The redo is itself a change: /undo takes it back again.
		expect(await submit(live, '/undo', said)).toBe('undid the file changes of the last turn: app.ts, made/new.ts, lib.ts');
		expect(await exists(join(workspace, 'made/new.ts'))).toBe(false);

		const shown = (card: ReturnType<typeof cardsOf>[number]) => ({name: card.name, args: card.args, status: card.status, callView: card.callView, resultView: card.resultView, result: card.result});
		const liveCards = cardsOf(session.fold.entries).map(card => shown(card));
		await live.close();
		const {fold, events} = await replayed(logPath, workspace);
		const replayCards = cardsOf(fold.entries).map(card => shown(card));
		expect(replayCards).toEqual(liveCards);
		const undoCards = liveCards.filter(card => card.name === 'cardterm_undo');
		expect(undoCards.map(card => [card.resultView?.card, card.status, card.resultView?.card === 'diff' ? card.resultView.title : undefined])).toEqual([
			['diff', 'ok', 'Undo edit app.ts'], ['diff', 'ok', 'Undo write made/new.ts'], ['diff', 'ok', 'Undo edit lib.ts'],
			['diff', 'ok', 'Redo edit app.ts'], ['diff', 'ok', 'Redo write made/new.ts'], ['diff', 'ok', 'Redo edit lib.ts'],
			['diff', 'ok', 'Undo edit app.ts'], ['diff', 'ok', 'Undo write made/new.ts'], ['diff', 'ok', 'Undo edit lib.ts'],
		]);
		// The undo card of the created file shows the whole file removed.
		expect(undoCards[1]!.resultView).toEqual({card: 'diff', title: 'Undo write made/new.ts', diffs: [{path: 'made/new.ts', oldText: 'fresh\n', newText: ''}]});

		// The model is told, as a note, what was undone (and the conversation rebuilt from the log says the same).
		const conversation = new Conversation();
		for (const event of events) {
			conversation.apply(event);
		}

		const notes = conversation.messages().filter(message => message.role === 'user').map(message => (message as {text: string}).text);
		expect(notes).toHaveLength(3);
		expect(notes[0]).toContain('The person undid the file changes of the last turn. These files are now as they were before:\n- app.ts: its edit taken back\n- made/new.ts: removed\n- lib.ts: its edit taken back');
		expect(notes[0]).toContain('not a message from the person');
	});

	it('refuses when the file changed after the card, naming the file and the lines, and loses no byte', async () => {
		const {workspace, session, live, said} = await opened({'app.ts': 'a\nb\nc\nd\ne\nf\ng\n'});
		await session.runtime.runCall('edit', {file_path: 'app.ts', old_string: 'd', new_string: 'D'}, {signal});
		const byHand = 'a\nb\nc\nD by hand\ne\nf\ng\n';
		await writeFile(join(workspace, 'app.ts'), byHand);
		const refusal = await submit(live, '/undo', said);
		expect(refusal).toBe([
			'/undo refused: cannot take back the edit of app.ts: the file changed after it (near line 1).',
			'  the change left:',
			'    - a', '    - b', '    - c', '    - D', '    - e', '    - f', '    - g',
			'  the file holds now:',
			'    + a', '    + b', '    + c', '    + D by hand', '    + e', '    + f', '    + g',
			'Nothing was changed: the file keeps what is in it now.',
		].join('\n'));
		expect(await text(join(workspace, 'app.ts'))).toBe(byHand);
		expect(cardsOf(session.fold.entries).some(card => card.name === 'cardterm_undo')).toBe(false);
		await live.close();
	});

	it('takes back a change that still applies after the person edited elsewhere in the file', async () => {
		const {workspace, session, live, said} = await opened({'app.ts': 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n'});
		await session.runtime.runCall('edit', {file_path: 'app.ts', old_string: 'h', new_string: 'H'}, {signal});
		await writeFile(join(workspace, 'app.ts'), 'added on top\na\nb\nc\nd\ne\nf\ng\nH\ni\nj\n');
		expect(await submit(live, '/undo', said)).toBe('undid the file changes of the last turn: app.ts');
		expect(await text(join(workspace, 'app.ts'))).toBe('added on top\na\nb\nc\nd\ne\nf\ng\nh\ni\nj\n');
		await live.close();
	});

	it('keeps a created file the person changed since', async () => {
		const {workspace, session, live, said} = await opened();
		await session.runtime.runCall('write', {file_path: 'notes.md', content: 'by the agent\n'}, {signal});
		await writeFile(join(workspace, 'notes.md'), 'by the agent\nand by me\n');
		expect(await submit(live, '/undo', said)).toContain('/undo refused: cannot take back the write of notes.md');
		expect(await text(join(workspace, 'notes.md'))).toBe('by the agent\nand by me\n');
		await live.close();
	});

	it('/undo 2 takes back two turns, newest first; a new change leaves nothing to redo', async () => {
		const {workspace, session, live, said} = await opened({'f.txt': 'v1\n'});
		await session.runtime.runCall('write', {file_path: 'f.txt', content: 'v2\n'}, {signal});
		await session.runtime.runCall('write', {file_path: 'f.txt', content: 'v3\n'}, {signal});
		await session.runtime.runCall('read', {file_path: 'f.txt'}, {signal});
		expect(await submit(live, '/undo 2', said)).toBe('undid the file changes of the last 2 turns: f.txt');
		expect(await text(join(workspace, 'f.txt'))).toBe('v1\n');
		await session.runtime.runCall('write', {file_path: 'g.txt', content: 'new\n'}, {signal});
		expect(await submit(live, '/redo', said)).toBe('nothing to redo: no undo since the last change');
		expect(await submit(live, '/undo 0', said)).toBe('usage: /undo [N] (N: 1 to 100 turns)');
		await live.close();
	});

	it('continues a saved session: its changes can still be undone', async () => {
		const {workspace, logPath, shadowDir, session, live} = await opened({'f.txt': 'old\n'});
		await session.runtime.runCall('edit', {file_path: 'f.txt', old_string: 'old', new_string: 'new'}, {signal});
		await session.runtime.runCall('bash', {command: 'printf "made\\n" > made.txt', description: 'make a file'}, {signal});
		await live.close();
		const {events} = await replayed(logPath, workspace);
		const again = await openSession({cwd: workspace, logPath, history: events});
		// The snapshots of the first run's turns are in the shadow repository still.
		const undo = nativeUndo(again, workspace, shadowDir);
		expect(await undo.undo()).toEqual({tone: 'info', message: 'undid the file changes of the last turn: made.txt'});
		expect(await exists(join(workspace, 'made.txt'))).toBe(false);
		expect(await undo.undo()).toEqual({tone: 'info', message: 'undid the file changes of the last turn: f.txt'});
		expect(await text(join(workspace, 'f.txt'))).toBe('old\n');
		await again.close();
	});

	it('takes back what a shell command changed, beside the edits of its turn, and says which came from commands', async () => {
		const {workspace, logPath, session, live, said} = await opened({'app.ts': 'one\ntwo\n', 'lib.ts': 'a = 1\n', 'gone.txt': 'keep me\n'});
		await session.runtime.turn(async step => {
			await step.call('edit', {file_path: 'lib.ts', old_string: '1', new_string: '2'}, {signal});
			await step.call('bash', {command: 'printf "one\\nTWO\\n" > app.ts && printf "built\\n" > out.txt && rm gone.txt', description: 'build'}, {signal});
		});
		expect(await text(join(workspace, 'app.ts'))).toBe('one\nTWO\n');
		expect(await submit(live, '/undo', said)).toBe('undid the file changes of the last turn: lib.ts, app.ts, gone.txt, out.txt');
		expect(await text(join(workspace, 'app.ts'))).toBe('one\ntwo\n');
		expect(await text(join(workspace, 'lib.ts'))).toBe('a = 1\n');
		expect(await text(join(workspace, 'gone.txt'))).toBe('keep me\n');
		expect(await exists(join(workspace, 'out.txt'))).toBe(false);
		const titles = (cards: ReturnType<typeof cardsOf>) => cards.filter(card => card.name === 'cardterm_undo').map(card => card.resultView?.card === 'diff' ? card.resultView.title : undefined);
		expect(titles(cardsOf(session.fold.entries))).toEqual(['Undo edit lib.ts', 'Undo command app.ts', 'Undo command gone.txt', 'Undo command out.txt']);

		expect(await submit(live, '/redo', said)).toBe('redid the last undo: lib.ts, app.ts, gone.txt, out.txt');
		expect(await text(join(workspace, 'out.txt'))).toBe('built\n');
		expect(await exists(join(workspace, 'gone.txt'))).toBe(false);
		const liveCards = cardsOf(session.fold.entries).map(card => [card.name, card.status, card.resultView]);
		await live.close();
		const {fold} = await replayed(logPath, workspace);
		expect(cardsOf(fold.entries).map(card => [card.name, card.status, card.resultView])).toEqual(liveCards);
	});

	it('never touches the user\'s repository: its status, index, stash, refs and .git stay byte for byte', async () => {
		const {workspace, session, live, said} = await opened({'app.ts': 'one\n', 'staged.ts': 's\n', '.gitignore': 'ignored/\n'});
		const git = (...args: string[]): string => execFileSync('git', args, {cwd: workspace, env: {...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_AUTHOR_NAME: 'u', GIT_AUTHOR_EMAIL: 'u@x', GIT_COMMITTER_NAME: 'u', GIT_COMMITTER_EMAIL: 'u@x'}, encoding: 'utf8'});
		git('add', '.');
		git('commit', '--quiet', '-m', 'first');
		await writeFile(join(workspace, 'app.ts'), 'stashed\n');
		git('stash', '--quiet');
		await writeFile(join(workspace, 'staged.ts'), 's2\n');
		git('add', 'staged.ts');
		await writeFile(join(workspace, 'untracked.txt'), 'mine\n');
		const gitTree = async (): Promise<string> => execFileSync('sh', ['-c', 'find .git -type f | sort | xargs sha256sum'], {cwd: workspace, encoding: 'utf8'});
		const before = {status: git('status', '--porcelain=v1', '--ignored'), stash: git('stash', 'list'), refs: git('for-each-ref'), files: await gitTree()};

		await session.runtime.turn(async step => {
			await step.call('bash', {command: 'printf "two\\n" >> app.ts && mkdir -p ignored && printf "x\\n" > ignored/cache && printf "new\\n" > made.ts', description: 'change'}, {signal});
		});
		expect(await submit(live, '/undo', said)).toBe('undid the file changes of the last turn: app.ts, made.ts');
		expect(await text(join(workspace, 'ignored/cache'))).toBe('x\n');
		await rm(join(workspace, 'ignored'), {recursive: true});
		await live.close();
		expect({status: git('status', '--porcelain=v1', '--ignored'), stash: git('stash', 'list'), refs: git('for-each-ref'), files: await gitTree()}).toEqual(before);
		expect(before.status).toBe('M  staged.ts\n?? untracked.txt\n');
	});

	it('without git, takes back edits and writes and says that commands\' changes are not', async () => {
		const {workspace, session, live, said} = await opened({'f.txt': 'old\n'}, {noGit: true});
		await session.runtime.runCall('edit', {file_path: 'f.txt', old_string: 'old', new_string: 'new'}, {signal});
		expect(await submit(live, '/undo', said)).toMatch(/^undid the file changes of the last turn: f.txt \(no git \(.*\): what shell commands changed is not taken back, only edits and writes\)$/);
		expect(await text(join(workspace, 'f.txt'))).toBe('old\n');
		await live.close();
	});

	/** A turn that starts with the person's message, then runs `calls`. */
	async function personTurn(session: OpenedSession, text: string, calls: ReadonlyArray<readonly [string, unknown]>): Promise<void> {
		await session.runtime.turn(async step => {
			session.log.emit({type: 'user/message', data: {id: `u-${text}`, role: 'user', content: [{type: 'text', text}], source: {kind: 'user'}}, surfaceOp: 'append'});
			for (const [name, args] of calls) {
				await step.call(name, args, {signal});
			}
		});
	}

	async function twoTurns(): Promise<Opened> {
		const opened_ = await opened({'app.ts': 'one\ntwo\n'});
		await personTurn(opened_.session, 'make a', [['write', {file_path: 'a.txt', content: 'A\n'}]]);
		await personTurn(opened_.session, 'change app\nplease', [['edit', {file_path: 'app.ts', old_string: 'two', new_string: 'TWO'}], ['bash', {command: 'printf "b\\n" > b.txt', description: 'b'}]]);
		return opened_;
	}

	it('/rewind lists the person\'s messages, and N files takes back every change since message N', async () => {
		const {workspace, logPath, session, live, said} = await twoTurns();
		expect(await submit(live, '/rewind', said)).toBe('your messages (/rewind N [both|conversation|files] goes back to just before N):\n  1  make a\n  2  change app');
		expect(await submit(live, '/rewind 2 files', said)).toBe('undid the file changes of the last turn: app.ts, b.txt');
		expect(await text(join(workspace, 'app.ts'))).toBe('one\ntwo\n');
		expect(await exists(join(workspace, 'b.txt'))).toBe(false);
		expect(await text(join(workspace, 'a.txt'))).toBe('A\n');
		expect(live.next).toBeUndefined();
		const liveCards = cardsOf(session.fold.entries).map(card => [card.name, card.status, card.resultView]);
		await live.close();
		const {fold} = await replayed(logPath, workspace);
		expect(cardsOf(fold.entries).map(card => [card.name, card.status, card.resultView])).toEqual(liveCards);
	});

	it('/rewind N (both) takes the files back and goes on in a fork that ends before the message; the old log keeps every event', async () => {
		const {workspace, logPath, live, said} = await twoTurns();
		const before = (await replayed(logPath, workspace)).events;
		const messageSeq = before.find(event => event.type === 'user/message')!.seq;
		const first = said().length;
		live.submit('/rewind 1');
		await until(() => live.next !== undefined && said().length >= first + 2);
		// Two lines, in order (the second may follow the first before a poll sees it alone).
		expect(said()[first]).toBe('undid the file changes of the last 2 turns: a.txt, app.ts, b.txt');
		expect(said().at(-1)).toMatch(/^rewound the conversation to before message 1: session \S+, a fork of this one \(which stays as it was\)$/);
		expect(await exists(join(workspace, 'a.txt'))).toBe(false);
		expect(await text(join(workspace, 'app.ts'))).toBe('one\ntwo\n');
		const fork = live.next!;
		expect(fork.header).toMatchObject({parentSession: (await openSessionLog(logPath)).header.id, origin: 'fork', forkEntry: messageSeq});
		expect(fork.events.every(event => event.seq < messageSeq)).toBe(true);
		// The old log: every event it had, then the undo turn appended.
		const after = (await replayed(logPath, workspace)).events;
		expect(after.slice(0, before.length)).toEqual(before);
		expect(after.slice(before.length).some(event => event.type === 'tool/call' && event.data.name === 'cardterm_undo')).toBe(true);
		const forked = await replayed(fork.path, workspace);
		expect(forked.events).toEqual(fork.events);
	});

	it('/rewind N conversation leaves the files; /fork goes on in a fork of the whole conversation', async () => {
		const first = await twoTurns();
		await submit(first.live, '/rewind 2 conversation', first.said);
		await until(() => first.live.next !== undefined);
		expect(await text(join(first.workspace, 'app.ts'))).toBe('one\nTWO\n');
		expect(first.live.next!.events.filter(event => event.type === 'user/message').map(event => event.seq)).toHaveLength(1);

		const second = await twoTurns();
		expect(await submit(second.live, '/fork', second.said)).toMatch(/^forked into session \S+ \(\d+ events\); this session stays as it was$/);
		await until(() => second.live.next !== undefined);
		const whole = (await replayed(second.logPath, second.workspace)).events;
		expect(second.live.next!.events).toEqual(whole);
		expect(second.live.next!.header.forkEntry).toBeUndefined();
	});

	it('snapshots no folder that is not a git work tree (a home folder is not copied whole), and says so', async () => {
		const workspace = await mkdtemp(join(tmpdir(), 'cardterm-undo-plain-'));
		await writeFile(join(workspace, 'f.txt'), 'old\n');
		const session = await openSession({cwd: workspace});
		const undo = nativeUndo(session, workspace, join(await mkdtemp(join(tmpdir(), 'cardterm-undo-data-')), 'shadow'));
		await session.runtime.runCall('edit', {file_path: 'f.txt', old_string: 'old', new_string: 'new'}, {signal});
		expect(await undo.undo()).toEqual({tone: 'info', message: 'undid the file changes of the last turn: f.txt (no git repository here: what shell commands changed is not taken back, only edits and writes)'});
		await undo.close();
		await session.close();
	});
});

describe('u in the pager: one card taken back alone', () => {
	const callOf = (session: OpenedSession, path: string): string => cardsOf(session.fold.entries).find(card => card.name === 'edit' && (card.args as {file_path?: string}).file_path === path)!.callId;

	it('previews the undo card without writing, then takes back that card alone; the turn\'s /undo leaves it; live == replay', async () => {
		const {workspace, logPath, session, live, said} = await opened({'app.ts': 'one\ntwo\nthree\n', 'lib.ts': 'a\n'});
		await session.runtime.turn(async step => {
			await step.call('edit', {file_path: 'app.ts', old_string: 'two', new_string: 'TWO'}, {signal});
			await step.call('edit', {file_path: 'lib.ts', old_string: 'a', new_string: 'A'}, {signal});
		});
		const callId = callOf(session, 'app.ts');

		const preview = await live.cardUndo!.preview(callId);
		expect(preview.ok).toBe(true);
		const [card] = preview.ok ? preview.cards : [];
		expect(card?.resultView).toEqual({card: 'diff', title: 'Undo edit app.ts', diffs: [expect.objectContaining({path: 'app.ts'})]});
		expect(JSON.stringify(card?.resultView)).toMatch(/TWO[\s\S]*two/);
		// A preview writes nothing and appends nothing.
		expect(await text(join(workspace, 'app.ts'))).toBe('one\nTWO\nthree\n');
		expect(cardsOf(session.fold.entries).some(entry => entry.name === 'cardterm_undo')).toBe(false);

		expect(await live.cardUndo!.apply(callId)).toEqual({tone: 'info', message: 'undid the edit of app.ts (that card alone): app.ts'});
		expect(said().at(-1)).toBe('undid the edit of app.ts (that card alone): app.ts');
		expect(await text(join(workspace, 'app.ts'))).toBe('one\ntwo\nthree\n');
		expect(await text(join(workspace, 'lib.ts'))).toBe('A\n');
		expect(await live.cardUndo!.preview(callId)).toEqual({ok: false, message: expect.stringContaining('cannot undo this card alone: this card was taken back already') as string});

		// The turn's /undo takes back what is left of it, not the card taken back already.
		expect(await submit(live, '/undo', said)).toBe('undid the file changes of the last turn: lib.ts');
		expect(await text(join(workspace, 'app.ts'))).toBe('one\ntwo\nthree\n');
		expect(await text(join(workspace, 'lib.ts'))).toBe('a\n');

		const shown = (entry: ReturnType<typeof cardsOf>[number]) => ({name: entry.name, args: entry.args, status: entry.status, resultView: entry.resultView});
		const liveCards = cardsOf(session.fold.entries).map(entry => shown(entry));
		await live.close();
		const {fold, events} = await replayed(logPath, workspace);
		expect(cardsOf(fold.entries).map(entry => shown(entry))).toEqual(liveCards);
		expect(liveCards.filter(entry => entry.name === 'cardterm_undo').map(entry => entry.resultView?.card === 'diff' ? entry.resultView.title : undefined)).toEqual(['Undo edit app.ts', 'Undo edit lib.ts']);
		// The undo card of the pager is the one the preview showed.
		expect(liveCards.find(entry => entry.name === 'cardterm_undo')?.resultView).toEqual(card?.resultView);

		// The history read back from the log knows the card was taken back alone.
		const history = new ChangeHistory();
		for (const event of events) {
			history.apply(event);
		}

		expect(history.cardGroup(callId)).toEqual({unavailable: expect.stringContaining('taken back already') as string});

		const conversation = new Conversation();
		for (const event of events) {
			conversation.apply(event);
		}

		const notes = conversation.messages().filter(message => message.role === 'user').map(message => (message as {text: string}).text);
		expect(notes[0]).toContain('The person undid the edit of app.ts (that card alone). These files are now as they were before:\n- app.ts: its edit taken back');
	});

	it('refuses a card whose file changed after it, naming the file and the lines, and loses no byte', async () => {
		const {workspace, session, live} = await opened({'app.ts': 'a\nb\nc\nd\ne\nf\ng\n'});
		await session.runtime.runCall('edit', {file_path: 'app.ts', old_string: 'd', new_string: 'D'}, {signal});
		const byHand = 'a\nb\nc\nD by hand\ne\nf\ng\n';
		await writeFile(join(workspace, 'app.ts'), byHand);
		const callId = callOf(session, 'app.ts');
		const preview = await live.cardUndo!.preview(callId);
		expect(preview).toEqual({ok: false, message: expect.stringContaining('undo refused: cannot take back the edit of app.ts: the file changed after it') as string});
		expect(preview.ok ? '' : preview.message).toContain('    + D by hand');
		expect(await live.cardUndo!.apply(callId)).toEqual({tone: 'error', message: expect.stringContaining('undo refused: cannot take back the edit of app.ts') as string});
		expect(await text(join(workspace, 'app.ts'))).toBe(byHand);
		expect(cardsOf(session.fold.entries).some(entry => entry.name === 'cardterm_undo')).toBe(false);
		await live.close();
	});

	it('/redo puts a card taken back alone back in place', async () => {
		const {workspace, session, live, said} = await opened({'app.ts': 'one\ntwo\n'});
		await session.runtime.runCall('edit', {file_path: 'app.ts', old_string: 'two', new_string: 'TWO'}, {signal});
		await live.cardUndo!.apply(callOf(session, 'app.ts'));
		expect(await text(join(workspace, 'app.ts'))).toBe('one\ntwo\n');
		expect(await submit(live, '/redo', said)).toBe('redid the last undo: app.ts');
		expect(await text(join(workspace, 'app.ts'))).toBe('one\nTWO\n');
		await live.close();
	});

	it('names why a card that changed no file cannot be taken back alone', async () => {
		const {session, live} = await opened({'app.ts': 'a\n'});
		await session.runtime.runCall('read', {file_path: 'app.ts'}, {signal});
		const read = cardsOf(session.fold.entries).find(entry => entry.name === 'read')!;
		expect(await live.cardUndo!.preview(read.callId)).toEqual({ok: false, message: 'cannot undo this card alone: only an edit or a write that changed a file can be taken back alone (/undo takes back a turn, commands included)'});
		await live.close();
	});
});
