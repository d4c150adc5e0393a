import {describe, expect, it} from 'vitest';
import {computeHunks} from '../../../src/builtin/fs/hunks.js';
import {reverseHunks} from '../../../src/builtin/fs/reverse-hunks.js';

/** A small pseudo-random generator, so a failure names its seed. */
function random(seed: number): () => number {
	let state = seed;
	return () => {
		state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
		return state / 2_147_483_648;
	};
}

function lines(next: () => number, count: number): string[] {
	return Array.from({length: count}, () => ['alpha', 'beta', 'gamma', '', '  }', 'delta'][Math.floor(next() * 6)]!);
}

describe('reverseHunks', () => {
	it('takes back an edit in the middle of a file', () => {
		const before = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n';
		const after = before.replace('four', 'FOUR\nFOUR-B');
		expect(reverseHunks(after, computeHunks('f.txt', before, after))).toEqual({ok: true, text: before});
	});

	it('restores 400 random changes exactly (a newline at the end kept as it was)', () => {
		for (let seed = 1; seed <= 400; seed++) {
			const next = random(seed);
			const base = lines(next, Math.floor(next() * 30));
			const changed = [...base];
			for (let edits = Math.floor(next() * 4) + 1; edits > 0; edits--) {
				const at = Math.floor(next() * (changed.length + 1));
				changed.splice(at, Math.floor(next() * 3), ...lines(next, Math.floor(next() * 3)));
			}

			const before = base.length === 0 ? '' : `${base.join('\n')}\n`;
			const after = changed.length === 0 ? '' : `${changed.join('\n')}\n`;
			const reversed = reverseHunks(after, computeHunks('f.txt', before, after));
			expect(reversed, `seed ${seed}`).toEqual({ok: true, text: before});
		}
	});

	it('applies where lines were added above the change since', () => {
		const before = 'a\nb\nc\nd\ne\nf\ng\nh\ni\n';
		const after = before.replace('f', 'F');
		const later = `header 1\nheader 2\n${after}`;
		expect(reverseHunks(later, computeHunks('f.txt', before, after))).toEqual({ok: true, text: `header 1\nheader 2\n${before}`});
	});

	it('refuses when the changed lines were changed again, naming the lines', () => {
		const before = 'a\nb\nc\nd\ne\n';
		const after = before.replace('c', 'C');
		const later = after.replace('C', 'C by hand');
		const reversed = reverseHunks(later, computeHunks('src/f.txt', before, after));
		expect(reversed).toEqual({ok: false, conflict: {path: 'src/f.txt', line: 1, expected: ['a', 'b', 'C', 'd', 'e'], found: ['a', 'b', 'C by hand', 'd', 'e']}});
	});

	it('takes back a newline added at the end of the last line', () => {
		expect(reverseHunks('a\nb\n', computeHunks('f', 'a\nb', 'a\nb\n'))).toEqual({ok: true, text: 'a\nb'});
		expect(reverseHunks('a\nb', computeHunks('f', 'a\nb\n', 'a\nb'))).toEqual({ok: true, text: 'a\nb\n'});
	});

	it('fills an emptied file again', () => {
		expect(reverseHunks('', computeHunks('f', 'x\ny\n', ''))).toEqual({ok: true, text: 'x\ny\n'});
	});

	it('without recorded line numbers (an older log), applies only at a single place', () => {
		const strip = (text: string, before: string) => computeHunks('f', before, text).map(({path, oldText, newText}) => ({path, oldText, newText}));
		expect(reverseHunks('x\nY\nz\n', strip('x\nY\nz\n', 'x\ny\nz\n'))).toEqual({ok: true, text: 'x\ny\nz\n'});
		expect(reverseHunks('p\np\n', [{path: 'f', oldText: 'q', newText: 'p'}]).ok).toBe(false);
	});
});
