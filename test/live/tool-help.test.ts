import {mkdtemp, writeFile, chmod} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {completeProgram, completeShellWord} from '../../src/live/complete.js';
import {toolHelpLines, toolListLines, toolParameters} from '../../src/live/tool-help.js';
import {lineText} from '../../src/layout/text/spans.js';
import {candidateHint} from '../../components/StatusLine.js';

const tool = {
	name: 'demo',
	description: 'Does a demo thing.\nSecond line of detail.',
	parameters: {
		type: 'object',
		properties: {
			path: {type: 'string', description: 'Where to look'},
			limit: {type: 'integer'},
			mode: {enum: ['fast', 'slow'], description: 'How'},
			tags: {type: 'array', items: {type: 'string'}},
		},
		required: ['path'],
	},
};

describe('tool help from the schema', () => {
	it('reads each parameter: name, type, required, description', () => {
		expect(toolParameters(tool)).toEqual([
			{name: 'path', type: 'string', required: true, description: 'Where to look'},
			{name: 'limit', type: 'integer', required: false, description: ''},
			{name: 'mode', type: '"fast" | "slow"', required: false, description: 'How'},
			{name: 'tags', type: 'string[]', required: false, description: ''},
		]);
	});

	it('shows the whole description and aligned parameter rows for /help TOOL, the first line for /tools', () => {
		const help = toolHelpLines(tool).map(line => lineText(line));
		expect(help).toEqual([
			'demo  call it as: demo {json}',
			'  Does a demo thing.',
			'  Second line of detail.',
			'Parameters',
			'  path   string           required  Where to look',
			'  limit  integer          optional  ',
			'  mode   "fast" | "slow"  optional  How',
			'  tags   string[]         optional  ',
		]);
		const list = toolListLines([tool, {name: 'bare', description: 'No args.', parameters: {type: 'object'}}]).map(line => lineText(line));
		expect(list[1]).toBe('  demo  Does a demo thing.');
		expect(list).toContain('      no parameters');
	});
});

describe('completion after !', () => {
	it('completes the first word from the programs on PATH, executables only, once each', async () => {
		const one = await mkdtemp(join(tmpdir(), 'cardterm-path-'));
		const two = await mkdtemp(join(tmpdir(), 'cardterm-path-'));
		for (const [folder, name, mode] of [[one, 'zzgit', 0o755], [one, 'zzgrep', 0o644], [two, 'zzgit', 0o755], [two, 'zzgo', 0o755]] as const) {
			// eslint-disable-next-line no-await-in-loop -- four fixture files
			await writeFile(join(folder, name), '#!/bin/sh\n');
			// eslint-disable-next-line no-await-in-loop -- four fixture files
			await chmod(join(folder, name), mode);
		}

		const path = `${one}:${two}`;
		expect(await completeProgram('zzg', path)).toEqual(['zzgit', 'zzgo']);
		expect(await completeShellWord('!zzgi', true, one, path)).toEqual(['!zzgit']);
		// After the first word, paths again.
		expect(await completeShellWord('zzgr', false, one, path)).toEqual(['zzgrep']);
	});
});

describe('candidateHint', () => {
	it('shows the candidates that fit and says how many more there are', () => {
		const words = ['/read', '/grep', '/glob', '/fetch', '/search', '/write', '/edit', '/jobs'];
		const hint = candidateHint(words, 40);
		expect(hint).toBe('/read  /grep  /glob  /fetch  … 4 more');
		expect(hint.length).toBeLessThanOrEqual(40);
		expect(candidateHint(words, 200)).toBe(words.join('  '));
	});
});
