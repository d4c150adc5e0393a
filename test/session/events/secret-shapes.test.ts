import {describe, expect, it} from 'vitest';
import {SecretRedactor, secretsOfShape} from '../../../src/session/events/secret-redactor.js';

describe('secret shapes (cardterm export)', () => {
	it('finds each known shape, named by its kind', () => {
		const text = [
			`ANTHROPIC=sk-ant-api03-${'x1'.repeat(20)}`,
			`openai: sk-proj-${'Ab3'.repeat(10)}`,
			`token ghp_${'a1'.repeat(18)}`,
			'aws AKIAIOSFODNN7EXAMPLE here',
			`google AIza${'B2'.repeat(17)}x`,
			'slack xoxb-1234567890-abcdefghij',
			`stripe sk_live_${'c3'.repeat(10)}`,
			`curl -H "Authorization: Bearer ${'t0'.repeat(15)}"`,
			`-----BEGIN OPENSSH PRIVATE KEY-----\n${'k'.repeat(64)}\n-----END OPENSSH PRIVATE KEY-----`,
			'DATABASE_PASSWORD="correct-horse-battery"',
			'export API_KEY=abcdefgh12345',
		].join('\n');
		expect(secretsOfShape(text).map(secret => secret.name).sort()).toEqual([
			'anthropic-key', 'aws-access-key', 'bearer-token', 'env-value', 'env-value', 'github-token', 'google-api-key', 'openai-key', 'private-key', 'slack-token', 'stripe-key',
		]);
	});

	it('leaves words, paths and short values alone', () => {
		const text = [
			'disk-usage-of-the-whole-cluster-and-more',
			'task-runner-configuration-file-name-here',
			'the risk-assessment-for-the-whole-quarter',
			'Bearer short',
			'PATH=/usr/bin',
			'MAX_TOKENS=4096',
			'my_password = hunter2',
		].join('\n');
		expect(secretsOfShape(text)).toEqual([]);
	});

	it('redacts what it finds with the one redactor', () => {
		const key = `sk-ant-api03-${'z9'.repeat(20)}`;
		const redactor = new SecretRedactor(secretsOfShape(`use ${key}`));
		expect(redactor.redactText(`a ${key} b`)).toBe('a [REDACTED:anthropic-key] b');
	});

	it('stays linear on hostile input (a thousand BEGIN lines without an END)', () => {
		const text = '-----BEGIN RSA PRIVATE KEY-----\n'.repeat(1000) + 'A'.repeat(100_000);
		expect(secretsOfShape(text)).toEqual([]);
	});
});
