// Peers install on demand into a cache folder of their own (`npm install --prefix`), never into the
// project's dependencies. The default cache is ~/.cache/cardterm-bench-peers (CARDTERM_PEERS_CACHE).
import {execFileSync} from 'node:child_process';
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {homedir} from 'node:os';
import {join} from 'node:path';

export const defaultCache = () => process.env.CARDTERM_PEERS_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'cardterm-bench-peers');

/**
The installed `bin` of npm package `packageName` in `<cache>/<folder>`, installing it first when missing
(or always, with `refresh`). Resolves `{command, version}`; throws with npm's last lines when it fails.
*/
export function ensureNpmPeer({cache, folder, packageName, bin, refresh = false}) {
	const prefix = join(cache, folder);
	const binary = join(prefix, 'node_modules', '.bin', bin);
	if (refresh || !existsSync(binary)) {
		mkdirSync(prefix, {recursive: true});
		if (!existsSync(join(prefix, 'package.json'))) {
			writeFileSync(join(prefix, 'package.json'), '{"private": true}\n');
		}

		try {
			execFileSync('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', `${packageName}@latest`], {stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', timeout: 600_000});
		} catch (error) {
			const output = `${error.stdout ?? ''}${error.stderr ?? ''}`.trim().split('\n').slice(-5).join('\n');
			throw new Error(`npm install ${packageName} failed: ${output || error.message}`);
		}

		if (!existsSync(binary)) {
			throw new Error(`npm install ${packageName} did not install the ${bin} command`);
		}
	}

	// bounded spread: a package name has at most one slash.
	const manifest = JSON.parse(readFileSync(join(prefix, 'node_modules', ...packageName.split('/'), 'package.json'), 'utf8'));
	return {command: [binary], version: manifest.version};
}
