/**
The README's Safety section numbers its promises, and test/reliability/README.md maps each to its
tests under the same number: both lists run 1, 2, 3 … without a gap, and have as many items, so a
promise added to one (or split, or dropped) must be added to the other.
*/
import {readFileSync} from 'node:fs';
import {join, resolve} from 'node:path';
import {describe, expect, it} from 'vitest';

const root = resolve(import.meta.dirname, '../..');

/** The numbers of the `N. **Title.**` items in `text` (from `start` to the next `## ` heading, when given). */
function promiseNumbers(text: string, start?: string): number[] {
	const from = start === undefined ? 0 : text.indexOf(start);
	expect(from).toBeGreaterThanOrEqual(0);
	const rest = text.slice(from + (start?.length ?? 0));
	const end = rest.search(/^## /m);
	return [...(end === -1 ? rest : rest.slice(0, end)).matchAll(/^(\d+)\. \*\*/gm)].map(match => Number(match[1]));
}

describe('the Safety promises', () => {
	it('are numbered alike in the README and in test/reliability/README.md', () => {
		const readme = promiseNumbers(readFileSync(join(root, 'README.md'), 'utf8'), '\n## Safety\n');
		const tests = promiseNumbers(readFileSync(join(root, 'test/reliability/README.md'), 'utf8'));
		expect(readme.length).toBeGreaterThan(10);
		expect(readme).toEqual(readme.map((_, index) => index + 1));
		expect(tests).toEqual(readme);
	});
});
