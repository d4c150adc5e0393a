/**
@module What a reader of another agent's session files is: it takes the file's records (one JSON
object per line) in order and says what happened through its `ContractLines`, which makes the
contract's log lines of them.
*/
import type {ContractLines} from './contract-lines.js';

export type ForeignReader = {
	readonly lines: ContractLines;
	/** One record of the file. */
	record(value: Readonly<Record<string, unknown>>): void;
	/** The input ended: calls still open belong to a turn that ended without them. */
	end(): void;
};
