/**
@module A bounded least-recently-used cache with O(1) reads, writes and evictions. A `Map` used as an
LRU (delete + set to refresh, evict `keys().next()`) slows down under churn: every deletion leaves a
hole that each later eviction walks past, so a cache that evicts on every write (replaying a long
session lays out each entry once) spent more time evicting than laying out. Here a linked list keeps
the order and the map only finds the node.
*/

type Node<K, V> = {readonly key: K; value: V; older: Node<K, V> | undefined; newer: Node<K, V> | undefined};

/** A second bound: entries are evicted while their summed weight passes `limit` (one entry always stays). */
export type LruWeight<K, V> = {readonly of: (key: K, value: V) => number; readonly limit: number};

export class LruCache<K, V> {
	readonly #limit: number;
	readonly #weight: LruWeight<K, V> | undefined;
	readonly #nodes = new Map<K, Node<K, V>>();
	#oldest: Node<K, V> | undefined;
	#newest: Node<K, V> | undefined;
	#weighed = 0;

	/** `limit`: entries kept at most (at least 1); `weight`: an optional bound on their summed weight. */
	constructor(limit: number, weight?: LruWeight<K, V>) {
		this.#limit = Math.max(1, limit);
		this.#weight = weight;
	}

	get size(): number {
		return this.#nodes.size;
	}

	/** The value of `key`, now the most recently used; `undefined` when absent. */
	get(key: K): V | undefined {
		const node = this.#nodes.get(key);
		if (node === undefined) {
			return undefined;
		}

		this.#refresh(node);
		return node.value;
	}

	/** Sets `key` (the most recently used), evicting the least recently used past the limit. */
	set(key: K, value: V): void {
		const known = this.#nodes.get(key);
		if (known !== undefined) {
			this.#weighed += this.#weightOf(key, value) - this.#weightOf(key, known.value);
			known.value = value;
			this.#refresh(known);
		} else {
			const node: Node<K, V> = {key, value, older: this.#newest, newer: undefined};
			this.#append(node);
			this.#nodes.set(key, node);
			this.#weighed += this.#weightOf(key, value);
		}

		while (this.#nodes.size > this.#limit || (this.#weight !== undefined && this.#weighed > this.#weight.limit && this.#nodes.size > 1)) {
			const oldest = this.#oldest!;
			this.#unlink(oldest);
			this.#nodes.delete(oldest.key);
			this.#weighed -= this.#weightOf(oldest.key, oldest.value);
		}
	}

	#weightOf(key: K, value: V): number {
		return this.#weight?.of(key, value) ?? 0;
	}

	clear(): void {
		this.#weighed = 0;
		this.#nodes.clear();
		this.#oldest = undefined;
		this.#newest = undefined;
	}

	#refresh(node: Node<K, V>): void {
		if (node !== this.#newest) {
			this.#unlink(node);
			this.#append(node);
		}
	}

	#append(node: Node<K, V>): void {
		node.older = this.#newest;
		node.newer = undefined;
		if (this.#newest === undefined) {
			this.#oldest = node;
		} else {
			this.#newest.newer = node;
		}

		this.#newest = node;
	}

	#unlink(node: Node<K, V>): void {
		if (node.older === undefined) {
			this.#oldest = node.newer;
		} else {
			node.older.newer = node.newer;
		}

		if (node.newer === undefined) {
			this.#newest = node.older;
		} else {
			node.newer.older = node.older;
		}

		node.older = undefined;
		node.newer = undefined;
	}
}
