/**
@module Appending and measuring arrays of any length. `target.push(...items)` and
`Math.max(...values)` pass every element as an argument, on the stack: past ~125 000 elements V8
throws `RangeError: Maximum call stack size exceeded`, and one huge line can wrap into that many
rows. test/reliability/argument-spreads.test.ts refuses such spreads; these loops replace them.
*/

/** Append `items` to `target` (an array, or anything with `push`) one at a time. */
export function pushAll<T>(target: {push(item: T): unknown}, items: Iterable<T>): void {
	for (const item of items) {
		target.push(item);
	}
}

/** The largest of `values`, or `floor` when there is none larger. */
export function maxOf(values: Iterable<number>, floor: number): number {
	let max = floor;
	for (const value of values) {
		if (value > max) {
			max = value;
		}
	}

	return max;
}
