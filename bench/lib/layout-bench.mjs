// Layout of one card snapshot (layoutCard + serializing the styled rows, as a snapshot file holds
// them) against the floor of splitting the same card's plain text into lines.
//   node bench/lib/layout-bench.mjs CARDS
import {layoutCard} from '../../dist/src/layout/cards/layout-card.js';
import {cardsOf} from '../../dist/src/presentation/entry.js';
import {renderLines} from '../../dist/src/layout/terminal/render-lines.js';
import {colorTheme, monochromeTheme} from '../../dist/src/layout/text/theme.js';
import {foldCards} from './cards.mjs';

const count = Number(process.argv[2] ?? 300);
const cards = cardsOf(foldCards({count}).entries).filter((card) => card.status !== 'running').slice(0, count);
const options = {width: 100, theme: colorTheme, now: 1_790_000_000_000, sessionCwd: '/home/u/proj', expansion: 'full'};
const texts = cards.map((card) => renderLines(layoutCard(card, {...options, theme: monochromeTheme}), {color: false, hyperlinks: false}));
const layout = [];
const split = [];
for (let round = 0; round < 3; round++) {
	for (const [index, card] of cards.entries()) {
		const fresh = {...card, callId: `${card.callId}#${round}`};
		let started = performance.now();
		JSON.stringify(layoutCard(fresh, options));
		const spent = performance.now() - started;
		started = performance.now();
		texts[index].split('\n');
		const floor = performance.now() - started;
		// Round 0 warms the JIT up and is discarded.
		if (round > 0) {
			layout.push(spent);
			split.push(floor);
		}
	}
}

process.stdout.write(`${JSON.stringify({layout, split, rows: texts.reduce((sum, text) => sum + text.split('\n').length, 0) / texts.length})}\n`);
