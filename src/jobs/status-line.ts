/**
@module The model-facing lines that describe a job's state (contract.md §T5.5).
*/
import type {JobSnapshot, PublicJobSnapshot} from './job-types.js';

/** `[status: <status>]` or `[status: <status>, <detail>]`. */
export function formatJobStatusLine(job: Pick<PublicJobSnapshot, 'status' | 'detail'>): string {
	return job.detail === undefined || job.detail === '' ? `[status: ${job.status}]` : `[status: ${job.status}, ${job.detail}]`;
}

/** One `job_list` line: `<id> [<kind>] <status> — <label>`. */
export function formatJobListLine(job: PublicJobSnapshot): string {
	return `${job.id} [${job.kind}] ${job.status} — ${job.label}`;
}

/**
The notice a session injects when an owned job settles unreported:
`background job <id> (<kind>: <label>) finished <status line>. Read its output with job_output.`
*/
export function formatJobCompletionNotice(job: JobSnapshot | PublicJobSnapshot): string {
	return `background job ${job.id} (${job.kind}: ${job.label}) finished ${formatJobStatusLine(job)}. Read its output with job_output.`;
}
