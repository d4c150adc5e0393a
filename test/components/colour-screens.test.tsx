import React from 'react';
import {render} from 'ink';
import {describe, expect, it, vi} from 'vitest';
import {asEntries} from '../../src/presentation/entry.js';
import {arrayEntrySource} from '../../src/transcript/entry-source.js';
import {colorTheme} from '../../src/layout/text/theme.js';
import type {ColorDepth} from '../../src/layout/terminal/color-depth.js';
import {Pager} from '../../components/Pager.js';
import {ColorDepthContext} from '../../components/color-depth-context.js';
import {makeCard, text} from '../layout/fixtures.js';
import {FakeStdin, FakeTty} from './harness/fake-terminal.js';
import {FROZEN_NOW} from './harness/interactive-screen.js';

// Ink's chalk detects its level on import (COLORTERM=truecolor: 3), and then writes what cardterm's
// depth mapping gives it: 256-colour indexes as they are, truecolor as it is at its level 3.
vi.hoisted(() => {
	process.env.FORCE_COLOR = '3';
	process.env.COLORTERM = 'truecolor';
});

/** `ls --color=always` (black on green), a PASS badge, and 256-colour / truecolor text. */
const output = '\u001B[30;42mtmp\u001B[0m \u001B[30;42m PASS \u001B[0m \u001B[38;5;208morange\u001B[0m \u001B[38;2;255;0;128mpink\u001B[0m';
const card = makeCard({name: 'bash', callView: {card: 'terminal', title: 'ls --color=always'}, result: {content: text('x'), view: {card: 'terminal', output, exitCode: 0}}});

/** The style runs of the output row as the emulated terminal shows them at `depth`. */
async function outputRowAt(depth: ColorDepth): Promise<string> {
	const tty = new FakeTty(80, 8);
	const stdin = new FakeStdin();
	const instance = render(
		<ColorDepthContext.Provider value={depth}>
			<Pager source={arrayEntrySource(asEntries([card]))} theme={colorTheme} title="colours" now={() => FROZEN_NOW} onExit={() => undefined} />
		</ColorDepthContext.Provider>,
		{stdout: tty as unknown as NodeJS.WriteStream, stdin: stdin as unknown as NodeJS.ReadStream, stderr: tty as unknown as NodeJS.WriteStream, exitOnCtrlC: false, patchConsole: false},
	);
	try {
		await tty.waitForText('tmp  PASS  orange pink');
		const frame = tty.frame(false);
		// The row after `tmp …` up to the next row.
		return frame.slice(frame.indexOf('"tmp  PASS'), frame.indexOf('\n3|'));
	} finally {
		instance.unmount();
	}
}

describe('tool output colours on screen', () => {
	it('keeps backgrounds and extended colours, mapped to the terminal\'s depth', async () => {
		const truecolor = await outputRowAt('truecolor');
		expect(truecolor).toContain('style 0-2 fg=black bg=green');
		expect(truecolor).toContain('style 4-9 fg=black bg=green');
		expect(truecolor).toContain('fg=#ff0080');
		expect(truecolor).toContain('fg=208');
		const palette = await outputRowAt('ansi256');
		expect(palette).toContain('style 0-2 fg=black bg=green');
		expect(palette).toContain('fg=208');
		// #ff0080 is 198 in the 256-colour cube.
		expect(palette).toContain('fg=198');
		const sixteen = await outputRowAt('ansi16');
		expect(sixteen).toContain('style 0-2 fg=black bg=green');
		expect(sixteen).not.toMatch(/fg=\d|fg=#/);
		expect(sixteen).toContain('fg=yellow');
	});
});
