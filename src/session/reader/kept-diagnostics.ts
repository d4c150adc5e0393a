/**
@module The damaged lines of a log as a reader collects them: every one counted, the first
`MAX_KEPT_DIAGNOSTICS` kept in full (a log with a million bad lines must not hold a million reasons).
*/
import type {LogDiagnostic} from './log-errors.js';

/** How many diagnostics a reader keeps in full. */
export const MAX_KEPT_DIAGNOSTICS = 1000;

/** Damaged lines: how many in all, and the first ones in full. */
export type DamagedLines = {
	readonly total: number;
	readonly kept: readonly LogDiagnostic[];
};

export class KeptDiagnostics implements DamagedLines {
	readonly #kept: LogDiagnostic[] = [];
	#total = 0;

	get total(): number {
		return this.#total;
	}

	get kept(): readonly LogDiagnostic[] {
		return this.#kept;
	}

	add(diagnostic: LogDiagnostic): void {
		this.#total++;
		if (this.#kept.length < MAX_KEPT_DIAGNOSTICS) {
			this.#kept.push(diagnostic);
		}
	}

	/** Forget everything (the log was replaced: its damage is not the new file's). */
	clear(): void {
		this.#kept.length = 0;
		this.#total = 0;
	}
}
