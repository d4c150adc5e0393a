/**
@module When the live screen calls the person back, as a pure rule over its snapshots: the state a
title shows (working, waiting for you, done), the notification a change of state rings, and whether
it rings given the setting and what the terminal said about its focus (DECSET 1004). No React, no
terminal: `hooks/use-attention.ts` writes what this decides.
*/
import {assertNever} from '../src/presentation/assert-never.js';
import type {AttentionTerminal} from '../src/layout/terminal/attention-output.js';
import type {LiveSnapshot} from './session-model.js';

/** `auto`: ring only when the terminal reported that it lost focus; `always`: at every call; `off`: never. */
export type NotificationSetting = 'auto' | 'always' | 'off';

/** How the live screen calls the person back (absent: it never does, and leaves the title alone). */
export type AttentionOptions = {
	readonly terminal: AttentionTerminal;
	readonly notifications: NotificationSetting;
};

/** What the session is doing, as the title says it; `idle` before the first piece of work. */
export type ScreenState = 'idle' | 'working' | 'waiting' | 'done';

/** What the terminal's focus reports said last: `unknown` until the first report (many terminals never send one). */
export type TerminalFocus = 'unknown' | 'focused' | 'unfocused';

/** The state after `snapshot`, given the state before it (done stays done until the next piece of work). */
export function screenState(snapshot: LiveSnapshot, before: ScreenState): ScreenState {
	if (snapshot.approval !== undefined) {
		return 'waiting';
	}

	if (snapshot.working === true || snapshot.turn !== undefined || snapshot.running.length > 0) {
		return 'working';
	}

	return before === 'idle' ? 'idle' : 'done';
}

/** The words of a state in the title. */
export function stateWords(state: ScreenState): string | undefined {
	switch (state) {
		case 'idle': {
			return undefined;
		}

		case 'working': {
			return 'working';
		}

		case 'waiting': {
			return 'waiting for you';
		}

		case 'done': {
			return 'done';
		}

		default: {
			return assertNever(state);
		}
	}
}

/** The window title: `cardterm · <session title or folder> · <state>`. Sanitized where it is written. */
export function windowTitle(name: string, state: ScreenState): string {
	const words = stateWords(state);
	return ['cardterm', name, ...(words === undefined ? [] : [words])].join(' · ');
}

/** A notification: what it is about, in a few words. */
export type Attention = {readonly body: string};

/**
The notification a change of the screen rings, if any: a question that starts waiting (a new one
too, while another was answered), or work that ended with nothing left to wait for.
*/
export function attentionFor(before: {readonly state: ScreenState; readonly approvalId?: string}, after: LiveSnapshot, state: ScreenState): Attention | undefined {
	const {approval} = after;
	if (approval !== undefined && approval.id !== before.approvalId) {
		return {body: `waiting for you: may ${approval.toolName} run?`};
	}

	if (state === 'done' && (before.state === 'working' || before.state === 'waiting') && after.queue.length === 0 && !after.closing) {
		return {body: 'done'};
	}

	return undefined;
}

/** Whether a notification rings: never when off, always when asked to, else only while the terminal said it is not focused. */
export function rings(setting: NotificationSetting, focus: TerminalFocus): boolean {
	switch (setting) {
		case 'off': {
			return false;
		}

		case 'always': {
			return true;
		}

		case 'auto': {
			return focus === 'unfocused';
		}

		default: {
			return assertNever(setting);
		}
	}
}
