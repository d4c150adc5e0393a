/**
@module The job-control tools `job_output`, `job_list` and `job_kill` (contract.md §T5.5,
contract.md §E2.11): generic cards, no result view.
*/
import {textContent, type ContentBlock} from '../tools/content.js';
import {defineTool} from '../tools/define-tool.js';
import {HarnessError} from '../tools/errors.js';
import type {ToolDefinition, ToolExecution, ToolExecutionResult} from '../tools/types.js';
import {boundJobText} from './bound-text.js';
import type {JobRuntime} from './job-runtime.js';
import {publicJobSnapshot} from './job-types.js';
import {formatJobListLine, formatJobStatusLine} from './status-line.js';

/** How the job tools are configured. */
export type JobToolsOptions = {
	/** `job_output` wait timeout when the call gives none. Default 30 000 ms. */
	readonly waitTimeoutMs?: number;
	/** Cap of any `job_output` wait. Default 600 000 ms. */
	readonly maxWaitTimeoutMs?: number;
	/** Attach a job controller to the runtime (so producers may start jobs). Default true. */
	readonly attachController?: boolean;
};

/** Defaults of the job tools. */
const jobToolsDefaults = {waitTimeoutMs: 30_000, maxWaitTimeoutMs: 600_000} as const;

const publicJobSchema = {
	type: 'object',
	additionalProperties: false,
	properties: {
		id: {type: 'string', required: true},
		kind: {type: 'string', required: true},
		label: {type: 'string', required: true},
		status: {type: 'string', enum: ['running', 'stopping', 'completed', 'killed', 'failed'], required: true},
		detail: {type: 'string'},
		startedAt: {type: 'integer', required: true},
		finishedAt: {type: 'integer'},
	},
} as const;

const jobIdParameter = {type: 'string', required: true} as const;

/** `job_id` must be non-empty; the schema cannot say so. */
function requireJobId(id: string): string {
	if (id === '') {
		throw new Error('invalid job_id: expected a non-empty string, got ""');
	}

	return id;
}

/** Throw the registry's cancellation error when the call was cancelled during a wait. */
function abortedError(): HarnessError {
	const error = new HarnessError('tool call aborted', 'ABORTED');
	error.name = 'AbortError';
	return error;
}

/** A finalizer bounding single-text content to the visible job's `outputLimitBytes`. */
function boundByJobLimit(runtime: JobRuntime) {
	return (exec: Readonly<ToolExecution>, result: Readonly<ToolExecutionResult>): ContentBlock[] | undefined => {
		const args = exec.arguments;
		const id = typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as {job_id?: unknown}).job_id : undefined;
		const limit = typeof id === 'string' ? runtime.outputLimitOf(id) : undefined;
		const [block] = result.content;
		if (limit === undefined || result.content.length !== 1 || block.type !== 'text') {
			return undefined;
		}

		const marker = !result.isError && exec.name === 'job_output' ? '[output truncated]' : '[result truncated]';
		const bounded = boundJobText(block.text, limit, marker);
		return bounded === block.text ? undefined : textContent(bounded);
	};
}

