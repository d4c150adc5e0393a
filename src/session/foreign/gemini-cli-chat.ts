import {ContractLines} from './contract-lines.js';
import type {ForeignReader} from './foreign-reader.js';

export class GeminiCliChat implements ForeignReader {
	readonly lines = new ContractLines('GeminiCliChat', 'pi');
	record(): void {}
	end(): void {}
}
