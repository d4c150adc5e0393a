/**
Other agents' session files in the real `bin/cardterm`, driven in tmux: `watch` follows a Codex
rollout as it is written (the second half appended while it watches), and the pager opens a Claude
Code transcript with its tallies. Needs tmux (CI installs it) and a built dist/ (rebuilt here when
older than the sources).
*/
import {appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, it} from 'vitest';
import {buildDist, cardtermCommand, killTmuxServer, repo, shellWord, shows, tmux, tmuxMissing} from './e2e-helpers.js';

const fixtures = join(repo, 'test/fixtures/foreign-sessions');
const fileOf = (agent: string): string => join(fixtures, agent, readdirSync(join(fixtures, agent)).find(name => name.endsWith('.jsonl'))!);

describe.skipIf(tmuxMissing)('other agents\' sessions in the pager and watch, in tmux (skipped when tmux is not installed)', () => {
	let folder = '';
	beforeAll(() => {
		buildDist();
		folder = mkdtempSync(join(tmpdir(), 'cardterm-e2e-foreign-'));
	}, 300_000);
	afterAll(() => {
		killTmuxServer();
		if (folder !== '') {
			rmSync(folder, {recursive: true, force: true});
		}
	});

	it('watch follows a Codex rollout as Codex writes it: cards as they land, the interrupted turn, the tallies', async () => {
		const lines = readFileSync(fileOf('codex'), 'utf8').trimEnd().split('\n');
		const rollout = join(folder, 'rollout.jsonl');
		// The first turn, up to its first command's result.
		const firstResult = lines.findIndex(line => line.includes('"function_call_output"'));
		writeFileSync(rollout, `${lines.slice(0, firstResult + 1).join('\n')}\n`);
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'fw', '-x', '120', '-y', '30', '-c', folder, cardtermCommand({}, 'watch', rollout).map(word => shellWord(word)).join(' '));
		await shows('following', 'fw');
		await shows('● 1 ok', 'fw');
		appendFileSync(rollout, `${lines.slice(firstResult + 1).join('\n')}\n`);
		await shows('── cancelled', 'fw');
		await shows('● 4 ok ✗ 1 failed ⊘ 1 cancelled', 'fw');
		tmux('send-keys', '-t', 'fw', 'q');
	}, 180_000);

	it('the pager opens a Claude Code transcript with its outcomes', async () => {
		tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'fp', '-x', '120', '-y', '30', '-c', folder, `${cardtermCommand({}, 'replay', fileOf('claude')).map(word => shellWord(word)).join(' ')}; sleep 30`);
		await shows('● 6 ok ✗ 1 failed ✗ 2 error ✗ 1 denied ⊘ 1 cancelled', 'fp');
		await shows('── cancelled', 'fp');
		tmux('send-keys', '-t', 'fp', 'q');
	}, 180_000);
});
