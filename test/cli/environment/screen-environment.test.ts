import {execFileSync} from 'node:child_process';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {afterEach, describe, expect, it} from 'vitest';
import {withScreenEnvironment} from '../../../src/cli/environment/screen-environment.js';
import {buildDist} from '../../app/e2e-helpers.js';

const repo = join(import.meta.dirname, '..', '..', '..');
const saved = {NODE_ENV: process.env.NODE_ENV, CI: process.env.CI, CONTINUOUS_INTEGRATION: process.env.CONTINUOUS_INTEGRATION};
afterEach(() => {
	for (const [name, value] of Object.entries(saved)) {
		if (value === undefined) {
			delete process.env[name];
		} else {
			process.env[name] = value;
		}
	}
});

describe('the screens load React\'s production builds', () => {
	it('sets NODE_ENV to production only while the modules load, and puts back what was there (unset, set, after a failure)', async () => {
		delete process.env.NODE_ENV;
		expect(await withScreenEnvironment(async () => process.env.NODE_ENV)).toBe('production');
		expect('NODE_ENV' in process.env).toBe(false);
		process.env.NODE_ENV = 'development';
		await expect(withScreenEnvironment(async () => {
			throw new Error(`failed under ${process.env.NODE_ENV}`);
		})).rejects.toThrow('failed under production');
		expect(process.env.NODE_ENV).toBe('development');
	});

	it('a fresh process importing React through it gets the production build (no dev-only exports), and without it the development one', () => {
		buildDist();
		const helper = pathToFileURL(join(repo, 'dist/src/cli/environment/screen-environment.js')).href;
		// React's development build exports captureOwnerStack; its production build does not.
		const probe = (wrapped: boolean): string => execFileSync(process.execPath, ['--input-type=module', '-e', `
			const {withScreenEnvironment} = await import(${JSON.stringify(helper)});
			const load = () => import('react');
			const React = (${wrapped} ? await withScreenEnvironment(load) : await load()).default;
			process.stdout.write(JSON.stringify({build: typeof React.captureOwnerStack === 'function' ? 'development' : 'production', nodeEnv: process.env.NODE_ENV ?? null}));
		`], {cwd: repo, encoding: 'utf8', env: {PATH: process.env.PATH ?? ''}});
		expect(JSON.parse(probe(true))).toEqual({build: 'production', nodeEnv: null});
		expect(JSON.parse(probe(false))).toEqual({build: 'development', nodeEnv: null});
	}, 120_000);
});

describe('the screens draw live frames with CI variables set', () => {
	it('hides CI and CONTINUOUS_INTEGRATION only while the modules load, and puts back what was there', async () => {
		process.env.CI = 'true';
		delete process.env.CONTINUOUS_INTEGRATION;
		expect(await withScreenEnvironment(async () => [process.env.CI, 'CONTINUOUS_INTEGRATION' in process.env])).toEqual([undefined, false]);
		expect(process.env.CI).toBe('true');
		expect('CONTINUOUS_INTEGRATION' in process.env).toBe(false);
	});

	it('a fresh process with CI=true importing Ink through it draws a frame, and without it draws none', () => {
		buildDist();
		const helper = pathToFileURL(join(repo, 'dist/src/cli/environment/screen-environment.js')).href;
		const probe = (wrapped: boolean): string => execFileSync(process.execPath, ['--input-type=module', '-e', `
			const {withScreenEnvironment} = await import(${JSON.stringify(helper)});
			const load = () => import('ink');
			const {render, Text} = ${wrapped} ? await withScreenEnvironment(load) : await load();
			const React = (await import('react')).default;
			const written = [];
			const stdout = {columns: 40, rows: 10, isTTY: true, write(data) { written.push(String(data)); return true; }, on() {}, off() {}};
			const app = render(React.createElement(Text, null, 'frame-drawn'), {stdout, stdin: process.stdin, patchConsole: false, exitOnCtrlC: false});
			const live = written.join('').includes('frame-drawn');
			app.unmount();
			process.stdout.write(JSON.stringify({live, ci: process.env.CI}));
			process.exit(0);
		`], {cwd: repo, encoding: 'utf8', env: {PATH: process.env.PATH ?? '', CI: 'true'}});
		expect(JSON.parse(probe(true))).toEqual({live: true, ci: 'true'});
		expect(JSON.parse(probe(false))).toEqual({live: false, ci: 'true'});
	}, 120_000);
});
