import {rmSync} from 'node:fs';
import {afterEach, describe, expect, it} from 'vitest';
import {main} from '../../../src/cli/main.js';
import {referencePresenters} from '../../../src/acp/reference-presenters.js';
import {cardsOf} from '../../../src/presentation/entry.js';
import {childOfCard, findChildSessions} from '../../../src/session/store/child-sessions.js';
import {SessionFold} from '../../../src/session/fold/fold.js';
import {openSessionLog} from '../../../src/session/reader/read-session-log.js';
import {NAMED_CHILD, PARENT_ID, TIMED_CHILD, writeSubagentTree} from '../../session/subagent-fixture.js';
import {fakeIo} from '../cli-io-fake.js';

const roots: string[] = [];
afterEach(() => {
	for (const root of roots.splice(0)) {
		rmSync(root, {recursive: true, force: true});
	}
});

function tree() {
	const made = writeSubagentTree();
	roots.push(made.root);
	return made;
}

async function print(file: string, ...flags: string[]): Promise<string> {
	const io = fakeIo();
	expect(await main(['replay', file, '--print', '--width', '80', '--no-color', ...flags], io)).toBe(0);
	expect(io.err()).toBe('');
	return io.out();
}

describe('child sessions of subagent cards', () => {
	it('finds the children beside the parent (not another parent\'s, not an unrelated session) and matches each card with its own', async () => {
		const {parentLog} = tree();
		const log = await openSessionLog(parentLog);
		const fold = new SessionFold(referencePresenters('/tmp/proj'));
		for await (const event of log.events) {
			fold.apply(event);
		}

		const children = await findChildSessions(parentLog, log.header);
		expect(children.map(child => child.id)).toEqual([TIMED_CHILD, NAMED_CHILD]);
		const cards = cardsOf(fold.entries);
		expect(cards.map(card => [card.callId, childOfCard(card, children)?.id])).toEqual([
			['sub-timed', TIMED_CHILD],
			['sub-named', NAMED_CHILD],
			['sub-missing', undefined],
		]);
	});

	it('a log that is not in a session folder of its own has no children', async () => {
		const {parentLog} = tree();
		expect(await findChildSessions(parentLog.replace('session.jsonl', 'other.jsonl'), {type: 'session', version: 0, id: PARENT_ID, createdAt: 0})).toEqual([]);
	});

	it('replay --print --expand all inlines each child\'s transcript indented under its card, and says in one dim line that a child is missing', async () => {
		const {parentLog} = tree();
		const out = await print(parentLog, '--expand', 'all');
		const lines = out.split('\n');
		const timed = lines.findIndex(line => line.includes(`↳ child session ${TIMED_CHILD}`));
		expect(timed).toBeGreaterThan(0);
		expect(lines.slice(0, timed).join('\n')).toContain('Check direct child');
		// The child's transcript follows, behind the gutter: its prompt and its answer.
		const inlined = lines.slice(timed + 1, timed + 12).filter(line => line.startsWith('  │ '));
		expect(inlined.join('\n')).toContain('Reply with exactly DIRECT_CHILD_OK');
		expect(inlined.join('\n')).toContain('DIRECT_CHILD_OK');
		expect(out).toContain(`↳ child session ${NAMED_CHILD}`);
		expect(out).toMatch(/ {2}│ .*The code is fine\./);
		expect(out.match(/↳ child session not found beside this log/g)).toHaveLength(1);
		expect(out).not.toContain('NOT_MINE');
		expect(out).not.toContain('unrelated');
		// The parent's own answer still comes after its cards.
		expect(out.indexOf('Both helpers answered.')).toBeGreaterThan(out.indexOf('not found beside this log'));
	});

	it('without --expand all a found child is one row naming it, and nothing of it is inlined', async () => {
		const {parentLog} = tree();
		const out = await print(parentLog);
		expect(out).toContain(`↳ child session ${TIMED_CHILD}`);
		expect(out).toContain('↳ child session not found beside this log');
		expect(out).not.toContain('  │ ');
		expect(out).not.toContain('The code is fine.');
	});

	it('--json is unchanged by children: one object per entry of the parent', async () => {
		const {parentLog} = tree();
		const io = fakeIo();
		expect(await main(['replay', parentLog, '--json'], io)).toBe(0);
		const entries = io.out().trim().split('\n').map(line => JSON.parse(line) as {entry: string});
		expect(entries.map(entry => entry.entry)).toEqual(['user', 'card', 'card', 'card', 'assistant', 'turn']);
	});
});
