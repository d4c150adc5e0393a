import {describe, expect, it} from 'vitest';
import {
	approvalStanding, cardCount, cardOutcome, cardOutcomes, emptyOutcomeCounts, isNotOk, notOkCount, outcomeStatus, outcomeTally, terminalExit,
	type OutcomeFacts,
} from '../../src/presentation/card-outcome.js';

const text = (value: string) => [{type: 'text' as const, text: value}];
const result = (value: string, extra: Partial<NonNullable<OutcomeFacts['result']>> = {}): OutcomeFacts['result'] => ({content: text(value), isError: false, ...extra});

describe('the outcome rule', () => {
	it('is running while no result came and nothing closed the call', () => {
		expect(cardOutcome({result: null, closed: false})).toBe('running');
		expect(cardOutcome({result: null, closed: false, approval: 'allowed'})).toBe('running');
	});

	it('is pending while an approval is asked and unanswered', () => {
		expect(cardOutcome({result: null, closed: false, approval: 'asked'})).toBe('pending');
	});

	it('is ok for a result that is not an error and says nothing failed', () => {
		expect(cardOutcome({result: result('done\n[exit code: 0]'), closed: false})).toBe('ok');
		expect(cardOutcome({result: result('done'), closed: false})).toBe('ok');
		expect(cardOutcome({result: result('Fetched (HTTP 200)', {meta: {statusCode: 200}}), closed: false})).toBe('ok');
	});

	it('is failed for a non-zero exit, a signal, or an HTTP status of 400 or more', () => {
		expect(cardOutcome({result: result('boom\n[exit code: 3]'), closed: false})).toBe('failed');
		expect(cardOutcome({result: result('…\n[timed out after 100ms]\n[killed by signal: SIGTERM]'), closed: false})).toBe('failed');
		expect(cardOutcome({result: result('Fetched (HTTP 404)', {meta: {url: 'u', statusCode: 404, truncated: false}}), closed: false})).toBe('failed');
		expect(cardOutcome({result: result('Fetched (HTTP 399)', {meta: {statusCode: 399}}), closed: false})).toBe('ok');
	});

	it('reads the exit marker only at the very end of a single text block', () => {
		expect(cardOutcome({result: result('[exit code: 3]\nmore'), closed: false})).toBe('ok');
		expect(cardOutcome({result: {content: [...text('a\n[exit code: 3]'), ...text('b')], isError: false}, closed: false})).toBe('ok');
	});

	it('is error for an error result, whatever its text says', () => {
		expect(cardOutcome({result: result('Error: nope\n[exit code: 3]', {isError: true}), closed: false})).toBe('error');
		expect(cardOutcome({result: result('Error: x', {isError: true, error: {code: 'FS_NOT_FOUND'}}), closed: false})).toBe('error');
		expect(cardOutcome({result: result('Error: x', {isError: true}), closed: false, approval: 'allowed'})).toBe('error');
	});

	it('is denied for an error result of a call whose approval was refused', () => {
		expect(cardOutcome({result: result('Error: the user rejected tool "bash"', {isError: true}), closed: false, approval: 'refused'})).toBe('denied');
		// An ACP agent's reject-always is a refusal too (it stood as allowed).
		expect(['rejected', 'rejected-always', 'cancelled', 'unavailable'].map(outcome => approvalStanding(outcome))).toEqual(['refused', 'refused', 'refused', 'refused']);
		expect(['allowed-once', 'allowed-session', 'allowed-always'].map(outcome => approvalStanding(outcome))).toEqual(['allowed', 'allowed', 'allowed']);
		expect(approvalStanding(undefined)).toBe('asked');
	});

	it('is cancelled for an aborted result, even after a refused approval', () => {
		expect(cardOutcome({result: result('Error: tool call aborted', {isError: true, error: {code: 'ABORTED'}}), closed: false})).toBe('cancelled');
		expect(cardOutcome({result: result('Error: x', {isError: true, error: {code: 'ABORTED_BEFORE_DISPATCH'}}), closed: false, approval: 'refused'})).toBe('cancelled');
	});

	it('is denied when the person refused the call and its step closed without a result (an ACP agent need not report a refused call)', () => {
		expect(cardOutcome({result: null, closed: true, approval: 'refused'})).toBe('denied');
	});

	it('is interrupted when the step closed without a result, or for a crash-repair result', () => {
		expect(cardOutcome({result: null, closed: true})).toBe('interrupted');
		expect(cardOutcome({result: null, closed: true, approval: 'asked'})).toBe('interrupted');
		expect(cardOutcome({result: null, closed: true, approval: 'allowed'})).toBe('interrupted');
		expect(cardOutcome({result: result('lost', {isError: true, error: {code: 'TOOL_OUTCOME_UNKNOWN'}}), closed: false})).toBe('interrupted');
		expect(cardOutcome({result: result('lost', {isError: true, error: {code: 'TOOL_NOT_STARTED'}}), closed: false})).toBe('interrupted');
	});

	it('projects to the contract status: failed is ok, denied is error, pending is running', () => {
		expect(cardOutcomes.map(outcome => outcomeStatus(outcome))).toEqual(['running', 'running', 'ok', 'ok', 'error', 'error', 'cancelled', 'interrupted']);
		expect(cardOutcomes.filter(outcome => isNotOk(outcome))).toEqual(['failed', 'error', 'denied', 'cancelled', 'interrupted']);
	});

	it('splits a terminal text at its exit marker', () => {
		expect(terminalExit('a\n[exit code: 2]')).toEqual({output: 'a', exitCode: 2});
		expect(terminalExit('a\n[killed by signal: SIGKILL]')).toEqual({output: 'a', signal: 'SIGKILL'});
		expect(terminalExit('a')).toEqual({output: 'a', exitCode: 0});
	});

	it('tallies only the outcomes that occurred, in one wording', () => {
		const counts = {...emptyOutcomeCounts(), ok: 3, failed: 1, denied: 2, pending: 1};
		expect(outcomeTally(counts)).toBe('○ 1 awaiting approval  ● 3 ok  ✗ 1 failed  ✗ 2 denied');
		expect(outcomeTally(emptyOutcomeCounts())).toBe('');
		expect([cardCount(counts), notOkCount(counts)]).toEqual([7, 3]);
	});
});
