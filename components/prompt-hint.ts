import {WORDS_HINT} from './approval-keys.js';
import type {LiveSnapshot} from './session-model.js';

/**
The dim hint in an empty prompt: what typing does now (answer a dialog, a line of text, the next
piece of work, a command or a model prompt); `placeholder` is the session model's own, `choice` the
dialog's marked choice.
*/
export function promptHintOf(snapshot: Pick<LiveSnapshot, 'approval' | 'multiline' | 'modelConnected' | 'running' | 'turn'>, placeholder?: string, choice = 0): string {
	if (snapshot.approval !== undefined) {
		return snapshot.approval.choices[choice]?.words === true ? WORDS_HINT : 'Enter answers the question above (↑↓ choose)';
	}

	if (snapshot.multiline !== undefined) {
		return `${snapshot.multiline.label}: line ${snapshot.multiline.lines + 1}, "." ends`;
	}

	if (snapshot.turn !== undefined || snapshot.running.length > 0) {
		// Enter queues what is typed now (it shows above the prompt until its turn comes).
		return snapshot.modelConnected === true || placeholder !== undefined ? 'the next message waits for this turn · Esc cancels' : 'the next command waits for this one · Esc cancels';
	}

	if (snapshot.modelConnected === true) {
		return 'ask the model, or type !command, /help';
	}

	// A front end of its own (an ACP agent's session) says what its prompt does.
	return placeholder ?? 'type !command, /help, or TOOL {json}';
}
