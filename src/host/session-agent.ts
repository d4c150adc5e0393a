/**
@module The agent loop on an opened session: the model drives the session's runtime, registry,
log and jobs (a continued session's events are its conversation so far).
*/
import {createAgent, type CreatedAgent} from '../agent/create-agent.js';
import type {ModelClient} from '../agent/model-types.js';
import type {SessionEvent} from '../session/events.js';
import type {OpenedSession} from './open-session.js';

export type SessionAgentOptions = {readonly cwd: string; readonly model: ModelClient; readonly systemPrompt?: string; readonly maxSteps?: number; readonly history?: Iterable<SessionEvent>};

export async function sessionAgent(session: OpenedSession, options: SessionAgentOptions): Promise<CreatedAgent> {
	return createAgent({
		cwd: options.cwd,
		runtime: session.runtime,
		log: session.log,
		registry: session.registry,
		model: options.model,
		jobs: session.jobs,
		...(options.systemPrompt === undefined ? {} : {systemPrompt: options.systemPrompt}),
		...(options.maxSteps === undefined ? {} : {maxSteps: options.maxSteps}),
		...(options.history === undefined ? {} : {history: options.history}),
	});
}
