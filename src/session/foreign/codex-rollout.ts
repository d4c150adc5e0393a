import {ContractLines} from './contract-lines.js';
import type {ForeignReader} from './foreign-reader.js';

export class CodexRollout implements ForeignReader {
	readonly lines = new ContractLines('CodexRollout', 'pi');
	record(): void {}
	end(): void {}
}
