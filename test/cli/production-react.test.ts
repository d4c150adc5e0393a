import {execFileSync} from 'node:child_process';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {afterEach, describe, expect, it} from 'vitest';
import {withProductionReact} from '../../src/cli/production-react.js';
import {buildDist} from '../app/e2e-helpers.js';

const repo = join(import.meta.dirname, '..', '..');
const saved = process.env.NODE_ENV;
afterEach(() => {
	if (saved === undefined) {
		delete process.env.NODE_ENV;
	} else {
		process.env.NODE_ENV = saved;
	}
});

describe('the screens load React\'s production builds', () => {
	it('sets NODE_ENV to production only while the modules load, and puts back what was there (unset, set, after a failure)', async () => {
		delete process.env.NODE_ENV;
		expect(await withProductionReact(async () => process.env.NODE_ENV)).toBe('production');
		expect('NODE_ENV' in process.env).toBe(false);
		process.env.NODE_ENV = 'development';
		await expect(withProductionReact(async () => {
			throw new Error(`failed under ${process.env.NODE_ENV}`);
		})).rejects.toThrow('failed under production');
		expect(process.env.NODE_ENV).toBe('development');
	});

	it('a fresh process importing React through it gets the production build (no dev-only exports), and without it the development one', () => {
		buildDist();
		const helper = pathToFileURL(join(repo, 'dist/src/cli/production-react.js')).href;
		// React's development build exports captureOwnerStack; its production build does not.
		const probe = (wrapped: boolean): string => execFileSync(process.execPath, ['--input-type=module', '-e', `
			const {withProductionReact} = await import(${JSON.stringify(helper)});
			const load = () => import('react');
			const React = (${wrapped} ? await withProductionReact(load) : await load()).default;
			process.stdout.write(JSON.stringify({build: typeof React.captureOwnerStack === 'function' ? 'development' : 'production', nodeEnv: process.env.NODE_ENV ?? null}));
		`], {cwd: repo, encoding: 'utf8', env: {PATH: process.env.PATH ?? ''}});
		expect(JSON.parse(probe(true))).toEqual({build: 'production', nodeEnv: null});
		expect(JSON.parse(probe(false))).toEqual({build: 'development', nodeEnv: null});
	}, 120_000);
});
