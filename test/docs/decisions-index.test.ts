/**
docs/decisions.md is the index of the topic files under docs/decisions/: every file there has its
line in the index (old links to docs/decisions.md land on it, and a topic added in parallel must be
listed), every line names a file that exists, and each file says its status first.
*/
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {join, resolve} from 'node:path';
import {describe, expect, it} from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const index = readFileSync(join(root, 'docs/decisions.md'), 'utf8');
const topics = readdirSync(join(root, 'docs/decisions')).filter(name => name.endsWith('.md')).sort();
const listed = [...index.matchAll(/^- \[[^\]]+\]\(decisions\/([^)]+)\)/gm)].map(match => match[1]!);

describe('the decisions index', () => {
	it('lists every topic file once, and only files that exist', () => {
		expect(topics.length).toBeGreaterThan(5);
		expect([...listed].sort()).toEqual(topics);
		expect(listed.filter(name => !existsSync(join(root, 'docs/decisions', name)))).toEqual([]);
	});

	it('has each topic file open with its title and a one-line status', () => {
		const without = topics.filter(name => {
			const [title, blank, status] = readFileSync(join(root, 'docs/decisions', name), 'utf8').split('\n');
			return !title!.startsWith('# ') || blank !== '' || !/^Status: \S/.test(status!);
		});
		expect(without).toEqual([]);
	});

	it('stays an index: one line per topic, not entries', () => {
		expect(index.split('\n').length).toBeLessThan(40);
		expect(index).not.toMatch(/^- \*\*/m);
	});
});
