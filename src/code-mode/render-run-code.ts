/**
@module Model-facing text of a `run_code` result (contract.md §T6.2): the captured log lines,
then the returned value; `(run_code completed with no output)` when both are empty.
*/
import type {JsonValue} from '../json/json-value.js';
import type {ContentBlock} from '../tools/content.js';

/** The canonical value of `run_code`. `result` is absent when the program returned `undefined`. */
export type RunCodeValue = {readonly logs: readonly string[]; readonly result?: JsonValue};

/** Containers at this depth or deeper print compactly (their children would need more than 10 indent characters). */
const compactDepth = 5;

/**
A returned value as text: strings raw, everything else as 2-space indented JSON in which any
container at depth ≥ 5 is printed compactly, so deep values stay linear in size.
*/
export function formatRunCodeResult(value: JsonValue): string {
	return typeof value === 'string' ? value : formatJson(value, 0);
}

function formatJson(value: JsonValue, depth: number): string {
	if (value === null || typeof value !== 'object') {
		return JSON.stringify(value);
	}

	if (depth >= compactDepth) {
		return JSON.stringify(value);
	}

	const inner = '  '.repeat(depth + 1);
	const outer = '  '.repeat(depth);
	if (Array.isArray(value)) {
		return value.length === 0 ? '[]' : `[\n${value.map(item => inner + formatJson(item, depth + 1)).join(',\n')}\n${outer}]`;
	}

	const keys = Object.keys(value);
	return keys.length === 0
		? '{}'
		: `{\n${keys.map(key => `${inner}${JSON.stringify(key)}: ${formatJson(value[key]!, depth + 1)}`).join(',\n')}\n${outer}}`;
}

/** `output.render` of `run_code`. */
export function renderRunCode(value: RunCodeValue): ContentBlock[] {
	const parts = [value.logs.join('\n'), value.result === undefined ? '' : formatRunCodeResult(value.result)].filter(part => part !== '');
	return [{type: 'text', text: parts.length === 0 ? '(run_code completed with no output)' : parts.join('\n')}];
}
