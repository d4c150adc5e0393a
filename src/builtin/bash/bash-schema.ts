/**
@module The bash tool's parameters and canonical value (contract.md §E2.1, §E2.2;
contract.md §T4.1), as DSL schemas. The TypeScript types follow from them.
*/
import type {InferArgs, InferValue} from '../../schema/infer.js';

/** Parameters. `run_in_background` is advertised only when background jobs are enabled. */
export const bashParameters = {
	command: {type: 'string', required: true},
	// What `description` and `workdir` mean is said once, in the system prompt (TOOL_CONVENTIONS).
	description: {type: 'string', required: true},
	timeoutMs: {type: 'number', description: 'Default 120000, max 600000.'},
	workdir: {type: 'string'},
	run_in_background: {type: 'boolean', description: 'Return a job id at once.'},
} as const;

const streamSchema = {
	type: 'object',
	additionalProperties: false,
	properties: {
		text: {type: 'string', required: true},
		truncated: {type: 'boolean', required: true},
		spillPath: {type: 'string'},
	},
} as const;

const foregroundSchema = {
	type: 'object',
	additionalProperties: false,
	properties: {
		kind: {type: 'string', const: 'foreground', required: true},
		exitCode: {oneOf: [{type: 'integer'}, {type: 'null'}], required: true},
		signal: {oneOf: [{type: 'string'}, {type: 'null'}], required: true},
		timedOut: {type: 'boolean', required: true},
		aborted: {type: 'boolean', required: true},
		timeoutMs: {type: 'number', required: true},
		stdout: {...streamSchema, required: true},
		stderr: {...streamSchema, required: true},
	},
} as const;

const backgroundSchema = {
	type: 'object',
	additionalProperties: false,
	properties: {
		kind: {type: 'string', const: 'background', required: true},
		jobId: {type: 'string', required: true},
	},
} as const;

/** The canonical value: a foreground run or a background handle. */
export const bashOutputSchema = {oneOf: [foregroundSchema, backgroundSchema]} as const;

/** The arguments a valid call carries. */
export type BashArgs = InferArgs<typeof bashParameters>;

/** The canonical value. */
export type BashValue = InferValue<typeof bashOutputSchema>;

/** A foreground run's value. */
export type BashForegroundValue = Extract<BashValue, {kind: 'foreground'}>;

