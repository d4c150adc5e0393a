// Gemini CLI (@google/gemini-cli): no OpenAI-compatible mode, so the fake server speaks the Gemini API at
// GOOGLE_GEMINI_BASE_URL; API-key auth selected in settings, the work folders trusted, `--yolo` to approve.
import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {ensureNpmPeer} from '../install-peer.mjs';

export default {
	name: 'gemini-cli',
	packageName: '@google/gemini-cli',
	api: 'gemini',
	// A Gemini model name, so the CLI picks no router and no fallback model.
	model: 'gemini-2.5-flash',
	install: ({cache, refresh}) => ensureNpmPeer({cache, folder: 'gemini', packageName: '@google/gemini-cli', bin: 'gemini', refresh}),
	configure({home, baseUrl, workFolders}) {
		mkdirSync(join(home, '.gemini'), {recursive: true});
		writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify({
			security: {auth: {selectedType: 'gemini-api-key'}, folderTrust: {enabled: true}},
			general: {disableAutoUpdate: true, disableUpdateNag: true},
			privacy: {usageStatisticsEnabled: false},
			telemetry: {enabled: false},
			ide: {enabled: false, hasSeenNudge: true},
		}, null, 2));
		writeFileSync(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify(Object.fromEntries(workFolders.map(folder => [folder, 'TRUST_FOLDER'])), null, 2));
		return {GEMINI_API_KEY: 'bench', GOOGLE_GEMINI_BASE_URL: baseUrl};
	},
	launchArgs: ({model}) => ['--yolo', '-m', model],
	resumeArgs: ({model}) => ['--yolo', '-m', model, '--resume', 'latest'],
	ready: /Type your message/,
	// The first Ctrl+C asks for a second.
	quitKeys: [['C-c', 'C-c'], ['C-d', 'C-d']],
};
