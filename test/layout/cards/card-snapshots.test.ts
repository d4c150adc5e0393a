import {readdirSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {describe, expect, it} from 'vitest';
import {layoutCard} from '../../../src/layout/cards/layout-card.js';
import {lineText} from '../../../src/layout/text/spans.js';
import {serializeFrame} from '../../../src/testing/serialize-frame.js';
import {options} from '../helpers.js';
import {frameName, snapshotCases, WIDTHS} from '../snapshot-cases.js';

const directory = fileURLToPath(new URL('../../../snapshots/cards/', import.meta.url));
const cases = snapshotCases();
const expected = new Set<string>();

describe.each(cases)('card snapshot $name', ({name, input, card, contains, expansion}) => {
	for (const width of WIDTHS) {
		for (const color of [true, false]) {
			const file = frameName(name, width, color);
			expected.add(file);
			it(`draws ${name} at ${width} columns ${color ? 'in colour' : 'without colour'}`, async () => {
				const lines = layoutCard(card, options(width, {color, ...(expansion === undefined ? {} : {expansion})}));
				const plain = lines.map(line => lineText(line)).join('\n');
				expect(plain.replaceAll('\n', '')).toContain(contains.replaceAll('\n', ''));
				const header = `# card snapshot ${name} · width ${width} · ${color ? 'colour' : 'plain'} · input: ${input}`;
				await expect(serializeFrame(lines, header)).toMatchFileSnapshot(`${directory}${file}`);
			});
		}
	}
});

describe('card snapshot inventory', () => {
	// vitest writes new frames when the file finishes: after adding a case, the first run reports it missing.
	it('holds exactly one committed frame per case, with no orphans', () => {
		const present = readdirSync(directory).filter(file => file.endsWith('.frame')).sort();
		expect({missing: [...expected].filter(file => !present.includes(file)), orphans: present.filter(file => !expected.has(file))}).toEqual({missing: [], orphans: []});
		expect(present).toHaveLength(cases.length * WIDTHS.length * 2);
	});
});
