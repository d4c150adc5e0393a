/**
@module Keys from a stream of input chunks, with bracketed paste. A terminal in paste mode
(`ESC[?2004h`) wraps pasted text in CSI 200~ … 201~, and a long paste arrives over several chunks
(Ink hands each escape sequence over as a chunk of its own), so the paste is collected across
chunks and handed over as one press with `key.paste`: text to insert, never keys to run.
*/
import {parseKeys, type KeyPress} from './keys.js';

// eslint-disable-next-line no-control-regex -- the bracketed-paste markers are escape sequences
const PASTE_START = /\u001B\[200~|\u009B200~/;
// eslint-disable-next-line no-control-regex -- the bracketed-paste markers are escape sequences
const PASTE_END = /\u001B\[201~|\u009B201~/;

export class KeyStream {
	/** The text of the paste being collected, while one is open. */
	#paste: string | undefined;

	/** Whether a paste has started and not ended yet. */
	get pasting(): boolean {
		return this.#paste !== undefined;
	}

	/** The presses completed by `chunk`, in order. */
	feed(chunk: string): KeyPress[] {
		const presses: KeyPress[] = [];
		let rest = chunk;
		while (rest !== '') {
			if (this.#paste === undefined) {
				const start = PASTE_START.exec(rest);
				for (const press of parseKeys(start === null ? rest : rest.slice(0, start.index))) {
					presses.push(press);
				}

				if (start === null) {
					break;
				}

				this.#paste = '';
				rest = rest.slice(start.index + start[0].length);
				continue;
			}

			const end = PASTE_END.exec(rest);
			this.#paste += end === null ? rest : rest.slice(0, end.index);
			if (end === null) {
				break;
			}

			rest = rest.slice(end.index + end[0].length);
			const press = this.endPaste();
			if (press !== undefined) {
				presses.push(press);
			}
		}

		return presses;
	}

	/** Ends the open paste (its end marker arrived, or never will) and returns it; none when it was empty. */
	endPaste(): KeyPress | undefined {
		const raw = this.#paste;
		this.#paste = undefined;
		const text = raw === undefined ? '' : pastedText(raw);
		return text === '' ? undefined : {input: text, key: {paste: true}};
	}
}

/**
The text of a paste: what `parseKeys` reads as text, Enter as a newline and Tab as a tab; escape
sequences and other controls in the pasted bytes are dropped, as they are when typed.
*/
export function pastedText(raw: string): string {
	let text = '';
	for (const press of parseKeys(raw)) {
		if (press.key.return) {
			text += '\n';
		} else if (press.key.tab) {
			text += '\t';
		} else if (Object.keys(press.key).length === 0) {
			text += press.input;
		}
	}

	return text;
}
