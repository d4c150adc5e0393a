import {describe, expect, test} from 'vitest';
import {langFromPath} from '../../src/presentation/lang-from-path.js';

describe('langFromPath', () => {
	test('maps the last extension, case-insensitive, by the contract.md §E2.3 table', () => {
		const cases: Record<string, string | undefined> = {
			'a.ts': 'ts',
			'src/a.ts': 'ts',
			'A.MTS': 'ts',
			'a.TSX': 'tsx',
			'a.mts': 'ts',
			'a.cjs': 'js',
			'a.jsonc': 'json',
			'a.h': 'c',
			'a.hpp': 'cpp',
			'lib/h.hpp': 'cpp',
			'a.kt': 'kotlin',
			'a.zsh': 'sh',
			'a.yml': 'yaml',
			'a.markdown': 'md',
			'a.htm': 'html',
			'a.lua': 'lua',
			'C:\\src\\a.py': 'py',
		};
		expect(Object.fromEntries(Object.keys(cases).map((name) => [name, langFromPath(name)]))).toEqual(cases);
	});

	test('dotfiles, bare names, a trailing dot, a dot only in a folder and unknown extensions have no lang', () => {
		const names = ['dir.d/a.tar.gz', '.gitignore', '.bashrc', 'Makefile', 'trailing.', 'x.', 'a.b/c', 'x.weird', 'x.kotlin', 'x.constructor', 'x.__proto__'];
		expect(names.map((name) => langFromPath(name))).toEqual(names.map(() => undefined));
	});
});
