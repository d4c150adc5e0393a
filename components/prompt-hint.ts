import type {LiveSnapshot} from './session-model.js';

/** The dim hint in an empty prompt: what typing does now (answer a dialog, a line of text, a command or a model prompt). */
export function promptHintOf(snapshot: Pick<LiveSnapshot, 'approval' | 'multiline' | 'modelConnected'>): string {
	if (snapshot.approval !== undefined) {
		return 'answer the question above: a, s or d';
	}

	if (snapshot.multiline !== undefined) {
		return `${snapshot.multiline.label}: line ${snapshot.multiline.lines + 1}, "." ends`;
	}

	return snapshot.modelConnected === true ? 'ask the model, or type !command, /help' : 'type !command, /help, or TOOL {json}';
}
