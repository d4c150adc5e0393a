import {describe, expect, it} from 'vitest';
import {snapshotJsonValue} from 'cardterm';

describe('snapshotJsonValue', () => {
	it('copies and deep-freezes a lossless value', () => {
		const input = {a: [1, 'x', null, {b: true}]};
		const snapshot = snapshotJsonValue(input);
		expect(snapshot).toEqual({ok: true, value: input});
		expect(snapshot.ok && snapshot.value).not.toBe(input);
		expect(snapshot.ok && Object.isFrozen(snapshot.value)).toBe(true);
		expect(Object.isFrozen(input)).toBe(false);
	});

	it('rejects undefined inside a record', () => {
		expect(snapshotJsonValue({a: undefined})).toEqual({ok: false});
	});
});
