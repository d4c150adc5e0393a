// pi (@mariozechner/pi-coding-agent): a custom provider in ~/.pi/agent/models.json, offline start-up.
// pi runs tools without asking, so it needs no approval flag.
import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {ensureNpmPeer} from '../install-peer.mjs';

export default {
	name: 'pi',
	packageName: '@mariozechner/pi-coding-agent',
	api: 'chat',
	install: ({cache, refresh}) => ensureNpmPeer({cache, folder: 'pi', packageName: '@mariozechner/pi-coding-agent', bin: 'pi', refresh}),
	configure({home, baseUrl, model}) {
		mkdirSync(join(home, '.pi', 'agent'), {recursive: true});
		writeFileSync(join(home, '.pi', 'agent', 'models.json'), JSON.stringify({providers: {fake: {baseUrl: `${baseUrl}/v1`, api: 'openai-completions', apiKey: 'bench', models: [{id: model}]}}}, null, 2));
		return {PI_OFFLINE: '1'};
	},
	launchArgs: ({model}) => ['--provider', 'fake', '--model', model],
	resumeArgs: ({model}) => ['--provider', 'fake', '--model', model, '--continue'],
	// The footer names the model once the editor is up.
	ready: /fake-model\s*$/m,
	// Ctrl+D on an empty editor exits.
	quitKeys: [['C-d'], ['C-c', 'C-c']],
};
