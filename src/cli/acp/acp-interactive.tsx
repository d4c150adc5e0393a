/**
@module The interactive front end of `cardterm acp`: the live screen of the interactive session
(`InteractiveApp`) over an ACP agent's session, through `AcpController`.
*/
import React from 'react';
import {render} from 'ink';
import {InteractiveApp} from '../../../components/InteractiveApp.js';
import {LIVE_MAX_FPS} from '../../../components/frame-pacing.js';
import {describeExit} from '../../acp/acp-client.js';
import type {CliIo} from '../cli-io.js';
import {logOutcomeMessage} from '../interactive/log-outcome.js';
import {UsageError} from '../parse-args.js';
import {whenAborted, withTerminationSignals} from '../termination-signals.js';
import {outputColors} from '../output-options.js';
import {AcpController, sessionFeeds} from './acp-controller.js';
import {openAcpSession, type AcpSession, type AcpSessionOptions} from './open-acp-session.js';

export async function acpInteractive(options: Omit<AcpSessionOptions, 'approve'> & {readonly yolo: boolean; readonly colorFlag: boolean | undefined}, io: CliIo): Promise<number> {
	if (!io.isTTY || process.stdin.isTTY !== true) {
		throw new UsageError('acp: the interactive session needs a terminal; use -p PROMPT instead');
	}

	return withTerminationSignals(async signal => {
		let controller: AcpController | undefined;
		const acp: AcpSession = await openAcpSession({...options, approve: async question => controller?.approve(question)});
		const {session, client} = acp;
		const model = new AcpController({
			cwd: options.cwd,
			...sessionFeeds(session),
			client: () => client,
			yolo: options.yolo,
			...(client.facts.modes === undefined ? {} : {mode: client.facts.modes.current}),
			stopAgent: async () => client.close(),
			closeLog: async () => session.close(),
		});
		controller = model;
		void client.exited.then(exit => {
			model.agentExited(describeExit(exit));
		});
		// A termination signal from outside closes the session as Ctrl+D does.
		whenAborted(signal, () => {
			void model.close();
		});
		const {color, theme, hyperlinks} = outputColors(options.colorFlag, io);
		const instance = render(<InteractiveApp model={model} theme={theme} color={color} hyperlinks={hyperlinks} />, {exitOnCtrlC: false, patchConsole: false, maxFps: LIVE_MAX_FPS});
		await instance.waitUntilExit();
		await model.close();
		const state = session.logState();
		await io.printError(`${logOutcomeMessage(state === undefined ? {kind: 'not-saved', reason: 'no session folder'} : state.unwritten > 0 ? {kind: 'incomplete', path: state.path, unwritten: state.unwritten} : {kind: 'saved', path: state.path, events: state.written})} · agent session ${client.facts.sessionId}\n`);
		return 0;
	}, {terminal: true});
}
