import {WORDS_HINT} from './approval-keys.js';
import type {LiveSnapshot} from './session-model.js';

/**
The dim hint in an empty prompt: what typing does now (answer a dialog, a line of text, a command or
a model prompt); `placeholder` is the session model's own, `choice` the dialog's marked choice.
*/
export function promptHintOf(snapshot: Pick<LiveSnapshot, 'approval' | 'multiline' | 'modelConnected'>, placeholder?: string, choice = 0): string {
	if (snapshot.approval !== undefined) {
		return snapshot.approval.choices[choice]?.words === true ? WORDS_HINT : 'Enter answers the question above (↑↓ choose)';
	}

	if (snapshot.multiline !== undefined) {
		return `${snapshot.multiline.label}: line ${snapshot.multiline.lines + 1}, "." ends`;
	}

	if (snapshot.modelConnected === true) {
		return 'ask the model, or type !command, /help';
	}

	// A front end of its own (an ACP agent's session) says what its prompt does.
	return placeholder ?? 'type !command, /help, or TOOL {json}';
}
