// Claude Code (@anthropic-ai/claude-code): Anthropic's Messages API at ANTHROPIC_BASE_URL, with a key.
// A throwaway HOME answers what a first start asks (~/.claude.json: onboarding done, the key approved,
// every work folder trusted); non-essential traffic, telemetry and the updater are off, so nothing but the
// fake server is asked. `--allowedTools Bash` runs the shell calls without a prompt
// (`--dangerously-skip-permissions` refuses to run as root); `--continue` resumes.
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {ensureNpmPeer} from '../install-peer.mjs';

const apiKey = 'sk-ant-api03-bench-bench-bench-bench-bench';

export default {
	name: 'claude-code',
	packageName: '@anthropic-ai/claude-code',
	api: 'anthropic',
	// A Claude model name, so its context window and features are a real model's.
	model: 'claude-sonnet-4-5',
	install: ({cache, refresh}) => ensureNpmPeer({cache, folder: 'claude-code', packageName: '@anthropic-ai/claude-code', bin: 'claude', refresh}),
	configure({home, baseUrl, workFolders}) {
		const project = {hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, projectOnboardingSeenCount: 1, allowedTools: []};
		writeFileSync(join(home, '.claude.json'), JSON.stringify({
			hasCompletedOnboarding: true,
			lastOnboardingVersion: '9.9.9',
			theme: 'dark',
			autoUpdates: false,
			// Claude Code remembers an approved key by its last 20 characters.
			customApiKeyResponses: {approved: [apiKey.slice(-20)], rejected: []},
			projects: Object.fromEntries(workFolders.map(folder => [folder, project])),
		}, null, 2));
		return {
			ANTHROPIC_API_KEY: apiKey,
			ANTHROPIC_BASE_URL: baseUrl,
			CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
			DISABLE_TELEMETRY: '1',
			DISABLE_AUTOUPDATER: '1',
			DISABLE_ERROR_REPORTING: '1',
		};
	},
	launchArgs: ({model}) => ['--model', model, '--allowedTools', 'Bash'],
	resumeArgs: ({model}) => ['--model', model, '--allowedTools', 'Bash', '--continue'],
	// The input box's hint line once the prompt is up.
	ready: /\? for shortcuts|bypass permissions|accept edits/,
	// Ctrl+C twice on an empty prompt exits; Ctrl+D twice too.
	quitKeys: [['C-c', 'C-c'], ['C-d', 'C-d']],
};