/** `job_output`: new output of a job, optionally after waiting for it to finish. */
function jobOutputTool(runtime: JobRuntime, options: JobToolsOptions = {}) {
	const waitTimeoutMs = options.waitTimeoutMs ?? jobToolsDefaults.waitTimeoutMs;
	const maxWaitTimeoutMs = options.maxWaitTimeoutMs ?? jobToolsDefaults.maxWaitTimeoutMs;
	if (!(waitTimeoutMs > 0 && maxWaitTimeoutMs > 0 && waitTimeoutMs <= maxWaitTimeoutMs)) {
		throw new Error(`jobTools: waitTimeoutMs (${waitTimeoutMs}) must be positive and at most maxWaitTimeoutMs (${maxWaitTimeoutMs})`);
	}

	return defineTool({
		name: 'job_output',
		description: 'A background job\'s status and output since the last read; with wait, after it ends or timeout_ms passes.',
		parameters: {
			job_id: jobIdParameter,
			wait: {type: 'boolean'},
			timeout_ms: {type: 'number', description: `Default ${waitTimeoutMs}, max ${maxWaitTimeoutMs}.`},
		},
		output: {
			schema: {
				type: 'object',
				additionalProperties: false,
				properties: {text: {type: 'string', required: true}, job: {...publicJobSchema, required: true}},
			},
			render(_args, value) {
				const body = value.text === '' ? '(no new output)' : value.text;
				return textContent(`${body}${body.endsWith('\n') ? '' : '\n'}${formatJobStatusLine(value.job)}`);
			},
		},
		async execute(args, exec) {
			const id = requireJobId(args.job_id);
			if (args.wait === true) {
				const timeout = Math.min(args.timeout_ms ?? waitTimeoutMs, maxWaitTimeoutMs);
				try {
					await runtime.wait(id, timeout, exec.agent, exec.signal);
				} catch (error) {
					throw exec.signal.aborted ? abortedError() : error;
				}
			}

			const {text, snapshot} = runtime.read(id, exec.agent);
			return {text, job: publicJobSnapshot(snapshot)};
		},
		finalizeContent: boundByJobLimit(runtime),
		presentCall: (args) => ({card: 'generic', title: `Read output from background job ${args.job_id}`, kind: 'read', rawInput: args.job_id}),
	});
}

/** `job_list`: the background jobs this session may see. */
function jobListTool(runtime: JobRuntime) {
	return defineTool({
		name: 'job_list',
		description: 'List background jobs and their status.',
		parameters: {},
		output: {
			schema: {type: 'array', items: publicJobSchema},
			render: (_args, jobs) => textContent(jobs.length === 0 ? '(no background jobs)' : jobs.map(formatJobListLine).join('\n')),
		},
		async execute(_args, exec) {
			return runtime.list(exec.agent).map(publicJobSnapshot);
		},
		presentCall: () => ({card: 'generic', title: 'List background jobs', kind: 'read'}),
	});
}

/** `job_kill`: ask a background job to stop. */
function jobKillTool(runtime: JobRuntime) {
	return defineTool({
		name: 'job_kill',
		description: 'Stop a background job (its output stays readable).',
		parameters: {
			job_id: jobIdParameter,
			reason: {type: 'string'},
		},
		output: {
			schema: {
				type: 'object',
				additionalProperties: false,
				properties: {
					outcome: {type: 'string', enum: ['cancellation-requested', 'already-finished'], required: true},
					job: {...publicJobSchema, required: true},
				},
			},
			render: (_args, value) =>
				textContent(
					value.outcome === 'cancellation-requested'
						? `requested cancellation of job ${value.job.id}`
						: `job ${value.job.id} had already finished ${formatJobStatusLine(value.job)}`,
				),
		},
		async execute(args, exec) {
			const id = requireJobId(args.job_id);
			const outcome = runtime.kill(id, exec.agent, args.reason);
			// A non-consuming snapshot: pending stream output stays for job_output.
			const job = publicJobSnapshot(runtime.get(id, exec.agent));
			return {outcome: outcome === 'requested' ? ('cancellation-requested' as const) : ('already-finished' as const), job};
		},
		finalizeContent: boundByJobLimit(runtime),
		presentCall: (args) => ({card: 'generic', title: `Kill background job ${args.job_id}`, kind: 'execute', rawInput: args.job_id}),
	});
}

/** The three job tools over `runtime`, in the order `job_output`, `job_list`, `job_kill`; attaches a job controller. */
export function jobTools(runtime: JobRuntime, options: JobToolsOptions = {}): readonly ToolDefinition[] {
	const tools: ToolDefinition[] = [jobOutputTool(runtime, options), jobListTool(runtime), jobKillTool(runtime)];
	if (options.attachController !== false) {
		runtime.attachController('job-tools');
	}

	return tools;
}
