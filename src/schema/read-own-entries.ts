/**
@module Read author and schema containers once, without trusting them: a getter or proxy trap
that throws, a forged prototype, a symbol or hidden key all make the container unreadable.
*/
import {isIntrinsicArray, isPlainRecord} from '../json/is-plain-record.js';

/** A record's own entries, each value read exactly once, in key order. */
export type OwnEntries = ReadonlyArray<readonly [key: string, value: unknown]>;

/**
The entries of a plain (or null-prototype, any-realm) record whose own keys are all enumerable
strings, or `undefined` when `value` is not such a record or inspecting it throws.
*/
export function readRecordEntries(value: unknown): OwnEntries | undefined {
	try {
		if (!isPlainRecord(value)) {
			return undefined;
		}

		const entries: Array<readonly [string, unknown]> = [];
		for (const key of Reflect.ownKeys(value)) {
			if (typeof key !== 'string' || !Object.prototype.propertyIsEnumerable.call(value, key)) {
				return undefined;
			}

			entries.push([key, value[key]]);
		}

		return entries;
	} catch {
		return undefined;
	}
}

/**
The elements of an intrinsic, dense, undecorated array, each read exactly once, or `undefined`
when `value` is not such an array or inspecting it throws.
*/
export function readDenseArray(value: unknown): unknown[] | undefined {
	try {
		if (!isIntrinsicArray(value)) {
			return undefined;
		}

		const {length} = value;
		// Dense and undecorated: exactly the indices plus `length`.
		if (Reflect.ownKeys(value).length !== length + 1) {
			return undefined;
		}

		const elements: unknown[] = [];
		for (let index = 0; index < length; index++) {
			if (!Object.prototype.hasOwnProperty.call(value, index)) {
				return undefined;
			}

			elements.push(value[index]);
		}

		return elements;
	} catch {
		return undefined;
	}
}

/** Look an entry up by key (own-key semantics: `toString` is absent unless declared). */
export function findEntry(entries: OwnEntries, key: string): readonly [string, unknown] | undefined {
	return entries.find(entry => entry[0] === key);
}
