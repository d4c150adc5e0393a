import type {ToolDefinition} from '../tools/types.js';

/** The two presenter callbacks of a tool. Raw (non-`defineTool`) tools may throw from them. */
export type Presenter = Pick<ToolDefinition, 'presentCall' | 'presentResult'>;

/** Finds the presenter for a tool name at delivery time; undefined for a tool not registered here. */
export type PresenterLookup = (name: string) => Presenter | undefined;

/** A lookup over tool definitions (the reference tools on replay: presenters run, nothing executes). */
export function presentersOf(definitions: Iterable<Presenter & {readonly name: string}>): PresenterLookup {
	const byName = new Map<string, Presenter>();
	for (const definition of definitions) {
		byName.set(definition.name, definition);
	}

	return name => byName.get(name);
}

/** Reported when a presenter throws; the card falls back to its generic form. */
export type PresenterFailure = {readonly toolName: string; readonly phase: 'call' | 'result'; readonly error: unknown};
