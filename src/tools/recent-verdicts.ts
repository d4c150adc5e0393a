/**
@module A verdict remembered for the last few objects, by identity. A card's presenters check the
same parsed arguments at its call and at its result, a few events apart; remembering the newest
verdicts catches that without a WeakMap, whose identity hash and ephemeron per object cost more
than a short scan (issue 12: a replay of 21 000 calls spent ~28 ms in the WeakMap alone).
*/

/** Verdicts of the `size` objects asked about last; an older one is asked again (the answer is the same). */
export class RecentVerdicts {
	readonly #keys: Array<object | undefined>;
	readonly #verdicts: boolean[];
	#next = 0;

	constructor(size: number) {
		this.#keys = Array.from({length: size}, () => undefined);
		this.#verdicts = Array.from({length: size}, () => false);
	}

	/** The remembered verdict on `key`, or `judge(key)`, remembered. */
	verdict<K extends object>(key: K, judge: (key: K) => boolean): boolean {
		const keys = this.#keys;
		for (let index = 0; index < keys.length; index++) {
			if (keys[index] === key) {
				return this.#verdicts[index]!;
			}
		}

		const verdict = judge(key);
		keys[this.#next] = key;
		this.#verdicts[this.#next] = verdict;
		this.#next = (this.#next + 1) % keys.length;
		return verdict;
	}
}
