import {basename} from 'node:path';
import {useEffect, useRef} from 'react';
import {useStdin, useStdout} from 'ink';
import {notificationOutput, PUSH_TITLE, RESTORE_TITLE, titleOutput} from '../../src/layout/terminal/attention-output.js';
import {controlSequence, writeOutput, type TerminalOutput} from '../../src/layout/terminal/terminal-sink.js';
import {attentionFor, rings, screenState, windowTitle, type AttentionOptions, type ScreenState, type TerminalFocus} from '../attention.js';
import {focusReport} from '../input/keys.js';
import type {SessionModel} from '../session-model.js';
import {FOCUS_REPORTING, useTerminalMode} from './use-terminal-mode.js';

const NO_MODE = {on: controlSequence(''), off: controlSequence('')};

/**
The window title (`cardterm · <title or folder> · <state>`, pushed on the title stack at mount and
popped on every way out) and a notification when a turn ends or a question waits while the terminal
is not focused (`attention.ts` decides). The focus comes from the terminal's reports (DECSET 1004,
on while the setting is `auto`); the key parser drops them, so they are never typed.
Reads every snapshot of the model, not the paced ones a frame draws: a piece of work shorter than a
frame still counts as work that ended.
*/
export function useAttention(model: SessionModel, options: AttentionOptions | undefined): void {
	const {stdout} = useStdout();
	const {internal_eventEmitter: events} = useStdin();
	const notifications = options?.notifications ?? 'off';
	const title = options?.terminal.title === true;
	useTerminalMode(FOCUS_REPORTING, options !== undefined && notifications === 'auto');
	useTerminalMode(title ? {on: PUSH_TITLE, off: RESTORE_TITLE} : NO_MODE, title);
	const focus = useRef<TerminalFocus>('unknown');

	useEffect(() => {
		if (notifications !== 'auto') {
			return;
		}

		const onInput = (data: unknown): void => {
			const report = focusReport(String(data));
			if (report !== undefined) {
				focus.current = report === 'in' ? 'focused' : 'unfocused';
			}
		};

		events.on('input', onInput);
		return () => {
			events.removeListener('input', onInput);
		};
	}, [events, notifications]);

	useEffect(() => {
		if (options === undefined) {
			return;
		}

		const {terminal} = options;
		const send = (output: TerminalOutput): void => {
			void writeOutput(stdout, output).catch(() => undefined);
		};

		const folder = basename(model.cwd) || model.cwd;
		let before: {state: ScreenState; approvalId?: string; shown?: string} = {state: 'idle'};
		const update = (): void => {
			const snapshot = model.getSnapshot();
			const state = screenState(snapshot, before.state);
			const name = snapshot.title ?? folder;
			const attention = attentionFor(before, snapshot, state);
			if (attention !== undefined && rings(notifications, focus.current)) {
				send(notificationOutput(terminal, 'cardterm', `${attention.body} · ${name}`));
			}

			const shown = terminal.title && !snapshot.closing ? windowTitle(name, state) : before.shown;
			if (shown !== before.shown && shown !== undefined) {
				send(titleOutput(shown));
			}

			before = {state, ...(snapshot.approval === undefined ? {} : {approvalId: snapshot.approval.id}), ...(shown === undefined ? {} : {shown})};
		};

		update();
		return model.subscribe(update);
	}, [model, options, notifications, stdout]);
}
