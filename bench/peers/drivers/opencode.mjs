// opencode (opencode-ai): an `opencode.json` provider through @ai-sdk/openai-compatible with
// `options.baseURL`, no models.dev fetch, no auto-update, `--auto` to approve.
import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {ensureNpmPeer} from '../install-peer.mjs';

export default {
	name: 'opencode',
	packageName: 'opencode-ai',
	api: 'chat',
	install: ({cache, refresh}) => ensureNpmPeer({cache, folder: 'opencode', packageName: 'opencode-ai', bin: 'opencode', refresh}),
	configure({home, baseUrl, model}) {
		mkdirSync(join(home, '.config', 'opencode'), {recursive: true});
		writeFileSync(join(home, '.config', 'opencode', 'opencode.json'), JSON.stringify({
			$schema: 'https://opencode.ai/config.json',
			provider: {fake: {npm: '@ai-sdk/openai-compatible', name: 'Fake', options: {baseURL: `${baseUrl}/v1`, apiKey: 'bench'}, models: {[model]: {name: model}}}},
			model: `fake/${model}`,
			small_model: `fake/${model}`,
			autoupdate: false,
			share: 'disabled',
		}, null, 2));
		return {OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_AUTOUPDATE: '1'};
	},
	launchArgs: () => ['--auto'],
	resumeArgs: () => ['--auto', '--continue'],
	ready: /Ask anything/,
	quitKeys: [['C-c'], ['C-d']],
};
