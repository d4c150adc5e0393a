import {describe, expect, it} from 'vitest';
import {ATTENTION_TEXT_LIMIT, notificationOutput, oscText, RESTORE_TITLE, titleOutput, tmuxPassthrough} from '../../../src/layout/terminal/attention-output.js';
import {HOSTILE_FRAGMENTS} from '../../reliability/hostile-text.js';

const osc9 = {signal: 'osc9', tmux: false, title: true} as const;

/** Whether `output` holds one control string and nothing a text could have opened or closed early. */
function controlsOf(output: string): string[] {
	return [...output.matchAll(/[\u0000-\u001F\u007F-\u009F]/g)].map(match => match[0]);
}

describe('notification and title bytes', () => {
	it('writes OSC 9, OSC 777 and the bell as terminals take them', () => {
		expect(notificationOutput(osc9, 'cardterm', 'done')).toBe('\u001B]9;cardterm: done\u0007');
		expect(notificationOutput({...osc9, signal: 'osc777'}, 'cardterm', 'done')).toBe('\u001B]777;notify;cardterm;done\u0007');
		expect(notificationOutput({...osc9, signal: 'bel'}, 'cardterm', 'done')).toBe('\u0007');
		// tmux rings its own bell: never wrapped.
		expect(notificationOutput({signal: 'bel', tmux: true, title: true}, 'cardterm', 'done')).toBe('\u0007');
	});

	it('wraps an OSC for tmux\'s passthrough with every ESC doubled', () => {
		expect(notificationOutput({...osc9, tmux: true}, 'cardterm', 'done')).toBe('\u001BPtmux;\u001B\u001B]9;cardterm: done\u0007\u001B\\');
		expect(tmuxPassthrough('\u001B]9;a\u001B\\')).toBe('\u001BPtmux;\u001B\u001B]9;a\u001B\u001B\\\u001B\\');
	});

	it('lets no control byte of a hostile text into a notification or a title', () => {
		for (const fragment of [...HOSTILE_FRAGMENTS, '\u0007\u001B]0;x\u001B\\\u009C\u009D\u0090', ';777;notify;x']) {
			for (const signal of ['osc9', 'osc777'] as const) {
				const output = notificationOutput({signal, tmux: false, title: true}, `t${fragment}`, `b${fragment}`);
				// Only the introducer's ESC and the closing BEL.
				expect(controlsOf(output), JSON.stringify(fragment)).toEqual(['\u001B', '\u0007']);
				// OSC 777's fields stay three: notify, title, body.
				expect(output.split(';').length).toBe(signal === 'osc777' ? 4 : 2);
			}

			expect(controlsOf(titleOutput(fragment))).toEqual(['\u001B', '\u0007']);
		}
	});

	it('cuts a long text', () => {
		expect(Array.from(oscText('x'.repeat(10_000)))).toHaveLength(ATTENTION_TEXT_LIMIT);
		expect(oscText('é'.repeat(500)).endsWith('…')).toBe(true);
	});

	it('restores the title: an empty one, then the pop of the title stack', () => {
		expect(RESTORE_TITLE).toBe('\u001B]0;\u0007\u001B[23;0t');
	});
});
