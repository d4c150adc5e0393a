/**
@module Background jobs: the runtime producers start jobs in, and the job-control tools.
*/
export {JobRuntime, type JobDoneListener, type JobRuntimeOptions, type JobsChangedListener} from './job-runtime.js';
export {
	isTerminalJobStatus,
	publicJobSnapshot,
	type JobHooks,
	type JobId,
	type JobKillOutcome,
	type JobOutcome,
	type JobRead,
	type JobSnapshot,
	type JobStart,
	type JobStatus,
	type JobTerminalStatus,
	type PublicJobSnapshot,
} from './job-types.js';
export {jobKillTool, jobListTool, jobOutputTool, jobTools, jobToolsDefaults, jobToolsPromptSection, type JobToolsOptions} from './job-tools.js';
export {formatJobCompletionNotice, formatJobListLine, formatJobStatusLine} from './status-line.js';
export {boundJobText} from './bound-text.js';
