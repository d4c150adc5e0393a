import type {LayoutOptions} from '../../src/layout/text/layout-options.js';
import type {Card} from '../../src/presentation/card.js';

export type CardProps = {
	/** The folded card; a new object on every change, so memo compares by identity. */
	readonly card: Card;
	/** Width, expansion, theme and clock of this frame. */
	readonly options: LayoutOptions;
};
