import fc from 'fast-check';
import {describe, expect, test} from 'vitest';
import {fileLinkTarget, safeLinkTarget} from '../../../src/layout/text/link-target.js';

/** The URL every file link came from before the shortcut: each segment encoded, then the URL parser. */
function parsedFileLink(absolutePath: string): string | undefined {
	return safeLinkTarget(`file://${absolutePath.split('/').map(part => encodeURIComponent(part)).join('/')}`);
}

describe('fileLinkTarget', () => {
	test('a plain path is linked to the very URL the parser gives, and any other path still goes through it', () => {
		const segment = fc.array(fc.constantFrom('a', 'Z', '0', '_', '-', '.', '..', '~', ' ', '%', '#', '?', 'é', '\u0000', '\u001B', ':', '@'), {minLength: 0, maxLength: 6}).map(parts => parts.join(''));
		fc.assert(fc.property(fc.array(segment, {minLength: 1, maxLength: 5}), segments => {
			const absolutePath = `/${segments.join('/')}`;
			expect(fileLinkTarget(absolutePath)).toBe(parsedFileLink(absolutePath));
		}), {numRuns: 5000});
	});

	test('examples: plain, dotted, normalized, encoded, relative', () => {
		expect(fileLinkTarget('/work/src/a-b.ts')).toBe('file:///work/src/a-b.ts');
		expect(fileLinkTarget('/work/.github/ci.yml')).toBe('file:///work/.github/ci.yml');
		expect(fileLinkTarget('/work/./a/../b')).toBe('file:///work/b');
		expect(fileLinkTarget('/a b/c#d')).toBe('file:///a%20b/c%23d');
		expect(fileLinkTarget('src/a.ts')).toBeUndefined();
	});
});
