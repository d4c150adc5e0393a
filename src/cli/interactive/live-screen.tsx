/**
@module The interactive session's Ink screen: InteractiveApp rendered over the session's controller.
Loaded by `run-interactive.ts` (under withScreenEnvironment) after the session is open and a continued
session's history is in the scrollback, so that history does not wait for Ink and React to load.
*/
import React from 'react';
import {render, type Instance} from 'ink';
import {InteractiveApp} from '../../../components/InteractiveApp.js';
import {ColorDepthContext} from '../../../components/color-depth-context.js';
import {LIVE_MAX_FPS} from '../../../components/frame-pacing.js';
import type {Card} from '../../presentation/card.js';
import type {ColorDepth} from '../../layout/color-depth.js';
import type {Theme} from '../../layout/theme.js';
import type {LiveSession} from '../../live/live-session.js';

export type LiveScreenOptions = {
	readonly controller: LiveSession;
	readonly theme: Theme;
	readonly color: boolean;
	readonly depth: ColorDepth;
	readonly hyperlinks: boolean;
	readonly motion: boolean;
	readonly onCopy: (text: string) => string;
	readonly onOpen: (card: Card) => {readonly message: string; readonly ran: boolean};
};

export function renderLiveScreen({controller, theme, color, depth, hyperlinks, motion, onCopy, onOpen}: LiveScreenOptions): Instance {
	const frameListeners = new Set<() => void>();
	const onFrame = (listener: () => void): (() => void) => {
		frameListeners.add(listener);
		return () => frameListeners.delete(listener);
	};

	return render(
		<ColorDepthContext.Provider value={depth}>
		<InteractiveApp
			model={controller}
			theme={theme}
			color={color}
			hyperlinks={hyperlinks}
			motion={motion}
			onFrame={onFrame}
			onCopy={onCopy}
			onOpen={onOpen}
		/>
		</ColorDepthContext.Provider>,
		{
			exitOnCtrlC: false,
			patchConsole: false,
			// A short throttle: the app paces what streams itself, and draws a first token at once.
			maxFps: LIVE_MAX_FPS,
			onRender() {
				for (const listener of [...frameListeners]) {
					listener();
				}
			},
		},
	);
}
